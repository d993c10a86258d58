/**
 * The console at GET / in a real headless Chromium (Debian package `chromium`, driven by
 * playwright-core): what a user does in it, each step checked on the page and against the API,
 * with a screenshot of every screen (PNG files in a temp directory, checked to be real images).
 * Needs `npm run build` first (the daemon and the console bundle).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonPool, request, waitFor, type RunningDaemon } from '../helpers/daemon.js';
import { fakeOpenAIConfig, startFakeOpenAI, type FakeModelServer } from '../helpers/fake-openai.js';
import { freePort } from '../helpers/ports.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const TOKEN = 'console-test-token-0123456789';

const pool = daemonPool();
let browser: Browser;
const shots = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-console-shots-'));

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error('chromium is not installed (Debian package chromium)');
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  pool.cleanup();
  fs.rmSync(shots, { recursive: true, force: true });
});

/** A screenshot of the page, checked to be a PNG of the viewport's size. */
async function screenshot(page: Page, name: string): Promise<void> {
  const file = path.join(shots, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  const png = fs.readFileSync(file);
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  expect(png.readUInt32BE(16)).toBe(1280); // IHDR width
  expect(png.length).toBeGreaterThan(5_000);
}

/** A page that records script errors, failed requests and the EventSource requests it makes. */
async function openPage(base: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  const streams: Array<{ url: string; lastEventId: string | undefined }> = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('request', (r) => {
    if (r.resourceType() !== 'eventsource') return;
    void r.allHeaders().then((h) => streams.push({ url: r.url(), lastEventId: h['last-event-id'] }));
  });
  await page.goto(`${base}/`);
  return { context, page, problems, streams };
}

/** The event_seq values listed on the agent page, newest first. */
const listedSeqs = (page: Page) => page.$$eval('ol.events li', (items) => items.map((li) => Number(li.getAttribute('data-seq'))));

describe('the console in local mode', () => {
  let d: RunningDaemon;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    d = await pool.start({ args: ['--listen', `127.0.0.1:${port}`] });
  });

  it('serves one page whose scripts and styles are the daemon\'s own, under a CSP without inline scripts', async () => {
    const page = await request({ base: d.base }, 'GET', '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.text).not.toMatch(/<script>[^<]/);
    for (const src of page.text.matchAll(/(?:src|href)="([^"]+)"/g)) expect(src[1]).toMatch(/^(\/console\/assets\/|data:)/);
    for (const [name, type] of [['app.js', 'text/javascript'], ['app.css', 'text/css']]) {
      const r = await request({ base: d.base }, 'GET', `/console/assets/${name}`);
      expect(r.status, name).toBe(200);
      expect(r.headers['content-type']).toContain(type);
    }
    for (const bad of ['nope.js', '..%2Fapp.js', 'app.js.map', 'constructor']) expect((await request({ base: d.base }, 'GET', `/console/assets/${bad}`)).status, bad).toBe(404);
  });

  it('lists the agents, sends a prompt from the agent page and shows the reply live, without a reload', async () => {
    const { context, page, problems } = await openPage(d.base);
    await page.waitForSelector('table tr[data-key="main"]');
    await screenshot(page, 'agents');
    await page.click('a[href="#/agents/main"]');
    await page.waitForSelector('text=live');
    // A reload would drop this marker.
    await page.evaluate(() => ((globalThis as unknown as { marker: number }).marker = 42));
    await page.fill('textarea[name=text]', 'hello from the console');
    await page.click('form[name=prompt] button[type=submit]');
    await page.waitForSelector('li[data-type="brief_created"]:has-text("echo: hello from the console")', { timeout: 15_000 });
    await screenshot(page, 'agent-events');
    expect(await page.evaluate(() => (globalThis as unknown as { marker: number }).marker)).toBe(42);
    await page.click('nav.tabs a:has-text("Conversation")');
    await page.waitForSelector('li[data-role="assistant"]:has-text("echo: hello from the console")');
    await screenshot(page, 'agent-conversation');
    await page.click('nav.tabs a:has-text("Briefs")');
    await page.waitForSelector('article.brief:has-text("echo: hello from the console")');
    // The page agrees with the API: every event of the log, once each, in order.
    await page.click('nav.tabs a:has-text("Events")');
    const log = await request({ base: d.base }, 'GET', '/api/agents/main/events?limit=1000&order=asc');
    const seqs = (log.json.events as Array<{ event_seq: number }>).map((e) => e.event_seq);
    await waitFor(async () => (await listedSeqs(page)).length === seqs.length, 5000);
    expect(await listedSeqs(page)).toEqual([...seqs].sort((a, b) => b - a));
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it('follows a link taken while its first screen renders', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    // The address changes right after the first screen (the agents list) is in the document: before
    // the effects of that render have run.
    await page.addInitScript({
      content: `new MutationObserver((_, observer) => {
        if (!document.querySelector('main h1')) return;
        observer.disconnect();
        location.hash = '#/agents/main';
      }).observe(document, { childList: true, subtree: true });`,
    });
    await page.goto(`${d.base}/`);
    await page.waitForSelector('h1:has-text("main")', { timeout: 10_000 });
    await page.waitForSelector('text=live');
    await context.close();
  });

  it('resumes its event stream with Last-Event-ID after the daemon restarts, with no gap and no duplicate', async () => {
    const { context, page, problems, streams } = await openPage(d.base);
    await page.goto(`${d.base}/#/agents/main`);
    await page.waitForSelector('text=live');
    // Events that arrive on the open stream carry ids: EventSource remembers the last one.
    await request({ base: d.base }, 'POST', '/api/control/agents/main/prompt', { body: { text: 'before the restart' } });
    await page.waitForSelector('li[data-type="brief_created"]:has-text("echo: before the restart")', { timeout: 15_000 });
    await waitFor(async () => (await request({ base: d.base }, 'GET', '/api/agents/main/status')).json.status === 'idle');
    const head = (await request({ base: d.base }, 'GET', '/api/agents/main/events?limit=1&order=desc')).json.events[0].event_seq as number;
    await waitFor(async () => (await listedSeqs(page))[0] === head);
    expect(await d.stop()).toBe(0);
    await page.waitForSelector('text=connecting');
    d = await pool.start({ home: d.home, args: ['--listen', `127.0.0.1:${port}`] });
    // EventSource reconnects by itself and names the last event it saw.
    await waitFor(() => streams.some((s) => s.lastEventId === String(head)), 20_000, 100);
    await page.waitForSelector('text=live');
    const sent = await request({ base: d.base }, 'POST', '/api/control/agents/main/prompt', { body: { text: 'after the restart' } });
    expect(sent.status).toBe(202);
    await page.waitForSelector('li[data-type="brief_created"]:has-text("echo: after the restart")', { timeout: 15_000 });
    const log = await request({ base: d.base }, 'GET', '/api/agents/main/events?limit=1000&order=asc');
    const seqs = (log.json.events as Array<{ event_seq: number }>).map((e) => e.event_seq);
    await waitFor(async () => (await listedSeqs(page)).length === seqs.length, 5000);
    expect(await listedSeqs(page)).toEqual([...seqs].sort((a, b) => b - a));
    // The page was open across the restart: only the requests the daemon could not answer failed.
    expect(problems.filter((p) => !p.includes('ERR_CONNECTION_REFUSED') && !p.includes('Failed to load resource'))).toEqual([]);
    await context.close();
  }, 90_000);

  it('says when an agent does not exist, and does not keep asking for its log', async () => {
    const { context, page } = await openPage(d.base);
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/agents/ghost/events')) asked.push(r.url());
    });
    await page.goto(`${d.base}/#/agents/ghost`);
    await page.waitForSelector('.error:has-text("agent_not_found")');
    await page.waitForTimeout(3000);
    expect(asked).toHaveLength(1);
    await context.close();
  }, 30_000);

  it('runs a command task and shows its output, adds and cancels a timer, adds and completes a work item', async () => {
    const { context, page, problems } = await openPage(d.base);
    await page.goto(`${d.base}/#/agents/main/tasks`);
    await page.fill('form[name=run-task] input[name=cmd]', 'echo printed-by-the-task');
    await page.click('form[name=run-task] button[type=submit]');
    await page.click('button.link:has-text("echo printed-by-the-task")', { timeout: 10_000 });
    await page.waitForSelector('.task-output pre:has-text("printed-by-the-task")', { timeout: 10_000 });
    await page.waitForSelector('tr:has-text("echo printed-by-the-task") .status-completed');
    await screenshot(page, 'agent-tasks');

    await page.click('nav.tabs a:has-text("Timers")');
    await page.fill('form[name=create-timer] input[name=seconds]', '3600');
    await page.fill('form[name=create-timer] input[name=summary]', 'check the build');
    await page.click('form[name=create-timer] button[type=submit]');
    await page.waitForSelector('tr:has-text("check the build") .status-active');
    await screenshot(page, 'agent-timers');
    await page.click('tr:has-text("check the build") button:has-text("Cancel")');
    await page.waitForSelector('tr:has-text("check the build") .status-cancelled');
    const timers = (await request({ base: d.base }, 'GET', '/api/agents/main/timers')).json.timers as Array<{ summary: string; status: string; duration_ms: number }>;
    expect(timers.find((t) => t.summary === 'check the build')).toMatchObject({ status: 'cancelled', duration_ms: 3_600_000 });

    await page.click('nav.tabs a:has-text("Work items")');
    await page.fill('form[name=create-work-item] input[name=objective]', 'write the release notes');
    await page.click('form[name=create-work-item] button[type=submit]');
    const row = 'tr:has-text("write the release notes")';
    await page.waitForSelector(`${row} .status-open`);
    await page.fill(`${row} input[name=report]`, 'done and published');
    await page.click(`${row} button:has-text("Complete")`);
    await page.waitForSelector(`${row} .status-completed`);
    await screenshot(page, 'agent-work-items');
    const items = (await request({ base: d.base }, 'GET', '/api/agents/main/work-items')).json.work_items as Array<{ objective: string; state: string }>;
    expect(items.find((w) => w.objective === 'write the release notes')?.state).toBe('completed');
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it('reloads the open panel for events that were already in the first page of the log, not only for streamed ones', async () => {
    const { context, page, problems } = await openPage(d.base);
    // The log's first page is held back until a task has run to its end: its events are in that
    // page, and the stream starts after them.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    await page.route(/\/api\/agents\/main\/events\?/, async (route) => {
      await released;
      await route.continue();
    });
    const listed = page.waitForResponse((r) => r.url().endsWith('/api/agents/main/tasks'));
    await page.goto(`${d.base}/#/agents/main/tasks`);
    await listed;
    const task = (await request({ base: d.base }, 'POST', '/api/control/agents/main/tasks', { body: { summary: 'ran-before-the-page', cmd: 'true' } })).json.task_id as string;
    await waitFor(async () => (await request({ base: d.base }, 'GET', `/api/agents/main/tasks/${task}`)).json.status === 'completed');
    expect(await page.$(`tr[data-key="${task}"]`)).toBeNull();
    release();
    await page.waitForSelector(`tr[data-key="${task}"] .status-completed`, { timeout: 10_000 });
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it('shows the inbox: sources, subscriptions, entries arriving live, and acknowledges them', async () => {
    const socket = { socketPath: d.socket };
    const host = (await request(socket, 'POST', '/hosts', { body: { hostType: 'local_event', hostKey: 'console' } })).json;
    const source = (await request(socket, 'POST', '/sources', { body: { hostId: host.hostId, streamKind: 'builds', streamKey: 'ci' } })).json;
    const agent = (await request(socket, 'POST', '/agents', { body: { name: 'reviewer' } })).json;
    expect((await request(socket, 'POST', '/subscriptions', { body: { agentId: agent.agentId, sourceId: source.sourceId } })).status).toBe(201);
    const { context, page, problems } = await openPage(d.base);
    await page.goto(`${d.base}/#/inbox`);
    // A first page load on a loaded machine (the whole suite beside it) can take long.
    await page.waitForSelector(`text=${source.sourceId}`, { timeout: 60_000 });
    await page.waitForSelector('a:has-text("reviewer")');
    await screenshot(page, 'inbox');
    await page.click('a:has-text("reviewer")');
    await page.waitForSelector('text=No entries.');
    // Appended after the page opened: the watch stream brings it in.
    await request(socket, 'POST', `/sources/${source.sourceId}/events`, { body: { type: 'build.failed', subject: 'main#41', data: { job: 'lint' } } });
    await request(socket, 'POST', `/sources/${source.sourceId}/events`, { body: { type: 'build.passed', subject: 'main#42' } });
    await page.waitForSelector('td:has-text("build.failed · main#41")', { timeout: 10_000 });
    await page.waitForSelector('td:has-text("build.passed · main#42")');
    await page.waitForSelector('text=(2 unacknowledged)');
    await screenshot(page, 'inbox-entries');
    await page.click('tr:has-text("build.failed") button:has-text("Ack")');
    await page.waitForSelector('text=(1 unacknowledged)');
    await waitFor(async () => (await page.locator('tr:has-text("build.failed")').count()) === 0);
    const summary = (await request(socket, 'GET', `/agents/${agent.agentId}/inbox`)).json;
    expect(summary.unackedCount).toBe(1);
    await page.click('button:has-text("Ack all")');
    await page.waitForSelector('text=(0 unacknowledged)');
    expect((await request(socket, 'GET', `/agents/${agent.agentId}/inbox`)).json.unackedCount).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});

describe('tool approvals and the brake in the console', () => {
  let d: RunningDaemon;
  let fake: FakeModelServer;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    d = await pool.start({ configToml: `${fakeOpenAIConfig(fake.url)}\n[models.pricing."fake/m"]\ninput = 2\noutput = 10\n` });
  }, 60_000);
  afterAll(() => fake?.close());

  it('shows a tool call waiting for approval as it arrives, approves it with a click, and the turn completes', async () => {
    const { context, page, problems } = await openPage(d.base);
    await page.goto(`${d.base}/#/agents/main`);
    await page.waitForSelector('text=live');
    await page.waitForSelector('text=No tool call waits for approval.');
    // A channel message (untrusted_external): the model's run_command asks the operator.
    fake.enqueue({ toolCalls: [{ name: 'run_command', args: ['{"cmd":"echo from-the-console"}'] }] }, { text: ['ran it'] });
    const sent = await request({ base: d.base }, 'POST', '/api/agents/main/enqueue', { body: { origin: { kind: 'channel', source: 'console-test' }, text: 'run echo' } });
    expect(sent.status, sent.text).toBe(202);
    const card = 'article.approval:has-text("run_command")';
    await page.waitForSelector(card, { timeout: 30_000 });
    await page.waitForSelector('.alert-waiting:has-text("Waiting for approval")', { timeout: 15_000 });
    const text = await page.locator(card).innerText();
    expect(text).toContain('untrusted_external');
    expect(text).toContain('channel_event from channel/console-test');
    expect(await page.locator(`${card} pre.arguments`).innerText()).toBe('{\n  "cmd": "echo from-the-console"\n}');
    await screenshot(page, 'agent-approval');
    await page.click(`${card} button:has-text("Approve for this turn")`);
    await page.waitForSelector(card, { state: 'detached', timeout: 15_000 });
    await page.waitForSelector('li[data-type="brief_created"]:has-text("ran it")', { timeout: 30_000 });
    await page.waitForSelector('.alert-waiting', { state: 'detached', timeout: 15_000 });
    const [approval] = (await request({ base: d.base }, 'GET', '/api/agents/main/approvals')).json.approvals;
    expect(approval).toMatchObject({ tool: 'run_command', status: 'approved', decision: { decision: 'approve', remember: 'turn', by: 'operator' } });
    // The policy tab shows the effective table.
    await page.click('nav.tabs a:has-text("Policy")');
    await page.waitForSelector('section.policy tr[data-key="untrusted_external"]:has-text("ask")');
    // ... and changes the agent's layer: one cell, then one limit.
    await page.selectOption('form[name="policy-class"] select[name="trust"]', 'untrusted_external');
    await page.selectOption('form[name="policy-class"] select[name="class"]', 'exec');
    await page.selectOption('form[name="policy-class"] select[name="decision"]', 'deny');
    await page.click('form[name="policy-class"] button[type="submit"]');
    await page.waitForSelector('section.policy tr[data-key="untrusted_external"]:has-text("deny (agent)")', { timeout: 15_000 });
    await page.selectOption('form[name="policy-limit"] select[name="limit"]', 'turns_per_hour');
    await page.fill('form[name="policy-limit"] input[name="value"]', '77');
    await page.click('form[name="policy-limit"] button[type="submit"]');
    await waitFor(async () => (await request({ base: d.base }, 'GET', '/api/agents/main/policy')).json.effective.limits.turns_per_hour === 77, 15_000);
    const layer = (await request({ base: d.base }, 'GET', '/api/agents/main/policy')).json.layers.agent;
    expect(layer).toMatchObject({ classes: { untrusted_external: { exec: 'deny' } }, limits: { turns_per_hour: 77 } });
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('lists the tool calls with their record and artifacts, and opens a call from the events tab', async () => {
    const A = 'tooling';
    expect((await request({ base: d.base }, 'POST', `/api/control/agents/${A}/create`, { body: {} })).status).toBe(201);
    // A result longer than [tools] result_max_bytes (32 KiB): the whole is kept as an artifact.
    fake.enqueue({ toolCalls: [{ name: 'run_command', args: ['{"cmd":"seq 1 10000"}'] }] }, { text: ['counted'] });
    const { context, page, problems } = await openPage(d.base);
    await page.goto(`${d.base}/#/agents/${A}`);
    await page.waitForSelector('text=live');
    await request({ base: d.base }, 'POST', `/api/control/agents/${A}/prompt`, { body: { text: 'count' } });
    await page.waitForSelector('li[data-type="brief_created"]:has-text("counted")', { timeout: 30_000 });
    await page.click('li[data-type="tool_result"] summary');
    await page.click('li[data-type="tool_result"] button:has-text("Tool execution")');
    await page.waitForSelector('li[data-type="tool_result"] .execution:has-text("run_command")', { timeout: 15_000 });
    await page.click('nav.tabs a:has-text("Tool calls")');
    await page.click('section button.link:has-text("run_command")');
    await page.waitForSelector('.execution pre.input:has-text("seq 1 10000")', { timeout: 15_000 });
    await page.click('.execution details.artifact summary:has-text("result")');
    await page.waitForSelector('.execution details.artifact pre:has-text("9999")', { timeout: 15_000 });
    await screenshot(page, 'agent-tool-calls');
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('shows tokens and cost by day and by model, and today against the budgets', async () => {
    const A = 'metered';
    expect((await request({ base: d.base }, 'POST', `/api/control/agents/${A}/create`, { body: {} })).status).toBe(201);
    expect((await request({ base: d.base }, 'PATCH', `/api/control/agents/${A}/policy`, { body: { limits: { max_cost_per_day: 5 } } })).status).toBe(200);
    fake.enqueue({ text: ['metered'], usage: { input: 1500, output: 500, cache_read: 1000 } });
    const { context, page, problems } = await openPage(d.base);
    await page.goto(`${d.base}/#/agents/${A}`);
    await page.waitForSelector('text=live');
    await request({ base: d.base }, 'POST', `/api/control/agents/${A}/prompt`, { body: { text: 'count' } });
    await page.waitForSelector('li[data-type="brief_created"]:has-text("metered")', { timeout: 30_000 });
    await page.click('nav.tabs a:has-text("Usage")');
    // 1500 input at 2 and 500 output at 10 per million tokens: $0.008.
    const today = new Date().toISOString().slice(0, 10);
    await page.waitForSelector(`section.usage tr[data-key="${today}"]:has-text("1,500")`, { timeout: 15_000 });
    expect(await page.locator('section.usage tr[data-key="fake/m"]').innerText()).toMatch(/1,500\s+500\s+1,000\s+0\s+0\s+1\s+\$0\.0080/);
    expect(await page.locator('table.budgets tr[data-key="cost_today"]').innerText()).toContain('$0.0080 of $5.00');
    expect(await page.locator('table.budgets tr[data-key="tokens_today"]').innerText()).toContain('2,000 (no budget)');
    await screenshot(page, 'agent-usage');
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('says when the brake paused the agent, and Resume starts it again', async () => {
    const A = 'braked';
    expect((await request({ base: d.base }, 'POST', `/api/control/agents/${A}/create`, { body: {} })).status).toBe(201);
    expect((await request({ base: d.base }, 'PATCH', `/api/control/agents/${A}/policy`, { body: { limits: { turns_per_hour: 1 } } })).status).toBe(200);
    fake.enqueue({ text: ['first'] }, { text: ['second'] });
    const { context, page, problems } = await openPage(d.base);
    await page.goto(`${d.base}/#/agents/${A}`);
    await page.waitForSelector('text=live');
    for (const text of ['one', 'two']) await request({ base: d.base }, 'POST', `/api/control/agents/${A}/prompt`, { body: { text } });
    await page.waitForSelector('.alert-brake:has-text("turns_per_hour")', { timeout: 30_000 });
    expect(await page.locator('.alert-brake').innerText()).toContain('(1 of 1)');
    await screenshot(page, 'agent-brake');
    await page.click('.alert-brake button:has-text("Resume")');
    await page.waitForSelector('li[data-type="brief_created"]:has-text("second")', { timeout: 30_000 });
    await page.waitForSelector('.alert-brake', { state: 'detached', timeout: 15_000 });
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('shows a compaction in the events tab: the entries it covers, the tokens before and after, and its summary', async () => {
    const A = 'compacting';
    expect((await request({ base: d.base }, 'POST', `/api/control/agents/${A}/create`, { body: {} })).status).toBe(201);
    fake.enqueue({ text: ['first'] }, { text: ['second'] }, { text: ['- the operator asked twice; nothing pending'] });
    for (const text of ['one', 'two']) await request({ base: d.base }, 'POST', `/api/control/agents/${A}/prompt`, { body: { text } });
    await waitFor(async () => (await request({ base: d.base }, 'GET', `/api/agents/${A}/briefs`)).json.briefs?.length >= 2, 30_000);
    const res = await request({ base: d.base }, 'POST', `/api/control/agents/${A}/compact`);
    // What the page must show, checked first through the API so a failure says which part differs.
    expect(res.json).toMatchObject({ compacted: true, compaction: { method: 'summary', from_seq: 1, through_seq: 2, summary: '- the operator asked twice; nothing pending' } });
    const { context, page, problems } = await openPage(d.base);
    await page.goto(`${d.base}/#/agents/${A}`);
    await page.waitForSelector('text=live');
    await page.waitForSelector('li[data-type="context_compacted"]:has-text("entries #1–#2 summarised")', { timeout: 30_000 });
    await page.click('li[data-type="context_compacted"] summary');
    await page.waitForSelector('li[data-type="context_compacted"] pre.summary:has-text("the operator asked twice")');
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});

describe('the console in bearer mode', () => {
  let d: RunningDaemon;
  beforeAll(async () => {
    d = await pool.start({ args: ['--token', TOKEN] });
  });

  it('asks for the token, keeps only an HttpOnly session, streams with it, and signs out', async () => {
    const { context, page, problems } = await openPage(d.base);
    await page.waitForSelector('form[name=token-sign-in]');
    await screenshot(page, 'sign-in');
    await page.fill('input[name=token]', 'not-the-token');
    await page.click('form[name=token-sign-in] button[type=submit]');
    await page.waitForSelector('form[name=token-sign-in] .error:has-text("control token")');
    await page.fill('input[name=token]', TOKEN);
    await page.click('form[name=token-sign-in] button[type=submit]');
    await page.waitForSelector('table tr[data-key="main"]');
    await page.waitForSelector('text=signed in (token)');
    // The page can read neither the token nor the session.
    // Evaluated in the page (the test's own TypeScript has no DOM types).
    const stored = (await page.evaluate('({ cookie: document.cookie, local: localStorage.length, session: sessionStorage.length, html: document.documentElement.outerHTML })')) as { cookie: string; local: number; session: number; html: string };
    expect(stored).toMatchObject({ cookie: '', local: 0, session: 0 });
    expect(stored.html).not.toContain(TOKEN);
    const cookies = await context.cookies();
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatchObject({ name: `svc_console_${new URL(d.base).port}`, httpOnly: true, sameSite: 'Strict' });

    await page.goto(`${d.base}/#/agents/main`);
    await page.waitForSelector('text=live');
    await page.fill('textarea[name=text]', 'signed-in prompt');
    await page.click('form[name=prompt] button[type=submit]');
    await page.waitForSelector('li[data-type="brief_created"]:has-text("echo: signed-in prompt")', { timeout: 15_000 });
    await screenshot(page, 'bearer-agent');

    const cookie = `${cookies[0]!.name}=${cookies[0]!.value}`;
    expect((await request({ base: d.base }, 'GET', '/api/inbox/agents', { headers: { cookie } })).status).toBe(200);
    await page.click('button:has-text("Sign out")');
    await page.waitForSelector('form[name=token-sign-in]');
    expect((await request({ base: d.base }, 'GET', '/api/inbox/agents', { headers: { cookie } })).status).toBe(401);
    expect(problems.filter((p) => !p.includes('401'))).toEqual([]);
    await context.close();
  }, 60_000);
});

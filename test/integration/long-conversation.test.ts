/**
 * A long conversation through the daemon with an OpenAI-compatible model on loopback that claims
 * a 4,000-token window: it counts every request (4 bytes a token over the request's JSON), refuses
 * one over the window as a real server does (400 context_length_exceeded) and reports its count as
 * usage. Hundreds of messages, some with large text, keep working: every prompt fits, compactions
 * appear in the log with their summary in the next prompt, and the operator can force one over
 * HTTP and from the CLI.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliFor } from '../helpers/cli.js';
import { daemonPool, request, waitFor, type RunningDaemon } from '../helpers/daemon.js';
import { fakeOpenAIConfig, startFakeOpenAI, type FakeModelServer, type RecordedRequest, type Reply } from '../helpers/fake-openai.js';
import { expectError, type Json } from '../helpers/tasks.js';

const WINDOW = 4000;
const pool = daemonPool();
let model: FakeModelServer;
let d: RunningDaemon;
const { svc, svcJson } = cliFor(() => d);

/** What the server counts for a request: 4 bytes a token over its JSON. */
const tokensOf = (r: RecordedRequest) => Math.ceil(Buffer.byteLength(JSON.stringify(r.body)) / 4);
const isCompaction = (r: RecordedRequest) => JSON.stringify(r.body.messages[0]).includes('You are compacting');
/** Facts ("remember: …") the compaction input holds: a real model would keep them in its summary. */
const factsIn = (r: RecordedRequest) => [...JSON.stringify(r.body.messages).matchAll(/remember: ([^"\\]+)/g)].map((m) => m[1]);

function windowedModel(summaryFails = false): (r: RecordedRequest) => Reply {
  return (r) => {
    const input = tokensOf(r);
    if (input > WINDOW) return { type: 'error', status: 400, message: `context_length_exceeded: ${input} tokens > ${WINDOW}` };
    const usage = { input, output: 12 };
    if (isCompaction(r)) {
      if (summaryFails) return { type: 'error', status: 400, message: 'summaries are not available' };
      const summary = r.body.messages[1].content.match(/Summary so far:\n([\s\S]*?)\n\nEntries/)?.[1] ?? '';
      return { text: [`${summary}\n- facts: ${factsIn(r).join('; ')}`.trim()], usage };
    }
    const last = r.body.messages.at(-1);
    if (last.role === 'tool') return { text: [`I found: ${last.content}`], usage };
    const recall = /recall: (.+)$/m.exec(last.content ?? '');
    if (recall) return { toolCalls: [{ name: 'memory_search', args: [JSON.stringify({ query: recall[1] })] }], usage };
    return { text: ['noted'], usage };
  };
}

beforeAll(async () => {
  model = await startFakeOpenAI();
});
afterEach(() => pool.killAll());
afterAll(async () => {
  pool.cleanup();
  await model.close();
});

async function start(summaryFails = false): Promise<void> {
  model.responder = windowedModel(summaryFails);
  const config = `${fakeOpenAIConfig(model.url)}\n[models.limits."fake/*"]\ncontext_window = ${WINDOW}\nmax_output_tokens = 500\n`;
  d = await pool.start({ configToml: config });
}

async function events(type: string): Promise<Json[]> {
  const out: Json[] = [];
  for (let before: number | null = null; ; ) {
    const res = await request(d, 'GET', `/api/agents/main/events?order=desc&limit=1000&max_level=debug${before ? `&before_seq=${before}` : ''}`);
    const page = res.json.events as Json[];
    out.push(...page.filter((e) => e.type === type));
    if (page.length < 1000) return out.reverse();
    before = page.at(-1).event_seq;
  }
}

/** Queue `n` operator prompts at once, then wait for all their turns. */
async function converse(n: number, text: (i: number) => string): Promise<void> {
  const before = (await events('turn_completed')).length;
  for (let i = 0; i < n; i++) {
    const res = await request(d, 'POST', '/api/control/agents/main/prompt', { body: { text: text(i) } });
    expect(res.status, res.text).toBe(202);
  }
  await waitFor(async () => (await events('turn_completed')).length >= before + n, 120_000, 200);
}

const filler = (i: number) => `message ${i}: ${'the quick brown fox jumps over the lazy dog '.repeat(i % 10 === 0 ? 60 : 6)}`;

describe('a long conversation on a small window', () => {
  it('500 messages: every prompt fits, compactions are in the log with their summary in the next prompt', async () => {
    await start();
    await converse(500, (i) => (i === 2 ? 'remember: the vault code is 7261' : filler(i)));
    const completions = model.completions();
    expect(completions.every((r) => tokensOf(r) <= WINDOW)).toBe(true);
    expect(await events('turn_failed')).toHaveLength(0);
    const compacted = await events('context_compacted');
    expect(compacted.length).toBeGreaterThan(5);
    expect(compacted.every((e) => e.payload.method === 'summary')).toBe(true);
    expect(compacted.at(-1).payload.summary).toContain('the vault code is 7261');
    const last = compacted.at(-1).payload;
    const next = completions.slice(completions.findLastIndex(isCompaction) + 1).find((r) => !isCompaction(r))!;
    expect(next.body.messages[0].content).toContain(last.summary);
    expect(last.tokens_after).toBeLessThan(last.tokens_before);
    // The agent recalls message 3 through its memory, whatever the summary kept.
    const offered = completions.at(-1)!.body.tools.map((t: { function: { name: string } }) => t.function.name);
    expect(offered).toContain('memory_search');
    await converse(1, () => 'recall: vault code');
    const answer = (await events('brief_created')).at(-1).payload.text as string;
    expect(answer).toContain('the vault code is 7261');
    expect(model.completions().every((r) => tokensOf(r) <= WINDOW)).toBe(true);
  }, 300_000);

  it('a failing summary drops the oldest entries with a recorded event; no turn fails', async () => {
    await start(true);
    await converse(80, filler);
    const compacted = await events('context_compacted');
    expect(compacted.length).toBeGreaterThan(0);
    expect(compacted[0].payload).toMatchObject({ method: 'dropped' });
    expect(compacted[0].payload.reason).toContain('summaries are not available');
    expect(await events('turn_failed')).toHaveLength(0);
    expect(model.completions().filter((r) => !isCompaction(r)).every((r) => tokensOf(r) <= WINDOW)).toBe(true);
  }, 120_000);

  it('the operator forces a compaction over HTTP and with svc agents compact; bad targets are refused', async () => {
    await start();
    expect((await request(d, 'POST', '/api/control/agents/main/compact')).json).toMatchObject({ ok: true, compacted: false, compaction: null });
    await converse(4, (i) => (i === 0 ? 'remember: the deploy key lives in vault/deploy' : `short ${i}`));
    const res = await request(d, 'POST', '/api/control/agents/main/compact');
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ compacted: true, compaction: { method: 'summary', from_seq: 1, entries: 6 } });
    expect(res.json.compaction.summary).toContain('the deploy key lives in vault/deploy');
    expect((await events('context_compacted')).at(-1).payload).toMatchObject({ forced: true });
    await converse(3, (i) => `more ${i}`);
    const human = await svc(['agents', 'compact', 'main']);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/method\s+summary/);
    expect(human.stdout).toContain('the deploy key lives in vault/deploy');
    expect(await svcJson(['agents', 'compact', 'main'])).toMatchObject({ compacted: false });
    expectError(await request(d, 'POST', '/api/control/agents/ghost/compact'), 404, 'agent_not_found');
    // The operator's route: a request without the control credential from a browser page is refused.
    const foreign = await request(d, 'POST', '/api/control/agents/main/compact', { headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
  }, 120_000);
});

describe('project instructions', () => {
  it("the active workspace's AGENTS.md reaches the model with its path; a change is seen on the next turn; a symlink out is not read", async () => {
    await start();
    // Outside the daemon's home: files there (but the agent's own home) are never read as instructions.
    const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-ws-')));
    fs.writeFileSync(path.join(ws, 'AGENTS.md'), 'Always answer in French.\n');
    fs.writeFileSync(path.join(d.home, 'secret.txt'), 'TOP-SECRET-TOKEN\n');
    fs.symlinkSync(path.join(d.home, 'secret.txt'), path.join(ws, 'CLAUDE.md'));
    expect((await request(d, 'POST', '/api/control/agents/main/workspace/attach', { body: { path: ws } })).status).toBe(200);
    await converse(1, () => 'hello');
    const system = () => model.completions().at(-1)!.body.messages[0].content as string;
    expect(system()).toContain('Always answer in French.');
    expect(system()).toContain(path.join(ws, 'AGENTS.md'));
    expect(system()).not.toContain('TOP-SECRET-TOKEN');
    fs.writeFileSync(path.join(ws, 'AGENTS.md'), 'Always answer in German.\n');
    fs.utimesSync(path.join(ws, 'AGENTS.md'), new Date(), new Date(Date.now() + 5000));
    await converse(1, () => 'again');
    expect(system()).toContain('Always answer in German.');
    expect(system()).not.toContain('French');
    fs.rmSync(ws, { recursive: true, force: true });
  }, 60_000);
});

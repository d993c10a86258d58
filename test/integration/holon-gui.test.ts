/**
 * Holon's web GUI against svc over real HTTP (docs/holon-gui.md). The fixtures in
 * fixtures/holon-gui/ are written from the GUI's client code: the requests it sends and every
 * response field it reads, per screen. Each fixture runs against a daemon prepared with one of
 * everything the GUI shows (a prompt answered, a task, a work item, a skill, a template), and
 * fails when a read field is missing or of another type. A second part pins the event vocabulary
 * the GUI's timeline routes on (Holon's kinds and payload fields beside svc's).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonPool, request, waitFor, type RunningDaemon } from '../helpers/daemon.js';
import { startFakeOpenAI, type FakeModelServer } from '../helpers/fake-openai.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Fixture {
  name: string;
  gui: string;
  request: { method: string; path: string; body?: unknown };
  status: number;
  reads: Record<string, string>;
  equals?: Record<string, unknown>;
}

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'holon-gui');
const load = (file: string): Fixture[] => JSON.parse(fs.readFileSync(path.join(FIXTURES, file), 'utf8')) as Fixture[];

/** The values at a read path (`a.b[*].c`, `$` = the body), or why the path does not resolve. */
export function valuesAt(body: unknown, readPath: string): { values: unknown[] } | { missing: string } {
  const tokens = readPath.split(/\.|(?=\[\*\])/).filter((t) => t !== '' && t !== '$');
  let values: unknown[] = [body];
  let at = '$';
  for (const token of tokens) {
    const next: unknown[] = [];
    for (const v of values) {
      if (token === '[*]') {
        if (!Array.isArray(v) || v.length === 0) return { missing: `${at} is not a non-empty array` };
        next.push(...v);
      } else {
        if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.hasOwn(v, token)) return { missing: `${at}.${token} is absent` };
        next.push((v as Record<string, unknown>)[token]);
      }
    }
    values = next;
    at = token === '[*]' ? `${at}[*]` : `${at}.${token}`;
  }
  return { values };
}

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Every read path that is absent or of a type the GUI does not expect. */
export function readFailures(body: unknown, reads: Record<string, string>): string[] {
  const failures: string[] = [];
  for (const [readPath, types] of Object.entries(reads)) {
    const found = valuesAt(body, readPath);
    if ('missing' in found) {
      failures.push(`${readPath}: ${found.missing}`);
      continue;
    }
    const allowed = types.split('|');
    for (const v of found.values) if (!allowed.includes(typeOf(v))) failures.push(`${readPath}: ${typeOf(v)}, expected ${types}`);
  }
  return failures;
}

/** The envelopes of an SSE stream, read as the GUI reads it (fetch, `data:` lines). */
function follow(base: string, urlPath: string): { envelopes: () => Json[]; close: () => void } {
  const got: Json[] = [];
  const ctl = new AbortController();
  void (async () => {
    const res = await fetch(new URL(urlPath, base), { headers: { accept: 'text/event-stream' }, signal: ctl.signal });
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const data = buffer.slice(0, end).split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart());
        buffer = buffer.slice(end + 2);
        if (data.length) got.push(JSON.parse(data.join('\n')));
      }
    }
  })().catch(() => undefined);
  return { envelopes: () => [...got], close: () => ctl.abort() };
}

function fill(value: unknown, vars: Record<string, string>): unknown {
  if (typeof value === 'string') return value.replace(/\{(\w+)\}/g, (m, k: string) => vars[k] ?? m);
  if (Array.isArray(value)) return value.map((v) => fill(v, vars));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, vars)]));
  return value;
}

describe('the fixture checker', () => {
  it('reports an absent field, a wrong type, an empty array under [*], and accepts a match', () => {
    const body = { a: { b: 'x', n: null }, list: [], items: [{ id: 1 }] };
    expect(readFailures(body, { 'a.b': 'string', 'a.n': 'string|null' })).toEqual([]);
    expect(readFailures(body, { 'a.c': 'string' })).toEqual(['a.c: $.a.c is absent']);
    expect(readFailures(body, { 'a.b': 'number' })).toEqual(['a.b: string, expected number']);
    expect(readFailures(body, { 'list[*].id': 'string' })).toEqual(['list[*].id: $.list is not a non-empty array']);
    expect(readFailures(body, { 'items[*].id': 'string' })).toEqual(['items[*].id: number, expected string']);
    expect(readFailures([{ x: 1 }], { $: 'array', '$[*].x': 'number' })).toEqual([]);
  });
});

const pool = daemonPool();
let d: RunningDaemon;
const vars: Record<string, string> = { agent: 'main', doomed: 'doomed', skill_name: 'fixture-skill', skill_id: 'user:fixture-skill', template: 'fixture-tpl' };

async function json(method: string, urlPath: string, body?: unknown, status = 200): Promise<Json> {
  const res = await request(d, method, urlPath, body === undefined ? {} : { body });
  expect(res.status, `${method} ${urlPath}: ${res.text}`).toBe(status);
  return res.json;
}

let fake: FakeModelServer;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  // builtin/echo stays the default; the agent `tooler` uses the scripted model for a tool call.
  d = await pool.start({ configToml: `[providers.fake]\nkind = "openai"\nbase_url = "${fake.url}"\napi_key_env = ""\nmodels = ["m"]\n\n[tools]\nresult_max_bytes = 1024\n` });
  // One of everything the GUI shows: an answered prompt, a finished task, a work item, a library
  // skill, a directory template, and an agent to delete.
  const skillDir = path.join(d.home, 'skills', 'fixture-skill');
  fs.mkdirSync(skillDir, { recursive: true });
  fs.writeFileSync(path.join(skillDir, 'SKILL.md'), '---\nname: fixture-skill\ndescription: A skill for the GUI fixtures\n---\n\nUse it.\n');
  const incoming = path.join(d.home, 'incoming', 'fixture-two');
  fs.mkdirSync(incoming, { recursive: true });
  fs.writeFileSync(path.join(incoming, 'SKILL.md'), '---\nname: fixture-two\ndescription: A skill added through POST /api/jobs\n---\n\nUse it too.\n');
  vars.local_skill_path = incoming;
  const tplDir = path.join(d.home, 'templates', 'fixture-tpl');
  fs.mkdirSync(tplDir, { recursive: true });
  fs.writeFileSync(path.join(tplDir, 'AGENTS.md'), '# Fixture\n\nAn agent made for the GUI fixtures.\n');
  vars.message_id = (await json('POST', '/api/control/agents/main/prompt', { text: 'hello fixture' }, 202)).message_id;
  const brief = await waitFor(async () => (await json('GET', '/api/agents/main/briefs')).briefs[0], 10_000);
  vars.brief_id = brief.brief_id;
  const history = (await json('GET', '/api/agents/main/conversation')).history as Array<{ seq: number }>;
  vars.entry_id = `hst_${history[history.length - 1]!.seq}`;
  vars.task_id = (await json('POST', '/api/control/agents/main/tasks', { summary: 'fixture task', cmd: 'echo fixture output' }, 201)).task_id;
  await json('GET', `/api/agents/main/tasks/${vars.task_id}/output?block=true&timeout_ms=10000`);
  vars.work_item_id = (await json('POST', '/api/control/agents/main/work-items', { objective: 'fixture work' }, 201)).id;
  // A task still running, for the state page's active tasks.
  vars.running_task_id = (await json('POST', '/api/control/agents/main/tasks', { summary: 'fixture sleeper', cmd: 'sleep 120' }, 201)).task_id;
  await json('POST', '/api/control/agents/doomed/create', {}, 201);
  // A tool call whose result is longer than the prompt takes: a record with an artifact.
  await json('POST', '/api/control/agents/tooler/create', {}, 201);
  await json('POST', '/api/control/agents/tooler/model', { model: 'fake/m' });
  fake.enqueue({ toolCalls: [{ name: 'run_command', args: ['{"cmd":"seq 1 2000"}'] }] }, { text: ['counted'] });
  await json('POST', '/api/control/agents/tooler/prompt', { text: 'count' }, 202);
  const executed = await waitFor(async () => ((await json('GET', '/api/agents/tooler/events?order=asc&limit=200')).events as Json[]).find((e) => e.type === 'tool_executed'), 20_000);
  vars.tool_execution_id = executed.payload.tool_execution_id;
});
afterAll(async () => {
  pool.cleanup();
  await fake?.close();
});

for (const file of ['dashboard.json', 'agent-page.json', 'side-pages.json']) {
  describe(`Holon GUI requests: ${file}`, () => {
    for (const f of load(file)) {
      it(`${f.name} (${f.gui})`, async () => {
        const body = f.request.body === undefined ? undefined : fill(f.request.body, vars);
        const res = await request(d, f.request.method, fill(f.request.path, vars) as string, body === undefined ? {} : { body });
        expect(res.status, res.text).toBe(f.status);
        expect(readFailures(res.json, f.reads), res.text.slice(0, 2000)).toEqual([]);
        for (const [readPath, value] of Object.entries(f.equals ?? {})) {
          const found = valuesAt(res.json, readPath);
          expect('values' in found ? found.values[0] : found, readPath).toEqual(value);
        }
      });
    }
  });
}

describe('the timeline vocabulary the GUI routes on', () => {
  const events = async (agent = 'main'): Promise<Json[]> => (await json('GET', `/api/agents/${agent}/events?order=asc&limit=1000`)).events;

  it('message_enqueued carries origin and body; brief_created carries kind and created_at', async () => {
    const evs = await events();
    const enqueued = evs.find((e) => e.type === 'message_enqueued' && e.payload.message_id === vars.message_id);
    expect(enqueued.payload).toMatchObject({ origin: { kind: 'operator' }, body: { type: 'text', text: 'hello fixture' } });
    const brief = evs.find((e) => e.type === 'brief_created' && e.payload.brief_id === vars.brief_id);
    expect(brief.payload).toMatchObject({ kind: 'result', brief_kind: 'result', created_at: expect.any(String), text: expect.any(String) });
  });

  it("each spec kind stays, and Holon's kind follows it as the next event, naming what it mirrors", async () => {
    const evs = await events();
    const pairs: Array<[string, string]> = [
      ['turn_entry', 'turn_started'],
      ['task_create_requested', 'task_created'],
    ];
    for (const [spec, holon] of pairs) {
      const i = evs.findIndex((e) => e.type === spec);
      expect(i, spec).toBeGreaterThanOrEqual(0);
      expect(evs[i + 1]).toMatchObject({ type: holon, event_seq: evs[i].event_seq + 1, payload: { companion_of: { type: spec, event_seq: evs[i].event_seq } } });
    }
    const turn = evs.find((e) => e.type === 'turn_started');
    expect(turn.payload).toMatchObject({ turn_id: expect.stringMatching(/^turn_/), message_kind: 'OperatorPrompt' });
    const task = evs.filter((e) => e.payload.task_id === vars.task_id && e.payload.companion_of).map((e) => [e.type, e.payload.task_status]);
    expect(task).toEqual([
      ['task_created', 'queued'],
      ['task_status_updated', 'running'],
      ['task_result_received', 'completed'],
    ]);
    const result = evs.find((e) => e.type === 'task_result_received' && e.payload.task_id === vars.task_id);
    expect(result.payload).toMatchObject({ summary: 'fixture task', exit_status: 0, output_summary_preview: expect.any(String) });
  });

  it('the companions are on the live stream in order, with no gap in event_seq', async () => {
    const head = (await json('GET', '/api/agents/main/events?limit=1')).cursor_seq as number;
    const c = follow(d.base, `/api/agents/main/events/stream?after_seq=${head}`);
    await new Promise((r) => setTimeout(r, 200));
    try {
      await json('POST', '/api/control/agents/main/prompt', { text: 'streamed fixture' }, 202);
      const frames = await waitFor(() => {
        const got = c.envelopes();
        return got.some((e: Json) => e.type === 'turn_completed') && got;
      }, 10_000);
      const types = frames.map((e: Json) => e.type);
      expect(types.indexOf('turn_started')).toBe(types.indexOf('turn_entry') + 1);
      expect(frames.map((e: Json) => e.event_seq)).toEqual(frames.map((_: Json, i: number) => head + 1 + i));
    } finally {
      c.close();
    }
  });

  it('a level filter keeps the turn rows at info and the tool cards at verbose', async () => {
    const info = (await json('GET', '/api/agents/main/events?order=asc&limit=1000&max_level=info')).events.map((e: Json) => e.type);
    expect(info).toEqual(expect.arrayContaining(['turn_started', 'task_created', 'task_result_received', 'brief_created', 'message_enqueued']));
    expect(info).not.toContain('tool_executed');
  });
});

describe('the shapes svc keeps beside the GUI forms', () => {
  it('a skill install job completes and the skill is in the catalog; adding it again is a completed job at once', async () => {
    const done = await waitFor(async () => {
      const catalog = (await json('GET', '/api/skills/catalog')).catalog as Json[];
      return catalog.some((e) => e.name === 'fixture-two') && catalog;
    }, 10_000);
    expect(done.find((e: Json) => e.name === 'fixture-two')).toMatchObject({ scope: 'user', root_id: 'user', skill_dir: 'fixture-two' });
    const again = await json('POST', '/api/jobs', { kind: 'skill.install', params: { kind: { kind: 'local', path: vars.local_skill_path } } });
    expect(again.job).toMatchObject({ status: 'completed', result: { skill: 'fixture-two', created: false } });
    expect((await json('GET', `/api/jobs/${again.job.id}`)).job).toMatchObject({ id: again.job.id, status: 'completed' });
    const checked = await json('POST', '/api/skills/catalog/check', { name: 'fixture-two' });
    expect(checked).toMatchObject({ checked: 1, skills: [{ name: 'fixture-two' }] });
    const unlocked = await request(d, 'POST', '/api/skills/catalog/check', { body: { name: 'fixture-skill' } });
    expect([unlocked.status, unlocked.json.code]).toEqual([404, 'skill_not_found']);
    const one = await request(d, 'POST', '/api/skills/catalog/update', { body: { name: 'fixture-two' } });
    expect([one.status, one.json.code, one.json.hint]).toEqual([400, 'invalid_request', 'svc updates every locked skill in one job: send {}']);
    const named = await request(d, 'POST', '/api/jobs', { body: { kind: 'skill.install', params: { kind: { kind: 'builtin', name: 'x' } } } });
    expect([named.status, named.json.code]).toEqual([400, 'invalid_skill_source']);
    const other = await request(d, 'POST', '/api/jobs', { body: { kind: 'template.sync', params: {} } });
    expect([other.status, other.json.code]).toEqual([400, 'invalid_request']);
  });

  it('the work items list without ?limit still answers {ok, work_items}', async () => {
    const res = await json('GET', '/api/agents/main/work-items');
    expect(res).toMatchObject({ ok: true, work_items: [expect.objectContaining({ id: vars.work_item_id })] });
    expect(await json('GET', '/api/agents/main/work-items?limit=1')).toHaveLength(1);
    const bad = await request(d, 'GET', '/api/agents/main/work-items?limit=0');
    expect([bad.status, bad.json.code]).toEqual([400, 'invalid_request']);
  });

  it('a prompt with an attachment is refused, nothing queued', async () => {
    const before = (await json('GET', '/api/agents/main/status')).pending_messages;
    const res = await request(d, 'POST', '/api/control/agents/main/prompt', { body: { text: 'see image', attachments: [{ kind: 'image', media_type: 'image/png', data_base64: '' }] } });
    expect([res.status, res.json.code]).toEqual([400, 'invalid_request']);
    expect((await json('GET', '/api/agents/main/status')).pending_messages).toBe(before);
  });

  it('batch reads refuse more than 256 ids and ids of the wrong type', async () => {
    const many = Array.from({ length: 257 }, (_, i) => `msg_${i}`);
    const res = await request(d, 'POST', '/api/agents/main/messages:batchGet', { body: { message_ids: many } });
    expect([res.status, res.json.code]).toEqual([400, 'invalid_request']);
    const wrong = await request(d, 'POST', '/api/agents/main/briefs:batchGet', { body: { brief_ids: [1] } });
    expect([wrong.status, wrong.json.code]).toEqual([400, 'invalid_request']);
    const ghost = await request(d, 'POST', '/api/agents/ghost/transcript:batchGet', { body: { entry_ids: ['hst_1'] } });
    expect([ghost.status, ghost.json.code]).toEqual([404, 'agent_not_found']);
  });

  it("another agent's message is missing, not disclosed", async () => {
    await json('POST', '/api/control/agents/other/create', {}, 201);
    const res = await json('POST', '/api/agents/other/messages:batchGet', { message_ids: [vars.message_id] });
    expect(res).toEqual({ messages: [], missing_message_ids: [vars.message_id] });
  });

  it('the routes the GUI calls that svc does not serve answer the route_not_found envelope', async () => {
    for (const [method, url] of [
      ['POST', '/api/auth/openai-codex/device/start'],
      ['GET', '/api/workspaces/ws_x/files'],
      ['POST', '/api/control/templates/install'],
      ['POST', '/api/templates/remote-sources/sync'],
    ]) {
      const res = await request(d, method!, url!, method === 'POST' ? { body: {} } : {});
      expect([res.status, res.json.code], url).toEqual([404, 'route_not_found']);
    }
  });
});

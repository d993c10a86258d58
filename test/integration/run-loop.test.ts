import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { daemonPool, request, waitFor, type RunningDaemon } from '../helpers/daemon.js';
import { startFakeAnthropic } from '../helpers/fake-anthropic.js';
import { startFakeOpenAI } from '../helpers/fake-openai.js';
import type { FakeModelServer } from '../helpers/fake-model-server.js';

const pool = daemonPool();
afterEach(() => pool.killAll());
afterAll(() => pool.cleanup());

async function allEvents(d: RunningDaemon, agent = 'main'): Promise<Array<{ type: string; payload: Record<string, any> }>> {
  const out: Array<{ type: string; payload: Record<string, any> }> = [];
  let after = 0;
  for (;;) {
    const res = await request(d, 'GET', `/api/agents/${agent}/events?order=asc&limit=500&after_seq=${after}`);
    expect(res.status).toBe(200);
    out.push(...res.json.events);
    if (!res.json.has_newer || res.json.events.length === 0) return out;
    after = res.json.newest_seq;
  }
}

/** Open an SSE stream and collect its frames (event name + parsed data). */
function sse(d: RunningDaemon, urlPath: string) {
  const frames: Array<{ event: string; data: any }> = [];
  let buf = '';
  let res: http.IncomingMessage | null = null;
  const req = http.get(new URL(urlPath, d.base), (r) => {
    res = r;
    r.setEncoding('utf8');
    r.on('data', (chunk: string) => {
      buf += chunk;
      let i: number;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data) frames.push({ event, data: JSON.parse(data) });
      }
    });
  });
  req.on('error', () => {});
  return { frames, status: () => (res as http.IncomingMessage | null)?.statusCode, close: () => req.destroy() };
}

describe('run loop against the daemon (builtin/echo)', () => {
  it('svc serve with no config answers a prompt: result brief, events, conversation stream frames', async () => {
    const d = await pool.start();
    const stream = sse(d, '/api/agents/main/conversation/stream');
    await waitFor(() => stream.frames.length > 0, 10_000);
    expect(stream.frames[0]).toMatchObject({ event: 'snapshot', data: { type: 'snapshot', agent_id: 'main', current_turn: null } });
    const res = await request(d, 'POST', '/api/control/agents/main/prompt', { body: { text: 'ping from the test' } });
    expect(res.status).toBe(202);
    const messageId = res.json.message_id;
    const briefs = await waitFor(async () => {
      const b = await request(d, 'GET', '/api/agents/main/briefs');
      return b.json.briefs.length > 0 ? b.json.briefs : null;
    }, 15_000);
    expect(briefs[0]).toMatchObject({ kind: 'result', message_id: messageId, text: expect.stringContaining('ping from the test') });
    const types = (await allEvents(d)).map((e) => e.type);
    for (const t of ['turn_entry', 'turn_completed', 'brief_created']) expect(types).toContain(t);
    await waitFor(() => stream.frames.some((f) => f.event === 'turn_completed'), 10_000);
    expect(stream.frames.map((f) => f.event)).toEqual(['snapshot', 'turn_started', 'text_delta', 'turn_completed']);
    expect(stream.frames[3]!.data).toMatchObject({ message_id: messageId, text: 'echo: ping from the test' });
    stream.close();

    const conv = await request(d, 'GET', '/api/agents/main/conversation');
    expect(conv.json).toMatchObject({ ok: true, agent_id: 'main', model: 'builtin/echo', current_turn: null, pending: 0 });
    expect(conv.json.history.map((h: any) => h.role)).toEqual(['user', 'assistant']);
    const turnId = (await allEvents(d)).find((e) => e.type === 'turn_entry')!.payload.turn_id;
    const acts = await request(d, 'GET', `/api/agents/main/turns/${turnId}/activities`);
    expect(acts.status).toBe(200);
    expect(acts.json.turn).toMatchObject({ turn_id: turnId, status: 'completed', rounds: 1 });
    const transcript = await request(d, 'GET', '/api/agents/main/transcript');
    expect(transcript.json.turn.turn_id).toBe(turnId);
    const state = await request(d, 'GET', '/api/agents/main/state');
    expect(state.json.session).toMatchObject({ current_run: null, pending_count: 0 });
    await d.stop();
  });

  it('route errors: 404 turn_not_found, 400 empty_reason / unknown_action / unknown_abort_mode / invalid_request, 409 no_current_run', async () => {
    const d = await pool.start();
    const cases: Array<[string, string, unknown, number, string]> = [
      ['GET', '/api/agents/main/turns/turn_nope/activities', undefined, 404, 'turn_not_found'],
      ['GET', '/api/agents/ghost/conversation', undefined, 404, 'agent_not_found'],
      ['POST', '/api/control/agents/main/wake', { reason: '   ', source: 't' }, 400, 'empty_reason'],
      ['POST', '/api/control/agents/main/wake', { source: 't' }, 400, 'invalid_request'],
      ['POST', '/api/control/agents/main/control', { action: 'jump' }, 400, 'unknown_action'],
      ['POST', '/api/control/agents/main/current-run/abort', { mode: 'later' }, 400, 'unknown_abort_mode'],
      ['POST', '/api/control/agents/main/current-run/abort', {}, 409, 'no_current_run'],
      ['POST', '/api/control/agents/main/debug-prompt', { text: '' }, 400, 'empty_prompt'],
      ['POST', '/api/control/agents/ghost/wake', { reason: 'x' }, 404, 'agent_not_found'],
    ];
    for (const [method, url, body, status, code] of cases) {
      const res = await request(d, method, url, body === undefined ? {} : { body });
      expect([url, res.status, res.json.code]).toEqual([url, status, code]);
    }
    const wake = await request(d, 'POST', '/api/control/agents/main/wake', { body: { reason: 'look', source: 'test' } });
    expect(wake.json).toMatchObject({ ok: true, agent_id: 'main', disposition: 'woken' });
    const stop = await request(d, 'POST', '/api/control/agents/main/control', { body: { action: 'stop' } });
    expect(stop.json).toMatchObject({ ok: true, status: 'stopped' });
    const ignored = await request(d, 'POST', '/api/control/agents/main/wake', { body: { reason: 'look', source: 'test' } });
    expect(ignored.json.disposition).toBe('ignored');
    const dbg = await request(d, 'POST', '/api/control/agents/main/debug-prompt', { body: { text: 'dbg' } });
    expect(dbg.status).toBe(202);
    expect((await request(d, 'GET', '/api/agents/main/status')).json.status).toBe('stopped');
    await request(d, 'POST', '/api/control/agents/main/control', { body: { action: 'start' } });
    await waitFor(async () => (await request(d, 'GET', '/api/agents/main/conversation')).json.pending === 0, 10_000);
    await d.stop();
  });

  it('SIGKILL while messages are processed: after restart nothing acknowledged is lost, nothing completed re-runs', async () => {
    const home = pool.home();
    const d = await pool.start({ home });
    const acked: string[] = [];
    const send = async (i: number) => {
      const res = await request(d, 'POST', '/api/agents/main/enqueue', { body: { text: `m${i}` } });
      if (res.status === 202) acked.push(res.json.message_id);
    };
    // Keep enqueueing while the worker runs; kill without warning with requests still in flight.
    let stop = false;
    const senders = Array.from({ length: 20 }, async (_, k) => {
      for (let i = 0; !stop; i++) await send(k * 100_000 + i).catch(() => {});
    });
    await waitFor(() => acked.length >= 300, 30_000, 5);
    d.proc.kill('SIGKILL');
    stop = true;
    await Promise.all(senders);
    await new Promise((r) => d.proc.once('exit', r));
    expect(acked.length).toBeGreaterThan(0);

    const d2 = await pool.start({ home });
    await waitFor(async () => {
      const c = await request(d2, 'GET', '/api/agents/main/conversation');
      return c.json.pending === 0 && c.json.current_turn === null && c.json.status === 'idle';
    }, 60_000, 100);
    const events = await allEvents(d2);
    await d2.stop();
    // The kill caught work in progress: queued messages ran after the restart.
    expect(events.filter((e) => e.type === 'turn_entry').length).toBeGreaterThan(0);

    const db = new Database(path.join(home, 'svc.db'), { readonly: true });
    const rows = db.prepare('SELECT message_id, status, error FROM messages').all() as Array<{ message_id: string; status: string; error: string | null }>;
    db.close();
    const byId = new Map(rows.map((r) => [r.message_id, r]));
    for (const id of acked) {
      expect(byId.has(id)).toBe(true);
      expect(['completed', 'failed']).toContain(byId.get(id)!.status);
    }
    const completions = new Map<string, number>();
    const entries = new Map<string, number>();
    for (const e of events) {
      if (e.type === 'turn_completed') completions.set(e.payload.message_id, (completions.get(e.payload.message_id) ?? 0) + 1);
      if (e.type === 'turn_entry') entries.set(e.payload.message_id, (entries.get(e.payload.message_id) ?? 0) + 1);
    }
    for (const [, n] of completions) expect(n).toBe(1);
    for (const [, n] of entries) expect(n).toBeLessThanOrEqual(2);
    for (const id of acked) if (byId.get(id)!.status === 'completed') expect(completions.get(id)).toBe(1);
  }, 120_000);
});

// --- against real provider protocols (fake servers on loopback) ----------------------------------

const providerConfig = (kind: 'openai' | 'anthropic', url: string) =>
  `[model]\ndefault = "fake/m"\n\n[providers.fake]\nkind = "${kind}"\nbase_url = "${url}"\napi_key_env = ""\nmodels = ["m"]\n`;

async function withModel(kind: 'openai' | 'anthropic', fn: (fake: FakeModelServer, d: RunningDaemon) => Promise<void>) {
  const fake = kind === 'openai' ? await startFakeOpenAI() : await startFakeAnthropic();
  try {
    const d = await pool.start({ configToml: providerConfig(kind, fake.url) });
    await fn(fake, d);
  } finally {
    await fake.close();
  }
}

async function prompt(d: RunningDaemon, text: string): Promise<string> {
  const res = await request(d, 'POST', '/api/control/agents/main/prompt', { body: { text } });
  expect(res.status).toBe(202);
  return res.json.message_id;
}

async function briefOf(d: RunningDaemon, messageId: string) {
  return waitFor(async () => {
    const res = await request(d, 'GET', '/api/agents/main/briefs');
    return res.json.briefs.find((b: { message_id: string }) => b.message_id === messageId) ?? null;
  }, 20_000);
}

describe('run loop with an OpenAI-compatible model', () => {
  it('streams thoughts, text and tool calls on the conversation stream; the tool runs through its service', async () => {
    await withModel('openai', async (fake, d) => {
      fake.enqueue(
        { thoughts: ['weighing ', 'it'], text: ['Let me ', 'note that. '], toolCalls: [{ name: 'create_work_item', args: ['{"objective":"', 'ship the release"}'] }] },
        { text: ['Noted', ' it.'] },
      );
      const stream = sse(d, '/api/agents/main/conversation/stream');
      await waitFor(() => stream.frames.length > 0, 10_000);
      const messageId = await prompt(d, 'remember to ship');
      const brief = await briefOf(d, messageId);
      expect(brief).toMatchObject({ kind: 'result', text: 'Noted it.' });
      await waitFor(() => stream.frames.some((f) => f.event === 'turn_completed'), 10_000);
      stream.close();
      const names = stream.frames.map((f) => f.event);
      expect(names[0]).toBe('snapshot');
      expect(names).toContain('thought_delta');
      expect(names.indexOf('turn_started')).toBeLessThan(names.indexOf('thought_delta'));
      expect(names.indexOf('tool_call')).toBeLessThan(names.indexOf('tool_result'));
      expect(names.at(-1)).toBe('turn_completed');
      expect(stream.frames.filter((f) => f.event === 'thought_delta').map((f) => f.data.text).join('')).toBe('weighing it');
      expect(stream.frames.find((f) => f.event === 'tool_call')!.data).toMatchObject({ name: 'create_work_item', arguments: { objective: 'ship the release' } });
      // The tool went through the work-item service: the item exists, with the route's event.
      const items = await request(d, 'GET', '/api/agents/main/work-items');
      expect(items.json.work_items.map((w: { objective: string }) => w.objective)).toEqual(['ship the release']);
      const types = (await allEvents(d)).map((e) => e.type);
      for (const t of ['turn_entry', 'model_round', 'tool_called', 'work_item_created', 'tool_result', 'turn_completed']) expect(types).toContain(t);
      // The second model request carried the tool result back.
      const second = fake.completions()[1]!.body;
      expect(second.messages.find((m: { role: string }) => m.role === 'tool').content).toContain('ship the release');
      const turnId = stream.frames.find((f) => f.event === 'turn_completed')!.data.turn_id;
      const acts = await request(d, 'GET', `/api/agents/main/turns/${turnId}/activities`);
      expect(acts.json.activities.map((a: { kind: string }) => a.kind)).toEqual(['model_round', 'tool_call', 'tool_result', 'model_round']);
    });
  });

  it('names the skills in the system prompt the model receives; open_skill returns SKILL.md and records skill_opened', async () => {
    await withModel('openai', async (fake, d) => {
      const dir = path.join(d.home, 'skills', 'release');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'SKILL.md'), '---\nname: release\ndescription: How to cut a release\n---\nTag, build, publish.\n');
      fake.enqueue({ toolCalls: [{ name: 'open_skill', args: ['{"name":"release"}'] }] }, { text: ['Released.'] });
      const messageId = await prompt(d, 'cut a release');
      expect(await briefOf(d, messageId)).toMatchObject({ kind: 'result', text: 'Released.' });
      const [first, second] = fake.completions();
      const system = first!.body.messages.find((m: { role: string }) => m.role === 'system').content as string;
      expect(system).toContain('- release: How to cut a release (user, ');
      expect(first!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toContain('open_skill');
      expect(second!.body.messages.find((m: { role: string }) => m.role === 'tool').content).toContain('Tag, build, publish.');
      const opened = (await allEvents(d)).filter((e) => e.type === 'skill_opened');
      expect(opened.map((e) => [e.payload.name, e.payload.file])).toEqual([['release', 'SKILL.md']]);
    });
  });

  it('aborts a hanging model request: the turn ends aborted, the agent stops, the next start resumes work', async () => {
    await withModel('openai', async (fake, d) => {
      fake.enqueue({ type: 'hang' });
      const messageId = await prompt(d, 'this will hang');
      await waitFor(async () => (await request(d, 'GET', '/api/agents/main/conversation')).json.current_turn, 10_000);
      await waitFor(() => fake.completions().length === 1, 10_000);
      const abort = await request(d, 'POST', '/api/control/agents/main/current-run/abort', { body: { mode: 'pause_after_abort' } });
      expect(abort.status).toBe(200);
      const status = await waitFor(async () => {
        const s = await request(d, 'GET', '/api/agents/main/status');
        return s.json.status === 'stopped' && s.json.current_run === null ? s.json : null;
      }, 10_000);
      expect(status.status).toBe('stopped');
      const events = await allEvents(d);
      expect(events.find((e) => e.type === 'run_aborted')!.payload).toMatchObject({ mode: 'stop_after_abort', requested_mode: 'pause_after_abort' });
      expect(events.find((e) => e.type === 'message_failed')!.payload).toMatchObject({ message_id: messageId, reason: 'aborted' });
      // Stopped: a new prompt waits; start answers it.
      const next = await prompt(d, 'after the abort');
      expect((await request(d, 'GET', '/api/agents/main/status')).json.pending_messages).toBe(1);
      expect((await request(d, 'POST', '/api/control/agents/main/control', { body: { action: 'start' } })).status).toBe(200);
      expect(await briefOf(d, next)).toMatchObject({ kind: 'result', text: 'ok' });
    });
  });

  it('a failing provider ends the turn with a failure brief, and the agent answers the next message', async () => {
    await withModel('openai', async (fake, d) => {
      fake.enqueue({ type: 'error', status: 400, message: 'model does not exist' });
      const failed = await prompt(d, 'first');
      expect(await briefOf(d, failed)).toMatchObject({
        kind: 'failure',
        failure_artifact: { category: 'protocol', kind: 'http_status', status: 400, provider: 'fake', model_ref: 'fake/m' },
      });
      const turnFailed = (await allEvents(d)).find((e) => e.type === 'turn_failed')!;
      expect(turnFailed.payload.failure_artifact.summary).toContain('model does not exist');
      const ok = await prompt(d, 'second');
      expect(await briefOf(d, ok)).toMatchObject({ kind: 'result', text: 'ok' });
      expect((await request(d, 'GET', '/api/agents/main/status')).json.status).toBe('idle');
    });
  });
});

describe('run loop with an Anthropic model', () => {
  it('answers through the Messages API, streamed', async () => {
    await withModel('anthropic', async (fake, d) => {
      fake.enqueue({ text: ['Hello ', 'from the fake.'] });
      const messageId = await prompt(d, 'hi');
      expect(await briefOf(d, messageId)).toMatchObject({ kind: 'result', text: 'Hello from the fake.' });
      const req = fake.completions()[0]!;
      expect(req.body).toMatchObject({ model: 'm', stream: true });
      expect(JSON.stringify(req.body.messages)).toContain('hi');
    });
  });
});


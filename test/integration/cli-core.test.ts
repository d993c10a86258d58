/**
 * The core `svc` client commands (docs/cli.md) as child processes against a real daemon:
 * agents (list, create, show, status, state, tree, rename, repair, delete [--cascade] [--wait],
 * delete-status), prompt, enqueue, events (one page), events tail (SSE, reconnecting from the
 * last id across a daemon restart, without duplicates), runtime status/config/set/shutdown,
 * metrics, jobs show, handshake, bearer mode and error reporting. Needs `npm run build` first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, daemonPool, request, runSvc, stopAgent, type RunningDaemon } from '../helpers/daemon.js';

const pool = daemonPool();
const TOKEN = 'cli-core-token';

afterAll(() => pool.cleanup());

type Result = { code: number | null; stdout: string; stderr: string };

/** Run `svc args --url base`, expecting success; returns stdout. */
async function ok(d: RunningDaemon, args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const r = await runSvc([...args, '--url', d.base], env);
  expect(r.code, `svc ${args.join(' ')}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`).toBe(0);
  return r.stdout;
}

async function okJson<T = any>(d: RunningDaemon, args: string[], env: NodeJS.ProcessEnv = {}): Promise<T> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return JSON.parse(await ok(d, [...args, '--json'], env)) as T;
}

/** Run `svc args --url base`, expecting a failure with `code` on stderr. */
async function fails(d: RunningDaemon | string, args: string[], code: string, env: NodeJS.ProcessEnv = {}): Promise<Result> {
  const base = typeof d === 'string' ? d : d.base;
  const r = await runSvc([...args, '--url', base], env);
  expect(r.code, `svc ${args.join(' ')} should fail\nstdout: ${r.stdout}\nstderr: ${r.stderr}`).not.toBe(0);
  expect(r.stderr).toMatch(new RegExp(`^svc: ${code}: \\S`, 'm'));
  return r;
}

async function waitFor<T>(fn: () => T | Promise<T>, good: (v: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (good(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('cli-core against one daemon', () => {
  let d: RunningDaemon;

  beforeAll(async () => {
    d = await pool.start();
  });

  describe('agents', () => {
    it('create, list, show, status, state', async () => {
      const created = await okJson(d, ['agents', 'create', 'alpha', '--name', 'Alpha One']);
      expect(created.created).toBe(true);
      expect(created.agent.agent_id).toBe('alpha');
      expect((await okJson(d, ['agents', 'create', 'alpha'])).created).toBe(false);

      const list = await okJson(d, ['agents', 'list']);
      expect(list.agents.map((a: { agent_id: string }) => a.agent_id)).toEqual(expect.arrayContaining(['main', 'alpha']));
      const human = await ok(d, ['agents', 'list']);
      expect(human.split('\n')[0]).toMatch(/^AGENT_ID\s+DISPLAY_NAME\s+STATUS/);
      expect(human).toMatch(/^alpha\s+Alpha One\s+idle/m);

      const show = await okJson(d, ['agents', 'show', 'alpha']);
      expect(show).toMatchObject({ agent_id: 'alpha', display_name: 'Alpha One', identity: { incarnation: 1 }, visibility: 'public' });
      expect(await ok(d, ['agents', 'show', 'alpha'])).toMatch(/^identity\.incarnation\s+1$/m);

      const status = await okJson(d, ['agents', 'status', 'alpha']);
      expect(status).toMatchObject({ agent_id: 'alpha', status: 'idle', incarnation: 1 });
      expect(await ok(d, ['agents', 'status', 'alpha'])).toMatch(/^status\s+idle$/m);

      const state = await okJson(d, ['agents', 'state', 'alpha']);
      expect(state.agent.agent_id).toBe('alpha');
      expect(state.session.pending_count).toBe(0);
      expect(await ok(d, ['agents', 'state', 'alpha'])).toMatch(/^active_workspace\s+agent_home$/m);
    });

    it('tree shows a private subagent under its parent', async () => {
      await ok(d, ['agents', 'create', 'parent1']);
      await ok(d, ['agents', 'create', 'kid1', '--parent', 'parent1', '--private']);
      const tree = await okJson(d, ['agents', 'tree']);
      const parent = tree.agents.find((a: { agent_id: string }) => a.agent_id === 'parent1');
      expect(parent.children.map((c: { agent_id: string }) => c.agent_id)).toEqual(['kid1']);
      const human = await ok(d, ['agents', 'tree']);
      expect(human).toMatch(/^parent1 .*\n└─ kid1 .*private/m);
    });

    it('rename and repair', async () => {
      await ok(d, ['agents', 'create', 'renamee']);
      expect(await ok(d, ['agents', 'rename', 'renamee', 'Shiny Name'])).toBe('renamed renamee to Shiny Name\n');
      expect((await okJson(d, ['agents', 'show', 'renamee'])).display_name).toBe('Shiny Name');
      const repaired = await okJson(d, ['agents', 'repair', 'renamee']);
      expect(repaired).toMatchObject({ ok: true, agent_id: 'renamee', pending: [], error: null });
      await fails(d, ['agents', 'rename', 'ghost', 'x'], 'agent_not_found');
    });

    it('delete: refused with private children, --cascade --wait completes with progress on stderr', async () => {
      await ok(d, ['agents', 'create', 'doomed']);
      await ok(d, ['agents', 'create', 'doomed-kid', '--parent', 'doomed', '--private']);
      await fails(d, ['agents', 'delete', 'doomed'], 'private_children_exist');
      await fails(d, ['agents', 'delete', 'main'], 'default_agent_protected');

      const r = await runSvc(['agents', 'delete', 'doomed', '--cascade', '--wait', '--json', '--url', d.base]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^deleting doomed: completed/m);
      const done = JSON.parse(r.stdout);
      expect(done.job).toMatchObject({ kind: 'agent_delete', agent_id: 'doomed', status: 'completed' });

      const st = await okJson(d, ['agents', 'delete-status', 'doomed']);
      expect(st.job).toMatchObject({ job_id: done.job.job_id, status: 'completed' });
      expect(await ok(d, ['agents', 'delete-status', 'doomed'])).toMatch(/^status\s+completed$/m);

      const job = await okJson(d, ['jobs', 'show', done.job.job_id]);
      expect(job.job).toMatchObject({ job_id: done.job.job_id, status: 'completed' });
      expect(await ok(d, ['jobs', 'show', done.job.job_id])).toMatch(new RegExp(`^job_id\\s+${done.job.job_id}$`, 'm'));
      await fails(d, ['jobs', 'show', 'job_nope'], 'job_not_found');

      const ids = (await okJson(d, ['agents', 'list'])).agents.map((a: { agent_id: string }) => a.agent_id);
      expect(ids).not.toContain('doomed');
      expect(ids).not.toContain('doomed-kid');
      await fails(d, ['agents', 'show', 'doomed'], 'agent_not_found');
    });

    it('delete without --wait prints the scheduled job', async () => {
      await ok(d, ['agents', 'create', 'quick']);
      const res = await okJson(d, ['agents', 'delete', 'quick']);
      expect(res.job.job_id).toMatch(/^job_/);
      await waitFor(() => okJson(d, ['agents', 'delete-status', 'quick']), (s) => s.job.status === 'completed', 'deletion');
    });
  });

  describe('prompt, enqueue and events', () => {
    beforeAll(async () => {
      await ok(d, ['agents', 'create', 'talker']);
      // Stopped, so the run loop leaves the log to what these tests write: pages and the replay
      // below are of a log that does not move.
      await stopAgent(d, 'talker');
    });

    it('prompt and enqueue print message ids that show up in the event log with their provenance', async () => {
      const p = (await ok(d, ['prompt', 'talker', 'operator says hi'])).trim();
      expect(p).toMatch(/^msg_[0-9A-Z]{26}$/);
      const c = (await ok(d, ['enqueue', 'talker', 'from a channel', '--channel', 'ch-1', '--sender', 'bob', '--priority', 'next'])).trim();
      expect(c).toMatch(/^msg_/);
      const w = await okJson(d, ['enqueue', 'talker', '--json-body', '{"n":1}', '--webhook-source', 'github', '--priority', 'background']);
      expect(w).toMatchObject({ ok: true, agent_id: 'talker' });

      const page = await okJson(d, ['events', 'talker', '--order', 'asc']);
      const byMsg = new Map(page.events.filter((e: any) => e.type === 'message_enqueued').map((e: any) => [e.payload.message_id, e])); // eslint-disable-line @typescript-eslint/no-explicit-any
      expect([...byMsg.keys()]).toEqual([p, c, w.message_id]);
      expect(byMsg.get(p)).toMatchObject({ payload: { kind: 'operator_prompt' } });
      expect(byMsg.get(c)).toMatchObject({ payload: { kind: 'channel_event' } });
      expect(byMsg.get(w.message_id)).toMatchObject({ payload: { kind: 'webhook_event' } });
      const pc = byMsg.get(c) as { provenance: Record<string, unknown>; payload: Record<string, unknown> };
      expect(JSON.stringify(pc)).toContain('ch-1');
      expect(JSON.stringify(pc)).toContain('untrusted_external');
      expect(JSON.stringify(pc)).toContain('"next"');
    });

    it('enqueue and prompt errors carry the server code', async () => {
      await fails(d, ['enqueue', 'ghost', 'x'], 'agent_not_found');
      await fails(d, ['prompt', 'ghost', 'x'], 'agent_not_found');
      const r = await runSvc(['enqueue', 'talker', '--url', d.base]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/missing message/);
      const bad = await runSvc(['enqueue', 'talker', 'x', '--priority', 'interject', '--url', d.base]);
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toMatch(/--priority/);
    });

    it('events: one page as a table or JSON, with cursors, order and limit', async () => {
      for (const t of ['one', 'two', 'three']) await ok(d, ['enqueue', 'talker', t]);
      const all = await okJson(d, ['events', 'talker', '--order', 'asc', '--limit', '1000']);
      const seqs: number[] = all.events.map((e: { event_seq: number }) => e.event_seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(seqs.length).toBeGreaterThanOrEqual(7);

      const two = await okJson(d, ['events', 'talker', '--limit', '2']);
      expect(two.order).toBe('desc');
      expect(two.events.map((e: { event_seq: number }) => e.event_seq)).toEqual([seqs.at(-1), seqs.at(-2)]);
      expect(two.has_older).toBe(true);

      const mid = await okJson(d, ['events', 'talker', '--after', String(seqs[1]), '--before', String(seqs[4]), '--order', 'asc']);
      expect(mid.events.map((e: { event_seq: number }) => e.event_seq)).toEqual([seqs[2], seqs[3]]);

      const info = await okJson(d, ['events', 'talker', '--max-level', 'info', '--limit', '1000']);
      expect(info.events.length).toBeLessThanOrEqual(all.events.length);

      const human = (await ok(d, ['events', 'talker', '--limit', '3'])).trimEnd().split('\n');
      expect(human[0]).toMatch(/^SEQ\s+TS\s+TYPE\s+SUMMARY$/);
      expect(human[1]).toMatch(new RegExp(`^${seqs.at(-1)}\\s+\\d{4}-\\d\\d-\\d\\dT\\S+\\s+message_enqueued\\s+.*"three"`));
      expect(human).toHaveLength(5); // header, three rows, "(older events exist)"

      await fails(d, ['events', 'ghost'], 'agent_not_found');
      const badOrder = await runSvc(['events', 'talker', '--order', 'sideways', '--url', d.base]);
      expect(badOrder.code).not.toBe(0);
    });

    it('events tail --after 0 replays the log; an out-of-window cursor is a hard error', async () => {
      const last = (await okJson(d, ['events', 'talker', '--limit', '1'])).events[0].event_seq as number;
      const child = spawnTail(['events', 'tail', 'talker', '--after', '0', '--url', d.base]);
      await waitFor(() => child.lines(), (l) => l.length >= last, 'replayed lines');
      const lines = child.lines();
      expect(lines[0]).toMatch(/^1\s+\S+\s+agent_created\s/);
      expect(lines.map((l) => Number(l.split(/\s+/)[0]))).toEqual(Array.from({ length: last }, (_, i) => i + 1));
      expect(child.proc.exitCode).toBeNull();
      child.proc.kill('SIGINT');

      const r = await fails(d, ['events', 'tail', 'talker', '--after', String(last + 1000)], 'cursor_not_found');
      expect(r.stdout).toBe('');
      await fails(d, ['events', 'tail', 'ghost'], 'agent_not_found');
    });
  });

  describe('runtime, metrics, handshake', () => {
    it('runtime status and config', async () => {
      const st = await okJson(d, ['runtime', 'status']);
      expect(st).toMatchObject({ ok: true, pid: d.proc.pid, listen: d.listen, home_dir: d.home });
      expect(await ok(d, ['runtime', 'status'])).toMatch(/^auth\.mode\s+local$/m);
      const cfg = await okJson(d, ['runtime', 'config']);
      expect(cfg.home_dir).toBe(d.home);
      expect(cfg.startup_only_keys).toContain('listen');
      expect(await ok(d, ['runtime', 'config'])).toMatch(/^events\.page_limit_max\s+\d+$/m);
    });

    it('runtime set: JSON values, strings, and per-key rejection', async () => {
      const num = await okJson(d, ['runtime', 'set', 'events.page_limit_max', '500']);
      expect(num.results).toEqual([expect.objectContaining({ key: 'events.page_limit_max', effect: 'accepted_requires_restart' })]);
      expect(num.runtime_surface.config_file_exists).toBe(true);
      const str = await ok(d, ['runtime', 'set', 'log_level', 'debug']);
      expect(str).toMatch(/^log_level\s+accepted_requires_restart/m);
      const toml = (await request(d, 'GET', '/api/control/runtime/config')).json;
      expect(toml.config_file_exists).toBe(true);

      const r = await fails(d, ['runtime', 'set', 'listen', '127.0.0.1:1'], 'config_rejected');
      expect(r.stdout).toMatch(/^listen\s+rejected\s/m);
      await fails(d, ['runtime', 'set', 'no.such.key', 'true'], 'config_rejected');
    });

    it('metrics prints raw OpenMetrics text', async () => {
      const text = await ok(d, ['metrics']);
      expect(text).toMatch(/^# TYPE svc_\w+ \w+$/m);
      expect(text.trimEnd().endsWith('# EOF')).toBe(true);
      expect(text.startsWith('"')).toBe(false);
    });

    it('handshake', async () => {
      const h = await okJson(d, ['handshake']);
      expect(h).toMatchObject({ ok: true, protocol: { name: 'svc-control', version: 1 }, auth: { mode: 'local' } });
      expect(await ok(d, ['handshake'])).toMatch(/^protocol\.name\s+svc-control$/m);
    });
  });
});

describe('errors and auth', () => {
  afterEach(() => pool.killAll());

  it('an unreachable daemon exits non-zero with `unreachable`', async () => {
    const d = await pool.start();
    const base = d.base;
    await d.stop();
    const r = await fails(base, ['agents', 'list'], 'unreachable');
    expect(r.code).toBe(3);
  });

  it('bearer mode: no token -> auth_required; --token or SVC_TOKEN works', async () => {
    const d = await pool.start({ args: ['--token', TOKEN] });
    await fails(d, ['runtime', 'status'], 'auth_required');
    await fails(d, ['agents', 'create', 'x1'], 'auth_required');
    await fails(d, ['prompt', 'main', 'hi'], 'auth_required');
    await fails(d, ['runtime', 'status', '--token', 'wrong'], 'auth_required');
    expect((await okJson(d, ['runtime', 'status', '--token', TOKEN])).auth.mode).toBe('bearer');
    expect((await okJson(d, ['agents', 'create', 'x1'], { SVC_TOKEN: TOKEN })).created).toBe(true);
    expect(await ok(d, ['prompt', 'x1', 'hi', '--token', TOKEN])).toMatch(/^msg_/);
    expect((await okJson(d, ['events', 'x1', '--token', TOKEN])).events.length).toBeGreaterThan(0);
  });

  it('runtime shutdown stops the daemon', async () => {
    const d = await pool.start();
    const exited = new Promise<number | null>((resolve) => d.proc.once('exit', (c) => resolve(c)));
    expect(await ok(d, ['runtime', 'shutdown'])).toBe('shutting down\n');
    expect(await exited).toBe(0);
  });
});

describe('events tail across a daemon restart', () => {
  afterEach(() => pool.killAll());

  it('prints live events once each, reconnects from the last id after the stream ends, and keeps going', async () => {
    const home = pool.home();
    let d = await pool.start({ home });
    const port = d.listen.split(':')[1]!;
    await ok(d, ['agents', 'create', 'tailed']);
    // The agent keeps running: the tail must print the run loop's events too, each once, in order.
    await ok(d, ['enqueue', 'tailed', 'before tail']); // not live: must not be printed
    const start = await settled(d, 'tailed'); // its turn is over: nothing more of it comes live

    const child = spawnTail(['events', 'tail', 'tailed', '--json', '--url', d.base]);
    await waitFor(() => request(d, 'GET', '/api/control/runtime/status'), (r) => r.json?.sse_clients >= 1, 'tail to connect');

    const first: string[] = [];
    for (const t of ['m1', 'm2', 'm3']) first.push((await ok(d, ['enqueue', 'tailed', t])).trim());
    const headBefore = await settled(d, 'tailed');
    await waitFor(() => child.lines(), (l) => l.length >= headBefore - start, `${headBefore - start} events`);
    let events = child.lines().map((l) => JSON.parse(l));
    expect(events.map((e) => e.event_seq)).toEqual(range(start + 1, headBefore));
    expect(events.every((e) => e.agent_id === 'tailed')).toBe(true);
    expect(events.filter((e) => e.type === 'message_enqueued').map((e) => e.payload.message_id)).toEqual(first);
    expect(events.filter((e) => e.type === 'turn_completed')).toHaveLength(3);

    // The daemon goes away (closing the stream). While the tail cannot reach it, an event is
    // committed through a daemon on another port; then the daemon comes back on the same home
    // and port. The tail must resume from its last id: the missed event, then live ones.
    await d.stop();
    await waitFor(() => child.stderr(), (s) => /reconnecting/.test(s), 'a reconnect attempt');
    expect(child.proc.exitCode).toBeNull();
    const elsewhere = await pool.start({ home });
    const second: string[] = [(await ok(elsewhere, ['enqueue', 'tailed', 'm4 while away'])).trim()];
    const headAway = await settled(elsewhere, 'tailed'); // m4's turn too is in the log, missed by the tail
    await elsewhere.stop();
    expect(child.lines()).toHaveLength(headBefore - start);

    d = await pool.start({ home, args: ['--listen', `127.0.0.1:${port}`] });
    expect(d.listen).toBe(`127.0.0.1:${port}`);
    await waitFor(() => request(d, 'GET', '/api/control/runtime/status'), (r) => r.json?.sse_clients >= 1, 'tail to reconnect');
    await waitFor(() => child.lines(), (l) => l.length >= headAway - start, 'the missed events');
    for (const t of ['m5', 'm6']) second.push((await ok(d, ['enqueue', 'tailed', t])).trim());
    const end = await settled(d, 'tailed');
    await waitFor(() => child.lines(), (l) => l.length >= end - start, `${end - start} events`);
    await new Promise((r) => setTimeout(r, 300)); // room for a duplicate to show up
    events = child.lines().map((l) => JSON.parse(l));
    // Every event after the start exactly once, in order, as the durable log has it.
    expect(events.map((e) => e.event_seq as number)).toEqual(range(start + 1, end));
    const durable = await request(d, 'GET', `/api/agents/tailed/events?order=asc&after_seq=${start}&limit=1000`);
    expect(events).toEqual(durable.json.events);
    expect(events.filter((e) => e.type === 'message_enqueued').map((e) => e.payload.message_id)).toEqual([...first, ...second]);
    expect(events.filter((e) => e.type === 'turn_completed')).toHaveLength(6);
    expect(child.proc.exitCode).toBeNull();
    child.proc.kill('SIGINT');
  });
});

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Wait until the run loop has nothing queued or running for `agent`; returns its log head. */
async function settled(d: RunningDaemon, agent: string): Promise<number> {
  const res = await waitFor(
    () => request(d, 'GET', `/api/agents/${agent}/status`),
    (r) => r.json?.status === 'idle' && r.json.pending_messages === 0 && r.json.current_run === null,
    `${agent} to settle`,
  );
  return res.json.last_event_seq as number;
}

/** A long-running `svc` child whose stdout lines and stderr can be read while it runs. */
function spawnTail(args: string[]): { proc: ChildProcess; lines: () => string[]; stderr: () => string } {
  const proc = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, SVC_TOKEN: '', SVC_HOME: '', SVC_LISTEN: '', SVC_LOG_LEVEL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  pool.track(proc);
  let out = '';
  let err = '';
  proc.stdout!.on('data', (c) => (out += c));
  proc.stderr!.on('data', (c) => (err += c));
  return {
    proc,
    lines: () => out.split('\n').filter((l) => l !== ''),
    stderr: () => err,
  };
}

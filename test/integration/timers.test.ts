/**
 * Agent timers against the real daemon (docs/control-plane-api.md#timers): routes and error codes
 * over HTTP, bearer auth on the control routes, firing with timer provenance, and a timer that was
 * created before a SIGKILL firing after a restart on the same home.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { daemonPool, request, type HttpResult, type RunningDaemon } from '../helpers/daemon.js';

const pool = daemonPool();
afterEach(() => pool.killAll());
afterAll(() => pool.cleanup());

type Event = { event_seq: number; type: string; payload: Record<string, any>; provenance: Record<string, any> | null }; // eslint-disable-line @typescript-eslint/no-explicit-any

function expectError(res: HttpResult, status: number, code: string): void {
  expect({ status: res.status, code: res.json?.code }, res.text).toEqual({ status, code });
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.json.ok).toBe(false);
  expect(res.json.error).toBeTypeOf('string');
}

async function events(d: RunningDaemon, agent = 'main'): Promise<Event[]> {
  const out: Event[] = [];
  let after = 0;
  for (;;) {
    const r = await request(d, 'GET', `/api/agents/${agent}/events?order=asc&after_seq=${after}&limit=1000`);
    expect(r.status, r.text).toBe(200);
    out.push(...r.json.events);
    if (!r.json.has_newer || r.json.events.length === 0) return out;
    after = r.json.newest_seq;
  }
}

async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function sigkill(d: RunningDaemon): Promise<void> {
  return new Promise((resolve) => {
    if (d.proc.exitCode !== null || d.proc.signalCode !== null) return resolve();
    d.proc.once('exit', () => resolve());
    d.proc.kill('SIGKILL');
  });
}

const createTimer = (d: RunningDaemon, body: unknown, agent = 'main', headers?: Record<string, string>) =>
  request(d, 'POST', `/api/control/agents/${agent}/timers`, { body, ...(headers ? { headers } : {}) });

describe('timer routes over HTTP', () => {
  it('create, read, list, cancel and every error code', async () => {
    const d = await pool.start();
    const c = await createTimer(d, { duration_ms: 60_000, interval_ms: 30_000, summary: 'poll CI', authority_class: 'operator_instruction' });
    expect(c.status, c.text).toBe(201);
    const timer = c.json;
    expect(timer).toMatchObject({
      timer_id: expect.stringMatching(/^tmr_/),
      agent_id: 'main',
      status: 'active',
      duration_ms: 60_000,
      interval_ms: 30_000,
      summary: 'poll CI',
      last_fired_at: null,
      fire_count: 0,
    });
    expect(Date.parse(timer.next_fire_at) - Date.parse(timer.created_at)).toBe(60_000);

    const one = await request(d, 'GET', `/api/agents/main/timers/${timer.timer_id}`);
    expect(one.status).toBe(200);
    expect(one.json).toEqual(timer);
    const list = await request(d, 'GET', '/api/agents/main/timers');
    expect(list.json).toEqual({ ok: true, agent_id: 'main', timers: [timer] });

    const old = await createTimer(d, { after_ms: 1000, every_ms: 1000 });
    expectError(old, 400, 'invalid_request');
    expect(old.json.hint).toContain('duration_ms');
    expect(old.json.hint).toContain('interval_ms');
    expect(old.json.issues.length).toBeGreaterThan(0);
    expectError(await createTimer(d, { duration_ms: -1 }), 400, 'invalid_request');
    expectError(await createTimer(d, { duration_ms: 10, extra: true }), 400, 'invalid_request');
    expectError(await request(d, 'POST', '/api/control/agents/main/timers', { raw: '{"duration_ms":', headers: { 'content-type': 'application/json' } }), 400, 'invalid_json');
    expectError(await createTimer(d, { duration_ms: 10 }, 'ghost'), 404, 'agent_not_found');
    expectError(await request(d, 'GET', '/api/agents/ghost/timers'), 404, 'agent_not_found');
    expectError(await request(d, 'GET', '/api/agents/main/timers/tmr_nope'), 404, 'timer_not_found');
    expectError(await request(d, 'POST', '/api/control/agents/main/timers/tmr_nope/cancel', { body: {} }), 404, 'timer_not_found');

    const cancel = await request(d, 'POST', `/api/control/agents/main/timers/${timer.timer_id}/cancel`);
    expect(cancel.status, cancel.text).toBe(200);
    expect(cancel.json).toEqual({ ...timer, status: 'cancelled', next_fire_at: null });
    const again = await request(d, 'POST', `/api/control/agents/main/timers/${timer.timer_id}/cancel`, { body: { authority_class: 'operator_instruction' } });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(cancel.json);
    expectError(await request(d, 'POST', `/api/control/agents/main/timers/${timer.timer_id}/cancel`, { body: { why: 'x' } }), 400, 'invalid_request');

    // A one-shot that fires at once, then cannot be cancelled.
    const now = (await createTimer(d, { duration_ms: 0, summary: 'now' })).json;
    await waitFor(() => request(d, 'GET', `/api/agents/main/timers/${now.timer_id}`), (r) => r.json.status === 'completed', 'one-shot completes');
    expectError(await request(d, 'POST', `/api/control/agents/main/timers/${now.timer_id}/cancel`, { body: {} }), 400, 'timer_completed');

    const evs = await events(d);
    const types = evs.map((e) => e.type);
    expect(types.filter((t) => t === 'timer_created')).toHaveLength(2);
    expect(types.filter((t) => t === 'timer_cancelled')).toHaveLength(1);
    expect(types.filter((t) => t === 'timer_fired')).toHaveLength(1);
    const enq = evs.find((e) => e.type === 'message_enqueued' && e.provenance?.origin?.kind === 'timer')!;
    expect(enq.provenance).toMatchObject({
      origin: { kind: 'timer', timer_id: now.timer_id },
      trust: 'trusted_system',
      authority_class: 'runtime_instruction',
      priority: 'next',
      kind: 'system_tick',
    });
    // The state page shows the timers.
    const state = await request(d, 'GET', '/api/agents/main/state');
    expect(state.json.timers.map((t: { timer_id: string }) => t.timer_id).sort()).toEqual([timer.timer_id, now.timer_id].sort());
  });

  it('needs the token on control routes in bearer mode; reads stay open on loopback', async () => {
    const d = await pool.start({ args: ['--token', 'sekret'] });
    expectError(await createTimer(d, { duration_ms: 1000 }), 401, 'auth_required');
    const ok = await createTimer(d, { duration_ms: 1000 }, 'main', { authorization: 'Bearer sekret' });
    expect(ok.status).toBe(201);
    expectError(await request(d, 'POST', `/api/control/agents/main/timers/${ok.json.timer_id}/cancel`, { body: {} }), 401, 'auth_required');
    expect((await request(d, 'GET', '/api/agents/main/timers')).status).toBe(200);
  });

  it('refuses timer mutations on a deleting agent with 409 agent_deleting', async () => {
    const d = await pool.start();
    expect((await request(d, 'POST', '/api/control/agents/doomed/create', { body: {} })).status).toBe(201);
    const t1 = (await createTimer(d, { duration_ms: 60_000 }, 'doomed')).json;
    // The deletion runs in the background: the agent is still deleting (409) or already gone (404).
    expect((await request(d, 'DELETE', '/api/control/agents/doomed')).status).toBe(202);
    const r = await createTimer(d, { duration_ms: 1 }, 'doomed');
    expect([409, 404]).toContain(r.status);
    expect(r.json.code).toBe(r.status === 409 ? 'agent_deleting' : 'agent_not_found');
    const c = await request(d, 'POST', `/api/control/agents/doomed/timers/${t1.timer_id}/cancel`, { body: {} });
    expect(c.json.code).toMatch(/^agent_(deleting|not_found)$/);
  });
});

describe('timers survive SIGKILL', () => {
  it('a timer created before SIGKILL fires after a restart on the same home', async () => {
    const d = await pool.start();
    const once = (await createTimer(d, { duration_ms: 1000, summary: 'after restart' })).json;
    const every = (await createTimer(d, { duration_ms: 800, interval_ms: 1000, summary: 'cadence' })).json;
    await sigkill(d);
    expect(d.proc.signalCode).toBe('SIGKILL');
    const before = Date.now();
    const again = await pool.start({ home: d.home });
    const fired = await waitFor(
      () => events(again),
      (evs) => evs.some((e) => e.type === 'timer_fired' && e.payload.timer_id === once.timer_id),
      'one-shot fires after restart',
    );
    const shot = fired.filter((e) => e.type === 'timer_fired' && e.payload.timer_id === once.timer_id);
    expect(shot).toHaveLength(1);
    expect(shot[0]!.payload).toMatchObject({ scheduled_for: once.next_fire_at, fire_count: 1, status: 'completed', next_fire_at: null });
    expect(Date.parse(shot[0]!.payload.fired_at)).toBeGreaterThanOrEqual(Date.parse(once.next_fire_at));
    const rec = await request(again, 'GET', `/api/agents/main/timers/${once.timer_id}`);
    expect(rec.json).toMatchObject({ status: 'completed', fire_count: 1 });

    // The interval timer keeps its original grid: every next_fire_at is created + 800 + k * 1000.
    const grid = (iso: string) => (Date.parse(iso) - Date.parse(every.created_at) - 800) % 1000;
    const ticks = await waitFor(
      () => events(again),
      (evs) => evs.filter((e) => e.type === 'timer_fired' && e.payload.timer_id === every.timer_id).length >= 2,
      'interval fires twice',
    );
    for (const e of ticks.filter((x) => x.type === 'timer_fired' && x.payload.timer_id === every.timer_id)) {
      expect(grid(e.payload.scheduled_for)).toBe(0);
      expect(grid(e.payload.next_fire_at)).toBe(0);
      expect(Date.parse(e.payload.next_fire_at)).toBeGreaterThan(Date.parse(e.payload.fired_at));
    }
    expect(Date.now() - before).toBeLessThan(10_000);
  });
});

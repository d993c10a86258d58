/**
 * Agent timers (docs/control-plane-api.md#timers; spec "Timer" state table), in process with a
 * ManualClock: time moves only when a test advances it, and `runDue()` fires what is due without
 * sleeping.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { ManualClock } from '../../src/core/clock.js';
import { buildApp } from '../../src/http/app.js';
import { timerRoutes } from '../../src/http/control/timers.js';
import { TimerSchedule } from '../../src/runtime/timers/timer-scheduler.js';
import { createServices, startServices, stopServices, type Services } from '../../src/services.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { holdDeletion, testServices, type TestServices } from '../helpers/services.js';

let t: TestServices;
beforeEach(() => {
  t = testServices();
});
afterEach(() => t.close());

const iso = (ms: number) => new Date(ms).toISOString();

function eventsOf(s: Services, agent = 'main') {
  return s.events.page(agent, { limit: 1000, order: 'asc', max_level: 'debug' }).events;
}
function typesOf(s: Services, agent = 'main') {
  return eventsOf(s, agent).map((e) => e.type);
}
function eventsOfType(s: Services, type: string, agent = 'main') {
  return eventsOf(s, agent).filter((e) => e.type === type);
}
/** The agent takes every queued message (a timer holds its next firing while its last tick waits). */
function takeAll(s: Services, agent = 'main') {
  s.store.tx(() => {
    while (s.queue.claimNext(agent));
  });
}

describe('timer creation', () => {
  it('creates an active record with a tmr_ id, next_fire_at = created_at + duration_ms, and a timer_created event', async () => {
    const created = t.clock.now();
    const timer = await t.s.timers.create('main', { duration_ms: 1500, interval_ms: null, summary: 'check the build' });
    expect(timer).toEqual({
      timer_id: expect.stringMatching(/^tmr_[0-9A-HJKMNP-TV-Z]{26}$/),
      agent_id: 'main',
      status: 'active',
      duration_ms: 1500,
      interval_ms: null,
      summary: 'check the build',
      created_at: iso(created),
      next_fire_at: iso(created + 1500),
      last_fired_at: null,
      fire_count: 0,
    });
    const [event] = eventsOfType(t.s, 'timer_created');
    expect(event!.payload).toMatchObject({ timer_id: timer.timer_id, timer });
    expect(t.s.timers.get('main', timer.timer_id)).toEqual(timer);
    expect(t.s.timers.list('main')).toEqual([timer]);
  });

  it('refuses an unknown agent (404 agent_not_found) and a deleting one (409 agent_deleting)', async () => {
    await expect(t.s.timers.create('ghost', { duration_ms: 1 })).rejects.toMatchObject({ status: 404, code: 'agent_not_found' });
    expect(() => t.s.timers.list('ghost')).toThrowError(expect.objectContaining({ code: 'agent_not_found' }));
    expect(() => t.s.timers.get('ghost', 'tmr_x')).toThrowError(expect.objectContaining({ code: 'agent_not_found' }));
    t.s.agents.create('doomed', {});
    const timer = await t.s.timers.create('doomed', { duration_ms: 1000 });
    const { release } = holdDeletion(t.s, 'doomed');
    await expect(t.s.timers.create('doomed', { duration_ms: 1 })).rejects.toMatchObject({ status: 409, code: 'agent_deleting' });
    await expect(t.s.timers.cancel('doomed', timer.timer_id)).rejects.toMatchObject({ status: 409, code: 'agent_deleting' });
    release();
    await t.s.deletion.idle();
  });
});

describe('firing', () => {
  it('fires a one-shot exactly once, at its time: system_tick with timer provenance, then timer_fired, then completed', async () => {
    const timer = await t.s.timers.create('main', { duration_ms: 1000, summary: 'ping' });
    const scheduled = t.clock.now() + 1000;
    t.clock.advance(999);
    expect(t.s.timers.runDue()).toBe(0);
    expect(eventsOfType(t.s, 'timer_fired')).toHaveLength(0);
    t.clock.advance(1);
    expect(t.s.timers.runDue()).toBe(1);

    const types = typesOf(t.s);
    expect(types.slice(-2)).toEqual(['message_enqueued', 'timer_fired']);
    const [enq] = eventsOfType(t.s, 'message_enqueued');
    expect(enq!.provenance).toEqual({
      origin: { kind: 'timer', timer_id: timer.timer_id },
      trust: 'trusted_system',
      authority_class: 'runtime_instruction',
      priority: 'next',
      kind: 'system_tick',
      delivery_surface: 'timer',
      message_id: expect.stringMatching(/^msg_/),
    });
    expect(enq!.payload.body).toEqual({
      type: 'json',
      value: { reason: 'timer', timer_id: timer.timer_id, summary: 'ping', fire_count: 1, scheduled_for: iso(scheduled) },
    });
    const [fired] = eventsOfType(t.s, 'timer_fired');
    expect(fired!.payload).toMatchObject({
      timer_id: timer.timer_id,
      message_id: enq!.payload.message_id,
      scheduled_for: iso(scheduled),
      fired_at: iso(scheduled),
      fire_count: 1,
      status: 'completed',
      next_fire_at: null,
    });
    // The message is really queued, with the same provenance.
    const msg = t.s.queue.get(enq!.payload.message_id as string)!;
    expect(msg).toMatchObject({ kind: 'system_tick', priority: 'next', trust: 'trusted_system', status: 'queued' });
    expect(t.s.timers.get('main', timer.timer_id)).toMatchObject({
      status: 'completed',
      fire_count: 1,
      last_fired_at: iso(scheduled),
      next_fire_at: null,
    });

    t.clock.advance(60_000);
    expect(t.s.timers.runDue()).toBe(0);
    expect(eventsOfType(t.s, 'timer_fired')).toHaveLength(1);
    expect(t.s.queue.pending('main')).toBe(1);
  });

  it('keeps an interval timer on its original grid and coalesces missed periods into one firing', async () => {
    const created = t.clock.now();
    const timer = await t.s.timers.create('main', { duration_ms: 1000, interval_ms: 1000 });
    t.clock.advance(1000);
    expect(t.s.timers.runDue()).toBe(1);
    expect(t.s.timers.get('main', timer.timer_id)).toMatchObject({ status: 'active', fire_count: 1, next_fire_at: iso(created + 2000) });
    takeAll(t.s);
    // Late by 30 ms: still fires once, and the next stays on the grid (no drift).
    t.clock.advance(1030);
    expect(t.s.timers.runDue()).toBe(1);
    expect(t.s.timers.get('main', timer.timer_id)).toMatchObject({ fire_count: 2, next_fire_at: iso(created + 3000) });
    takeAll(t.s);
    // Three grid points passed (3000, 4000, 5000; now 5500): one firing.
    t.clock.advance(3470);
    expect(t.s.timers.runDue()).toBe(1);
    const rec = t.s.timers.get('main', timer.timer_id);
    expect(rec).toMatchObject({ fire_count: 3, last_fired_at: iso(created + 5500), next_fire_at: iso(created + 6000) });
    expect(eventsOfType(t.s, 'timer_fired').at(-1)!.payload).toMatchObject({
      scheduled_for: iso(created + 3000),
      fired_at: iso(created + 5500),
      missed_periods: 2,
      next_fire_at: iso(created + 6000),
    });
    expect(eventsOfType(t.s, 'timer_fired')).toHaveLength(3);
  });

  it('treats interval_ms 0 as a one-shot', async () => {
    const timer = await t.s.timers.create('main', { duration_ms: 0, interval_ms: 0 });
    expect(t.s.timers.runDue()).toBe(1);
    expect(t.s.timers.runDue()).toBe(0);
    expect(t.s.timers.get('main', timer.timer_id)).toMatchObject({ status: 'completed', fire_count: 1 });
  });

  it('fires many timers in due order', async () => {
    const durations = [500, 100, 300, 200, 400];
    const made = [];
    for (const d of durations) made.push(await t.s.timers.create('main', { duration_ms: d, summary: String(d) }));
    t.clock.advance(250);
    expect(t.s.timers.runDue()).toBe(2);
    t.clock.advance(1000);
    expect(t.s.timers.runDue()).toBe(3);
    const order = eventsOfType(t.s, 'message_enqueued').map((e) => (e.payload.body as { value: { summary: string } }).value.summary);
    expect(order).toEqual(['100', '200', '300', '400', '500']);
  });

  it('arms a real timeout: a due timer fires without anyone calling runDue', async () => {
    const timer = await t.s.timers.create('main', { duration_ms: 0 });
    await vi.waitFor(() => expect(t.s.timers.get('main', timer.timer_id).status).toBe('completed'), { timeout: 2000, interval: 10 });
  });

  it('a firing is never refused because external senders or the operator filled the queue', async () => {
    const small = testServices({ configToml: '[queue]\nmax_pending = 1\nmax_pending_operator = 1\n' });
    try {
      await small.s.ingress.publicEnqueue('main', { text: 'fill the public budget' });
      await small.s.ingress.controlPrompt('main', 'fill the operator budget');
      await expect(small.s.ingress.publicEnqueue('main', { text: 'one more' })).rejects.toMatchObject({ code: 'overloaded' });
      const timer = await small.s.timers.create('main', { duration_ms: 10 });
      small.clock.advance(10);
      expect(small.s.timers.runDue()).toBe(1);
      expect(small.s.timers.get('main', timer.timer_id)).toMatchObject({ status: 'completed', fire_count: 1 });
      expect(eventsOfType(small.s, 'timer_fired')).toHaveLength(1);
      expect(small.s.queue.pending('main')).toBe(3);
    } finally {
      await small.close();
    }
  });
});

describe('cancel (state table)', () => {
  it('active -> cancelled with timer_cancelled; the timer never fires', async () => {
    const timer = await t.s.timers.create('main', { duration_ms: 1000, interval_ms: 1000 });
    const cancelled = await t.s.timers.cancel('main', timer.timer_id);
    expect(cancelled).toEqual({ ...timer, status: 'cancelled', next_fire_at: null });
    expect(t.s.timers.get('main', timer.timer_id)).toEqual(cancelled);
    expect(eventsOfType(t.s, 'timer_cancelled').map((e) => e.payload.timer_id)).toEqual([timer.timer_id]);
    t.clock.advance(10_000);
    expect(t.s.timers.runDue()).toBe(0);
    expect(eventsOfType(t.s, 'timer_fired')).toHaveLength(0);
  });

  it('cancelled -> 200 with the same record and no second event', async () => {
    const timer = await t.s.timers.create('main', { duration_ms: 1000 });
    const first = await t.s.timers.cancel('main', timer.timer_id);
    const head = t.s.events.head('main');
    expect(await t.s.timers.cancel('main', timer.timer_id)).toEqual(first);
    expect(t.s.events.head('main')).toBe(head);
  });

  it('completed -> 400 timer_completed, record unchanged', async () => {
    const timer = await t.s.timers.create('main', { duration_ms: 5 });
    t.clock.advance(5);
    t.s.timers.runDue();
    const before = t.s.timers.get('main', timer.timer_id);
    await expect(t.s.timers.cancel('main', timer.timer_id)).rejects.toMatchObject({ status: 400, code: 'timer_completed' });
    expect(t.s.timers.get('main', timer.timer_id)).toEqual(before);
    expect(eventsOfType(t.s, 'timer_cancelled')).toHaveLength(0);
  });

  it('missing -> 404 timer_not_found, also for a timer of another agent', async () => {
    await expect(t.s.timers.cancel('main', 'tmr_nope')).rejects.toMatchObject({ status: 404, code: 'timer_not_found' });
    t.s.agents.create('other', {});
    const theirs = await t.s.timers.create('other', { duration_ms: 1000 });
    await expect(t.s.timers.cancel('main', theirs.timer_id)).rejects.toMatchObject({ status: 404, code: 'timer_not_found' });
    expect(() => t.s.timers.get('main', theirs.timer_id)).toThrowError(expect.objectContaining({ status: 404, code: 'timer_not_found' }));
    expect(t.s.timers.get('other', theirs.timer_id).status).toBe('active');
  });
});

describe('agent deletion and the state page', () => {
  it('stopAgent cancels the agent’s timers quietly; a re-created agent starts with none', async () => {
    t.s.agents.create('doomed', {});
    const timer = await t.s.timers.create('doomed', { duration_ms: 1000, interval_ms: 1000 });
    const other = await t.s.timers.create('main', { duration_ms: 1000 });
    t.s.deletion.request('doomed', { cascadePrivateChildren: false });
    await t.s.deletion.idle();
    t.clock.advance(5000);
    expect(t.s.timers.runDue()).toBe(1);
    expect(t.s.timers.get('main', other.timer_id).status).toBe('completed');
    t.s.agents.create('doomed', {});
    expect(t.s.timers.list('doomed')).toEqual([]);
    expect(() => t.s.timers.get('doomed', timer.timer_id)).toThrowError(expect.objectContaining({ code: 'timer_not_found' }));
    expect(typesOf(t.s, 'doomed')).toEqual(['agent_created']);
  });

  it('stateFor lists active timers first, newest first, at most 50', async () => {
    const done = await t.s.timers.create('main', { duration_ms: 0 });
    t.s.timers.runDue();
    const active = [];
    for (let i = 0; i < 60; i++) active.push(await t.s.timers.create('main', { duration_ms: 60_000 + i }));
    const state = t.s.timers.stateFor('main') as Array<{ timer_id: string; status: string }>;
    expect(state).toHaveLength(50);
    expect(state.every((r) => r.status === 'active')).toBe(true);
    expect(state[0]!.timer_id).toBe(active.at(-1)!.timer_id);
    const few = t.s.timers.list('main', { limit: 1000 });
    expect(few).toHaveLength(61);
    expect(few.at(-1)!.timer_id).toBe(done.timer_id);
    expect(t.s.timers.list('main', { status: 'completed' }).map((r) => r.timer_id)).toEqual([done.timer_id]);
    expect(t.s.timers.stateFor('ghost')).toEqual([]);
  });
});

describe('durable scheduling across restarts', () => {
  let home: string;
  let clock: ManualClock;
  const opened: Services[] = [];
  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-timers-'));
    clock = new ManualClock();
  });
  afterEach(async () => {
    for (const s of opened.splice(0)) await stopServices(s).catch(() => undefined);
    fs.rmSync(home, { recursive: true, force: true });
  });
  function open(): Services {
    const s = createServices(loadConfig({ home }, {}), clock, createLogger('silent'));
    opened.push(s);
    startServices(s);
    return s;
  }
  async function close(s: Services): Promise<void> {
    opened.splice(opened.indexOf(s), 1);
    await stopServices(s);
  }

  it('an overdue one-shot fires once at start; an interval fires once for all missed periods, then keeps its cadence', async () => {
    const created = clock.now();
    let s = open();
    const once = await s.timers.create('main', { duration_ms: 3000, summary: 'once' });
    const every = await s.timers.create('main', { duration_ms: 1000, interval_ms: 1000, summary: 'every' });
    const later = await s.timers.create('main', { duration_ms: 60_000, summary: 'later' });
    clock.advance(1000);
    expect(s.timers.runDue()).toBe(1); // `every` fired at created + 1000
    takeAll(s);
    await close(s);

    // Down for 9.5 s: `once` (due at 3000) and `every` (due at 2000 ... 10000) are overdue.
    clock.advance(9500); // now created + 10_500
    s = open();
    const fired = eventsOfType(s, 'timer_fired');
    expect(fired.map((e) => e.payload.timer_id).sort()).toEqual([once.timer_id, every.timer_id, every.timer_id].sort());
    expect(s.timers.get('main', once.timer_id)).toMatchObject({ status: 'completed', fire_count: 1, last_fired_at: iso(created + 10_500) });
    expect(s.timers.get('main', every.timer_id)).toMatchObject({ status: 'active', fire_count: 2, next_fire_at: iso(created + 11_000) });
    expect(fired.find((e) => e.payload.timer_id === every.timer_id && e.payload.fire_count === 2)!.payload).toMatchObject({
      scheduled_for: iso(created + 2000),
      fired_at: iso(created + 10_500),
      missed_periods: 8,
    });
    expect(s.timers.get('main', later.timer_id)).toMatchObject({ status: 'active', fire_count: 0 });
    // Nothing more at the same instant; then the original cadence.
    expect(s.timers.runDue()).toBe(0);
    takeAll(s);
    clock.advance(499);
    expect(s.timers.runDue()).toBe(0);
    clock.advance(1);
    expect(s.timers.runDue()).toBe(1);
    expect(s.timers.get('main', every.timer_id)).toMatchObject({ fire_count: 3, next_fire_at: iso(created + 12_000) });
    // Cancelled before a restart stays cancelled after it.
    await s.timers.cancel('main', every.timer_id);
    await close(s);
    clock.advance(100_000);
    s = open();
    expect(s.timers.get('main', every.timer_id).status).toBe('cancelled');
    expect(s.timers.get('main', later.timer_id)).toMatchObject({ status: 'completed', fire_count: 1 });
    expect(eventsOfType(s, 'timer_fired').filter((e) => e.payload.timer_id === every.timer_id)).toHaveLength(3);
  });
});

describe('HTTP routes (in process)', () => {
  let app: FastifyInstance;
  beforeEach(async () => {
    ({ app } = await buildApp({
      logger: createLogger('silent'),
      metrics: t.s.metrics,
      auth: { token: '', readAccess: 'loopback', allowedHosts: [], allowedOrigins: [], trustLoopbackPeers: true },
    surface: 'control',
      heartbeatMs: 1000,
      routes: timerRoutes(t.s),
    }));
  });
  afterEach(() => app.close());

  const post = (url: string, payload?: unknown) =>
    app.inject({ method: 'POST', url, headers: { host: 'localhost' }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const get = (url: string) => app.inject({ method: 'GET', url, headers: { host: 'localhost' } });

  it('rejects after_ms/every_ms with 400 invalid_request and a hint naming duration_ms and interval_ms', async () => {
    for (const body of [{ after_ms: 1000 }, { duration_ms: 1000, every_ms: 500 }, { after_ms: 1, every_ms: 2 }]) {
      const r = await post('/api/control/agents/main/timers', body);
      expect(r.statusCode).toBe(400);
      const json = r.json();
      expect(json).toMatchObject({ ok: false, code: 'invalid_request', issues: expect.any(Array) });
      expect(json.hint).toMatch(/duration_ms/);
      expect(json.hint).toMatch(/interval_ms/);
    }
    expect(t.s.timers.list('main')).toEqual([]);
  });

  it('validates the body strictly', async () => {
    const bad = [
      {},
      { duration_ms: -1 },
      { duration_ms: 1.5 },
      { duration_ms: '1000' },
      { duration_ms: 1000, interval_ms: -5 },
      { duration_ms: 1000, summary: 7 },
      { duration_ms: 1000, colour: 'red' },
      { duration_ms: 1000, authority_class: 'sovereign' },
      { duration_ms: 1e16 },
    ];
    for (const body of bad) {
      const r = await post('/api/control/agents/main/timers', body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.json().code).toBe('invalid_request');
      expect(r.json().hint).toBeUndefined();
    }
    expect(t.s.timers.list('main')).toEqual([]);
  });

  it('creates (201), reads, lists and cancels over HTTP with the shared error envelope', async () => {
    const r = await post('/api/control/agents/main/timers', { duration_ms: 1000, interval_ms: null, summary: null, authority_class: 'operator_instruction' });
    expect(r.statusCode).toBe(201);
    const timer = r.json();
    expect(timer).toMatchObject({ agent_id: 'main', status: 'active', duration_ms: 1000, interval_ms: null, summary: null, fire_count: 0 });
    expect((await get(`/api/agents/main/timers/${timer.timer_id}`)).json()).toEqual(timer);
    expect((await get('/api/agents/main/timers')).json()).toEqual({ ok: true, agent_id: 'main', timers: [timer] });
    expect((await get('/api/agents/main/timers?limit=0')).statusCode).toBe(400);
    const missing = await get('/api/agents/main/timers/tmr_missing');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ ok: false, code: 'timer_not_found', error: expect.any(String) });
    expect((await get('/api/agents/ghost/timers')).json().code).toBe('agent_not_found');
    expect((await post('/api/control/agents/ghost/timers', { duration_ms: 1 })).statusCode).toBe(404);

    const strict = await post(`/api/control/agents/main/timers/${timer.timer_id}/cancel`, { reason: 'x' });
    expect(strict.statusCode).toBe(400);
    const c1 = await post(`/api/control/agents/main/timers/${timer.timer_id}/cancel`);
    expect(c1.statusCode).toBe(200);
    expect(c1.json()).toMatchObject({ timer_id: timer.timer_id, status: 'cancelled', next_fire_at: null });
    const c2 = await post(`/api/control/agents/main/timers/${timer.timer_id}/cancel`, { authority_class: 'operator_instruction' });
    expect(c2.statusCode).toBe(200);
    expect(c2.json()).toEqual(c1.json());
    expect((await post('/api/control/agents/main/timers/tmr_missing/cancel', {})).json().code).toBe('timer_not_found');

    const once = (await post('/api/control/agents/main/timers', { duration_ms: 0 })).json();
    t.s.timers.runDue();
    const c3 = await post(`/api/control/agents/main/timers/${once.timer_id}/cancel`, {});
    expect(c3.statusCode).toBe(400);
    expect(c3.json()).toMatchObject({ ok: false, code: 'timer_completed' });
  });
});

describe('TimerSchedule', () => {
  it('hands out 10,000 entries in due order, skipping removed ones, and stays cheap', () => {
    const clock = new ManualClock(0);
    const sched = new TimerSchedule(clock, () => undefined);
    const dues = new Map<string, number>();
    let seed = 42;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const t0 = performance.now();
    for (let i = 0; i < 10_000; i++) {
      const due = Math.floor(rand() * 20_000);
      dues.set(`t${i}`, due);
      sched.set(`t${i}`, due);
    }
    for (let i = 0; i < 10_000; i += 3) {
      sched.remove(`t${i}`);
      dues.delete(`t${i}`);
    }
    sched.set('t1', 5); // reschedule: only the new due counts
    dues.set('t1', 5);
    expect(sched.size).toBe(dues.size);
    const out = sched.takeDue(Number.MAX_SAFE_INTEGER, 100_000);
    const elapsed = performance.now() - t0;
    sched.stop();
    expect(out.map((e) => e.timerId).sort()).toEqual([...dues.keys()].sort());
    for (let i = 1; i < out.length; i++) expect(out[i]!.due).toBeGreaterThanOrEqual(out[i - 1]!.due);
    expect(out.every((e) => e.due === dues.get(e.timerId))).toBe(true);
    expect(elapsed).toBeLessThan(500);
  });
});

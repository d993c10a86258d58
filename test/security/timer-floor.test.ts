/**
 * Timer floors (issue: "a control-plane timer with interval_ms: 1 fired 6,166 times in 10 s,
 * 43,162 events, 64 % of a core"). An interval is 0 (a one-shot) or at least 1000 ms, and an agent
 * has at most `timers.max_active_per_agent` active timers; both rules live in TimerService, so
 * the HTTP route and the model's create_timer tool meet the same answer. And since the queue never
 * refuses a tick, a timer keeps at most one waiting in it: a stopped agent's queue does not grow
 * by one tick per timer per second.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { ManualClock } from '../../src/core/clock.js';
import { MIN_INTERVAL_MS } from '../../src/runtime/timers/timers.js';
import { createServices, startServices, stopServices } from '../../src/services.js';
import { createLogger } from '../../src/telemetry/logger.js';
import type { ToolOutcome } from '../../src/runtime/tools/index.js';
import { daemonPool, request, type RunningDaemon } from '../helpers/daemon.js';
import { testServices, type TestServices } from '../helpers/services.js';

describe('timer floor and cap in the timer service (ManualClock)', () => {
  let t: TestServices;
  afterEach(() => t?.close());

  const tool = (name: string, args: Record<string, unknown>): Promise<ToolOutcome> =>
    t.s.tools.find((x) => x.name === name)!.execute({ agentId: 'main', turnId: 'turn_T', messageId: 'msg_M', signal: new AbortController().signal, trust: 'trusted_operator', network: false }, args);

  it('refuses an interval under 1000 ms with invalid_request naming interval_ms, from the service and the tool alike', async () => {
    t = testServices();
    for (const interval_ms of [1, 10, 999]) {
      await expect(t.s.timers.create('main', { duration_ms: 0, interval_ms })).rejects.toMatchObject({
        status: 400,
        code: 'invalid_request',
        extra: { issues: [expect.objectContaining({ path: 'interval_ms' })] },
      });
      const out = await tool('create_timer', { duration_ms: 0, interval_ms });
      expect(out.ok).toBe(false);
      expect(out.data).toMatchObject({ code: 'invalid_request', issues: [expect.objectContaining({ path: 'interval_ms' })] });
    }
    expect(t.s.timers.list('main')).toEqual([]);
    // One-shots and periods from the floor up are fine.
    for (const interval_ms of [null, 0, MIN_INTERVAL_MS, 60_000]) await t.s.timers.create('main', { duration_ms: 0, interval_ms });
    expect((await tool('create_timer', { duration_ms: 0, interval_ms: MIN_INTERVAL_MS })).ok).toBe(true);
    expect(t.s.timers.list('main')).toHaveLength(5);
  });

  it('caps active timers per agent with 409 timer_limit_reached; cancelled and completed ones free room', async () => {
    t = testServices({ configToml: '[timers]\nmax_active_per_agent = 3\n' });
    t.s.agents.create('other', {});
    const a = await t.s.timers.create('main', { duration_ms: 60_000, interval_ms: 60_000 });
    await t.s.timers.create('main', { duration_ms: 60_000 });
    const shot = await t.s.timers.create('main', { duration_ms: 10 });
    await expect(t.s.timers.create('main', { duration_ms: 1 })).rejects.toMatchObject({
      status: 409,
      code: 'timer_limit_reached',
      extra: { agent_id: 'main', limit: 3 },
    });
    const refused = await tool('create_timer', { duration_ms: 1 });
    expect(refused.data).toMatchObject({ ok: false, code: 'timer_limit_reached', limit: 3 });
    // The cap is per agent.
    await t.s.timers.create('other', { duration_ms: 60_000 });
    // A cancelled timer frees its place, and so does a one-shot that fired.
    await t.s.timers.cancel('main', a.timer_id);
    await t.s.timers.create('main', { duration_ms: 60_000 });
    await expect(t.s.timers.create('main', { duration_ms: 1 })).rejects.toMatchObject({ code: 'timer_limit_reached' });
    t.clock.advance(10);
    expect(t.s.timers.runDue()).toBe(1);
    expect(t.s.timers.get('main', shot.timer_id).status).toBe('completed');
    await t.s.timers.create('main', { duration_ms: 60_000 });
    expect(t.s.timers.list('main', { status: 'active' })).toHaveLength(3);
  });

  it('a timer stored with a period under the floor (before it existed) fires at most once a second', async () => {
    t = testServices();
    const timer = await t.s.timers.create('main', { duration_ms: 0, interval_ms: MIN_INTERVAL_MS });
    t.s.store.db.prepare('UPDATE timers SET interval_ms = 1 WHERE timer_id = ?').run(timer.timer_id);
    let fired = 0;
    for (let ms = 0; ms < 3000; ms += 10) {
      fired += t.s.timers.runDue();
      t.s.store.tx(() => t.s.queue.claimNext('main')); // the agent keeps up
      t.clock.advance(10);
    }
    expect(fired).toBe(3);
  });

  it('a timer keeps at most one tick waiting in the queue; a held firing then fires once for the periods it missed', async () => {
    t = testServices();
    const created = t.clock.now();
    const timer = await t.s.timers.create('main', { duration_ms: MIN_INTERVAL_MS, interval_ms: MIN_INTERVAL_MS });
    const other = await t.s.timers.create('main', { duration_ms: MIN_INTERVAL_MS, interval_ms: MIN_INTERVAL_MS });
    // Nobody takes the ticks (a stopped agent) for a minute.
    let fired = 0;
    for (let i = 0; i < 60; i++) {
      t.clock.advance(MIN_INTERVAL_MS);
      fired += t.s.timers.runDue();
    }
    expect(fired).toBe(2);
    expect(t.s.queue.pending('main')).toBe(2);
    expect(t.s.timers.get('main', timer.timer_id)).toMatchObject({ status: 'active', fire_count: 1, next_fire_at: new Date(created + 2000).toISOString() });
    // The agent takes its tick: the held firing fires once for all it missed, on the original grid.
    const first = t.s.store.tx(() => t.s.queue.claimNext('main'))!;
    const released = first.metadata.timer_id === timer.timer_id ? timer : other;
    t.clock.advance(MIN_INTERVAL_MS);
    expect(t.s.timers.runDue()).toBe(1);
    const last = t.s.events
      .page('main', { limit: 1, order: 'desc', max_level: 'debug' })
      .events.find((e) => e.type === 'timer_fired')!;
    expect(last.payload).toMatchObject({
      timer_id: released.timer_id,
      fire_count: 2,
      scheduled_for: new Date(created + 2000).toISOString(),
      missed_periods: 59,
      next_fire_at: new Date(created + 62_000).toISOString(),
    });
    expect(t.s.queue.pending('main')).toBe(2);
  });
});

describe('a held timer across a restart', () => {
  it('a tick still queued at start keeps holding its timer', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-timer-floor-'));
    const clock = new ManualClock();
    const open = () => {
      const s = createServices(loadConfig({ home }, {}), clock, createLogger('silent'));
      s.runLoop.scheduler.disable();
      startServices(s);
      return s;
    };
    try {
      let s = open();
      const timer = await s.timers.create('main', { duration_ms: MIN_INTERVAL_MS, interval_ms: MIN_INTERVAL_MS });
      clock.advance(MIN_INTERVAL_MS);
      expect(s.timers.runDue()).toBe(1);
      await stopServices(s);
      clock.advance(10 * MIN_INTERVAL_MS);
      s = open(); // the overdue firing is held at start: its tick is still queued
      try {
        expect(s.timers.get('main', timer.timer_id).fire_count).toBe(1);
        expect(s.queue.pending('main')).toBe(1);
        s.store.tx(() => s.queue.claimNext('main'));
        clock.advance(MIN_INTERVAL_MS);
        expect(s.timers.runDue()).toBe(1);
        expect(s.timers.get('main', timer.timer_id).fire_count).toBe(2);
      } finally {
        await stopServices(s);
      }
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('timer floor and cap over HTTP (real daemon)', () => {
  const pool = daemonPool();
  afterEach(() => pool.killAll());
  afterAll(() => pool.cleanup());

  const createTimer = (d: RunningDaemon, body: unknown, agent = 'main') => request(d, 'POST', `/api/control/agents/${agent}/timers`, { body });

  it('interval_ms: 1 answers 400 invalid_request naming interval_ms and creates nothing', async () => {
    const d = await pool.start();
    for (const interval_ms of [1, 999]) {
      const r = await createTimer(d, { duration_ms: 0, interval_ms });
      expect(r.status, r.text).toBe(400);
      expect(r.json).toMatchObject({ ok: false, code: 'invalid_request' });
      expect(r.json.issues.map((i: { path: string }) => i.path)).toContain('body.interval_ms');
    }
    expect((await request(d, 'GET', '/api/agents/main/timers')).json.timers).toEqual([]);
    expect((await createTimer(d, { duration_ms: 60_000, interval_ms: 1000 })).status).toBe(201);
    expect((await createTimer(d, { duration_ms: 60_000, interval_ms: 0 })).status).toBe(201);
  });

  it('past timers.max_active_per_agent, creation answers 409 timer_limit_reached', async () => {
    const d = await pool.start({ configToml: '[timers]\nmax_active_per_agent = 2\n' });
    const first = (await createTimer(d, { duration_ms: 60_000, interval_ms: 60_000 })).json;
    expect((await createTimer(d, { duration_ms: 60_000 })).status).toBe(201);
    const r = await createTimer(d, { duration_ms: 60_000 });
    expect(r.status, r.text).toBe(409);
    expect(r.json).toMatchObject({ ok: false, code: 'timer_limit_reached', agent_id: 'main', limit: 2 });
    expect(await request(d, 'POST', `/api/control/agents/main/timers/${first.timer_id}/cancel`, { body: {} })).toMatchObject({ status: 200 });
    expect((await createTimer(d, { duration_ms: 60_000 })).status).toBe(201);
  });
});

/**
 * Inbox timers: validation, at/every/cron occurrences with IANA time zones across DST changes
 * (Europe/Berlin, 2030: spring forward on 31 March, fall back on 27 October), one entry per
 * occurrence, overdue firing once, pause/resume/delete, durability across restart.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorOf, restartServices } from '../helpers/inbox-delivery.js';
import { testServices, type TestServices } from '../helpers/services.js';

let t: TestServices;
beforeEach(() => {
  t = testServices();
});
afterEach(async () => {
  await t.close();
});

const timers = () => t.s.inbox.timers;
const entries = (agentId: string) => t.s.inbox.entries.page(agentId, { limit: 1000, includeAcked: true }).entries;
const agent = () => t.s.inbox.agents.create({}).agentId;
const code = errorOf;

/** Move the clock to `iso` and fire what is due. */
function at(iso: string): number {
  t.clock.set(Date.parse(iso));
  return timers().runDue();
}

describe('timer validation', () => {
  it('should answer 400 for a bad time zone, a bad cron, a short every and not exactly one schedule', () => {
    const agentId = agent();
    expect(code(() => timers().create({ agentId, cron: '0 9 * * *', timezone: 'Mars/Olympus', message: 'm' }))).toBe('400 invalid_timezone');
    expect(code(() => timers().create({ agentId, cron: '61 * * * *', message: 'm' }))).toBe('400 invalid_cron');
    expect(code(() => timers().create({ agentId, cron: '0 0 * * * *', message: 'm' }))).toBe('400 invalid_cron');
    expect(code(() => timers().create({ agentId, every: 999, message: 'm' }))).toBe('400 invalid_request');
    expect(code(() => timers().create({ agentId, every: 1000, cron: '* * * * *', message: 'm' }))).toBe('400 invalid_request');
    expect(code(() => timers().create({ agentId, message: 'm' }))).toBe('400 invalid_request');
    expect(code(() => timers().create({ agentId: 'agt_nope', every: 1000, message: 'm' }))).toBe('404 agent_not_found');
    expect(code(() => timers().pause('sch_nope'))).toBe('404 timer_not_found');
    expect(timers().list()).toEqual([]);
  });
});

describe('timer occurrences', () => {
  it('should fire an `at` timer once, with the sender and message, then complete', () => {
    const agentId = agent();
    const start = t.clock.now();
    const timer = timers().create({ agentId, at: new Date(start + 5000).toISOString(), message: 'standup', sender: 'cal' });
    expect(timer).toMatchObject({ kind: 'at', status: 'active', nextFireAt: new Date(start + 5000).toISOString(), fireCount: 0 });
    t.clock.advance(4999);
    expect(timers().runDue()).toBe(0);
    t.clock.advance(1);
    expect(timers().runDue()).toBe(1);
    t.clock.advance(60_000);
    expect(timers().runDue()).toBe(0);
    expect(entries(agentId)).toEqual([
      expect.objectContaining({
        kind: 'item',
        itemKind: 'timer',
        message: 'standup',
        sender: 'cal',
        scheduleId: timer.scheduleId,
        sourceId: '__agentinbox_timer__',
        eventVariant: 'agentinbox.timer_fired',
        summary: `timer:${timer.scheduleId}`,
        rawPayload: { type: 'timer_fired', scheduleId: timer.scheduleId, message: 'standup', sender: 'cal' },
      }),
    ]);
    // AgentInbox shows a timer that never fires again as paused; svc's state says completed.
    expect(timers().get(timer.scheduleId)).toMatchObject({ status: 'paused', state: 'completed', fireCount: 1, nextFireAt: null });
    expect(code(() => timers().pause(timer.scheduleId))).toBe('409 timer_completed');
  });

  it('should fire `every` on its grid and once for several missed periods', () => {
    const agentId = agent();
    const timer = timers().create({ agentId, every: 1000, message: 'tick' });
    t.clock.advance(1000);
    expect(timers().runDue()).toBe(1);
    t.clock.advance(3500); // periods at 2000, 3000, 4000 missed: one entry
    expect(timers().runDue()).toBe(1);
    expect(timers().get(timer.scheduleId)).toMatchObject({ fireCount: 2, nextFireAt: new Date(Date.parse(timer.createdAt) + 5000).toISOString() });
    expect(entries(agentId)).toHaveLength(2);
  });

  it('should fire 02:30 Europe/Berlin once on the spring-forward day, at 03:00 local', () => {
    const agentId = agent();
    t.clock.set(Date.parse('2030-03-29T12:00:00Z'));
    const timer = timers().create({ agentId, cron: '30 2 * * *', timezone: 'Europe/Berlin', message: 'nightly' });
    expect(timer.nextFireAt).toBe('2030-03-30T01:30:00.000Z'); // 02:30 CET
    expect(at('2030-03-30T01:30:00Z')).toBe(1);
    // 31 March: 02:00-03:00 local does not exist; the occurrence comes once, at 03:00 CEST.
    expect(timers().get(timer.scheduleId).nextFireAt).toBe('2030-03-31T01:00:00.000Z');
    expect(at('2030-03-31T01:00:00Z')).toBe(1);
    expect(timers().get(timer.scheduleId).nextFireAt).toBe('2030-04-01T00:30:00.000Z'); // 02:30 CEST
    expect(at('2030-04-01T00:30:00Z')).toBe(1);
    expect(entries(agentId)).toHaveLength(3);
  });

  it('should fire 02:30 Europe/Berlin once on the fall-back day although it happens twice', () => {
    const agentId = agent();
    t.clock.set(Date.parse('2030-10-26T12:00:00Z'));
    const timer = timers().create({ agentId, cron: '30 2 * * *', timezone: 'Europe/Berlin', message: 'nightly' });
    expect(timer.nextFireAt).toBe('2030-10-27T00:30:00.000Z'); // first 02:30 (CEST)
    expect(at('2030-10-27T00:30:00Z')).toBe(1);
    expect(at('2030-10-27T01:30:00Z')).toBe(0); // the second 02:30 (CET)
    expect(timers().get(timer.scheduleId).nextFireAt).toBe('2030-10-28T01:30:00.000Z');
    expect(at('2030-10-28T01:30:00Z')).toBe(1);
    expect(entries(agentId)).toHaveLength(2);
  });

  it('should evaluate cron in the given zone, not the host zone', () => {
    const agentId = agent();
    t.clock.set(Date.parse('2030-07-01T00:00:00Z'));
    const ny = timers().create({ agentId, cron: '0 9 * * *', timezone: 'America/New_York', message: 'm' });
    const tokyo = timers().create({ agentId, cron: '0 9 * * *', timezone: 'Asia/Tokyo', message: 'm' });
    expect(ny.nextFireAt).toBe('2030-07-01T13:00:00.000Z');
    expect(tokyo.nextFireAt).toBe('2030-07-02T00:00:00.000Z');
  });
});

describe('timer pause, resume, delete', () => {
  it('should fire nothing while paused and resume at the next occurrence after now', () => {
    const agentId = agent();
    const timer = timers().create({ agentId, every: 1000, message: 'tick' });
    expect(timers().pause(timer.scheduleId)).toMatchObject({ updated: true, timer: { status: 'paused', nextFireAt: null } });
    expect(timers().pause(timer.scheduleId)).toMatchObject({ updated: false, timer: { status: 'paused' } });
    t.clock.advance(10_500);
    expect(timers().runDue()).toBe(0);
    const resumed = timers().resume(timer.scheduleId);
    expect(resumed.updated).toBe(true);
    expect(resumed.timer).toMatchObject({ status: 'active', nextFireAt: new Date(Date.parse(timer.createdAt) + 11_000).toISOString() });
    t.clock.advance(500);
    expect(timers().runDue()).toBe(1);
    expect(entries(agentId)).toHaveLength(1);
  });

  it('should delete a timer so it never fires again', () => {
    const agentId = agent();
    const timer = timers().create({ agentId, every: 1000, message: 'tick' });
    timers().delete(timer.scheduleId);
    t.clock.advance(5000);
    expect(timers().runDue()).toBe(0);
    expect(code(() => timers().get(timer.scheduleId))).toBe('404 timer_not_found');
    expect(timers().list({ agentId })).toEqual([]);
  });

  it('should remove the timers of a deleted agent', () => {
    const agentId = agent();
    timers().create({ agentId, every: 1000, message: 'tick' });
    t.s.inbox.agents.delete(agentId);
    t.clock.advance(5000);
    expect(timers().runDue()).toBe(0);
    expect(timers().list()).toEqual([]);
  });
});

describe('timer durability', () => {
  it('should survive a restart and fire an overdue timer once for the missed occurrences', async () => {
    const agentId = agent();
    const timer = timers().create({ agentId, cron: '*/5 * * * *', timezone: 'UTC', message: 'm' });
    // Down for an hour: twelve occurrences missed, one entry at start.
    t.clock.advance(60 * 60_000 + 1000);
    t = await restartServices(t);
    const { clock } = t;
    expect(entries(agentId)).toHaveLength(1);
    const after = timers().get(timer.scheduleId);
    expect(after.fireCount).toBe(1);
    expect(Date.parse(after.nextFireAt!)).toBeGreaterThan(clock.now());
    expect(Date.parse(after.nextFireAt!) - clock.now()).toBeLessThanOrEqual(5 * 60_000);
  });
});

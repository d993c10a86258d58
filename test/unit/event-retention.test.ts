import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Broadcaster } from '../../src/events/broadcaster.js';
import { EventLog } from '../../src/events/event-log.js';
import { EventRetention, type RetentionOptions } from '../../src/events/retention.js';
import { databasePath } from '../../src/services.js';
import { testServices, type TestServices } from '../helpers/services.js';

const DAY = 86_400_000;

let t: TestServices;
let batches: number[];
let retention: EventRetention | null;
beforeEach(() => {
  t = testServices({ start: false });
  t.s.store.tx(() => t.s.agents.create('a', {})); // event 1: agent_created
  batches = [];
  retention = null;
});
afterEach(async () => {
  await retention?.stop();
  await t.close();
});

function pruner(opts: Partial<RetentionOptions> = {}): EventRetention {
  retention = new EventRetention(
    { store: t.s.store, events: t.s.events, clock: t.clock, onPruned: (n) => batches.push(n) },
    { retainDays: 0, maxEvents: 0, ...opts },
  );
  return retention;
}

function fill(n: number, agent = 'a', payload: Record<string, unknown> = {}) {
  t.s.store.tx(() => {
    for (let i = 0; i < n; i++) t.s.events.append(agent, 'tool_call', { i, ...payload });
  });
}

const retained = (agent = 'a') =>
  t.s.events.page(agent, { limit: 1000, order: 'asc', max_level: 'debug' }).events.map((e) => e.event_seq);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('event retention', () => {
  it('the age rule deletes the events older than retain_days and keeps the rest', async () => {
    fill(5); // 2..6 at day 0
    t.clock.advance(20 * DAY);
    fill(5); // 7..11 at day 20
    t.clock.advance(10 * DAY); // day 30: nothing is older than 30 days yet
    const r = pruner({ retainDays: 30 });
    await r.trigger();
    expect(retained()).toEqual(range(1, 11));
    t.clock.advance(5 * DAY); // day 35: day 0 is past the cut-off, day 20 is not
    await r.trigger();
    expect(retained()).toEqual(range(7, 11));
    expect(sum(batches)).toBe(6);
    expect(t.s.events.oldestRetained('a')).toBe(7);
    expect(t.s.events.head('a')).toBe(11);
  });

  it('the count rule keeps the newest retain_max_events events of each agent', async () => {
    fill(99); // head 100
    t.s.store.tx(() => t.s.agents.create('b', {}));
    fill(4, 'b'); // head 5: within the limit
    await pruner({ maxEvents: 10 }).trigger();
    expect(retained()).toEqual(range(91, 100));
    expect(retained('b')).toEqual(range(1, 5));
    expect(sum(batches)).toBe(90);
  });

  it('0 for both rules prunes nothing', async () => {
    fill(50);
    t.clock.advance(3650 * DAY);
    await pruner().trigger();
    expect(retained()).toEqual(range(1, 51));
    expect(batches).toEqual([]);
  });

  it('keeps the head when every event is pruned: event_seq continues after it and the window is empty', async () => {
    fill(9); // head 10
    t.clock.advance(2 * DAY);
    await pruner({ retainDays: 1 }).trigger();
    expect(retained()).toEqual([]);
    expect(t.s.events.head('a')).toBe(10);
    expect(t.s.events.oldestRetained('a')).toBe(11);
    const kept = t.s.store.db.prepare('SELECT last_seq FROM event_log_heads WHERE agent_id = ?').pluck().get('a');
    expect(kept).toBe(10);
    // A fresh EventLog (a restart) reads the head back from event_log_heads.
    const reopened = new EventLog({ store: t.s.store, clock: t.clock, ids: t.s.ids, broadcaster: new Broadcaster() });
    expect(reopened.head('a')).toBe(10);
    await t.s.store.write(() => reopened.append('a', 'tool_call', {}));
    expect(retained()).toEqual([11]);
    const page = reopened.page('a', { limit: 10, order: 'desc', max_level: 'debug' });
    expect(page).toMatchObject({ oldest_seq: 11, newest_seq: 11, cursor_seq: 11, has_older: false, has_newer: false });
  });

  it('deletes in batches of at most batchSize rows, letting the event loop turn between them', async () => {
    fill(99); // head 100
    let ticks = 0;
    let ticking = true;
    const tick = () => {
      ticks++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const seenAt: number[] = [];
    const r = new EventRetention(
      { store: t.s.store, events: t.s.events, clock: t.clock, onPruned: (n) => (batches.push(n), seenAt.push(ticks)) },
      { retainDays: 0, maxEvents: 10, batchSize: 7 },
    );
    retention = r;
    await r.trigger();
    ticking = false;
    expect(sum(batches)).toBe(90);
    expect(Math.max(...batches)).toBeLessThanOrEqual(7);
    expect(batches.length).toBe(Math.ceil(90 / 7));
    // Other callbacks ran between every two batches.
    for (let i = 1; i < seenAt.length; i++) expect(seenAt[i]!).toBeGreaterThan(seenAt[i - 1]!);
    expect(retained()).toEqual(range(91, 100));
  });

  it('an old event waits behind a newer one: only a prefix of the log is deleted, so the window has no holes', async () => {
    t.clock.advance(10 * DAY);
    fill(2); // 2..3 at day 10
    t.clock.set(t.clock.now() - 10 * DAY); // the clock stepped back
    fill(2); // 4..5 at day 0
    t.clock.advance(12 * DAY); // day 12: 1 and 4..5 are older than 5 days, 2..3 are not
    await pruner({ retainDays: 5 }).trigger();
    expect(retained()).toEqual(range(2, 5));
  });

  it('an append a batch past the cap starts a pass (no pass before)', async () => {
    const r = pruner({ maxEvents: 10, batchSize: 5, intervalMs: 3_600_000 });
    t.s.events.onAppended((event) => r.noteAppend(event));
    r.start();
    await r.idle();
    fill(13); // 14 events: 10 + 4
    await r.idle();
    expect(batches).toEqual([]);
    await t.s.store.write(() => t.s.events.append('a', 'tool_call', {})); // 15 = 10 + 5
    await r.idle();
    expect(sum(batches)).toBe(5);
    expect(retained()).toEqual(range(6, 15));
  });

  it('stop() ends a running pass after its current batch', async () => {
    fill(199);
    const r = pruner({ maxEvents: 10, batchSize: 10 });
    const pass = r.trigger();
    while (batches.length === 0) await new Promise((resolve) => setImmediate(resolve));
    await r.stop();
    await pass;
    const after = batches.length;
    expect(after).toBeLessThan(19);
    expect(retained()[0]).toBe(after * 10 + 1);
    await r.trigger();
    expect(batches.length).toBe(after);
  });
});

describe('space', () => {
  it('gives the pruned pages back: the database file shrinks', async () => {
    const file = databasePath(t.home);
    const pragma = (name: string) => t.s.store.db.pragma(name, { simple: true }) as number;
    expect(pragma('auto_vacuum')).toBe(2); // incremental
    // Two strings under the long-text threshold stay in the event rows (a long text would be
    // stored once in `texts`, however many events repeat it).
    const half = 'x'.repeat(1000);
    for (let i = 0; i < 5; i++) fill(1000, 'a', { text: half, more: half });
    t.s.store.checkpoint();
    const before = fs.statSync(file).size;
    expect(before).toBeGreaterThan(10_000_000);
    await pruner({ maxEvents: 100, vacuumStepPages: 64 }).trigger();
    expect(sum(batches)).toBe(4901);
    expect(Math.max(...batches)).toBeLessThanOrEqual(500);
    expect(pragma('freelist_count')).toBe(0);
    t.s.store.checkpoint();
    const after = fs.statSync(file).size;
    expect(after).toBeLessThan(before / 10);
    expect(path.basename(file)).toBe('svc.db');
  });
});

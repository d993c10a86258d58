import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testServices, type TestServices } from '../helpers/services.js';

let t: TestServices;
beforeEach(() => {
  t = testServices({ start: false });
  t.s.store.tx(() => t.s.agents.create('a', {}));
});
afterEach(() => t.close());

/** Append n events alternating info (message_enqueued-like) and verbose kinds. */
function fill(n: number, agent = 'a') {
  t.s.store.tx(() => {
    for (let i = 0; i < n; i++) t.s.events.append(agent, i % 2 === 0 ? 'work_item_created' : 'tool_call', { i });
  });
}
const seqs = (p: { events: Array<{ event_seq: number }> }) => p.events.map((e) => e.event_seq);
const page = (q: Partial<Parameters<TestServices['s']['events']['page']>[1]>) =>
  t.s.events.page('a', { limit: 128, order: 'desc', max_level: 'debug', ...q });

describe('event log', () => {
  it('assigns event_seq from 1, by exactly one, per agent', () => {
    // agent_created is event 1 for agent a.
    fill(3);
    t.s.store.tx(() => t.s.agents.create('b', {}));
    expect(t.s.events.head('a')).toBe(4);
    expect(t.s.events.head('b')).toBe(1);
    expect(seqs(page({ order: 'asc' }))).toEqual([1, 2, 3, 4]);
  });

  it('a rolled-back append leaves no gap and publishes nothing', () => {
    const seen: number[] = [];
    t.s.broadcaster.subscribe('a', { deliver: (_f, e) => seen.push(e.event_seq) });
    expect(() =>
      t.s.store.tx(() => {
        t.s.events.append('a', 'tool_call', {});
        throw new Error('abort');
      }),
    ).toThrow('abort');
    fill(1);
    expect(seen).toEqual([2]);
    expect(t.s.events.head('a')).toBe(2);
  });

  it('pages newest first by default, oldest first with order=asc, with exclusive cursors', () => {
    fill(9); // seqs 1..10
    expect(seqs(page({ limit: 3 }))).toEqual([10, 9, 8]);
    expect(seqs(page({ limit: 3, order: 'asc' }))).toEqual([1, 2, 3]);
    expect(seqs(page({ limit: 3, before_seq: 8 }))).toEqual([7, 6, 5]);
    expect(seqs(page({ limit: 3, after_seq: 8 }))).toEqual([10, 9]);
    expect(seqs(page({ limit: 3, order: 'asc', after_seq: 2 }))).toEqual([3, 4, 5]);
    expect(seqs(page({ after_seq: 3, before_seq: 7, order: 'asc' }))).toEqual([4, 5, 6]);
  });

  it('reports has_older / has_newer, oldest/newest and cursor_seq', () => {
    fill(9);
    const p = page({ limit: 3, before_seq: 8 });
    expect(p).toMatchObject({ oldest_seq: 5, newest_seq: 7, cursor_seq: 10, has_older: true, has_newer: true, limit: 3, order: 'desc' });
    const first = page({ limit: 3, order: 'asc' });
    expect([first.has_older, first.has_newer]).toEqual([false, true]);
    const last = page({ limit: 3 });
    expect([last.has_older, last.has_newer]).toEqual([true, false]);
  });

  it('an unknown cursor yields an empty page, not an error', () => {
    fill(2);
    const p = page({ after_seq: 500 });
    expect(p.events).toEqual([]);
    expect(p).toMatchObject({ oldest_seq: null, newest_seq: null, has_newer: false, has_older: true, cursor_seq: 3 });
  });

  it('filters by level: info only, info+verbose, everything', () => {
    fill(4); // 1 agent_created(info), 2 work_item_created(info), 3 tool_call(verbose), 4 info, 5 verbose
    t.s.store.tx(() => t.s.events.append('a', 'model_round', {})); // 6 debug
    expect(seqs(page({ max_level: 'info', order: 'asc' }))).toEqual([1, 2, 4]);
    expect(seqs(page({ max_level: 'verbose', order: 'asc' }))).toEqual([1, 2, 3, 4, 5]);
    expect(seqs(page({ max_level: 'debug', order: 'asc' }))).toEqual([1, 2, 3, 4, 5, 6]);
    const info = page({ max_level: 'info', limit: 1, before_seq: 4 });
    expect(seqs(info)).toEqual([2]);
    expect([info.has_older, info.has_newer]).toEqual([true, true]);
  });

  it('carries provenance from the payload into the envelope', () => {
    const e = t.s.store.tx(() => t.s.events.append('a', 'message_enqueued', { provenance: { trust: 'trusted_system' } }));
    expect(e.provenance).toEqual({ trust: 'trusted_system' });
    expect(e.id).toMatch(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/);
  });
});

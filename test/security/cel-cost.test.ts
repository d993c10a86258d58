/**
 * A subscription's CEL filter runs inside the append's transaction, on the event loop: one append
 * of a 250-item list under `all` nested three deep held the daemon for 11 seconds. Comprehensions
 * nested deeper than two, and expressions over the limit on an empty event, are refused at
 * creation (400 filter_too_costly); at run time an evaluation stops at its cost limit, the event
 * is not matched and the subscription's filterError says so, while the daemon keeps answering.
 * Ordinary filters (a scan of a 10,000-item list among them) still match. Against the real daemon
 * (needs `npm run build` first), and the filter itself for a filter stored before the limits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileFilter, CostBudget } from '../../src/inbox/subscriptions/filters.js';
import type { StoredEvent } from '../../src/inbox/streams/types.js';
import { daemonPool, request, type RunningDaemon } from '../helpers/daemon.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const pool = daemonPool();
let d: RunningDaemon;
let sourceId: string;
let agentId: string;

beforeAll(async () => {
  d = await pool.start();
  const host = await sock('POST', '/hosts', { hostType: 'local_event', hostKey: 'cel' });
  sourceId = (await sock('POST', '/sources', { hostId: host.json.hostId, streamKind: 'k', streamKey: 'k' })).json.sourceId;
  agentId = (await sock('POST', '/agents', { name: 'filters' })).json.agentId;
}, 30_000);
afterAll(() => pool.cleanup());

function sock(method: string, url: string, body?: unknown) {
  return request({ socketPath: d.socket }, method, url, body === undefined ? {} : { body });
}
const list = (n: number) => Array.from({ length: n }, (_, i) => i);
const nestedAll = (depth: number) => {
  let e = `x${depth - 1} >= 0`;
  for (let i = depth - 1; i >= 0; i--) e = `event.data.items.all(x${i}, ${e})`;
  return e;
};
async function subscribe(expr: string) {
  return sock('POST', '/subscriptions', { agentId, sourceId, filter: { expr } });
}

/** The slowest /healthz answer while `work` runs. */
async function slowestHealthz<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; slowest: number }> {
  let slowest = 0;
  let done = false;
  const probe = (async () => {
    while (!done) {
      const t = performance.now();
      await request(d, 'GET', '/healthz');
      slowest = Math.max(slowest, performance.now() - t);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const t = performance.now();
  const result = await work();
  const ms = performance.now() - t;
  done = true;
  await probe;
  return { result, ms, slowest };
}

describe('refused at creation when the cost is known', () => {
  it('comprehensions nested three deep: 400 filter_too_costly, no subscription', async () => {
    const before = (await sock('GET', '/subscriptions')).json.subscriptions.length;
    const res = await subscribe(nestedAll(3));
    expect([res.status, res.json.code], res.text).toEqual([400, 'filter_too_costly']);
    expect(res.json.error).toContain('nests 3 comprehensions');
    const mapped = await subscribe('event.data.items.exists(a, event.data.items.map(b, b).filter(c, event.data.items.exists(d, d == c)).size() > 0)');
    expect([mapped.status, mapped.json.code]).toEqual([400, 'filter_too_costly']);
    expect((await sock('GET', '/subscriptions')).json.subscriptions).toHaveLength(before);
  });

  it('over the limit on an empty event (literal lists): 400 filter_too_costly', async () => {
    const literal = `[${list(200).join(',')}]`;
    const res = await subscribe(`${literal}.all(a, ${literal}.all(b, a + b >= 0))`);
    expect([res.status, res.json.code], res.text).toEqual([400, 'filter_too_costly']);
  });
});

describe('stopped at run time', () => {
  it('a 4,000-item list under two nested all: the append answers at once, /healthz too; not matched, filterError says so', async () => {
    const sub = await subscribe(nestedAll(2));
    expect(sub.status, sub.text).toBe(201);
    const subscriptionId = sub.json.subscriptions[0].subscriptionId;
    const { result, ms, slowest } = await slowestHealthz(() => sock('POST', `/sources/${sourceId}/events`, { events: [{ type: 'big', data: { items: list(4000) } }] }));
    expect(result.status, result.text).toBe(200);
    // Loose bounds: without the limit this append takes many seconds (16 million loop steps).
    expect(ms).toBeLessThan(2000);
    expect(slowest).toBeLessThan(2000);
    const view: Json = (await sock('GET', `/subscriptions/${subscriptionId}`)).json;
    expect(view.filterError).toMatchObject({ code: 'filter_too_costly', offset: result.json.firstOffset, events: 1, message: expect.stringContaining('cost limit') });
    expect((await sock('GET', `/agents/${agentId}/inbox/items`)).json.entries).toHaveLength(0);
    // The same filter on a small list still matches; the error stays as it was.
    const small = await sock('POST', `/sources/${sourceId}/events`, { events: [{ type: 'small', data: { items: list(20) } }] });
    expect((await sock('GET', `/agents/${agentId}/inbox/items`)).json.entries.map((e: Json) => e.event.offset)).toEqual([small.json.firstOffset]);
    expect((await sock('GET', `/subscriptions/${subscriptionId}`)).json.filterError).toMatchObject({ events: 1 });
    await sock('DELETE', `/subscriptions/${subscriptionId}`);
  });

  const event = (items: number[], offset = 1): StoredEvent => ({ sourceId: 's', offset, id: `e${offset}`, type: 't', subject: null, time: '', data: { items }, metadata: {}, appendedAt: '', pruned: false });
  /** Test events in one pass, as the matcher does: each admitted by its JSON length first. */
  function pass(expr: string, events: StoredEvent[]) {
    const filter = compileFilter({ expr });
    const budget = new CostBudget();
    const matched = events.filter((e) => {
      budget.admit(JSON.stringify(e).length);
      return filter.test(e, budget);
    });
    return { matched: matched.length, overruns: budget.overruns };
  }

  it('a filter stored before the limits (three deep) meets the run-time limit on the 250-item case', () => {
    const filter = compileFilter({ expr: nestedAll(3) }, undefined, { stored: true });
    const budget = new CostBudget();
    budget.admit(JSON.stringify(event(list(250))).length);
    const t = performance.now();
    expect(filter.test(event(list(250)), budget)).toBe(false);
    expect(performance.now() - t).toBeLessThan(2000);
    expect([budget.overruns, budget.lastOverrun]).toEqual([1, 1]);
  });

  it('what is counted, not timed: quadratic work on 150 items is over, linear work on 20,000 items is not', () => {
    expect(pass(nestedAll(2), [event(list(40)), ...Array.from({ length: 30 }, (_, i) => event(list(150), i + 2))])).toEqual({ matched: 1, overruns: 30 });
    expect(pass('event.data.items.exists(x, x == 19999)', Array.from({ length: 5 }, (_, i) => event(list(20_000), i + 1)))).toEqual({ matched: 5, overruns: 0 });
    // map's result is a chain of concatenations, quadratic to build and to read: charged so.
    expect(pass('event.data.items.map(x, x).size() > 0', [event(list(50)), event(list(5000), 2)])).toEqual({ matched: 1, overruns: 1 });
  });
});

describe('ordinary filters still work', () => {
  it('comparisons, a nested exists over a short list, a scan of a 10,000-item list', async () => {
    const agent = (await sock('POST', '/agents', { name: 'ordinary' })).json.agentId;
    const exprs = [
      'event.type == "t" && event.data.n > 3',
      'event.data.labels.exists(l, l in ["bug", "p1"]) && event.data.items.exists(a, event.data.items.exists(b, a + b == 37))',
      'event.data.items.exists(x, x == 9999) || event.data.items.size() == 40',
    ];
    const ids: string[] = [];
    for (const expr of exprs) {
      const res = await request({ socketPath: d.socket }, 'POST', '/subscriptions', { body: { agentId: agent, sourceId, filter: { expr } } });
      expect(res.status, res.text).toBe(201);
      ids.push(res.json.subscriptions[0].subscriptionId);
    }
    const appended = await sock('POST', `/sources/${sourceId}/events`, {
      events: [
        { type: 't', data: { n: 5, labels: ['bug'], items: list(40) } },
        { type: 't', data: { n: 1, labels: ['docs'], items: list(10_000) } },
      ],
    });
    expect(appended.status, appended.text).toBe(200);
    const entries: Json[] = (await sock('GET', `/agents/${agent}/inbox/items`)).json.entries;
    const first = appended.json.firstOffset;
    // One item per event for the agent, listing every subscription whose filter matched it.
    expect(entries.map((e) => [e.matchedSubscriptionIds, e.event.offset])).toEqual([
      [[...ids].sort(), first],
      [[ids[2]], first + 1],
    ]);
    for (const id of ids) expect((await sock('GET', `/subscriptions/${id}`)).json.filterError).toBeNull();
  });
});

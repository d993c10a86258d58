import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { compileFilter, type FilterSpec } from '../../src/inbox/subscriptions/filters.js';
import type { EventInput } from '../../src/inbox/streams/streams.js';
import type { StoredEvent } from '../../src/inbox/streams/types.js';
import type { CreateSubscriptionInput } from '../../src/inbox/subscriptions/subscriptions.js';
import { waitFor } from '../helpers/daemon.js';
import { restartServices } from '../helpers/inbox-delivery.js';
import { earliestResetAnswer } from '../helpers/inbox-reset.js';
import { testServices, type TestServices } from '../helpers/services.js';

let open: TestServices[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.close();
});

async function setup(t: TestServices = testServices()) {
  open.push(t);
  const { inbox } = t.s;
  const { host } = inbox.hosts.create({ hostType: 'local_event', hostKey: 'unit' });
  const { source } = await inbox.sources.create({ hostId: host.hostId, streamKind: 'events', streamKey: 'a' });
  const agent = inbox.agents.create({ name: 'a' });
  const sourceId = source.sourceId;
  return {
    t,
    inbox,
    hostId: host.hostId,
    sourceId,
    agentId: agent.agentId,
    append: (...events: EventInput[]) => inbox.streams.append(sourceId, events),
    subscribe: (extra: Partial<CreateSubscriptionInput> = {}) => inbox.subscriptions.create({ agentId: agent.agentId, sourceId, ...extra })[0]!,
    unacked: () => inbox.entries.unacked(agent.agentId, { limit: 1000 }),
  };
}

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
  throw new Error('expected an AppError');
}

const event = (over: Partial<StoredEvent> = {}): StoredEvent => ({
  sourceId: 'src_x',
  offset: 1,
  id: 'e1',
  type: 'issue.opened',
  subject: 'repo/1',
  time: '2030-01-01T00:00:00.000Z',
  data: { n: 5, labels: ['bug', 'p1'], user: { login: 'ann' } },
  metadata: { lifecycle: 'open' },
  appendedAt: '2030-01-01T00:00:00.000Z',
  pruned: false,
  ...over,
});

describe('subscription filters', () => {
  const cases: Array<[string, FilterSpec, boolean]> = [
    ['empty filter matches everything', {}, true],
    ['type equals', { match: { type: 'issue.opened' } }, true],
    ['type differs', { match: { type: 'issue.closed' } }, false],
    ['any-of array', { match: { type: ['issue.closed', 'issue.opened'] } }, true],
    ['any-of array without the value', { match: { type: ['a', 'b'] } }, false],
    ['nested dot path into data', { match: { 'data.user.login': 'ann' } }, true],
    ['number in data', { match: { 'data.n': 5 } }, true],
    ['array-valued field contains the value', { match: { 'data.labels': 'p1' } }, true],
    ['array-valued field against any-of', { match: { 'data.labels': ['x', 'bug'] } }, true],
    ['missing path never matches, not even null', { match: { 'data.missing': null } }, false],
    ['metadata path', { match: { 'metadata.lifecycle': 'open' } }, true],
    ['all match keys must hold', { match: { type: 'issue.opened', subject: 'other' } }, false],
    ['CEL over event', { expr: 'event.type == "issue.opened" && event.data.n > 3' }, true],
    ['CEL false', { expr: 'event.data.n > 10' }, false],
    ['CEL list macro', { expr: 'event.data.labels.exists(l, l == "bug")' }, true],
    ['CEL runtime error (missing field) is no match', { expr: 'event.data.nope == 1' }, false],
    ['match and expr together', { match: { type: 'issue.opened' }, expr: 'event.subject.startsWith("repo/")' }, true],
    ['match and expr, expr false', { match: { type: 'issue.opened' }, expr: 'event.subject == "x"' }, false],
    // AgentInbox's blocks: metadata over event.metadata, payload over event.data.
    ['metadata block equals', { metadata: { lifecycle: 'open' } }, true],
    ['metadata block differs', { metadata: { lifecycle: 'terminal' } }, false],
    ['metadata block any-of', { metadata: { lifecycle: ['terminal', 'open'] } }, true],
    ['payload block dot path', { payload: { 'user.login': 'ann' } }, true],
    ['payload block nested object', { payload: { user: { login: 'ann' } } }, true],
    ['payload block nested object differs', { payload: { user: { login: 'bob' } } }, false],
    ['payload block scalar in an array', { payload: { labels: 'bug' } }, true],
    ['payload block array: every wanted value in the actual array', { payload: { labels: ['p1', 'bug'] } }, true],
    ['payload block array: one wanted value missing', { payload: { labels: ['p1', 'p2'] } }, false],
    ['payload block missing path never matches, not even null', { payload: { missing: null } }, false],
    ['payload block object against a scalar', { payload: { n: { x: 1 } } }, false],
    ['payload block reads own fields only', { payload: { 'user.__proto__': {} } }, false],
    ['metadata, payload, match and expr all hold', { metadata: { lifecycle: 'open' }, payload: { n: 5 }, match: { type: 'issue.opened' }, expr: 'event.data.n == 5' }, true],
    ['one block fails', { metadata: { lifecycle: 'open' }, payload: { n: 6 } }, false],
  ];
  it.each(cases)('%s', (_name, spec, expected) => {
    expect(compileFilter(spec).test(event())).toBe(expected);
  });

  it('a pruned or data-less event evaluates without throwing', () => {
    const f = compileFilter({ expr: 'event.data.n > 3' });
    expect(f.test(event({ data: null, metadata: {}, pruned: true }))).toBe(false);
  });

  const invalid: Array<[string, unknown]> = [
    ['CEL syntax error', { expr: 'event.type ==' }],
    ['CEL unknown function', { expr: 'nosuch(event)' }],
    ['CEL unknown variable', { expr: 'other == 1' }],
    ['CEL non-boolean result', { expr: 'event.type' }],
    ['empty CEL', { expr: '  ' }],
    ['unknown match root', { match: { payload: 1 } }],
    ['field under a scalar root', { match: { 'type.x': 1 } }],
    ['object match value', { match: { type: { a: 1 } } }],
    ['unknown filter key', { where: 'x' }],
    ['match not an object', { match: 'type' }],
    ['metadata block not an object', { metadata: ['x'] }],
    ['payload block with an empty path segment', { payload: { 'user..login': 'ann' } }],
  ];
  it.each(invalid)('rejects %s with invalid_filter', (_name, spec) => {
    expect(codeOf(() => compileFilter(spec as FilterSpec))).toBe('invalid_filter');
  });
});

describe('matching pushed on append', () => {
  it('creates the entry inside the append: it exists as soon as append resolves', async () => {
    const { append, subscribe, unacked } = await setup();
    subscribe();
    await append({ type: 'a', data: { x: 1 } });
    const entries = unacked();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ kind: 'item', itemKind: 'event', offset: 1, eventVariant: 'a', rawPayload: { x: 1 }, event: { type: 'a', data: { x: 1 } } });
  });

  it('only matching events become entries, and the consumer offset still advances past the rest', async () => {
    const { inbox, append, subscribe, unacked } = await setup();
    const sub = subscribe({ filter: { match: { type: 'keep' } } });
    await append({ type: 'keep' }, { type: 'drop' }, { type: 'keep' });
    expect(unacked().map((e) => e.offset)).toEqual([1, 3]);
    expect(inbox.subscriptions.lag(sub.subscriptionId)).toMatchObject({ consumedOffset: 3, highWatermarkOffset: 3, lag: 0 });
  });

  it('deduplicated appends create no entries', async () => {
    const { append, subscribe, unacked } = await setup();
    subscribe();
    await append({ id: 'same', type: 'a' });
    await append({ id: 'same', type: 'a' });
    expect(unacked()).toHaveLength(1);
  });

  it('announces new entries after commit, once per transaction: one item per event per agent, listing the subscriptions that matched', async () => {
    const { inbox, append, subscribe } = await setup();
    const all = subscribe();
    const onlyB = subscribe({ filter: { match: { type: 'b' } } });
    const heard: string[][] = [];
    inbox.entries.onCreated((entries) => heard.push(entries.map((e) => `${e.itemKind}:${e.offset}:${e.matchedSubscriptionIds!.length}`)));
    await append({ type: 'a' }, { type: 'b' });
    expect(heard).toEqual([['event:1:1', 'event:2:2']]);
    const [, b] = inbox.entries.unacked(all.agentId, { limit: 10 });
    expect(b!.matchedSubscriptionIds).toEqual([all.subscriptionId, onlyB.subscriptionId].sort());
    expect(b!.metadata).toMatchObject({ subscriptionId: b!.subscriptionId, agentId: all.agentId, matchReason: 'filter shortcuts matched' });
  });

  it('a subscription that matches an existing item later lists itself on it instead of making a second one', async () => {
    const { append, subscribe, unacked } = await setup();
    const first = subscribe();
    await append({ type: 'a' });
    const later = subscribe({ startPolicy: 'earliest', filter: { expr: "event.type == 'a'" } });
    expect(unacked()).toHaveLength(1);
    expect(unacked()[0]!.matchedSubscriptionIds).toEqual([first.subscriptionId, later.subscriptionId].sort());
    expect(unacked()[0]!.subscriptionId).toBe(first.subscriptionId);
  });
});

describe('start policies', () => {
  it('latest skips existing events; earliest materialises them at creation', async () => {
    const { inbox, append, subscribe, agentId } = await setup();
    await append({ type: 'a' }, { type: 'b' });
    const latest = subscribe();
    expect(inbox.subscriptions.lag(latest.subscriptionId)).toMatchObject({ consumedOffset: 2, lag: 0 });
    expect(inbox.entries.unacked(agentId, { limit: 10 })).toHaveLength(0);
    const earliest = subscribe({ startPolicy: 'earliest' });
    expect(earliest.consumedOffset).toBe(2);
    expect(inbox.entries.unacked(agentId, { limit: 10 }).map((e) => e.offset)).toEqual([1, 2]);
  });

  it('at_offset and at_time start where asked', async () => {
    const { t, inbox, append, subscribe, agentId } = await setup();
    await append({ type: 'a', time: '2030-01-01T00:00:00Z' }, { type: 'b', time: '2030-01-02T00:00:00Z' }, { type: 'c', time: '2030-01-03T00:00:00Z' });
    subscribe({ startPolicy: 'at_offset', startOffset: 3 });
    expect(inbox.entries.unacked(agentId, { limit: 10 }).map((e) => e.offset)).toEqual([3]);
    const other = inbox.agents.create({});
    inbox.subscriptions.create({ agentId: other.agentId, sourceId: subscribe().sourceId, startPolicy: 'at_time', startTime: '2030-01-01T12:00:00+00:00' });
    expect(inbox.entries.unacked(other.agentId, { limit: 10 }).map((e) => e.event?.type)).toEqual(['b', 'c']);
    expect(t.s.inbox.subscriptions.list({ agentId: other.agentId })[0]).toMatchObject({ startPolicy: 'at_time', consumedOffset: 3 });
  });

  it('at_offset needs startOffset, at_time needs startTime (400 invalid_request)', async () => {
    const { subscribe } = await setup();
    expect(codeOf(() => subscribe({ startPolicy: 'at_offset' }))).toBe('invalid_request');
    expect(codeOf(() => subscribe({ startPolicy: 'at_time' }))).toBe('invalid_request');
  });

  it('a start below the retained range is 409 history_unavailable with the spec fields', async () => {
    const { t, inbox, append, subscribe, sourceId } = await setup();
    subscribe(); // compaction skips streams without consumers
    await append({ type: 'a' }, { type: 'b' }, { type: 'c' });
    t.clock.advance(3_600_000);
    await inbox.compaction.apply(sourceId, { apply: true, retentionMs: 1000 });
    const bounds = inbox.streams.bounds(sourceId);
    expect(bounds.retainedFromOffset).toBeGreaterThan(1);
    try {
      subscribe({ startPolicy: 'at_offset', startOffset: 1 });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).status).toBe(409);
      expect((err as AppError).extra).toEqual({ streamId: sourceId, requested: 1, retainedFromOffset: bounds.retainedFromOffset, highWatermarkOffset: 3 });
    }
    expect(inbox.subscriptions.list({ sourceId })).toHaveLength(1);
  });
});

describe('reset, poll and lag', () => {
  it("reset answers AgentInbox's {subscription, consumer, lag} and only moves the offset; the subscription consumes after the answer", async () => {
    const { t, inbox, append, subscribe, agentId, unacked } = await setup();
    const sub = subscribe();
    await append({ type: 'a' }, { type: 'b' }, { type: 'c' });
    expect(unacked()).toHaveLength(3);
    await inbox.entries.ack(agentId, { entryIds: [unacked()[0]!.entryId] });
    expect(inbox.entries.compact(agentId, 0)).toEqual({ deleted: 1, retentionMs: 0 });
    const heard: unknown[] = [];
    inbox.entries.onCreated((e) => heard.push(e));
    t.clock.advance(60_000);
    const res = inbox.subscriptions.reset(sub.subscriptionId, { startPolicy: 'earliest' });
    expect(res).toEqual(earliestResetAnswer(sub, 3, new Date(t.clock.now()).toISOString()));
    // Nothing was consumed inside the answer: the offset is moved and persisted, the catch-up comes after.
    expect(inbox.subscriptions.lag(sub.subscriptionId)).toMatchObject({ consumedOffset: 0, pendingEvents: 3 });
    expect(t.s.store.db.prepare('SELECT consumed_offset FROM inbox_subscriptions WHERE subscription_id = ?').pluck().get(sub.subscriptionId)).toBe(0);
    await waitFor(() => inbox.subscriptions.lag(sub.subscriptionId).consumedOffset === 3);
    // Nothing the agent had comes back, compacted or not.
    expect(unacked().map((e) => e.offset)).toEqual([2, 3]);
    expect(heard).toEqual([]);
    expect(inbox.subscriptions.get(sub.subscriptionId)).toMatchObject({ startPolicy: 'latest', startOffset: null });
    expect(inbox.subscriptions.consumer(sub.subscriptionId)).toMatchObject({ startPolicy: 'earliest', nextOffset: 4 });
    expect(inbox.subscriptions.consumers()).toEqual([inbox.subscriptions.consumer(sub.subscriptionId)]);
    // A new subscription of the same agent from the start makes nothing either; another agent gets every event.
    subscribe({ startPolicy: 'earliest' });
    expect(unacked().map((e) => e.offset)).toEqual([2, 3]);
    const other = inbox.agents.create({});
    inbox.subscriptions.create({ agentId: other.agentId, sourceId: sub.sourceId, startPolicy: 'earliest' });
    expect(inbox.entries.unacked(other.agentId, { limit: 10 }).map((e) => e.offset)).toEqual([1, 2, 3]);
  });

  it('events the agent never had become items after the answer; a poll right after the reset consumes them at once', async () => {
    const { inbox, append, subscribe, unacked } = await setup();
    const sub = subscribe({ startPolicy: 'at_offset', startOffset: 3 });
    await append({ type: 'a' }, { type: 'b' }, { type: 'c' });
    expect(unacked().map((e) => e.offset)).toEqual([3]);
    const heard: number[][] = [];
    inbox.entries.onCreated((e) => heard.push(e.map((x) => x.offset!)));
    expect(inbox.subscriptions.reset(sub.subscriptionId, { offset: 1 })).toMatchObject({
      subscription: { startPolicy: 'at_offset', startOffset: 3 },
      consumer: { startPolicy: 'at_offset', startOffset: 1, nextOffset: 1 },
      lag: { pendingEvents: 3, nextOffset: 1 },
    });
    expect(unacked().map((e) => e.offset)).toEqual([3]);
    await waitFor(() => heard.length > 0);
    expect(heard).toEqual([[1, 2]]);
    expect(unacked().map((e) => e.offset)).toEqual([3, 1, 2]);

    // A poll before the scheduled catch-up consumes at once and says what it read; the catch-up then finds nothing.
    const again = subscribe({ startPolicy: 'at_offset', startOffset: 4 });
    inbox.subscriptions.reset(again.subscriptionId, { startPolicy: 'earliest' });
    expect(inbox.subscriptions.poll(again.subscriptionId)).toMatchObject({ eventsRead: 3, matched: 0, inboxItemsCreated: 0, committedOffset: 3, note: 'subscription batch processed', pendingEvents: 0 });
    inbox.subscriptions.runCatchUps();
    expect(heard).toEqual([[1, 2]]);
  });

  it('an append while a reset has not caught up consumes the gap first, in order', async () => {
    const { inbox, append, subscribe, unacked } = await setup();
    const sub = subscribe({ startPolicy: 'at_offset', startOffset: 3 });
    await append({ type: 'a' }, { type: 'b' });
    inbox.subscriptions.reset(sub.subscriptionId, { startPolicy: 'earliest' });
    await append({ type: 'c' });
    expect(unacked().map((e) => e.offset)).toEqual([1, 2, 3]);
    inbox.subscriptions.runCatchUps();
    expect(unacked().map((e) => e.offset)).toEqual([1, 2, 3]);
  });

  it('a daemon stopped before the catch-up ran catches up at its next start; a failing catch-up is logged and retried by the next poll', async () => {
    const { inbox, append, subscribe, unacked, t } = await setup();
    const sub = subscribe({ startPolicy: 'at_offset', startOffset: 3 });
    await append({ type: 'a' }, { type: 'b' }, { type: 'c' });
    inbox.subscriptions.reset(sub.subscriptionId, { startPolicy: 'earliest' });
    inbox.subscriptions.stop(); // as a shutdown right after the answer: the scheduled catch-up is dropped
    expect(unacked().map((e) => e.offset)).toEqual([3]);
    open.splice(open.indexOf(t), 1);
    const restarted = await restartServices(t);
    open.push(restarted);
    const after = restarted.s.inbox;
    expect(after.subscriptions.lag(sub.subscriptionId)).toMatchObject({ consumedOffset: 3, pendingEvents: 0 });
    expect(after.entries.unacked(sub.agentId, { limit: 10 }).map((e) => e.offset)).toEqual([3, 1, 2]);
    expect(after.subscriptions.consumer(sub.subscriptionId)).toMatchObject({ startPolicy: 'earliest' });

    const failing = vi.spyOn(after.streams, 'read').mockImplementation(() => {
      throw new Error('read failed');
    });
    after.subscriptions.reset(sub.subscriptionId, { offset: 2 });
    expect(() => after.subscriptions.runCatchUps()).not.toThrow();
    expect(after.subscriptions.lag(sub.subscriptionId)).toMatchObject({ consumedOffset: 1, pendingEvents: 2 });
    failing.mockRestore();
    expect(after.subscriptions.poll(sub.subscriptionId)).toMatchObject({ eventsRead: 2, inboxItemsCreated: 0, pendingEvents: 0 });
  });

  it('reset to latest skips ahead; poll then finds nothing to do', async () => {
    const { inbox, append, subscribe } = await setup();
    const sub = subscribe({ startPolicy: 'at_offset', startOffset: 10 });
    await append({ type: 'a' }, { type: 'b' });
    expect(inbox.subscriptions.lag(sub.subscriptionId)).toMatchObject({ consumedOffset: 9, lag: 0 });
    expect(inbox.subscriptions.reset(sub.subscriptionId, { startPolicy: 'latest' })).toMatchObject({
      consumedOffset: 2,
      consumer: { startPolicy: 'latest', nextOffset: 3 },
      lag: { pendingEvents: 0, lag: 0 },
    });
    expect(inbox.subscriptions.poll(sub.subscriptionId)).toMatchObject({ materialized: 0, lag: 0 });
  });

  it('reset checks its start as creation does (400, 404, 409 history_unavailable) and moves nothing then', async () => {
    const { inbox, append, subscribe } = await setup();
    const sub = subscribe();
    await append({ type: 'a' });
    expect(codeOf(() => inbox.subscriptions.reset(sub.subscriptionId, { startPolicy: 'at_offset' }))).toBe('invalid_request');
    expect(codeOf(() => inbox.subscriptions.reset(sub.subscriptionId, { startPolicy: 'at_time' }))).toBe('invalid_request');
    expect(codeOf(() => inbox.subscriptions.reset('sub_nope', { startPolicy: 'earliest' }))).toBe('subscription_not_found');
    expect(inbox.subscriptions.consumer(sub.subscriptionId)).toMatchObject({ startPolicy: 'latest', nextOffset: 2 });
  });

  it('unknown subscriptions are 404 subscription_not_found', async () => {
    const { inbox } = await setup();
    expect(codeOf(() => inbox.subscriptions.lag('sub_nope'))).toBe('subscription_not_found');
    expect(codeOf(() => inbox.subscriptions.delete('sub_nope'))).toBe('subscription_not_found');
  });
});

describe('inbox entries and acks', () => {
  it('pages in entry order with a cursor and includeAcked', async () => {
    const { inbox, agentId } = await setup();
    for (let i = 0; i < 5; i++) inbox.entries.create(agentId, { kind: 'direct', message: `m${i}` });
    const p1 = inbox.entries.page(agentId, { limit: 2 });
    expect(p1.entries.map((e) => e.message)).toEqual(['m0', 'm1']);
    const p2 = inbox.entries.page(agentId, { limit: 2, after: p1.nextCursor! });
    expect(p2.entries.map((e) => e.message)).toEqual(['m2', 'm3']);
    const p3 = inbox.entries.page(agentId, { limit: 2, after: p2.nextCursor! });
    expect(p3).toMatchObject({ nextCursor: null });
    expect(p3.entries.map((e) => e.message)).toEqual(['m4']);
    await inbox.entries.ack(agentId, { throughEntryId: p1.entries[1]!.entryId });
    expect(inbox.entries.page(agentId, { limit: 10 }).entries.map((e) => e.message)).toEqual(['m2', 'm3', 'm4']);
    expect(inbox.entries.page(agentId, { limit: 10, includeAcked: true }).entries).toHaveLength(5);
  });

  it('the three ack forms count only entries newly acknowledged', async () => {
    const { inbox, agentId } = await setup();
    const e = Array.from({ length: 5 }, (_, i) => inbox.entries.create(agentId, { kind: 'direct', message: `m${i}` }));
    expect(await inbox.entries.ack(agentId, { entryIds: [e[3]!.entryId, e[3]!.entryId] })).toBe(1);
    expect(await inbox.entries.ack(agentId, { throughEntryId: e[3]!.entryId })).toBe(3);
    expect(await inbox.entries.ack(agentId, { throughEntryId: e[3]!.entryId })).toBe(0);
    expect(await inbox.entries.ack(agentId, { all: true })).toBe(1);
    expect(inbox.entries.summary(agentId)).toMatchObject({ unackedCount: 0, latestEntryId: e[4]!.entryId, deliveryPaused: false });
  });

  it('an unknown entry id acknowledges nothing (404 entry_not_found)', async () => {
    const { inbox, agentId } = await setup();
    const e = inbox.entries.create(agentId, { kind: 'direct', message: 'm' });
    await expect(inbox.entries.ack(agentId, { entryIds: [e.entryId, 'ent_01J00000000000000000000000'] })).rejects.toMatchObject({ code: 'entry_not_found' });
    expect(inbox.entries.summary(agentId).unackedCount).toBe(1);
    const other = inbox.agents.create({});
    await expect(inbox.entries.ack(other.agentId, { throughEntryId: e.entryId })).rejects.toMatchObject({ code: 'entry_not_found' });
  });

  it('compact removes items acknowledged more than the retention ago only; a compacted cursor still pages on', async () => {
    const { t, inbox, agentId } = await setup();
    const e = Array.from({ length: 3 }, (_, i) => inbox.entries.create(agentId, { kind: 'direct', message: `m${i}` }));
    await inbox.entries.ack(agentId, { entryIds: [e[1]!.entryId] });
    expect(inbox.entries.compact(agentId)).toEqual({ deleted: 0, retentionMs: 86_400_000 });
    t.clock.advance(86_400_000);
    expect(inbox.entries.compact(agentId)).toEqual({ deleted: 0, retentionMs: 86_400_000 });
    t.clock.advance(1);
    expect(inbox.entries.compact(agentId)).toEqual({ deleted: 1, retentionMs: 86_400_000 });
    expect(inbox.entries.page(agentId, { limit: 10, includeAcked: true }).entries.map((x) => x.message)).toEqual(['m0', 'm2']);
    expect(inbox.entries.page(agentId, { limit: 10, after: e[1]!.entryId }).entries.map((x) => x.message)).toEqual(['m2']);
  });
});

describe('deletion', () => {
  it('deleting a source removes its subscriptions; deleting an agent removes its subscriptions and entries', async () => {
    const { inbox, append, subscribe, sourceId, agentId } = await setup();
    const sub = subscribe();
    await append({ type: 'a' });
    expect(inbox.streams.consumers(sourceId)).toBe(1);
    inbox.sources.delete(sourceId);
    expect(codeOf(() => inbox.subscriptions.get(sub.subscriptionId))).toBe('subscription_not_found');
    expect(inbox.streams.consumers(sourceId)).toBe(0);
    expect(inbox.entries.summary(agentId).unackedCount).toBe(1);
    inbox.agents.delete(agentId);
    expect(codeOf(() => inbox.agents.get(agentId))).toBe('agent_not_found');
    expect(inbox.entries.unacked(agentId, { limit: 10 })).toHaveLength(0);
  });

  it('an agent deleted and made again under the same id starts with no memory of what the old one had', async () => {
    const { inbox, append, sourceId } = await setup();
    inbox.agents.ensure('reborn');
    inbox.subscriptions.create({ agentId: 'reborn', sourceId });
    await append({ type: 'a' });
    inbox.agents.delete('reborn');
    inbox.agents.ensure('reborn');
    inbox.subscriptions.create({ agentId: 'reborn', sourceId, startPolicy: 'earliest' });
    expect(inbox.entries.unacked('reborn', { limit: 10 }).map((e) => e.offset)).toEqual([1]);
  });

  it('an agent deletion takes its subscriptions out of matching', async () => {
    const { inbox, append, subscribe, agentId, sourceId } = await setup();
    subscribe();
    inbox.agents.delete(agentId);
    expect(inbox.subscriptions.list({ sourceId })).toHaveLength(0);
    await append({ type: 'a' });
    expect(inbox.streams.consumers(sourceId)).toBe(0);
  });

  it('a subscription for an unknown agent or source is a 404 and creates nothing', async () => {
    const { inbox, sourceId, agentId } = await setup();
    expect(codeOf(() => inbox.subscriptions.create({ agentId: 'agt_nope', sourceId }))).toBe('agent_not_found');
    expect(codeOf(() => inbox.subscriptions.create({ agentId, sourceId: 'src_nope' }))).toBe('source_not_found');
    expect(inbox.subscriptions.list()).toHaveLength(0);
  });
});

describe('host shortcut', () => {
  it('subscribes to every source of the host', async () => {
    const { inbox, hostId, agentId, sourceId } = await setup();
    const { source: second } = await inbox.sources.create({ hostId, streamKind: 'events', streamKey: 'b' });
    const subs = inbox.subscriptions.create({ agentId, shortcut: { name: 'host', args: { hostId } } });
    expect(subs.map((s) => s.sourceId).sort()).toEqual([sourceId, second.sourceId].sort());
    expect(codeOf(() => inbox.subscriptions.create({ agentId, shortcut: { name: 'host', args: { hostId: 'hst_nope' } } }))).toBe('host_not_found');
    expect(codeOf(() => inbox.subscriptions.create({ agentId }))).toBe('invalid_request');
  });
});

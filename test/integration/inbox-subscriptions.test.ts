/**
 * Inbox agents, subscriptions, entries, acks and watch (docs/inbox-api.md) against the real
 * daemon over its Unix socket: routes and errors, matching pushed on append, watch SSE with
 * Last-Event-ID, acks surviving SIGKILL, and the `svc inbox …` commands.
 */
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { inboxIdOf } from '../../src/inbox/entries/index.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SseParser, type SseFrame } from '../../src/cli/control/events.js';
import { daemonPool, request, runSvc, waitFor, type HttpResult, type RunningDaemon } from '../helpers/daemon.js';
import { earliestResetAnswer } from '../helpers/inbox-reset.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const pool = daemonPool();
let d: RunningDaemon;
const watchers: Watcher[] = [];

beforeAll(async () => {
  d = await pool.start();
}, 30_000);
afterEach(() => {
  for (const w of watchers.splice(0)) w.close();
});
afterAll(() => pool.cleanup());

const api = (method: string, path: string, body?: unknown, daemon = d) => request({ socketPath: daemon.socket }, method, path, body === undefined ? {} : { body });

function expectError(res: HttpResult, status: number, code: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.json).toMatchObject({ ok: false, code });
}

async function ok(res: Promise<HttpResult>, status = 200): Promise<Json> {
  const r = await res;
  expect(r.status, r.text).toBe(status);
  return r.json;
}

let seq = 0;
/** A fresh local_event source and inbox agent. */
async function fixture(daemon = d) {
  const key = `k${++seq}`;
  const host = await ok(api('POST', '/hosts', { hostType: 'local_event', hostKey: key }, daemon), 201);
  const source = await ok(api('POST', '/sources', { hostId: host.hostId, streamKind: 'events', streamKey: key }, daemon), 201);
  const agent = await ok(api('POST', '/agents', { name: key }, daemon), 201);
  return { hostId: host.hostId as string, sourceId: source.sourceId as string, agentId: agent.agentId as string };
}

const append = (sourceId: string, events: unknown[], daemon = d) => ok(api('POST', `/sources/${sourceId}/events`, { events }, daemon));
const items = (agentId: string, query = '', daemon = d) => ok(api('GET', `/agents/${agentId}/inbox/items${query}`, undefined, daemon));

class Watcher {
  frames: SseFrame[] = [];
  private req!: http.ClientRequest;
  private res!: http.IncomingMessage;
  status = 0;
  ended = false;

  static open(agentId: string, headers: Record<string, string> = {}, query = ''): Promise<Watcher> {
    const w = new Watcher();
    watchers.push(w);
    return new Promise((resolve, reject) => {
      w.req = http.get({ socketPath: d.socket, path: `/agents/${agentId}/inbox/watch${query}`, headers: { accept: 'text/event-stream', ...headers } }, (res) => {
        w.status = res.statusCode ?? 0;
        w.res = res;
        res.setEncoding('utf8');
        const parser = new SseParser((f) => w.frames.push(f));
        res.on('data', (c: string) => parser.push(c));
        res.on('close', () => (w.ended = true));
        resolve(w);
      });
      w.req.on('error', reject);
    });
  }

  entries(): Json[] {
    return this.frames.filter((f) => f.event === 'items').flatMap((f) => JSON.parse(f.data).entries);
  }

  /** Stop reading the socket (the daemon's writes back up), and read on. */
  pause(): void {
    this.res.pause();
  }

  resume(): void {
    this.res.resume();
  }

  close(): void {
    this.req.destroy();
  }
}

describe('inbox agents', () => {
  it('creates, lists, gets and deletes agents with camelCase fields', async () => {
    const created = await ok(api('POST', '/agents', { name: 'ann' }), 201);
    const at = created.createdAt;
    // svc's fields, and AgentInbox's Agent fields: offline while it has no active target.
    expect(created).toEqual({
      agentId: expect.stringMatching(/^agt_[0-9A-Z]{26}$/),
      name: 'ann',
      deliveryPaused: false,
      createdAt: expect.any(String),
      status: 'offline',
      offlineSince: at,
      runtimeKind: 'unknown',
      runtimeSessionId: null,
      updatedAt: at,
      lastSeenAt: at,
    });
    expect(await ok(api('POST', '/agents'), 201)).toMatchObject({ name: null });
    expect((await ok(api('GET', '/agents'))).agents).toContainEqual(created);
    // AgentInbox's details {agent, inbox, subscriptions, activationTargets, activationDispatchStates, itemCounts}, svc's fields beside.
    expect(await ok(api('GET', `/agents/${created.agentId}`))).toEqual({
      ...created,
      agent: created,
      inbox: {
        inboxId: inboxIdOf(created.agentId),
        ownerAgentId: created.agentId,
        aggregationEnabled: false,
        aggregationWindowMs: null,
        aggregationMaxItems: null,
        aggregationMaxThreadAgeMs: null,
        createdAt: at,
      },
      subscriptions: [],
      activationTargets: [],
      activationDispatchStates: [],
      itemCounts: { total: 0, unacked: 0, acked: 0 },
    });
    expect(await ok(api('DELETE', `/agents/${created.agentId}`))).toEqual({ agentId: created.agentId, deleted: true, removed: true });
    expectError(await api('GET', `/agents/${created.agentId}`), 404, 'agent_not_found');
    expectError(await api('DELETE', `/agents/${created.agentId}`), 404, 'agent_not_found');
    expectError(await api('POST', '/agents', { name: 'x', extra: 1 }), 400, 'invalid_request');
  });
});

describe('subscriptions', () => {
  it('POST answers {subscriptions: [...]}; GET, lag, list and DELETE work; errors use the contract codes', async () => {
    const { sourceId, agentId } = await fixture();
    const res = await ok(api('POST', '/subscriptions', { agentId, sourceId, filter: { match: { type: 'a' } } }), 201);
    expect(res.subscriptions).toHaveLength(1);
    const sub = res.subscriptions[0];
    expect(sub).toMatchObject({ subscriptionId: expect.stringMatching(/^sub_/), agentId, sourceId, cleanupPolicy: { mode: 'manual' }, startPolicy: 'latest' });
    const consumerId = `con_${sub.subscriptionId.slice(4)}`;
    const streamId = `str_${sourceId.slice(4)}`;
    // AgentInbox's details {subscription, source, inbox, activationTargets, consumer, lag}, svc's fields beside.
    expect(await ok(api('GET', `/subscriptions/${sub.subscriptionId}`))).toEqual({
      ...sub,
      subscription: sub,
      source: expect.objectContaining({ sourceId }),
      inbox: expect.objectContaining({ inboxId: inboxIdOf(agentId), ownerAgentId: agentId }),
      activationTargets: [],
      consumer: { consumerId, streamId, subscriptionId: sub.subscriptionId, consumerKey: `subscription:${sub.subscriptionId}`, nextOffset: 1, startPolicy: 'latest', startOffset: null, startTime: null, createdAt: sub.createdAt, updatedAt: sub.createdAt },
      lag: { subscriptionId: sub.subscriptionId, sourceId, consumedOffset: 0, retainedFromOffset: 1, highWatermarkOffset: null, lag: 0, consumerId, streamId, pendingEvents: 0, nextOffset: 1 },
    });
    expect((await ok(api('GET', `/subscriptions?agentId=${agentId}`))).subscriptions).toEqual([sub]);
    await append(sourceId, [{ type: 'a' }, { type: 'b' }]);
    expect(await ok(api('GET', `/subscriptions/${sub.subscriptionId}/lag`))).toMatchObject({ consumedOffset: 2, highWatermarkOffset: 2, lag: 0, pendingEvents: 0, nextOffset: 3 });
    expect(await ok(api('POST', `/subscriptions/${sub.subscriptionId}/reset`, { offset: 1 }))).toMatchObject({ consumer: { nextOffset: 1 }, lag: { pendingEvents: 2 } });
    await waitFor(async () => (await ok(api('GET', `/subscriptions/${sub.subscriptionId}/lag`))).consumedOffset === 2);
    // Matching is pushed on append and the reset's catch-up has run: a poll finds nothing left to read.
    expect(await ok(api('POST', `/subscriptions/${sub.subscriptionId}/poll`))).toMatchObject({
      materialized: 0,
      lag: 0,
      eventsRead: 0,
      matched: 0,
      inboxItemsCreated: 0,
      committedOffset: null,
      note: 'no new stream events',
    });
    expect(await ok(api('DELETE', `/subscriptions/${sub.subscriptionId}`))).toEqual({ subscriptionId: sub.subscriptionId, deleted: true, removed: true });
    expectError(await api('GET', `/subscriptions/${sub.subscriptionId}`), 404, 'subscription_not_found');

    expectError(await api('POST', '/subscriptions', { agentId, sourceId, filter: { expr: 'event.type ==' } }), 400, 'invalid_filter');
    expectError(await api('POST', '/subscriptions', { agentId, sourceId, filter: { expr: 'nosuch(event)' } }), 400, 'invalid_filter');
    expectError(await api('POST', '/subscriptions', { agentId, sourceId, bogus: 1 }), 400, 'invalid_request');
    expectError(await api('POST', '/subscriptions', { agentId }), 400, 'invalid_request');
    expectError(await api('POST', '/subscriptions', { agentId: 'agt_missing', sourceId }), 404, 'agent_not_found');
    expectError(await api('POST', '/subscriptions', { agentId, sourceId: 'src_missing' }), 404, 'source_not_found');
    expectError(await api('POST', '/subscriptions', { agentId, sourceId, cleanupPolicy: { mode: 'on_terminal' } }), 400, 'invalid_request');
    expectError(await api('POST', `/subscriptions/${sub.subscriptionId}/reset`, { offset: 1, startPolicy: 'latest' }), 400, 'invalid_request');
    expect((await ok(api('GET', `/subscriptions?agentId=${agentId}`))).subscriptions).toEqual([]);
  });

  it("reset answers AgentInbox's {subscription, consumer, lag}; the subscription consumes after the answer and nothing the agent had comes back", async () => {
    const { sourceId, agentId } = await fixture();
    const [sub] = (await ok(api('POST', '/subscriptions', { agentId, sourceId, startPolicy: 'at_offset', startOffset: 3 }), 201)).subscriptions;
    await append(sourceId, [{ type: 'a' }, { type: 'b' }, { type: 'c' }]);
    const [had] = (await items(agentId)).entries;
    expect(had.offset).toBe(3);
    expect(await ok(api('POST', `/agents/${agentId}/inbox/ack`, { entryIds: [had.entryId] }))).toEqual({ acked: 1 });
    expect(await ok(api('POST', `/agents/${agentId}/inbox/compact`, { retentionMs: 0 }))).toMatchObject({ deleted: 1 });

    const res = await ok(api('POST', `/subscriptions/${sub.subscriptionId}/reset`, { startPolicy: 'earliest' }));
    expect(res).toEqual(earliestResetAnswer(sub, 3, expect.any(String)));
    expect(res.subscription).toMatchObject({ startPolicy: 'at_offset', startOffset: 3 });
    // The catch-up runs after the answer: the events the agent never had become items, the compacted one does not come back.
    await waitFor(async () => (await items(agentId)).entries.length === 2);
    expect((await items(agentId, '?includeAcked=true')).entries.map((e: Json) => e.offset)).toEqual([1, 2]);
    expect(await ok(api('GET', `/subscriptions/${sub.subscriptionId}/lag`))).toMatchObject({ consumedOffset: 3, pendingEvents: 0, nextOffset: 4 });
    expect(await ok(api('POST', `/subscriptions/${sub.subscriptionId}/poll`))).toMatchObject({ eventsRead: 0, inboxItemsCreated: 0, committedOffset: null, note: 'no new stream events' });
    const detail = await ok(api('GET', `/subscriptions/${sub.subscriptionId}`));
    expect(detail).toMatchObject({ startPolicy: 'at_offset', subscription: { startPolicy: 'at_offset' }, consumer: { startPolicy: 'earliest', nextOffset: 4, updatedAt: res.consumer.updatedAt } });
    expect((await ok(api('GET', '/status'))).consumers).toContainEqual(detail.consumer);

    // Bad input is a 4xx envelope and moves nothing.
    const reset = (body: unknown, id = sub.subscriptionId) => api('POST', `/subscriptions/${id}/reset`, body);
    expectError(await reset({}), 400, 'invalid_request');
    expectError(await reset({ startPolicy: 'sometime' }), 400, 'invalid_request');
    expectError(await reset({ offset: 0 }), 400, 'invalid_request');
    expectError(await reset({ startPolicy: 'at_offset' }), 400, 'invalid_request');
    expectError(await reset({ startPolicy: 'earliest', extra: true }), 400, 'invalid_request');
    expectError(await reset({ startPolicy: 'earliest' }, 'sub_missing'), 404, 'subscription_not_found');
    expect((await ok(api('GET', `/subscriptions/${sub.subscriptionId}`))).consumer).toEqual(detail.consumer);
  });

  it('the host shortcut returns one subscription per source of the host', async () => {
    const { hostId, sourceId, agentId } = await fixture();
    const second = await ok(api('POST', '/sources', { hostId, streamKind: 'events', streamKey: 'second' }), 201);
    const res = await ok(api('POST', '/subscriptions', { agentId, shortcut: { name: 'host', args: { hostId } } }), 201);
    expect(res.subscriptions.map((s: Json) => s.sourceId).sort()).toEqual([sourceId, second.sourceId].sort());
    expectError(await api('POST', '/subscriptions', { agentId, shortcut: { name: 'host', args: { hostId: 'hst_missing' } } }), 404, 'host_not_found');
  });

  it('pushes matching on append: the entry is readable as soon as the append answers', async () => {
    const { sourceId, agentId } = await fixture();
    await ok(api('POST', '/subscriptions', { agentId, sourceId, filter: { expr: 'event.data.n > 1' } }), 201);
    for (let n = 0; n < 5; n++) {
      await append(sourceId, [{ type: 't', data: { n } }]);
      expect((await items(agentId)).entries).toHaveLength(Math.max(0, n - 1));
    }
    const summary = await ok(api('GET', `/agents/${agentId}/inbox`));
    expect(summary).toMatchObject({ agentId, unackedCount: 3, deliveryPaused: false, latestEntryId: expect.stringMatching(/^ent_/) });
  });

  it('earliest materialises history at creation; a start below the retained range is 409 history_unavailable', async () => {
    const { sourceId, agentId } = await fixture();
    await append(sourceId, [{ type: 'a' }, { type: 'b' }]);
    await ok(api('POST', '/subscriptions', { agentId, sourceId, startPolicy: 'earliest' }), 201);
    expect((await items(agentId)).entries.map((e: Json) => e.offset)).toEqual([1, 2]);
    expectError(await api('POST', '/subscriptions', { agentId, sourceId, startPolicy: 'at_offset', startOffset: 0 }), 400, 'invalid_request');
    await new Promise((r) => setTimeout(r, 20)); // the events must be older than the retention
    const compacted = await ok(api('POST', `/streams/${sourceId}/compaction-apply`, { apply: true, retentionMs: 1 }));
    expect(compacted.retainedFromOffset).toBe(3);
    const res = await api('POST', '/subscriptions', { agentId, sourceId, startPolicy: 'at_offset', startOffset: 1 });
    expectError(res, 409, 'history_unavailable');
    expect(res.json).toMatchObject({ streamId: sourceId, requested: 1, retainedFromOffset: 3, highWatermarkOffset: 2 });
    const [sub] = (await ok(api('GET', `/subscriptions?agentId=${agentId}`))).subscriptions;
    expectError(await api('POST', `/subscriptions/${sub.subscriptionId}/reset`, { startPolicy: 'at_offset', startOffset: 2 }), 409, 'history_unavailable');
  });
});

describe("AgentInbox's query names and limits", () => {
  it('lists take limit and snake_case names; both spellings at once, or unknown names, are 400', async () => {
    const { sourceId, agentId } = await fixture();
    const other = await fixture();
    for (const a of [agentId, other.agentId]) await ok(api('POST', '/subscriptions', { agentId: a, sourceId }), 201);
    await ok(api('POST', '/subscriptions', { agentId, sourceId: other.sourceId }), 201);
    const subs = async (q: string) => (await ok(api('GET', `/subscriptions${q}`))).subscriptions.map((x: Json) => [x.agentId, x.sourceId]);
    expect(await subs(`?agent_id=${agentId}`)).toEqual([[agentId, sourceId], [agentId, other.sourceId]]);
    expect(await subs(`?agent_id=${agentId}&source_id=${sourceId}`)).toEqual([[agentId, sourceId]]);
    expect(await subs(`?source_id=${sourceId}&limit=1`)).toEqual([[agentId, sourceId]]);
    expect(await subs(`?agentId=${agentId}&agent_id=${agentId}`)).toHaveLength(2);
    expectError(await api('GET', `/subscriptions?agentId=${agentId}&agent_id=${other.agentId}`), 400, 'invalid_request');
    expectError(await api('GET', '/subscriptions?limit=0'), 400, 'invalid_request');
    expectError(await api('GET', '/subscriptions?agent=x'), 400, 'invalid_request');

    for (let i = 0; i < 3; i++) await ok(api('POST', `/agents/${agentId}/inbox/items`, { message: `m${i}` }), 201);
    const page = await ok(api('GET', `/agents/${agentId}/inbox/entries?limit=2`));
    expect(page.entries.map((e: Json) => e.message)).toEqual(['m0', 'm1']);
    expect(await ok(api('GET', `/agents/${agentId}/inbox/items?limit=2`))).toEqual(page);
    await ok(api('POST', `/agents/${agentId}/inbox/ack`, { throughEntryId: page.entries[0].entryId }));
    const rest = await ok(api('GET', `/agents/${agentId}/inbox/entries?after_entry_id=${page.entries[0].entryId}&include_acked=true`));
    expect(rest.entries.map((e: Json) => e.message)).toEqual(['m1', 'm2']);
    expect((await ok(api('GET', `/agents/${agentId}/inbox/entries?include_acked=true`))).entries).toHaveLength(3);
    // An agent without an inbox reads empty, as on AgentInbox.
    expect(await ok(api('GET', '/agents/agt_missing/inbox/entries'))).toEqual({ entries: [], nextCursor: null });

    expect((await ok(api('GET', '/hosts?limit=1'))).hosts).toHaveLength(1);
    expect((await ok(api('GET', '/sources?limit=1'))).sources).toHaveLength(1);
    expect((await ok(api('GET', '/agents?limit=1'))).agents).toHaveLength(1);
    await ok(api('POST', `/agents/${agentId}/targets`, { kind: 'webhook', url: 'http://127.0.0.1:9/a' }), 201);
    await ok(api('POST', `/agents/${agentId}/targets`, { kind: 'webhook', url: 'http://127.0.0.1:9/b' }), 201);
    expect((await ok(api('GET', `/agents/${agentId}/targets?limit=1`))).targets.map((t: Json) => t.url)).toEqual(['http://127.0.0.1:9/a']);
    const timers: Json[] = [];
    for (const at of ['2099-01-01T00:00:00Z', '2099-01-02T00:00:00Z']) timers.push(await ok(api('POST', '/timers', { agentId, at, message: 'x' }), 201));
    expect((await ok(api('GET', `/timers?agent_id=${agentId}&limit=1`))).timers.map((t: Json) => t.scheduleId)).toEqual([timers[0].scheduleId]);
    for (const q of ['/hosts?limit=-1', '/hosts?bogus=1', '/sources?limit=x', '/timers?agent_id=a&agentId=b', `/agents/${agentId}/targets?limit=0`]) {
      expectError(await api('GET', q), 400, 'invalid_request');
    }
  });
});

describe('inbox items, acks and compaction', () => {
  it('lists with a cursor and limit, acks in the three forms, compacts acknowledged entries', async () => {
    const { agentId } = await fixture();
    const made: Json[] = [];
    for (let i = 0; i < 5; i++) made.push(await ok(api('POST', `/agents/${agentId}/inbox/items`, { message: `m${i}`, sender: 'ops' }), 201));
    expect(made[0]).toEqual({ itemId: expect.stringMatching(/^itm_/), inboxId: inboxIdOf(agentId), activated: false, entryId: expect.stringMatching(/^ent_/), agentId });
    const p1 = await items(agentId, '?limit=2');
    expect(p1.entries[0]).toMatchObject({
      entryId: made[0].entryId,
      itemId: made[0].itemId,
      kind: 'item',
      itemKind: 'direct',
      sourceId: '__agentinbox_direct_text__',
      eventVariant: 'agentinbox.direct_text_message',
      summary: 'direct_text_message:ops',
      rawPayload: { type: 'direct_text_message', message: 'm0', sender: 'ops' },
      message: 'm0',
      sender: 'ops',
      ackedAt: null,
    });
    expect(p1.entries.map((e: Json) => e.message)).toEqual(['m0', 'm1']);
    expect((await items(agentId, `?limit=2&after=${p1.nextCursor}`)).entries.map((e: Json) => e.message)).toEqual(['m2', 'm3']);

    for (const body of [{}, { all: true, throughEntryId: made[0].entryId }, { all: false }, { entryIds: [] }, { throughEntryId: 'nope' }]) {
      expectError(await api('POST', `/agents/${agentId}/inbox/ack`, body), 400, 'invalid_request');
    }
    expectError(await api('POST', `/agents/${agentId}/inbox/ack`, { entryIds: ['ent_01J00000000000000000000000'] }), 404, 'entry_not_found');
    expect(await ok(api('POST', `/agents/${agentId}/inbox/ack`, { entryIds: [made[4].itemId] }))).toEqual({ acked: 1 });
    expect(await ok(api('POST', `/agents/${agentId}/inbox/ack`, { throughEntryId: made[1].entryId }))).toEqual({ acked: 2 });
    expect(await ok(api('POST', `/agents/${agentId}/inbox/ack`, { all: true }))).toEqual({ acked: 2 });
    expect(await ok(api('POST', `/agents/${agentId}/inbox/ack`, { all: true }))).toEqual({ acked: 0 });
    expect((await items(agentId, '?includeAcked=true')).entries).toHaveLength(5);
    // Acknowledged items stay a day (AgentInbox's retention); retentionMs 0 deletes them now.
    expect(await ok(api('POST', `/agents/${agentId}/inbox/compact`))).toEqual({ deleted: 0, retentionMs: 86_400_000, agentId });
    expect((await items(agentId, '?includeAcked=true')).entries).toHaveLength(5);
    for (const body of [{ retentionMs: -1 }, { retentionMs: 1.5 }, { retentionMs: '0' }, { other: 1 }]) {
      expectError(await api('POST', `/agents/${agentId}/inbox/compact`, body), 400, 'invalid_request');
    }
    expect(await ok(api('POST', `/agents/${agentId}/inbox/compact`, { retentionMs: 0 }))).toEqual({ deleted: 5, retentionMs: 0, agentId });
    expect((await items(agentId, '?includeAcked=true')).entries).toHaveLength(0);
    expectError(await api('GET', `/agents/${agentId}/inbox/items?limit=0`), 400, 'invalid_request');
    expect(await ok(api('GET', '/agents/agt_missing/inbox/items'))).toEqual({ entries: [], nextCursor: null });
    expect(await ok(api('POST', '/agents/agt_missing/inbox/compact'))).toEqual({ deleted: 0, retentionMs: 86_400_000, agentId: 'agt_missing' });
    expect(await ok(api('POST', '/agents/agt_missing/inbox/ack', { all: true }))).toEqual({ acked: 0 });
    expectError(await api('POST', '/agents/agt_missing/inbox/ack', { entryIds: [made[0].entryId] }), 404, 'entry_not_found');
    expectError(await api('POST', '/agents/agt_missing/inbox/items', { message: 'x' }), 404, 'agent_not_found');
    expectError(await api('GET', '/agents/agt_missing/inbox'), 404, 'agent_not_found');
  });
});

describe('inbox watch (SSE)', () => {
  it('sends the unacknowledged backlog, then live entries within milliseconds, and resumes after Last-Event-ID', async () => {
    const { sourceId, agentId } = await fixture();
    await ok(api('POST', '/subscriptions', { agentId, sourceId }), 201);
    await append(sourceId, [{ type: 'a' }, { type: 'b' }]);
    const first = (await items(agentId)).entries;
    await ok(api('POST', `/agents/${agentId}/inbox/ack`, { entryIds: [first[0].entryId] }));

    const w = await Watcher.open(agentId);
    expect(w.status).toBe(200);
    await waitFor(() => w.entries().length === 1);
    expect(w.frames[0]).toMatchObject({ id: first[1].entryId, event: 'items' });
    expect(JSON.parse(w.frames[0]!.data)).toMatchObject({ event: 'items', agentId });
    expect(w.entries()[0]).toMatchObject({ entryId: first[1].entryId, offset: 2, event: { type: 'b' } });

    await append(sourceId, [{ type: 'c' }]);
    await waitFor(() => w.entries().length === 2, 5000);
    const live = w.entries()[1];
    expect(live).toMatchObject({ kind: 'item', itemKind: 'event', offset: 3, eventVariant: 'c', event: { type: 'c' } });

    await append(sourceId, [{ type: 'd' }]);
    await waitFor(() => w.entries().length === 3);
    const resumed = await Watcher.open(agentId, { 'last-event-id': live.entryId });
    await waitFor(() => resumed.entries().length === 1);
    expect(resumed.entries().map((e) => e.event.type)).toEqual(['d']);
    expect(new Set(w.entries().map((e) => e.entryId)).size).toBe(3);
  });

  it('keeps its connection through a burst larger than the SSE buffer budget: a reader, and one that stopped reading meanwhile, get every entry once, in order', async () => {
    const { sourceId, agentId } = await fixture();
    await ok(api('POST', '/subscriptions', { agentId, sourceId }), 201);
    const reading = await Watcher.open(agentId);
    const paused = await Watcher.open(agentId);
    await waitFor(() => reading.frames.length > 0 && paused.frames.length > 0);
    paused.pause();
    // About 4 MB of entries in one commit, against the default budget of 1 MB per client.
    const events = Array.from({ length: 2000 }, (_, i) => ({ id: `burst-${i}`, type: 'burst', data: { text: 'x'.repeat(500) } }));
    expect(await append(sourceId, events)).toMatchObject({ appended: 2000 });
    const offsets = Array.from({ length: 2000 }, (_, i) => i + 1);
    await waitFor(() => reading.entries().length >= 2000, 20_000);
    expect(reading.entries().map((e) => e.offset)).toEqual(offsets);
    // Entries that arrive while it is behind come in their turn too.
    await append(sourceId, [{ id: 'after', type: 'after' }]);
    await new Promise((r) => setTimeout(r, 500));
    paused.resume();
    await waitFor(() => paused.entries().length >= 2001, 20_000);
    expect(paused.entries().map((e) => e.offset)).toEqual([...offsets, 2001]);
    await waitFor(() => reading.entries().length >= 2001);
    expect(reading.entries().map((e) => e.offset)).toEqual([...offsets, 2001]);
    expect([reading.ended, paused.ended]).toEqual([false, false]);
    reading.close();
    paused.close();
  }, 60_000);

  it("takes AgentInbox's cursor, include_acked and heartbeat_ms; the cursor is the later of after_entry_id and Last-Event-ID", async () => {
    const { agentId } = await fixture();
    const made: Json[] = [];
    for (let i = 0; i < 4; i++) made.push(await ok(api('POST', `/agents/${agentId}/inbox/items`, { message: `m${i}` }), 201));
    await ok(api('POST', `/agents/${agentId}/inbox/ack`, { entryIds: [made[0].entryId] }));
    const messages = (w: Watcher) => w.entries().map((e) => e.message);

    const acked = await Watcher.open(agentId, {}, '?include_acked=true');
    await waitFor(() => acked.entries().length === 4);
    expect(messages(acked)).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect(acked.frames[0]).toMatchObject({ event: 'items', id: made[3].entryId });

    const after = await Watcher.open(agentId, {}, `?after_entry_id=${made[1].entryId}`);
    await waitFor(() => after.entries().length === 2);
    expect(messages(after)).toEqual(['m2', 'm3']);
    const header = await Watcher.open(agentId, { 'last-event-id': made[2].entryId }, `?after_entry_id=${made[1].entryId}`);
    await waitFor(() => header.entries().length === 1);
    expect(messages(header)).toEqual(['m3']);

    const beating = await Watcher.open(agentId, {}, `?after=${made[3].entryId}&heartbeatMs=1000`);
    await waitFor(() => beating.frames.some((f) => f.event === 'heartbeat'), 5000);
    expect(beating.frames[0]).toEqual({ id: undefined, event: 'items', data: JSON.stringify({ event: 'items', agentId, entries: [] }) });
    const beat = beating.frames.find((f) => f.event === 'heartbeat')!;
    expect(beat.id).toBeUndefined();
    expect(JSON.parse(beat.data)).toEqual({ event: 'heartbeat', agentId, timestamp: expect.any(String) });

    for (const query of ['?heartbeat_ms=0', '?heartbeat_ms=-5', '?heartbeat_ms=1e3', '?include_acked=yes', '?after_entry_id=12', `?after=${made[0].entryId}&after_entry_id=${made[1].entryId}`, '?bogus=1']) {
      expectError(await api('GET', `/agents/${agentId}/inbox/watch${query}`), 400, 'invalid_request');
    }
  });

  it("follows an unknown agent's empty inbox (AgentInbox's heartbeats as often as asked, at most every 100 ms) and refuses a malformed Last-Event-ID before any SSE byte", async () => {
    const { agentId } = await fixture();
    // A period setInterval cannot wait is clamped too (it would fire at once): the stream just stays quiet.
    const far = await Watcher.open('nobody', {}, '?heartbeat_ms=99999999999999');
    const nobody = await Watcher.open('nobody', {}, '?heartbeat_ms=1');
    await waitFor(() => nobody.frames.filter((f) => f.event === 'heartbeat').length >= 2, 5000);
    expect(nobody.frames[0]).toEqual({ id: undefined, event: 'items', data: JSON.stringify({ event: 'items', agentId: 'nobody', entries: [] }) });
    const beats = nobody.frames.filter((f) => f.event === 'heartbeat').map((f) => Date.parse(JSON.parse(f.data).timestamp));
    expect(beats[1]! - beats[0]!).toBeGreaterThanOrEqual(90);
    expect(far.frames.map((f) => f.event)).toEqual(['items']);
    const bad = await request({ socketPath: d.socket }, 'GET', `/agents/${agentId}/inbox/watch`, { headers: { 'last-event-id': '12' } });
    expectError(bad, 400, 'invalid_request');
  });

  it('ends the stream when the agent is deleted', async () => {
    const { agentId } = await fixture();
    const w = await Watcher.open(agentId);
    await ok(api('DELETE', `/agents/${agentId}`));
    await waitFor(() => w.ended);
  });
});

describe('durability', () => {
  it('acks and entries survive SIGKILL of the daemon', async () => {
    const home = pool.home();
    const first = await pool.start({ home });
    const { sourceId, agentId } = await fixture(first);
    await ok(api('POST', '/subscriptions', { agentId, sourceId }, first), 201);
    await append(sourceId, [{ type: 'a' }, { type: 'b' }, { type: 'c' }], first);
    const entries = (await items(agentId, '', first)).entries;
    expect(await ok(api('POST', `/agents/${agentId}/inbox/ack`, { throughEntryId: entries[1].entryId }, first))).toEqual({ acked: 2 });
    await first.stop('SIGKILL');

    const second = await pool.start({ home });
    const after = (await items(agentId, '', second)).entries;
    expect(after.map((e: Json) => e.entryId)).toEqual([entries[2].entryId]);
    // Matching resumes on the restarted daemon from the persisted consumer offset.
    await append(sourceId, [{ type: 'd' }], second);
    expect((await items(agentId, '', second)).entries.map((e: Json) => e.offset)).toEqual([3, 4]);
    await second.stop();
  }, 60_000);

  it('what was materialised and compacted away stays so across SIGKILL: a reset after the restart brings nothing back', async () => {
    const home = pool.home();
    const first = await pool.start({ home });
    const { sourceId, agentId } = await fixture(first);
    const sub = await ok(api('POST', '/subscriptions', { agentId, sourceId }, first), 201);
    await ok(api('POST', '/subscriptions', { agentId, sourceId, filter: { match: { type: 'a' } } }, first), 201);
    await append(sourceId, [{ type: 'a' }, { type: 'b' }], first);
    const entries = (await items(agentId, '', first)).entries;
    expect(entries.map((e: Json) => e.matchedSubscriptionIds.length)).toEqual([2, 1]);
    expect(await ok(api('POST', `/agents/${agentId}/inbox/ack`, { entryIds: [entries[0].itemId] }, first))).toEqual({ acked: 1 });
    expect(await ok(api('POST', `/agents/${agentId}/inbox/compact`, { retentionMs: 0 }, first))).toMatchObject({ deleted: 1 });
    await first.stop('SIGKILL');

    const second = await pool.start({ home });
    const subscriptionId = sub.subscriptions[0].subscriptionId;
    await ok(api('POST', `/subscriptions/${subscriptionId}/reset`, { startPolicy: 'earliest' }, second));
    await waitFor(async () => (await ok(api('GET', `/subscriptions/${subscriptionId}/lag`, undefined, second))).pendingEvents === 0);
    expect((await items(agentId, '?includeAcked=true', second)).entries.map((e: Json) => e.entryId)).toEqual([entries[1].entryId]);
    await second.stop();
  }, 60_000);

  it('a reset answered before SIGKILL keeps its moved offset; what it left to read is consumed at the next start', async () => {
    const home = pool.home();
    const first = await pool.start({ home });
    const { sourceId, agentId } = await fixture(first);
    const [sub] = (await ok(api('POST', '/subscriptions', { agentId, sourceId, startPolicy: 'at_offset', startOffset: 3 }, first), 201)).subscriptions;
    await append(sourceId, [{ type: 'a' }, { type: 'b' }, { type: 'c' }], first);
    expect(await ok(api('POST', `/subscriptions/${sub.subscriptionId}/reset`, { startPolicy: 'earliest' }, first))).toMatchObject({ consumer: { nextOffset: 1 } });
    await first.stop('SIGKILL');

    // Killed at once: the catch-up ran before the kill or runs at the start; either way each event is one item.
    const second = await pool.start({ home });
    expect((await items(agentId, '', second)).entries.map((e: Json) => e.offset).sort()).toEqual([1, 2, 3]);
    expect(await ok(api('GET', `/subscriptions/${sub.subscriptionId}`, undefined, second))).toMatchObject({
      subscription: { startPolicy: 'at_offset' },
      consumer: { startPolicy: 'earliest', nextOffset: 4 },
      lag: { pendingEvents: 0 },
    });
    const agent2 = await ok(api('POST', '/agents', { name: 'second' }, second), 201);
    const [sub2] = (await ok(api('POST', '/subscriptions', { agentId: agent2.agentId, sourceId, startPolicy: 'at_offset', startOffset: 4 }, second), 201)).subscriptions;
    await second.stop('SIGKILL');

    // Killed between a reset's commit and its catch-up: the row as a reset to earliest commits it (the offset
    // moved back, the consumer's start), events the agent never had. The start consumes them before it answers.
    const db = new Database(path.join(home, 'svc.db'));
    db.prepare("UPDATE inbox_subscriptions SET consumed_offset = 0, consumer_start_policy = 'earliest', consumer_updated_at = ? WHERE subscription_id = ?").run(
      new Date().toISOString(),
      sub2.subscriptionId,
    );
    db.close();
    const third = await pool.start({ home });
    expect((await items(agent2.agentId, '', third)).entries.map((e: Json) => e.offset)).toEqual([1, 2, 3]);
    expect(await ok(api('GET', `/subscriptions/${sub2.subscriptionId}/lag`, undefined, third))).toMatchObject({ consumedOffset: 3, pendingEvents: 0 });
    expect((await items(agentId, '', third)).entries).toHaveLength(3);
    await third.stop();
  }, 60_000);
});

describe('svc inbox commands', () => {
  const svc = (args: string[]) => runSvc([...args, '--socket', d.socket], {}, 30_000);
  const svcJson = async (args: string[]): Promise<Json> => {
    const r = await svc([...args, '--json']);
    expect(r.code, `${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
    return JSON.parse(r.stdout);
  };

  it('agents, subscriptions, items add, read, ack and watch', async () => {
    const { sourceId } = await fixture();
    const agent = await svcJson(['inbox', 'agents', 'create', '--name', 'cli']);
    expect(agent.agentId).toMatch(/^agt_/);
    expect((await svcJson(['inbox', 'agents', 'list'])).agents).toContainEqual(agent);
    const created = await svcJson(['inbox', 'subscriptions', 'create', '--agent', agent.agentId, '--source', sourceId, '--match', '{"type":["x","y"]}']);
    expect(created.subscriptions[0]).toMatchObject({ filter: { match: { type: ['x', 'y'] } } });
    await append(sourceId, [{ type: 'x' }, { type: 'z' }]);
    const item = await svcJson(['inbox', 'items', 'add', agent.agentId, 'hello', '--sender', 'me']);
    const read = await svcJson(['inbox', 'read', agent.agentId]);
    expect(read.entries.map((e: Json) => `${e.kind}:${e.itemKind}`)).toEqual(['item:event', 'item:direct']);
    const human = await svc(['inbox', 'read', agent.agentId]);
    expect(human.stdout).toContain('me: hello');
    expect(await svcJson(['inbox', 'ack', agent.agentId, '--through', item.entryId])).toEqual({ acked: 2 });
    const lag = await svcJson(['inbox', 'subscriptions', 'lag', created.subscriptions[0].subscriptionId]);
    expect(lag).toMatchObject({ lag: 0, consumedOffset: 2 });
    const reset = await svc(['inbox', 'subscriptions', 'reset', created.subscriptions[0].subscriptionId, '--start-policy', 'earliest']);
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stdout).toMatch(/^consumer con_\w+ moved to earliest: next offset 1, 2 pending/m);

    const none = await svc(['inbox', 'ack', agent.agentId]);
    expect(none.code).not.toBe(0);
    const missing = await svc(['inbox', 'read', 'agt_missing']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/^svc: agent_not_found: /m);

    await svcJson(['inbox', 'items', 'add', agent.agentId, 'for the watcher']);
    const { spawn } = await import('node:child_process');
    const { BIN } = await import('../helpers/daemon.js');
    const child = spawn(process.execPath, [BIN, 'inbox', 'watch', agent.agentId, '--json', '--socket', d.socket], { stdio: ['ignore', 'pipe', 'pipe'] });
    pool.track(child);
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    await waitFor(() => out.includes('for the watcher'), 10_000);
    await append(sourceId, [{ type: 'y' }]);
    await waitFor(() => out.trim().split('\n').length === 2, 10_000);
    expect(JSON.parse(out.trim().split('\n')[1]!)).toMatchObject({ kind: 'item', itemKind: 'event', event: { type: 'y' } });
    child.kill('SIGTERM');
  }, 60_000);
});

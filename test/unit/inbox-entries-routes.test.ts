/**
 * The inbox routes' answers in AgentInbox's shapes (its daemon v1.0.3: GET /agents/{id}/inbox,
 * /inbox/entries, POST /inbox/items, /inbox/ack, /inbox/compact), with svc's fields beside; empty
 * answers for an agent that does not exist; and hostile input, refused with a 4xx that changes
 * nothing. Routes through inject on in-process services.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildInboxSurface, type Surface } from '../../src/http/surfaces.js';
import { inboxIdOf } from '../../src/inbox/entries/index.js';
import { testServices, type TestServices } from '../helpers/services.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** agent-alpha's inbox: an opaque id derived from the agent id. */
const INBOX = inboxIdOf('agent-alpha');

let t: TestServices;
let inbox: Surface;

beforeEach(async () => {
  t = testServices({ configToml: '[auth]\ntrust_loopback_peers = true\n' });
  inbox = await buildInboxSurface(t.s);
});
afterEach(async () => {
  await inbox.app.close();
  await t.close();
});

async function api(method: 'GET' | 'POST', url: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const res = await inbox.app.inject({ method, url, ...(body === undefined ? {} : { payload: body as object }) });
  return { status: res.statusCode, json: res.json() };
}

async function setup() {
  const { inbox: s } = t.s;
  const { host } = s.hosts.create({ hostType: 'local_event', hostKey: 'routes' });
  const { source } = await s.sources.create({ hostId: host.hostId, streamKind: 'events', streamKey: 'demo' });
  const agentId = (await api('POST', '/agents', { agentId: 'agent-alpha' })).json.agentId as string;
  const subs = [
    s.subscriptions.create({ agentId, sourceId: source.sourceId })[0]!,
    s.subscriptions.create({ agentId, sourceId: source.sourceId, filter: { metadata: { channel: 'engineering' } } })[0]!,
  ];
  const appended = await api('POST', `/sources/${source.sourceId}/events`, {
    sourceNativeId: 'demo-1',
    eventVariant: 'local.demo',
    metadata: { channel: 'engineering' },
    rawPayload: { text: 'hello' },
  });
  expect(appended.status).toBe(200);
  return { agentId, sourceId: source.sourceId, subs };
}

/** AgentInbox's key order of an item entry (its store's mapInboxEntry). */
const ITEM_KEYS = [
  'entryId', 'inboxId', 'sequence', 'itemId', 'summary', 'count', 'itemIds', 'sourceIds', 'subscriptionIds', 'firstItemAt', 'lastItemAt',
  'deliveryHandle', 'ackedAt', 'supersededAt', 'kind', 'sourceId', 'sourceNativeId', 'eventVariant', 'occurredAt', 'metadata', 'rawPayload', 'item',
];

describe("entries in AgentInbox's shape", () => {
  it('lists one item per event for the agent, listing every matching subscription, with AgentInbox\'s fields first and svc\'s beside', async () => {
    const { agentId, sourceId, subs } = await setup();
    const { status, json } = await api('GET', `/agents/${agentId}/inbox/entries`);
    expect(status).toBe(200);
    expect(json.entries).toHaveLength(1);
    const [e] = json.entries;
    expect(Object.keys(e).slice(0, ITEM_KEYS.length)).toEqual(ITEM_KEYS);
    expect(e).toMatchObject({
      entryId: expect.stringMatching(/^ent_[0-9A-Z]{26}$/),
      inboxId: INBOX,
      itemId: `itm_${e.entryId.slice(4)}`,
      summary: 'local_event:demo:local.demo',
      count: 1,
      itemIds: [e.itemId],
      sourceIds: [sourceId],
      // AgentInbox names the subscription that made the item; svc lists every one that matched beside.
      subscriptionIds: [subs.map((s) => s.subscriptionId).sort()[0]],
      matchedSubscriptionIds: subs.map((s) => s.subscriptionId).sort(),
      deliveryHandle: null,
      ackedAt: null,
      supersededAt: null,
      kind: 'item',
      sourceId,
      sourceNativeId: 'demo-1',
      eventVariant: 'local.demo',
      metadata: { channel: 'engineering', matchReason: 'filter shortcuts matched', agentId, subscriptionId: subs[0]!.subscriptionId },
      rawPayload: { text: 'hello' },
      agentId,
      itemKind: 'event',
      offset: 1,
    });
    expect(e.firstItemAt).toBe(e.occurredAt);
    expect(e.item).toEqual({
      itemId: e.itemId,
      sourceId,
      sourceNativeId: 'demo-1',
      eventVariant: 'local.demo',
      inboxId: INBOX,
      occurredAt: e.occurredAt,
      metadata: e.metadata,
      rawPayload: { text: 'hello' },
      deliveryHandle: null,
    });
  });

  it("answers GET /agents/{id}/inbox with AgentInbox's details and svc's summary beside", async () => {
    const { agentId, subs } = await setup();
    const { json } = await api('GET', `/agents/${agentId}/inbox`);
    expect(Object.keys(json).slice(0, 6)).toEqual(['agent', 'inbox', 'subscriptions', 'activationTargets', 'activationDispatchStates', 'itemCounts']);
    expect(json).toMatchObject({
      // No target: AgentInbox shows such an agent offline.
      agent: { agentId, status: 'offline' },
      inbox: { inboxId: INBOX, ownerAgentId: agentId, aggregationEnabled: false, aggregationWindowMs: null, aggregationMaxItems: null, aggregationMaxThreadAgeMs: null },
      activationTargets: [],
      activationDispatchStates: [],
      itemCounts: { total: 1, unacked: 1, acked: 0 },
      agentId,
      unackedCount: 1,
      deliveryPaused: false,
    });
    expect(json.subscriptions.map((s: Json) => s.subscriptionId)).toEqual(subs.map((s) => s.subscriptionId));
  });

  it("answers a direct item with AgentInbox's {itemId, inboxId, activated}: activated once the agent has an active target and is not paused", async () => {
    const { agentId } = await setup();
    const first = await api('POST', `/agents/${agentId}/inbox/items`, { message: 'hi', sender: 'ops' });
    expect(first).toMatchObject({ status: 201, json: { itemId: expect.stringMatching(/^itm_/), inboxId: INBOX, activated: false, agentId } });
    expect(first.json.itemId.slice(4)).toBe(first.json.entryId.slice(4));
    expect(INBOX).toMatch(/^inb_[23456789abcdefghjkmnpqrstvwxyz]{12}$/);
    expect(inboxIdOf('other')).not.toBe(INBOX);
    t.s.inbox.targets.create(agentId, { kind: 'webhook', url: 'http://127.0.0.1:9/hook' });
    expect((await api('POST', `/agents/${agentId}/inbox/items`, { message: 'again' })).json.activated).toBe(true);
    await t.s.inbox.delivery.pause(agentId);
    expect((await api('POST', `/agents/${agentId}/inbox/items`, { message: 'paused' })).json.activated).toBe(false);
  });

  it('answers an agent that does not exist with an empty inbox where AgentInbox does, and changes nothing', async () => {
    for (const id of ['nobody', '..%2F..%2Fetc', '__proto__', 'a'.repeat(300)]) {
      expect(await api('GET', `/agents/${id}/inbox/entries`)).toEqual({ status: 200, json: { entries: [], nextCursor: null } });
      expect(await api('POST', `/agents/${id}/inbox/ack`, { all: true })).toEqual({ status: 200, json: { acked: 0 } });
      expect((await api('POST', `/agents/${id}/inbox/compact`, {})).json).toMatchObject({ deleted: 0, retentionMs: 86_400_000 });
      expect((await api('GET', `/agents/${id}/inbox/policy`)).json).toMatchObject({ enabled: false, windowMs: 30_000, maxItems: 20, maxThreadAgeMs: 86_400_000 });
      expect((await api('GET', `/agents/${id}/inbox`)).json.code).toBe('agent_not_found');
      expect((await api('POST', `/agents/${id}/inbox/items`, { message: 'x' })).json.code).toBe('agent_not_found');
      expect((await api('POST', `/agents/${id}/inbox/policy`, { enabled: true })).json.code).toBe('agent_not_found');
    }
    expect(t.s.inbox.agents.list()).toEqual([]);
  });
});

describe('hostile input', () => {
  it('refuses malformed ids, oversized lists and unknown fields with 400, and ids of another inbox with 404, acknowledging nothing', async () => {
    const { agentId } = await setup();
    const other = (await api('POST', '/agents', { agentId: 'other' })).json.agentId;
    const theirs = (await api('POST', `/agents/${other}/inbox/items`, { message: 'not yours' })).json;
    const many = Array.from({ length: 10_001 }, () => theirs.entryId);
    for (const body of [
      { entryIds: ['../../etc/passwd'] },
      { entryIds: ['ent_short'] },
      { entryIds: [`itm_${'Z'.repeat(26)}`, 5] },
      { entryIds: many },
      { throughEntryId: 'ent_01JB8Y6QW2E3R4T5Y6V7K8M9PA', extra: 1 },
    ]) {
      expect((await api('POST', `/agents/${agentId}/inbox/ack`, body)).status, JSON.stringify(body).slice(0, 60)).toBe(400);
    }
    for (const body of [{ entryIds: [theirs.entryId] }, { entryIds: [theirs.itemId] }, { throughEntryId: theirs.entryId }]) {
      expect((await api('POST', `/agents/${agentId}/inbox/ack`, body)).json.code).toBe('entry_not_found');
    }
    expect(t.s.inbox.entries.counts(agentId)).toEqual({ total: 1, unacked: 1, acked: 0 });
    expect(t.s.inbox.entries.counts(other)).toEqual({ total: 1, unacked: 1, acked: 0 });
  });

  it('refuses a __proto__ key in a direct item and compaction options outside their range, creating and deleting nothing', async () => {
    const { agentId } = await setup();
    const proto = await inbox.app.inject({
      method: 'POST',
      url: `/agents/${agentId}/inbox/items`,
      headers: { 'content-type': 'application/json' },
      payload: '{"message":"x","metadata":{"__proto__":{"polluted":true}}}',
    });
    expect(proto.statusCode).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    for (const body of [{ message: '   ' }, { message: 'x', sender: ' ' }, { message: 'x', other: 1 }, { message: 'x', sender: 5 }]) {
      expect((await api('POST', `/agents/${agentId}/inbox/items`, body)).status, JSON.stringify(body)).toBe(400);
    }
    const trimmed = await api('POST', `/agents/${agentId}/inbox/items`, { message: '  hi  ', sender: ' me ' });
    expect(t.s.inbox.entries.list(agentId, { limit: 10 }).find((e) => e.entryId === trimmed.json.entryId)).toMatchObject({
      rawPayload: { type: 'direct_text_message', message: 'hi', sender: 'me' },
      summary: 'direct_text_message:me',
    });
    await t.s.inbox.entries.ack(agentId, { all: true });
    for (const body of [{ retentionMs: -1 }, { retentionMs: 2 ** 60 }, { retentionMs: 'all' }]) {
      expect((await api('POST', `/agents/${agentId}/inbox/compact`, body)).status).toBe(400);
    }
    expect(t.s.inbox.entries.counts(agentId)).toEqual({ total: 2, unacked: 0, acked: 2 });
  });
});

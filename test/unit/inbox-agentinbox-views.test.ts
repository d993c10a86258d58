/**
 * The inbox routes of agents, targets, timers, subscriptions, gc and status answer with
 * AgentInbox's records (docs/agentinbox.md#agents-targets-subscriptions-and-timers), svc's fields
 * beside: through the routes in-process (inject), on an injected clock. And the attacks on the
 * inputs these answers added: a refused input changes nothing.
 */
import type { FastifyInstance } from 'fastify';
import { inboxIdOf } from '../../src/inbox/entries/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { inboxRoutes } from '../../src/http/surfaces.js';
import { GC_INTERVAL_MS, Housekeeping } from '../../src/inbox/entries/gc.js';
import { lagView, pollView } from '../../src/inbox/subscriptions/consumers.js';
import { routeApp } from '../helpers/app.js';
import { testServices, type TestServices } from '../helpers/services.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestServices;
let app: FastifyInstance;
beforeEach(async () => {
  t = testServices();
  app = await routeApp(t.s, inboxRoutes(t.s));
});
afterEach(async () => {
  await app.close();
  await t.close();
});

async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const res = await app.inject({ method, url, ...(body === undefined ? {} : { payload: body as object }) });
  return { status: res.statusCode, json: res.json() };
}
async function ok(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown): Promise<Json> {
  const r = await call(method, url, body);
  expect(r.status, JSON.stringify(r.json)).toBeLessThan(300);
  return r.json;
}

const HOOK = 'http://127.0.0.1:9/hook';
const agentOf = async (name = 'a') => (await ok('POST', '/agents', { name })).agentId as string;
const webhook = async (agentId: string, extra: Record<string, unknown> = {}) => ok('POST', `/agents/${agentId}/targets`, { kind: 'webhook', url: HOOK, ...extra });

async function source(): Promise<string> {
  const { host } = t.s.inbox.hosts.create({ hostType: 'local_event', hostKey: 'views' });
  const { source } = await t.s.inbox.sources.create({ hostId: host.hostId, streamKind: 'jobs', streamKey: 'ci' });
  return source.sourceId;
}

describe('agents', () => {
  it('an agent is offline until it has an active target, as AgentInbox derives it', async () => {
    const agentId = await agentOf();
    const bare = await ok('GET', `/agents/${agentId}`);
    expect(bare).toMatchObject({ status: 'offline', offlineSince: bare.createdAt, runtimeKind: 'unknown', runtimeSessionId: null, updatedAt: bare.createdAt });
    t.clock.advance(5000);
    const target = await webhook(agentId);
    const shown = await ok('GET', `/agents/${agentId}`);
    expect(shown).toMatchObject({ status: 'active', offlineSince: null, updatedAt: target.createdAt, lastSeenAt: target.createdAt });
    expect(shown.agent).toEqual(Object.fromEntries(Object.entries(shown).filter(([k]) => !['agent', 'inbox', 'subscriptions', 'activationTargets', 'activationDispatchStates', 'itemCounts'].includes(k))));
    expect((await ok('GET', '/agents')).agents).toEqual([shown.agent]);
    const listed = (await ok('GET', '/agents?include_targets=true')).agents[0];
    expect(listed).toMatchObject({ ...shown.agent, agent: shown.agent, activationTargets: [expect.objectContaining({ targetId: target.targetId })] });

    // The target goes offline: so does the agent, from then.
    t.clock.advance(5000);
    t.s.store.tx(() => t.s.inbox.targets.markOffline(target.targetId, 'gone'));
    const off = await ok('GET', `/agents/${agentId}`);
    expect(off).toMatchObject({ status: 'offline', offlineSince: new Date(t.clock.now()).toISOString() });
    expect(off.activationTargets[0]).toMatchObject({ status: 'offline', offlineSince: new Date(t.clock.now()).toISOString() });
  });

  it('shows the inbox, subscriptions, targets and entry counts; removal says removed', async () => {
    const agentId = await agentOf();
    const sourceId = await source();
    const [sub] = t.s.inbox.subscriptions.create({ agentId, sourceId });
    for (const m of ['one', 'two', 'three']) await ok('POST', `/agents/${agentId}/inbox/items`, { message: m });
    const first = (await ok('GET', `/agents/${agentId}/inbox/items`)).entries[0];
    await ok('POST', `/agents/${agentId}/inbox/ack`, { entryIds: [first.entryId] });
    const shown = await ok('GET', `/agents/${agentId}`);
    expect(shown).toMatchObject({
      inbox: {
        inboxId: inboxIdOf(agentId),
        ownerAgentId: agentId,
        aggregationEnabled: false,
        aggregationWindowMs: null,
        aggregationMaxItems: null,
        aggregationMaxThreadAgeMs: null,
        createdAt: shown.createdAt,
      },
      subscriptions: [expect.objectContaining({ subscriptionId: sub!.subscriptionId })],
      activationTargets: [],
      activationDispatchStates: [],
      itemCounts: { total: 3, unacked: 2, acked: 1 },
    });
    expect(await ok('DELETE', `/agents/${agentId}`)).toEqual({ agentId, deleted: true, removed: true });
  });

  it("a registration under a chosen id answers AgentInbox's result with the agent's inbox; the inbox id is stable", async () => {
    const first = await call('POST', '/agents', { agentId: 'agent-alpha', webhook: { url: HOOK } });
    expect(first.status).toBe(201);
    const inboxId = inboxIdOf('agent-alpha');
    expect(first.json).toMatchObject({
      agentId: 'agent-alpha',
      status: 'active',
      agent: { agentId: 'agent-alpha', status: 'active', runtimeKind: 'unknown' },
      webhookTarget: { kind: 'webhook', url: HOOK, mode: 'activation_only', notifyLeaseMs: 600000, minUnackedItems: null },
      terminalTarget: null,
      activationChannel: 'webhook',
      inbox: { inboxId, ownerAgentId: 'agent-alpha' },
    });
    const again = await ok('POST', '/agents', { agentId: 'agent-alpha', webhook: { url: HOOK } });
    expect(again.inbox.inboxId).toBe(inboxId);
    expect((await ok('GET', '/agents/agent-alpha')).inbox.inboxId).toBe(inboxId);
  });
});

describe('targets and resumes', () => {
  it("targets carry AgentInbox's fields; a webhook's mode is its activation mode", async () => {
    const agentId = await agentOf();
    const plain = await webhook(agentId);
    expect(plain).toMatchObject({
      offlineSince: null,
      lastDeliveredAt: null,
      mode: 'activation_only',
      notifyLeaseMs: 600000,
      minUnackedItems: null,
      notificationPolicy: { notifyLeaseMs: 600000, minUnackedItems: null },
      lastSeenAt: plain.updatedAt,
    });
    expect(plain.secret).toMatch(/^whsec_/);
    const withItems = await webhook(agentId, { activationMode: 'activation_with_items' });
    expect(withItems.mode).toBe('activation_with_items');
    const terminal = await ok('POST', `/agents/${agentId}/targets`, { kind: 'terminal', tmuxTarget: 'work:0.1' });
    expect(terminal.mode).toBe('agent_prompt');
    expect((await ok('GET', `/agents/${agentId}/targets`)).targets.map((x: Json) => x.mode)).toEqual(['activation_only', 'activation_with_items', 'agent_prompt']);
    expect(await ok('DELETE', `/agents/${agentId}/targets/${terminal.targetId}`)).toEqual({ targetId: terminal.targetId, deleted: true, removed: true });
  });

  it('the agent resume answers {resumed, agent, targets} with each target\'s outcome', async () => {
    const agentId = await agentOf();
    const a = await webhook(agentId);
    const b = await webhook(agentId);
    t.s.store.tx(() => t.s.inbox.targets.markOffline(a.targetId, 'gone'));
    const kept = await ok('POST', `/agents/${agentId}/resume`, { deliveryOnly: true });
    expect(kept).toMatchObject({
      resumed: false,
      recoveredTargets: [],
      agent: { agentId, status: 'active' },
      targets: [
        { targetId: a.targetId, resumed: false, status: 'offline', reason: 'delivery_only' },
        { targetId: b.targetId, resumed: false, status: 'active', reason: 'already_active' },
      ],
    });
    const full = await ok('POST', `/agents/${agentId}/resume`, {});
    expect(full).toMatchObject({
      agentId,
      resumed: true,
      recoveredTargets: [a.targetId],
      targets: [
        { targetId: a.targetId, resumed: true, status: 'active', reason: 'webhook_resumed' },
        { targetId: b.targetId, resumed: false, status: 'active', reason: 'already_active' },
      ],
    });
    expect(await ok('POST', `/agents/${agentId}/targets/${a.targetId}/resume`, {})).toMatchObject({ targetId: a.targetId, resumed: false, recovered: false, status: 'active', reason: 'already_active' });
    t.s.store.tx(() => t.s.inbox.targets.markOffline(a.targetId, 'gone'));
    expect(await ok('POST', `/agents/${agentId}/targets/${a.targetId}/resume`, {})).toMatchObject({ resumed: true, recovered: true, status: 'active', reason: 'webhook_resumed' });
  });

  it("a target under its notify lease has a dispatch state: notified, dirty while entries wait, gone once all are acknowledged", async () => {
    const agentId = await agentOf();
    const target = await webhook(agentId);
    const { targets } = t.s.inbox;
    const states = async () => (await ok('GET', `/agents/${agentId}`)).activationDispatchStates;
    expect(await states()).toEqual([]);
    const entry = (await ok('POST', `/agents/${agentId}/inbox/items`, { message: 'x' })).entryId as string;
    // As the notifier leaves it once the entry is queued for the target.
    const leaseEnd = t.clock.now() + 600_000;
    t.s.store.tx(() => {
      targets.setQueuedThrough(target.targetId, entry);
      targets.setLease(target.targetId, leaseEnd);
    });
    const leaseExpiresAt = new Date(leaseEnd).toISOString();
    expect(await states()).toEqual([expect.objectContaining({ agentId, targetId: target.targetId, status: 'notified', leaseExpiresAt, pendingNewItemCount: 0, pendingSubscriptionIds: [] })]);
    await ok('POST', `/agents/${agentId}/inbox/items`, { message: 'y', sender: 'ops' });
    expect(await states()).toEqual([expect.objectContaining({ status: 'dirty', leaseExpiresAt, pendingNewItemCount: 1, pendingSummary: 'direct_text_message:ops' })]);
    expect((await ok('GET', '/status')).counts.activationDispatchStates).toBe(1);
    await ok('POST', `/agents/${agentId}/inbox/ack`, { all: true });
    expect(await states()).toEqual([]);
  });
});

describe('timers', () => {
  it("answer as AgentInbox's AgentTimer with svc's fields beside; pause and resume say whether they changed it", async () => {
    const agentId = await agentOf();
    const every = await ok('POST', '/timers', { agentId, every: 86_400_000, message: 'Review PRs' });
    expect(every).toMatchObject({ mode: 'every', intervalMs: 86_400_000, cronExpr: null, at: null, status: 'active', state: 'active', kind: 'every', every: 86_400_000, sender: 'timer' });
    const cron = await ok('POST', '/timers', { agentId, cron: '0 8 * * *', timezone: 'Asia/Shanghai', message: 'triage', sender: 'ops' });
    expect(cron).toMatchObject({ mode: 'cron', cronExpr: '0 8 * * *', intervalMs: null, sender: 'ops' });
    const paused = await ok('POST', `/timers/${every.scheduleId}/pause`, {});
    expect(paused).toMatchObject({ updated: true, status: 'paused', timer: { scheduleId: every.scheduleId, status: 'paused', nextFireAt: null } });
    expect(await ok('POST', `/timers/${every.scheduleId}/pause`, {})).toMatchObject({ updated: false, status: 'paused' });
    expect(await ok('POST', `/timers/${every.scheduleId}/resume`, {})).toMatchObject({ updated: true, timer: { status: 'active' } });
    expect(await ok('POST', `/timers/${cron.scheduleId}/resume`, {})).toMatchObject({ updated: false, timer: { status: 'active' } });
    expect(await ok('DELETE', `/timers/${cron.scheduleId}`)).toEqual({ scheduleId: cron.scheduleId, deleted: true, removed: true });
  });

  it('a timer that fired its last occurrence shows as paused, its state completed', async () => {
    const agentId = await agentOf();
    const at = await ok('POST', '/timers', { agentId, at: new Date(t.clock.now() + 1000).toISOString(), message: 'once' });
    t.clock.advance(1500);
    expect(t.s.inbox.timers.runDue()).toBe(1);
    const [shown] = (await ok('GET', `/timers?agent_id=${agentId}&status=completed`)).timers;
    expect(shown).toMatchObject({ scheduleId: at.scheduleId, status: 'paused', state: 'completed', nextFireAt: null, lastFiredAt: expect.any(String) });
    expect((await ok('GET', `/timers?status=paused`)).timers).toEqual([]);
    expect((await call('POST', `/timers/${at.scheduleId}/resume`, {})).json.code).toBe('timer_completed');
    expect((await ok('GET', `/agents/${agentId}/inbox/items`)).entries[0]).toMatchObject({ kind: 'item', itemKind: 'timer', sender: 'timer', message: 'once' });
  });
});

describe('subscriptions', () => {
  it('show is AgentInbox\'s details; lag has its consumer fields, and a null high watermark on an empty stream', async () => {
    const agentId = await agentOf();
    const sourceId = await source();
    const sub = (await ok('POST', '/subscriptions', { agentId, sourceId })).subscriptions[0];
    const consumerId = `con_${sub.subscriptionId.slice(4)}`;
    const streamId = `str_${sourceId.slice(4)}`;
    const empty = { consumerId, streamId, pendingEvents: 0, highWatermarkOffset: null, nextOffset: 1, consumedOffset: 0, lag: 0 };
    expect(await ok('GET', `/subscriptions/${sub.subscriptionId}/lag`)).toMatchObject(empty);
    const shown = await ok('GET', `/subscriptions/${sub.subscriptionId}`);
    expect(shown).toMatchObject({
      ...sub,
      subscription: sub,
      source: { sourceId },
      inbox: { ownerAgentId: agentId },
      activationTargets: [],
      consumer: { consumerId, streamId, subscriptionId: sub.subscriptionId, consumerKey: `subscription:${sub.subscriptionId}`, nextOffset: 1, startPolicy: 'latest' },
      lag: empty,
    });
    await t.s.inbox.streams.append(sourceId, [{ type: 'a' }, { type: 'b' }]);
    expect(await ok('GET', `/subscriptions/${sub.subscriptionId}/lag`)).toMatchObject({ highWatermarkOffset: 2, pendingEvents: 0, nextOffset: 3 });
    expect(await ok('POST', `/subscriptions/${sub.subscriptionId}/poll`, {})).toMatchObject({
      subscriptionId: sub.subscriptionId,
      sourceId,
      eventsRead: 0,
      matched: 0,
      inboxItemsCreated: 0,
      committedOffset: null,
      note: 'no new stream events',
      materialized: 0,
    });
    expect(await ok('DELETE', `/subscriptions/${sub.subscriptionId}`)).toEqual({ subscriptionId: sub.subscriptionId, deleted: true, removed: true });
  });

  it('a poll that reads events reports them with the offset committed', () => {
    const lag = lagView({ subscriptionId: 'sub_X', sourceId: 'src_Y', consumed: 5 }, { retainedFromOffset: 1, highWatermarkOffset: 5 });
    expect(lag).toEqual({
      subscriptionId: 'sub_X',
      sourceId: 'src_Y',
      consumedOffset: 5,
      retainedFromOffset: 1,
      highWatermarkOffset: 5,
      lag: 0,
      consumerId: 'con_X',
      streamId: 'str_Y',
      pendingEvents: 0,
      nextOffset: 6,
    });
    expect(pollView(lag, 2, 2)).toMatchObject({ eventsRead: 3, matched: 2, inboxItemsCreated: 2, committedOffset: 5, note: 'subscription batch processed', materialized: 2 });
  });
});

describe('gc and status', () => {
  it("gc answers AgentInbox's counts beside svc's", async () => {
    expect(await ok('POST', '/gc', {})).toMatchObject({
      deleted: 0,
      retentionMs: 86_400_000,
      removedAgents: 0,
      removedSubscriptions: 0,
      removed: { subscriptionsRemoved: 0, agentsRemoved: 0, openedInboxesClosed: 0, ackedEntriesRemoved: 0, notificationsRemoved: 0 },
      retention: { ackedEntriesMs: 86_400_000 },
    });
  });

  it('housekeeping runs every GC_INTERVAL_MS by itself', () => {
    const clock = new ManualClock();
    let runs = 0;
    const hk = new Housekeeping({ hooks: [{ gc: () => ({ thingsRemoved: ++runs }) }], clock, logger: createLogger('silent') });
    hk.start();
    try {
      expect(hk.lastRunAt).toBeNull();
      clock.advance(GC_INTERVAL_MS - 1);
      hk.runDue();
      expect(runs).toBe(0);
      clock.advance(1);
      hk.runDue();
      expect([runs, hk.lastRunAt]).toEqual([1, clock.now()]);
      clock.advance(GC_INTERVAL_MS);
      hk.runDue();
      expect(runs).toBe(2);
      expect(hk.run().removed).toEqual({ thingsRemoved: 3 });
    } finally {
      hk.stop();
    }
  });

  it("status answers AgentInbox's retention, counts and records, svc's counts beside", async () => {
    const agentId = await agentOf();
    const target = await webhook(agentId);
    const sourceId = await source();
    const [sub] = t.s.inbox.subscriptions.create({ agentId, sourceId });
    await t.s.inbox.streams.append(sourceId, [{ type: 'a' }]);
    await ok('POST', '/gc', {});
    const status = await ok('GET', '/status');
    expect(status).toMatchObject({
      ok: true,
      service: 'svc-inbox',
      retention: { ackedInboxItemsMs: 86_400_000, gcIntervalMs: GC_INTERVAL_MS, lastAckedInboxGcAt: new Date(t.clock.now()).toISOString() },
      counts: { sources: 1, agents: 1, offlineAgents: 0, subscriptions: 1, inboxes: 1, activationTargets: 1, streamEvents: 1, consumers: 1, inboxItems: 1, pendingInboxItems: 1, sourceStates: { total: 1, active: 1 } },
      agents: [expect.objectContaining({ agentId, status: 'active' })],
      sources: [expect.objectContaining({ sourceId, runtime: null })],
      subscriptions: [expect.objectContaining({ subscriptionId: sub!.subscriptionId })],
      inboxes: [{ inboxId: inboxIdOf(agentId), ownerAgentId: agentId }].map((x) => expect.objectContaining(x)),
      activationTargets: [expect.objectContaining({ targetId: target.targetId })],
      streams: [{ streamId: `str_${sourceId.slice(4)}`, sourceId, streamKey: `source:${sourceId}`, backend: 'sqlite', createdAt: expect.any(String) }],
      consumers: [expect.objectContaining({ consumerId: `con_${sub!.subscriptionId.slice(4)}`, nextOffset: 2 })],
      adapters: { remote: { activeSourceIds: [], erroredSourceIds: [] } },
      recentDeliveries: [],
      lifecycle: { offlineAgentTtlMs: 7 * 24 * 3600 * 1000, gcIntervalMs: GC_INTERVAL_MS, lastOfflineAgentGcAt: new Date(t.clock.now()).toISOString() },
    });
  });
});

describe('refused inputs change nothing', () => {
  it('an unknown activation mode is 400 and creates no target and no agent', async () => {
    const agentId = await agentOf();
    for (const mode of ['__proto__', 'activation_everything', '']) {
      expect((await call('POST', `/agents/${agentId}/targets`, { kind: 'webhook', url: HOOK, activationMode: mode })).status).toBe(400);
      expect((await call('POST', '/agents', { agentId: 'agent-x', webhook: { url: HOOK, activationMode: mode } })).status).toBe(400);
    }
    expect((await ok('GET', `/agents/${agentId}/targets`)).targets).toEqual([]);
    expect((await ok('GET', '/agents')).agents.map((a: Json) => a.agentId)).toEqual([agentId]);
  });

  it('prototype keys and path tricks in ids are unknown records, never a 500', async () => {
    for (const id of ['__proto__', 'constructor', '..', '..%2F..%2Fetc', 'a'.repeat(5000)]) {
      for (const url of [`/agents/${id}`, `/subscriptions/${id}`, `/subscriptions/${id}/lag`, `/agents/${id}/targets`]) {
        const r = await call('GET', url);
        expect(r.status, url).toBeGreaterThanOrEqual(400);
        expect(r.status, url).toBeLessThan(500);
      }
      const r = await call('POST', `/timers/${id}/pause`, {});
      expect([r.status >= 400 && r.status < 500, r.json.ok]).toEqual([true, false]);
    }
    expect((await call('GET', '/timers?status=__proto__')).status).toBe(400);
    expect((await ok('GET', '/status')).counts).toMatchObject({ agents: 0, activationTargets: 0 });
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { ManualClock } from '../../src/core/clock.js';
import type { CreateSubscriptionInput } from '../../src/inbox/subscriptions/subscriptions.js';
import { createServices, startServices, stopServices, type Services } from '../../src/services.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { FakeConnection } from '../helpers/watch-connection.js';

const SECOND = 1000;
let homes: string[] = [];
let running: Services[] = [];

afterEach(async () => {
  for (const s of running.splice(0)) await stopServices(s);
  for (const h of homes.splice(0)) fs.rmSync(h, { recursive: true, force: true });
});

/** In-process services on `home` (a second call on the same home is a restart). */
function boot(home: string, clock: ManualClock): Services {
  const s = createServices(loadConfig({ home }, {}), clock, createLogger('silent'));
  startServices(s);
  running.push(s);
  return s;
}

async function setup() {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-unit-'));
  homes.push(home);
  const clock = new ManualClock();
  const s = boot(home, clock);
  const { host } = s.inbox.hosts.create({ hostType: 'local_event', hostKey: 'cleanup' });
  const { source } = await s.inbox.sources.create({ hostId: host.hostId, streamKind: 'jobs', streamKey: 'ci' });
  const agent = s.inbox.agents.create({ name: 'watcher' });
  const sourceId = source.sourceId;
  return {
    home,
    clock,
    s,
    sourceId,
    agentId: agent.agentId,
    subscribe: (extra: Partial<CreateSubscriptionInput>) => s.inbox.subscriptions.create({ agentId: agent.agentId, sourceId, ...extra })[0]!,
    exists: (svc: Services, id: string) => svc.inbox.subscriptions.list({ sourceId }).some((x) => x.subscriptionId === id),
  };
}

const terminal = (subject: string) => ({ type: 'job.finished', subject, metadata: { lifecycle: 'terminal' } });

describe('cleanup policies (injected clock)', () => {
  it('mode at removes the subscription at its time, not before', async () => {
    const { s, clock, subscribe, exists } = await setup();
    const sub = subscribe({ cleanupPolicy: { mode: 'at', at: new Date(clock.now() + 60 * SECOND).toISOString() } });
    expect(sub.removeAt).toBe(new Date(clock.now() + 60 * SECOND).toISOString());
    clock.advance(59 * SECOND);
    s.inbox.subscriptions.runDue();
    expect(exists(s, sub.subscriptionId)).toBe(true);
    clock.advance(2 * SECOND);
    s.inbox.subscriptions.runDue();
    expect(exists(s, sub.subscriptionId)).toBe(false);
  });

  it('on_terminal removes gracePeriodSecs after the terminal signal; events in the grace period still arrive', async () => {
    const { s, clock, sourceId, agentId, subscribe, exists } = await setup();
    const sub = subscribe({ trackedResourceRef: 'job/7', cleanupPolicy: { mode: 'on_terminal', gracePeriodSecs: 30 } });
    expect(sub.removeAt).toBeNull();
    // Not a terminal signal: other subject, or no lifecycle=terminal.
    await s.inbox.streams.append(sourceId, [terminal('job/8'), { type: 'job.log', subject: 'job/7' }]);
    expect(s.inbox.subscriptions.get(sub.subscriptionId).terminalAt).toBeNull();
    const signalAt = clock.now();
    await s.inbox.streams.append(sourceId, [terminal('job/7')]);
    expect(s.inbox.subscriptions.get(sub.subscriptionId)).toMatchObject({
      terminalAt: new Date(signalAt).toISOString(),
      removeAt: new Date(signalAt + 30 * SECOND).toISOString(),
    });
    clock.advance(29 * SECOND);
    s.inbox.subscriptions.runDue();
    await s.inbox.streams.append(sourceId, [{ type: 'job.log', subject: 'job/7' }]);
    expect(s.inbox.entries.unacked(agentId, { limit: 10 })).toHaveLength(4);
    clock.advance(2 * SECOND);
    s.inbox.subscriptions.runDue();
    expect(exists(s, sub.subscriptionId)).toBe(false);
    expect(s.inbox.entries.unacked(agentId, { limit: 10 })).toHaveLength(4);
  });

  it('on_terminal_or_at removes at whichever comes first', async () => {
    const { s, clock, sourceId, subscribe, exists } = await setup();
    const at = new Date(clock.now() + 100 * SECOND).toISOString();
    const early = subscribe({ trackedResourceRef: 'job/1', cleanupPolicy: { mode: 'on_terminal_or_at', at, gracePeriodSecs: 10 } });
    const late = subscribe({ trackedResourceRef: 'job/1', cleanupPolicy: { mode: 'on_terminal_or_at', at, gracePeriodSecs: 500 } });
    await s.inbox.streams.append(sourceId, [terminal('job/1')]);
    clock.advance(11 * SECOND);
    s.inbox.subscriptions.runDue();
    expect(exists(s, early.subscriptionId)).toBe(false);
    expect(exists(s, late.subscriptionId)).toBe(true);
    clock.advance(90 * SECOND);
    s.inbox.subscriptions.runDue();
    expect(exists(s, late.subscriptionId)).toBe(false);
  });

  it('a pending removal survives a restart and fires on the restarted clock', async () => {
    const { s, home, clock, sourceId, subscribe, exists } = await setup();
    const sub = subscribe({ trackedResourceRef: 'job/9', cleanupPolicy: { mode: 'on_terminal', gracePeriodSecs: 60 } });
    await s.inbox.streams.append(sourceId, [terminal('job/9')]);
    await stopServices(running.pop()!);
    const later = new ManualClock(clock.now() + 61 * SECOND);
    const restarted = boot(home, later); // start() runs what is already due
    expect(exists(restarted, sub.subscriptionId)).toBe(false);
  });

  it('manual subscriptions stay; required fields per mode are checked (400 invalid_request)', async () => {
    const { s, clock, sourceId, subscribe, exists } = await setup();
    const sub = subscribe({ trackedResourceRef: 'job/1' });
    await s.inbox.streams.append(sourceId, [terminal('job/1')]);
    clock.advance(365 * 24 * 3600 * SECOND);
    s.inbox.subscriptions.runDue();
    expect(exists(s, sub.subscriptionId)).toBe(true);
    expect(() => subscribe({ cleanupPolicy: { mode: 'at' } })).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    expect(() => subscribe({ cleanupPolicy: { mode: 'on_terminal' } })).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    expect(() => subscribe({ trackedResourceRef: 'x', cleanupPolicy: { mode: 'on_terminal_or_at' } })).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  });

  it('consumer offsets and the per-source index survive a restart: matching resumes where it stopped', async () => {
    const { s, home, clock, sourceId, agentId, subscribe } = await setup();
    subscribe({ filter: { match: { type: 'keep' } } });
    await s.inbox.streams.append(sourceId, [{ type: 'keep' }, { type: 'drop' }]);
    await stopServices(running.pop()!);
    const restarted = boot(home, clock);
    await restarted.inbox.streams.append(sourceId, [{ type: 'keep' }]);
    expect(restarted.inbox.entries.unacked(agentId, { limit: 10 }).map((e) => e.offset)).toEqual([1, 3]);
  });
});

describe('POST /gc housekeeping', () => {
  it('removes expired subscriptions the timer has not reached and items acknowledged a day ago (as AgentInbox does, whatever their subscriptions), never unacknowledged ones', async () => {
    const { s, clock, sourceId, agentId, subscribe, exists } = await setup();
    const expiring = subscribe({ cleanupPolicy: { mode: 'at', at: new Date(clock.now() + 60 * SECOND).toISOString() }, filter: { match: { type: ['a', 'b'] } } });
    const lasting = subscribe({ filter: { match: { type: ['b', 'c', 'd'] } } });
    await s.inbox.streams.append(sourceId, [{ type: 'a' }, { type: 'b' }, { type: 'c' }, { type: 'd' }]);
    // Four events, one item each; b is matched by both subscriptions.
    const all = s.inbox.entries.unacked(agentId, { limit: 100 });
    expect(all.map((e) => e.matchedSubscriptionIds!.length)).toEqual([1, 2, 1, 1]);
    // a (only the expiring subscription's), b (both) and c (the lasting one's) acknowledged; d stays unacknowledged.
    await s.inbox.entries.ack(agentId, { entryIds: all.slice(0, 3).map((e) => e.entryId) });
    clock.advance(61 * SECOND);
    // The removal timer has not run (no runDue): gc removes the subscription; its acknowledged item stays its day, as on AgentInbox.
    expect(s.inbox.gc()).toMatchObject({ removed: { subscriptionsRemoved: 1, agentsRemoved: 0, openedInboxesClosed: 0, ackedEntriesRemoved: 0, notificationsRemoved: 0 }, retention: { ackedEntriesMs: 86_400_000 } });
    expect(exists(s, expiring.subscriptionId)).toBe(false);
    const left = s.inbox.entries.list(agentId, { limit: 100, includeAcked: true }).map((e) => `${e.event!.type}:${e.ackedAt !== null}`);
    expect(left).toEqual(['a:true', 'b:true', 'c:true', 'd:false']);
    expect(lasting.subscriptionId).toBeDefined();
    // A day later the acknowledged items go; the unacknowledged one stays.
    clock.advance(24 * 3600 * SECOND);
    expect(s.inbox.gc().removed).toEqual({ subscriptionsRemoved: 0, agentsRemoved: 0, openedInboxesClosed: 0, ackedEntriesRemoved: 3, notificationsRemoved: 0 });
    expect(s.inbox.entries.list(agentId, { limit: 100, includeAcked: true })).toHaveLength(1);
    expect(s.inbox.gc().removed).toEqual({ subscriptionsRemoved: 0, agentsRemoved: 0, openedInboxesClosed: 0, ackedEntriesRemoved: 0, notificationsRemoved: 0 });
  });
});

describe('GET /status counts', () => {
  it('counts sources by state with their errors, subscriptions, agents, targets, unacknowledged entries and timers', async () => {
    const { s, clock, sourceId, agentId, subscribe } = await setup();
    subscribe({});
    await s.inbox.streams.append(sourceId, [{ type: 'a' }, { type: 'b' }]);
    s.inbox.agents.create({ name: 'second' });
    await s.inbox.delivery.pause(agentId);
    s.inbox.timers.create({ agentId, at: new Date(clock.now() + 3600 * SECOND).toISOString(), message: 'later' });
    expect(s.inbox.status.view().counts).toEqual({
      // AgentInbox's counts
      sources: 1,
      agents: 2,
      offlineAgents: 2,
      subscriptions: 1,
      subscriptionLifecycleRetirements: 0,
      sourceIdleStates: 0,
      inboxes: 2,
      activationTargets: 0,
      offlineActivationTargets: 0,
      activationDispatchStates: 0,
      streamEvents: 2,
      consumers: 1,
      inboxItems: 2,
      pendingInboxItems: 2,
      activations: 0,
      deliveries: 0,
      // svc's
      sourceStates: { total: 1, active: 1, error: 0, paused: 0, autoPaused: 0 },
      sourceErrors: [],
      deliveryPausedAgents: 1,
      targets: { total: 0, active: 0, offline: 0 },
      notifications: { pending: 0 },
      entries: { unacked: 2 },
      timers: { active: 1 },
    });
    await s.inbox.entries.ack(agentId, { all: true });
    expect(s.inbox.status.view().counts).toMatchObject({ entries: { unacked: 0 }, pendingInboxItems: 0, inboxItems: 2 });
  });
});

describe('inbox watch', () => {
  it('sends the unacknowledged backlog (after the cursor when given) as one items frame, then live entries once each', async () => {
    const { s, agentId, sourceId, subscribe } = await setup();
    subscribe({});
    const e = [0, 1, 2, 3].map((i) => s.inbox.entries.create(agentId, { kind: 'direct', message: `m${i}` }));
    await s.inbox.entries.ack(agentId, { entryIds: [e[0]!.entryId] });

    const all = new FakeConnection();
    await s.inbox.watch.stream(all, agentId);
    expect(all.frames).toHaveLength(1);
    expect(all.frames[0]).toMatchObject({ id: e[3]!.entryId, event: 'items', data: { event: 'items', agentId } });
    expect(all.entries().map((x) => x.message)).toEqual(['m1', 'm2', 'm3']);
    expect(all.entries()[0]).toMatchObject({ entryId: e[1]!.entryId, kind: 'item', itemKind: 'direct', eventVariant: 'agentinbox.direct_text_message', rawPayload: { type: 'direct_text_message', message: 'm1' } });

    const resumed = new FakeConnection();
    await s.inbox.watch.stream(resumed, agentId, { after: e[2]!.entryId });
    expect(resumed.entries().map((x) => x.message)).toEqual(['m3']);

    const withAcked = new FakeConnection();
    await s.inbox.watch.stream(withAcked, agentId, { includeAcked: true });
    expect(withAcked.entries().map((x) => x.message)).toEqual(['m0', 'm1', 'm2', 'm3']);

    await s.inbox.streams.append(sourceId, [{ type: 'live' }, { type: 'live' }]);
    for (const conn of [all, resumed]) {
      const live = conn.frames.at(-1)!;
      expect(live.data.entries.map((x) => x.offset)).toEqual([1, 2]);
      expect(live).toMatchObject({ event: 'items', id: live.data.entries[1]!.entryId, data: { entries: [{ kind: 'item', itemKind: 'event', event: { type: 'live' } }, {}] } });
    }
    expect(all.frames).toHaveLength(2);
    expect(s.inbox.watch.watchers(agentId)).toBe(3);
    all.close();
    expect(s.inbox.watch.watchers(agentId)).toBe(2);
  });

  it('sends an empty first frame without an id when there is no backlog', async () => {
    const { s, agentId } = await setup();
    const conn = new FakeConnection();
    await s.inbox.watch.stream(conn, agentId);
    expect(conn.frames).toEqual([{ id: undefined, event: 'items', data: { event: 'items', agentId, entries: [] } }]);
  });

  it('closes the watch streams of a deleted agent', async () => {
    const { s, agentId } = await setup();
    const conn = new FakeConnection();
    await s.inbox.watch.stream(conn, agentId);
    s.inbox.agents.delete(agentId);
    expect(conn.closed).toBe(true);
    expect(s.inbox.watch.watchers(agentId)).toBe(0);
  });
});

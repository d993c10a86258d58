/**
 * The inbox agents' lifecycle (docs/inbox-api.md#agent-lifecycle), through the inbox routes
 * (inject) on an injected clock: housekeeping removes an agent offline and unseen past
 * `inbox.offline_agent_ttl_ms` (never one read by pull, watched, reachable, or named by
 * `policy.notify_inbox`); a read of an unknown id opens its inbox, as AgentInbox does; the webhook
 * activations sent stay in the status after their target is removed and go with their agent.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { inboxIdOf } from '../../src/inbox/entries/index.js';
import { COALESCE_MS } from '../../src/inbox/delivery/notifier.js';
import { inboxRoutes } from '../../src/http/surfaces.js';
import { loadConfig } from '../../src/config/load.js';
import { ManualClock } from '../../src/core/clock.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { createServices, stopServices } from '../../src/services.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { routeApp } from '../helpers/app.js';
import { tick } from '../helpers/inbox-delivery.js';
import { testServices, type TestServices } from '../helpers/services.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { FakeConnection } from '../helpers/watch-connection.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const DAY = 24 * 3600 * 1000;
const TTL = 7 * DAY;

let t: TestServices;
let app: FastifyInstance;
let rx: Receiver;
const closing: Array<() => Promise<void>> = [];

async function setup(configToml = ''): Promise<void> {
  t = testServices({ configToml });
  app = await routeApp(t.s, inboxRoutes(t.s));
  rx = await startReceiver();
  closing.push(() => app.close(), () => t.close(), () => rx.close());
}
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

async function call(method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const res = await app.inject({ method, url, ...(body === undefined ? {} : { payload: body as object }) });
  return { status: res.statusCode, json: res.json() };
}
async function ok(method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown): Promise<Json> {
  const r = await call(method, url, body);
  expect(r.status, JSON.stringify(r.json)).toBeLessThan(300);
  return r.json;
}
const gc = async () => ok('POST', '/gc', {});
const agentIds = async () => ((await ok('GET', '/agents')).agents as Array<{ agentId: string }>).map((a) => a.agentId).sort();
const webhook = (agentId: string) => t.s.inbox.targets.create(agentId, { kind: 'webhook', url: rx.url });

describe('offline agents', () => {
  it('removes an agent offline and unseen past the time to live, with what it owns; keeps one read by pull, one reachable and the one notify_inbox names', async () => {
    await setup('[policy]\nnotify_inbox = "approvals"\n');
    for (const id of ['gone', 'puller', 'reachable', 'approvals']) t.s.inbox.agents.ensure(id);
    const { host } = t.s.inbox.hosts.create({ hostType: 'local_event', hostKey: 'life' });
    const { source } = await t.s.inbox.sources.create({ hostId: host.hostId, streamKind: 'jobs', streamKey: 'ci' });
    const [sub] = t.s.inbox.subscriptions.create({ agentId: 'gone', sourceId: source.sourceId });
    await t.s.inbox.streams.append(source.sourceId, [{ type: 'a' }]);
    webhook('reachable');
    const target = webhook('gone');
    t.clock.advance(DAY);
    // Its last target goes: it is offline from now.
    await ok('DELETE', `/agents/gone/targets/${target.targetId}`);
    t.clock.advance(3 * DAY);
    expect((await ok('GET', '/agents/puller/inbox/items')).entries).toEqual([]);

    t.clock.advance(TTL - 3 * DAY - 1);
    expect(await gc()).toMatchObject({ removedAgents: 0, removed: { agentsRemoved: 0 } });
    expect(await agentIds()).toEqual(['approvals', 'gone', 'puller', 'reachable']);

    t.clock.advance(2);
    expect(await gc()).toMatchObject({ removedAgents: 1, removed: { agentsRemoved: 1 } });
    expect(await agentIds()).toEqual(['approvals', 'puller', 'reachable']);
    expect((await call('GET', '/agents/gone')).status).toBe(404);
    expect(t.s.inbox.subscriptions.list({ agentId: 'gone' })).toEqual([]);
    expect((await call('GET', `/subscriptions/${sub!.subscriptionId}`)).status).toBe(404);
    expect(t.s.store.db.prepare("SELECT count(*) FROM inbox_entries WHERE agent_id = 'gone'").pluck().get()).toBe(0);

    // The puller was last seen 3 days after the other lost its target.
    t.clock.advance(3 * DAY);
    expect(await gc()).toMatchObject({ removedAgents: 1 });
    expect(await agentIds()).toEqual(['approvals', 'reachable']);
    const status = await ok('GET', '/status');
    expect(status.lifecycle).toEqual({ offlineAgentTtlMs: TTL, gcIntervalMs: 60_000, lastOfflineAgentGcAt: new Date(t.clock.now()).toISOString() });
  });

  it('an agent whose targets all went offline goes a time to live after the last of them changed', async () => {
    await setup();
    t.s.inbox.agents.ensure('dead');
    const target = webhook('dead');
    t.clock.advance(DAY);
    t.s.store.tx(() => t.s.inbox.targets.markOffline(target.targetId, 'terminal gone'));
    t.clock.advance(TTL - 1);
    expect(await gc()).toMatchObject({ removedAgents: 0 });
    t.clock.advance(2);
    expect(await gc()).toMatchObject({ removedAgents: 1 });
    expect(await agentIds()).toEqual([]);
  });

  it('an acknowledgement and a watch keep the agent seen', async () => {
    await setup();
    t.s.inbox.agents.ensure('acker');
    t.s.inbox.agents.ensure('watcher');
    const conn = new FakeConnection();
    await t.s.inbox.watch.stream(conn, 'watcher', { heartbeatMs: 100 });
    t.clock.advance(TTL - DAY);
    await ok('POST', '/agents/acker/inbox/ack', { all: true });
    t.clock.advance(2 * DAY);
    // A heartbeat of the open watch marks its agent seen.
    const beats = conn.heartbeats;
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(conn.heartbeats).toBeGreaterThan(beats);
    expect(await gc()).toMatchObject({ removedAgents: 0 });
    conn.close();
    t.clock.advance(TTL - DAY + 1);
    expect(await gc()).toMatchObject({ removedAgents: 1 });
    expect(await agentIds()).toEqual(['watcher']);
    t.clock.advance(DAY);
    expect(await gc()).toMatchObject({ removedAgents: 1 });
  });

  it('offline_agent_ttl_ms = 0 removes no agent, and the status says so', async () => {
    await setup('[inbox]\noffline_agent_ttl_ms = 0\n');
    t.s.inbox.agents.ensure('idle');
    await ok('GET', '/agents/ghost/inbox/items');
    t.clock.advance(3650 * DAY);
    expect(await gc()).toMatchObject({ removedAgents: 0, removed: { agentsRemoved: 0, openedInboxesClosed: 0 } });
    const status = await ok('GET', '/status');
    expect(status.lifecycle).toEqual({ offlineAgentTtlMs: null, gcIntervalMs: 60_000, lastOfflineAgentGcAt: null });
    expect(status.counts).toMatchObject({ agents: 1, inboxes: 2 });
  });
});

describe('inboxes opened by a read', () => {
  it('a read of an unknown id answers empty and opens its inbox, as AgentInbox does; an agent registering with the id takes it over; unread, it closes', async () => {
    await setup();
    expect((await ok('GET', '/agents/nobody/inbox/items')).entries).toEqual([]);
    await ok('GET', '/agents/nobody/inbox/entries');
    let status = await ok('GET', '/status');
    expect(status.counts).toMatchObject({ agents: 0, inboxes: 1 });
    expect(status.inboxes).toEqual([{ inboxId: inboxIdOf('nobody'), ownerAgentId: 'nobody', aggregationEnabled: false, aggregationWindowMs: null, aggregationMaxItems: null, aggregationMaxThreadAgeMs: null, createdAt: new Date(t.clock.now()).toISOString() }]);
    // Still no agent.
    expect((await call('GET', '/agents/nobody')).status).toBe(404);
    expect(await agentIds()).toEqual([]);

    t.clock.advance(1000);
    t.s.inbox.agents.ensure('nobody');
    status = await ok('GET', '/status');
    expect(status.counts).toMatchObject({ agents: 1, inboxes: 1 });
    expect(status.inboxes).toEqual([expect.objectContaining({ ownerAgentId: 'nobody', createdAt: new Date(t.clock.now()).toISOString() })]);

    // An id outside the agent id pattern opens nothing, nor does a refused read or ack.
    await call('GET', `/agents/${encodeURIComponent('no body')}/inbox/items`);
    const refused = [
      await call('GET', '/agents/refused/inbox/items?after=bad'),
      await call('POST', '/agents/refused/inbox/ack', { entryIds: ['ent_01J00000000000000000000000'] }),
    ];
    expect(refused.map((r) => [r.status, r.json.code])).toEqual([
      [400, expect.any(String)],
      [404, 'entry_not_found'],
    ]);
    await ok('GET', '/agents/ghost/inbox/items');
    expect((await ok('GET', '/status')).inboxes.map((i: Json) => i.ownerAgentId)).toEqual(['nobody', 'ghost']);
    t.clock.advance(TTL + 1);
    expect((await gc()).removed).toMatchObject({ agentsRemoved: 1, openedInboxesClosed: 1 });
    expect((await ok('GET', '/status')).counts).toMatchObject({ agents: 0, inboxes: 0 });
  });
});

describe('activations', () => {
  it("the webhook activations sent stay in the status after their target is removed and go with their agent; every notification is in svc's recentNotifications", async () => {
    await setup();
    t.s.inbox.agents.ensure('hooked');
    const hook = webhook('hooked');
    const runtime = t.s.inbox.targets.create('hooked', { kind: 'runtime', runtimeAgentId: 'main' });
    await ok('POST', '/agents/hooked/inbox/items', { message: 'hello' });
    await tick(t, COALESCE_MS);
    expect(rx.received).toHaveLength(1);

    let status = await ok('GET', '/status');
    expect(status.counts.activations).toBe(1);
    expect(status.recentActivations).toEqual([rx.received[0]!.json]);
    expect(status.recentActivations[0]).toMatchObject({ kind: 'agentinbox.activation', agentId: 'hooked', targetId: hook.targetId, targetKind: 'webhook' });
    expect(status.recentNotifications.map((n: Json) => [n.targetKind, n.targetId, n.status]).sort()).toEqual(
      [
        ['runtime', runtime.targetId, 'sent'],
        ['webhook', hook.targetId, 'sent'],
      ].sort(),
    );

    await ok('DELETE', `/agents/hooked/targets/${hook.targetId}`);
    status = await ok('GET', '/status');
    expect(status.counts.activations).toBe(1);
    expect(status.recentActivations).toEqual([rx.received[0]!.json]);

    await ok('DELETE', '/agents/hooked');
    status = await ok('GET', '/status');
    expect([status.counts.activations, status.recentActivations, status.recentNotifications]).toEqual([0, [], []]);
  });
});

describe('the upgrade to the lifecycle (migration 036)', () => {
  it('counts the agents of an older database as seen at the upgrade, and keeps the kind of the notifications sent', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-m36-'));
    const db = new Database(path.join(home, 'svc.db'));
    for (const m of MIGRATIONS.filter((x) => x.version <= 35)) {
      db.exec(m.up);
      db.pragma(`user_version = ${m.version}`);
    }
    db.exec(`
      INSERT INTO inbox_agents (agent_id, name, delivery_paused, created_at) VALUES ('old', NULL, 0, '2020-01-01T00:00:00.000Z');
      INSERT INTO inbox_targets (target_id, agent_id, kind, config, status, created_ms, updated_ms) VALUES ('tgt_1', 'old', 'webhook', '{}', 'offline', 0, 0);
      INSERT INTO inbox_notifications (notification_id, target_id, agent_id, reason, entry_count, first_entry_id, last_entry_id, payload, status, next_attempt_ms, created_ms, updated_ms, sent_ms)
        VALUES ('ntf_1', 'tgt_1', 'old', 'entries', 1, 'ent_1', 'ent_1', '{}', 'sent', 0, 0, 0, 0);
    `);
    db.close();
    const before = Date.now();
    const clock = new ManualClock(before);
    const s = createServices(loadConfig({ home }, {}), clock, createLogger('silent'));
    try {
      expect(s.store.db.prepare("SELECT target_kind FROM inbox_notifications WHERE notification_id = 'ntf_1'").pluck().get()).toBe('webhook');
      const seen = s.store.db.prepare("SELECT last_seen_ms FROM inbox_agents WHERE agent_id = 'old'").pluck().get() as number;
      expect(seen).toBeGreaterThanOrEqual(before - 1000);
      expect(seen).toBeLessThanOrEqual(Date.now() + 1000);
      // Offline since 1970 by its target, created in 2020: it still has its full time to live.
      expect(s.inbox.gc().removed.agentsRemoved).toBe(0);
      clock.advance(TTL + 2000);
      expect(s.inbox.gc().removed.agentsRemoved).toBe(1);
    } finally {
      await stopServices(s);
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});

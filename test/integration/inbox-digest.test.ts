/**
 * Aggregation policies and digests against the real daemon over its Unix socket. The daemon runs
 * in this process (startDaemon, real listeners, real socket) with a ManualClock, so periods pass
 * without waiting: the test moves the clock and asks the digest schedule and the notifier to run
 * what is due, as their real timeouts would. Webhook targets on a real loopback receiver.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { startDaemon, type Daemon } from '../../src/daemon.js';
import { request, tempHome } from '../helpers/daemon.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const MINUTE = 60_000;
const CONFIG = '[delivery]\nretry_initial_ms = 1000\nretry_max_ms = 8000\nmax_failures = 5\n';

let rx: Receiver;
let home: string;
let clock: ManualClock;
let d: Daemon;

const quiet = () => new Writable({ write: (_chunk, _enc, done) => done() });
const start = () => startDaemon({ flags: { home, listen: '127.0.0.1:0' }, env: {}, clock, logDestination: quiet() });

beforeAll(async () => {
  rx = await startReceiver();
  home = tempHome('svc-digest-');
  fs.writeFileSync(path.join(home, 'config.toml'), CONFIG);
  clock = new ManualClock(Date.parse('2030-06-03T08:00:00Z'));
  d = await start();
});
afterEach(() => {
  rx.received.length = 0;
});
afterAll(async () => {
  await d.close();
  await rx.close();
  fs.rmSync(home, { recursive: true, force: true });
});

const api = (method: string, url: string, body?: unknown) => request({ socketPath: d.socketPath }, method, url, body === undefined ? {} : { body });

/** Move the clock, then run what is due: digests, coalescing windows, delivery attempts. */
async function advance(ms: number): Promise<void> {
  clock.advance(ms);
  d.services.inbox.digests.runDue();
  await d.services.inbox.notifier.runDue();
  await d.services.inbox.notifier.idle();
}

const got = (name: string) => rx.received.filter((r) => r.url.endsWith(`?t=${name}`));

/** An agent registered AgentInbox's way with a webhook target and a digest policy every minute. */
async function digestAgent(name: string, maxEntries = 2): Promise<{ agentId: string; targetId: string }> {
  const res = await api('POST', '/agents', { agentId: `digest-${name}`, webhook: { url: `${rx.url}?t=${name}` }, aggregation: { mode: 'digest', every: MINUTE, timezone: 'UTC', maxEntries } });
  expect(res.status, res.text).toBe(201);
  rx.setSecret(res.json.webhookTarget.secret);
  return { agentId: res.json.agentId, targetId: res.json.webhookTarget.targetId };
}

const item = (agentId: string, message: string) => api('POST', `/agents/${agentId}/inbox/items`, { message });

describe('digest policy over the socket', () => {
  it('should send one signed digest per period instead of a notification per entry, and leave the entries readable and ackable', async () => {
    const { agentId, targetId } = await digestAgent('basic');
    for (const m of ['one', 'two', 'three']) expect((await item(agentId, m)).status).toBe(201);
    await advance(1000);
    await advance(MINUTE - 1001);
    expect(got('basic')).toHaveLength(0);
    await advance(1);
    expect(got('basic')).toHaveLength(1);
    const digest = got('basic')[0]!;
    expect(digest.signatureValid).toBe(true);
    expect(digest.json).toMatchObject({
      type: 'inbox.digest',
      agentId,
      targetId,
      reason: 'digest',
      entryCount: 3,
      sources: [{ kind: 'direct', sourceId: null, count: 3 }],
      truncated: true,
    });
    expect(digest.json.entries.map((e: { message: string }) => e.message)).toEqual(['one', 'two']);

    const policy = await api('GET', `/agents/${agentId}/inbox/policy`);
    expect(policy.json.targets).toEqual([
      expect.objectContaining({ targetId, effective: expect.objectContaining({ mode: 'digest', every: MINUTE }), digest: { nextDigestAt: new Date(clock.now() + MINUTE).toISOString(), lastDigestAt: new Date(clock.now()).toISOString(), digestCount: 1 } }),
    ]);
    expect((await api('GET', `/agents/${agentId}/inbox`)).json.unackedCount).toBe(3);
    expect((await api('POST', `/agents/${agentId}/inbox/ack`, { all: true })).json.acked).toBe(3);
    await advance(MINUTE);
    expect(got('basic')).toHaveLength(1);
    await item(agentId, 'four');
    await advance(MINUTE);
    expect(got('basic').map((r) => r.json.entryCount)).toEqual([3, 1]);
  });

  it('should hold digests while paused and catch up once on resume {deliveryOnly:true}', async () => {
    const { agentId } = await digestAgent('pause');
    expect((await api('POST', `/agents/${agentId}/pause`)).json.deliveryPaused).toBe(true);
    await item(agentId, 'held');
    await advance(3 * MINUTE);
    expect(got('pause')).toHaveLength(0);
    const resumed = await api('POST', `/agents/${agentId}/resume`, { deliveryOnly: true });
    expect(resumed.json).toMatchObject({ deliveryPaused: false, catchUp: [expect.objectContaining({ reason: 'catch_up', entryCount: 1 })] });
    await advance(0);
    expect(got('pause').map((r) => [r.json.type, r.json.reason])).toEqual([['inbox.digest', 'catch_up']]);
    expect((await api('POST', `/agents/${agentId}/resume`, { deliveryOnly: true })).json.catchUp).toEqual([]);
    await advance(MINUTE);
    expect(got('pause')).toHaveLength(1);
  });

  it('should refuse a bad policy with a 400 envelope and keep the one in force', async () => {
    const { agentId } = await digestAgent('bad');
    const before = (await api('GET', `/agents/${agentId}/inbox/policy`)).json;
    const cases: Array<[string, string, unknown, string]> = [
      ['PATCH', `/agents/${agentId}`, { aggregation: { mode: 'digest', cron: '0 25 * * *' } }, 'invalid_cron'],
      ['PATCH', `/agents/${agentId}`, { aggregation: { mode: 'digest', cron: '0 9 * * *', timezone: 'Europe/Nowhere' } }, 'invalid_timezone'],
      ['PATCH', `/agents/${agentId}`, { aggregation: { mode: 'coalesce', windowMs: 3_600_001 } }, 'invalid_request'],
      ['PATCH', `/agents/${agentId}`, { aggregation: { mode: 'digest', every: 1000 } }, 'invalid_request'],
      ['POST', `/agents/${agentId}/inbox/policy`, { windowMs: -1 }, 'invalid_request'],
    ];
    for (const [method, url, body, code] of cases) {
      const res = await api(method, url, body);
      expect({ body, status: res.status, code: res.json?.code, ok: res.json?.ok }).toEqual({ body, status: 400, code, ok: false });
    }
    const bad = await request({ socketPath: d.socketPath }, 'PATCH', `/agents/${agentId}`, { raw: '{"aggregation":', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe('invalid_json');
    expect((await api('GET', `/agents/${agentId}/inbox/policy`)).json).toEqual(before);
  });

  it("should switch to coalescing and back to immediate through inbox/policy {aggregation}; AgentInbox's inbox policy fields leave notifications alone", async () => {
    const { agentId } = await digestAgent('switch');
    await item(agentId, 'waiting for the digest');
    const inboxPolicy = await api('POST', `/agents/${agentId}/inbox/policy`, { enabled: true, windowMs: 2000, maxItems: 10 });
    expect(inboxPolicy.json).toMatchObject({ enabled: true, windowMs: 2000, maxItems: 10, aggregation: { mode: 'digest' } });
    const set = await api('POST', `/agents/${agentId}/inbox/policy`, { aggregation: { mode: 'coalesce', windowMs: 2000, maxEntries: 10 } });
    expect(set.json).toMatchObject({ enabled: true, windowMs: 2000, maxItems: 10, aggregation: { mode: 'coalesce', windowMs: 2000, maxEntries: 10 } });
    await advance(1999);
    expect(got('switch')).toHaveLength(0);
    await advance(1);
    expect(got('switch').map((r) => [r.json.type, r.json.entryCount])).toEqual([['inbox.entries', 1]]);
    expect((await api('POST', `/agents/${agentId}/inbox/policy`, { aggregation: { mode: 'immediate' } })).json.aggregation).toEqual({ mode: 'immediate' });
    // Acknowledged: the notify lease ends, so the next item is notified at once.
    expect((await api('POST', `/agents/${agentId}/inbox/ack`, { all: true })).status).toBe(200);
    await item(agentId, 'now');
    await advance(0);
    expect(got('switch')).toHaveLength(2);
  });

  it('should send a digest that came due while the daemon was down once at start', async () => {
    const { agentId, targetId } = await digestAgent('restart', 10);
    await item(agentId, 'before the stop');
    await d.close();
    // Down for ten periods.
    clock.advance(10 * MINUTE + 30_000);
    d = await start();
    // Queued by the start itself, before anything here ran the schedule.
    expect(d.services.inbox.digests.scheduleOf(targetId)).toMatchObject({ digestCount: 1 });
    await advance(0);
    expect(got('restart').map((r) => [r.json.reason, r.json.entryCount])).toEqual([['digest', 1]]);
    const policy = await api('GET', `/agents/${agentId}/inbox/policy`);
    expect(policy.json.targets[0].digest).toMatchObject({ digestCount: 1, nextDigestAt: new Date(clock.now() + 30_000).toISOString() });
    await advance(30_000);
    expect(got('restart')).toHaveLength(1);
  });
});

/**
 * Webhook notifications: coalescing, Standard Webhooks signatures, retries with backoff and
 * Retry-After, offline after 410 and after delivery.max_failures, durability across restart.
 * In-process services with a ManualClock; a real HTTP receiver on loopback.
 */
import { describe, expect, it } from 'vitest';
import { COALESCE_MS } from '../../src/inbox/delivery/notifier.js';
import { backoffDelay } from '../../src/inbox/delivery/attempts.js';
import { parseRetryAfter, signWebhook } from '../../src/inbox/delivery/webhook.js';
import { restartServices, servicesWithReceiver, tick as tickAll } from '../helpers/inbox-delivery.js';
import { waitFor } from '../helpers/daemon.js';
import { testServices, type TestServices } from '../helpers/services.js';
import { verifySignature, type Receiver } from '../helpers/webhook-receiver.js';

const CONFIG = `
[delivery]
timeout_ms = 2000
retry_initial_ms = 1000
retry_max_ms = 8000
max_failures = 3
`;

let t: TestServices;
let rx: Receiver;
servicesWithReceiver(CONFIG, (nt, nrx) => ((t = nt), (rx = nrx)), () => ({ t, rx }));

function setup() {
  const agent = t.s.inbox.agents.create({ name: 'a' });
  const target = t.s.inbox.targets.create(agent.agentId, { kind: 'webhook', url: rx.url });
  rx.setSecret(target.secret!);
  return { agentId: agent.agentId, target };
}

const direct = (agentId: string, message: string) => t.s.inbox.entries.create(agentId, { kind: 'direct', message });

const tick = (ms: number) => tickAll(t, ms);

describe('webhook targets', () => {
  it('should return the generated secret once and never list it', () => {
    const { agentId, target } = setup();
    expect(target.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const listed = t.s.inbox.targets.list(agentId);
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(target.secret!.slice(6));
    expect(listed[0]).not.toHaveProperty('secret');
  });

  it('should coalesce a burst of entries into one signed notification', async () => {
    const { agentId, target } = setup();
    const ids = [direct(agentId, 'one'), direct(agentId, 'two'), direct(agentId, 'three')].map((e) => e.entryId);
    await tick(COALESCE_MS - 1);
    expect(rx.received).toHaveLength(0);
    await tick(1);
    expect(rx.received).toHaveLength(1);
    const req = rx.received[0]!;
    expect(req.signatureValid).toBe(true);
    expect(req.headers['webhook-id']).toMatch(/^ntf_/);
    expect(req.headers['webhook-timestamp']).toBe(String(Math.floor(t.clock.now() / 1000)));
    expect(req.json).toMatchObject({ type: 'inbox.entries', agentId, targetId: target.targetId, reason: 'entries', entryCount: 3, truncated: false });
    expect(req.json.entries.map((e: { entryId: string }) => e.entryId)).toEqual(ids);
    // Nothing more goes out for the same entries.
    await tick(60_000);
    expect(rx.received).toHaveLength(1);
    expect(t.s.inbox.targets.get(agentId, target.targetId).notifiedThroughEntryId).toBe(ids[2]);
  });

  it('should record one inbox.delivery span per attempt, with ids and kinds but never the URL or secret', async () => {
    const { agentId, target } = setup();
    direct(agentId, 'traced');
    await tick(COALESCE_MS);
    expect(rx.received).toHaveLength(1);
    const spans = t.s.tracer.recent().flatMap((s) => t.s.tracer.get(s.trace_id)?.spans ?? []).filter((sp) => sp.name === 'inbox.delivery');
    expect(spans).toHaveLength(1);
    expect(spans[0]).toMatchObject({ status: 'ok', attributes: { 'svc.inbox.target_id': target.targetId, 'svc.inbox.target_kind': 'webhook', 'svc.inbox.attempt': 1 } });
    expect(JSON.stringify(spans)).not.toContain(rx.url);
    expect(JSON.stringify(spans)).not.toContain(target.secret!.slice(6));
  });

  it('should sign exactly as the Standard Webhooks reference does', () => {
    // Test vector from the Standard Webhooks specification repository.
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"test": 2432232314}';
    expect(signWebhook(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    expect(verifySignature(secret, { 'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek', 'webhook-timestamp': '1614265330', 'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=' }, body)).toBe(true);
  });

  it('should not notify entries that are already acknowledged when the window closes', async () => {
    const { agentId } = setup();
    direct(agentId, 'seen');
    await t.s.inbox.entries.ack(agentId, { all: true });
    await tick(COALESCE_MS);
    expect(rx.received).toHaveLength(0);
  });

  it('should retry with exponential backoff and keep the same webhook-id', async () => {
    const { agentId, target } = setup();
    rx.answer({ status: 500 }, { status: 502 });
    direct(agentId, 'x');
    await tick(COALESCE_MS);
    expect(rx.received).toHaveLength(1);
    // First retry: drawn from [500, 1000] ms after the failure.
    await tick(499);
    expect(rx.received).toHaveLength(1);
    await tick(501);
    expect(rx.received).toHaveLength(2);
    // Second retry: from [1000, 2000] ms.
    await tick(999);
    expect(rx.received).toHaveLength(2);
    await tick(1001);
    expect(rx.received).toHaveLength(3);
    const ids = new Set(rx.received.map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1);
    expect(rx.received.every((r) => r.signatureValid)).toBe(true);
    const after = t.s.inbox.targets.get(agentId, target.targetId);
    expect(after).toMatchObject({ status: 'active', consecutiveFailures: 0, lastError: null });
    expect(t.s.inbox.notifier.notificationsOf(target.targetId)).toEqual([expect.objectContaining({ status: 'sent', attempts: 3 })]);
  });

  it('should honour Retry-After over the backoff', async () => {
    const { agentId } = setup();
    rx.answer({ status: 503, headers: { 'retry-after': '5' } });
    direct(agentId, 'x');
    await tick(COALESCE_MS);
    expect(rx.received).toHaveLength(1);
    await tick(4999);
    expect(rx.received).toHaveLength(1);
    await tick(1);
    expect(rx.received).toHaveLength(2);
  });

  it('should take the target offline on 410 and make no more attempts until resumed', async () => {
    const { agentId, target } = setup();
    rx.answer({ status: 410 });
    direct(agentId, 'x');
    await tick(COALESCE_MS);
    expect(t.s.inbox.targets.get(agentId, target.targetId)).toMatchObject({ status: 'offline', offlineReason: 'gone' });
    direct(agentId, 'y');
    await tick(3_600_000);
    expect(rx.received).toHaveLength(1);
    const resumed = await t.s.inbox.delivery.resumeTarget(agentId, target.targetId);
    expect(resumed).toMatchObject({ status: 'active', recovered: true, consecutiveFailures: 0 });
    // The held row, then one catch-up for the entry that arrived while offline.
    expect(resumed.catchUp).toEqual([expect.objectContaining({ reason: 'catch_up', entryCount: 1 })]);
    await tick(0);
    await tick(0);
    expect(rx.received).toHaveLength(3);
    expect(rx.received[1]!.json.entries[0].message).toBe('x');
    expect(rx.received[2]!.json).toMatchObject({ reason: 'catch_up', entryCount: 1 });
    expect(rx.received[2]!.json.entries[0].message).toBe('y');
  });

  it('should take the target offline after delivery.max_failures consecutive failures', async () => {
    const { agentId, target } = setup();
    rx.answer({ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
    direct(agentId, 'x');
    await tick(COALESCE_MS);
    await tick(1000);
    expect(t.s.inbox.targets.get(agentId, target.targetId).status).toBe('active');
    await tick(2000);
    expect(rx.received).toHaveLength(3);
    expect(t.s.inbox.targets.get(agentId, target.targetId)).toMatchObject({ status: 'offline', offlineReason: 'max_failures', consecutiveFailures: 3 });
    await tick(3_600_000);
    expect(rx.received).toHaveLength(3);
  });

  it('should count a timeout as a failed attempt', async () => {
    t = (await t.close(), testServices({ configToml: CONFIG.replace('timeout_ms = 2000', 'timeout_ms = 100') }));
    const { agentId, target } = setup();
    rx.answer({ status: 200, delayMs: 1000 });
    direct(agentId, 'x');
    await tick(COALESCE_MS);
    expect(t.s.inbox.targets.get(agentId, target.targetId)).toMatchObject({ consecutiveFailures: 1, lastError: 'timed out after 100 ms' });
  });

  it('should end an attempt under way at shutdown instead of waiting for its timeout', async () => {
    const { agentId, target } = setup();
    rx.answer({ status: 200, delayMs: 1500 });
    direct(agentId, 'x');
    t.clock.advance(COALESCE_MS);
    void t.s.inbox.notifier.runDue();
    // The request is out (a loaded machine may take a while): its answer is held back 1.5 s.
    await waitFor(() => rx.received.length === 1, 1000);
    const started = Date.now();
    await t.s.inbox.notifier.stop();
    expect(Date.now() - started).toBeLessThan(1000);
    // Not delivered: it stays pending and goes out again after a restart.
    expect(t.s.inbox.notifier.notificationsOf(target.targetId)).toEqual([expect.objectContaining({ status: 'pending', attempts: 1 })]);
  });

  it('should keep a pending retry across a restart', async () => {
    const { agentId, target } = setup();
    rx.answer({ status: 500 });
    direct(agentId, 'x');
    await tick(COALESCE_MS);
    expect(rx.received).toHaveLength(1);
    const s = (t = await restartServices(t)).s;
    await s.inbox.notifier.idle();
    expect(rx.received).toHaveLength(1);
    await tick(1000);
    expect(rx.received).toHaveLength(2);
    expect(rx.received[1]!.headers['webhook-id']).toBe(rx.received[0]!.headers['webhook-id']);
    expect(s.inbox.targets.get(agentId, target.targetId).consecutiveFailures).toBe(0);
  });

  it('should notify entries whose window was open when the daemon stopped', async () => {
    const { agentId } = setup();
    direct(agentId, 'x');
    const s = (t = await restartServices(t)).s;
    await s.inbox.notifier.idle();
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0]!.json.entries[0].message).toBe('x');
  });
});

describe('backoff and Retry-After', () => {
  it('should double per failure up to the cap, with jitter in [d/2, d]', () => {
    expect(backoffDelay(1, 1000, 8000, () => 0)).toBe(500);
    expect(backoffDelay(1, 1000, 8000, () => 0.999999)).toBe(1000);
    expect(backoffDelay(3, 1000, 8000, () => 0.999999)).toBe(4000);
    expect(backoffDelay(10, 1000, 8000, () => 0.999999)).toBe(8000);
    expect(backoffDelay(500, 1000, 8000, () => 0.5)).toBe(6000);
  });

  it('should read delay-seconds and HTTP dates', () => {
    const now = Date.UTC(2030, 0, 1);
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter(new Date(now + 30_000).toUTCString(), now)).toBe(30_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});

/**
 * The agent delivery pause, row by row of spec/inbox.md "States and transitions" (agent delivery,
 * agent delivery paused, agent, target), counting notifications exactly. In-process services
 * with a ManualClock; webhook targets on a real loopback receiver.
 */
import { describe, expect, it } from 'vitest';
import { COALESCE_MS } from '../../src/inbox/delivery/notifier.js';
import { MAX_COVERED, MAX_LISTED } from '../../src/inbox/delivery/notifications.js';
import { restartServices, servicesWithReceiver, tick as tickAll } from '../helpers/inbox-delivery.js';
import type { TestServices } from '../helpers/services.js';
import type { Receiver } from '../helpers/webhook-receiver.js';

const CONFIG = `
[delivery]
retry_initial_ms = 1000
retry_max_ms = 8000
max_failures = 2
`;

let t: TestServices;
let rx: Receiver;
servicesWithReceiver(CONFIG, (nt, nrx) => ((t = nt), (rx = nrx)), () => ({ t, rx }));

const inbox = () => t.s.inbox;
const direct = (agentId: string, message: string) => inbox().entries.create(agentId, { kind: 'direct', message });
/** Requests received for target `name` (its URL carries ?t=name). */
const got = (name: string) => rx.received.filter((r) => r.url.endsWith(`?t=${name}`));

const tick = (ms: number) => tickAll(t, ms);

function setup(targetNames: string[] = ['a']) {
  const { agentId } = inbox().agents.create({});
  const targets = Object.fromEntries(
    targetNames.map((name) => [name, inbox().targets.create(agentId, { kind: 'webhook', url: `${rx.url}?t=${name}` }).targetId]),
  );
  return { agentId, targets };
}

/** Take target `name` offline with a 410. */
async function goOffline(agentId: string, name: string) {
  rx.answer({ status: 410 });
  direct(agentId, `to take ${name} offline`);
  await tick(COALESCE_MS);
}

const restart = async () => {
  t = await restartServices(t);
};

describe('POST /agents/{id}/pause', () => {
  it('should gate new-entry notifications while entries keep arriving and stay readable', async () => {
    const { agentId } = setup();
    const paused = await inbox().delivery.pause(agentId);
    expect(paused.deliveryPaused).toBe(true);
    direct(agentId, 'one');
    direct(agentId, 'two');
    await tick(COALESCE_MS);
    await tick(3_600_000);
    expect(rx.received).toHaveLength(0);
    expect(inbox().entries.summary(agentId)).toMatchObject({ unackedCount: 2, deliveryPaused: true });
  });

  it('should gate retries of a notification that failed before the pause', async () => {
    const { agentId } = setup();
    rx.answer({ status: 500 });
    direct(agentId, 'x');
    await tick(COALESCE_MS);
    expect(rx.received).toHaveLength(1);
    await inbox().delivery.pause(agentId);
    await tick(3_600_000);
    expect(rx.received).toHaveLength(1);
  });

  it('should gate timer notifications while the timer entries are still created', async () => {
    const { agentId } = setup();
    await inbox().delivery.pause(agentId);
    inbox().timers.create({ agentId, every: 1000, message: 'tick', timezone: 'UTC' });
    t.clock.advance(1000);
    expect(inbox().timers.runDue()).toBe(1);
    await tick(COALESCE_MS);
    expect(rx.received).toHaveLength(0);
    expect(inbox().entries.summary(agentId).unackedCount).toBe(1);
  });

  it('should persist the pause across a restart', async () => {
    const { agentId } = setup();
    await inbox().delivery.pause(agentId);
    direct(agentId, 'x');
    await restart();
    await inbox().notifier.idle();
    await tick(COALESCE_MS);
    expect(inbox().agents.get(agentId).deliveryPaused).toBe(true);
    expect(rx.received).toHaveLength(0);
  });
});

describe('POST /agents/{id}/resume {deliveryOnly: true}', () => {
  it('should catch up exactly once per active target from unacknowledged entries, creating no entries', async () => {
    const { agentId, targets } = setup(['a', 'b']);
    await inbox().delivery.pause(agentId);
    direct(agentId, 'one');
    direct(agentId, 'two');
    const acked = direct(agentId, 'acked');
    await inbox().entries.ack(agentId, { entryIds: [acked.entryId] });
    direct(agentId, 'three');
    await tick(COALESCE_MS);
    const before = inbox().entries.summary(agentId);
    const res = await inbox().delivery.resume(agentId, { deliveryOnly: true });
    expect(res.deliveryPaused).toBe(false);
    expect(res.recoveredTargets).toEqual([]);
    expect(res.catchUp.map((c) => [c.targetId, c.reason, c.entryCount]).sort()).toEqual(
      [
        [targets.a, 'catch_up', 3],
        [targets.b, 'catch_up', 3],
      ].sort(),
    );
    await tick(0);
    expect(got('a')).toHaveLength(1);
    expect(got('b')).toHaveLength(1);
    expect(got('a')[0]!.json.entries.map((e: { message: string }) => e.message)).toEqual(['one', 'two', 'three']);
    expect(inbox().entries.summary(agentId)).toEqual({ ...before, deliveryPaused: false });
    // Repeated: nothing already notified is replayed.
    const again = await inbox().delivery.resume(agentId, { deliveryOnly: true });
    expect(again.catchUp).toEqual([]);
    await tick(3_600_000);
    // Only the notify lease's reminders come after it (the entries are still unacknowledged).
    expect(rx.received.filter((r) => r.json.reason !== 'reminder')).toHaveLength(2);
  });

  it('should split a backlog larger than MAX_COVERED entries into bounded notifications', async () => {
    const { agentId } = setup();
    await inbox().delivery.pause(agentId);
    t.s.store.tx(() => {
      for (let i = 0; i <= MAX_COVERED; i++) direct(agentId, `m${i}`);
    });
    const res = await inbox().delivery.resume(agentId, { deliveryOnly: true });
    expect(res.catchUp.map((c) => c.entryCount)).toEqual([MAX_COVERED, 1]);
    await tick(0);
    await tick(0);
    expect(rx.received.map((r) => [r.json.entryCount, r.json.entries.length, r.json.truncated])).toEqual([
      [MAX_COVERED, MAX_LISTED, true],
      [1, 1, false],
    ]);
  });

  it('should persist the catch-up with the cleared flag in one transaction', async () => {
    const { agentId, targets } = setup();
    await inbox().delivery.pause(agentId);
    direct(agentId, 'one');
    // Stop before any attempt: the catch-up row is durable and goes out after a restart.
    const res = await inbox().delivery.resume(agentId, { deliveryOnly: true });
    expect(res.catchUp).toHaveLength(1);
    expect(inbox().notifier.notificationsOf(targets.a!)).toEqual([expect.objectContaining({ status: 'pending', reason: 'catch_up', entryCount: 1 })]);
  });

  it('should keep offline targets offline and not catch them up', async () => {
    const { agentId, targets } = setup(['a', 'b']);
    await goOffline(agentId, 'a'); // whichever target is asked first gets the 410
    const offline = inbox().targets.list(agentId).filter((x) => x.status === 'offline').map((x) => x.targetId);
    expect(offline).toHaveLength(1);
    const online = Object.values(targets).find((id) => !offline.includes(id))!;
    await inbox().delivery.pause(agentId);
    direct(agentId, 'while paused');
    const received = rx.received.length;
    const res = await inbox().delivery.resume(agentId, { deliveryOnly: true });
    expect(res.catchUp.map((c) => c.targetId)).toEqual([online]);
    expect(inbox().targets.get(agentId, offline[0]!).status).toBe('offline');
    await tick(0);
    await tick(3_600_000);
    // The catch-up, then only the notify lease's reminders, all to the online target.
    const after = rx.received.slice(received);
    expect(after.filter((r) => r.json.reason !== 'reminder')).toHaveLength(1);
    expect(new Set(after.map((r) => r.json.targetId))).toEqual(new Set([online]));
  });

  it('should preserve the retry backoff of a pending notification', async () => {
    const { agentId } = setup();
    rx.answer({ status: 503, headers: { 'retry-after': '6' } });
    direct(agentId, 'first');
    await tick(COALESCE_MS);
    expect(rx.received).toHaveLength(1);
    await inbox().delivery.pause(agentId);
    direct(agentId, 'second');
    const res = await inbox().delivery.resume(agentId, { deliveryOnly: true });
    expect(res.catchUp).toHaveLength(1);
    await tick(5999);
    expect(rx.received).toHaveLength(1); // the head row still waits out its Retry-After
    await tick(1);
    expect(rx.received).toHaveLength(2);
    expect(rx.received[1]!.json.entries[0].message).toBe('first');
    await tick(0);
    expect(rx.received).toHaveLength(3);
    expect(rx.received[2]!.json).toMatchObject({ reason: 'catch_up', entryCount: 1 });
  });

  it('should retry due pending work on a repeated call without replaying delivered backlog', async () => {
    const { agentId } = setup();
    direct(agentId, 'delivered');
    await tick(COALESCE_MS);
    expect(rx.received).toHaveLength(1);
    await inbox().delivery.pause(agentId);
    rx.answer({ status: 500 });
    direct(agentId, 'held');
    await inbox().delivery.resume(agentId, { deliveryOnly: true });
    await tick(0);
    expect(rx.received).toHaveLength(2); // the catch-up failed
    await tick(1000); // due now
    await inbox().delivery.pause(agentId);
    await inbox().delivery.resume(agentId, { deliveryOnly: true });
    await tick(0);
    expect(rx.received).toHaveLength(3);
    expect(rx.received.slice(1).map((r) => r.json.entries.map((e: { message: string }) => e.message))).toEqual([['held'], ['held']]);
  });
});

describe('POST /agents/{id}/resume {} (deliveryOnly false)', () => {
  it('should recover all offline targets and clear the pause', async () => {
    const { agentId } = setup(['a']);
    await goOffline(agentId, 'a');
    await inbox().delivery.pause(agentId);
    direct(agentId, 'while paused');
    const res = await inbox().delivery.resume(agentId, {});
    expect(res.deliveryPaused).toBe(false);
    expect(res.recoveredTargets).toHaveLength(1);
    expect(inbox().targets.list(agentId)[0]).toMatchObject({ status: 'active', consecutiveFailures: 0 });
    await tick(0);
    await tick(0);
    // The held notification (due at once after recovery), then the catch-up.
    expect(rx.received.map((r) => r.json.reason)).toEqual(['entries', 'entries', 'catch_up']);
  });

  it('should recover offline targets of an agent that was never paused', async () => {
    const { agentId } = setup(['a']);
    await goOffline(agentId, 'a');
    const res = await inbox().delivery.resume(agentId);
    expect(res.recoveredTargets).toHaveLength(1);
    expect(res.deliveryPaused).toBe(false);
  });
});

describe('POST /agents/{id}/targets/{id}/resume', () => {
  it('should recover only that target and never clear the agent pause', async () => {
    const { agentId, targets } = setup(['a', 'b']);
    rx.answer({ status: 410 }, { status: 410 });
    direct(agentId, 'x');
    await tick(COALESCE_MS);
    expect(inbox().targets.list(agentId).map((x) => x.status)).toEqual(['offline', 'offline']);
    await inbox().delivery.pause(agentId);
    const res = await inbox().delivery.resumeTarget(agentId, targets.a!);
    expect(res).toMatchObject({ status: 'active', recovered: true, catchUp: [] });
    expect(inbox().targets.get(agentId, targets.b!).status).toBe('offline');
    expect(inbox().agents.get(agentId).deliveryPaused).toBe(true);
    await tick(3_600_000);
    expect(rx.received).toHaveLength(2);
  });
});

describe('concurrent resumes', () => {
  it('should serialise resumes of different scopes so target recovery is not lost', async () => {
    const { agentId } = setup(['a']);
    await goOffline(agentId, 'a');
    await inbox().delivery.pause(agentId);
    const results = await Promise.all([
      inbox().delivery.resume(agentId, { deliveryOnly: true }),
      inbox().delivery.resume(agentId, {}),
      inbox().delivery.resume(agentId, { deliveryOnly: true }),
    ]);
    expect(results.map((r) => r.recoveredTargets.length)).toEqual([0, 1, 0]);
    expect(inbox().targets.list(agentId)[0]!.status).toBe('active');
    expect(inbox().agents.get(agentId).deliveryPaused).toBe(false);
  });
});

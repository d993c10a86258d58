/**
 * AgentInbox's notify lease (lease.ts; docs/inbox-api.md#notify-lease): a notified webhook target is
 * not notified again until its agent acknowledges or the lease ends; what waits makes its dispatch
 * state dirty; an ack that leaves entries notifies what waited at once, one that leaves none ends
 * the state; an unacknowledged lease end reminds a webhook and only extends a terminal's lease; the
 * lease survives a restart; `delivery.notify_lease_ms = 0` notifies every batch. In-process services
 * with a ManualClock and a real webhook receiver.
 */
import { describe, expect, it } from 'vitest';
import { COALESCE_MS } from '../../src/inbox/delivery/notifier.js';
import { restartServices, servicesWithReceiver, tick as tickAll } from '../helpers/inbox-delivery.js';
import { testServices, type TestServices } from '../helpers/services.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

let t: TestServices;
let rx: Receiver;
servicesWithReceiver('', (nt, nrx) => ((t = nt), (rx = nrx)), () => ({ t, rx }));

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const LEASE_MS = 600_000;
const inbox = () => t.s.inbox;
const tick = (ms: number) => tickAll(t, ms);
const bodies = () => rx.received.map((r) => r.json as Json);
const direct = (agentId: string, message: string) => inbox().entries.create(agentId, { kind: 'direct', message, sender: 'ops' });
const states = (agentId: string) => inbox().agentViews.details(agentId).activationDispatchStates;

function agentWithWebhook() {
  const { agentId } = inbox().agents.create({});
  const { targetId } = inbox().targets.create(agentId, { kind: 'webhook', url: rx.url });
  return { agentId, targetId };
}

describe('notify lease', () => {
  it('holds a notified target: what arrives waits (dirty) until an ack that leaves entries notifies it at once', async () => {
    const { agentId, targetId } = agentWithWebhook();
    expect(states(agentId)).toEqual([]);
    const first = direct(agentId, 'one');
    await tick(COALESCE_MS);
    expect(bodies().map((b) => b.entries.map((e: Json) => e.message))).toEqual([['one']]);
    const notifiedAt = t.clock.now();
    expect(states(agentId)).toEqual([
      expect.objectContaining({ targetId, status: 'notified', leaseExpiresAt: new Date(notifiedAt + LEASE_MS).toISOString(), pendingNewItemCount: 0, pendingSummary: null, pendingSourceIds: [] }),
    ]);

    direct(agentId, 'two');
    direct(agentId, 'three');
    await tick(60_000);
    expect(bodies()).toHaveLength(1);
    expect(states(agentId)).toEqual([
      expect.objectContaining({ status: 'dirty', pendingNewItemCount: 2, pendingSummary: 'direct_text_message:ops', pendingSourceIds: ['__agentinbox_direct_text__'] }),
    ]);

    await inbox().entries.ack(agentId, { entryIds: [first.entryId] });
    await tick(0);
    expect(bodies()).toHaveLength(2);
    expect(bodies()[1]).toMatchObject({ reason: 'entries', newItemCount: 2, newEntryCount: 2, entryCount: 2 });
    expect(bodies()[1].entries.map((e: Json) => e.message)).toEqual(['two', 'three']);
    expect(states(agentId)).toEqual([expect.objectContaining({ status: 'notified', leaseExpiresAt: new Date(t.clock.now() + LEASE_MS).toISOString() })]);
  });

  it('an ack of an only-notified target changes nothing; one that leaves nothing unacknowledged ends the state', async () => {
    const { agentId } = agentWithWebhook();
    const a = direct(agentId, 'a');
    direct(agentId, 'b');
    await tick(COALESCE_MS);
    await inbox().entries.ack(agentId, { entryIds: [a.entryId] });
    await tick(0);
    expect(bodies()).toHaveLength(1);
    expect(states(agentId)).toEqual([expect.objectContaining({ status: 'notified' })]);
    await inbox().entries.ack(agentId, { all: true });
    expect(states(agentId)).toEqual([]);
    // The next entry is notified as the first was.
    direct(agentId, 'c');
    await tick(COALESCE_MS);
    expect(bodies().map((b) => b.entries.map((e: Json) => e.message))).toEqual([['a', 'b'], ['c']]);
  });

  it('reminds a webhook of every unacknowledged entry when its lease ends, and starts a new one', async () => {
    const { agentId } = agentWithWebhook();
    direct(agentId, 'a');
    direct(agentId, 'b');
    await tick(COALESCE_MS);
    await tick(LEASE_MS - 1);
    expect(bodies()).toHaveLength(1);
    await tick(1);
    expect(bodies()).toHaveLength(2);
    expect(bodies()[1]).toMatchObject({ reason: 'reminder', newItemCount: 2, newEntryCount: 2 });
    expect(bodies()[1].entries.map((e: Json) => e.message)).toEqual(['a', 'b']);
    expect(states(agentId)).toEqual([expect.objectContaining({ status: 'notified', leaseExpiresAt: new Date(t.clock.now() + LEASE_MS).toISOString() })]);
    // A reminder moves no cursor back: an entry after it is one new item, notified after the ack.
    direct(agentId, 'c');
    await tick(COALESCE_MS);
    expect(bodies()).toHaveLength(2);
    const [first] = inbox().entries.unacked(agentId, { limit: 1 });
    await inbox().entries.ack(agentId, { entryIds: [first!.entryId] });
    await tick(0);
    expect(bodies()[2]).toMatchObject({ reason: 'entries', newItemCount: 1, newEntryCount: 2 });
    expect(bodies()[2].entries.map((e: Json) => e.message)).toEqual(['c']);
  });

  it('sends no reminder while the agent is paused; the resume catches up, which starts a new lease', async () => {
    const { agentId } = agentWithWebhook();
    direct(agentId, 'a');
    await tick(COALESCE_MS);
    await inbox().delivery.pause(agentId);
    await tick(3 * LEASE_MS);
    expect(bodies()).toHaveLength(1);
    direct(agentId, 'b');
    await inbox().delivery.resume(agentId, { deliveryOnly: true });
    await tick(0);
    expect(bodies().map((b) => [b.reason, b.entries.map((e: Json) => e.message)])).toEqual([
      ['entries', ['a']],
      ['catch_up', ['b']],
    ]);
    expect(states(agentId)).toEqual([expect.objectContaining({ status: 'notified', leaseExpiresAt: new Date(t.clock.now() + LEASE_MS).toISOString() })]);
  });

  it("notifies what waited when a dirty lease ends; a lease that ends with nothing unacknowledged is gone", async () => {
    const { agentId } = agentWithWebhook();
    direct(agentId, 'a');
    await tick(COALESCE_MS);
    direct(agentId, 'b');
    await tick(LEASE_MS);
    expect(bodies().map((b) => [b.reason, b.entries.map((e: Json) => e.message)])).toEqual([
      ['entries', ['a']],
      ['entries', ['b']],
    ]);
    await inbox().entries.ack(agentId, { all: true });
    expect(states(agentId)).toEqual([]);
    await tick(LEASE_MS);
    expect(bodies()).toHaveLength(2);
  });

  it("only extends a terminal target's lease when it ends with nothing new: the pane is not typed into again", async () => {
    const { agentId } = inbox().agents.create({});
    const { targetId } = inbox().targets.create(agentId, { kind: 'terminal', tmuxTarget: 'svc-no-such-session:0.0' });
    direct(agentId, 'a');
    const start = t.clock.now();
    // As if the pane had been notified of it: the cursor is past it and the lease runs.
    t.s.store.tx(() => {
      inbox().targets.setQueuedThrough(targetId, inbox().entries.unacked(agentId, { limit: 1 })[0]!.entryId);
      inbox().targets.setLease(targetId, start + LEASE_MS);
    });
    await tick(LEASE_MS);
    expect(t.s.inbox.notifier.notificationsOf(targetId)).toEqual([]);
    expect(states(agentId)).toEqual([expect.objectContaining({ status: 'notified', leaseExpiresAt: new Date(start + 2 * LEASE_MS).toISOString() })]);
  });

  it('leaves what waited to the digest of a target that switched to a digest policy under its lease', async () => {
    const { agentId, targetId } = agentWithWebhook();
    const a = direct(agentId, 'a');
    await tick(COALESCE_MS);
    direct(agentId, 'b');
    await tick(COALESCE_MS);
    inbox().aggregation.setTarget(agentId, targetId, { mode: 'digest', every: 24 * 3_600_000, cron: null, timezone: 'UTC', maxEntries: 10 });
    await inbox().entries.ack(agentId, { entryIds: [a.entryId] });
    await tick(0);
    expect(bodies()).toHaveLength(1);
    expect(states(agentId)).toEqual([]);
  });

  it('survives a restart: a held target stays held, and the lease end comes after it', async () => {
    const { agentId } = agentWithWebhook();
    direct(agentId, 'a');
    await tick(COALESCE_MS);
    direct(agentId, 'b');
    t = await restartServices(t);
    await tick(COALESCE_MS);
    expect(bodies()).toHaveLength(1);
    expect(states(agentId)).toEqual([expect.objectContaining({ status: 'dirty', pendingNewItemCount: 1 })]);
    await tick(LEASE_MS);
    expect(bodies().map((b) => b.entries.map((e: Json) => e.message))).toEqual([['a'], ['b']]);
  });
});

describe('delivery.notify_lease_ms = 0', () => {
  it('notifies every batch and keeps no dispatch state', async () => {
    const own = testServices({ configToml: '[delivery]\nnotify_lease_ms = 0\n' });
    const receiver = await startReceiver();
    try {
      const { agentId } = own.s.inbox.agents.create({});
      const target = own.s.inbox.targets.create(agentId, { kind: 'webhook', url: receiver.url });
      expect(target.notifyLeaseMs).toBe(0);
      own.s.inbox.entries.create(agentId, { kind: 'direct', message: 'a' });
      await tickAll(own, COALESCE_MS);
      own.s.inbox.entries.create(agentId, { kind: 'direct', message: 'b' });
      await tickAll(own, COALESCE_MS);
      expect(receiver.received.map((r) => (r.json as Json).entries.map((e: Json) => e.message))).toEqual([['a'], ['b']]);
      expect(own.s.inbox.agentViews.details(agentId).activationDispatchStates).toEqual([]);
    } finally {
      await own.close();
      await receiver.close();
    }
  });
});

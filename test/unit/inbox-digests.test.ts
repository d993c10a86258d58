/**
 * Digest notifications (aggregation policy `digest`): one per period with counts per source, the
 * first maxEntries entries and the total; nothing when nothing is new; entries stay readable and
 * ackable; cron periods across DST in Europe/Berlin; the delivery pause and offline targets hold a
 * digest back and a resume catches up once; a digest due while the daemon was down goes out once
 * at start; the same retries, runtime and terminal paths as other notifications. In-process
 * services with a ManualClock (never a real sleep); webhook targets on a real loopback receiver.
 */
import { describe, expect, it } from 'vitest';
import type { AggregationPolicyInput } from '../../src/inbox/delivery/aggregation.js';
import { inboxIdOf } from '../../src/inbox/entries/index.js';
import { terminalText } from '../../src/inbox/delivery/terminal.js';
import { COALESCE_MS } from '../../src/inbox/delivery/notifier.js';
import type { PendingNotification } from '../../src/inbox/delivery/types.js';
import { restartServices, servicesWithReceiver, tick as tickAll } from '../helpers/inbox-delivery.js';
import type { TestServices } from '../helpers/services.js';
import type { Receiver } from '../helpers/webhook-receiver.js';

const CONFIG = `
[delivery]
retry_initial_ms = 1000
retry_max_ms = 8000
max_failures = 3
`;
const HOUR = 3_600_000;

let t: TestServices;
let rx: Receiver;
servicesWithReceiver(CONFIG, (nt, nrx) => ((t = nt), (rx = nrx)), () => ({ t, rx }));

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const inbox = () => t.s.inbox;
const tick = (ms: number) => tickAll(t, ms);
const direct = (agentId: string, message: string) => inbox().entries.create(agentId, { kind: 'direct', message });
const digests = () => rx.received.filter((r) => r.json.type === 'inbox.digest');
const messages = (r: { json: Json }) => r.json.entries.map((e: Json) => e.message ?? e.event.type);

/** Move the clock to an instant and let due digests and deliveries run. */
async function at(iso: string): Promise<void> {
  t.clock.set(Date.parse(iso));
  await tick(0);
}

/** An agent whose one webhook target follows `policy` (set on the agent). */
function setup(policy: AggregationPolicyInput = { mode: 'digest', every: HOUR, timezone: 'UTC' }) {
  const { agentId } = inbox().agents.create({});
  inbox().aggregation.setAgent(agentId, policy);
  const target = inbox().targets.create(agentId, { kind: 'webhook', url: rx.url });
  rx.setSecret(target.secret!);
  return { agentId, targetId: target.targetId, start: t.clock.now() };
}

async function eventSource(agentId: string, key: string) {
  const { host } = inbox().hosts.create({ hostType: 'local_event', hostKey: 'digest' });
  const { source } = await inbox().sources.create({ hostId: host.hostId, streamKind: 'events', streamKey: key });
  const { subscriptionId } = inbox().subscriptions.create({ agentId, sourceId: source.sourceId })[0]!;
  return { sourceId: source.sourceId, subscriptionId, append: (n: number) => inbox().streams.append(source.sourceId, Array.from({ length: n }, (_, i) => ({ type: `${key}.${i}` }))) };
}

describe('digest contents', () => {
  it('should send no notification per entry, then one signed digest per period with counts per source, the first maxEntries entries and the total', async () => {
    const { agentId, targetId, start } = setup({ mode: 'digest', every: HOUR, timezone: 'UTC', maxEntries: 3 });
    const a = await eventSource(agentId, 'a');
    const b = await eventSource(agentId, 'b');
    await a.append(4);
    direct(agentId, 'hello');
    await b.append(2);
    inbox().entries.create(agentId, { kind: 'timer', message: 'reminder' });
    const all = inbox().entries.unacked(agentId, { limit: 100 });
    expect(all).toHaveLength(8);
    await tick(COALESCE_MS);
    await tick(HOUR - COALESCE_MS - 1);
    expect(rx.received).toHaveLength(0);
    await tick(1);
    expect(rx.received).toHaveLength(1);
    const d = rx.received[0]!;
    expect(d.signatureValid).toBe(true);
    expect(d.headers['webhook-id']).toBe(d.json.notificationId);
    const inboxId = inboxIdOf(agentId);
    expect(d.json).toEqual({
      // AgentInbox's activation: counts over the whole digest, subscriptions and summary of the listed entries.
      kind: 'agentinbox.activation',
      activationId: d.json.notificationId.replace(/^ntf_/, 'act_'),
      inboxId,
      targetKind: 'webhook',
      subscriptionIds: [a.subscriptionId],
      sourceIds: ['__agentinbox_direct_text__', '__agentinbox_timer__', ...[a.sourceId, b.sourceId].sort()],
      latestEntryId: all[7]!.entryId,
      newEntryCount: 8,
      newItemCount: 8,
      summary: `8 new items for agent ${agentId} from local_event:a:a.2`,
      latestSummary: 'local_event:a:a.2',
      items: all.slice(0, 3).map((e) => e.item),
      deliveredAt: null,
      type: 'inbox.digest',
      notificationId: expect.stringMatching(/^ntf_/),
      agentId,
      targetId,
      reason: 'digest',
      entryCount: 8,
      firstEntryId: all[0]!.entryId,
      lastEntryId: all[7]!.entryId,
      sources: [
        { kind: 'event', sourceId: a.sourceId, count: 4 },
        { kind: 'event', sourceId: b.sourceId, count: 2 },
        { kind: 'direct', sourceId: null, count: 1 },
        { kind: 'timer', sourceId: null, count: 1 },
      ],
      truncated: true,
      entries: all.slice(0, 3),
      since: new Date(start).toISOString(),
      scheduledFor: new Date(start + HOUR).toISOString(),
      createdAt: new Date(start + HOUR).toISOString(),
    });
    // The digest reads entries; it never acknowledges them.
    expect(inbox().entries.summary(agentId).unackedCount).toBe(8);
  });

  it('should send exactly one digest per period while entries stay readable and ackable, and none when nothing is new', async () => {
    const { agentId, start } = setup();
    const e1 = direct(agentId, 'one');
    direct(agentId, 'two');
    // Small steps through the first period: still one digest.
    for (let i = 0; i < 6; i++) await tick(HOUR / 6);
    expect(digests().map(messages)).toEqual([['one', 'two']]);

    // Period 2: an ack of an old entry and one new entry; the old unacknowledged one is not repeated.
    expect(await inbox().entries.ack(agentId, { entryIds: [e1.entryId] })).toBe(1);
    direct(agentId, 'three');
    await tick(HOUR);
    expect(digests().map(messages)).toEqual([['one', 'two'], ['three']]);
    expect(digests()[1]!.json).toMatchObject({ entryCount: 1, since: new Date(start + HOUR).toISOString() });

    // Period 3: nothing new (two and three still unacknowledged): no digest.
    await tick(HOUR);
    expect(digests()).toHaveLength(2);

    // Period 4: a new entry acknowledged before the boundary is not in any digest.
    const e4 = direct(agentId, 'four');
    await inbox().entries.ack(agentId, { throughEntryId: e4.entryId });
    await tick(HOUR);
    expect(digests()).toHaveLength(2);

    // Period 5: counted again from the last digest's cursor.
    direct(agentId, 'five');
    await tick(HOUR);
    expect(digests().map(messages)).toEqual([['one', 'two'], ['three'], ['five']]);
    expect(digests()[2]!.json.since).toBe(new Date(start + 2 * HOUR).toISOString());
    expect(inbox().entries.page(agentId, { limit: 10 }).entries.map((e) => e.message)).toEqual(['five']);
    expect(rx.received).toHaveLength(3);
    expect(inbox().digests.scheduleOf(inbox().targets.list(agentId)[0]!.targetId)).toEqual({
      nextDigestAt: new Date(start + 6 * HOUR).toISOString(),
      lastDigestAt: new Date(start + 5 * HOUR).toISOString(),
      digestCount: 3,
    });
  });

  it('should count more entries than one page and list only maxEntries of them', async () => {
    const { agentId } = setup({ mode: 'digest', every: HOUR, timezone: 'UTC', maxEntries: 1 });
    const src = await eventSource(agentId, 'bulk');
    await src.append(1200);
    await tick(HOUR);
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0]!.json).toMatchObject({ entryCount: 1200, truncated: true, sources: [{ kind: 'event', sourceId: src.sourceId, count: 1200 }] });
    expect(rx.received[0]!.json.entries).toHaveLength(1);
  });

  it("should follow a target's own digest policy while the agent's other target is notified per burst", async () => {
    const { agentId } = inbox().agents.create({});
    const burst = inbox().targets.create(agentId, { kind: 'webhook', url: `${rx.url}?t=burst` });
    const daily = inbox().targets.create(agentId, { kind: 'webhook', url: `${rx.url}?t=digest`, aggregation: { mode: 'digest', every: 24 * HOUR, cron: null, timezone: 'UTC', maxEntries: 10 } });
    direct(agentId, 'x');
    await tick(COALESCE_MS);
    expect(rx.received.map((r) => [r.json.type, r.json.targetId])).toEqual([['inbox.entries', burst.targetId]]);
    await tick(24 * HOUR - COALESCE_MS);
    expect(rx.received.filter((r) => r.json.targetId === daily.targetId).map((r) => r.json.type)).toEqual(['inbox.digest']);
    // The burst target is reminded once its notify lease ends unacknowledged; a digest is not held by the lease.
    const reasons = rx.received.filter((r) => r.json.targetId === burst.targetId).map((r) => r.json.reason);
    expect(reasons[0]).toBe('entries');
    expect(reasons.length).toBeGreaterThan(1);
    expect(new Set(reasons.slice(1))).toEqual(new Set(['reminder']));
  });
});

describe('digest schedule', () => {
  it('should put a cron digest at 02:30 Europe/Berlin once a day across the spring-forward gap', async () => {
    t.clock.set(Date.parse('2030-03-29T12:00:00Z'));
    const { agentId, targetId } = setup({ mode: 'digest', cron: '30 2 * * *', timezone: 'Europe/Berlin' });
    const next = () => inbox().digests.scheduleOf(targetId)!.nextDigestAt;
    expect(next()).toBe('2030-03-30T01:30:00.000Z'); // 02:30 CET
    direct(agentId, 'sat');
    await at('2030-03-30T01:29:59.999Z');
    expect(rx.received).toHaveLength(0);
    await at('2030-03-30T01:30:00Z');
    expect(rx.received).toHaveLength(1);
    // 31 March: 02:00-03:00 local does not exist; the boundary comes once, at 03:00 CEST.
    expect(next()).toBe('2030-03-31T01:00:00.000Z');
    direct(agentId, 'sun');
    await at('2030-03-31T01:00:00Z');
    expect(next()).toBe('2030-04-01T00:30:00.000Z'); // 02:30 CEST
    direct(agentId, 'mon');
    await at('2030-04-01T00:30:00Z');
    expect(digests().map(messages)).toEqual([['sat'], ['sun'], ['mon']]);
    expect(digests().map((r) => r.json.scheduledFor)).toEqual(['2030-03-30T01:30:00.000Z', '2030-03-31T01:00:00.000Z', '2030-04-01T00:30:00.000Z']);
  });

  it('should send one digest on the fall-back day although 02:30 Europe/Berlin happens twice', async () => {
    t.clock.set(Date.parse('2030-10-26T12:00:00Z'));
    const { agentId, targetId } = setup({ mode: 'digest', cron: '30 2 * * *', timezone: 'Europe/Berlin' });
    expect(inbox().digests.scheduleOf(targetId)!.nextDigestAt).toBe('2030-10-27T00:30:00.000Z'); // first 02:30 (CEST)
    direct(agentId, 'a');
    await at('2030-10-27T00:30:00Z');
    direct(agentId, 'b');
    await at('2030-10-27T01:30:00Z'); // the second 02:30 (CET)
    expect(digests()).toHaveLength(1);
    expect(inbox().digests.scheduleOf(targetId)!.nextDigestAt).toBe('2030-10-28T01:30:00.000Z');
    await at('2030-10-28T01:30:00Z');
    expect(digests().map(messages)).toEqual([['a'], ['b']]);
  });

  it('should restart the schedule when the policy changes and drop it when the target leaves digest mode', async () => {
    const { agentId, targetId, start } = setup();
    await tick(HOUR / 2);
    inbox().aggregation.setAgent(agentId, { mode: 'digest', every: 2 * HOUR, timezone: 'UTC' });
    expect(inbox().digests.scheduleOf(targetId)!.nextDigestAt).toBe(new Date(start + HOUR / 2 + 2 * HOUR).toISOString());
    // The same policy again keeps the schedule where it is.
    await tick(HOUR);
    inbox().aggregation.setAgent(agentId, { mode: 'digest', every: 2 * HOUR, timezone: 'UTC' });
    expect(inbox().digests.scheduleOf(targetId)!.nextDigestAt).toBe(new Date(start + HOUR / 2 + 2 * HOUR).toISOString());
    // Entries waiting for a digest go out under the new policy as soon as the target leaves digest mode.
    direct(agentId, 'waiting');
    await tick(COALESCE_MS);
    expect(rx.received).toHaveLength(0);
    inbox().aggregation.setTarget(agentId, targetId, { mode: 'immediate' });
    expect(inbox().digests.scheduleOf(targetId)).toBeNull();
    await tick(0);
    expect(rx.received.map((r) => [r.json.type, r.json.entryCount])).toEqual([['inbox.entries', 1]]);
  });

  it('should not notify a window that was open when the target switched to a digest', async () => {
    const { agentId } = inbox().agents.create({});
    inbox().targets.create(agentId, { kind: 'webhook', url: rx.url });
    direct(agentId, 'in the window');
    inbox().aggregation.setAgent(agentId, { mode: 'digest', every: HOUR, timezone: 'UTC' });
    await tick(COALESCE_MS);
    expect(rx.received).toHaveLength(0);
    await tick(HOUR);
    expect(digests().map(messages)).toEqual([['in the window']]);
  });
});

describe('the delivery pause', () => {
  it('should send no digest while paused, then one catch-up digest on resume {deliveryOnly:true}, never repeated', async () => {
    const { agentId, targetId, start } = setup();
    await inbox().delivery.pause(agentId);
    direct(agentId, 'a');
    direct(agentId, 'b');
    for (let i = 0; i < 4; i++) await tick(HOUR);
    expect(rx.received).toHaveLength(0);
    expect(inbox().entries.summary(agentId)).toMatchObject({ unackedCount: 2, deliveryPaused: true });
    const res = await inbox().delivery.resume(agentId, { deliveryOnly: true });
    expect(res.catchUp).toEqual([expect.objectContaining({ targetId, reason: 'catch_up', entryCount: 2 })]);
    await tick(0);
    expect(rx.received.map((r) => [r.json.type, r.json.reason, r.json.entryCount])).toEqual([['inbox.digest', 'catch_up', 2]]);
    expect(rx.received[0]!.json.scheduledFor).toBe(new Date(start + HOUR).toISOString());
    // The schedule moves on from now: missed periods are not replayed.
    expect(inbox().digests.scheduleOf(targetId)!.nextDigestAt).toBe(new Date(start + 5 * HOUR).toISOString());
    expect((await inbox().delivery.resume(agentId, { deliveryOnly: true })).catchUp).toEqual([]);
    expect((await inbox().delivery.resume(agentId)).catchUp).toEqual([]);
    await tick(HOUR);
    expect(rx.received).toHaveLength(1);
    direct(agentId, 'c');
    await tick(HOUR);
    expect(digests().map(messages)).toEqual([['a', 'b'], ['c']]);
  });

  it('should send nothing on a resume before the boundary: the next digest covers what arrived during the pause', async () => {
    const { agentId } = setup();
    await inbox().delivery.pause(agentId);
    direct(agentId, 'during');
    await tick(HOUR / 2);
    expect((await inbox().delivery.resume(agentId, { deliveryOnly: true })).catchUp).toEqual([]);
    await tick(HOUR / 2 - 1);
    expect(rx.received).toHaveLength(0);
    await tick(1);
    expect(digests().map((r) => [r.json.reason, messages(r)])).toEqual([['digest', ['during']]]);
  });

  it('should gate the retries of a failed digest and keep its webhook-id across them', async () => {
    const { agentId } = setup();
    rx.answer({ status: 500 });
    direct(agentId, 'x');
    await tick(HOUR);
    expect(rx.received).toHaveLength(1);
    await inbox().delivery.pause(agentId);
    await tick(HOUR / 2);
    expect(rx.received).toHaveLength(1);
    await inbox().delivery.resume(agentId, { deliveryOnly: true });
    await tick(0);
    expect(rx.received).toHaveLength(2);
    expect(new Set(rx.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(rx.received.map((r) => r.json.reason)).toEqual(['digest', 'digest']);
  });

  it('should hold digests of an offline target and catch up once when the target is resumed', async () => {
    const { agentId, targetId } = setup();
    rx.answer({ status: 410 });
    direct(agentId, 'first');
    await tick(HOUR);
    expect(inbox().targets.get(agentId, targetId).status).toBe('offline');
    direct(agentId, 'second');
    await tick(HOUR);
    await tick(HOUR);
    expect(rx.received).toHaveLength(1);
    const res = await inbox().delivery.resumeTarget(agentId, targetId);
    expect(res).toMatchObject({ recovered: true, catchUp: [expect.objectContaining({ reason: 'catch_up', entryCount: 1 })] });
    await tick(0);
    await tick(0);
    expect(digests().map((r) => [r.json.reason, messages(r)])).toEqual([
      ['digest', ['first']],
      ['digest', ['first']],
      ['catch_up', ['second']],
    ]);
  });

  it('should keep a digest held by a persisted pause across a restart, and catch up once on resume', async () => {
    const { agentId } = setup();
    await inbox().delivery.pause(agentId);
    direct(agentId, 'held');
    t.clock.advance(3 * HOUR);
    t = await restartServices(t);
    await tick(0);
    expect(rx.received).toHaveLength(0);
    await inbox().delivery.resume(agentId, { deliveryOnly: true });
    await tick(0);
    expect(digests().map((r) => [r.json.reason, messages(r)])).toEqual([['catch_up', ['held']]]);
  });
});

describe('restart safety', () => {
  it('should queue a digest due while the daemon was down once at start, then keep the grid', async () => {
    const { agentId, targetId, start } = setup();
    direct(agentId, 'before the stop');
    // Down for five and a half periods: the boundaries it missed are not replayed one each.
    t.clock.advance(5.5 * HOUR);
    t = await restartServices(t);
    expect(inbox().digests.scheduleOf(targetId)).toMatchObject({ nextDigestAt: new Date(start + 6 * HOUR).toISOString(), digestCount: 1 });
    await tick(0);
    expect(digests().map((r) => [r.json.reason, messages(r)])).toEqual([['digest', ['before the stop']]]);
    expect(digests()[0]!.json.scheduledFor).toBe(new Date(start + HOUR).toISOString());
    expect(inbox().digests.scheduleOf(targetId)!.nextDigestAt).toBe(new Date(start + 6 * HOUR).toISOString());
    await tick(HOUR / 2);
    expect(rx.received).toHaveLength(1);
    direct(agentId, 'after');
    await tick(HOUR);
    expect(digests().map(messages)).toEqual([['before the stop'], ['after']]);
  });

  it('should not open per-entry windows for digest targets at start', async () => {
    const { agentId } = setup();
    direct(agentId, 'x');
    t = await restartServices(t);
    await tick(COALESCE_MS);
    expect(rx.received).toHaveLength(0);
  });
});

describe('other delivery paths', () => {
  it('should put a digest into a control-plane queue through a runtime target', async () => {
    const { agentId } = inbox().agents.create({ aggregation: { mode: 'digest', every: HOUR, cron: null, timezone: 'UTC', maxEntries: 5 } });
    inbox().targets.create(agentId, { kind: 'runtime', runtimeAgentId: 'main' });
    direct(agentId, 'for the runtime');
    await tick(COALESCE_MS);
    expect(t.s.queue.claimNext('main')).toBeNull();
    await tick(HOUR);
    const message = t.s.queue.claimNext('main');
    expect(message).toMatchObject({ kind: 'webhook_event', delivery_surface: 'inbox' });
    expect(message!.body).toMatchObject({ type: 'json', value: { type: 'inbox.digest', agentId, entryCount: 1, sources: [{ kind: 'direct', count: 1 }] } });
  });

  it("should type a digest into a terminal in AgentInbox's words, with the unacknowledged count and the newest summary", () => {
    const payload = {
      ...{ kind: 'agentinbox.activation', activationId: 'act_1', agentId: 'agt_x', inboxId: 'inb_x', targetId: 'tgt_x', targetKind: 'terminal' },
      ...{ subscriptionIds: ['sub_a'], sourceIds: ['src_a'], latestEntryId: 'ent_3', newEntryCount: 5, newItemCount: 3 },
      ...{ summary: '3 new items for agent agt_x from local_event:ci:deploy\ndone', latestSummary: 'local_event:ci:deploy\ndone', deliveredAt: null },
      ...{ type: 'inbox.digest', notificationId: 'ntf_1', reason: 'digest', entryCount: 3, firstEntryId: 'ent_1', lastEntryId: 'ent_3', truncated: true },
      sources: [
        { kind: 'event', sourceId: 'src_a', count: 2 },
        { kind: 'direct', sourceId: null, count: 1 },
      ],
      entries: [{ message: 'deploy\ndone', event: null, kind: 'direct' }],
      since: '2030-01-01T00:00:00.000Z',
      scheduledFor: '2030-01-01T01:00:00.000Z',
      createdAt: '2030-01-01T01:00:00.000Z',
    } as unknown as PendingNotification['payload'];
    expect(terminalText(payload)).toBe(
      'AgentInbox: 5 unacked items for agent agt_x. Latest entryId: ent_3. Summary: local_event:ci:deploy done. Please read the inbox, process them, and ack when finished.',
    );
  });
});

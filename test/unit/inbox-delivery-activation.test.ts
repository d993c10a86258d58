/**
 * AgentInbox's activation fields on svc's notification bodies (activation.ts): what each field
 * counts (measured on AgentInbox's daemon: newItemCount = items new since the last notification,
 * newEntryCount = every unacknowledged entry), ids and summaries per kind of entry, items for webhook
 * targets only, counts over a notification that covers more entries than it lists, a receiver
 * written for AgentInbox accepting each body. In-process services with a ManualClock.
 */
import { describe, expect, it } from 'vitest';
import { inboxIdOf } from '../../src/inbox/entries/index.js';
import { COALESCE_MS } from '../../src/inbox/delivery/notifier.js';
import { activationProblems, RECORDED, shapeDifferences } from '../helpers/agentinbox-activation.js';
import { servicesWithReceiver, tick as tickAll } from '../helpers/inbox-delivery.js';
import type { TestServices } from '../helpers/services.js';
import type { Receiver } from '../helpers/webhook-receiver.js';

let t: TestServices;
let rx: Receiver;
servicesWithReceiver('', (nt, nrx) => ((t = nt), (rx = nrx)), () => ({ t, rx }));

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const inbox = () => t.s.inbox;
const tick = (ms: number) => tickAll(t, ms);
const bodies = () => rx.received.map((r) => r.json as Json);

function agentWithWebhook(name = 'a') {
  const { agentId } = inbox().agents.create({ name });
  const target = inbox().targets.create(agentId, { kind: 'webhook', url: rx.url });
  return { agentId, targetId: target.targetId };
}

async function source(key: string) {
  const { host } = inbox().hosts.create({ hostType: 'local_event', hostKey: 'activation' });
  const { source } = await inbox().sources.create({ hostId: host.hostId, streamKind: 'events', streamKey: key });
  return source.sourceId;
}
const subscribe = (agentId: string, sourceId: string) => inbox().subscriptions.create({ agentId, sourceId })[0]!.subscriptionId;

describe('activation fields', () => {
  it("should count new items per notification and every unacknowledged entry as newEntryCount, as AgentInbox's daemon does", async () => {
    const { agentId } = agentWithWebhook();
    const src = await source('s1');
    const sub = subscribe(agentId, src);
    await inbox().streams.append(src, [{ type: 'local.demo' }, { type: 'local.demo' }]);
    await tick(COALESCE_MS);
    // Under the notify lease the next item waits until an acknowledgement leaves entries unacknowledged.
    await inbox().streams.append(src, [{ type: 'other.kind' }]);
    await tick(COALESCE_MS);
    expect(bodies()).toHaveLength(1);
    const entries = inbox().entries.unacked(agentId, { limit: 10 });
    await inbox().entries.ack(agentId, { entryIds: [entries[0]!.entryId] });
    await tick(0);
    const [first, second] = bodies();
    expect(first).toMatchObject({ newItemCount: 2, newEntryCount: 2, subscriptionIds: [sub], sourceIds: [src], summary: `2 new items for agent ${agentId} from local_event:s1:local.demo` });
    // One new item among two unacknowledged entries.
    expect(second).toMatchObject({ newItemCount: 1, newEntryCount: 2, summary: `1 new item for agent ${agentId} from local_event:s1:other.kind` });
    expect(second.latestEntryId).toBe(second.lastEntryId);
    inbox().entries.create(agentId, { kind: 'timer', message: 'standup', scheduleId: 'sch_1' });
    await tick(COALESCE_MS);
    await inbox().entries.ack(agentId, { entryIds: [entries[1]!.entryId] });
    await tick(0);
    expect(bodies()[2]).toMatchObject({ newItemCount: 1, newEntryCount: 2, subscriptionIds: [], sourceIds: ['__agentinbox_timer__'], summary: `1 new item for agent ${agentId} from timer:sch_1` });
    for (const b of bodies()) {
      expect(activationProblems(b)).toEqual([]);
      expect(shapeDifferences(RECORDED.withItemsEvents, b)).toEqual([]);
    }
  });

  it('should derive ids from the notification and the agent: the same on every retry, the inbox id stable and in AgentInbox form', async () => {
    const { agentId, targetId } = agentWithWebhook();
    rx.answer({ status: 500 });
    inbox().entries.create(agentId, { kind: 'direct', message: 'hello', sender: 'operator' });
    await tick(COALESCE_MS);
    await tick(60_000);
    expect(rx.received).toHaveLength(2);
    const [a, b] = rx.received;
    expect(a!.body).toBe(b!.body);
    expect(a!.json).toMatchObject({
      kind: 'agentinbox.activation',
      activationId: String(a!.headers['webhook-id']).replace(/^ntf_/, 'act_'),
      inboxId: inboxIdOf(agentId),
      targetId,
      targetKind: 'webhook',
      sourceIds: ['__agentinbox_direct_text__'],
      summary: `1 new item for agent ${agentId} from direct_text_message:operator`,
      latestSummary: 'direct_text_message:operator',
      deliveredAt: null,
    });
    expect(inboxIdOf(agentId)).toMatch(/^inb_[23456789abcdefghjkmnpqrstvwxyz]{12}$/);
    expect(inboxIdOf('agent-alpha')).toBe(inboxIdOf('agent-alpha'));
    expect(inboxIdOf('agent-alpha')).not.toBe(inboxIdOf('agent-beta'));
  });

  it('should list items as AgentInbox does: native ids back from its event form, objects as raw payloads, direct items and reminders as its pseudo-sources', async () => {
    const { agentId } = agentWithWebhook();
    const src = await source('items');
    const sub = subscribe(agentId, src);
    await inbox().streams.append(src, [
      { id: 'a%3Ab:native-1', type: 'a:b', data: { text: 'x' }, metadata: { channel: 'eng' } },
      { id: 'plain-id', type: 'svc.kind', data: [1, 2] },
      { id: 'no-data', type: 'svc.kind' },
    ]);
    inbox().entries.create(agentId, { kind: 'direct', message: 'm', sender: null, metadata: { priority: 'high' } });
    inbox().entries.create(agentId, { kind: 'timer', message: 'r', scheduleId: 'sch_9' });
    await tick(COALESCE_MS);
    const body = bodies()[0];
    const items = body.items as Json[];
    // AgentInbox adds why and for whom an event matched to its metadata.
    const matched = { matchReason: expect.any(String), agentId, subscriptionId: sub };
    expect(items.map((i) => [i.sourceId === src ? 'src' : i.sourceId, i.sourceNativeId, i.eventVariant, i.rawPayload, i.metadata])).toEqual([
      ['src', 'native-1', 'a:b', { text: 'x' }, { channel: 'eng', ...matched }],
      ['src', 'plain-id', 'svc.kind', { data: [1, 2] }, matched],
      ['src', 'no-data', 'svc.kind', {}, matched],
      ['__agentinbox_direct_text__', expect.stringMatching(/^direct_/), 'agentinbox.direct_text_message', { type: 'direct_text_message', message: 'm', sender: null }, { priority: 'high' }],
      ['__agentinbox_timer__', expect.stringMatching(/^sch_9:/), 'agentinbox.timer_fired', { type: 'timer_fired', scheduleId: 'sch_9', message: 'r', sender: 'timer' }, {}],
    ]);
    expect(items.map((i) => i.itemId)).toEqual(body.entries.map((e: Json) => e.entryId.replace(/^ent_/, 'itm_')));
    expect(new Set(items.map((i) => i.inboxId))).toEqual(new Set([body.inboxId]));
    expect(activationProblems(body)).toEqual([]);
    expect(shapeDifferences(RECORDED.withItemsDirect, body)).toEqual([]);
  });

  it('should count subscriptions and sources over every covered entry when the body lists only the first 50', async () => {
    const { agentId } = agentWithWebhook();
    const [s1, s2] = [await source('first'), await source('second')];
    const [sub1, sub2] = [subscribe(agentId, s1), subscribe(agentId, s2)];
    await inbox().streams.append(s1, Array.from({ length: 60 }, (_, i) => ({ type: `first.${i}` })));
    await inbox().streams.append(s2, [{ type: 'second.last' }]);
    await tick(COALESCE_MS);
    const body = bodies()[0];
    expect(body).toMatchObject({ entryCount: 61, truncated: true, newItemCount: 61, newEntryCount: 61, summary: `61 new items for agent ${agentId} from local_event:second:second.last` });
    expect(body.subscriptionIds).toEqual([sub1, sub2].sort());
    expect(body.sourceIds).toEqual([s1, s2].sort());
    expect(body.entries).toHaveLength(50);
    expect(body.items).toEqual(body.entries.map((e: Json) => e.item));
  });

  it('should leave items to webhook targets: a runtime target gets the activation fields without them', async () => {
    const { agentId } = inbox().agents.create({});
    inbox().targets.create(agentId, { kind: 'runtime', runtimeAgentId: 'main' });
    inbox().entries.create(agentId, { kind: 'direct', message: 'for the runtime' });
    await tick(COALESCE_MS);
    const value = (t.s.queue.claimNext('main')!.body as { value: Json }).value;
    expect(value).toMatchObject({ kind: 'agentinbox.activation', targetKind: 'runtime', newItemCount: 1, newEntryCount: 1, type: 'inbox.entries' });
    expect(value).not.toHaveProperty('items');
    expect(value.entries).toHaveLength(1);
  });

  it("should keep an item's summary, written when it was made, after its source is gone", async () => {
    const { agentId } = agentWithWebhook();
    const src = await source('gone');
    subscribe(agentId, src);
    await inbox().delivery.pause(agentId);
    await inbox().streams.append(src, [{ type: 'ci.done' }]);
    inbox().sources.delete(src);
    await inbox().delivery.resume(agentId, { deliveryOnly: true });
    await tick(COALESCE_MS);
    expect(bodies()[0]).toMatchObject({ sourceIds: [src], summary: `1 new item for agent ${agentId} from local_event:gone:ci.done`, latestSummary: 'local_event:gone:ci.done' });
  });
});

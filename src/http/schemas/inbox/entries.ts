/**
 * An agent's inbox as AgentInbox's daemon answers it (src/inbox/entries/records.ts;
 * docs/inbox-api.md#inbox, docs/agentinbox.md#inbox-items-and-entries): entries (an item, or a
 * digest snapshot of a thread) with svc's own fields beside, the inbox details, direct items, acks,
 * compaction and watch.
 */
import { z } from 'zod';
import { OpenObject, QueryBool, QueryInt, withAliases } from '../common.js';

const Ulid = '[0-9A-HJKMNP-TV-Z]{26}';
const EntryId = z.string().regex(new RegExp(`^ent_${Ulid}$`), 'must be an entry id (ent_ + ULID)');
/** What an ack names: an entry id, or an item id (AgentInbox accepts both). */
const EntryOrItemId = z.string().regex(new RegExp(`^(ent|itm)_${Ulid}$`), 'must be an entry id (ent_ + ULID) or an item id (itm_ + ULID)');

const DeliveryHandle = z
  .looseObject({ provider: z.string(), surface: z.string(), targetRef: z.string(), threadRef: z.string().nullable().optional(), replyMode: z.string().nullable().optional() })
  .nullable()
  .openapi({ description: 'where a reply to the item goes, when its event names it (AgentInbox DeliveryHandle); else null' });

export const InboxEvent = z
  .object({
    sourceId: z.string(),
    offset: z.number().int(),
    id: z.string(),
    type: z.string(),
    subject: z.string().nullable(),
    time: z.string(),
    data: z.unknown(),
    metadata: OpenObject,
    appendedAt: z.string(),
    pruned: z.boolean(),
  })
  .openapi('InboxEntryEvent', { description: 'the stream event of an event item, as the stream stored it (svc)' });

export const InboxItem = z
  .object({
    itemId: z.string().openapi({ description: 'itm_ + the ULID of the item\'s own entry' }),
    sourceId: z.string().openapi({ description: 'the source; __agentinbox_direct_text__ for a direct item, __agentinbox_timer__ for a timer reminder' }),
    sourceNativeId: z.string().openapi({ description: "the producer's id of the event (AgentInbox's sourceNativeId, else svc's event id)" }),
    eventVariant: z.string().openapi({ description: 'the event type; agentinbox.direct_text_message, agentinbox.timer_fired' }),
    inboxId: z.string(),
    occurredAt: z.string(),
    metadata: OpenObject.openapi({ description: "an event's metadata with matchReason, agentId and subscriptionId (the first matching subscription); a direct item's own metadata" }),
    rawPayload: z.unknown().openapi({ description: "an event's data; {type: direct_text_message, message, sender}; {type: timer_fired, scheduleId, message, sender}" }),
    deliveryHandle: DeliveryHandle,
  })
  .openapi('InboxItem', { description: "AgentInbox's item (ActivationItem)" });

export const InboxEntry = z
  .object({
    entryId: z.string(),
    inboxId: z.string(),
    sequence: z.number().int().openapi({ description: 'the entry order (ack through it)' }),
    itemId: z.string().openapi({ description: 'the item (a snapshot: its first item)' }),
    summary: z.string(),
    count: z.number().int().openapi({ description: 'items in the entry' }),
    itemIds: z.array(z.string()),
    sourceIds: z.array(z.string()),
    subscriptionIds: z.array(z.string()).openapi({ description: "an item: the subscription that made it, as AgentInbox lists it (a direct item or reminder: none; svc's matchedSubscriptionIds lists every one that matched); a digest snapshot: its items' subscriptions" }),
    firstItemAt: z.string(),
    lastItemAt: z.string(),
    deliveryHandle: DeliveryHandle,
    ackedAt: z.string().nullable(),
    supersededAt: z.string().nullable().openapi({ description: 'a snapshot a later revision of its thread replaced (hidden from reads without includeAcked; still a valid ack)' }),
    kind: z.enum(['item', 'digest_snapshot']),
    sourceId: z.string().optional().openapi({ description: 'kind item: the item fields, and the item itself' }),
    sourceNativeId: z.string().optional(),
    eventVariant: z.string().optional(),
    occurredAt: z.string().optional(),
    metadata: OpenObject.optional(),
    rawPayload: z.unknown().optional(),
    item: InboxItem.optional(),
    threadId: z.string().optional().openapi({ description: 'kind digest_snapshot: its thread, revision and group' }),
    revision: z.number().int().optional(),
    groupKey: z.string().optional(),
    resourceRef: z.string().nullable().optional(),
    eventFamily: z.string().nullable().optional(),
    agentId: z.string().openapi({ description: 'svc: the agent' }),
    createdAt: z.string().openapi({ description: 'svc: when the entry was made' }),
    itemKind: z.enum(['event', 'direct', 'timer']).optional().openapi({ description: 'svc, kind item: what the item is' }),
    subscriptionId: z.string().nullable().optional().openapi({ description: 'svc: the subscription that made the item' }),
    matchedSubscriptionIds: z.array(z.string()).optional().openapi({ description: "svc: every subscription of the agent that matched the item's event, in creation order (one item per event per agent)" }),
    offset: z.number().int().nullable().optional().openapi({ description: "svc: the event's stream offset" }),
    event: InboxEvent.nullable().optional(),
    sender: z.string().nullable().optional(),
    message: z.string().nullable().optional(),
    scheduleId: z.string().nullable().optional(),
  })
  .openapi('InboxEntry', { description: "AgentInbox's entry (an item, or a digest snapshot of a thread), with svc's fields beside" });

export const InboxItemsQuery = withAliases(
  {
    after: EntryId.optional().openapi({ description: 'exclusive cursor (an entry id, e.g. the previous nextCursor)' }),
    limit: QueryInt.pipe(z.number().int().min(1).max(1000)).optional().openapi({ description: 'default 1000 on /inbox/entries (100 on /inbox/items), at most 1000' }),
    includeAcked: QueryBool.optional().openapi({ description: 'also acknowledged and superseded entries (default false)' }),
  },
  { after_entry_id: 'after', include_acked: 'includeAcked' },
);

export const InboxPage = z
  .object({ entries: z.array(InboxEntry), nextCursor: z.string().nullable().openapi({ description: 'svc: the last entry id of a full page, null at the end' }) })
  .openapi('InboxPage');

export const DirectItemBody = z
  .strictObject({
    message: z.string().trim().min(1).openapi({ description: 'trimmed, as AgentInbox does; empty: 400' }),
    sender: z.string().trim().min(1).nullable().optional(),
    metadata: OpenObject.optional().openapi({ description: "svc: machine-readable fields kept with the item as its metadata (webhook receivers read them)" }),
  })
  .openapi('DirectItemBody');

export const DirectItemResult = z
  .object({
    itemId: z.string(),
    inboxId: z.string(),
    activated: z.boolean().openapi({ description: 'the agent has an active target and its delivery is not paused' }),
    entryId: z.string().openapi({ description: "svc: the item's entry" }),
    agentId: z.string(),
  })
  .openapi('DirectItemResult');

export const AckBody = z
  .strictObject({
    throughEntryId: EntryOrItemId.optional(),
    entryIds: z.array(EntryOrItemId).min(1).max(10000).optional(),
    all: z.literal(true).optional(),
  })
  .refine((b) => [b.throughEntryId, b.entryIds, b.all].filter((v) => v !== undefined).length === 1, {
    message: 'give exactly one of throughEntryId, entryIds, all: true',
  })
  .openapi('AckBody');

export const AckResult = z.object({ acked: z.number().int().min(0) }).openapi('AckResult');

export const CompactInboxBody = z
  .strictObject({
    retentionMs: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional().openapi({ description: 'svc: keep items acknowledged less than this long ago (default 86400000, AgentInbox\'s; 0: delete every acknowledged item)' }),
  })
  .openapi('CompactInboxBody');

export const CompactInboxResult = z
  .object({ deleted: z.number().int().min(0).openapi({ description: 'items deleted' }), retentionMs: z.number().int(), agentId: z.string() })
  .openapi('CompactInboxResult');

export const WatchHeaders = { lastEventId: EntryId };

export const WatchQuery = withAliases(
  {
    after: EntryId.optional().openapi({ description: 'start after this entry (with Last-Event-ID too, the later of the two)' }),
    includeAcked: QueryBool.optional().openapi({ description: 'the backlog also lists acknowledged and superseded entries (default false)' }),
    heartbeatMs: QueryInt.pipe(z.number().int().min(1))
      .optional()
      .openapi({ description: "send a heartbeat frame this often: any positive integer, as AgentInbox (default 15000, its own); sent at most every 100 ms and at least every 24 days" }),
  },
  { after_entry_id: 'after', include_acked: 'includeAcked', heartbeat_ms: 'heartbeatMs' },
);

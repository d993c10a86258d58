/**
 * Inbox agents, subscriptions and inbox entries (spec/inbox.md Agents, Subscriptions, Inbox;
 * docs/inbox-api.md#subscriptions).
 */
import { z } from 'zod';
import { ListLimit, OpenObject, QueryBool, QueryInt, withAliases } from '../common.js';
import { AggregationPolicy } from './aggregation.js';
import { EntryDeliveryHandle } from './deliveries.js';

const Timestamp = z.iso.datetime({ offset: true });
const EntryId = z.string().regex(/^ent_[0-9A-HJKMNP-TV-Z]{26}$/, 'must be an entry id (ent_ + ULID)');

// --- agents ----------------------------------------------------------------------------------

export const InboxAgentParams = z.object({ agentId: z.string().min(1).openapi({ example: 'agt_01J0000000000000000000000' }) });

export const InboxAgent = z
  .object({
    agentId: z.string(),
    name: z.string().nullable(),
    deliveryPaused: z.boolean(),
    createdAt: z.string(),
    aggregation: AggregationPolicy.optional().openapi({ description: 'the agent\'s own aggregation policy; absent: the default coalesce {windowMs: 250}' }),
  })
  .openapi('InboxAgent');

export const InboxAgentDeleted = z.object({ agentId: z.string(), deleted: z.literal(true) }).openapi('InboxAgentDeleted');

// --- subscriptions ---------------------------------------------------------------------------

const MatchScalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const SubscriptionFilter = z
  .looseObject({
    match: z
      .record(z.string(), z.union([MatchScalar, z.array(MatchScalar)]))
      .optional()
      .openapi({ description: 'dot path over the event (type, subject, id, time, data.*, metadata.*) -> value, or array of values (any of)' }),
    expr: z.string().optional().openapi({ description: 'CEL expression over `event`, compiled at creation (invalid: 400 invalid_filter; comprehensions nested more than 2 deep: 400 filter_too_costly); run with a cost limit' }),
    metadata: OpenObject.optional().openapi({
      description:
        "AgentInbox's block: dot path over event.metadata -> wanted value (an object matches key by key, an array any of its values, or all of them when the actual value is an array)",
    }),
    payload: OpenObject.optional().openapi({ description: "AgentInbox's block, as metadata but over event.data (its raw payload)" }),
  })
  .openapi('SubscriptionFilter', { description: '{} matches everything; an event must pass every part given. Other keys: 400 invalid_filter.' });

const StartPolicy = z.enum(['latest', 'earliest', 'at_offset', 'at_time']);
const CleanupMode = z.enum(['manual', 'at', 'on_terminal', 'on_terminal_or_at']);

const StartFields = {
  startPolicy: StartPolicy.optional().openapi({ description: 'default latest' }),
  startOffset: z.number().int().min(1).optional().openapi({ description: 'with at_offset: first offset consumed' }),
  startTime: Timestamp.optional().openapi({ description: 'with at_time: first event whose time is at or after it' }),
};

export const CreateSubscriptionBody = z
  .strictObject({
    agentId: z.string().min(1),
    sourceId: z.string().min(1).optional(),
    shortcut: z
      .strictObject({ name: z.literal('host'), args: z.strictObject({ hostId: z.string().min(1) }) })
      .optional()
      .openapi({ description: 'instead of sourceId: subscribe to every source of the host' }),
    filter: SubscriptionFilter.optional(),
    trackedResourceRef: z.string().min(1).nullable().optional(),
    cleanupPolicy: z
      .strictObject({
        mode: CleanupMode,
        at: Timestamp.nullable().optional().openapi({ description: 'required with at and on_terminal_or_at' }),
        gracePeriodSecs: z.number().int().min(0).nullable().optional().openapi({ description: 'delay after the terminal signal (default 0)' }),
      })
      .optional()
      .openapi({ description: 'default {mode: manual}; on_terminal modes need trackedResourceRef' }),
    ...StartFields,
  })
  .openapi('CreateSubscriptionBody');

export const Subscription = z
  .object({
    subscriptionId: z.string(),
    agentId: z.string(),
    sourceId: z.string(),
    filter: OpenObject,
    trackedResourceRef: z.string().nullable(),
    cleanupPolicy: z.object({ mode: CleanupMode, at: z.string().nullable(), gracePeriodSecs: z.number().int().nullable() }),
    startPolicy: StartPolicy,
    startOffset: z.number().int().nullable(),
    startTime: z.string().nullable(),
    consumedOffset: z.number().int(),
    terminalAt: z.string().nullable(),
    removeAt: z.string().nullable(),
    createdAt: z.string(),
    filterError: z
      .object({
        code: z.literal('filter_too_costly'),
        message: z.string(),
        at: z.string().openapi({ description: 'when the last such event was seen' }),
        offset: z.number().int().openapi({ description: 'the last such event' }),
        events: z.number().int().openapi({ description: 'how many since the daemon started' }),
      })
      .nullable()
      .openapi({ description: 'events the CEL filter went over its cost limit on (not matched), since the daemon started; null: none' }),
  })
  .openapi('Subscription');

export const SubscriptionList = z.object({ subscriptions: z.array(Subscription) }).openapi('SubscriptionList');

export const SubscriptionParams = z.object({ subscriptionId: z.string().min(1).openapi({ example: 'sub_01J0000000000000000000000' }) });

export const SubscriptionListQuery = withAliases(
  { agentId: z.string().min(1).optional(), sourceId: z.string().min(1).optional(), limit: ListLimit },
  { agent_id: 'agentId', source_id: 'sourceId' },
);

export const SubscriptionDeleted = z.object({ subscriptionId: z.string(), deleted: z.literal(true) }).openapi('SubscriptionDeleted');

export const SubscriptionLag = z
  .object({
    subscriptionId: z.string(),
    sourceId: z.string(),
    consumedOffset: z.number().int(),
    retainedFromOffset: z.number().int(),
    highWatermarkOffset: z.number().int(),
    lag: z.number().int().min(0),
  })
  .openapi('SubscriptionLag');

export const CatchUpResult = SubscriptionLag.extend({ materialized: z.number().int().min(0) }).openapi('SubscriptionCatchUp');

export const ResetSubscriptionBody = z
  .strictObject({ offset: z.number().int().min(1).optional().openapi({ description: 'next offset to consume' }), ...StartFields })
  .refine((b) => (b.offset === undefined) !== (b.startPolicy === undefined), { message: 'give exactly one of offset and startPolicy' })
  .openapi('ResetSubscriptionBody');

export const PollSubscriptionBody = z.strictObject({}).openapi('PollSubscriptionBody');

// --- inbox -----------------------------------------------------------------------------------

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
  .openapi('InboxEntryEvent');

export const InboxEntry = z
  .object({
    entryId: z.string(),
    agentId: z.string(),
    kind: z.enum(['event', 'direct', 'timer']),
    subscriptionId: z.string().nullable(),
    sourceId: z.string().nullable(),
    offset: z.number().int().nullable(),
    event: InboxEvent.nullable(),
    sender: z.string().nullable(),
    message: z.string().nullable(),
    scheduleId: z.string().nullable(),
    createdAt: z.string(),
    ackedAt: z.string().nullable(),
    metadata: OpenObject.optional().openapi({ description: "a direct item's machine-readable fields, when it was given some" }),
    deliveryHandle: EntryDeliveryHandle,
  })
  .openapi('InboxEntry');

export const InboxSummary = z
  .object({ agentId: z.string(), unackedCount: z.number().int(), latestEntryId: z.string().nullable(), deliveryPaused: z.boolean() })
  .openapi('InboxSummary');

export const InboxItemsQuery = withAliases(
  {
    after: EntryId.optional().openapi({ description: 'exclusive cursor (an entry id, e.g. the previous nextCursor)' }),
    limit: QueryInt.pipe(z.number().int().min(1).max(1000)).optional().openapi({ description: 'default 100, at most 1000' }),
    includeAcked: QueryBool.optional().openapi({ description: 'also list acknowledged entries (default false)' }),
  },
  { after_entry_id: 'after', include_acked: 'includeAcked' },
);

export const InboxPage = z.object({ entries: z.array(InboxEntry), nextCursor: z.string().nullable() }).openapi('InboxPage');

export const DirectItemBody = z
  .strictObject({
    message: z.string().min(1),
    sender: z.string().min(1).nullable().optional(),
    metadata: OpenObject.optional().openapi({ description: 'machine-readable fields kept with the item and shown as the entry\'s metadata (webhook receivers read them)' }),
  })
  .openapi('DirectItemBody');

export const AckBody = z
  .strictObject({
    throughEntryId: EntryId.optional(),
    entryIds: z.array(EntryId).min(1).max(10000).optional(),
    all: z.literal(true).optional(),
  })
  .refine((b) => [b.throughEntryId, b.entryIds, b.all].filter((v) => v !== undefined).length === 1, {
    message: 'give exactly one of throughEntryId, entryIds, all: true',
  })
  .openapi('AckBody');

export const AckResult = z.object({ acked: z.number().int().min(0) }).openapi('AckResult');

export const CompactInboxBody = z.strictObject({}).openapi('CompactInboxBody');

export const CompactInboxResult = z.object({ agentId: z.string(), removed: z.number().int().min(0) }).openapi('CompactInboxResult');

export const WatchHeaders = { lastEventId: EntryId };

export const WatchQuery = withAliases(
  {
    after: EntryId.optional().openapi({ description: 'start after this entry (with Last-Event-ID too, the later of the two)' }),
    includeAcked: QueryBool.optional().openapi({ description: 'the backlog also lists acknowledged entries (default false)' }),
    heartbeatMs: QueryInt.pipe(z.number().int().min(1000).max(3_600_000)).optional().openapi({ description: 'send a heartbeat frame this often (1000 to 3600000 ms)' }),
  },
  { after_entry_id: 'after', include_acked: 'includeAcked', heartbeat_ms: 'heartbeatMs' },
);

/**
 * Inbox agents and subscriptions (spec/inbox.md Agents, Subscriptions; docs/inbox-api.md#subscriptions);
 * the inbox's entries are in entries.ts.
 */
import { z } from 'zod';
import { ListLimit, OpenObject, withAliases } from '../common.js';
import { AggregationPolicy } from './aggregation.js';

const Timestamp = z.iso.datetime({ offset: true });

// --- agents ----------------------------------------------------------------------------------

export const InboxAgentParams = z.object({ agentId: z.string().min(1).openapi({ example: 'agt_01J0000000000000000000000' }) });

export const InboxAgent = z
  .object({
    agentId: z.string(),
    name: z.string().nullable(),
    deliveryPaused: z.boolean(),
    createdAt: z.string(),
    aggregation: AggregationPolicy.optional().openapi({ description: 'the agent\'s own aggregation policy; absent: the default' }),
    status: z.enum(['active', 'offline']).openapi({ description: "AgentInbox's agent status: active while the agent has an active target, else offline (notifications reach no one; entries keep arriving)" }),
    offlineSince: z.string().nullable().openapi({ description: 'while offline: the last change of the agent or its targets' }),
    runtimeKind: z.string().openapi({ description: 'runtime of the terminal session the agent is bound to (codex, claude_code), else unknown' }),
    runtimeSessionId: z.string().nullable().openapi({ description: 'that session id, else null' }),
    updatedAt: z.string().openapi({ description: 'the last change of the agent or its targets' }),
    lastSeenAt: z.string().openapi({
      description: 'updatedAt, or the last read, watch or ack of the inbox when later (written at most once a minute); an agent offline and unseen for inbox.offline_agent_ttl_ms is removed',
    }),
  })
  .openapi('InboxAgent', { description: "svc's inbox agent with AgentInbox's Agent fields" });

export const InboxAgentDeleted = z
  .object({ agentId: z.string(), deleted: z.literal(true), removed: z.literal(true).openapi({ description: "AgentInbox's answer" }) })
  .openapi('InboxAgentDeleted');

// --- subscriptions ---------------------------------------------------------------------------

const MatchScalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const SubscriptionFilter = z
  .looseObject({
    match: z
      .record(z.string(), z.union([MatchScalar, z.array(MatchScalar)]))
      .optional()
      .openapi({ description: 'dot path over the event (type, subject, id, time, data.*, metadata.*) -> value, or array of values (any of)' }),
    expr: z.string().optional().openapi({
      description:
        "CEL over `event`, or AgentInbox's JEXL over metadata, payload, eventVariant, sourceType, sourceKey (matching on a truthy value) when it reads those and not `event`; compiled at creation (invalid, or reading both: 400 invalid_filter; nested too deep: 400 filter_too_costly); run with a cost limit",
    }),
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
      .union([
        z.strictObject({ name: z.literal('host'), args: z.strictObject({ hostId: z.string().min(1) }) }),
        z.strictObject({ name: z.string().min(1).max(100).refine((n) => n !== 'host', 'the host shortcut takes args {hostId}'), args: OpenObject.optional() }),
      ])
      .optional()
      .openapi({
        description:
          "{name: host, args: {hostId}} instead of sourceId: subscribe to every source of the host; another name with sourceId: a shortcut of that source (GET /sources/{id}/schema lists them; github_repo: pr {number, withCi?}), which sets filter, trackedResourceRef and cleanupPolicy",
      }),
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
      .openapi({ description: 'events the filter expr went over its cost limit on (not matched), since the daemon started; null: none' }),
  })
  .openapi('Subscription');

export const SubscriptionList = z.object({ subscriptions: z.array(Subscription) }).openapi('SubscriptionList');

export const SubscriptionParams = z.object({ subscriptionId: z.string().min(1).openapi({ example: 'sub_01J0000000000000000000000' }) });

export const SubscriptionListQuery = withAliases(
  { agentId: z.string().min(1).optional(), sourceId: z.string().min(1).optional(), limit: ListLimit },
  { agent_id: 'agentId', source_id: 'sourceId' },
);

export const SubscriptionDeleted = z
  .object({ subscriptionId: z.string(), deleted: z.literal(true), removed: z.literal(true).openapi({ description: "AgentInbox's answer" }) })
  .openapi('SubscriptionDeleted');

export const SubscriptionLag = z
  .object({
    subscriptionId: z.string(),
    sourceId: z.string(),
    consumedOffset: z.number().int(),
    retainedFromOffset: z.number().int(),
    highWatermarkOffset: z.number().int().nullable().openapi({ description: 'the last offset of the stream; null while it is empty' }),
    lag: z.number().int().min(0),
    consumerId: z.string().openapi({ description: "AgentInbox's consumer: the subscription (con_ + the subscription id's ULID)" }),
    streamId: z.string().openapi({ description: "AgentInbox's backend stream of the source: str_ + the source id's ULID (routes take the source id)" }),
    pendingEvents: z.number().int().min(0).openapi({ description: '= lag' }),
    nextOffset: z.number().int().openapi({ description: 'consumedOffset + 1' }),
  })
  .openapi('SubscriptionLag', { description: "svc's consumer offset against the stream bounds, with AgentInbox's ConsumerLag fields" });

export const CatchUpResult = SubscriptionLag.extend({ materialized: z.number().int().min(0) }).openapi('SubscriptionCatchUp');

export const PollResult = CatchUpResult.extend({
  eventsRead: z.number().int().min(0).openapi({ description: 'events consumed by this poll (matching is pushed on append: usually 0)' }),
  matched: z.number().int().min(0).openapi({ description: 'events that made an inbox entry in this poll' }),
  inboxItemsCreated: z.number().int().min(0),
  committedOffset: z.number().int().nullable().openapi({ description: 'the offset consumed through; null when nothing was read' }),
  note: z.string().openapi({ description: '"subscription batch processed" or "no new stream events"' }),
}).openapi('SubscriptionPoll', { description: "the catch-up with AgentInbox's SubscriptionPollResult fields" });

export const Consumer = z
  .object({
    consumerId: z.string(),
    streamId: z.string(),
    subscriptionId: z.string(),
    consumerKey: z.string().openapi({ description: 'subscription:<subscriptionId>' }),
    nextOffset: z.number().int(),
    startPolicy: StartPolicy.openapi({ description: "the consumer's start: the last reset's, else the subscription's" }),
    startOffset: z.number().int().nullable(),
    startTime: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string().openapi({ description: "the last reset, else the subscription's creation time" }),
  })
  .openapi('SubscriptionConsumer', { description: "AgentInbox's consumer record of a subscription" });

export const ResetResult = z
  .object({
    subscription: Subscription.openapi({ description: 'the subscription, with the start it was created with' }),
    consumer: Consumer.openapi({ description: "its consumer, moved: the reset's start and the next offset" }),
    lag: SubscriptionLag.openapi({ description: 'what is left to read after the move (the catch-up runs after this answer)' }),
    ...SubscriptionLag.omit({ lag: true }).shape,
  })
  .openapi('SubscriptionReset', { description: "AgentInbox's {subscription, consumer, lag}, svc's lag fields beside (its numeric lag is lag.lag here)" });

export const ResetSubscriptionBody = z
  .strictObject({ offset: z.number().int().min(1).optional().openapi({ description: 'next offset to consume' }), ...StartFields })
  .refine((b) => (b.offset === undefined) !== (b.startPolicy === undefined), { message: 'give exactly one of offset and startPolicy' })
  .openapi('ResetSubscriptionBody');

export const PollSubscriptionBody = z.strictObject({}).openapi('PollSubscriptionBody');

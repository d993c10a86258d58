/**
 * Hosts, sources, streams, append and compaction (spec/inbox.md Hosts, Sources, Streams;
 * docs/inbox-api.md#hosts-and-sources).
 */
import { z } from 'zod';
import { HOST_TYPES } from '../../../inbox/sources/index.js';
import { COMPACTION_LIMITS, DEFAULT_SCAN_LIMIT, EventInputSchema, fromNativeEvent, MAX_APPEND_EVENTS, nativeEventId } from '../../../inbox/streams/index.js';
import { ListLimit, OpenObject, QueryBool, withAliases } from '../common.js';

const Name = z.string().min(1).max(512);

// --- hosts -----------------------------------------------------------------------------------

export const HostParams = z.object({ hostId: z.string().min(1).openapi({ example: 'hst_01J0000000000000000000000' }) });

export const CreateHostBody = z
  .strictObject({
    hostType: z.enum(HOST_TYPES).openapi({ description: 'the type of every source on this host' }),
    hostKey: Name,
    config: OpenObject.optional().openapi({
      description:
        'provider/runtime host configuration, checked against the type\'s JSON Schema (GET /hosts/{hostId}/schema; 400 invalid_request naming the field): local_event free-form; remote_source free-form with credentialRef?: a credential profile; github {apiBaseUrl?, credentialRef?}. Default {}',
    }),
  })
  .openapi('CreateHostRequest');

export const Host = z
  .object({ hostId: z.string(), hostType: z.enum(HOST_TYPES), hostKey: z.string(), config: OpenObject, createdAt: z.string() })
  .openapi('Host');

export const HostList = z.object({ hosts: z.array(Host) }).openapi('HostList');

export const HostListQuery = z.strictObject({ limit: ListLimit });

export const HostSchema = z
  .object({ hostId: z.string(), hostType: z.enum(HOST_TYPES), hostConfigSchema: OpenObject, sourceConfigSchema: OpenObject })
  .openapi('HostSchema', { description: 'JSON Schemas (draft 2020-12) of the host config and of the config of sources on this host type' });

// --- sources ---------------------------------------------------------------------------------

export const SourceParams = z.object({ sourceId: z.string().min(1).openapi({ example: 'src_01J0000000000000000000000' }) });
export const StreamParams = z.object({ streamId: z.string().min(1).openapi({ example: 'src_01J0000000000000000000000' }) });

export const SourceListQuery = z.strictObject({ hostId: z.string().min(1).optional().openapi({ description: 'only the sources of this host' }), limit: ListLimit });

export const CreateSourceBody = z
  .strictObject({
    hostId: z.string().min(1),
    streamKind: Name,
    streamKey: Name,
    config: OpenObject.optional().openapi({
      description:
        'provider-specific; remote_source: {modulePath (required), moduleConfig? (checked against the module\'s configSchema), pollIntervalMs? (default 60000, >= 1000), pollTimeoutMs? (default 30000)}; github: {owner?, repo? (default: streamKey owner/repo), resources?, since?, perPage?, maxPages?, pollIntervalMs?, pollTimeoutMs?, webhookSecretRef?}; default {}',
    }),
    configRef: z
      .string()
      .min(1)
      .max(512)
      .nullable()
      .optional()
      .openapi({
        description:
          "a reference to configuration kept elsewhere, handed to remote modules; `credential:<profile>` names a credential profile whose secret the module gets (instead of the host's credentialRef)",
      }),
  })
  .openapi('CreateSourceRequest');

export const PatchSourceBody = z
  .strictObject({ config: OpenObject.optional(), configRef: z.string().min(1).max(512).nullable().optional() })
  .refine((b) => b.config !== undefined || b.configRef !== undefined, { message: 'send config and/or configRef' })
  .openapi('PatchSourceRequest');

const IdleState = z
  .object({
    state: z.enum(['waiting', 'auto_paused']),
    since: z.string(),
    pauseAt: z.string().nullable().openapi({ description: 'when a waiting source will be paused' }),
  })
  .openapi('SourceIdleState');

export const StreamStats = z
  .object({
    eventCount: z.number().int().openapi({ description: 'identity rows, including pruned events' }),
    replayableEventCount: z.number().int(),
    prunedEventCount: z.number().int().optional(),
    prunedThroughOffset: z.number().int().optional(),
    retainedFromOffset: z.number().int().openapi({ description: 'first offset whose payload is kept (highWatermarkOffset + 1 when none is)' }),
    highWatermarkOffset: z.number().int().openapi({ description: 'last assigned offset; 0 for an empty stream' }),
  })
  .openapi('StreamStats', { description: 'Compaction fields may be absent for backends without compaction.' });

const SourceFields = {
  sourceId: z.string().openapi({ description: 'also the public stream id' }),
  hostId: z.string(),
  sourceType: z.enum(HOST_TYPES).openapi({ description: "the host's hostType" }),
  streamKind: z.string(),
  streamKey: z.string(),
  config: OpenObject,
  configRef: z.string().nullable(),
  state: z.enum(['active', 'paused', 'error']),
  error: z.string().nullable().openapi({ description: 'why the last module call failed (remote sources)' }),
  idleState: IdleState.nullable().openapi({ description: 'managed remote sources without subscriptions (since creation or since the last one was removed)' }),
  cursor: z.unknown().optional().openapi({ description: 'remote_source: the cursor the module returned last (null before the first poll)' }),
  createdAt: z.string(),
  updatedAt: z.string(),
};

export const Source = z.object(SourceFields).openapi('Source');
export const SourceDetail = z
  .object({ ...SourceFields, streamStats: StreamStats.nullable().openapi({ description: 'null while no event was ever appended' }) })
  .openapi('SourceDetail');
export const SourceList = z.object({ sources: z.array(Source) }).openapi('SourceList');
export const SourceDeleteQuery = withAliases(
  { withSubscriptions: QueryBool.optional().openapi({ description: 'also remove the subscriptions of the source (else a source with subscriptions is kept: 409 source_has_subscriptions)' }) },
  { with_subscriptions: 'withSubscriptions' },
);

export const SourceDeleted = z
  .object({
    sourceId: z.string(),
    deleted: z.literal(true),
    removed: z.literal(true).openapi({ description: "AgentInbox's name for deleted" }),
    removedSubscriptions: z.number().int().openapi({ description: 'subscriptions removed with the source' }),
    pausedSource: z.boolean().openapi({ description: 'a managed remote source stopped polling as part of removing it with its subscriptions' }),
  })
  .openapi('SourceDeleted');

export const SourceSchema = z
  .object({
    sourceId: z.string(),
    sourceType: z.enum(HOST_TYPES),
    configSchema: OpenObject.openapi({ description: "the source config; for remote_source with the module's configSchema as properties.moduleConfig" }),
    eventSchema: OpenObject,
    moduleConfigSchema: OpenObject.nullable().openapi({ description: "remote_source: the JSON Schema the module exports as configSchema (null when it exports none, or for other types)" }),
    moduleError: z.string().nullable().openapi({ description: 'remote_source: why the module cannot be loaded now (null when it can)' }),
  })
  .openapi('SourceSchema', { description: 'JSON Schemas (draft 2020-12 unless they say otherwise) of the source config for its type and of an appended event' });

export const PollResponse = z
  .object({ sourceId: z.string(), appended: z.number().int(), deduped: z.number().int(), state: z.enum(['active', 'paused', 'error']) })
  .openapi('SourcePollResult');

// --- events ----------------------------------------------------------------------------------

// A new object over the same shape: schemas built before the OpenAPI extension is loaded have no .openapi().
export const EventInput = z.strictObject(EventInputSchema.shape).openapi('InboxEventInput', {
  description: 'CloudEvents-shaped. id: idempotency key per stream (generated when absent); time: RFC 3339 with offset (default: append time), read back in UTC.',
});

const MAX_EVENT_ID = EventInputSchema.shape.id.unwrap().maxLength ?? 512;

/** AgentInbox's append body, read as one svc event (fromNativeEvent). */
export const NativeEventInput = z
  .strictObject({
    sourceNativeId: z.string().min(1).max(MAX_EVENT_ID),
    eventVariant: z.string().min(1).max(EventInputSchema.shape.type.maxLength ?? 512),
    occurredAt: z.iso.datetime({ offset: true }).optional().openapi({ description: 'RFC 3339 with offset; default: append time' }),
    metadata: EventInputSchema.shape.metadata,
    rawPayload: OpenObject.optional().openapi({ description: 'the provider payload: the event data' }),
  })
  .refine((e) => nativeEventId(e.sourceNativeId, e.eventVariant).length <= MAX_EVENT_ID, {
    message: `sourceNativeId and eventVariant together make an event id over ${MAX_EVENT_ID} characters`,
  })
  .transform(fromNativeEvent)
  .openapi('NativeEventInput', {
    description:
      "AgentInbox's form of one event: stored as {id: '<eventVariant>:<sourceNativeId>' (':' and '%' in the variant escaped), type: eventVariant, time: occurredAt, data: rawPayload, metadata}. Repeating sourceNativeId + eventVariant is deduplicated.",
  });

const APPEND_FORMS = ['event', 'batch', 'native'] as const;

/** Which form the body was meant as: a batch when it has `events`, AgentInbox's when it names a native id or variant. */
function appendForm(input: unknown): (typeof APPEND_FORMS)[number] {
  if (typeof input !== 'object' || input === null) return 'event';
  if ('events' in input) return 'batch';
  return 'sourceNativeId' in input || 'eventVariant' in input ? 'native' : 'event';
}

/** The failing branch's first issue (the branch of the form the body was meant as). */
function appendBodyError(iss: { input?: unknown; errors?: Array<Array<{ path: PropertyKey[]; message: string }>> }): string {
  const first = iss.errors?.[APPEND_FORMS.indexOf(appendForm(iss.input))]?.[0];
  if (!first) return 'send one event {type, id?, subject?, time?, data?, metadata?}, {events: [...]} or {sourceNativeId, eventVariant, occurredAt?, metadata?, rawPayload?}';
  const where = first.path.map(String).join('.');
  return where ? `${where}: ${first.message}` : first.message;
}

export const AppendBody = z
  .union([EventInput, z.strictObject({ events: z.array(EventInput).min(1).max(MAX_APPEND_EVENTS) }), NativeEventInput], { error: appendBodyError })
  .openapi('AppendEventsRequest', {
    description: `one event, {events: [...]} (1 to ${MAX_APPEND_EVENTS}), or one event in AgentInbox's form {sourceNativeId, eventVariant, occurredAt?, metadata?, rawPayload?}`,
  });

export const AppendResponse = z
  .object({
    appended: z.number().int(),
    deduped: z.number().int().openapi({ description: 'events whose id was already stored on this stream (stored once)' }),
    firstOffset: z.number().int().nullable(),
    lastOffset: z.number().int().nullable(),
  })
  .openapi('AppendEventsResult', { description: "A superset of AgentInbox's answer {appended, deduped, lastOffset}." });

// --- streams and compaction ------------------------------------------------------------------

export const StreamDetail = z
  .object({
    streamId: z.string(),
    sourceId: z.string(),
    hostId: z.string(),
    sourceType: z.enum(HOST_TYPES),
    streamKind: z.string(),
    streamKey: z.string(),
    state: z.enum(['active', 'paused', 'error']),
    backend: z.string().openapi({ description: 'stream backend name (sqlite)' }),
    compaction: z.boolean().openapi({ description: 'whether the backend supports compaction' }),
    idleState: IdleState.nullable().openapi({ description: "the source's idle auto-pause state (as GET /sources/{sourceId})" }),
    streamStats: StreamStats.nullable(),
  })
  .openapi('StreamDetail');

const RetentionMs = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).openapi({ description: 'events appended at least this long ago are eligible' });
const limit = (max: number, what: string) => z.number().int().min(1).max(max).optional().openapi({ description: `${what}; default and upper bound ${max}` });

export const CompactionPreviewBody = z
  .strictObject({
    retentionMs: RetentionMs,
    scanLimit: z.number().int().min(1).max(COMPACTION_LIMITS.scanLimit).optional().openapi({ description: `events scanned at most (default ${DEFAULT_SCAN_LIMIT}, at most ${COMPACTION_LIMITS.scanLimit})` }),
  })
  .openapi('CompactionPreviewRequest');

export const CompactionPreview = z
  .object({
    streamId: z.string(),
    retentionMs: z.number().int(),
    cutoff: z.string(),
    consumers: z.number().int(),
    skipReason: z.enum(['no_consumers']).nullable(),
    scanLimit: z.number().int(),
    scanned: z.number().int(),
    scanComplete: z.boolean(),
    eligibleEvents: z.number().int(),
    eligibleBytes: z.number().int(),
    firstEligibleOffset: z.number().int().nullable(),
    lastEligibleOffset: z.number().int().nullable(),
    largestEventBytes: z.number().int(),
    streamStats: StreamStats,
  })
  .openapi('CompactionPreview');

export const CompactionApplyBody = z
  .strictObject({
    apply: z.literal(true).openapi({ description: 'required; false or missing answers 400' }),
    retentionMs: RetentionMs,
    batchSize: limit(COMPACTION_LIMITS.batchSize, 'events per batch (one transaction)'),
    maxEvents: limit(COMPACTION_LIMITS.maxEvents, 'events pruned by this call'),
    maxPayloadBytes: limit(COMPACTION_LIMITS.maxPayloadBytes, 'logical payload bytes per batch; one larger event stops the run with oversized'),
  })
  .openapi('CompactionApplyRequest', { description: 'Unknown options (including the preview-only scanLimit) answer 400.' });

export const CompactionResult = z
  .object({
    streamId: z.string(),
    committedBatches: z.number().int(),
    prunedEvents: z.number().int(),
    prunedBytes: z.number().int(),
    retainedFromOffset: z.number().int(),
    highWatermarkOffset: z.number().int(),
    nextOffset: z.number().int(),
    hasMore: z.boolean(),
    stopReason: z.enum(['completed', 'max_events', 'oversized', 'no_consumers']),
  })
  .openapi('CompactionResult');

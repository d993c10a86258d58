/**
 * Appends, the stream list and compaction (spec/inbox.md Streams; docs/inbox-api.md#append,
 * #compaction). A stream is its source: the records are in sources.ts.
 */
import { z } from 'zod';
import { COMPACTION_LIMITS, DEFAULT_SCAN_LIMIT, EventInputSchema, fromNativeEvent, MAX_APPEND_EVENTS, nativeEventId } from '../../../inbox/streams/index.js';
import { OpenObject } from '../common.js';
import { Source, StreamStats } from './sources.js';

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

export const StreamList = z.object({ streams: z.array(Source) }).openapi('StreamList');

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

import { z } from 'zod';
import { LEVELS } from '../../events/wire/index.js';
import { QueryInt } from './common.js';

export const EventEnvelope = z
  .object({
    id: z.string().openapi({ description: 'audit event id (evt_ + ULID), not the SSE frame id' }),
    event_seq: z.number().int().min(1).openapi({ description: 'per-agent durable sequence number; equals the SSE id field' }),
    ts: z.string().openapi({ description: 'RFC 3339 timestamp' }),
    agent_id: z.string(),
    type: z.string().openapi({ description: 'raw audit event kind; equals the SSE event field' }),
    provenance: z.record(z.string(), z.unknown()).nullable(),
    payload: z.record(z.string(), z.unknown()),
  })
  .openapi('StreamEventEnvelope');

export const EventsQuery = z.object({
  before_seq: QueryInt.optional().openapi({ description: 'events with event_seq lower than this (exclusive)' }),
  after_seq: QueryInt.optional().openapi({ description: 'events with event_seq higher than this (exclusive)' }),
  limit: QueryInt.optional().openapi({ description: 'max events, default 128, clamped to events.page_limit_max' }),
  order: z.enum(['asc', 'desc']).default('desc'),
  max_level: z.enum(LEVELS).default('debug').openapi({ description: 'info: info only; verbose: info and verbose; debug: all' }),
});

export const EventsPage = z
  .object({
    events: z.array(EventEnvelope),
    oldest_seq: z.number().int().nullable(),
    newest_seq: z.number().int().nullable(),
    cursor_seq: z.number().int().openapi({ description: 'raw event-log high-watermark captured while serving' }),
    has_older: z.boolean().openapi({ description: 'an older matching event is retained; false at the start of the replay window, also when retention pruned older events' }),
    has_newer: z.boolean(),
    order: z.enum(['asc', 'desc']),
    limit: z.number().int(),
  })
  .openapi('EventsPageResponse');

export const StreamQuery = z.object({
  after_seq: QueryInt.optional().openapi({
    description:
      'omitted: live only (or Last-Event-ID); 0: the whole replay window, from the oldest retained event; N: must lie in the replay window (oldest_retained_seq - 1 .. head; events.retain_days and events.retain_max_events decide what is retained), else 404 cursor_not_found',
  }),
  limit: QueryInt.optional().openapi({ description: 'cap on backlog events replayed by this connection; the stream closes after them' }),
});

/**
 * The layout in JetStream (README.md beside this file): one stream per source, with its limits
 * and duplicate window, and what a message holds: the event as JSON (`id, type, subject, timeMs,
 * appendedMs, appendId, data, metadata`) published with `Nats-Msg-Id` = its id. `appendId` names
 * the append that published this copy (backend.ts counts as appended only the copies it published
 * that the mirror keeps). A message another client published on the subject is kept as
 * `jetstream.message`.
 */
import type { JsMsg, StreamConfig } from '@nats-io/jetstream';
import { isoAt, errors } from '../../../core/index.js';
import type { MirroredEvent } from '../sqlite-backend.js';
import type { PreparedEvent } from '../types.js';
import type { NatsLibrary } from './library.js';

/** JetStream's own default; shorter when the streams keep events for less. */
const DUPLICATE_WINDOW_MS = 120_000;

/** A source's stream: file storage, `replicas` copies, limits retention that discards the oldest. */
export function streamConfig(
  settings: { replicas: number; max_age_s: number; max_bytes: number },
  name: string,
  subject: string,
  { jetstream, transport }: NatsLibrary,
): Partial<StreamConfig> & { name: string } {
  const { StorageType, RetentionPolicy, DiscardPolicy } = jetstream;
  const { nanos } = transport;
  const maxAgeMs = settings.max_age_s * 1000;
  return {
    name,
    subjects: [subject],
    num_replicas: settings.replicas,
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    discard: DiscardPolicy.Old,
    max_age: nanos(maxAgeMs),
    max_bytes: settings.max_bytes > 0 ? settings.max_bytes : -1,
    duplicate_window: nanos(maxAgeMs > 0 ? Math.min(DUPLICATE_WINDOW_MS, maxAgeMs) : DUPLICATE_WINDOW_MS),
  };
}

/** An event as published: its id (the Nats-Msg-Id) and its encoded body. */
export interface Outgoing {
  id: string;
  body: string;
}

/** Room left in a message for its headers (Nats-Msg-Id and the protocol line). */
const HEADER_ALLOWANCE = 1024;

/** The body of a published event: the prepared event with the publishing daemon's append time and the append's id. */
function encode(e: PreparedEvent, appendedMs: number, appendId: string): string {
  return `{"id":${JSON.stringify(e.id)},"type":${JSON.stringify(e.type)},"subject":${JSON.stringify(e.subject)},"timeMs":${e.timeMs},"appendedMs":${appendedMs},"appendId":${JSON.stringify(appendId)},"data":${e.dataJson},"metadata":${e.metadataJson}}`;
}

/** A message as the mirror takes it, with the id of the append that published it (null when not svc's). */
export type Delivered = MirroredEvent & { appendId: string | null };

/**
 * Each event's message, encoded once. An event larger than the servers' max_payload (1 MiB by
 * default) could never be stored: the whole append is refused (413) before anything is sent.
 */
export function encodeAll(streamId: string, events: PreparedEvent[], appendedMs: number, appendId: string, maxPayload: number): Outgoing[] {
  const limit = maxPayload - HEADER_ALLOWANCE;
  return events.map((e) => {
    const body = encode(e, appendedMs, appendId);
    const bytes = Buffer.byteLength(body);
    if (bytes > limit) throw errors.eventTooLarge(streamId, e.id, bytes, limit);
    return { id: e.id, body };
  });
}

/** A message on a stream's subject; one that is not svc's (published by another client) is kept as `jetstream.message`. */
export function decode(m: JsMsg): Delivered {
  const text = m.string();
  const appendedFallback = Math.floor(m.info.timestampNanos / 1e6);
  try {
    const b = JSON.parse(text) as Record<string, unknown>;
    if (typeof b.id === 'string' && typeof b.type === 'string' && typeof b.timeMs === 'number' && typeof b.appendedMs === 'number') {
      const data = b.data ?? null;
      const metadata = (b.metadata && typeof b.metadata === 'object' ? b.metadata : {}) as Record<string, unknown>;
      const event = { id: b.id, type: b.type, subject: typeof b.subject === 'string' ? b.subject : null, time: isoAt(b.timeMs), timeMs: b.timeMs, data, metadata, dataJson: JSON.stringify(data), metadataJson: JSON.stringify(metadata) };
      return { offset: m.seq, event, appendedMs: b.appendedMs, appendId: typeof b.appendId === 'string' ? b.appendId : null };
    }
  } catch {
    // not JSON: kept as text below
  }
  const id = m.headers?.get('Nats-Msg-Id') || `jetstream-${m.seq}`;
  const event = { id, type: 'jetstream.message', subject: m.subject, time: isoAt(appendedFallback), timeMs: appendedFallback, data: text, metadata: {}, dataJson: JSON.stringify(text), metadataJson: '{}' };
  return { offset: m.seq, event, appendedMs: appendedFallback, appendId: null };
}

/**
 * Streams: per-source append-only event logs with contiguous offsets from 1
 * (docs/inbox-api.md#append). Appends are group-committed (`store.write`) and answered after
 * commit; listeners registered with `onAppended` run inside the append transaction with the newly
 * stored events, so matching (subscriptions) commits together with the events it matched.
 */
import { z } from 'zod';
import { isoAt, type Clock, errors, type Issue, type IdGenerator } from '../../core/index.js';
import type { Store } from '../../store/index.js';
import type { PreparedEvent, RemoteStreams, StoredEvent, StreamBackend, StreamBounds, StreamStats } from './types.js';

/** A CloudEvents-shaped event as callers send it (`id` is the idempotency key). */
export interface EventInput {
  id?: string;
  type: string;
  subject?: string | null;
  time?: string | null;
  data?: unknown;
  metadata?: Record<string, unknown>;
}

/**
 * The one validation of an event, used by the append route and for what remote-source modules
 * return. `time` is RFC 3339 with an offset; it is stored as epoch milliseconds and read back in UTC.
 */
export const EventInputSchema = z.strictObject({
  id: z.string().min(1).max(512).optional(),
  type: z.string().min(1).max(512),
  subject: z.string().max(2048).nullable().optional(),
  time: z.iso.datetime({ offset: true }).nullable().optional(),
  data: z.unknown().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

/**
 * AgentInbox's way of naming an event (its `POST /sources/{id}/events` body): a source-native id
 * and an event variant, which together identify the event, plus normalised `metadata` and the
 * provider's `rawPayload`. Read as a svc event: `type` = variant, `data` = rawPayload, `time` =
 * occurredAt, and the id `<variant>:<native id>` (with `%` and `:` in the variant escaped), so a
 * repeat of both is deduplicated like a repeated `id` while two variants of one native id are two events.
 */
export interface NativeEventInput {
  sourceNativeId: string;
  eventVariant: string;
  occurredAt?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
  rawPayload?: Record<string, unknown> | undefined;
}

export function nativeEventId(sourceNativeId: string, eventVariant: string): string {
  return `${eventVariant.replace(/%/g, '%25').replace(/:/g, '%3A')}:${sourceNativeId}`;
}

export function fromNativeEvent(e: NativeEventInput): EventInput {
  return {
    id: nativeEventId(e.sourceNativeId, e.eventVariant),
    type: e.eventVariant,
    ...(e.occurredAt !== undefined ? { time: e.occurredAt } : {}),
    ...(e.rawPayload !== undefined ? { data: e.rawPayload } : {}),
    ...(e.metadata !== undefined ? { metadata: e.metadata } : {}),
  };
}

/** Most events one append (or one poll) may carry. */
export const MAX_APPEND_EVENTS = 10_000;

export interface AppendResult {
  appended: number;
  deduped: number;
  firstOffset: number | null;
  lastOffset: number | null;
}

export interface StreamServiceDeps {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  backend: StreamBackend;
}

type AppendedListener = (sourceId: string, events: StoredEvent[]) => void;

export class StreamService {
  private readonly appendedListeners: AppendedListener[] = [];
  private consumerCounter: (sourceId: string) => number = () => 0;
  /** Inside the append transaction: throws when the source is gone (set by SourceService). */
  private sourceGuard: (sourceId: string) => void = () => {};

  constructor(private readonly deps: StreamServiceDeps) {}

  get backend(): StreamBackend {
    return this.deps.backend;
  }

  /**
   * Append events (validated, ids generated where absent) in one group-committed transaction;
   * answered after commit. A repeated `id` on the stream is counted in `deduped` and stored once.
   * `alsoInTx` runs in the same transaction (remote sources persist their cursor there).
   */
  async append(sourceId: string, events: EventInput[], alsoInTx?: () => void): Promise<AppendResult> {
    const prepared = this.prepare(events);
    const remote = this.deps.backend.remote;
    if (remote) return this.publish(remote, sourceId, prepared, alsoInTx);
    return this.deps.store.write(() => {
      this.sourceGuard(sourceId);
      let result: AppendResult = { appended: 0, deduped: 0, firstOffset: null, lastOffset: null };
      if (prepared.length > 0) {
        const { stored, deduped } = this.deps.backend.append(sourceId, prepared, this.deps.clock.now());
        if (stored.length > 0) this.deliver(sourceId, stored);
        result = { appended: stored.length, deduped, firstOffset: stored[0]?.offset ?? null, lastOffset: stored.at(-1)?.offset ?? null };
      }
      alsoInTx?.();
      return result;
    });
  }

  /**
   * A remote log: published outside any transaction and answered once JetStream stored it and the
   * local mirror holds it (the mirror's transaction ran the append listeners). `alsoInTx` commits
   * after the publish: a crash in between re-polls events that are then deduplicated by id.
   */
  private async publish(remote: RemoteStreams, sourceId: string, prepared: PreparedEvent[], alsoInTx?: () => void): Promise<AppendResult> {
    this.sourceGuard(sourceId);
    const { stored, deduped } = prepared.length > 0 ? await remote.publish(sourceId, prepared, this.deps.clock.now()) : { stored: [], deduped: 0 };
    if (alsoInTx) await this.deps.store.write(alsoInTx);
    return { appended: stored.length, deduped, firstOffset: stored[0]?.offset ?? null, lastOffset: stored.at(-1)?.offset ?? null };
  }

  /** The remote log's mirror delivers what it stored: the same listeners as an append, inside its transaction. */
  deliver(sourceId: string, stored: StoredEvent[]): void {
    for (const listener of this.appendedListeners) listener(sourceId, stored);
  }

  /**
   * Serialise outside the transaction. Callers validate with EventInputSchema first (the append
   * route's body schema, RemoteModules for poll results); this only guards the fields storage
   * relies on, so a bad call from code can never store a broken row (400 invalid_request).
   */
  prepare(events: EventInput[]): PreparedEvent[] {
    if (events.length > MAX_APPEND_EVENTS) {
      throw errors.invalidRequest([{ path: 'events', message: `at most ${MAX_APPEND_EVENTS} events per append` }]);
    }
    const now = this.deps.clock.now();
    return events.map((e, i) => {
      const timeMs = e.time ? Date.parse(e.time) : now;
      if (typeof e.type !== 'string' || e.type === '' || (e.id !== undefined && (typeof e.id !== 'string' || e.id === '')) || !Number.isFinite(timeMs)) {
        const parsed = EventInputSchema.safeParse(e);
        const issues: Issue[] = parsed.success
          ? [{ path: `events.${i}`, message: 'invalid event' }]
          : parsed.error.issues.map((iss) => ({ path: ['events', i, ...iss.path].join('.'), message: iss.message }));
        throw errors.invalidRequest(issues);
      }
      const data = e.data === undefined ? null : e.data;
      const metadata = e.metadata ?? {};
      return {
        id: e.id ?? this.deps.ids.make('event'),
        type: e.type,
        subject: e.subject ?? null,
        time: isoAt(timeMs),
        timeMs,
        data,
        metadata,
        dataJson: JSON.stringify(data),
        metadataJson: JSON.stringify(metadata),
      };
    });
  }

  /** Called inside the append transaction with the newly stored events (not deduped ones). */
  onAppended(listener: AppendedListener): void {
    this.appendedListeners.push(listener);
  }

  /** Events after `afterOffset` in offset order; pruned ones come back as identity stubs. */
  read(sourceId: string, afterOffset: number, limit: number): StoredEvent[] {
    return this.deps.backend.read(sourceId, afterOffset, limit);
  }

  /** First offset whose event time >= t (highWatermark + 1 if none). */
  offsetAtTime(sourceId: string, isoTime: string): number {
    return this.deps.backend.offsetAtTime(sourceId, Date.parse(isoTime));
  }

  bounds(sourceId: string): StreamBounds {
    return this.deps.backend.bounds(sourceId);
  }

  /** null when the stream was never initialised (no event appended yet). */
  stats(sourceId: string): StreamStats | null {
    return this.deps.backend.stats(sourceId);
  }

  /**
   * A replay that would start at `fromOffset` (the first offset to deliver) needs every payload
   * from there on: below `retainedFromOffset` it throws 409 history_unavailable with the spec's
   * fields; `requested` is what the caller asked for (an offset, a time or a start policy).
   */
  assertReplayable(sourceId: string, fromOffset: number, requested: unknown): void {
    const b = this.bounds(sourceId);
    if (fromOffset < b.retainedFromOffset) throw errors.historyUnavailable({ streamId: sourceId, requested, ...b });
  }

  /** Subscriptions on the source (compaction skips streams without consumers). */
  setConsumerCounter(fn: (sourceId: string) => number): void {
    this.consumerCounter = fn;
  }

  consumers(sourceId: string): number {
    return this.consumerCounter(sourceId);
  }

  /** @internal SourceService: reject appends to a source deleted meanwhile. */
  setSourceGuard(fn: (sourceId: string) => void): void {
    this.sourceGuard = fn;
  }
}

/**
 * Streams: per-source append-only event logs with contiguous offsets from 1 (CONTRACT.md
 * section 9). Appends are group-committed (`store.write`) and answered after commit; listeners
 * registered with `onAppended` run inside the append transaction with the newly stored events.
 */
import type { Clock } from '../core/clock.js';
import type { Store } from '../store/store.js';
import type { StreamBackend, StreamBounds, StreamStats } from './stream-backend.js';

/** A CloudEvents-shaped event as callers send it (`id` is the idempotency key). */
export interface EventInput {
  id?: string;
  type: string;
  subject?: string | null;
  time?: string | null;
  data?: unknown;
  metadata?: Record<string, unknown>;
}

export interface StoredEvent {
  sourceId: string;
  offset: number;
  id: string;
  type: string;
  subject: string | null;
  time: string;
  data: unknown;
  metadata: Record<string, unknown>;
  appendedAt: string;
  /** Payload removed by compaction: `data` is null and `metadata` is `{}`; identity fields remain. */
  pruned: boolean;
}

export interface AppendResult {
  appended: number;
  deduped: number;
  firstOffset: number | null;
  lastOffset: number | null;
}

export interface StreamServiceDeps {
  store: Store;
  clock: Clock;
  backend: StreamBackend;
}

export class StreamService {
  private readonly appendedListeners: Array<(sourceId: string, events: StoredEvent[]) => void> = [];
  private consumerCounter: (sourceId: string) => number = () => 0;

  constructor(private readonly deps: StreamServiceDeps) {}

  get backend(): StreamBackend {
    return this.deps.backend;
  }

  /** One group-committed transaction; answered after commit. */
  async append(_sourceId: string, _events: EventInput[]): Promise<AppendResult> {
    return { appended: 0, deduped: 0, firstOffset: null, lastOffset: null };
  }

  /** Called inside the append transaction with the newly stored events (not deduped ones). */
  onAppended(listener: (sourceId: string, events: StoredEvent[]) => void): void {
    this.appendedListeners.push(listener);
  }

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

  stats(sourceId: string): StreamStats | null {
    return this.deps.backend.stats(sourceId);
  }

  /** Subscriptions on the source (compaction skips streams without consumers). */
  setConsumerCounter(fn: (sourceId: string) => number): void {
    this.consumerCounter = fn;
  }

  consumers(sourceId: string): number {
    return this.consumerCounter(sourceId);
  }
}

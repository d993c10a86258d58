/**
 * Stream compaction (spec/inbox.md "Compaction preview/apply body", docs/inbox-api.md#compaction).
 *
 * Retention: an event is eligible when it was appended at least `retentionMs` ago (append time,
 * not the producer's event time, so a producer's clock cannot make fresh events eligible).
 * Pruning replaces an event's payload (`data`, `metadata`) by an identity stub that keeps its
 * offset, id, type, subject and times, and always covers a prefix of the stream: it walks from
 * `retainedFromOffset` upwards and stops at the first event not yet eligible. So the retained
 * range is `retainedFromOffset ..= highWatermarkOffset` and `prunedThroughOffset =
 * retainedFromOffset - 1`. Pruning cannot be undone; nothing is vacuumed.
 *
 * Apply works in short batches, each its own transaction, rechecking eligibility (clock,
 * consumers) per batch so appends interleave; `batchSize` events and `maxPayloadBytes` logical
 * payload bytes per batch, `maxEvents` per call. An event larger than `maxPayloadBytes` stops the
 * run with `oversized`. A stream without consumers (subscriptions) is skipped (`no_consumers`).
 * A retry continues where the last run stopped: pruned payloads are never counted again.
 */
import { isoAt, type Clock, errors } from '../../core/index.js';
import type { Store } from '../../store/index.js';
import type { CompactionSupport, StreamOwners, StreamStats } from './types.js';
import type { StreamService } from './streams.js';

/** Defaults that are also the hard upper bounds of the apply options. */
export const COMPACTION_LIMITS = { batchSize: 1000, maxEvents: 100_000, maxPayloadBytes: 8 * 1024 * 1024, scanLimit: 100_000 } as const;
export const DEFAULT_SCAN_LIMIT = 10_000;

export type StopReason = 'completed' | 'max_events' | 'oversized' | 'no_consumers';

export interface CompactionPreview {
  streamId: string;
  retentionMs: number;
  /** Events appended at or before this instant are eligible. */
  cutoff: string;
  consumers: number;
  /** `no_consumers` when apply would skip the stream now. */
  skipReason: 'no_consumers' | null;
  scanLimit: number;
  scanned: number;
  /** True when the scan reached the first ineligible event or the end of the stream. */
  scanComplete: boolean;
  eligibleEvents: number;
  eligibleBytes: number;
  firstEligibleOffset: number | null;
  lastEligibleOffset: number | null;
  largestEventBytes: number;
  streamStats: StreamStats;
}

export interface CompactionApplyOptions {
  /** The HTTP body's required confirmation (checked by the route schema). */
  apply?: true;
  retentionMs: number;
  batchSize?: number;
  maxEvents?: number;
  maxPayloadBytes?: number;
}

export interface CompactionResult {
  streamId: string;
  committedBatches: number;
  prunedEvents: number;
  prunedBytes: number;
  retainedFromOffset: number;
  highWatermarkOffset: number;
  /** The next offset a later run would look at. */
  nextOffset: number;
  /** Whether eligible payloads remain (a retry would prune more). */
  hasMore: boolean;
  stopReason: StopReason;
}

export interface CompactionDeps {
  store: Store;
  clock: Clock;
  sources: StreamOwners;
  streams: StreamService;
}

interface Batch {
  pruned: number;
  bytes: number;
  stop: StopReason | null;
}

export class CompactionService {
  constructor(private readonly deps: CompactionDeps) {}

  /** The public stream id must name a source whose stream exists, on a backend that compacts. */
  private support(streamId: string): CompactionSupport {
    this.deps.sources.streamSource(streamId);
    const backend = this.deps.streams.backend;
    if (!backend.compaction) throw errors.compactionUnsupported(streamId, backend.name);
    // Read-only: a stream that was never initialised is reported, not created.
    if (!backend.exists(streamId)) throw errors.streamNotFound(streamId, { streamId, reason: 'no event was ever appended to this stream' });
    return backend.compaction;
  }

  /** Bounded, read-only: scans at most `scanLimit` events from the retained range. */
  preview(streamId: string, opts: { retentionMs: number; scanLimit?: number }): CompactionPreview {
    const compaction = this.support(streamId);
    const scanLimit = opts.scanLimit ?? DEFAULT_SCAN_LIMIT;
    const cutoffMs = this.deps.clock.now() - opts.retentionMs;
    const { retainedFromOffset } = this.deps.streams.bounds(streamId);
    const rows = compaction.candidates(streamId, retainedFromOffset, scanLimit);
    let eligibleEvents = 0;
    let eligibleBytes = 0;
    let largest = 0;
    let first: number | null = null;
    let last: number | null = null;
    let scanned = 0;
    let reachedIneligible = false;
    for (const r of rows) {
      scanned++;
      if (r.appendedMs > cutoffMs) {
        reachedIneligible = true;
        break;
      }
      if (r.pruned) continue;
      eligibleEvents++;
      eligibleBytes += r.payloadBytes;
      largest = Math.max(largest, r.payloadBytes);
      first ??= r.offset;
      last = r.offset;
    }
    const consumers = this.deps.streams.consumers(streamId);
    return {
      streamId,
      retentionMs: opts.retentionMs,
      cutoff: isoAt(cutoffMs),
      consumers,
      skipReason: consumers === 0 ? 'no_consumers' : null,
      scanLimit,
      scanned,
      scanComplete: reachedIneligible || rows.length < scanLimit,
      eligibleEvents,
      eligibleBytes,
      firstEligibleOffset: first,
      lastEligibleOffset: last,
      largestEventBytes: largest,
      streamStats: this.deps.streams.stats(streamId)!,
    };
  }

  async apply(streamId: string, opts: CompactionApplyOptions): Promise<CompactionResult> {
    const compaction = this.support(streamId);
    const batchSize = opts.batchSize ?? COMPACTION_LIMITS.batchSize;
    const maxEvents = opts.maxEvents ?? COMPACTION_LIMITS.maxEvents;
    const maxBytes = opts.maxPayloadBytes ?? COMPACTION_LIMITS.maxPayloadBytes;
    let committedBatches = 0;
    let prunedEvents = 0;
    let prunedBytes = 0;
    let stopReason: StopReason;
    for (;;) {
      if (prunedEvents >= maxEvents) {
        stopReason = 'max_events';
        break;
      }
      const limit = Math.min(batchSize, maxEvents - prunedEvents);
      const batch = this.deps.store.tx(() => this.batch(streamId, compaction, opts.retentionMs, limit, maxBytes));
      if (batch.pruned > 0) {
        committedBatches++;
        prunedEvents += batch.pruned;
        prunedBytes += batch.bytes;
      }
      if (batch.stop) {
        stopReason = batch.stop;
        break;
      }
      // Let appends and requests in between batches.
      await new Promise((resolve) => setImmediate(resolve));
    }
    const bounds = this.deps.streams.bounds(streamId);
    const next = compaction.candidates(streamId, bounds.retainedFromOffset, 1)[0];
    const hasMore = stopReason !== 'completed' && next !== undefined && next.appendedMs <= this.deps.clock.now() - opts.retentionMs;
    return { streamId, committedBatches, prunedEvents, prunedBytes, ...bounds, nextOffset: bounds.retainedFromOffset, hasMore, stopReason };
  }

  /** One batch, inside its transaction: eligibility is decided now, not when the run started. */
  private batch(streamId: string, compaction: CompactionSupport, retentionMs: number, limit: number, maxBytes: number): Batch {
    if (this.deps.streams.consumers(streamId) === 0) return { pruned: 0, bytes: 0, stop: 'no_consumers' };
    const cutoffMs = this.deps.clock.now() - retentionMs;
    const from = this.deps.streams.bounds(streamId).retainedFromOffset;
    const rows = compaction.candidates(streamId, from, limit);
    let through = from - 1;
    let bytes = 0;
    let stop: StopReason | null = rows.length < limit ? 'completed' : null;
    for (const r of rows) {
      if (r.appendedMs > cutoffMs) {
        stop = 'completed';
        break;
      }
      if (!r.pruned) {
        if (r.payloadBytes > maxBytes) {
          // Commit what fits before it; the next batch starts at this event and stops here.
          stop = through < from ? 'oversized' : null;
          break;
        }
        if (bytes + r.payloadBytes > maxBytes) {
          stop = null;
          break;
        }
        bytes += r.payloadBytes;
      }
      through = r.offset;
    }
    if (through < from) return { pruned: 0, bytes: 0, stop: stop ?? 'completed' };
    const result = compaction.pruneThrough(streamId, through);
    return { pruned: result.events, bytes: result.bytes, stop };
  }
}

/**
 * The SQLite stream backend (migration 013): events in one table keyed by (stream_no, offset) in
 * the shared database. An append is an indexed insert at the right edge of the primary key plus
 * the idempotency and time indexes, and one update of the stream's row: its cost does not grow
 * with the number of stored events, and nothing rewrites the file.
 */
import type Database from 'better-sqlite3';
import { isoAt } from '../../core/index.js';
import { type Store, TxCache } from '../../store/index.js';
import type {
  BackendAppendResult,
  CompactionCandidate,
  CompactionSupport,
  PreparedEvent,
  PruneResult,
  StoredEvent,
  StreamBackend,
  StreamBounds,
  StreamStats,
} from './types.js';

/** One event of a remote log at the offset the log gave it. */
export interface MirroredEvent {
  offset: number;
  event: PreparedEvent;
  appendedMs: number;
  /** The first event a (re)started consumer delivered: a gap before it is the log's retention. */
  resumed?: boolean;
}

interface StreamRow {
  stream_no: number;
  high_watermark: number;
  pruned_count: number;
  pruned_through: number;
  last_time_ms: number | null;
  time_ordered: number;
}

interface EventRow {
  offset: number;
  event_id: string;
  type: string;
  subject: string | null;
  time_ms: number;
  appended_ms: number;
  data_json: string | null;
  metadata_json: string | null;
  pruned: number;
}

/** The in-memory head of a stream (forgotten on rollback). */
interface Head {
  no: number;
  hw: number;
  /** Latest event time stored, and whether event times never decreased with offsets. */
  lastTimeMs: number | null;
  ordered: boolean;
}

export class SqliteStreamBackend implements StreamBackend, CompactionSupport {
  readonly name = 'sqlite';
  readonly compaction: CompactionSupport = this;
  private readonly db: Database.Database;
  private readonly heads: TxCache<Head | null>;
  private readonly stmts;

  constructor(store: Store) {
    this.db = store.db;
    this.heads = new TxCache(store);
    const db = this.db;
    this.stmts = {
      stream: db.prepare<[string], StreamRow>('SELECT * FROM inbox_streams WHERE stream_id = ?'),
      createStream: db.prepare('INSERT INTO inbox_streams (stream_id, created_ms) VALUES (?, ?) ON CONFLICT (stream_id) DO NOTHING'),
      setHead: db.prepare('UPDATE inbox_streams SET high_watermark = ?, last_time_ms = ?, time_ordered = ? WHERE stream_no = ?'),
      insert: db.prepare(
        `INSERT INTO inbox_events (stream_no, offset, event_id, type, subject, time_ms, appended_ms, data_json, metadata_json, payload_bytes)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (stream_no, event_id) DO NOTHING`,
      ),
      read: db.prepare<[number, number, number], EventRow>(
        `SELECT offset, event_id, type, subject, time_ms, appended_ms, data_json, metadata_json, pruned
           FROM inbox_events WHERE stream_no = ? AND offset > ? ORDER BY offset LIMIT ?`,
      ),
      byEventId: db.prepare<[number, string], { offset: number }>('SELECT offset FROM inbox_events WHERE stream_no = ? AND event_id = ?'),
      timeAt: db.prepare<[number, number], { t: number }>('SELECT time_ms AS t FROM inbox_events WHERE stream_no = ? AND offset = ?'),
      scanTime: db.prepare<[number, number], { o: number }>('SELECT offset AS o FROM inbox_events WHERE stream_no = ? AND time_ms >= ? ORDER BY offset LIMIT 1'),
      candidates: db.prepare<[number, number, number], { offset: number; appended_ms: number; payload_bytes: number; pruned: number }>(
        'SELECT offset, appended_ms, payload_bytes, pruned FROM inbox_events WHERE stream_no = ? AND offset >= ? ORDER BY offset LIMIT ?',
      ),
      pruneSum: db.prepare<[number, number], { n: number; bytes: number | null }>(
        'SELECT COUNT(*) AS n, SUM(payload_bytes) AS bytes FROM inbox_events WHERE stream_no = ? AND offset <= ? AND pruned = 0',
      ),
      prune: db.prepare('UPDATE inbox_events SET data_json = NULL, metadata_json = NULL, pruned = 1 WHERE stream_no = ? AND offset <= ? AND pruned = 0'),
      pruneCounters: db.prepare(
        `UPDATE inbox_streams SET pruned_count = pruned_count + ?, pruned_bytes = pruned_bytes + ?,
                pruned_through = MAX(pruned_through, ?) WHERE stream_no = ?`,
      ),
      dropEvents: db.prepare('DELETE FROM inbox_events WHERE stream_no = ?'),
      dropStream: db.prepare('DELETE FROM inbox_streams WHERE stream_no = ?'),
    };
  }

  private head(streamId: string): Head | null {
    return this.heads.get(streamId, () => {
      const row = this.stmts.stream.get(streamId);
      return row ? { no: row.stream_no, hw: row.high_watermark, lastTimeMs: row.last_time_ms, ordered: row.time_ordered === 1 } : null;
    });
  }

  ensure(streamId: string, createdMs: number): void {
    if (this.head(streamId)) return;
    this.stmts.createStream.run(streamId, createdMs);
    this.heads.delete(streamId);
  }

  exists(streamId: string): boolean {
    return this.head(streamId) !== null;
  }

  append(streamId: string, events: PreparedEvent[], appendedMs: number): BackendAppendResult {
    this.ensure(streamId, appendedMs);
    const head = { ...this.head(streamId)! };
    const stored: StoredEvent[] = [];
    for (const e of events) {
      const event = this.insertAt(streamId, head, head.hw + 1, e, appendedMs);
      if (event) stored.push(event);
    }
    if (stored.length > 0) this.saveHead(streamId, head);
    return { stored, deduped: events.length - stored.length };
  }

  /**
   * Mirror a remote log (jetstream/backend.ts), inside a transaction: each event lands at the
   * offset the log gave it, in offset order. Offsets already mirrored are skipped (a consumer
   * restarts at the mirror's head). A gap before a consumer's first event means the log dropped
   * events (its retention): the retained range starts after it; any other gap is refused (the
   * batch before it failed). An id the stream already holds is a copy stored beyond the
   * log's duplicate window: its offset is taken and nothing is stored, so every daemon that
   * mirrors the log skips the same copy.
   */
  mirror(streamId: string, items: MirroredEvent[]): StoredEvent[] {
    const first = items[0];
    if (!first) return [];
    this.ensure(streamId, first.appendedMs);
    const start = this.head(streamId)!;
    if (first.offset > start.hw + 1) {
      if (!first.resumed) throw new Error(`stream ${streamId}: offset ${first.offset} does not follow the mirror's head ${start.hw}`);
      this.retainFrom(streamId, first.offset);
    }
    const head = { ...this.head(streamId)! };
    const stored: StoredEvent[] = [];
    for (const { offset, event, appendedMs } of items) {
      if (offset <= head.hw) continue;
      const e = this.insertAt(streamId, head, offset, event, appendedMs);
      head.hw = offset;
      if (e) stored.push(e);
    }
    if (head.hw !== start.hw) this.saveHead(streamId, head);
    return stored;
  }

  /** The remote log keeps offsets from `firstOffset` on: older payloads go (identity stubs stay). */
  retainFrom(streamId: string, firstOffset: number): void {
    const head = this.head(streamId);
    if (!head || firstOffset - 1 <= (this.stmts.stream.get(streamId)?.pruned_through ?? 0)) return;
    if (head.hw < firstOffset - 1) this.saveHead(streamId, { ...head, hw: firstOffset - 1 });
    this.pruneThrough(streamId, firstOffset - 1);
  }

  /** The offsets of those of `ids` the stream holds. */
  offsetsOf(streamId: string, ids: string[]): Map<string, number> {
    const head = this.head(streamId);
    const found = new Map<string, number>();
    if (head) {
      for (const id of ids) {
        const row = this.stmts.byEventId.get(head.no, id);
        if (row) found.set(id, row.offset);
      }
    }
    return found;
  }

  /** The events stored at `offsets` (an offset without a row is left out), read as one range. */
  at(streamId: string, offsets: number[]): StoredEvent[] {
    const head = this.head(streamId);
    if (!head || offsets.length === 0) return [];
    const wanted = new Set(offsets);
    const from = Math.min(...offsets);
    const to = Math.max(...offsets);
    return this.stmts.read
      .all(head.no, from - 1, to - from + 1)
      .filter((r) => wanted.has(r.offset))
      .map((r) => toEvent(streamId, r));
  }

  /** Store one event at `offset` unless its id is already stored; advances the head's times. */
  private insertAt(streamId: string, head: Head, offset: number, e: PreparedEvent, appendedMs: number): StoredEvent | null {
    const bytes = Buffer.byteLength(e.dataJson) + Buffer.byteLength(e.metadataJson);
    const info = this.stmts.insert.run(head.no, offset, e.id, e.type, e.subject, e.timeMs, appendedMs, e.dataJson, e.metadataJson, bytes);
    if (info.changes === 0) return null;
    head.hw = offset;
    if (head.lastTimeMs !== null && e.timeMs < head.lastTimeMs) head.ordered = false;
    if (head.lastTimeMs === null || e.timeMs > head.lastTimeMs) head.lastTimeMs = e.timeMs;
    return { sourceId: streamId, offset, id: e.id, type: e.type, subject: e.subject, time: e.time, data: e.data, metadata: e.metadata, appendedAt: isoAt(appendedMs), pruned: false };
  }

  private saveHead(streamId: string, head: Head): void {
    this.stmts.setHead.run(head.hw, head.lastTimeMs, head.ordered ? 1 : 0, head.no);
    this.heads.set(streamId, { ...head });
  }

  read(streamId: string, afterOffset: number, limit: number): StoredEvent[] {
    const head = this.head(streamId);
    if (!head || limit <= 0) return [];
    return this.stmts.read.all(head.no, afterOffset, limit).map((r) => toEvent(streamId, r));
  }

  offsetAtTime(streamId: string, timeMs: number): number {
    const head = this.head(streamId);
    if (!head) return 1;
    if (!head.ordered) return this.stmts.scanTime.get(head.no, timeMs)?.o ?? head.hw + 1;
    // Times never decrease with offsets: binary search for the first offset at or after timeMs.
    let lo = 1;
    let hi = head.hw + 1;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (this.stmts.timeAt.get(head.no, mid)!.t >= timeMs) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  bounds(streamId: string): StreamBounds {
    const row = this.stmts.stream.get(streamId);
    if (!row) return { retainedFromOffset: 1, highWatermarkOffset: 0 };
    return { retainedFromOffset: row.pruned_through + 1, highWatermarkOffset: row.high_watermark };
  }

  stats(streamId: string): StreamStats | null {
    const row = this.stmts.stream.get(streamId);
    if (!row) return null;
    // Offsets are contiguous and rows are never deleted while the stream exists, so the high
    // watermark is the number of identity rows.
    return {
      eventCount: row.high_watermark,
      replayableEventCount: row.high_watermark - row.pruned_count,
      prunedEventCount: row.pruned_count,
      prunedThroughOffset: row.pruned_through,
      retainedFromOffset: row.pruned_through + 1,
      highWatermarkOffset: row.high_watermark,
    };
  }

  drop(streamId: string): void {
    const head = this.head(streamId);
    if (!head) return;
    this.stmts.dropEvents.run(head.no);
    this.stmts.dropStream.run(head.no);
    this.heads.set(streamId, null);
  }

  candidates(streamId: string, fromOffset: number, limit: number): CompactionCandidate[] {
    const head = this.head(streamId);
    if (!head) return [];
    return this.stmts.candidates
      .all(head.no, fromOffset, limit)
      .map((r) => ({ offset: r.offset, appendedMs: r.appended_ms, payloadBytes: r.payload_bytes, pruned: r.pruned === 1 }));
  }

  pruneThrough(streamId: string, throughOffset: number): PruneResult {
    const head = this.head(streamId);
    if (!head) return { events: 0, bytes: 0 };
    const sum = this.stmts.pruneSum.get(head.no, throughOffset)!;
    if (sum.n > 0) this.stmts.prune.run(head.no, throughOffset);
    this.stmts.pruneCounters.run(sum.n, sum.bytes ?? 0, Math.min(throughOffset, head.hw), head.no);
    return { events: sum.n, bytes: sum.bytes ?? 0 };
  }
}

function toEvent(streamId: string, r: EventRow): StoredEvent {
  const pruned = r.pruned === 1;
  return {
    sourceId: streamId,
    offset: r.offset,
    id: r.event_id,
    type: r.type,
    subject: r.subject,
    time: isoAt(r.time_ms),
    data: pruned || r.data_json === null ? null : JSON.parse(r.data_json),
    metadata: pruned || r.metadata_json === null ? {} : (JSON.parse(r.metadata_json) as Record<string, unknown>),
    appendedAt: isoAt(r.appended_ms),
    pruned,
  };
}

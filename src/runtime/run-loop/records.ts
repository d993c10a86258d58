/**
 * The run loop's durable records: turns, turn activities and the visible conversation history
 * (migration 010). Plain prepared statements; every write runs inside the caller's transaction.
 * Long strings of activity payloads and history entries are stored once, in `texts` (store/texts.ts).
 */
import type Database from 'better-sqlite3';
import { type Store, TxCache } from '../../store/index.js';
import type { FailureArtifact } from '../channels/index.js';
import type { TrustLevel } from '../../core/index.js';

/**
 * The run loop's own progress (claims, rounds, turn ends) is promised to nobody, so its commits
 * need not wait for the disk (store.ts INTERNAL): a crash of the process loses none of it; after a
 * power cut a turn whose end was lost runs again. Acknowledged writes stay durable.
 */
export { INTERNAL } from '../../store/index.js';

export type TurnStatus = 'running' | 'waiting_approval' | 'completed' | 'failed' | 'aborted' | 'interrupted';
export type HistoryRole = 'user' | 'assistant' | 'tool';

export interface TurnRecord {
  turn_id: string;
  agent_id: string;
  message_id: string;
  status: TurnStatus;
  model_ref: string;
  rounds: number;
  /** The lowest trust among the messages the turn answers (null: a turn recorded before trust was). */
  trust: TrustLevel | null;
  /** The message that set it. */
  tainted_by: string | null;
  started_at: string;
  ended_at: string | null;
  error: { reason: string; failure_artifact?: FailureArtifact | null } | null;
}

export interface Activity {
  seq: number;
  kind: string;
  payload: Record<string, unknown>;
  created_at: string;
}

export interface HistoryEntry {
  seq: number;
  role: HistoryRole;
  content: string;
  turn_id: string | null;
  message_id: string | null;
  created_at: string;
}

interface TurnRow extends Omit<TurnRecord, 'error'> {
  error: string | null;
}

/** Stored rows: their long strings are references to `texts` (store/texts.ts). */
type ActivityRow = Omit<Activity, 'payload'> & { payload: string; text_ids: string | null };
type HistoryRow = HistoryEntry & { text_ids: string | null };

export class RunLoopRecords {
  private readonly stmt: ReturnType<typeof prepare>;
  /** Last history seq per agent, loaded on first use (forgotten if its transaction rolls back). */
  private readonly historyHeads: TxCache<number>;

  constructor(private readonly store: Store) {
    this.stmt = prepare(store.db);
    this.historyHeads = new TxCache(store);
  }

  insertTurn(t: { turn_id: string; agent_id: string; message_id: string; model_ref: string; trust: TrustLevel; tainted_by: string; started_at: string }): void {
    this.stmt.insertTurn.run(t);
  }

  /** The turn's trust went down (an interjected message of lower trust joined it). */
  setTrust(turnId: string, trust: TrustLevel, taintedBy: string): void {
    this.stmt.setTrust.run(trust, taintedBy, turnId);
  }

  /** running <-> waiting_approval. */
  setStatus(turnId: string, status: 'running' | 'waiting_approval'): void {
    this.stmt.setStatus.run(status, turnId);
  }

  endTurn(turnId: string, status: TurnStatus, rounds: number, endedAt: string, error: TurnRecord['error']): void {
    this.stmt.endTurn.run(status, rounds, endedAt, error ? JSON.stringify(error) : null, turnId);
  }

  setRounds(turnId: string, rounds: number): void {
    this.stmt.setRounds.run(rounds, turnId);
  }

  /** Turns left `running` by a daemon that died: `interrupted`. Returns them. */
  interruptRunning(endedAt: string): TurnRecord[] {
    const rows = (this.stmt.running.all() as TurnRow[]).map(toTurn);
    const error = JSON.stringify({ reason: 'the daemon stopped during the turn' });
    for (const t of rows) this.stmt.endTurn.run('interrupted', t.rounds, endedAt, error, t.turn_id);
    return rows;
  }

  getTurn(agentId: string, turnId: string): TurnRecord | null {
    const row = this.stmt.getTurn.get(turnId, agentId) as TurnRow | undefined;
    return row ? toTurn(row) : null;
  }

  lastTurn(agentId: string): TurnRecord | null {
    const row = this.stmt.lastTurn.get(agentId) as TurnRow | undefined;
    return row ? toTurn(row) : null;
  }

  addActivity(turnId: string, seq: number, kind: string, payload: Record<string, unknown>, createdAt: string): void {
    const texts = this.store.texts.row();
    this.stmt.insertActivity.run(turnId, seq, kind, texts.json(payload), createdAt, texts.textIds());
  }

  activities(turnId: string): Activity[] {
    return (this.stmt.activities.all(turnId) as ActivityRow[]).map(({ text_ids, ...r }) => ({
      ...r,
      payload: this.store.texts.read(text_ids).json<Record<string, unknown>>(r.payload),
    }));
  }

  /** `tokens`: the entry's tokens as counted for the turn's model (docs/context.md). */
  appendHistory(agentId: string, role: HistoryRole, content: string, turnId: string | null, messageId: string | null, createdAt: string, tokens: number | null = null): number {
    const seq = this.historyHeads.get(agentId, () => (this.stmt.historyHead.get(agentId) as number | null) ?? 0) + 1;
    const texts = this.store.texts.row();
    this.stmt.insertHistory.run(agentId, seq, role, texts.text(content), turnId, messageId, createdAt, texts.textIds(), tokens);
    this.historyHeads.set(agentId, seq);
    return seq;
  }

  /** The last `limit` history entries, oldest first. */
  recentHistory(agentId: string, limit: number): HistoryEntry[] {
    return (this.stmt.recentHistory.all(agentId, limit) as HistoryRow[]).reverse().map((r) => this.toEntry(r));
  }

  turnHistory(turnId: string): HistoryEntry[] {
    return (this.stmt.turnHistory.all(turnId) as HistoryRow[]).map((r) => this.toEntry(r));
  }

  /** One history entry of the agent by its seq, or null. */
  historyEntry(agentId: string, seq: number): HistoryEntry | null {
    const row = this.stmt.historyEntry.get(agentId, seq) as HistoryRow | undefined;
    return row ? this.toEntry(row) : null;
  }

  private toEntry({ text_ids, ...entry }: HistoryRow): HistoryEntry {
    return { ...entry, content: this.store.texts.read(text_ids).text(entry.content) };
  }

  /** Everything of an agent (deletion). */
  purge(agentId: string): void {
    this.stmt.purgeActivities.run(agentId);
    this.stmt.purgeTurns.run(agentId);
    this.stmt.purgeHistory.run(agentId);
    this.historyHeads.delete(agentId);
  }
}

function toTurn(row: TurnRow): TurnRecord {
  return { ...row, error: row.error ? (JSON.parse(row.error) as TurnRecord['error']) : null };
}

const HISTORY_COLUMNS = 'seq, role, content, turn_id, message_id, created_at, text_ids';

function prepare(db: Database.Database) {
  return {
    insertTurn: db.prepare(
      `INSERT INTO turns (turn_id, agent_id, message_id, status, model_ref, rounds, trust, tainted_by, started_at)
       VALUES (@turn_id, @agent_id, @message_id, 'running', @model_ref, 0, @trust, @tainted_by, @started_at)`,
    ),
    setTrust: db.prepare('UPDATE turns SET trust = ?, tainted_by = ? WHERE turn_id = ?'),
    setStatus: db.prepare('UPDATE turns SET status = ? WHERE turn_id = ?'),
    endTurn: db.prepare('UPDATE turns SET status = ?, rounds = ?, ended_at = ?, error = ? WHERE turn_id = ?'),
    setRounds: db.prepare('UPDATE turns SET rounds = ? WHERE turn_id = ?'),
    running: db.prepare("SELECT * FROM turns WHERE status = 'running'"),
    getTurn: db.prepare('SELECT * FROM turns WHERE turn_id = ? AND agent_id = ?'),
    lastTurn: db.prepare('SELECT * FROM turns WHERE agent_id = ? ORDER BY turn_id DESC LIMIT 1'),
    insertActivity: db.prepare('INSERT INTO turn_activities (turn_id, seq, kind, payload, created_at, text_ids) VALUES (?, ?, ?, ?, ?, ?)'),
    activities: db.prepare('SELECT seq, kind, payload, created_at, text_ids FROM turn_activities WHERE turn_id = ? ORDER BY seq'),
    historyHead: db.prepare('SELECT max(seq) FROM conversation_history WHERE agent_id = ?').pluck(),
    insertHistory: db.prepare(
      'INSERT INTO conversation_history (agent_id, seq, role, content, turn_id, message_id, created_at, text_ids, tokens) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    recentHistory: db.prepare(`SELECT ${HISTORY_COLUMNS} FROM conversation_history WHERE agent_id = ? ORDER BY seq DESC LIMIT ?`),
    historyEntry: db.prepare(`SELECT ${HISTORY_COLUMNS} FROM conversation_history WHERE agent_id = ? AND seq = ?`),
    turnHistory: db.prepare(`SELECT ${HISTORY_COLUMNS} FROM conversation_history WHERE turn_id = ? ORDER BY seq`),
    purgeActivities: db.prepare('DELETE FROM turn_activities WHERE turn_id IN (SELECT turn_id FROM turns WHERE agent_id = ?)'),
    purgeTurns: db.prepare('DELETE FROM turns WHERE agent_id = ?'),
    purgeHistory: db.prepare('DELETE FROM conversation_history WHERE agent_id = ?'),
  };
}

/**
 * What the prompt takes from an agent's history (migration 031, docs/context.md): where its
 * history starts for the prompt (`through_seq`: entries up to it are compacted), the tokens of the
 * visible entries after that point (kept in step with every entry written, so deciding to compact
 * costs one row read whatever the history's length), the newest entries that fit a budget (read
 * newest first, page by page: the cost follows the budget, not the history), and the compactions.
 * Every write runs inside the caller's transaction.
 *
 * The newest entries read for an agent's prompt stay in memory (for the CACHED_AGENTS agents used
 * last), kept in step by the entries written after each commit and dropped by a compaction or a
 * purge, so a round's assembly reads no row while its budget is within what was loaded.
 */
import type Database from 'better-sqlite3';
import type { Store } from '../../store/index.js';
import type { HistoryEntry } from './records.js';

export interface Compaction {
  compaction_id: string;
  agent_id: string;
  method: 'summary' | 'dropped';
  from_seq: number;
  through_seq: number;
  entries: number;
  summary: string;
  tokens_before: number;
  tokens_after: number;
  model_ref: string | null;
  turn_id: string | null;
  reason: string | null;
  created_at: string;
}

export interface ContextState {
  through_seq: number;
  pending_tokens: number;
}

/** A visible history entry (user or assistant) with its tokens. */
export interface CountedEntry extends HistoryEntry {
  tokens: number;
}

type Row = HistoryEntry & { text_ids: string | null; tokens: number | null };

const PAGE = 64;
/** Agents whose newest entries stay in memory. */
const CACHED_AGENTS = 256;

interface Cached {
  afterSeq: number;
  /** Oldest first. */
  entries: CountedEntry[];
  /** Raw tokens of `entries`. */
  tokens: number;
  /** Every entry after `afterSeq` is in `entries`. */
  complete: boolean;
}

export class ContextRecords {
  private readonly stmt: ReturnType<typeof prepare>;
  private readonly cache = new Map<string, Cached>();

  /** `count`: the tokens of an entry written before tokens were stored (counted once, on first read). */
  constructor(
    private readonly store: Store,
    private readonly count: (text: string) => number,
  ) {
    this.stmt = prepare(store.db);
  }

  /** The agent's state; computed once from its history for an agent that has none yet. */
  state(agentId: string): ContextState {
    const row = this.stmt.state.get(agentId) as ContextState | undefined;
    if (row) return row;
    const last = this.latest(agentId);
    const through = last?.through_seq ?? 0;
    let pending = 0;
    for (const e of this.after(agentId, through)) pending += e.tokens;
    return { through_seq: through, pending_tokens: pending };
  }

  /** Visible entries were written (inside the transaction that writes them). */
  added(agentId: string, entries: CountedEntry[]): void {
    const s = this.state(agentId);
    this.stmt.upsertState.run(agentId, s.through_seq, s.pending_tokens + entries.reduce((n, e) => n + e.tokens, 0));
    this.store.afterCommit(() => {
      const c = this.cache.get(agentId);
      if (!c) return;
      for (const e of entries) if (e.seq > c.afterSeq) c.entries.push(e);
      c.tokens += entries.reduce((n, e) => n + e.tokens, 0);
    });
  }

  /** The newest visible entries after `afterSeq` whose tokens (times `factor`) fit `budget`, oldest first. */
  newest(agentId: string, afterSeq: number, budget: number, factor = 1): CountedEntry[] {
    const raw = budget / factor;
    let c = this.cache.get(agentId);
    if (!c || c.afterSeq !== afterSeq || (!c.complete && c.tokens < raw)) c = this.load(agentId, afterSeq, Math.max(raw * 2, c?.afterSeq === afterSeq ? c.tokens * 2 : 0));
    this.cache.delete(agentId);
    this.cache.set(agentId, c);
    if (this.cache.size > CACHED_AGENTS) this.cache.delete(this.cache.keys().next().value!);
    let used = 0;
    let i = c.entries.length;
    while (i > 0 && used + c.entries[i - 1]!.tokens * factor <= budget) used += c.entries[--i]!.tokens * factor;
    return c.entries.slice(i);
  }

  /** The newest entries after `afterSeq` up to `raw` tokens (and one more), read page by page. */
  private load(agentId: string, afterSeq: number, raw: number): Cached {
    const out: CountedEntry[] = [];
    let tokens = 0;
    let before = Number.MAX_SAFE_INTEGER;
    for (;;) {
      const rows = this.stmt.newest.all(agentId, afterSeq, before, PAGE) as Row[];
      for (const r of rows) {
        const e = this.toEntry(r);
        out.push(e);
        tokens += e.tokens;
        if (tokens > raw) return { afterSeq, entries: out.reverse(), tokens, complete: false };
      }
      if (rows.length < PAGE) return { afterSeq, entries: out.reverse(), tokens, complete: true };
      before = rows[rows.length - 1]!.seq;
    }
  }

  /** Every visible entry after `afterSeq`, oldest first (what a compaction reads). */
  after(agentId: string, afterSeq: number): CountedEntry[] {
    return (this.stmt.after.all(agentId, afterSeq) as Row[]).map((r) => this.toEntry(r));
  }

  latest(agentId: string): Compaction | null {
    return (this.stmt.latest.get(agentId) as Compaction | undefined) ?? null;
  }

  /** Record a compaction and move the agent's start past it; `keptTokens`: the entries after it. */
  insert(c: Compaction, keptTokens: number): void {
    this.stmt.insert.run(c);
    this.stmt.upsertState.run(c.agent_id, c.through_seq, keptTokens);
    this.store.afterCommit(() => this.cache.delete(c.agent_id));
  }

  purge(agentId: string): void {
    this.stmt.purgeCompactions.run(agentId);
    this.stmt.purgeState.run(agentId);
    this.store.afterCommit(() => this.cache.delete(agentId));
  }

  private toEntry({ text_ids, tokens, ...entry }: Row): CountedEntry {
    const content = this.store.texts.read(text_ids).text(entry.content);
    return { ...entry, content, tokens: tokens ?? this.count(content) };
  }
}

const COLUMNS = 'seq, role, content, turn_id, message_id, created_at, text_ids, tokens';
const VISIBLE = "role IN ('user', 'assistant')";

function prepare(db: Database.Database) {
  return {
    state: db.prepare('SELECT through_seq, pending_tokens FROM context_state WHERE agent_id = ?'),
    upsertState: db.prepare(
      'INSERT INTO context_state (agent_id, through_seq, pending_tokens) VALUES (?, ?, ?) ON CONFLICT (agent_id) DO UPDATE SET through_seq = excluded.through_seq, pending_tokens = excluded.pending_tokens',
    ),
    newest: db.prepare(`SELECT ${COLUMNS} FROM conversation_history WHERE agent_id = ? AND seq > ? AND seq < ? AND ${VISIBLE} ORDER BY seq DESC LIMIT ?`),
    after: db.prepare(`SELECT ${COLUMNS} FROM conversation_history WHERE agent_id = ? AND seq > ? AND ${VISIBLE} ORDER BY seq`),
    latest: db.prepare('SELECT * FROM context_compactions WHERE agent_id = ? ORDER BY through_seq DESC, created_at DESC LIMIT 1'),
    insert: db.prepare(
      `INSERT INTO context_compactions (compaction_id, agent_id, method, from_seq, through_seq, entries, summary, tokens_before, tokens_after, model_ref, turn_id, reason, created_at)
       VALUES (@compaction_id, @agent_id, @method, @from_seq, @through_seq, @entries, @summary, @tokens_before, @tokens_after, @model_ref, @turn_id, @reason, @created_at)`,
    ),
    purgeCompactions: db.prepare('DELETE FROM context_compactions WHERE agent_id = ?'),
    purgeState: db.prepare('DELETE FROM context_state WHERE agent_id = ?'),
  };
}

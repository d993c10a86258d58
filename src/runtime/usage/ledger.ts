/**
 * The usage ledger (migration 030): one row per model round, written by the run loop inside the
 * transaction that records the round, with the agent, turn, model, the work item in focus, the
 * UTC day, five kinds of tokens and the cost at the model's prices (null when it has none). A
 * running total per agent and day (`usage_days`) is kept in the same transaction, so a budget
 * check before a turn reads two rows whatever the history.
 *
 * Usage is accounting, not a replay window: rows are kept RETAIN_DAYS days whatever
 * `events.retain_days` says, and go with their agent.
 */
import type Database from 'better-sqlite3';
import { isoAt } from '../../core/index.js';
import { Repeating } from '../deps.js';
import type { RoundUsage } from '../providers/index.js';
import type { RoundInput, TokenCounts, UsageBy, UsageDeps, UsageReport, UsageRow, UsageTotals } from './types.js';

/** Days of usage kept: a year and a month, so this month can be set against the same month last year. */
export const RETAIN_DAYS = 400;
const DAY_MS = 86_400_000;
/** More than any model's window times its rounds: a count above it is a server's nonsense, capped. */
const MAX_COUNT = 1e12;
const PRUNE_BATCH = 1000;

const KINDS = ['input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens', 'reasoning_tokens'] as const;

/** The UTC day of a clock reading. */
export function dayOf(ms: number): string {
  return isoAt(ms).slice(0, 10);
}

interface SumRow extends TokenCounts {
  key: string | null;
  cost_usd: number | null;
  rounds: number;
  turns: number;
  unpriced_rounds: number;
  estimated_rounds: number;
}

export class UsageLedger {
  protected readonly stmt;
  private readonly pruning = new Repeating(() => this.prune(), 3_600_000);

  constructor(protected readonly deps: UsageDeps) {
    this.stmt = prepare(deps.store.db);
  }

  // --- lifecycle -------------------------------------------------------------------------------

  /** The age rule, now and every hour. */
  start(): void {
    this.pruning.start();
  }

  stop(): void {
    this.pruning.stop();
  }

  /** Usage shows on the state page through `stateSection`, not as a list. */
  stateFor(): unknown[] {
    return [];
  }

  /** The agent is deleted: its usage goes with it (a new agent of the same id starts at zero). */
  purge(agentId: string): void {
    this.inTx(() => {
      this.stmt.deleteRounds.run(agentId);
      this.stmt.deleteDays.run(agentId);
      this.stmt.deleteResume.run(agentId);
    });
  }

  // --- the write (inside the run loop's transaction) -------------------------------------------

  /**
   * One model round. Without input tokens from the provider, the run loop's estimate is stored
   * as the input and the row is marked `estimated`. Returns the round's cost (null: no price) and
   * tokens (input + output). A round recorded twice (same turn and round) counts once.
   */
  record(r: RoundInput): { cost_usd: number | null; tokens: number } {
    const counts = countsOf(r.usage, r.estimatedInput);
    const estimated = r.usage?.input_tokens === undefined ? 1 : 0;
    const cost = this.deps.costOf(r.modelRef, counts);
    const tokens = counts.input_tokens + counts.output_tokens;
    this.inTx(() => {
      const first = this.stmt.turnSeen.get(r.turnId) === undefined ? 1 : 0;
      const day = dayOf(r.at);
      const row = { ...counts, turn_id: r.turnId, round: r.round, agent_id: r.agentId, model_ref: r.modelRef, work_item_id: this.deps.focus(r.agentId), day, cost_usd: cost, estimated, first_of_turn: first, created_at: isoAt(r.at) };
      if (this.stmt.insert.run(row).changes === 0) return;
      this.stmt.addDay.run({ ...row, cost_usd: cost ?? 0, unpriced: cost === null ? 1 : 0 });
      const { onRecorded } = this.deps;
      if (onRecorded) this.deps.store.afterCommit(() => onRecorded(counts, cost));
    });
    return { cost_usd: cost, tokens };
  }

  // --- reads -----------------------------------------------------------------------------------

  /**
   * The agent's usage grouped by UTC day, work item or model, between two days (inclusive, each
   * optional); `total` is the sum of the rows. By day it reads the daily totals only.
   */
  totals(agentId: string, by: UsageBy, range: { from?: string | undefined; to?: string | undefined } = {}): UsageReport {
    const args = { agent_id: agentId, from: range.from ?? '', to: range.to ?? '\uffff' };
    const sums = (by === 'day' ? this.stmt.byDay : by === 'model' ? this.stmt.byModel : this.stmt.byWorkItem).all(args) as SumRow[];
    const rows = sums.map(rowOf);
    if (by !== 'day') rows.sort((a, b) => b.tokens - a.tokens || String(a.key).localeCompare(String(b.key)));
    return { rows, total: sumOf(rows) };
  }

  /** One UTC day of the agent, whole. */
  day(agentId: string, day: string): UsageRow {
    return this.totals(agentId, 'day', { from: day, to: day }).rows[0] ?? { key: day, ...sumOf([]) };
  }

  /** Today's UTC tokens and cost of the agent, whole. */
  today(agentId: string, now: number): { tokens: number; cost_usd: number | null } {
    const d = this.day(agentId, dayOf(now));
    return { tokens: d.tokens, cost_usd: d.cost_usd };
  }

  /** Tokens and cost of one turn's recorded rounds. */
  turnTokens(turnId: string): { tokens: number; cost_usd: number | null; rounds: number } {
    const r = this.stmt.turn.get(turnId) as { tokens: number | null; cost_usd: number | null; rounds: number };
    return { tokens: r.tokens ?? 0, cost_usd: r.cost_usd, rounds: r.rounds };
  }

  /** Run fn in the caller's transaction, or in one of its own. */
  protected inTx<T>(fn: () => T): T {
    return this.deps.store.inTransaction ? fn() : this.deps.store.tx(fn);
  }

  /** Rows older than RETAIN_DAYS go, in batches (at start and every hour). */
  prune(): void {
    const cutoff = dayOf(this.deps.clock.now() - RETAIN_DAYS * DAY_MS);
    for (;;) {
      const n = this.deps.store.tx(() => this.stmt.pruneRounds.run(cutoff, PRUNE_BATCH).changes);
      if (n < PRUNE_BATCH) break;
    }
    this.deps.store.tx(() => {
      this.stmt.pruneDays.run(cutoff);
      this.stmt.pruneResumes.run(cutoff);
    });
  }
}

/** A count as stored: a whole number from 0 to MAX_COUNT (a bad or absent one is 0). */
function stored(n: number | undefined): number {
  return n === undefined || !Number.isFinite(n) || n <= 0 ? 0 : Math.min(Math.round(n), MAX_COUNT);
}

function countsOf(u: RoundUsage | null, estimatedInput: number | undefined): TokenCounts {
  return {
    input_tokens: stored(u?.input_tokens ?? estimatedInput),
    output_tokens: stored(u?.output_tokens),
    cache_read_tokens: stored(u?.cache_read_tokens),
    cache_write_tokens: stored(u?.cache_write_tokens),
    reasoning_tokens: stored(u?.reasoning_tokens),
  };
}

/** A cost over rounds: null when every one of them is unpriced (unknown, not free). */
function costOrNull(cost: number | null, rounds: number, unpriced: number): number | null {
  return rounds > 0 && unpriced === rounds ? null : roundUsd(cost ?? 0);
}

/** USD to a millionth of a cent: sums of floats stay readable. */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e8) / 1e8;
}

function rowOf(s: SumRow): UsageRow {
  const counts = Object.fromEntries(KINDS.map((k) => [k, s[k] ?? 0])) as unknown as TokenCounts;
  return {
    key: s.key,
    ...counts,
    tokens: counts.input_tokens + counts.output_tokens,
    cost_usd: costOrNull(s.cost_usd, s.rounds, s.unpriced_rounds),
    rounds: s.rounds,
    turns: s.turns,
    unpriced_rounds: s.unpriced_rounds,
    estimated_rounds: s.estimated_rounds,
  };
}

function sumOf(rows: UsageTotals[]): UsageTotals {
  const t: UsageTotals = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 0, tokens: 0, cost_usd: 0, rounds: 0, turns: 0, unpriced_rounds: 0, estimated_rounds: 0 };
  let cost = 0;
  for (const r of rows) {
    for (const k of KINDS) t[k] += r[k];
    t.tokens += r.tokens;
    cost += r.cost_usd ?? 0;
    t.rounds += r.rounds;
    t.turns += r.turns;
    t.unpriced_rounds += r.unpriced_rounds;
    t.estimated_rounds += r.estimated_rounds;
  }
  t.cost_usd = costOrNull(cost, t.rounds, t.unpriced_rounds);
  return t;
}

function prepare(db: Database.Database) {
  const sums = `SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens, SUM(cache_read_tokens) AS cache_read_tokens,
    SUM(cache_write_tokens) AS cache_write_tokens, SUM(reasoning_tokens) AS reasoning_tokens, SUM(cost_usd) AS cost_usd, COUNT(*) AS rounds,
    SUM(first_of_turn) AS turns, SUM(cost_usd IS NULL) AS unpriced_rounds, SUM(estimated) AS estimated_rounds`;
  const grouped = (key: string) =>
    db.prepare(`SELECT ${key} AS key, ${sums} FROM usage_rounds WHERE agent_id = @agent_id AND day >= @from AND day <= @to GROUP BY ${key}`);
  return {
    insert: db.prepare(
      `INSERT OR IGNORE INTO usage_rounds (turn_id, round, agent_id, model_ref, work_item_id, day, input_tokens, output_tokens, cache_read_tokens,
         cache_write_tokens, reasoning_tokens, cost_usd, estimated, first_of_turn, created_at)
       VALUES (@turn_id, @round, @agent_id, @model_ref, @work_item_id, @day, @input_tokens, @output_tokens, @cache_read_tokens,
         @cache_write_tokens, @reasoning_tokens, @cost_usd, @estimated, @first_of_turn, @created_at)`,
    ),
    addDay: db.prepare(
      `INSERT INTO usage_days (agent_id, day, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, cost_usd, rounds, turns, unpriced_rounds, estimated_rounds)
       VALUES (@agent_id, @day, @input_tokens, @output_tokens, @cache_read_tokens, @cache_write_tokens, @reasoning_tokens, @cost_usd, 1, @first_of_turn, @unpriced, @estimated)
       ON CONFLICT (agent_id, day) DO UPDATE SET
         input_tokens = input_tokens + excluded.input_tokens, output_tokens = output_tokens + excluded.output_tokens,
         cache_read_tokens = cache_read_tokens + excluded.cache_read_tokens, cache_write_tokens = cache_write_tokens + excluded.cache_write_tokens,
         reasoning_tokens = reasoning_tokens + excluded.reasoning_tokens, cost_usd = cost_usd + excluded.cost_usd, rounds = rounds + 1,
         turns = turns + excluded.turns, unpriced_rounds = unpriced_rounds + excluded.unpriced_rounds, estimated_rounds = estimated_rounds + excluded.estimated_rounds`,
    ),
    turnSeen: db.prepare('SELECT 1 FROM usage_rounds WHERE turn_id = ? LIMIT 1'),
    turn: db.prepare('SELECT SUM(input_tokens + output_tokens) AS tokens, SUM(cost_usd) AS cost_usd, COUNT(*) AS rounds FROM usage_rounds WHERE turn_id = ?'),
    byDay: db.prepare(
      `SELECT day AS key, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, cost_usd, rounds, turns, unpriced_rounds, estimated_rounds
       FROM usage_days WHERE agent_id = @agent_id AND day >= @from AND day <= @to ORDER BY day`,
    ),
    byModel: grouped('model_ref'),
    byWorkItem: grouped('work_item_id'),
    dayTokens: db.prepare('SELECT input_tokens + output_tokens AS tokens, cost_usd FROM usage_days WHERE agent_id = ? AND day = ?'),
    resume: db.prepare('SELECT day, resumed_at, tokens, cost_usd FROM usage_resumes WHERE agent_id = ?'),
    setResume: db.prepare('INSERT OR REPLACE INTO usage_resumes (agent_id, day, resumed_at, tokens, cost_usd) VALUES (?, ?, ?, ?, ?)'),
    pruneRounds: db.prepare('DELETE FROM usage_rounds WHERE (turn_id, round) IN (SELECT turn_id, round FROM usage_rounds WHERE day < ? LIMIT ?)'),
    pruneDays: db.prepare('DELETE FROM usage_days WHERE day < ?'),
    pruneResumes: db.prepare('DELETE FROM usage_resumes WHERE day < ?'),
    deleteRounds: db.prepare('DELETE FROM usage_rounds WHERE agent_id = ?'),
    deleteDays: db.prepare('DELETE FROM usage_days WHERE agent_id = ?'),
    deleteResume: db.prepare('DELETE FROM usage_resumes WHERE agent_id = ?'),
  };
}

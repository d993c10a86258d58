/**
 * Compaction of an agent's history (docs/context.md#compaction). Before a turn's first round,
 * when the visible history after the last compaction passes `[context] compact_at` of what the
 * prompt leaves for it, the older entries are summarised by the agent's model (context/
 * compaction.ts) and only the newest, within `keep_recent` of that budget, stay verbatim; the
 * operator can force one (POST /api/control/agents/:id/compact), which keeps at most the last two
 * entries. The summary is stored with the range it covers and the tokens before and after, and a
 * `context_compacted` event carries it, in one transaction. The raw history stays in the log.
 *
 * A summary that fails (the provider refuses, times out, answers nothing, the prompt file is
 * unreadable) falls back to dropping the same entries: the previous summary stays, with a line
 * saying what was dropped, and the event says `method: "dropped"` and why. It never fails the
 * turn; only an abort (the turn's or the daemon's) stops it. Its model calls go in the usage
 * ledger like rounds (a forced compaction's under its compaction id).
 */
import { isoAt } from '../../core/index.js';
import { compactionPrompt, summarise } from '../context/index.js';
import type { ModelProvider, RoundUsage } from '../providers/index.js';
import type { Compaction, CountedEntry } from './context-records.js';
import type { RunLoopDeps } from './types.js';

/** Model calls one compaction makes at most. */
const MAX_CALLS = 4;
/** A summary takes at most this share of the history's budget (and at most SUMMARY_MAX tokens). */
const SUMMARY_SHARE = 0.15;
const SUMMARY_MAX = 4096;
/** A forced compaction keeps at most this many of the newest entries. */
const FORCED_KEEP = 2;

export interface CompactionRequest {
  agentId: string;
  modelRef: string;
  /** Tokens the prompt leaves for the history (and its summary). */
  historyBudget: number;
  /** Tokens one summary request may take. */
  requestBudget: number;
  force: boolean;
  turnId: string | null;
  signal: AbortSignal;
  /** The transaction's runner: tried again while the disk refuses it (write-retry.ts). */
  write: (fn: () => void) => Promise<void>;
}

export class Compactor {
  constructor(private readonly deps: RunLoopDeps) {}

  /** Whether the history after the last compaction passes `compact_at` of its budget. */
  due(agentId: string, modelRef: string, historyBudget: number): boolean {
    const { context, tokens, config } = this.deps;
    const pending = context.state(agentId).pending_tokens * tokens.factor(modelRef);
    return pending > config.values.context.compact_at * historyBudget;
  }

  /** Compact now; null when there is nothing older than what is kept. Throws only when aborted. */
  async compact(r: CompactionRequest): Promise<Compaction | null> {
    const { context, tokens, config } = this.deps;
    const state = context.state(r.agentId);
    const previous = state.through_seq > 0 ? context.latest(r.agentId) : null;
    const entries = context.after(r.agentId, state.through_seq);
    const factor = tokens.factor(r.modelRef);
    const kept = keptCount(entries, config.values.context.keep_recent * r.historyBudget, factor, r.force ? FORCED_KEEP : Infinity);
    const older = entries.slice(0, entries.length - kept);
    if (older.length === 0) return null;
    const keptTokens = entries.slice(older.length).reduce((n, e) => n + e.tokens, 0);
    const summaryMax = Math.max(128, Math.min(SUMMARY_MAX, Math.floor(SUMMARY_SHARE * r.historyBudget)));
    const count = (t: string) => tokens.count(t, r.modelRef);
    const spent: Array<{ usage: RoundUsage | null; promptTokens: number }> = [];
    let method: Compaction['method'] = 'summary';
    let reason: string | null = null;
    let summary: string;
    try {
      const done = await summarise({
        prompt: compactionPrompt(config.values.context.compaction_prompt),
        previous: previous?.summary ?? null,
        entries: older.map((e) => ({ seq: e.seq, role: e.role, content: e.content, tokens: e.tokens })),
        requestBudget: r.requestBudget,
        summaryMax,
        count,
        complete: (system, user) => this.complete(r, system, user, spent),
        maxCalls: MAX_CALLS,
      });
      summary = done.summary;
    } catch (err) {
      if (r.signal.aborted) throw err;
      method = 'dropped';
      reason = err instanceof Error ? err.message : String(err);
      const note = `[${older.length} earlier entries (#${older[0]!.seq}–#${older[older.length - 1]!.seq}) were dropped without a summary]`;
      summary = previous?.summary ? `${previous.summary}\n${note}` : note;
    }
    const c: Compaction = {
      compaction_id: this.deps.ids.make('compaction'),
      agent_id: r.agentId,
      method,
      from_seq: older[0]!.seq,
      through_seq: older[older.length - 1]!.seq,
      entries: older.length,
      summary,
      tokens_before: Math.ceil((state.pending_tokens + (previous ? count(previous.summary) : 0)) * factor),
      tokens_after: Math.ceil((keptTokens + count(summary)) * factor),
      model_ref: r.modelRef,
      turn_id: r.turnId,
      reason,
      created_at: isoAt(this.deps.clock.now()),
    };
    await r.write(() => {
      context.insert(c, keptTokens);
      this.deps.events.append(r.agentId, 'context_compacted', { ...c, forced: r.force });
      // Its model calls cost like rounds: the turn's rounds 0, -1, …; a forced one's under its own id.
      spent.forEach((s, i) =>
        this.deps.usage?.record({ agentId: r.agentId, turnId: r.turnId ?? c.compaction_id, round: -i, modelRef: r.modelRef, usage: s.usage, estimatedInput: s.promptTokens, at: this.deps.clock.now() }),
      );
    });
    if (method === 'dropped') this.deps.logger.warn({ agent_id: r.agentId, reason }, 'compaction fell back to dropping the oldest entries');
    return c;
  }

  private async complete(r: CompactionRequest, system: string, user: string, spent: Array<{ usage: RoundUsage | null; promptTokens: number }>): Promise<string> {
    const resolved = this.deps.providers.resolve(r.modelRef);
    if (!resolved) throw new Error(`no provider for model ${JSON.stringify(r.modelRef)}`);
    const provider: ModelProvider = resolved.provider;
    const messages = [{ role: 'user' as const, content: user }];
    const result = await provider.complete({ model: resolved.model, system, messages, tools: [], signal: r.signal });
    spent.push({ usage: result.usage ?? null, promptTokens: this.deps.tokens.countMessages(system, messages, [], r.modelRef) });
    return result.text;
  }
}

/** How many of the newest entries fit `budget` tokens (at most `max`). */
function keptCount(entries: CountedEntry[], budget: number, factor: number, max: number): number {
  let used = 0;
  let n = 0;
  for (let i = entries.length - 1; i >= 0 && n < max; i--) {
    used += entries[i]!.tokens * factor;
    if (used > budget) break;
    n++;
  }
  return n;
}

/**
 * The budgets over the ledger (docs/context.md#budgets) and the state page's usage section.
 *
 * - `max_tokens_per_day` and `max_cost_per_day` are checked before a turn starts (the scheduler's
 *   claim, beside the brake), against the agent's UTC day: its tokens (input + output) and the
 *   cost of its priced rounds since the day began or since the operator last resumed the agent
 *   that day, whichever is later; and again when a round asks for tools, so a running turn stops
 *   at its next round.
 * - `max_tokens_per_turn` is checked when a round asks for tools, counting that round: the tools
 *   do not run, the round's text is the reply, and the agent pauses (as at `rounds_per_turn`).
 * - A resume (control start) of an agent whose daily budget is spent restarts today's count at
 *   what the day has used so far; the point is stored, so a daemon restart does not trip the
 *   budget again. A new UTC day starts at zero. Any other resume leaves the count alone.
 *
 * 0 is no budget. Two rows are read per check: the agent's day and its last resume.
 */
import type { PolicyLimits } from '../../config/index.js';
import { isoAt } from '../../core/index.js';
import type { RoundUsage } from '../providers/index.js';
import { dayOf, roundUsd, UsageLedger } from './ledger.js';
import type { UsageSection, UsageTrip } from './types.js';

interface ResumeRow {
  day: string;
  resumed_at: string;
  tokens: number;
  cost_usd: number;
}

export class UsageService extends UsageLedger {
  /** Before a turn starts: the daily budget the agent has used up, or null to go ahead. */
  budgetTrip(agentId: string, limits: PolicyLimits, now: number): UsageTrip | null {
    if (!(limits.max_tokens_per_day > 0) && !(limits.max_cost_per_day > 0)) return null;
    const c = this.counted(agentId, now);
    if (limits.max_tokens_per_day > 0 && c.tokens >= limits.max_tokens_per_day) return { limit: 'max_tokens_per_day', value: c.tokens, max: limits.max_tokens_per_day };
    if (limits.max_cost_per_day > 0 && c.cost_usd >= limits.max_cost_per_day) return { limit: 'max_cost_per_day', value: c.cost_usd, max: limits.max_cost_per_day };
    return null;
  }

  /**
   * Before the turn's next round: whether its recorded rounds, with `pending` (the round just
   * answered, not recorded yet), reach `max_tokens_per_turn`.
   */
  turnTrip(turnId: string, limits: PolicyLimits, pending: RoundUsage | null = null): UsageTrip | null {
    const max = limits.max_tokens_per_turn;
    if (!(max > 0)) return null;
    const used = this.turnTokens(turnId).tokens + (pending?.input_tokens ?? 0) + (pending?.output_tokens ?? 0);
    return used >= max ? { limit: 'max_tokens_per_turn', value: used, max } : null;
  }

  /**
   * The operator resumed the agent (control start): when a daily budget is spent, today's count
   * starts again from here. A resume from another pause (the brake, a control stop) leaves the
   * day's count alone.
   */
  resume(agentId: string, now: number): void {
    if (this.budgetTrip(agentId, this.deps.limits(agentId), now) === null) return;
    const day = dayOf(now);
    this.inTx(() => {
      const d = this.dayRow(agentId, day);
      this.stmt.setResume.run(agentId, day, isoAt(now), d.tokens, d.cost_usd);
    });
  }

  /** The state page's `usage`: today, every kept day, the budgets and what they count, warnings. */
  stateSection(agentId: string): UsageSection {
    const now = this.deps.clock.now();
    const limits = this.deps.limits(agentId);
    const counted = this.counted(agentId, now);
    return {
      today: this.day(agentId, dayOf(now)),
      total: this.totals(agentId, 'day').total,
      budgets: {
        max_tokens_per_turn: limits.max_tokens_per_turn,
        max_tokens_per_day: limits.max_tokens_per_day,
        max_cost_per_day: limits.max_cost_per_day,
        today_tokens: counted.tokens,
        today_cost_usd: counted.cost_usd,
        counted_since: counted.since,
      },
      warnings: this.warnings(),
    };
  }

  /** What the state pages warn of: `[models.pricing]` keys that name no model svc knows of. */
  warnings(): string[] {
    return this.deps.pricingWarnings();
  }

  /** What today's budgets count: the day's totals less those at the last resume, if it was today. */
  private counted(agentId: string, now: number): { tokens: number; cost_usd: number; since: string | null } {
    const day = dayOf(now);
    const d = this.dayRow(agentId, day);
    const r = this.stmt.resume.get(agentId) as ResumeRow | undefined;
    if (!r || r.day !== day) return { tokens: d.tokens, cost_usd: roundUsd(d.cost_usd), since: null };
    return { tokens: Math.max(0, d.tokens - r.tokens), cost_usd: roundUsd(Math.max(0, d.cost_usd - r.cost_usd)), since: r.resumed_at };
  }

  private dayRow(agentId: string, day: string): { tokens: number; cost_usd: number } {
    return (this.stmt.dayTokens.get(agentId, day) as { tokens: number; cost_usd: number } | undefined) ?? { tokens: 0, cost_usd: 0 };
  }
}

/** What the usage ledger's files share: its deps, what a round brings, and what the reads answer. */
import type { PolicyLimits } from '../../config/index.js';
import type { Clock } from '../../core/index.js';
import type { Store } from '../../store/index.js';
import type { RoundUsage } from '../providers/index.js';

export const USAGE_GROUPINGS = ['day', 'work_item', 'model'] as const;
export type UsageBy = (typeof USAGE_GROUPINGS)[number];

export interface UsageDeps {
  store: Store;
  clock: Clock;
  /** USD for a round's usage at the model's prices; null when the model has no price. */
  costOf(modelRef: string, usage: RoundUsage): number | null;
  /** The agent's current focus (WorkItemService.currentFocus), recorded with each round. */
  focus(agentId: string): string | null;
  /** The agent's effective limits (the state page shows its budgets). */
  limits(agentId: string): PolicyLimits;
  /** Warnings about prices in the config (`[models.pricing]` keys that name no known model). */
  pricingWarnings(): string[];
  /** After the commit of a recorded round (the metrics' counters). */
  onRecorded?: (counts: TokenCounts, costUsd: number | null) => void;
}

/** One model round as the run loop hands it over, inside the transaction that records the round. */
export interface RoundInput {
  agentId: string;
  turnId: string;
  round: number;
  modelRef: string;
  /** What the provider reported; null when it reported nothing. */
  usage: RoundUsage | null;
  /** The run loop's count of the prompt, used when the provider reported no input tokens. */
  estimatedInput?: number | undefined;
  /** When the round ended (ms); its UTC day is the day it counts for. */
  at: number;
}

/** The five kinds of tokens as stored: whole numbers, absent ones 0. */
export interface TokenCounts {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
}

/** Sums over a set of rounds. */
export interface UsageTotals extends TokenCounts {
  /** input + output (cache reads and writes are part of input, reasoning part of output). */
  tokens: number;
  /** USD of the priced rounds; null when none of the rounds has a price (unknown, never 0). */
  cost_usd: number | null;
  rounds: number;
  /** Turns counted in the group of their first recorded round, so rows add up to the total. */
  turns: number;
  /** Rounds of a model without a price: left out of `cost_usd`. */
  unpriced_rounds: number;
  /** Rounds whose input the run loop estimated (the provider reported none). */
  estimated_rounds: number;
}

export interface UsageRow extends UsageTotals {
  /** The day (YYYY-MM-DD, UTC), the model ref, or the work item id (null: no work item in focus). */
  key: string | null;
}

export interface UsageReport {
  rows: UsageRow[];
  total: UsageTotals;
}

/** A budget met (the run loop's BrakeTrip for these three limits). */
export interface UsageTrip {
  limit: 'max_tokens_per_turn' | 'max_tokens_per_day' | 'max_cost_per_day';
  value: number;
  max: number;
}

/** The state page's `usage` section. */
export interface UsageSection {
  /** Today's UTC day, whole. */
  today: UsageRow;
  /** Every kept day. */
  total: UsageTotals;
  budgets: {
    max_tokens_per_turn: number;
    max_tokens_per_day: number;
    max_cost_per_day: number;
    /** What today's budgets count: today's tokens and cost since the last resume. */
    today_tokens: number;
    today_cost_usd: number;
    /** When today's count started (the last resume today), or null: the start of the UTC day. */
    counted_since: string | null;
  };
  warnings: string[];
}

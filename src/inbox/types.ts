/**
 * The vocabulary the inbox's folders share: host types (sources/ defines what each one means;
 * streams/ names them in the shared stream catalogue) and the aggregation policy record (an
 * agent's, in entries/, and a target's, in delivery/, whose aggregation.ts reads and checks it).
 * Types and their literal lists only: this file imports nothing of the inbox.
 */

export const HOST_TYPES = ['local_event', 'remote_source', 'github'] as const;
export type HostType = (typeof HOST_TYPES)[number];

/**
 * How an agent's new entries become notifications of a target (delivery/aggregation.ts): the
 * stored record, with defaults filled in and the time zone resolved.
 */
export type AggregationPolicy =
  | { mode: 'immediate' }
  | { mode: 'coalesce'; windowMs: number; maxEntries: number | null }
  | { mode: 'digest'; every: number | null; cron: string | null; timezone: string; maxEntries: number };

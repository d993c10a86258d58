/**
 * Recurrences in wall-clock time: every N ms on a grid, or a 5-field cron expression evaluated by
 * croner in an IANA time zone (so times follow DST). Shared by inbox timers (timers.ts) and digest
 * schedules (delivery/digests.ts, whose policies are checked by delivery/aggregation.ts).
 */
import { Cron } from 'croner';
import { errors } from '../../core/index.js';

/** The daemon host's IANA time zone (the default `timezone`). */
export function hostTimezone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Throws 400 invalid_timezone unless `tz` names an IANA zone. */
export function checkTimezone(tz: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    throw errors.invalidTimezone(tz);
  }
}

/**
 * A paused croner job for `expr` in `timezone`; throws 400 invalid_cron (5 fields only,
 * docs/inbox-api.md#timers).
 */
export function parseCron(expr: string, timezone: string): Cron {
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5) throw errors.invalidCron(expr, `expected 5 fields (minute hour day-of-month month day-of-week), got ${fields.length}`);
  try {
    return new Cron(expr, { timezone, paused: true });
  } catch (err) {
    throw errors.invalidCron(expr, (err as Error).message);
  }
}

/**
 * First occurrence strictly after `afterMs` of a recurrence: every `every` ms on the grid
 * anchored at `anchorMs`, or a cron expression in `timezone`; null when the cron never matches
 * again.
 */
export function nextRecurrence(r: { every: number | null; cron: string | null; timezone: string }, anchorMs: number, afterMs: number): number | null {
  if (r.every !== null) return anchorMs + Math.max(1, Math.floor((afterMs - anchorMs) / r.every) + 1) * r.every;
  const next = parseCron(r.cron!, r.timezone).nextRun(new Date(afterMs));
  return next ? next.getTime() : null;
}

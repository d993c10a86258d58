/** Timer request and response shapes (spec "Timer request shapes"; docs/control-plane-api.md#timers). */
import { z } from 'zod';
import { LIST_MAX, MIN_INTERVAL_MS, TIMER_STATUSES } from '../../runtime/timers/index.js';
import { AuthorityClass, QueryInt } from './common.js';

/**
 * Largest accepted duration or interval: about 31,700 years. The spec's uint64 has no useful
 * upper end, but a fire time must stay a valid date, so absurd values answer 400, never 500.
 */
export const MAX_TIMER_MS = 1e15;

const Millis = z.number().int().min(0).max(MAX_TIMER_MS);

export const TimerParams = z.object({
  id: z.string().min(1).openapi({ example: 'main' }),
  timer_id: z.string().min(1).openapi({ example: 'tmr_01J9ZQ4B7R8F3W2X5Y6Z7A8B9C' }),
});

export const CreateTimerBody = z
  .strictObject({
    duration_ms: Millis.openapi({ description: 'delay before the first firing, in milliseconds' }),
    // Mirrors TimerService.create's floor, so the 400 names the body field.
    interval_ms: Millis.refine((v) => v === 0 || v >= MIN_INTERVAL_MS, `must be 0 (a one-shot timer) or at least ${MIN_INTERVAL_MS} ms`)
      .nullable()
      .optional()
      .openapi({
        description: `period of an interval timer after its first firing, at least ${MIN_INTERVAL_MS} ms; null, absent or 0: a one-shot timer`,
      }),
    summary: z.string().nullable().optional().openapi({ description: 'what the timer is for; delivered with every tick' }),
    authority_class: AuthorityClass,
  })
  .openapi('CreateTimerRequest', {
    description: 'No other properties are allowed: `after_ms`/`every_ms` (an older spelling) answer 400 invalid_request with a hint.',
  });

export const CancelTimerBody = z.strictObject({ authority_class: AuthorityClass }).openapi('CancelTimerRequest');

export const TimerRecord = z
  .object({
    timer_id: z.string(),
    agent_id: z.string(),
    status: z.enum(TIMER_STATUSES),
    duration_ms: z.number().int(),
    interval_ms: z.number().int().nullable(),
    summary: z.string().nullable(),
    created_at: z.string(),
    next_fire_at: z.string().nullable().openapi({ description: 'next firing (RFC 3339); null once cancelled or completed' }),
    last_fired_at: z.string().nullable(),
    fire_count: z.number().int(),
  })
  .openapi('TimerRecord');

export const TimerList = z.object({ ok: z.literal(true), agent_id: z.string(), timers: z.array(TimerRecord) });

export const TimerListQuery = z.object({
  limit: QueryInt.pipe(z.number().int().min(1).max(LIST_MAX))
    .optional()
    .openapi({ description: `most records returned (default 100, at most ${LIST_MAX})` }),
  status: z.enum(TIMER_STATUSES).optional().openapi({ description: 'only timers in this status' }),
});

/** Validation hint for the older `after_ms`/`every_ms` spelling. */
export function timerBodyHint(issues: Array<{ path: string; message: string }>): string | undefined {
  const old = issues.some((i) => /\b(after_ms|every_ms)\b/.test(i.path) || /\b(after_ms|every_ms)\b/.test(i.message));
  return old
    ? 'timer bodies use duration_ms (instead of after_ms: delay before the first firing) and interval_ms (instead of every_ms: period, or null for a one-shot)'
    : undefined;
}

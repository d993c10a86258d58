/**
 * Timer tools: TimerService.create / cancel, the calls behind POST .../timers and
 * POST .../timers/:id/cancel (same `timer_created` / `timer_cancelled` events). A firing later
 * reaches the agent as a `system_tick` message from origin timer. The timer service takes no
 * authority class; its floor (interval >= 1 s) and per-agent cap apply here as on the route.
 */
import { z } from 'zod';
import type { ToolDeps } from './types.js';
import { defineTool } from './define.js';

/** Ten years: far past any useful reminder, and a fire time that is always a valid date. */
export const MAX_TOOL_TIMER_MS = 10 * 365 * 24 * 3600 * 1000;
export const Millis = z.number().int().min(0).max(MAX_TOOL_TIMER_MS);

export function timerTools(deps: ToolDeps) {
  const { timers, logger } = deps;
  return [
    defineTool(
      {
        name: 'create_timer',
        class: 'write',
        description:
          'Set a durable timer: it first fires after duration_ms; with interval_ms > 0 it then repeats every interval_ms. ' +
          'Each firing arrives as a timer tick message carrying the summary. Returns the timer record (timer_id).',
        args: z.strictObject({
          duration_ms: Millis.describe('delay before the first firing, in milliseconds'),
          interval_ms: Millis.optional().describe('repeat period in milliseconds, at least 1000; omit or 0 for a one-shot timer'),
          summary: z.string().optional().describe('what the timer is for; delivered with every tick'),
        }),
        run: (ctx, a) =>
          timers.create(ctx.agentId, { duration_ms: a.duration_ms, interval_ms: a.interval_ms ?? null, summary: a.summary ?? null, taint: ctx.trust }),
      },
      logger,
    ),
    defineTool(
      {
        name: 'cancel_timer',
        class: 'write',
        description: 'Cancel an active timer. Cancelling a cancelled timer is a no-op; a completed one-shot timer cannot be cancelled.',
        args: z.strictObject({ timer_id: z.string().min(1).describe('the timer id (tmr_...)') }),
        run: (ctx, a) => timers.cancel(ctx.agentId, a.timer_id),
      },
      logger,
    ),
  ];
}

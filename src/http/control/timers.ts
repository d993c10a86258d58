/** Agent timers (spec "Timer" state table, endpoint tables; docs/control-plane-api.md#timers). */
import type { Services } from '../../services.js';
import { defineRoute, type AnyRoute } from '../route.js';
import {
  AgentIdParams,
  CancelTimerBody,
  CreateTimerBody,
  timerBodyHint,
  TimerList,
  TimerListQuery,
  TimerParams,
  TimerRecord,
} from '../schemas/index.js';

const tags = ['timers'];

export function timerRoutes(s: Services): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/agents/:id/timers',
      auth: 'read',
      tags,
      summary: 'Recent timer records: active timers first, then cancelled and completed ones, newest first',
      params: AgentIdParams,
      query: TimerListQuery,
      responses: { 200: { description: 'Timers', schema: TimerList } },
      handler: ({ params, query }) => ({ ok: true, agent_id: params.id, timers: s.timers.list(params.id, query) }),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/agents/:id/timers/:timer_id',
      auth: 'read',
      tags,
      summary: 'One timer record; 404 timer_not_found when the agent has no such timer',
      params: TimerParams,
      responses: { 200: { description: 'Timer', schema: TimerRecord } },
      handler: ({ params }) => s.timers.get(params.id, params.timer_id),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/control/agents/:id/timers',
      errors: { 409: ['timer_limit_reached'] },
      bodyExample: { duration_ms: 600000, interval_ms: 3600000, summary: 'check the nightly build' },
      auth: 'control',
      tags,
      summary: 'Create a persistent delayed or recurring timer that delivers a timer tick',
      description:
        'The timer first fires `duration_ms` after creation; with `interval_ms` > 0 it then fires every `interval_ms` on that original grid. ' +
        'A firing enqueues a system_tick (origin {kind:"timer", timer_id}, trusted_system, runtime_instruction, priority next) and emits `timer_fired`. ' +
        'Timers survive restarts: an overdue one-shot fires once at start; an interval timer fires once for all missed periods, then keeps its cadence. ' +
        'A timer keeps at most one tick waiting in the queue: while its previous tick has not been taken (the agent is stopped or busy), its next firing waits, then fires once for all the periods it missed. ' +
        'The body is strict: `after_ms`/`every_ms` answer 400 invalid_request with a hint naming duration_ms/interval_ms. ' +
        '`interval_ms` between 1 and 999 answers 400 invalid_request (an interval timer fires at most once a second). ' +
        'An agent has at most `timers.max_active_per_agent` (default 256) active timers: past it, 409 timer_limit_reached (with agent_id and limit) until one completes or is cancelled.',
      params: AgentIdParams,
      body: CreateTimerBody,
      hint: timerBodyHint,
      responses: { 201: { description: 'Created', schema: TimerRecord } },
      handler: async ({ params, body, reply }) => {
        const timer = await s.timers.create(params.id, body);
        reply.code(201);
        return timer;
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/control/agents/:id/timers/:timer_id/cancel',
      errors: { 400: ['timer_completed'] },
      bodyExample: {},
      auth: 'control',
      tags,
      summary: 'Cancel a timer; emits timer_cancelled',
      description:
        'active -> cancelled (event timer_cancelled); cancelled -> 200 with the same record; completed -> 400 timer_completed; unknown -> 404 timer_not_found.',
      params: TimerParams,
      body: CancelTimerBody,
      bodyOptional: true,
      responses: { 200: { description: 'Updated timer', schema: TimerRecord } },
      handler: ({ params }) => s.timers.cancel(params.id, params.timer_id),
    }),
  ];
}

/**
 * Public ingress and the control prompt (spec "Public ingress";
 * docs/control-plane-api.md#ingress-and-provenance).
 */
import type { Services } from '../../services.js';
import { PUBLIC_ENQUEUE, QUEUE_FULL } from '../error-responses.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { Admitted, AgentIdParams, AnyJson, EnqueueBody, PromptBody } from '../schemas/index.js';
import { z } from 'zod';

const tags = ['ingress'];
const enqueueDescription =
  'Rules, in order, nothing queued on rejection: trust/trust_level/authority_class -> 403 provenance_override_rejected; priority interject -> 403 priority_not_allowed; kind operator_prompt or runtime-owned -> 403 kind_not_allowed; origin kind other than channel/webhook -> 403 origin_not_allowed; kind contradicting origin -> 400 kind_origin_mismatch; no content -> 400 empty_message; the agent already has queue.max_pending queued messages from external senders (public enqueue, webhooks, callbacks, inbox notifications; operator and runtime messages are not counted) -> 429 overloaded with Retry-After.';

export function ingressRoutes(s: Services): AnyRoute[] {
  return [
    defineRoute({
      method: 'POST',
      url: '/api/agents/:id/enqueue',
      errors: PUBLIC_ENQUEUE,
      bodyExample: { text: 'Build 1432 failed on main: test/unit/queue.test.ts', origin: { kind: 'webhook' }, correlation_id: 'ci-1432' },
      auth: 'control',
      tags,
      summary: 'Enqueue an external message for an agent',
      description: enqueueDescription,
      params: AgentIdParams,
      body: EnqueueBody,
      responses: { 202: { description: 'Queued', schema: Admitted } },
      handler: async ({ params, body, reply }) => {
        const admitted = await s.ingress.publicEnqueue(params.id, body);
        reply.code(202);
        return admitted;
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/enqueue',
      operationId: 'enqueueDefaultAgent',
      errors: PUBLIC_ENQUEUE,
      bodyExample: { text: 'Nightly backup finished: 2.1 GB', origin: { kind: 'channel' }, priority: 'background' },
      auth: 'control',
      tags,
      summary: 'Enqueue an external message for the default agent',
      description: enqueueDescription,
      body: EnqueueBody,
      responses: { 202: { description: 'Queued', schema: Admitted } },
      handler: async ({ body, reply }) => {
        const admitted = await s.ingress.publicEnqueue(undefined, body);
        reply.code(202);
        return admitted;
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/webhooks/generic/:agent_id',
      operationId: 'receiveGenericWebhook',
      errors: QUEUE_FULL,
      bodyExample: { event: 'deploy.finished', service: 'web', status: 'ok' },
      auth: 'control',
      tags,
      summary: 'Generic webhook: any JSON becomes a webhook_event (origin generic_webhook, priority normal)',
      description:
        'Fields named origin, trust or priority in the payload are payload, not provenance. ' +
        'Counts against the public budget (queue.max_pending queued messages from external senders per agent): past it, 429 overloaded with Retry-After.',
      params: z.object({ agent_id: z.string().min(1) }),
      body: AnyJson,
      responses: { 202: { description: 'Queued', schema: Admitted } },
      handler: async ({ params, body, reply }) => {
        const admitted = await s.ingress.genericWebhook(params.agent_id, body);
        reply.code(202);
        return admitted;
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/control/agents/:id/prompt',
      errors: QUEUE_FULL,
      bodyExample: { text: 'Summarise the open work items and what blocks each' },
      auth: 'control',
      tags,
      summary: 'Operator prompt: operator_prompt, trusted_operator, operator_instruction, priority interject',
      description:
        'Never refused because external senders filled the queue: operator messages are counted apart from public ingress, ' +
        'against queue.max_pending_operator (default 100000) queued operator messages per agent; past that, 429 overloaded with Retry-After.',
      params: AgentIdParams,
      body: PromptBody,
      responses: { 202: { description: 'Queued', schema: Admitted } },
      handler: async ({ params, body, reply }) => {
        const admitted = await s.ingress.controlPrompt(params.id, body.text, { correlation_id: body.correlation_id });
        reply.code(202);
        return admitted;
      },
    }),
  ];
}

/**
 * Operator bindings and operator ingress (spec "Control plane": operator binding fields,
 * "Operator ingress rules", Authentication item 5;
 * docs/control-plane-api.md#ingress-and-provenance). Every binding a response carries is redacted:
 * the delivery credential never leaves the service.
 */
import type { Services } from '../../services.js';
import { QUEUE_FULL } from '../error-responses.js';
import { defineRoute, type AnyRoute } from '../route.js';
import {
  Admitted,
  AgentIdParams,
  BindingList,
  BindingParams,
  BindingResponse,
  BindingView,
  OperatorIngressBody,
  UpsertBindingBody,
} from '../schemas/index.js';
import { z } from 'zod';

const tags = ['operator'];

export function bindingRoutes(s: Services): AnyRoute[] {
  return [
    defineRoute({
      method: 'POST',
      url: '/api/control/agents/:id/operator-bindings',
      errors: { 409: ['binding_conflict'] },
      bodyExample: {
        binding_id: 'chat-alice',
        transport: 'remote-operator',
        operator_actor_id: 'alice',
        delivery_callback_url: 'https://relay.example.org/deliver',
        delivery_auth: { kind: 'bearer', bearer_token: 'relay-token-example' },
        capabilities: { reply: true, attachments: false },
        provider: 'telegram',
      },
      auth: 'control',
      tags,
      summary: 'Create or update an operator transport binding',
      description:
        'transport accepts hyphen or underscore spellings (stored with underscores); delivery_auth accepts {kind:"bearer", bearer_token} or {type:"bearer", token} and is answered as {kind:"bearer", bearer_token:"[redacted]"} with has_credential. A binding_id of another agent: 409 binding_conflict.',
      params: AgentIdParams,
      body: UpsertBindingBody,
      responses: {
        200: { description: 'Updated', schema: BindingResponse },
        201: { description: 'Created', schema: BindingResponse },
      },
      handler: ({ params, body, reply }) => {
        const out = s.bindings.upsert(params.id, body);
        reply.code(out.created ? 201 : 200);
        return { ok: true, created: out.created, binding: out.binding };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/control/agents/:id/operator-bindings',
      auth: 'control',
      tags,
      summary: "The agent's operator bindings (credentials redacted)",
      params: AgentIdParams,
      responses: { 200: { description: 'Bindings', schema: BindingList } },
      handler: ({ params }) => ({ ok: true, bindings: s.bindings.list(params.id) }),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/control/agents/:id/operator-bindings/:binding_id',
      auth: 'control',
      tags,
      summary: 'One operator binding (credential redacted)',
      params: BindingParams,
      responses: { 200: { description: 'Binding', schema: z.object({ ok: z.literal(true), binding: BindingView }) } },
      handler: ({ params }) => ({ ok: true, binding: s.bindings.get(params.id, params.binding_id) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/control/agents/:id/operator-ingress',
      operationId: 'sendOperatorIngress',
      errors: { 403: ['binding_mismatch'], ...QUEUE_FULL },
      bodyExample: { text: 'Pause the release until I reply', actor_id: 'alice', binding_id: 'chat-alice' },
      auth: 'control',
      tags,
      summary: 'Operator ingress through a binding: operator_prompt, trusted_operator, operator_instruction, priority interject',
      description:
        'Missing binding: 404 binding_not_found. A binding of another agent, an inactive binding, actor_id other than the binding\'s operator_actor_id, or a provider other than the binding\'s: 403 binding_mismatch. The message metadata carries the transport, binding_id, reply_route_id (default: the binding\'s default_route_id) and provider. Never refused because external senders filled the queue: counted with the operator\'s prompts against queue.max_pending_operator, not queue.max_pending.',
      params: AgentIdParams,
      body: OperatorIngressBody,
      responses: { 202: { description: 'Queued', schema: Admitted } },
      handler: async ({ params, body, reply }) => {
        const admitted = await s.bindings.ingress(params.id, body);
        reply.code(202);
        return admitted;
      },
    }),
  ];
}

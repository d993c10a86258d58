/**
 * External triggers (control routes) and the two callback routes they issue capabilities for
 * (spec "Callbacks"; docs/control-plane-api.md#external-triggers). The callback routes are `open`:
 * the token in the path is the auth. They read the body raw (any content type, 256 KB limit) and
 * never echo the token.
 */
import type { Services } from '../../services.js';
import { CALLBACK_BODY_LIMIT } from '../../runtime/channels/index.js';
import { QUEUE_FULL } from '../error-responses.js';
import { defineRoute, type AnyRoute } from '../route.js';
import {
  AgentIdParams,
  CallbackAdmitted,
  CallbackParams,
  CallbackWoken,
  CreatedTrigger,
  CreateTriggerBody,
  TriggerList,
  TriggerParams,
  TriggerResponse,
} from '../schemas/index.js';

const tags = ['triggers'];
const bodyRules =
  'Body (at most 256 KB, else 413 payload_too_large): application/json or */*+json is parsed (400 invalid_json when malformed); text/* is read as text in its charset; any other content type (a body without one counts as application/octet-stream) is kept as base64. Unknown or revoked token: 404 trigger_not_found; a token of the other delivery mode: 403 delivery_mode_mismatch. Counts against the public budget (queue.max_pending queued messages from external senders per agent): past it, 429 overloaded with Retry-After.';

export function triggerRoutes(s: Services): AnyRoute[] {
  return [
    defineRoute({
      method: 'POST',
      url: '/api/control/agents/:id/external-triggers',
      bodyExample: { delivery_mode: 'enqueue', summary: 'CI results for main' },
      auth: 'control',
      tags,
      summary: 'Issue an external trigger: a callback capability token for enqueue or wake',
      description:
        'The token (32 random bytes, base64url) is returned only in this response and stored only as a sha256 hash. callback_path is where the holder posts: /api/callbacks/<delivery_mode>/<token>.',
      params: AgentIdParams,
      body: CreateTriggerBody,
      responses: { 201: { description: 'Issued', schema: CreatedTrigger } },
      handler: ({ params, body, reply }) => {
        const t = s.triggers.create(params.id, body);
        reply.code(201);
        return {
          ok: true,
          trigger_id: t.trigger_id,
          agent_id: t.agent_id,
          delivery_mode: t.delivery_mode,
          summary: t.summary,
          status: t.status,
          created_at: t.created_at,
          token: t.token,
          callback_path: t.callback_path,
        };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/control/agents/:id/external-triggers',
      auth: 'control',
      tags,
      summary: "The agent's external triggers (never their tokens)",
      params: AgentIdParams,
      responses: { 200: { description: 'Triggers', schema: TriggerList } },
      handler: ({ params }) => ({ ok: true, triggers: s.triggers.list(params.id) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/control/agents/:id/external-triggers/:trigger_id/revoke',
      auth: 'control',
      tags,
      summary: 'Revoke an external trigger (idempotent); its token stops working at once',
      params: TriggerParams,
      bodyOptional: true,
      responses: { 200: { description: 'The trigger, revoked', schema: TriggerResponse } },
      handler: ({ params }) => ({ ok: true, ...s.triggers.revoke(params.id, params.trigger_id) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/callbacks/enqueue/:callback_token',
      operationId: 'callbackEnqueue',
      errors: { 403: ['delivery_mode_mismatch'], ...QUEUE_FULL },
      bodyExample: { build: 1432, branch: 'main', status: 'failed', url: 'https://ci.example.org/1432' },
      auth: 'open',
      tags,
      summary: 'Callback enqueue: the body becomes a callback_event (trusted_integration, integration_signal, priority normal)',
      description: `Authorized by the capability token in the path. ${bodyRules} JSON objects are queued as {type:"json", value}, other JSON values as {type:"json", value:{payload}}, text as {type:"text", text}, other types as {type:"json", value:{content_type, body_base64}}, an empty body as {type:"json", value:{}}.`,
      params: CallbackParams,
      rawBody: true,
      bodyLimit: CALLBACK_BODY_LIMIT,
      responses: { 202: { description: 'Queued', schema: CallbackAdmitted } },
      handler: async ({ params, body, request, reply }) => {
        const admitted = await s.triggers.callbackEnqueue(params.callback_token, {
          contentType: request.headers['content-type'],
          body: body as Buffer | undefined,
        });
        reply.code(202);
        return admitted;
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/callbacks/wake/:callback_token',
      operationId: 'callbackWake',
      errors: { 403: ['delivery_mode_mismatch'], ...QUEUE_FULL },
      bodyExample: { check: 'nightly-backup', status: 'finished', size_bytes: 2254857830 },
      auth: 'open',
      tags,
      summary: 'Callback wake: enqueue a runtime-owned inspection tick (system_tick, priority next); the payload is untrusted evidence',
      description: `Authorized by the capability token in the path. ${bodyRules} The tick's body is {reason:"callback_wake", trigger_id, evidence:{trust:"untrusted_external", content_type, text | value}}.`,
      params: CallbackParams,
      rawBody: true,
      bodyLimit: CALLBACK_BODY_LIMIT,
      responses: { 202: { description: 'Tick queued', schema: CallbackWoken } },
      handler: async ({ params, body, request, reply }) => {
        const woken = await s.triggers.callbackWake(params.callback_token, {
          contentType: request.headers['content-type'],
          body: body as Buffer | undefined,
        });
        reply.code(202);
        return woken;
      },
    }),
  ];
}

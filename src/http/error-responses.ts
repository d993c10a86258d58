/**
 * The 4xx (and other documented error) responses of a route's OpenAPI operation: each status with
 * the error codes (src/core/errors.ts) a client can meet there, all in the ErrorResponse envelope.
 * Derived from what the route declares (inputs: 400; a path parameter: the 404 of the resource it
 * names; the auth class on its surface: 401/403) and merged with the codes its handler adds
 * (`RouteSpec.errors`).
 */
import type { ZodType } from 'zod';
import { toOpenApiPath } from './openapi.js';
import { ErrorResponse } from './schemas/index.js';

/** Status -> error codes. In `RouteSpec.errors` an empty list removes a derived status. */
export type ErrorCodes = Partial<Record<number, readonly string[]>>;

/** The resource a path parameter names, by the code of its 404 (control plane and inbox spellings). */
const NOT_FOUND_BY_PARAM: Record<string, string> = {
  id: 'agent_not_found',
  agent_id: 'agent_not_found',
  agentId: 'agent_not_found',
  work_item_id: 'work_item_not_found',
  timer_id: 'timer_not_found',
  task_id: 'task_not_found',
  trigger_id: 'trigger_not_found',
  callback_token: 'trigger_not_found',
  binding_id: 'binding_not_found',
  skill_id: 'skill_not_found',
  catalog_id: 'template_not_found',
  trace_id: 'trace_not_found',
  job_id: 'job_not_found',
  turn_id: 'turn_not_found',
  profile: 'credential_not_found',
  source_id: 'source_not_found',
  hostId: 'host_not_found',
  sourceId: 'source_not_found',
  streamId: 'stream_not_found',
  subscriptionId: 'subscription_not_found',
  targetId: 'target_not_found',
  scheduleId: 'timer_not_found',
};

const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'No valid credential',
  403: 'Refused',
  404: 'Not found',
  409: 'Conflict with the current state',
  429: 'Overloaded: retry after Retry-After seconds',
  501: 'Not supported here',
  502: 'An upstream failed',
  503: 'Unavailable now: retry after Retry-After seconds',
  507: 'The disk holding the database is full: nothing was written; retry after Retry-After seconds',
};

/** The auth hook's refusals (src/http/auth.ts): what every TCP request may meet. */
const HOST_ORIGIN = ['host_not_allowed', 'cross_origin_rejected'];

interface RouteShape {
  method: string;
  url: string;
  auth: 'open' | 'read' | 'control';
  params?: ZodType | undefined;
  query?: ZodType | undefined;
  body?: ZodType | undefined;
  rawBody?: boolean | undefined;
  errors?: ErrorCodes | undefined;
}

export function errorCodesOf(route: RouteShape): ErrorCodes {
  const codes: Record<number, string[]> = {};
  const add = (status: number, ...list: string[]) => (codes[status] ??= []).push(...list.filter((c) => !codes[status]!.includes(c)));
  if (route.params || route.query || (route.body && !route.rawBody)) add(400, 'invalid_request');
  if (route.body && !route.rawBody) add(400, 'invalid_json');
  add(403, ...HOST_ORIGIN);
  if (route.auth !== 'open') {
    add(401, 'auth_required');
    add(403, 'peer_user_rejected');
  }
  // Every change to an agent refuses one that is being deleted (AgentRegistry.getWritable).
  if (route.method !== 'GET' && /^\/api\/control\/agents\/:id\//.test(route.url)) add(409, 'agent_deleting');
  for (const m of toOpenApiPath(route.url).matchAll(/\{([A-Za-z0-9_]+)\}/g)) {
    const code = NOT_FOUND_BY_PARAM[m[1]!];
    if (code) add(404, code);
  }
  for (const [status, list] of Object.entries(route.errors ?? {})) {
    if (list!.length === 0) delete codes[Number(status)];
    else add(Number(status), ...list!);
  }
  return codes;
}

/**
 * The OpenAPI responses for those codes. On the inbox the auth hook applies only on the optional
 * loopback TCP port (the socket's file mode is its boundary), which the descriptions say.
 */
export function errorResponses(codes: ErrorCodes, surface: 'control' | 'inbox'): Record<string, unknown> {
  const portOnly = new Set(surface === 'inbox' ? [...HOST_ORIGIN, 'auth_required', 'peer_user_rejected'] : []);
  const out: Record<string, unknown> = {};
  for (const [status, list] of Object.entries(codes)) {
    const named = list!.map((c) => (portOnly.has(c) ? `${c} (TCP port only)` : c));
    out[status] = {
      description: `${TITLES[Number(status)] ?? 'Error'}. Codes: ${named.join(', ')}.`,
      content: { 'application/json': { schema: ErrorResponse } },
    };
  }
  return out;
}

/** A write the full disk refused (src/store/faults.ts; any write route can meet it, the ones that take messages and events say so). */
export const DISK_FULL: ErrorCodes = { 507: ['insufficient_storage'] };

/**
 * What a full queue answers (src/runtime/agents/queue.ts), or a full disk: routes that enqueue on a
 * public or operator budget.
 */
export const QUEUE_FULL: ErrorCodes = { 429: ['overloaded'], ...DISK_FULL };

/** Public enqueue: the caller's provenance is checked (src/core/provenance.ts) before the queue. */
export const PUBLIC_ENQUEUE: ErrorCodes = {
  400: ['kind_origin_mismatch', 'empty_message'],
  403: ['provenance_override_rejected', 'priority_not_allowed', 'kind_not_allowed', 'origin_not_allowed', 'agent_private'],
  ...QUEUE_FULL,
};

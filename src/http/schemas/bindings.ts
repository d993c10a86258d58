import { z } from 'zod';
import { normaliseTransport } from '../../runtime/channels/index.js';
import { AuthorityClass, OpenObject } from './common.js';

export const BINDING_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

const NullableString = z.string().max(2048).nullable().optional();

/**
 * `delivery_auth` in either documented spelling, `{kind:"bearer", bearer_token}` or
 * `{type:"bearer", token}`, normalised to the first; `null` clears it.
 */
export const DeliveryAuthInput = z
  .looseObject({
    kind: z.literal('bearer').optional(),
    type: z.literal('bearer').optional(),
    bearer_token: z.string().min(1).optional(),
    token: z.string().min(1).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.kind === undefined && v.type === undefined) ctx.addIssue({ code: 'custom', message: 'kind (or type) "bearer" is required' });
    const secrets = [v.bearer_token, v.token].filter((t) => t !== undefined);
    if (secrets.length !== 1) ctx.addIssue({ code: 'custom', message: 'exactly one of bearer_token or token is required' });
  })
  .transform((v) => ({ kind: 'bearer' as const, bearer_token: (v.bearer_token ?? v.token)! }))
  .openapi('DeliveryAuth', { description: '{kind:"bearer", bearer_token} or {type:"bearer", token}; stored, never shown again (responses and events carry "[redacted]")' });

export const UpsertBindingBody = z
  .looseObject({
    binding_id: z.string().regex(BINDING_ID_PATTERN, 'binding_id must match ^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$').optional(),
    transport: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .transform(normaliseTransport)
      .optional()
      .openapi({ description: 'Hyphen and underscore spellings are one transport; stored with underscores (remote-operator -> remote_operator)' }),
    operator_actor_id: z.string().min(1).max(256).optional(),
    default_route_id: NullableString,
    delivery_callback_url: z.url({ protocol: /^https?$/ }).nullable().optional(),
    delivery_auth: DeliveryAuthInput.nullable().optional(),
    capabilities: OpenObject.optional(),
    provider: NullableString,
    provider_identity_ref: NullableString,
    metadata: OpenObject.optional(),
    status: z.enum(['active', 'inactive']).optional(),
    authority_class: AuthorityClass,
  })
  .openapi('OperatorBindingRequest', {
    description:
      'Creates (201) or updates (200) by binding_id (generated bnd_... when absent). An update merges: named fields replace, others stay. A new binding needs transport and operator_actor_id.',
  });

export const BindingView = z
  .object({
    binding_id: z.string(),
    agent_id: z.string(),
    transport: z.string(),
    operator_actor_id: z.string(),
    default_route_id: z.string().nullable(),
    delivery_callback_url: z.string().nullable(),
    delivery_auth: z.object({ kind: z.literal('bearer'), bearer_token: z.literal('[redacted]') }).nullable(),
    has_credential: z.boolean(),
    capabilities: OpenObject,
    provider: z.string().nullable(),
    provider_identity_ref: z.string().nullable(),
    metadata: OpenObject,
    status: z.enum(['active', 'inactive']),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('OperatorBinding');

export const BindingResponse = z.object({ ok: z.literal(true), created: z.boolean(), binding: BindingView });
export const BindingList = z.object({ ok: z.literal(true), bindings: z.array(BindingView) });
export const BindingParams = z.object({ id: z.string().min(1), binding_id: z.string().min(1) });

export const OperatorIngressBody = z
  .looseObject({
    text: z.string().refine((t) => t.trim().length > 0, 'text must not be empty'),
    actor_id: z.string().min(1),
    binding_id: z.string().min(1),
    reply_route_id: z.string().nullable().optional(),
    provider: z.string().nullable().optional(),
    correlation_id: z.string().optional(),
  })
  .openapi('OperatorIngressRequest');

import { z } from 'zod';
import { DELIVERY_MODES } from '../../runtime/channels/index.js';
import { AuthorityClass } from './common.js';

export const TriggerParams = z.object({ id: z.string().min(1), trigger_id: z.string().min(1) });

/** The token is the capability: no constraint here may echo it back in an error. */
export const CallbackParams = z.object({ callback_token: z.string() });

export const CreateTriggerBody = z
  .looseObject({
    delivery_mode: z.enum(DELIVERY_MODES),
    summary: z.string().max(1000).nullable().optional(),
    authority_class: AuthorityClass,
  })
  .openapi('CreateExternalTriggerRequest');

export const Trigger = z
  .object({
    trigger_id: z.string(),
    agent_id: z.string(),
    delivery_mode: z.enum(DELIVERY_MODES),
    summary: z.string().nullable(),
    status: z.enum(['active', 'revoked']),
    created_at: z.string(),
    revoked_at: z.string().nullable(),
    last_used_at: z.string().nullable(),
  })
  .openapi('ExternalTrigger');

export const CreatedTrigger = z
  .object({
    ok: z.literal(true),
    trigger_id: z.string(),
    agent_id: z.string(),
    delivery_mode: z.enum(DELIVERY_MODES),
    summary: z.string().nullable(),
    status: z.literal('active'),
    created_at: z.string(),
    token: z.string().openapi({ description: 'The capability token: shown only in this response, stored only as a hash' }),
    callback_path: z.string().openapi({ example: '/api/callbacks/enqueue/<token>' }),
  })
  .openapi('CreateExternalTriggerResponse');

export const TriggerList = z.object({ ok: z.literal(true), triggers: z.array(Trigger) });

export const TriggerResponse = Trigger.extend({ ok: z.literal(true) }).openapi('ExternalTriggerResponse');

export const CallbackAdmitted = z
  .object({ ok: z.literal(true), agent_id: z.string(), message_id: z.string() })
  .openapi('CallbackEnqueueResponse');

export const CallbackWoken = z
  .object({ ok: z.literal(true), agent_id: z.string(), message_id: z.string(), disposition: z.literal('woken') })
  .openapi('CallbackWakeResponse');

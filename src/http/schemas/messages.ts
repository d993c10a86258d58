import { z } from 'zod';
import { MESSAGE_KINDS, PRIORITIES } from '../../core/index.js';
import { OpenObject } from './common.js';

export const MessageBody = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('text'), text: z.string() }),
    z.object({ type: z.literal('json'), value: OpenObject }),
    z.object({ type: z.literal('brief'), title: z.string(), text: z.string(), attachments: z.array(z.unknown()).default([]) }),
  ])
  .openapi('MessageBody');

export const EnqueueBody = z
  .looseObject({
    kind: z.enum(MESSAGE_KINDS).optional(),
    priority: z.enum(PRIORITIES).optional(),
    text: z.string().optional(),
    json: OpenObject.optional(),
    body: MessageBody.optional(),
    origin: z.looseObject({ kind: z.string() }).optional(),
    metadata: OpenObject.optional(),
    correlation_id: z.string().optional(),
    causation_id: z.string().optional(),
  })
  .openapi('EnqueueRequest', {
    description:
      'Exactly one of text, json or body. Origin kind channel (trust untrusted_external) or webhook (trusted_integration, the default); trust, trust_level and authority_class are refused (403), as are interject priority and operator/runtime-owned kinds.',
  });

export const Admitted = z
  .object({ ok: z.literal(true), agent_id: z.string(), message_id: z.string() })
  .openapi('EnqueueResponse');

export const PromptBody = z
  .looseObject({
    text: z.string().trim().min(1, 'text must not be empty'),
    correlation_id: z.string().optional(),
    attachments: z
      .array(z.unknown())
      .max(0, 'svc takes no attachments: send the text only')
      .optional()
      .openapi({ description: 'accepted empty (the real system\'s client always sends it); svc takes no images or files' }),
  })
  .openapi('ControlPromptRequest');

export const AnyJson = z.unknown().openapi('AnyJson', { description: 'Any JSON document' });

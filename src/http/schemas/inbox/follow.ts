/** `POST /follow`: AgentInbox's follow templates (docs/agentinbox.md#follow). */
import { z } from 'zod';
import { OpenObject } from '../common.js';

export const FollowBody = z
  .strictObject({
    agentId: z.string().min(1).max(512),
    providerOrKind: z.string().min(1).max(100).openapi({ description: 'github (or github_repo)' }),
    template: z.string().min(1).max(100).openapi({ description: 'repo, pr or issue' }),
    templateArgs: OpenObject.optional().openapi({ description: 'the template\'s arguments (GET /sources/{id}/schema followSchema): owner, repo, number, withCi' }),
    configRef: z.string().min(1).max(512).nullable().optional().openapi({ description: 'the configRef of the sources it creates (`credential:<profile>`)' }),
    config: OpenObject.optional().openapi({ description: 'github host config keys (apiBaseUrl, credentialRef) go to the host, the rest to the sources it creates' }),
    startPolicy: z.enum(['latest', 'earliest', 'at_offset', 'at_time']).optional().openapi({ description: 'of the subscriptions it creates; default latest' }),
    startOffset: z.number().int().min(1).optional(),
    startTime: z.iso.datetime({ offset: true }).optional(),
  })
  .openapi('FollowRequest');

export const FollowResult = z
  .object({
    templateId: z.string(),
    agentId: z.string(),
    sources: z.array(z.object({ sourceId: z.string(), streamKind: z.string(), created: z.boolean() })),
    subscriptions: z.array(z.object({ subscriptionId: z.string(), sourceId: z.string(), created: z.boolean() })),
    host: z.object({ hostId: z.string(), created: z.boolean() }).openapi({ description: 'the host of the first source' }),
  })
  .openapi('FollowResult', { description: 'what the template ensured: created, or reused (created false)' });

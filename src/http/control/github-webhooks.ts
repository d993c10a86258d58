/**
 * GitHub webhooks into github sources of the inbox. The inbox API listens on a Unix socket (and
 * at most a loopback port), which GitHub cannot reach, so the one route GitHub calls is on the
 * control plane's TCP listener. It is `open`: the HMAC signature over the raw body is the auth
 * (src/inbox/sources/github-webhook.ts says what a caller may lie about and what it gets).
 */
import { z } from 'zod';
import { WEBHOOK_BODY_LIMIT } from '../../inbox/sources/index.js';
import type { Services } from '../../services.js';
import { defineRoute, type AnyRoute } from '../route.js';

const Params = z.object({ source_id: z.string().min(1).max(512).openapi({ example: 'src_01J0000000000000000000000' }) });

const Received = z
  .object({
    ok: z.literal(true),
    sourceId: z.string(),
    event: z.string().openapi({ description: 'X-GitHub-Event' }),
    deliveryId: z.string().openapi({ description: 'X-GitHub-Delivery' }),
    eventId: z.string().nullable().openapi({ description: "the event's id in the source's stream (null for ping)" }),
    appended: z.number().int(),
    deduped: z.number().int().openapi({ description: '1 when this state (or this body) was already stored: a replay or redelivery' }),
  })
  .openapi('GithubWebhookReceived');

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export function githubWebhookRoutes(s: Services): AnyRoute[] {
  return [
    defineRoute({
      method: 'POST',
      url: '/api/inbox/github/webhook/:source_id',
      operationId: 'receiveGithubWebhook',
      bodyExample: {
        action: 'opened',
        issue: {
          number: 88,
          title: 'Release 0.2.0 checklist',
          state: 'open',
          html_url: 'https://github.com/acme/web/issues/88',
          user: { login: 'alice' },
          created_at: '2030-01-01T10:00:00Z',
          updated_at: '2030-01-01T10:00:00Z',
        },
        repository: { full_name: 'acme/web' },
        sender: { login: 'alice' },
      },
      errors: { 400: ['webhook_repository_mismatch'], 401: ['webhook_signature_required'], 403: ['webhook_signature_invalid'] },
      auth: 'open',
      tags: ['inbox'],
      summary: "A GitHub webhook delivery for a github source (the source's stream gets the event)",
      description: `Needs no control token: the X-Hub-Signature-256 HMAC-SHA256 of the raw body with the secret of the source's webhookSecretRef credential profile is the authentication (missing: 401 webhook_signature_required; wrong: 403 webhook_signature_invalid; nothing is appended). A source that does not exist, is not a github source, has no webhookSecretRef or whose secret is not stored answers the same 404 source_not_found. Content type application/json or application/x-www-form-urlencoded (payload=…), at most ${WEBHOOK_BODY_LIMIT} bytes (413). X-GitHub-Event and X-GitHub-Delivery are required (400); neither is signed, so the body decides what the event is. repository.full_name must be the source's repository (400 webhook_repository_mismatch). issues, pull_request, issue_comment and workflow_run bodies become the events polling gives for the same state (same ids), a push is keyed by its ref and the commits it moved, other events become github.<event> keyed by a hash of the payload; ping appends nothing. An event name of those five on a body that is not one is 400 invalid_request. A signed body sent again, whatever its delivery id or event name, is deduplicated (deduped: 1). The Host header must be a loopback name or listed in auth.allowed_hosts (a tunnel that keeps the public host name needs it there).`,
      params: Params,
      rawBody: true,
      bodyLimit: WEBHOOK_BODY_LIMIT,
      responses: { 200: { description: 'Received (or deduplicated)', schema: Received } },
      handler: ({ params, body, request }) =>
        s.inbox.githubWebhooks.receive({
          sourceId: params.source_id,
          signature: header(request.headers['x-hub-signature-256']),
          event: header(request.headers['x-github-event']),
          deliveryId: header(request.headers['x-github-delivery']),
          contentType: request.headers['content-type'],
          body: body as Buffer | undefined,
        }),
    }),
  ];
}

/**
 * Deliveries through handles (AgentInbox v1.0.3 `POST /deliveries/send|actions|invoke`;
 * docs/agentinbox.md#deliveries, src/inbox/outbound/outbound.ts for what a handle may name).
 */
import type { Services } from '../../services.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { DeliveryActions, DeliveryActionsBody, DeliveryAttempt, DeliveryInvokeBody, DeliverySendBody } from '../schemas/inbox/index.js';

const tags = ['deliveries'];

/** What a delivery can meet besides a bad body: the handle refused, the source, the credential, GitHub. */
const REFUSALS = {
  400: ['delivery_unsupported', 'delivery_target_not_followed'],
  404: ['source_not_found'],
  409: ['delivery_source_ambiguous', 'delivery_credential_missing'],
  502: ['delivery_failed'],
};

const HANDLE = { provider: 'github', surface: 'issue_comment', targetRef: 'octo/hello#3', threadRef: null, replyMode: 'comment' };

export function inboxOutboundRoutes(s: Services): AnyRoute[] {
  const { outbound } = s.inbox;
  return [
    defineRoute({
      method: 'POST',
      url: '/deliveries/actions',
      bodyExample: { deliveryHandle: HANDLE },
      auth: 'control',
      tags,
      summary: 'The operations a delivery handle offers, with their input schemas (sends nothing)',
      description: "sourceId echoes the request's; deliveringSourceId is the github source that would deliver (null when none follows the repository). A provider svc does not deliver to has no operations.",
      body: DeliveryActionsBody,
      errors: { 400: REFUSALS[400], 404: REFUSALS[404] },
      responses: { 200: { description: 'Operations', schema: DeliveryActions } },
      handler: ({ body }) => outbound.actions(body),
    }),
    defineRoute({
      method: 'POST',
      url: '/deliveries/send',
      bodyExample: { deliveryHandle: HANDLE, kind: 'reply', payload: { text: 'Thanks, looking into it.' } },
      auth: 'control',
      tags,
      summary: "Send a text through the handle's text operation (add_comment, or reply_in_review_thread for a review thread)",
      description: "Through the github source following the handle's repository (or sourceId), with its host's apiBaseUrl and credential. Every check runs before anything is sent.",
      body: DeliverySendBody,
      errors: REFUSALS,
      responses: { 200: { description: 'Sent', schema: DeliveryAttempt } },
      handler: ({ body }) => outbound.send(body, { by: 'inbox api' }),
    }),
    defineRoute({
      method: 'POST',
      url: '/deliveries/invoke',
      bodyExample: { deliveryHandle: HANDLE, operation: 'close_issue', input: {} },
      auth: 'control',
      tags,
      summary: 'Run one operation the handle offers: add_comment, reply_in_review_thread, close_issue, reopen_issue, merge_pull_request',
      description: 'The operation must be one POST /deliveries/actions lists for the handle, its input a strict object of its inputSchema. Every check runs before anything is sent.',
      body: DeliveryInvokeBody,
      errors: REFUSALS,
      responses: { 200: { description: 'Done', schema: DeliveryAttempt } },
      handler: ({ body }) => outbound.invoke(body, { by: 'inbox api' }),
    }),
  ];
}


/** Subscriptions (spec/inbox.md Subscriptions; docs/inbox-api.md#subscriptions). */
import type { ResetInput } from '../../inbox/subscriptions/index.js';
import type { Services } from '../../services.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { limitList } from '../schemas/index.js';
import {
  CreateSubscriptionBody,
  PollResult,
  PollSubscriptionBody,
  ResetResult,
  ResetSubscriptionBody,
  SubscriptionDeleted,
  SubscriptionDetail,
  SubscriptionLag,
  SubscriptionList,
  SubscriptionListQuery,
  SubscriptionParams,
} from '../schemas/inbox/index.js';

export function inboxSubscriptionRoutes(s: Services): AnyRoute[] {
  const { subscriptions, agentViews } = s.inbox;
  return [
    defineRoute({
      method: 'GET',
      url: '/subscriptions',
      auth: 'control',
      tags: ['subscriptions'],
      summary: 'Subscriptions, optionally of one agent and/or one source',
      query: SubscriptionListQuery,
      responses: { 200: { description: 'Subscriptions', schema: SubscriptionList } },
      handler: ({ query: { limit, ...filter } }) => ({ subscriptions: limitList(subscriptions.list(filter), limit) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/subscriptions',
      errors: { 400: ['invalid_filter', 'filter_too_costly'] },
      bodyExample: { agentId: 'agt_01JB8Y5N3P0G1XQ2E7R9D4V6KT', sourceId: 'src_01JB8Y4F0R5J9T2K8W1M3Q6B7N' },
      auth: 'control',
      tags: ['subscriptions'],
      summary: 'Subscribe an agent to a source (or, with the host shortcut, to every source of a host)',
      description:
        "Answers {subscriptions: [...]} always: one element for sourceId, one per source for the host shortcut. Events from the start position (startPolicy) are materialised at creation; a start below the retained range is 409 history_unavailable. Invalid filters (match paths, an expr in CEL or in AgentInbox's JEXL) are 400 invalid_filter; an expr known to be too costly (CEL comprehensions nested more than 2 deep, JEXL brackets more than 32, or over the cost limit on an empty event) is 400 filter_too_costly. At run time an event the expr goes over its cost limit on is not matched, and filterError of the subscription says so.",
      body: CreateSubscriptionBody,
      responses: { 201: { description: 'Created', schema: SubscriptionList } },
      handler: ({ body, reply }) => {
        reply.code(201);
        return { subscriptions: subscriptions.create(body) };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/subscriptions/:subscriptionId',
      auth: 'control',
      tags: ['subscriptions'],
      summary: "One subscription with AgentInbox's details: its source, the agent's inbox and targets, its consumer and lag (404 subscription_not_found)",
      params: SubscriptionParams,
      responses: { 200: { description: 'Subscription', schema: SubscriptionDetail } },
      handler: ({ params }) => agentViews.subscriptionDetails(params.subscriptionId),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/subscriptions/:subscriptionId',
      auth: 'control',
      tags: ['subscriptions'],
      summary: 'Remove a subscription; its inbox entries stay',
      params: SubscriptionParams,
      responses: { 200: { description: 'Deleted', schema: SubscriptionDeleted } },
      handler: ({ params }) => {
        subscriptions.delete(params.subscriptionId);
        return { subscriptionId: params.subscriptionId, deleted: true, removed: true };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/subscriptions/:subscriptionId/lag',
      auth: 'control',
      tags: ['subscriptions'],
      summary: "Consumer offset against the stream bounds; lag = pendingEvents = highWatermarkOffset - consumedOffset (AgentInbox's ConsumerLag fields beside)",
      params: SubscriptionParams,
      responses: { 200: { description: 'Lag', schema: SubscriptionLag } },
      handler: ({ params }) => subscriptions.lag(params.subscriptionId),
    }),
    defineRoute({
      method: 'POST',
      url: '/subscriptions/:subscriptionId/poll',
      bodyExample: {},
      auth: 'control',
      tags: ['subscriptions'],
      summary: "Catch the subscription up to the high watermark now (matching is pushed; this is for after a reset), answered with AgentInbox's poll fields",
      params: SubscriptionParams,
      body: PollSubscriptionBody,
      bodyOptional: true,
      responses: { 200: { description: 'Caught up', schema: PollResult } },
      handler: ({ params }) => subscriptions.poll(params.subscriptionId),
    }),
    defineRoute({
      method: 'POST',
      url: '/subscriptions/:subscriptionId/reset',
      errors: { 409: ['history_unavailable'] },
      bodyExample: { startPolicy: 'earliest' },
      auth: 'control',
      tags: ['subscriptions'],
      summary: "Move the consumer to {offset} or a start policy; answers AgentInbox's {subscription, consumer, lag}, and the subscription consumes from there after the answer",
      description:
        "Moves the consumer offset (persisted) and answers AgentInbox's {subscription, consumer, lag} with svc's lag fields beside: the subscription keeps the start it was created with, the consumer shows the reset's and its next offset, the lag is what is left to read. Once the reset has committed the subscription consumes up to the high watermark by itself (a daemon stopped before that does it at its next start; POST …/poll does it at once and says what it read). An event that was ever an item of the agent is never materialised again, also after it was acknowledged and compacted: only events the agent never had become items. Below the retained range: 409 history_unavailable.",
      params: SubscriptionParams,
      body: ResetSubscriptionBody,
      responses: { 200: { description: 'Repositioned', schema: ResetResult } },
      handler: ({ params, body }) => subscriptions.reset(params.subscriptionId, body as ResetInput),
    }),

  ];
}

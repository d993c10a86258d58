/** Inbox agents, subscriptions and the inbox (spec/inbox.md Agents, Subscriptions, Inbox; CONTRACT.md section 9). */
import type { FastifyRequest } from 'fastify';
import { errors } from '../../core/errors.js';
import type { AckForm } from '../../inbox/entries.js';
import type { ResetInput } from '../../inbox/subscriptions.js';
import type { Services } from '../../services.js';
import { openStream } from '../control/events.js';
import { defineRoute, type AnyRoute } from '../route.js';
import {
  AckBody,
  AckResult,
  CatchUpResult,
  CompactInboxBody,
  CompactInboxResult,
  CreateInboxAgentBody,
  CreateSubscriptionBody,
  DirectItemBody,
  InboxAgent,
  InboxAgentDeleted,
  InboxAgentList,
  InboxAgentParams,
  InboxEntry,
  InboxItemsQuery,
  InboxPage,
  InboxSummary,
  PollSubscriptionBody,
  ResetSubscriptionBody,
  Subscription,
  SubscriptionDeleted,
  SubscriptionLag,
  SubscriptionList,
  SubscriptionListQuery,
  SubscriptionParams,
  WatchHeaders,
} from '../schemas/inbox-subscriptions.js';

const DEFAULT_PAGE = 100;
const SSE_RESPONSE = { 200: { description: 'text/event-stream: id = entry id, event = entry, data = InboxEntry JSON', contentType: 'text/event-stream' } };

export function inboxSubscriptionRoutes(s: Services): AnyRoute[] {
  const { agents, subscriptions, entries, watch } = s.inbox;
  return [
    // --- agents ------------------------------------------------------------------------------
    defineRoute({
      method: 'GET',
      url: '/agents',
      auth: 'control',
      tags: ['agents'],
      summary: 'Inbox agents',
      responses: { 200: { description: 'Agents', schema: InboxAgentList } },
      handler: () => ({ agents: agents.list() }),
    }),
    defineRoute({
      method: 'POST',
      url: '/agents',
      auth: 'control',
      tags: ['agents'],
      summary: 'Create an inbox agent (generated agt_ id)',
      body: CreateInboxAgentBody,
      bodyOptional: true,
      responses: { 201: { description: 'Created', schema: InboxAgent } },
      handler: ({ body, reply }) => {
        reply.code(201);
        return agents.create(body);
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/agents/:agentId',
      auth: 'control',
      tags: ['agents'],
      summary: 'One inbox agent (404 agent_not_found)',
      params: InboxAgentParams,
      responses: { 200: { description: 'Agent', schema: InboxAgent } },
      handler: ({ params }) => agents.get(params.agentId),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/agents/:agentId',
      auth: 'control',
      tags: ['agents'],
      summary: 'Delete an inbox agent with its subscriptions, entries, targets and timers',
      description: 'Open watch streams of the agent are closed.',
      params: InboxAgentParams,
      responses: { 200: { description: 'Deleted', schema: InboxAgentDeleted } },
      handler: ({ params }) => {
        agents.delete(params.agentId);
        return { agentId: params.agentId, deleted: true };
      },
    }),

    // --- subscriptions -----------------------------------------------------------------------
    defineRoute({
      method: 'GET',
      url: '/subscriptions',
      auth: 'control',
      tags: ['subscriptions'],
      summary: 'Subscriptions, optionally of one agent and/or one source',
      query: SubscriptionListQuery,
      responses: { 200: { description: 'Subscriptions', schema: SubscriptionList } },
      handler: ({ query }) => ({ subscriptions: subscriptions.list(query) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/subscriptions',
      auth: 'control',
      tags: ['subscriptions'],
      summary: 'Subscribe an agent to a source (or, with the host shortcut, to every source of a host)',
      description:
        'Answers {subscriptions: [...]} always: one element for sourceId, one per source for the host shortcut. Events from the start position (startPolicy) are materialised at creation; a start below the retained range is 409 history_unavailable. Invalid filters (match paths, CEL) are 400 invalid_filter.',
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
      summary: 'One subscription (404 subscription_not_found)',
      params: SubscriptionParams,
      responses: { 200: { description: 'Subscription', schema: Subscription } },
      handler: ({ params }) => subscriptions.get(params.subscriptionId),
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
        return { subscriptionId: params.subscriptionId, deleted: true };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/subscriptions/:subscriptionId/lag',
      auth: 'control',
      tags: ['subscriptions'],
      summary: 'Consumer offset against the stream bounds; lag = highWatermarkOffset - consumedOffset',
      params: SubscriptionParams,
      responses: { 200: { description: 'Lag', schema: SubscriptionLag } },
      handler: ({ params }) => subscriptions.lag(params.subscriptionId),
    }),
    defineRoute({
      method: 'POST',
      url: '/subscriptions/:subscriptionId/poll',
      auth: 'control',
      tags: ['subscriptions'],
      summary: 'Catch the subscription up to the high watermark now (matching is pushed; this is for after a reset)',
      params: SubscriptionParams,
      body: PollSubscriptionBody,
      bodyOptional: true,
      responses: { 200: { description: 'Caught up', schema: CatchUpResult } },
      handler: ({ params }) => subscriptions.poll(params.subscriptionId),
    }),
    defineRoute({
      method: 'POST',
      url: '/subscriptions/:subscriptionId/reset',
      auth: 'control',
      tags: ['subscriptions'],
      summary: 'Reposition to {offset} or a start policy and materialise from there',
      description:
        'Offsets that still have an entry for this subscription are not duplicated; offsets whose entries were acknowledged and compacted come back as new entries. Below the retained range: 409 history_unavailable.',
      params: SubscriptionParams,
      body: ResetSubscriptionBody,
      responses: { 200: { description: 'Repositioned', schema: CatchUpResult } },
      handler: ({ params, body }) => subscriptions.reset(params.subscriptionId, body as ResetInput),
    }),

    // --- inbox -------------------------------------------------------------------------------
    defineRoute({
      method: 'GET',
      url: '/agents/:agentId/inbox',
      auth: 'control',
      tags: ['inbox'],
      summary: 'Inbox summary: unacknowledged count, latest entry, delivery pause',
      params: InboxAgentParams,
      responses: { 200: { description: 'Summary', schema: InboxSummary } },
      handler: ({ params }) => entries.summary(params.agentId),
    }),
    defineRoute({
      method: 'GET',
      url: '/agents/:agentId/inbox/items',
      auth: 'control',
      tags: ['inbox'],
      summary: 'A page of entries in entry order (unacknowledged only unless includeAcked)',
      description: 'nextCursor is the last entry id of a full page (pass it as after), null at the end.',
      params: InboxAgentParams,
      query: InboxItemsQuery,
      responses: { 200: { description: 'Page', schema: InboxPage } },
      handler: ({ params, query }) =>
        entries.page(params.agentId, { after: query.after, limit: query.limit ?? DEFAULT_PAGE, includeAcked: query.includeAcked ?? false }),
    }),
    defineRoute({
      method: 'POST',
      url: '/agents/:agentId/inbox/items',
      auth: 'control',
      tags: ['inbox'],
      summary: 'Add a direct text item to the inbox',
      params: InboxAgentParams,
      body: DirectItemBody,
      responses: { 201: { description: 'Created', schema: InboxEntry } },
      handler: ({ params, body, reply }) => {
        reply.code(201);
        return entries.create(params.agentId, { kind: 'direct', message: body.message, sender: body.sender ?? null });
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/agents/:agentId/inbox/watch',
      auth: 'control',
      tags: ['inbox'],
      summary: 'SSE of inbox entries: unacknowledged backlog after Last-Event-ID (all without it), then live',
      description: 'Frames: id = entry id, event = entry, data = InboxEntry. A client that falls too far behind is disconnected; reconnect with Last-Event-ID.',
      params: InboxAgentParams,
      sse: true,
      responses: SSE_RESPONSE,
      handler: async ({ params, request, reply }) => {
        agents.get(params.agentId);
        const after = lastEntryId(request);
        await watch.stream(openStream(s, reply), params.agentId, after);
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/agents/:agentId/inbox/ack',
      auth: 'control',
      tags: ['inbox'],
      summary: 'Acknowledge entries: exactly one of {throughEntryId}, {entryIds}, {all: true}',
      description: 'acked counts entries newly acknowledged; durable before the answer. Unknown entry ids: 404 entry_not_found, nothing acknowledged.',
      params: InboxAgentParams,
      body: AckBody,
      responses: { 200: { description: 'Acknowledged', schema: AckResult } },
      handler: async ({ params, body }) => ({ acked: await entries.ack(params.agentId, body as AckForm) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/agents/:agentId/inbox/compact',
      auth: 'control',
      tags: ['inbox'],
      summary: "Delete the agent's acknowledged entries (unacknowledged ones are never removed)",
      params: InboxAgentParams,
      body: CompactInboxBody,
      bodyOptional: true,
      responses: { 200: { description: 'Compacted', schema: CompactInboxResult } },
      handler: ({ params }) => ({ agentId: params.agentId, removed: entries.compact(params.agentId) }),
    }),
  ];
}

/** Last-Event-ID as an entry cursor; anything but an entry id is a bad request. */
function lastEntryId(request: FastifyRequest): string | undefined {
  const header = request.headers['last-event-id'];
  if (header === undefined || header === '') return undefined;
  const value = Array.isArray(header) ? header[0]! : header;
  if (!WatchHeaders.lastEventId.safeParse(value).success) {
    throw errors.invalidRequest([{ path: 'headers.last-event-id', message: 'must be an entry id (ent_ + ULID)' }]);
  }
  return value;
}

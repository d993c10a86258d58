/**
 * The inbox of an agent as AgentInbox's daemon answers it: details, entries, direct items, watch,
 * acks, compaction (spec/inbox.md Inbox; docs/inbox-api.md#inbox, docs/agentinbox.md#inbox-items-and-entries).
 * Reads of an agent that does not exist answer an empty inbox, as AgentInbox does.
 */
import type { FastifyRequest } from 'fastify';
import { errors } from '../../core/index.js';
import { inboxIdOf, type AckForm } from '../../inbox/entries/index.js';
import type { Services } from '../../services.js';
import { openStream } from '../sse-stream.js';
import { defineRoute, type AnyRoute } from '../route.js';
import {
  AckBody,
  AckResult,
  CompactInboxBody,
  CompactInboxResult,
  DirectItemBody,
  DirectItemResult,
  InboxAgentParams,
  InboxDetails,
  InboxItemsQuery,
  InboxPage,
  WatchHeaders,
  WatchQuery,
} from '../schemas/inbox/index.js';

/** Entries per page: AgentInbox's path lists (nearly) everything, svc's own pages. */
const PAGE = { entries: 1000, items: 100 };
const SSE_RESPONSE = {
  200: { description: 'text/event-stream: event = items (data {event, agentId, entries}, id = last entry id) or heartbeat (data {event, agentId, timestamp})', contentType: 'text/event-stream' },
};

export function inboxEntryRoutes(s: Services): AnyRoute[] {
  const { agents, entries, watch, targets, agentViews } = s.inbox;
  const entryList = (url: 'entries' | 'items', summary: string) =>
    defineRoute({
      method: 'GET',
      url: `/agents/:agentId/inbox/${url}`,
      auth: 'control',
      tags: ['inbox'],
      summary,
      description:
        'Entries in entry order: unacknowledged and unsuperseded ones, or every one with includeAcked. An unknown agent has none. ' +
        `At most limit (default ${PAGE[url]}); nextCursor is the last entry id of a full page (pass it as after), null at the end.`,
      params: InboxAgentParams,
      query: InboxItemsQuery,
      responses: { 200: { description: 'Page', schema: InboxPage } },
      handler: ({ params, query }) => entries.page(params.agentId, { after: query.after, limit: query.limit ?? PAGE[url], includeAcked: query.includeAcked ?? false }),
    });
  return [
    defineRoute({
      method: 'GET',
      url: '/agents/:agentId/inbox',
      auth: 'control',
      tags: ['inbox'],
      summary: "The agent's inbox (AgentInbox's `inbox show`): agent, inbox, subscriptions, targets, item counts",
      description: '404 agent_not_found for an agent that does not exist.',
      params: InboxAgentParams,
      responses: { 200: { description: 'The inbox', schema: InboxDetails } },
      handler: ({ params }) => {
        const { agent, inbox, subscriptions, activationTargets, activationDispatchStates, itemCounts } = agentViews.details(params.agentId);
        return { agent, inbox, subscriptions, activationTargets, activationDispatchStates, itemCounts, ...entries.summary(params.agentId) };
      },
    }),
    entryList('entries', "The agent's entries (AgentInbox's `inbox read`)"),
    entryList('items', 'The same list under svc\'s path, 100 a page'),
    defineRoute({
      method: 'POST',
      url: '/agents/:agentId/inbox/items',
      bodyExample: { message: 'Look at PR 88 before the release', sender: 'me' },
      auth: 'control',
      tags: ['inbox'],
      summary: 'Add a direct text item to the inbox (AgentInbox\'s `inbox send`)',
      description: 'activated: the agent has an active target and its delivery is not paused (the item will be notified). 404 agent_not_found for an unknown agent.',
      params: InboxAgentParams,
      body: DirectItemBody,
      responses: { 201: { description: 'Created', schema: DirectItemResult } },
      handler: ({ params, body, reply }) => {
        const entry = entries.create(params.agentId, { kind: 'direct', message: body.message, sender: body.sender ?? null, metadata: body.metadata });
        const activated = !agents.get(params.agentId).deliveryPaused && targets.list(params.agentId).some((t) => t.status === 'active');
        reply.code(201);
        return { itemId: entry.itemId, inboxId: inboxIdOf(params.agentId), activated, entryId: entry.entryId, agentId: params.agentId };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/agents/:agentId/inbox/watch',
      operationId: 'watchAgentInbox',
      auth: 'control',
      tags: ['inbox'],
      summary: 'SSE of inbox entries in AgentInbox frames: the backlog after the cursor (from the start without one), then live',
      description:
        'Frames: `event: items`, data `{event:"items", agentId, entries:[InboxEntry]}`, `id:` = the last entry id of the frame. The first frame ' +
        'is the backlog (sent even when empty, then without an id); live frames follow as entries are created. The cursor is the later of ' +
        'after (after_entry_id) and Last-Event-ID, so a reconnect that repeats the first URL still resumes. Every heartbeatMs (heartbeat_ms, ' +
        'default 15000) an `event: heartbeat` frame {event:"heartbeat", agentId, timestamp}. An unknown agent has an empty backlog. ' +
        'A slow reader is not disconnected: while its socket pushes back it takes no live frames, and once it drains it reads what it missed ' +
        '(in order, each entry once; what was acknowledged meanwhile is skipped unless includeAcked). A client that stops reading altogether ' +
        'is closed once its heartbeats pass events.sse_max_buffer_bytes; reconnect with Last-Event-ID.',
      params: InboxAgentParams,
      query: WatchQuery,
      sse: true,
      responses: SSE_RESPONSE,
      handler: async ({ params, query, request, reply }) => {
        const after = [query.after, lastEntryId(request)].filter((c) => c !== undefined).sort().at(-1);
        await watch.stream(openStream(s, reply), params.agentId, { after, includeAcked: query.includeAcked, heartbeatMs: query.heartbeatMs });
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/agents/:agentId/inbox/ack',
      bodyExample: { throughEntryId: 'ent_01JB8Y6QW2E3R4T5Y6V7K8M9PA' },
      auth: 'control',
      tags: ['inbox'],
      summary: 'Acknowledge entries: exactly one of {throughEntryId}, {entryIds}, {all: true}',
      description:
        'An id is an entry id or an item id (its entry; an item of a thread: the latest snapshot listing it). A snapshot acknowledges the items it lists. ' +
        'acked counts the entries this call acknowledged; durable before the answer. Unknown ids: 404 entry_not_found, nothing acknowledged; {all: true} of an unknown agent acknowledges nothing.',
      params: InboxAgentParams,
      body: AckBody,
      responses: { 200: { description: 'Acknowledged', schema: AckResult } },
      handler: async ({ params, body }) => ({ acked: await entries.ack(params.agentId, body as AckForm) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/agents/:agentId/inbox/compact',
      bodyExample: {},
      auth: 'control',
      tags: ['inbox'],
      summary: "Delete the agent's items acknowledged more than retentionMs ago (AgentInbox: 24 h); unacknowledged ones are never removed",
      params: InboxAgentParams,
      body: CompactInboxBody,
      bodyOptional: true,
      responses: { 200: { description: 'Compacted', schema: CompactInboxResult } },
      handler: ({ params, body }) => ({ ...entries.compact(params.agentId, body.retentionMs), agentId: params.agentId }),
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

/**
 * The inbox of an agent: entries, direct items, watch, acks, compaction (spec/inbox.md Inbox;
 * docs/inbox-api.md#inbox).
 */
import type { FastifyRequest } from 'fastify';
import { errors } from '../../core/index.js';
import type { AckForm } from '../../inbox/entries/index.js';
import type { Services } from '../../services.js';
import { openStream } from '../sse-stream.js';
import { defineRoute, type AnyRoute } from '../route.js';
import {
  AckBody,
  AckResult,
  CompactInboxBody,
  CompactInboxResult,
  DirectItemBody,
  InboxAgentParams,
  InboxEntry,
  InboxItemsQuery,
  InboxPage,
  InboxSummary,
  WatchHeaders,
  WatchQuery,
} from '../schemas/inbox/index.js';

const DEFAULT_PAGE = 100;
const SSE_RESPONSE = { 200: { description: 'text/event-stream: event = items, data = {event, agentId, entries}, id = last entry id', contentType: 'text/event-stream' } };

export function inboxEntryRoutes(s: Services): AnyRoute[] {
  const { agents, entries, watch } = s.inbox;
  const entryList = (url: string, summary: string) =>
    defineRoute({
      method: 'GET',
      url,
      auth: 'control',
      tags: ['inbox'],
      summary,
      description: 'nextCursor is the last entry id of a full page (pass it as after), null at the end.',
      params: InboxAgentParams,
      query: InboxItemsQuery,
      responses: { 200: { description: 'Page', schema: InboxPage } },
      handler: ({ params, query }) =>
        entries.page(params.agentId, { after: query.after, limit: query.limit ?? DEFAULT_PAGE, includeAcked: query.includeAcked ?? false }),
    });
  return [
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
    entryList('/agents/:agentId/inbox/items', 'A page of entries in entry order (unacknowledged only unless includeAcked)'),
    entryList('/agents/:agentId/inbox/entries', "The same list under AgentInbox's path (its clients read entries here)"),
    defineRoute({
      method: 'POST',
      url: '/agents/:agentId/inbox/items',
      bodyExample: { message: 'Look at PR 88 before the release', sender: 'me' },
      auth: 'control',
      tags: ['inbox'],
      summary: 'Add a direct text item to the inbox',
      params: InboxAgentParams,
      body: DirectItemBody,
      responses: { 201: { description: 'Created', schema: InboxEntry } },
      handler: ({ params, body, reply }) => {
        reply.code(201);
        return entries.create(params.agentId, { kind: 'direct', message: body.message, sender: body.sender ?? null, metadata: body.metadata });
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
        'after (after_entry_id) and Last-Event-ID, so a reconnect that repeats the first URL still resumes. heartbeatMs (heartbeat_ms) adds ' +
        '`event: heartbeat` frames {event:"heartbeat", agentId, timestamp}. A client that falls too far behind is disconnected; reconnect with Last-Event-ID.',
      params: InboxAgentParams,
      query: WatchQuery,
      sse: true,
      responses: SSE_RESPONSE,
      handler: async ({ params, query, request, reply }) => {
        agents.get(params.agentId);
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
      description: 'acked counts entries newly acknowledged; durable before the answer. Unknown entry ids: 404 entry_not_found, nothing acknowledged.',
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

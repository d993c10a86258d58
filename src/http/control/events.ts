/** Event pages and SSE streams (spec "Events"; docs/control-plane-api.md#event-log). */
import type { FastifyRequest } from 'fastify';
import { errors } from '../../core/index.js';
import type { Services } from '../../services.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { openStream } from '../sse-stream.js';
import { AgentIdParams, EventsPage, EventsQuery, StreamQuery } from '../schemas/index.js';

const tags = ['events'];
const DEFAULT_PAGE = 128;
const SSE_RESPONSE = { 200: { description: 'text/event-stream of StreamEventEnvelope frames', contentType: 'text/event-stream' } };

export function eventRoutes(s: Services): AnyRoute[] {
  const pageMax = s.config.values.events.page_limit_max;
  return [
    defineRoute({
      method: 'GET',
      url: '/api/agents/:id/events',
      auth: 'read',
      tags,
      summary: 'A page of the durable event log',
      description: 'Cursors are exclusive; with both, after_seq < event_seq < before_seq. An unknown cursor yields an empty page.',
      params: AgentIdParams,
      query: EventsQuery,
      responses: { 200: { description: 'Page', schema: EventsPage } },
      handler: ({ params, query }) => {
        s.agents.get(params.id);
        const limit = Math.max(1, Math.min(query.limit ?? DEFAULT_PAGE, pageMax));
        return s.events.page(params.id, { ...query, limit });
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/agents/:id/events/stream',
      errors: { 404: ['cursor_not_found'], 429: ['overloaded'] },
      auth: 'read',
      tags,
      summary: 'SSE of the raw event log: backlog after the cursor, then live',
      description:
        'Frames: id = event_seq, event = type, data = envelope. Last-Event-ID is honoured when after_seq is absent; with both, the later of the two is the cursor, so a browser EventSource reconnecting to its first URL (?after_seq=N) resumes after the last event it received. The replay window is the retained log (events.retain_days, events.retain_max_events). A client that falls too far behind is disconnected, and a stream whose unsent backlog retention pruned is closed; page from the last id, then reconnect.',
      params: AgentIdParams,
      query: StreamQuery,
      sse: true,
      responses: SSE_RESPONSE,
      handler: async ({ params, query, request, reply }) => {
        s.agents.get(params.id);
        // With both, the later cursor: a reconnecting EventSource repeats its first URL and adds
        // Last-Event-ID, and resumes after what it already has (as the inbox watch does).
        const header = lastEventId(request);
        const after = query.after_seq === undefined || header === undefined ? (query.after_seq ?? header) : Math.max(query.after_seq, header);
        if (after !== undefined && after !== 0) {
          const head = s.events.head(params.id);
          const oldest = s.events.oldestRetained(params.id);
          if (after < oldest - 1 || after > head) throw errors.cursorNotFound(params.id, after, head, oldest);
        }
        const conn = openStream(s, reply);
        await s.sse.streamAgent(conn, params.id, after, query.limit);
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/events/stream',
      errors: { 429: ['overloaded'] },
      auth: 'read',
      tags,
      summary: 'Live-only SSE across public agents; no cursor or replay; closed when the receiver lags',
      sse: true,
      responses: SSE_RESPONSE,
      handler: ({ reply }) => {
        s.sse.streamAll(openStream(s, reply));
      },
    }),
  ];
}

/** Last-Event-ID as a cursor; anything but a non-negative integer is a bad request. */
function lastEventId(request: FastifyRequest): number | undefined {
  const header = request.headers['last-event-id'];
  if (header === undefined || header === '') return undefined;
  const value = Array.isArray(header) ? header[0]! : header;
  if (!/^\d+$/.test(value)) throw errors.invalidRequest([{ path: 'headers.last-event-id', message: 'must be a non-negative integer' }]);
  return Number(value);
}

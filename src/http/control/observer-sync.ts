/**
 * The real system's observer-sync reads (not in our spec; the Holon web GUI calls them): batch
 * reads of messages, transcript entries and briefs by id, and the projection and roster snapshots.
 * Auth `read` like every other agent read: they change nothing (the batch reads are POSTs only
 * because their id lists travel in a JSON body, which a page on another origin cannot send
 * without a CORS preflight).
 */
import type { z, ZodType } from 'zod';
import { loadRuntimeIdentity, ObserverReads, type RuntimeIdentity } from '../../runtime/views/index.js';
import type { Services } from '../../services.js';
import { defineRoute, type AnyRoute } from '../route.js';
import {
  AgentIdParams,
  BriefsBatchBody,
  BriefsBatchResponse,
  MessagesBatchBody,
  MessagesBatchResponse,
  ProjectionSnapshot,
  RosterSnapshot,
  TranscriptBatchBody,
  TranscriptBatchResponse,
} from '../schemas/index.js';

const tags = ['observer-sync'];

const NOT_ADVERTISED =
  'The handshake does not list the agents.roster-snapshot.v1 / agents.projection-snapshot.v1 capabilities, so the Holon web GUI keeps its event-page path (docs/holon-gui.md).';

/** POST /api/agents/:id/<resource>:batchGet (`::` is Fastify's escaped colon). */
function batchGet<B extends ZodType>(
  resource: string,
  summary: string,
  body: B,
  bodyExample: z.input<B>,
  response: ZodType,
  read: (agentId: string, body: z.output<B>) => unknown,
): AnyRoute {
  return defineRoute({
    method: 'POST',
    url: `/api/agents/:id/${resource}::batchGet`,
    bodyExample,
    auth: 'read',
    tags,
    summary: `${summary} (POST /api/agents/{id}/${resource}:batchGet)`,
    params: AgentIdParams,
    body,
    responses: { 200: { description: 'Found and missing', schema: response } },
    handler: ({ params, body: b }) => read(params.id, b as z.output<B>),
  });
}

export function observerSyncRoutes(s: Services): AnyRoute[] {
  let identity: RuntimeIdentity | null = null;
  const reads = new ObserverReads({ ...s, identity: () => (identity ??= loadRuntimeIdentity(s.config.home)) });
  return [
    batchGet(
      'messages',
      "The agent's messages by id",
      MessagesBatchBody,
      { message_ids: ['msg_01JB8YA2K4M6P8R0T2V4X6Z8N1', 'msg_01JB8YA3B5D7F9H1K3M5P7R9T2'] },
      MessagesBatchResponse,
      (id, body) => reads.messages(id, body.message_ids),
    ),
    batchGet(
      'transcript',
      "The agent's transcript entries by id (a row of the visible conversation history, id `hst_<seq>`)",
      TranscriptBatchBody,
      { entry_ids: ['hst_41', 'hst_42'] },
      TranscriptBatchResponse,
      (id, body) => reads.transcriptEntries(id, body.entry_ids),
    ),
    batchGet('briefs', "The agent's briefs by id", BriefsBatchBody, { brief_ids: ['brf_01JB8YB4C6E8G0J2M4Q6S8W0Y3'] }, BriefsBatchResponse, (id, body) => reads.briefs(id, body.brief_ids)),
    defineRoute({
      method: 'GET',
      url: '/api/agents/:id/projection-snapshot',
      auth: 'read',
      tags,
      summary: "One agent's canonical projection at its event head",
      description: NOT_ADVERTISED,
      params: AgentIdParams,
      responses: { 200: { description: 'Snapshot', schema: ProjectionSnapshot } },
      handler: ({ params }) => reads.projectionSnapshot(params.id),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/agents/snapshot',
      auth: 'read',
      tags,
      summary: 'Every public agent with its event window and latest brief',
      description: NOT_ADVERTISED,
      responses: { 200: { description: 'Roster', schema: RosterSnapshot } },
      handler: () => reads.rosterSnapshot(),
    }),
  ];
}

/**
 * The real system's observer-sync reads (not in our spec; the Holon web GUI calls them): batch
 * reads of messages, transcript entries and briefs by id, and the projection and roster snapshots.
 * Auth `read` like every other agent read: they change nothing (the batch reads are POSTs only
 * because their id lists travel in a JSON body, which a page on another origin cannot send
 * without a CORS preflight).
 */
import { loadRuntimeIdentity, type RuntimeIdentity } from '../../runtime/runtime-identity.js';
import { ObserverReads } from '../../runtime/observer-reads.js';
import type { Services } from '../../services.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { AgentIdParams } from '../schemas/agents.js';
import {
  BriefsBatchBody,
  BriefsBatchResponse,
  MessagesBatchBody,
  MessagesBatchResponse,
  ProjectionSnapshot,
  RosterSnapshot,
  TranscriptBatchBody,
  TranscriptBatchResponse,
} from '../schemas/observer-sync.js';

const tags = ['observer-sync'];

const NOT_ADVERTISED =
  'The handshake does not list the agents.roster-snapshot.v1 / agents.projection-snapshot.v1 capabilities, so the Holon web GUI keeps its event-page path (README "Holon GUI compatibility").';

export function observerSyncRoutes(s: Services): AnyRoute[] {
  let identity: RuntimeIdentity | null = null;
  const reads = new ObserverReads({ ...s, identity: () => (identity ??= loadRuntimeIdentity(s.config.home)) });
  return [
    defineRoute({
      method: 'POST',
      url: '/api/agents/:id/messages::batchGet',
      auth: 'read',
      tags,
      summary: "The agent's messages by id (POST /api/agents/{id}/messages:batchGet)",
      params: AgentIdParams,
      body: MessagesBatchBody,
      responses: { 200: { description: 'Found and missing', schema: MessagesBatchResponse } },
      handler: ({ params, body }) => reads.messages(params.id, body.message_ids),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/agents/:id/transcript::batchGet',
      auth: 'read',
      tags,
      summary: "The agent's transcript entries by id (POST /api/agents/{id}/transcript:batchGet)",
      description: 'A transcript entry is a row of the visible conversation history; its id is `hst_<seq>`.',
      params: AgentIdParams,
      body: TranscriptBatchBody,
      responses: { 200: { description: 'Found and missing', schema: TranscriptBatchResponse } },
      handler: ({ params, body }) => reads.transcriptEntries(params.id, body.entry_ids),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/agents/:id/briefs::batchGet',
      auth: 'read',
      tags,
      summary: "The agent's briefs by id (POST /api/agents/{id}/briefs:batchGet)",
      params: AgentIdParams,
      body: BriefsBatchBody,
      responses: { 200: { description: 'Found and missing', schema: BriefsBatchResponse } },
      handler: ({ params, body }) => reads.briefs(params.id, body.brief_ids),
    }),
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

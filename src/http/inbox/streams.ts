/**
 * Streams (spec/inbox.md Streams; docs/inbox-api.md#hosts-and-sources): AgentInbox's `/streams`
 * routes over svc's sources (a stream is its source: the same record, id and lifecycle;
 * docs/agentinbox.md#hosts-sources-and-streams), its schema preview, and compaction of a stream's
 * payloads.
 */
import type { Services } from '../../services.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { limitList } from '../schemas/index.js';
import {
  CompactionApplyBody,
  CompactionPreview,
  CompactionPreviewBody,
  CompactionResult,
  SchemaPreview,
  SchemaPreviewBody,
  SourceListQuery,
  StreamList,
  StreamParams,
} from '../schemas/inbox/index.js';
import { createSourceRoute, sourceRoutes } from './sources.js';

export function inboxStreamRoutes(s: Services): AnyRoute[] {
  const { sources, compaction } = s.inbox;
  return [
    defineRoute({
      method: 'GET',
      url: '/streams',
      auth: 'control',
      tags: ['streams'],
      summary: 'Every stream (source), oldest first (optionally of one host)',
      query: SourceListQuery,
      responses: { 200: { description: 'Streams', schema: StreamList } },
      handler: ({ query: { limit, ...filter } }) => ({ streams: limitList(sources.list(filter), limit) }),
    }),
    createSourceRoute(s, 'stream'),
    defineRoute({
      method: 'POST',
      url: '/streams/schema-preview',
      errors: { 400: ['unknown_source_kind', 'invalid_source_config', 'invalid_source_module', 'source_module_not_allowed'] },
      bodyExample: { sourceRef: 'github_repo', config: { owner: 'octo', repo: 'hello' } },
      auth: 'control',
      tags: ['streams'],
      summary: "AgentInbox's resolved schema of a source kind before any source exists",
      description:
        'sourceRef: local_event, remote_source, github_repo, github_repo_ci or remote:<module name> (else 400 unknown_source_kind). The config is checked as creating such a source would check it (github: owner and repo; remote: the module is loaded in a worker, its moduleConfig checked and validate run, with the 400s of POST /sources); nothing is stored.',
      body: SchemaPreviewBody,
      responses: { 200: { description: 'Schema', schema: SchemaPreview } },
      handler: ({ body }) => sources.previewSchema(body),
    }),
    ...sourceRoutes(s, 'stream'),
    defineRoute({
      method: 'POST',
      url: '/streams/:streamId/compaction-preview',
      operationId: 'previewStreamCompaction',
      errors: { 501: ['compaction_unsupported'] },
      bodyExample: { retentionMs: 604800000 },
      auth: 'control',
      tags: ['streams'],
      summary: 'Bounded read-only preview of a compaction',
      description:
        'Scans at most scanLimit events from retainedFromOffset. Eligible: appended at least retentionMs ago, in offset order up to the first event that is not. Never initialises a missing stream or calls a module: 404 stream_not_found for an unknown id or a stream without events; 501 compaction_unsupported for a backend without compaction.',
      params: StreamParams,
      body: CompactionPreviewBody,
      responses: { 200: { description: 'Preview', schema: CompactionPreview } },
      handler: ({ params, body }) => compaction.preview(params.streamId, body),
    }),
    defineRoute({
      method: 'POST',
      url: '/streams/:streamId/compaction-apply',
      operationId: 'applyStreamCompaction',
      errors: { 501: ['compaction_unsupported'] },
      bodyExample: { apply: true, retentionMs: 604800000 },
      auth: 'control',
      tags: ['streams'],
      summary: 'Prune old payloads to identity stubs (irreversible without a backup)',
      description:
        'Short batches, each a transaction, with eligibility (age, consumers) rechecked per batch. batchSize, maxEvents and maxPayloadBytes are defaults and hard upper bounds. A stream without consumers is skipped (stopReason no_consumers); an event larger than maxPayloadBytes stops the run (oversized); a retry continues where the last one stopped. Offsets and identity stubs remain; nothing is vacuumed. 400 for unknown options or a missing/false apply.',
      params: StreamParams,
      body: CompactionApplyBody,
      responses: { 200: { description: 'Result', schema: CompactionResult } },
      handler: ({ params, body }) => compaction.apply(params.streamId, body),
    }),
  ];
}

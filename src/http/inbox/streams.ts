/**
 * Hosts, sources and streams (spec/inbox.md Hosts, Sources, Streams;
 * docs/inbox-api.md#hosts-and-sources).
 */
import type { Services } from '../../services.js';
import { DISK_FULL } from '../error-responses.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { limitList } from '../schemas/index.js';
import {
  AppendBody,
  AppendResponse,
  CompactionApplyBody,
  CompactionPreview,
  CompactionPreviewBody,
  CompactionResult,
  CreateHostBody,
  CreateSourceBody,
  Host,
  HostList,
  HostListQuery,
  HostParams,
  HostSchema,
  PatchSourceBody,
  PollResponse,
  Source,
  SourceDeleted,
  SourceDeleteQuery,
  SourceDetail,
  SourceList,
  SourceListQuery,
  SourceParams,
  SourceSchema,
  StreamDetail,
  StreamParams,
} from '../schemas/inbox/index.js';

/** Appends of up to 10,000 events need more than the default body limit. */
const APPEND_BODY_LIMIT = 16 * 1024 * 1024;

export function inboxStreamRoutes(s: Services): AnyRoute[] {
  const { hosts, sources, compaction } = s.inbox;
  return [
    // --- hosts -------------------------------------------------------------------------------
    defineRoute({
      method: 'GET',
      url: '/hosts',
      auth: 'control',
      tags: ['hosts'],
      summary: 'Every host, oldest first',
      query: HostListQuery,
      responses: { 200: { description: 'Hosts', schema: HostList } },
      handler: ({ query }) => ({ hosts: limitList(hosts.list(), query.limit) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/hosts',
      bodyExample: { hostType: 'local_event', hostKey: 'ci' },
      auth: 'control',
      tags: ['hosts'],
      summary: 'Register a host (idempotent by hostType + hostKey)',
      description:
        'A host record is {hostId, hostType, hostKey, config, createdAt}. hostType (local_event | remote_source | github) is the type of every source on the host. config is checked against the type\'s JSON Schema (GET /hosts/{hostId}/schema): 400 invalid_request naming the field. A credentialRef names a credential profile (GET /api/control/runtime/credentials on the control plane) whose secret reaches the modules of the host\'s sources, never a response. 201 for a new host; 200 with the existing record (config unchanged) when hostType + hostKey already exist.',
      body: CreateHostBody,
      responses: { 200: { description: 'Existing host', schema: Host }, 201: { description: 'Created', schema: Host } },
      handler: ({ body, reply }) => {
        const { host, created } = hosts.create(body);
        reply.code(created ? 201 : 200);
        return host;
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/hosts/:hostId',
      auth: 'control',
      tags: ['hosts'],
      summary: 'One host (404 host_not_found)',
      params: HostParams,
      responses: { 200: { description: 'Host', schema: Host } },
      handler: ({ params }) => hosts.get(params.hostId),
    }),
    defineRoute({
      method: 'GET',
      url: '/hosts/:hostId/schema',
      auth: 'control',
      tags: ['hosts'],
      summary: 'JSON Schemas of the host config and of source configs for its type',
      description:
        'For remote_source hosts sourceConfigSchema describes {modulePath, moduleConfig, pollIntervalMs, pollTimeoutMs} (each module\'s own configSchema: GET /sources/{sourceId}/schema); github hosts: {apiBaseUrl, credentialRef} and {owner, repo, resources, since, perPage, maxPages, pollIntervalMs, pollTimeoutMs, webhookSecretRef}; local_event configs are free-form objects.',
      params: HostParams,
      responses: { 200: { description: 'Schemas', schema: HostSchema } },
      handler: ({ params }) => hosts.schema(params.hostId),
    }),

    // --- sources -----------------------------------------------------------------------------
    defineRoute({
      method: 'GET',
      url: '/sources',
      auth: 'control',
      tags: ['sources'],
      summary: 'Every source, oldest first (optionally of one host)',
      query: SourceListQuery,
      responses: { 200: { description: 'Sources', schema: SourceList } },
      handler: ({ query: { limit, ...filter } }) => ({ sources: limitList(sources.list(filter), limit) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/sources',
      errors: { 400: ['invalid_source_config', 'invalid_source_module', 'source_module_not_allowed'] },
      bodyExample: { hostId: 'hst_01JB8Y3S6K6C2VJ1W9T4ZC0M5X', streamKind: 'builds', streamKey: 'main' },
      auth: 'control',
      tags: ['sources'],
      summary: 'Register a source/stream on a host (idempotent by hostId + streamKind + streamKey)',
      description:
        "A source record is {sourceId, hostId, sourceType, streamKind, streamKey, config, configRef, state: active|paused|error, error, idleState, cursor (remote_source), createdAt, updatedAt}; sourceType is the host's hostType and sourceId is also the public stream id. 201 for a new source, 200 with the existing record (unchanged) for the same identity. remote_source: config.modulePath must be a regular file inside <home>/source-modules/ (relative paths resolve there) or a directory of inbox.module_dirs, after resolving symlinks, owned by the daemon's user and not writable by others, else 400 source_module_not_allowed (checked again before every load); it is loaded in a worker thread, moduleConfig checked against the module's configSchema (400 invalid_request naming the field) and its validate(moduleConfig) run: 400 invalid_source_config / invalid_source_module (a load error names the error class and line, never the file's text). github: config checked against the github schema (400 invalid_request); owner and repo default to a streamKey owner/repo. A credential named by the host's credentialRef or a configRef `credential:<profile>` that is not stored does not refuse the source: it starts in state error, naming the profile. Unknown host: 404 host_not_found.",
      body: CreateSourceBody,
      responses: { 200: { description: 'Existing source', schema: Source }, 201: { description: 'Created', schema: Source } },
      handler: async ({ body, reply }) => {
        const { source, created } = await sources.create(body);
        reply.code(created ? 201 : 200);
        return source;
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/sources/:sourceId',
      auth: 'control',
      tags: ['sources'],
      summary: 'One source with its streamStats (404 source_not_found)',
      params: SourceParams,
      responses: { 200: { description: 'Source', schema: SourceDetail } },
      handler: ({ params }) => sources.detail(params.sourceId),
    }),
    defineRoute({
      method: 'GET',
      url: '/sources/:sourceId/schema',
      auth: 'control',
      tags: ['sources'],
      summary: "JSON Schemas of the source config for its type (with a remote module's own configSchema) and of an appended event",
      params: SourceParams,
      responses: { 200: { description: 'Schemas', schema: SourceSchema } },
      handler: ({ params }) => sources.schema(params.sourceId),
    }),
    defineRoute({
      method: 'PATCH',
      url: '/sources/:sourceId',
      bodyExample: { configRef: 'credential:ci-token' },
      auth: 'control',
      tags: ['sources'],
      summary: 'Replace config and/or configRef',
      description:
        'An active or error source is re-ensured (a remote module is checked, loaded and validated again, as at creation; 400 source_module_not_allowed / invalid_source_config / invalid_source_module change nothing) and becomes active; a paused source stays paused until resumed.',
      params: SourceParams,
      body: PatchSourceBody,
      responses: { 200: { description: 'Updated source', schema: Source } },
      handler: ({ params, body }) => sources.update(params.sourceId, body),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/sources/:sourceId',
      errors: { 409: ['source_has_subscriptions'] },
      auth: 'control',
      tags: ['sources'],
      summary: 'Delete a source and its stream (with withSubscriptions: also its subscriptions)',
      description: 'A source that still has subscriptions is kept, 409 source_has_subscriptions, unless withSubscriptions=true (AgentInbox: with_subscriptions), which removes them with it.',
      params: SourceParams,
      query: SourceDeleteQuery,
      responses: { 200: { description: 'Deleted', schema: SourceDeleted } },
      handler: ({ params, query }) => sources.remove(params.sourceId, query),
    }),
    defineRoute({
      method: 'POST',
      url: '/sources/:sourceId/pause',
      errors: { 409: ['source_not_managed'] },
      auth: 'control',
      tags: ['sources'],
      summary: 'Pause a managed remote source (stops polling; binding and stream kept)',
      description: 'Pause, resume and poll apply only to managed sources (remote_source, github): others answer 409 source_not_managed. Pausing a paused source changes nothing.',
      params: SourceParams,
      responses: { 200: { description: 'Source', schema: Source } },
      handler: ({ params }) => sources.pause(params.sourceId),
    }),
    defineRoute({
      method: 'POST',
      url: '/sources/:sourceId/resume',
      errors: { 409: ['source_not_managed'] },
      auth: 'control',
      tags: ['sources'],
      summary: 'Resume a managed remote source (normal ensure path: active, error cleared, polling scheduled)',
      params: SourceParams,
      responses: { 200: { description: 'Source', schema: Source } },
      handler: ({ params }) => sources.resume(params.sourceId),
    }),
    defineRoute({
      method: 'POST',
      url: '/sources/:sourceId/poll',
      errors: { 409: ['source_not_managed'], 502: ['source_poll_failed'], 503: ['shutting_down'] },
      auth: 'control',
      tags: ['sources'],
      summary: 'Run one poll of a managed remote source now',
      description:
        'Appends what the module returns exactly like a manual append (idempotent by id) and persists its cursor. A paused source stays paused. A failing module (throws, times out, bad result) marks the source error and answers 502 source_poll_failed.',
      params: SourceParams,
      responses: { 200: { description: 'Poll result', schema: PollResponse } },
      handler: ({ params }) => sources.poll(params.sourceId),
    }),
    defineRoute({
      method: 'POST',
      url: '/sources/:sourceId/events',
      operationId: 'appendSourceEvents',
      errors: { 409: ['manual_append_unsupported'], 503: ['stream_backend_unavailable'], ...DISK_FULL },
      bodyExample: { type: 'build.failed', subject: 'main#1432', data: { job: 'unit', url: 'https://ci.example.org/1432' } },
      auth: 'control',
      tags: ['sources'],
      summary: 'Append one event or {events: [...]} to a local_event source',
      description:
        'Offsets are per stream, start at 1 and are contiguous. An event whose id is already stored on the stream is counted in deduped and stored once. Answered after the events are durable. Other source types: 409 manual_append_unsupported.',
      params: SourceParams,
      body: AppendBody,
      bodyLimit: APPEND_BODY_LIMIT,
      responses: { 200: { description: 'Appended', schema: AppendResponse } },
      handler: ({ params, body }) => sources.appendEvents(params.sourceId, 'events' in body ? body.events : [body]),
    }),

    // --- streams -----------------------------------------------------------------------------
    defineRoute({
      method: 'GET',
      url: '/streams/:streamId',
      auth: 'control',
      tags: ['streams'],
      summary: 'A stream (by its public id, the source id) with its streamStats',
      description:
        'streamStats is null until the first event is appended. eventCount counts identity rows including pruned events; retainedFromOffset is the first offset whose payload is kept. Pruned events read back as identity stubs (offset, id, type, subject, time, appendedAt kept; data null, metadata {}, pruned true). 404 stream_not_found.',
      params: StreamParams,
      responses: { 200: { description: 'Stream', schema: StreamDetail } },
      handler: ({ params }) => sources.streamDetail(params.streamId),
    }),
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

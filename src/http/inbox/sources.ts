/**
 * Hosts and sources (spec/inbox.md Hosts, Sources; docs/inbox-api.md#hosts-and-sources), answered in
 * AgentInbox's shapes with svc's fields beside (docs/agentinbox.md#hosts-sources-and-streams). A
 * stream is its source: `sourceRoutes('stream')` serves the same routes under `/streams/{streamId}`
 * (streams.ts), answering 404 stream_not_found there.
 */
import { AppError, errors } from '../../core/index.js';
import type { Services } from '../../services.js';
import { DISK_FULL } from '../error-responses.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { limitList } from '../schemas/index.js';
import {
  AppendBody,
  AppendResponse,
  CreateHostBody,
  CreateSourceBody,
  Host,
  HostDetail,
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
  SourcePaused,
  SourceResumed,
  SourceSchema,
  SourceUpdated,
  StreamParams,
} from '../schemas/inbox/index.js';

/** Appends of up to 10,000 events need more than the default body limit. */
const APPEND_BODY_LIMIT = 16 * 1024 * 1024;

const CREATE_DESCRIPTION =
  "The record is AgentInbox's {sourceId, streamId (= sourceId), hostId, streamKind, streamKey, sourceType (its kind: local_event, remote_source, github_repo, or github_repo_ci for a github host's ci_runs stream), sourceKey (= streamKey), configRef, config, status, checkpoint, createdAt, updatedAt} with svc's hostType, state (= status), error, idleState and cursor beside. 201 for a new source, 200 with the existing record (unchanged) for the same hostId + streamKind + streamKey. configRef defaults to the host's. remote_source: config.modulePath must be a regular file inside <home>/source-modules/ (relative paths resolve there) or a directory of inbox.module_dirs, after resolving symlinks, owned by the daemon's user and not writable by others, else 400 source_module_not_allowed (checked again before every load); it is loaded in a worker thread, moduleConfig checked against the module's configSchema (400 invalid_request naming the field) and its validate(moduleConfig) run: 400 invalid_source_config / invalid_source_module (a load error names the error class and line, never the file's text). github: config checked against the github schema (400 invalid_request); owner and repo default to a streamKey owner/repo. A credential named by the host's credentialRef or a configRef `credential:<profile>` that is not stored does not refuse the source: it starts in state error, naming the profile. Unknown host: 404 host_not_found.";

export function inboxSourceRoutes(s: Services): AnyRoute[] {
  const { hosts, sources } = s.inbox;
  return [
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
        "A host record is AgentInbox's {hostId, hostType, hostKey, configRef, config, status (always active), createdAt, updatedAt}. hostType (local_event | remote_source | github) is the type of every source on the host. config is checked against the type's JSON Schema (GET /hosts/{hostId}/schema): 400 invalid_request naming the field. A credentialRef names a credential profile (GET /api/control/runtime/credentials on the control plane) whose secret reaches the modules of the host's sources, never a response; configRef is the default configRef of the sources created on the host. 201 for a new host; 200 with the existing record (config unchanged) when hostType + hostKey already exist.",
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
      summary: "AgentInbox's host detail: {host, schema, streams} (404 host_not_found)",
      params: HostParams,
      responses: { 200: { description: 'Host with its schema and sources', schema: HostDetail } },
      handler: ({ params }) => sources.hostDetail(params.hostId),
    }),
    defineRoute({
      method: 'GET',
      url: '/hosts/:hostId/schema',
      auth: 'control',
      tags: ['hosts'],
      summary: "AgentInbox's host schema {hostType, configFields, streamKinds}, with the JSON Schemas of the host config and of its sources' configs",
      description:
        'For remote_source hosts sourceConfigSchema describes {modulePath, moduleConfig, pollIntervalMs, pollTimeoutMs} (each module\'s own configSchema: GET /sources/{sourceId}/schema); github hosts: {apiBaseUrl, credentialRef} and {owner, repo, resources, since, perPage, maxPages, pollIntervalMs, pollTimeoutMs, webhookSecretRef}; local_event configs are free-form objects.',
      params: HostParams,
      responses: { 200: { description: 'Schemas', schema: HostSchema } },
      handler: ({ params }) => hosts.schema(params.hostId),
    }),
    defineRoute({
      method: 'GET',
      url: '/sources',
      auth: 'control',
      tags: ['sources'],
      summary: 'Every source with its runtime, oldest first (optionally of one host)',
      query: SourceListQuery,
      responses: { 200: { description: 'Sources', schema: SourceList } },
      handler: ({ query: { limit, ...filter } }) => ({ sources: limitList(sources.listViews(filter), limit) }),
    }),
    createSourceRoute(s, 'source'),
    ...sourceRoutes(s, 'source'),
  ];
}

/** POST /sources, and the same under AgentInbox's name POST /streams. */
export function createSourceRoute(s: Services, as: 'source' | 'stream'): AnyRoute {
  const { sources } = s.inbox;
  return defineRoute({
    method: 'POST',
    url: `/${as}s`,
    errors: { 400: ['invalid_source_config', 'invalid_source_module', 'source_module_not_allowed'] },
    bodyExample: { hostId: 'hst_01JB8Y3S6K6C2VJ1W9T4ZC0M5X', streamKind: as === 'source' ? 'builds' : 'ci_runs', streamKey: as === 'source' ? 'main' : 'octo/hello' },
    auth: 'control',
    tags: [`${as}s`],
    summary: as === 'source' ? 'Register a source/stream on a host (idempotent by hostId + streamKind + streamKey)' : 'Register a stream on a host: POST /sources under its AgentInbox name',
    description: CREATE_DESCRIPTION,
    body: CreateSourceBody,
    responses: { 200: { description: 'Existing one', schema: Source }, 201: { description: 'Created', schema: Source } },
    handler: async ({ body, reply }) => {
      const { source, created } = await sources.create(body);
      reply.code(created ? 201 : 200);
      return source;
    },
  });
}

/**
 * The routes of one source, under `/sources/{sourceId}` or `/streams/{streamId}`: the same service
 * calls and answers; under /streams an unknown id is 404 stream_not_found.
 */
export function sourceRoutes(s: Services, as: 'source' | 'stream'): AnyRoute[] {
  const { sources } = s.inbox;
  const base = as === 'source' ? '/sources/:sourceId' : '/streams/:streamId';
  const params = as === 'source' ? SourceParams : StreamParams;
  const tags = [`${as}s`];
  const what = as === 'source' ? 'source' : 'stream (its source)';
  const idOf = (p: { sourceId?: string; streamId?: string }) => (p.sourceId ?? p.streamId)!;
  /** Under /streams, a missing source is a missing stream. */
  const call = async <T>(id: string, fn: () => T | Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      if (as === 'stream' && err instanceof AppError && err.code === 'source_not_found') throw errors.streamNotFound(id, { streamId: id });
      throw err;
    }
  };
  return [
    defineRoute({
      method: 'GET',
      url: base,
      auth: 'control',
      tags,
      summary: `AgentInbox's detail of a ${what}: {source, runtime, host, resolvedIdentity, schema, stream, subscriptions, idleState}`,
      description:
        "stream is {streamId, sourceId, streamKey, backend, createdAt} with svc's compaction and streamStats (null until the first event; eventCount counts identity rows including pruned events, retainedFromOffset is the first offset whose payload is kept); runtime is null for local_event sources; resolutionError says why a remote module cannot be loaded now. A remote module is loaded in a worker for its schema.",
      params,
      responses: { 200: { description: 'Detail', schema: SourceDetail } },
      handler: ({ params: p }) => call(idOf(p), () => sources.detail(idOf(p))),
    }),
    defineRoute({
      method: 'GET',
      url: `${base}/schema`,
      auth: 'control',
      tags,
      summary: `AgentInbox's resolved schema of a ${what} (kind, metadata fields, config fields, shortcuts, follow templates) with svc's JSON Schemas of its config and of an appended event`,
      params,
      responses: { 200: { description: 'Schema', schema: SourceSchema } },
      handler: ({ params: p }) => call(idOf(p), () => sources.schema(idOf(p))),
    }),
    defineRoute({
      method: 'PATCH',
      url: base,
      bodyExample: { configRef: 'credential:ci-token' },
      auth: 'control',
      tags,
      summary: 'Replace config and/or configRef: {updated, source}',
      description:
        'An active or error source is re-ensured (a remote module is checked, loaded and validated again, as at creation; 400 source_module_not_allowed / invalid_source_config / invalid_source_module change nothing) and becomes active; a paused source stays paused until resumed.',
      params,
      body: PatchSourceBody,
      responses: { 200: { description: 'Updated', schema: SourceUpdated } },
      handler: ({ params: p, body }) => call(idOf(p), async () => ({ updated: true as const, source: await sources.update(idOf(p), body) })),
    }),
    defineRoute({
      method: 'DELETE',
      url: base,
      errors: { 409: ['source_has_subscriptions'] },
      auth: 'control',
      tags,
      summary: `Delete a ${what} and its events (with withSubscriptions: also its subscriptions)`,
      description: 'A source that still has subscriptions is kept, 409 source_has_subscriptions, unless withSubscriptions=true (AgentInbox: with_subscriptions), which removes them with it.',
      params,
      query: SourceDeleteQuery,
      responses: { 200: { description: 'Deleted', schema: SourceDeleted } },
      handler: ({ params: p, query }) => call(idOf(p), () => sources.remove(idOf(p), query)),
    }),
    defineRoute({
      method: 'POST',
      url: `${base}/pause`,
      errors: { 409: ['source_not_managed'] },
      auth: 'control',
      tags,
      summary: 'Pause a managed source (stops polling; binding and stream kept): {paused, source}',
      description: 'Pause and resume apply only to managed sources (remote_source, github): others answer 409 source_not_managed. Pausing a paused source changes nothing.',
      params,
      responses: { 200: { description: 'Paused', schema: SourcePaused } },
      handler: ({ params: p }) => call(idOf(p), () => ({ paused: true as const, source: sources.pause(idOf(p)) })),
    }),
    defineRoute({
      method: 'POST',
      url: `${base}/resume`,
      errors: { 409: ['source_not_managed'] },
      auth: 'control',
      tags,
      summary: 'Resume a managed source (normal ensure path: active, error cleared, polling scheduled): {resumed, source}',
      params,
      responses: { 200: { description: 'Resumed', schema: SourceResumed } },
      handler: ({ params: p }) => call(idOf(p), () => ({ resumed: true as const, source: sources.resume(idOf(p)) })),
    }),
    defineRoute({
      method: 'POST',
      url: `${base}/poll`,
      errors: { 502: ['source_poll_failed'], 503: ['shutting_down'] },
      auth: 'control',
      tags,
      summary: 'Run one poll of a managed source now (a local_event source: nothing to poll, a note says so)',
      description:
        "AgentInbox's answer {sourceId, sourceType, appended, deduped, eventsRead, note} with svc's state. The module's events are appended exactly like a manual append (idempotent by id) and its cursor persisted. A paused source is polled and stays paused. A failing module (throws, times out, bad result) marks the source error and answers 502 source_poll_failed.",
      params,
      responses: { 200: { description: 'Poll result', schema: PollResponse } },
      handler: ({ params: p }) => call(idOf(p), () => sources.poll(idOf(p))),
    }),
    defineRoute({
      method: 'POST',
      url: `${base}/events`,
      operationId: as === 'source' ? 'appendSourceEvents' : 'appendStreamEvents',
      errors: { 409: ['manual_append_unsupported'], 503: ['stream_backend_unavailable'], ...DISK_FULL },
      bodyExample: { type: 'build.failed', subject: 'main#1432', data: { job: 'unit', url: 'https://ci.example.org/1432' } },
      auth: 'control',
      tags,
      summary: 'Append one event or {events: [...]} to a local_event source',
      description:
        'Offsets are per stream, start at 1 and are contiguous. An event whose id is already stored on the stream is counted in deduped and stored once. Answered after the events are durable. Other source types: 409 manual_append_unsupported.',
      params,
      body: AppendBody,
      bodyLimit: APPEND_BODY_LIMIT,
      responses: { 200: { description: 'Appended', schema: AppendResponse } },
      handler: ({ params: p, body }) => call(idOf(p), () => sources.appendEvents(idOf(p), 'events' in body ? body.events : [body])),
    }),
  ];
}

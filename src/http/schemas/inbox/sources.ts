/**
 * Hosts and sources (streams) in AgentInbox's shapes, with svc's fields beside
 * (docs/inbox-api.md#hosts-and-sources, docs/agentinbox.md#hosts-sources-and-streams).
 */
import { z } from 'zod';
import { HOST_TYPES, SOURCE_KINDS } from '../../../inbox/sources/index.js';
import { ListLimit, OpenObject, QueryBool, withAliases } from '../common.js';

const Name = z.string().min(1).max(512);
const ConfigRef = z
  .string()
  .min(1)
  .max(512)
  .nullable()
  .optional()
  .openapi({
    description:
      "a reference to configuration kept elsewhere, handed to remote modules; `credential:<profile>` names a credential profile whose secret the module gets (instead of the host's credentialRef)",
  });
const State = z.enum(['active', 'paused', 'error']);

// --- hosts -----------------------------------------------------------------------------------

export const HostParams = z.object({ hostId: z.string().min(1).openapi({ example: 'hst_01J0000000000000000000000' }) });

export const CreateHostBody = z
  .strictObject({
    hostType: z.enum(HOST_TYPES).openapi({ description: 'the type of every source on this host' }),
    hostKey: Name,
    configRef: ConfigRef.openapi({ description: 'the default configRef of the sources created on this host (AgentInbox)' }),
    config: OpenObject.optional().openapi({
      description:
        'provider/runtime host configuration, checked against the type\'s JSON Schema (GET /hosts/{hostId}/schema; 400 invalid_request naming the field): local_event free-form; remote_source free-form with credentialRef?: a credential profile; github {apiBaseUrl?, credentialRef?}. Default {}',
    }),
  })
  .openapi('CreateHostRequest');

export const Host = z
  .object({
    hostId: z.string(),
    hostType: z.enum(HOST_TYPES),
    hostKey: z.string(),
    configRef: z.string().nullable(),
    config: OpenObject,
    status: z.literal('active').openapi({ description: "AgentInbox's field; svc's hosts are always active" }),
    createdAt: z.string(),
    updatedAt: z.string().openapi({ description: 'hosts never change after creation: createdAt' }),
  })
  .openapi('Host');

export const HostList = z.object({ hosts: z.array(Host) }).openapi('HostList');

export const HostListQuery = z.strictObject({ limit: ListLimit });

const SchemaField = z
  .object({ name: z.string(), type: z.string(), description: z.string(), required: z.boolean().optional() })
  .openapi('SchemaField', { description: "AgentInbox's description of a field" });

export const HostSchema = z
  .object({
    hostType: z.enum(HOST_TYPES),
    configFields: z.array(SchemaField).openapi({ description: 'the host config, field by field' }),
    streamKinds: z.array(z.string()).openapi({ description: 'the stream kinds this host type names (svc takes any other name too)' }),
    hostId: z.string(),
    hostConfigSchema: OpenObject,
    sourceConfigSchema: OpenObject,
  })
  .openapi('HostSchema', { description: "AgentInbox's host schema, with svc's JSON Schemas (draft 2020-12) of the host config and of the config of its sources" });

// --- sources ---------------------------------------------------------------------------------

export const SourceParams = z.object({ sourceId: z.string().min(1).openapi({ example: 'src_01J0000000000000000000000' }) });
export const StreamParams = z.object({ streamId: z.string().min(1).openapi({ example: 'src_01J0000000000000000000000' }) });

export const SourceListQuery = z.strictObject({ hostId: z.string().min(1).optional().openapi({ description: 'only the sources of this host' }), limit: ListLimit });

export const CreateSourceBody = z
  .strictObject({
    hostId: z.string().min(1),
    streamKind: Name,
    streamKey: Name,
    config: OpenObject.optional().openapi({
      description:
        'provider-specific; remote_source: {modulePath (required), moduleConfig? (checked against the module\'s configSchema), pollIntervalMs? (default 60000, >= 1000), pollTimeoutMs? (default 30000)}; github: {owner?, repo? (default: streamKey owner/repo), resources? (default all four; a ci_runs stream: workflow_runs), since?, perPage?, maxPages?, pollIntervalMs?, pollTimeoutMs?, webhookSecretRef?}; default {}',
    }),
    configRef: ConfigRef.openapi({ description: "default: the host's configRef" }),
  })
  .openapi('CreateSourceRequest');

export const PatchSourceBody = z
  .strictObject({ config: OpenObject.optional(), configRef: ConfigRef })
  .refine((b) => b.config !== undefined || b.configRef !== undefined, { message: 'send config and/or configRef' })
  .openapi('PatchSourceRequest');

const IdleState = z
  .object({
    state: z.enum(['waiting', 'auto_paused']),
    since: z.string(),
    pauseAt: z.string().nullable().openapi({ description: 'when a waiting source will be paused' }),
  })
  .openapi('SourceIdleState');

export const StreamStats = z
  .object({
    eventCount: z.number().int().openapi({ description: 'identity rows, including pruned events' }),
    replayableEventCount: z.number().int(),
    prunedEventCount: z.number().int().optional(),
    prunedThroughOffset: z.number().int().optional(),
    retainedFromOffset: z.number().int().openapi({ description: 'first offset whose payload is kept (highWatermarkOffset + 1 when none is)' }),
    highWatermarkOffset: z.number().int().openapi({ description: 'last assigned offset; 0 for an empty stream' }),
  })
  .openapi('StreamStats', { description: 'Compaction fields may be absent for backends without compaction.' });

const SourceFields = {
  sourceId: z.string(),
  streamId: z.string().openapi({ description: 'the public stream id: the source id' }),
  hostId: z.string(),
  streamKind: z.string(),
  streamKey: z.string(),
  sourceType: z.enum(SOURCE_KINDS).openapi({ description: "AgentInbox's source kind: the host's type, or github_repo / github_repo_ci (a github host's ci_runs stream)" }),
  sourceKey: z.string().openapi({ description: 'the streamKey' }),
  configRef: z.string().nullable(),
  config: OpenObject,
  status: State.openapi({ description: "AgentInbox's name of state" }),
  checkpoint: z.string().nullable().openapi({ description: "managed sources: the module's cursor as JSON text (null before the first poll, and for local_event)" }),
  createdAt: z.string(),
  updatedAt: z.string(),
  hostType: z.enum(HOST_TYPES).openapi({ description: "the host's type" }),
  state: State,
  error: z.string().nullable().openapi({ description: 'why the last module call failed (managed sources)' }),
  idleState: IdleState.nullable().openapi({ description: 'managed sources without subscriptions (since creation or since the last one was removed)' }),
  cursor: z.unknown().optional().openapi({ description: 'managed sources: the cursor the module returned last (null before the first poll)' }),
};

export const Source = z.object(SourceFields).openapi('Source');

const SourceRuntime = z
  .object({
    backend: z.literal('svc'),
    observation: z.literal('live'),
    namespace: z.literal('svc'),
    sourceKey: z.string(),
    status: z.enum(['running', 'stopped', 'error']),
    runId: z.null(),
    streamId: z.string(),
    lastError: z.string().nullable(),
    updatedAt: z.string(),
    startedAt: z.null(),
    stoppedAt: z.string().nullable(),
  })
  .openapi('SourceRuntime', { description: 'who polls a managed source: this daemon (AgentInbox: its uxc runtime); null for local_event' });

export const SourceList = z
  .object({ sources: z.array(z.object({ ...SourceFields, runtime: SourceRuntime.nullable() })) })
  .openapi('SourceList');

export const SourceDeleteQuery = withAliases(
  { withSubscriptions: QueryBool.optional().openapi({ description: 'also remove the subscriptions of the source (else a source with subscriptions is kept: 409 source_has_subscriptions)' }) },
  { with_subscriptions: 'withSubscriptions' },
);

export const SourceDeleted = z
  .object({
    sourceId: z.string(),
    deleted: z.literal(true),
    removed: z.literal(true).openapi({ description: "AgentInbox's name for deleted" }),
    removedSubscriptions: z.number().int().openapi({ description: 'subscriptions removed with the source' }),
    pausedSource: z.boolean().openapi({ description: 'a managed remote source stopped polling as part of removing it with its subscriptions' }),
  })
  .openapi('SourceDeleted');

export const SourceUpdated = z.object({ updated: z.literal(true), source: Source }).openapi('SourceUpdated');
export const SourcePaused = z.object({ paused: z.literal(true), source: Source }).openapi('SourcePaused');
export const SourceResumed = z.object({ resumed: z.literal(true), source: Source }).openapi('SourceResumed');

const ResolvedFields = {
  sourceType: z.enum(SOURCE_KINDS),
  metadataFields: z.array(SchemaField),
  payloadExamples: z.array(OpenObject),
  eventVariantExamples: z.array(z.string()).openapi({ description: 'event types (svc: `type`, AgentInbox: eventVariant)' }),
  configFields: z.array(SchemaField),
  hostType: z.enum(['local_event', 'remote_source']).openapi({ description: 'the runtime class: remote_source for github sources too (a module in a worker)' }),
  sourceKind: z.string().openapi({ description: 'the kind, or remote:<module name> for a remote module' }),
  implementationId: z.string(),
  aliases: z.array(z.string()).optional(),
  subscriptionSchema: z
    .object({
      supportsTrackedResourceRef: z.boolean(),
      supportsLifecycleSignals: z.boolean(),
      shortcuts: z.array(z.object({ name: z.string(), description: z.string(), argsSchema: z.array(SchemaField).optional() })),
    })
    .optional()
    .openapi({ description: 'managed kinds: what their subscriptions can use' }),
  followSchema: z
    .object({ templates: z.array(z.object({ templateId: z.string(), providerOrKind: z.string(), label: z.string(), description: z.string(), argsSchema: z.array(SchemaField) })) })
    .optional()
    .openapi({ description: 'github_repo: the follow templates (POST /follow)' }),
  configSchema: OpenObject.openapi({ description: "svc's JSON Schema of the source config; for remote_source with the module's configSchema as properties.moduleConfig" }),
  eventSchema: OpenObject.openapi({ description: 'JSON Schema of an appended event' }),
  moduleConfigSchema: OpenObject.nullable().openapi({ description: 'remote_source: the JSON Schema the module exports as configSchema (null when it exports none, or for other kinds)' }),
  moduleError: z.string().nullable().openapi({ description: 'remote_source: why the module cannot be loaded now (null when it can)' }),
};

export const SourceSchema = z
  .object({ sourceId: z.string(), ...ResolvedFields })
  .openapi('SourceSchema', { description: "AgentInbox's resolved schema of a source, with svc's JSON Schemas beside" });

export const SchemaPreview = z.object(ResolvedFields).openapi('SourceSchemaPreview', { description: 'A resolved schema without a source' });

export const SchemaPreviewBody = z
  .strictObject({
    sourceRef: z.string().min(1).max(512).openapi({ description: 'local_event, remote_source, github_repo, github_repo_ci or remote:<module name>' }),
    configRef: ConfigRef,
    config: OpenObject.optional().openapi({ description: 'the source config, checked as at creation (github: owner and repo; remote: modulePath, moduleConfig)' }),
  })
  .openapi('SchemaPreviewRequest');

const StreamRecord = z
  .object({
    streamId: z.string(),
    sourceId: z.string(),
    streamKey: z.string(),
    backend: z.string().openapi({ description: 'stream backend name (sqlite, jetstream)' }),
    createdAt: z.string(),
    compaction: z.boolean().openapi({ description: 'whether the backend supports compaction' }),
    streamStats: StreamStats.nullable().openapi({ description: 'null while no event was ever appended' }),
  })
  .openapi('StreamRecord');

export const SourceDetail = z
  .object({
    source: Source,
    runtime: SourceRuntime.nullable(),
    host: Host,
    resolvedIdentity: z.object({ hostType: z.enum(['local_event', 'remote_source']), sourceKind: z.string(), implementationId: z.string() }),
    resolutionError: z.string().optional().openapi({ description: 'why a remote module cannot be resolved now' }),
    schema: SourceSchema,
    stream: StreamRecord,
    subscriptions: z.array(OpenObject).openapi({ description: 'the subscription records of the source' }),
    idleState: z
      .object({ sourceId: z.string(), idleSince: z.string(), autoPauseAt: z.string(), autoPausedAt: z.string().nullable(), updatedAt: z.string() })
      .nullable()
      .openapi({ description: "AgentInbox's idle state of a managed source (svc's is source.idleState)" }),
  })
  .openapi('SourceDetail');

export const HostDetail = z.object({ host: Host, schema: HostSchema, streams: z.array(Source) }).openapi('HostDetail');

export const PollResponse = z
  .object({
    sourceId: z.string(),
    sourceType: z.enum(SOURCE_KINDS),
    appended: z.number().int(),
    deduped: z.number().int(),
    eventsRead: z.number().int().openapi({ description: 'events the module returned' }),
    note: z.string(),
    state: State,
  })
  .openapi('SourcePollResult');

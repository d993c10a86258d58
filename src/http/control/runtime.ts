/** Runtime management (spec "Runtime management") and background jobs. */
import { z } from 'zod';
import { isoAt, errors } from '../../core/index.js';
import { jobView } from '../../runtime/index.js';
import { sandboxView } from '../../runtime/views/index.js';
import type { Services } from '../../services.js';
import { SCHEMA_VERSION } from '../../store/migrations/index.js';
import { OPENMETRICS_CONTENT_TYPE, PROMETHEUS_CONTENT_TYPE, spanView } from '../../telemetry/index.js';
import { VERSION } from '../../version.js';
import { preferredMediaType } from '../accept.js';
import { defineRoute, type AnyRoute } from '../route.js';
import {
  ConfigPatchBody,
  ConfigPatchResponse,
  ConfigSurface,
  JobResponse,
  McpServerList,
  McpServerParams,
  McpServerResponse,
  QueryInt,
  RuntimeStatus,
  ShutdownResponse,
} from '../schemas/index.js';

const tags = ['runtime'];
/** The metrics formats, the spec's default first. */
const METRICS_TYPES = [OPENMETRICS_CONTENT_TYPE, PROMETHEUS_CONTENT_TYPE] as const;

// --- traces (schemas kept here: only this route uses them) ------------------------------------
const TraceStatus = z.enum(['ok', 'error', 'cancelled']);
const TraceSummary = z
  .object({
    trace_id: z.string(),
    root_name: z.string(),
    started_at: z.string(),
    duration_ms: z.number(),
    status: TraceStatus,
    span_count: z.number().int(),
    reason: z.enum(['failed', 'cancelled', 'slow', 'sampled']).optional().openapi({ description: 'diagnostics store only: why the trace was kept' }),
    recorded_at: z.string().optional(),
  })
  .openapi('TraceSummary');
const TraceSpan = z
  .object({
    trace_id: z.string(),
    span_id: z.string(),
    parent_span_id: z.string().nullable(),
    name: z.string(),
    kind: z.enum(['internal', 'server']),
    started_at: z.string(),
    ended_at: z.string(),
    duration_ms: z.number(),
    status: TraceStatus,
    status_message: z.string().nullable(),
    attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  })
  .openapi('TraceSpan');
const TracesQuery = z.object({
  trace_id: z.string().regex(/^[0-9a-f]{32}$/, 'a 32-hex-digit trace id').optional().openapi({ description: 'answer this trace with its spans' }),
  source: z.enum(['ring', 'diagnostics']).optional().openapi({ description: 'ring (default): recent completed traces in memory; diagnostics: traces kept in the local diagnostics store' }),
  limit: QueryInt.pipe(z.number().int().min(1).max(1000)).optional().openapi({ description: 'at most this many summaries (default 100)' }),
});
const TracesResponse = z
  .object({
    ok: z.literal(true),
    source: z.enum(['ring', 'diagnostics']),
    traces: z.array(TraceSummary),
    trace: TraceSummary.optional(),
    spans: z.array(TraceSpan).optional(),
    ring: z.object({ size: z.number().int(), capacity: z.number().int() }),
    diagnostics: z.object({ retained: z.number().int(), max_rows: z.number().int(), slow_ms: z.number(), sample_rate: z.number() }),
    otlp: z.object({ enabled: z.boolean(), queue_depth: z.number().int() }),
  })
  .openapi('TracesResponse');
const TraceResponse = z
  .object({ ok: z.literal(true), source: z.enum(['ring', 'diagnostics']), trace: TraceSummary, spans: z.array(TraceSpan) })
  .openapi('TraceResponse');

/** A trace from the ring, else from the diagnostics store; 404 trace_not_found. */
function findTrace(s: Services, traceId: string) {
  const live = s.tracer.get(traceId);
  if (live) return { source: 'ring' as const, trace: live.summary, spans: live.spans.map(spanView) };
  const kept = s.diagnostics.get(traceId);
  if (kept) {
    const { spans, ...summary } = kept;
    return { source: 'diagnostics' as const, trace: summary, spans };
  }
  throw errors.traceNotFound(traceId);
}

/** The config surface with the facts it cannot read from the file: catalog and provider keys. */
function runtimeSurface(s: Services) {
  return s.runtimeConfig.surface({ modelCatalog: s.models.list().available_models.map((m) => m.id), providers: s.providers.configured() });
}

export function runtimeRoutes(s: Services): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/control/runtime/status',
      auth: 'control',
      tags,
      summary: 'Daemon health: configured models, control token status, activity markers',
      responses: { 200: { description: 'Status', schema: RuntimeStatus } },
      handler: () => {
        const { values } = s.config;
        return {
          ok: true,
          version: VERSION,
          pid: process.pid,
          started_at: isoAt(s.startedAt),
          uptime_seconds: (s.clock.now() - s.startedAt) / 1000,
          home_dir: s.config.home,
          listen: s.endpoints.listen,
          socket: s.endpoints.socket,
          schema_version: SCHEMA_VERSION,
          auth: { mode: s.config.controlToken ? 'bearer' : 'local', control_token_configured: s.config.controlToken !== '', read_access: values.auth.read_access },
          models: {
            default: values.model.default,
            providers: s.providers.configured(),
          },
          agents: s.agents.count(),
          queue: { pending: s.queue.pendingTotal() },
          events: { total: s.events.total() },
          sse_clients: s.sse.size,
          store: { commits: s.store.stats.commits, batched_writes: s.store.stats.batchedWrites },
          sandbox: sandboxView(s.tasks.sandboxStatus()),
          warnings: s.usage.warnings(),
        };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/control/runtime/config',
      auth: 'control',
      tags,
      summary: 'Effective configuration (secrets redacted) and the path of the persisted config file',
      responses: { 200: { description: 'Config surface', schema: ConfigSurface } },
      handler: () => {
        const surface = runtimeSurface(s);
        return { ok: true, ...surface, runtime_surface: surface };
      },
    }),
    defineRoute({
      method: 'PATCH',
      url: '/api/control/runtime/config',
      bodyExample: { updates: [{ key: 'model.default', value: 'builtin/echo' }, { key: 'events.heartbeat_ms', unset: true }] },
      auth: 'control',
      tags,
      summary: 'Write supported keys to the config file (effect after restart); refuse start-up-only and unknown keys per key',
      body: ConfigPatchBody,
      responses: { 200: { description: 'Per-key results', schema: ConfigPatchResponse } },
      handler: ({ body }) => {
        const { changed, results } = s.runtimeConfig.patch(body.updates);
        return { ok: true, changed, results, runtime_surface: runtimeSurface(s) };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/control/runtime/shutdown',
      auth: 'control',
      tags,
      summary: 'Graceful shutdown of the runtime and the daemon',
      responses: { 202: { description: 'Shutting down', schema: ShutdownResponse } },
      handler: ({ reply }) => {
        reply.raw.once('finish', () => s.requestShutdown());
        reply.code(202);
        return { ok: true, shutting_down: true };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/control/runtime/metrics',
      auth: 'control',
      tags,
      summary: 'Metrics: OpenMetrics text (ends with # EOF), or the Prometheus text format when asked; label-free series',
      description:
        'OpenMetrics 1.0.0 by default (`application/openmetrics-text; version=1.0.0; charset=utf-8`). The classic Prometheus text format 0.0.4 ' +
        '(`text/plain; version=0.0.4; charset=utf-8`) when `Accept` prefers it: `text/plain` with or without `version=0.0.4`, ranked by q-value against ' +
        '`application/openmetrics-text`. A tie, `*/*`, no Accept, or an Accept that accepts neither gets OpenMetrics; the response varies on Accept. ' +
        'The two formats name a counter differently: family `svc_x` with the sample `svc_x_total` in OpenMetrics, family and sample `svc_x_total` in the text format.',
      responses: { 200: { description: 'The metrics exposition, in the negotiated format', contentType: METRICS_TYPES, headers: { Vary: 'includes Accept' } } },
      handler: async ({ request, reply }) => {
        const type = preferredMediaType(request.headers.accept, METRICS_TYPES) ?? OPENMETRICS_CONTENT_TYPE;
        reply.header('content-type', type);
        const vary = reply.getHeader('vary');
        reply.header('vary', vary ? `${String(vary)}, Accept` : 'Accept');
        return s.metrics.render(type);
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/control/runtime/traces',
      auth: 'control',
      tags,
      summary: 'Recent trace summaries (newest first); with trace_id, that trace and its spans',
      description:
        'Completed traces (HTTP requests on both surfaces, task runs, timer firings) from the in-memory ring of recent traces, or with source=diagnostics from the local diagnostics store (slow, failed, cancelled and sampled traces, bounded). With `trace_id`, `trace` and `spans` describe that trace (404 trace_not_found when it is in neither).',
      query: TracesQuery,
      responses: { 200: { description: 'Traces', schema: TracesResponse } },
      handler: ({ query }) => {
        const source = query.source ?? 'ring';
        const limit = query.limit ?? 100;
        const found = query.trace_id ? findTrace(s, query.trace_id) : null;
        const traces = found ? [found.trace] : source === 'ring' ? s.tracer.recent(limit) : s.diagnostics.list(limit);
        return {
          ok: true,
          source: found?.source ?? source,
          traces,
          ...(found ? { trace: found.trace, spans: found.spans } : {}),
          ring: { size: s.tracer.size, capacity: s.tracer.ringSize },
          diagnostics: { retained: s.diagnostics.count(), max_rows: s.diagnostics.maxRows, slow_ms: s.diagnostics.slowMs, sample_rate: s.diagnostics.sampleRate },
          otlp: { enabled: s.otlp.enabled, queue_depth: s.otlp.queueDepth },
        };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/control/runtime/traces/:trace_id',
      auth: 'control',
      tags,
      summary: 'One trace and its spans (recent ring, else the diagnostics store)',
      params: z.object({ trace_id: z.string().regex(/^[0-9a-f]{32}$/, 'a 32-hex-digit trace id') }),
      responses: { 200: { description: 'Trace', schema: TraceResponse } },
      handler: ({ params }) => ({ ok: true, ...findTrace(s, params.trace_id) }),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/control/runtime/mcp',
      operationId: 'listMcpServers',
      auth: 'control',
      tags,
      summary: 'The configured MCP servers: state, tools (as models see them), last error, restarts',
      description:
        'Every `[mcp.servers.NAME]` of the configuration (docs/tools.md#mcp-servers). A server starts when a turn of an agent that gets it first needs its tools; `tools` are those it listed at its last start (with `warnings` for those not offered).',
      responses: { 200: { description: 'Servers', schema: McpServerList } },
      handler: () => ({ ok: true, servers: s.mcp.list() }),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/control/runtime/mcp/:server',
      operationId: 'getMcpServer',
      auth: 'control',
      tags,
      summary: 'One MCP server',
      params: McpServerParams,
      errors: { 404: ['mcp_server_not_found'] },
      responses: { 200: { description: 'Server', schema: McpServerResponse } },
      handler: ({ params }) => ({ ok: true, server: s.mcp.get(params.server) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/control/runtime/mcp/:server/restart',
      operationId: 'restartMcpServer',
      auth: 'control',
      tags,
      summary: 'Stop an MCP server (its process group) and start it now; answers once the start succeeded or failed',
      description: 'The restart delay is reset. A start that fails is no error of this request: the answer has `state: "failed"` and `last_error`.',
      params: McpServerParams,
      errors: { 404: ['mcp_server_not_found'], 409: ['mcp_server_disabled'] },
      responses: { 200: { description: 'Server after the start', schema: McpServerResponse } },
      handler: async ({ params }) => ({ ok: true, server: await s.mcp.restart(params.server) }),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/jobs/:job_id',
      auth: 'read',
      tags: ['jobs'],
      summary: 'Progress of a background job',
      params: z.object({ job_id: z.string().min(1) }),
      responses: { 200: { description: 'Job', schema: JobResponse } },
      handler: ({ params }) => ({ ok: true, job: jobView(s.jobs.get(params.job_id)) }),
    }),
  ];
}

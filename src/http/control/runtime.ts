/** Runtime management (spec "Runtime management") and background jobs. */
import { z } from 'zod';
import { isoAt } from '../../core/clock.js';
import { jobView } from '../../runtime/jobs.js';
import type { Services } from '../../services.js';
import { SCHEMA_VERSION } from '../../store/migrations/index.js';
import { VERSION } from '../../version.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { JobResponse } from '../schemas/agents.js';
import { ConfigPatchBody, ConfigPatchResponse, ConfigSurface, RuntimeStatus, ShutdownResponse } from '../schemas/runtime.js';

const tags = ['runtime'];

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
            providers: Object.entries(values.providers).map(([name, p]) => ({ name, kind: p.kind, base_url: p.base_url })),
          },
          agents: s.agents.count(),
          queue: { pending: s.queue.pendingTotal() },
          events: { total: s.events.total() },
          sse_clients: s.sse.size,
          store: { commits: s.store.stats.commits, batched_writes: s.store.stats.batchedWrites },
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
      handler: () => ({ ok: true, ...s.runtimeConfig.surface() }),
    }),
    defineRoute({
      method: 'PATCH',
      url: '/api/control/runtime/config',
      auth: 'control',
      tags,
      summary: 'Write supported keys to the config file (effect after restart); refuse start-up-only and unknown keys per key',
      body: ConfigPatchBody,
      responses: { 200: { description: 'Per-key results', schema: ConfigPatchResponse } },
      handler: ({ body }) => {
        const { changed, results } = s.runtimeConfig.patch(body.updates);
        return { ok: true, changed, results, runtime_surface: s.runtimeConfig.surface() };
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
      summary: 'OpenMetrics text; label-free series; ends with # EOF',
      responses: { 200: { description: 'OpenMetrics exposition', contentType: 'application/openmetrics-text; version=1.0.0; charset=utf-8' } },
      handler: async ({ reply }) => {
        reply.header('content-type', s.metrics.contentType);
        return s.metrics.render();
      },
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

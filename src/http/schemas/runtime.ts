import { z } from 'zod';

export const RootResponse = z.object({ ok: z.literal(true), default_agent: z.string() }).openapi('RootResponse');

export const Handshake = z
  .object({
    ok: z.literal(true),
    protocol: z.object({ name: z.literal('svc-control'), version: z.literal(1) }),
    auth: z.object({
      mode: z.enum(['bearer', 'local']),
      required: z.boolean(),
      session: z
        .literal('oidc')
        .optional()
        .openapi({ description: 'Present when browsers may also sign in (GET /api/auth/login) and use the HttpOnly session cookie in place of the token' }),
    }),
    capabilities: z.array(z.string()),
    runtime: z.object({
      default_agent: z.string(),
      workspace_dir: z.string(),
      home_dir: z.string(),
      listen: z.string(),
      advertise_url: z.string().nullable(),
    }),
  })
  .openapi('Handshake');

export const AuthMethod = z.object({ mode: z.enum(['local', 'oidc']) }).openapi('AuthMethod');

export const RuntimeStatus = z
  .object({
    ok: z.literal(true),
    version: z.string(),
    pid: z.number().int(),
    started_at: z.string(),
    uptime_seconds: z.number(),
    home_dir: z.string(),
    listen: z.string(),
    socket: z.string(),
    schema_version: z.number().int(),
    auth: z.object({ mode: z.enum(['bearer', 'local']), control_token_configured: z.boolean(), read_access: z.string() }),
    models: z.object({
      default: z.string(),
      providers: z.array(
        z.object({
          name: z.string(),
          kind: z.string(),
          base_url: z.string(),
          models: z.array(z.string()).openapi({ description: 'static models of the provider config; GET /api/models has the whole catalog' }),
          api_key_env: z.string(),
          api_key: z.enum(['not_required', 'set', 'missing']),
        }),
      ),
    }),
    agents: z.number().int(),
    queue: z.object({ pending: z.number().int() }),
    events: z.object({ total: z.number().int() }),
    sse_clients: z.number().int(),
    store: z.object({ commits: z.number().int(), batched_writes: z.number().int() }),
  })
  .openapi('RuntimeStatus');

export const ConfigSurface = z
  .looseObject({
    ok: z.literal(true),
    config_path: z.string(),
    config_file_exists: z.boolean(),
    home_dir: z.string(),
    effective: z.record(z.string(), z.unknown()),
    startup_only_keys: z.array(z.string()),
  })
  .openapi('RuntimeConfigSurface');

export const ConfigPatchBody = z
  .strictObject({ updates: z.array(z.strictObject({ key: z.string().min(1).max(256), value: z.unknown() })).min(1) })
  .openapi('RuntimeConfigPatch');

export const ConfigPatchResponse = z
  .object({
    ok: z.literal(true),
    changed: z.boolean(),
    results: z.array(z.object({ key: z.string(), effect: z.enum(['accepted_requires_restart', 'rejected']), reason: z.string() })),
    runtime_surface: z.record(z.string(), z.unknown()),
  })
  .openapi('RuntimeConfigPatchResponse');

export const ShutdownResponse = z.object({ ok: z.literal(true), shutting_down: z.literal(true) });

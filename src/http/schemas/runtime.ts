import { z } from 'zod';
import { MCP_SERVER_NAME } from '../../config/index.js';
import { TOOL_CLASSES } from '../../core/index.js';
import { MCP_STATES } from '../../runtime/mcp/index.js';
import { SandboxState } from './tasks.js';

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
          credential_profile: z.string().openapi({ description: 'the credential store profile holding the key (empty: none)' }),
          api_key: z.enum(['not_required', 'set', 'missing']),
        }),
      ),
    }),
    agents: z.number().int(),
    queue: z.object({ pending: z.number().int() }),
    events: z.object({ total: z.number().int() }),
    sse_clients: z.number().int(),
    store: z.object({ commits: z.number().int(), batched_writes: z.number().int() }),
    sandbox: SandboxState,
    warnings: z.array(z.string()).openapi({ description: 'what the configuration holds that may not do what was meant, such as [models.pricing] keys that name no model svc knows of' }),
  })
  .openapi('RuntimeStatus');

const ProviderSummary = z
  .object({
    id: z.string(),
    transport: z.string().openapi({ description: 'the provider kind: openai or anthropic' }),
    base_url: z.string(),
    oauth_supported: z.literal(false),
    api_key_supported: z.literal(true),
    credential_source: z.enum(['profile', 'env', 'none']),
    credential_kind: z.enum(['api_key', 'none']),
    credential_env: z.string().nullable().openapi({ description: 'api_key_env (the key itself is never shown)' }),
    credential_profile: z.string().nullable().openapi({ description: 'credential_profile: a profile of GET /api/control/runtime/credentials' }),
    credential_configured: z.boolean(),
    configured_in_config: z.literal(true),
  })
  .openapi('RuntimeProviderSummary');

/** svc's surface and, beside it, the real system's summary fields (docs/holon-gui.md). */
const surfaceFields = {
  config_path: z.string(),
  config_file_path: z.string().openapi({ description: 'the same path (the real system\'s name)' }),
  config_file_exists: z.boolean(),
  home_dir: z.string(),
  effective: z.record(z.string(), z.unknown()),
  startup_only_keys: z.array(z.string()),
  model_default: z.string(),
  model_fallbacks: z.array(z.string()).openapi({ description: 'always empty: svc has no model fallbacks' }),
  vision_default: z.null(),
  image_generation_default: z.null(),
  model_catalog: z.array(z.string()).openapi({ description: 'model ids of GET /api/models' }),
  unknown_model_fallback_configured: z.literal(false),
  disable_provider_fallback: z.literal(true).openapi({ description: 'svc never falls back to another provider' }),
  providers: z.array(ProviderSummary),
  available_search_provider_kinds: z.array(z.unknown()).openapi({ description: 'always empty: svc has no web search' }),
  web_search_providers: z.array(z.unknown()),
};

export const RuntimeSurface = z.object(surfaceFields).openapi('RuntimeSurface');

export const ConfigSurface = z
  .looseObject({ ok: z.literal(true), ...surfaceFields, runtime_surface: RuntimeSurface })
  .openapi('RuntimeConfigSurface');

const ConfigUpdateEntry = z
  .strictObject({
    key: z.string().min(1).max(256),
    value: z.unknown().optional(),
    unset: z.boolean().optional().openapi({ description: 'true: remove the key from the config file (the real system\'s form); value is then ignored' }),
  })
  .refine((u) => u.unset === true || u.value !== undefined, { message: 'value is required unless unset is true', path: ['value'] });

export const ConfigPatchBody = z.strictObject({ updates: z.array(ConfigUpdateEntry).min(1) }).openapi('RuntimeConfigPatch');

export const ConfigPatchResponse = z
  .object({
    ok: z.literal(true),
    changed: z.boolean(),
    results: z.array(z.object({ key: z.string(), effect: z.enum(['accepted_requires_restart', 'rejected']), reason: z.string() })),
    runtime_surface: RuntimeSurface,
  })
  .openapi('RuntimeConfigPatchResponse');

export const ShutdownResponse = z.object({ ok: z.literal(true), shutting_down: z.literal(true) });

// --- MCP servers (docs/tools.md#mcp-servers) --------------------------------------------------
const McpStateSchema = z.enum(MCP_STATES).openapi('McpServerState', {
  description: 'idle: never used; starting; ready; backoff: it crashed and restarts after a delay; failed: the last start failed, tried again at a use after the delay; stopped: disabled or shut down',
});

export const McpServerParams = z.object({ server: z.string().regex(MCP_SERVER_NAME, 'a server name: letters, digits, "_" or "-" (at most 32)') });

export const McpServerView = z
  .object({
    name: z.string(),
    transport: z.enum(['stdio', 'http']),
    enabled: z.boolean(),
    state: McpStateSchema,
    pid: z.number().int().nullable().openapi({ description: "the stdio server's process (and process group); null over HTTP or when not running" }),
    command: z.string().nullable(),
    args: z.array(z.string()),
    url: z.string().nullable(),
    agents: z.array(z.string()).openapi({ description: 'agent ids that get it, or "*"' }),
    templates: z.array(z.string()).openapi({ description: 'templates whose agents get it' }),
    class: z.enum(TOOL_CLASSES).openapi({ description: 'the class the tool policy checks its tools under (tool_classes may differ per tool)' }),
    tools: z.array(
      z.object({
        name: z.string().openapi({ description: "the server's name for it" }),
        model_name: z.string().openapi({ description: 'what models call it: SERVER__tool' }),
        class: z.enum(TOOL_CLASSES),
        description: z.string(),
      }),
    ),
    warnings: z.array(z.string()).openapi({ description: 'tools not offered, and why' }),
    last_error: z.string().nullable(),
    last_error_at: z.string().nullable(),
    restarts: z.number().int(),
    started_at: z.string().nullable(),
    retry_at: z.string().nullable().openapi({ description: 'backoff: when it restarts; failed: from when a use tries it again' }),
  })
  .openapi('McpServer');

export const McpServerList = z.object({ ok: z.literal(true), servers: z.array(McpServerView) }).openapi('McpServerList');
export const McpServerResponse = z.object({ ok: z.literal(true), server: McpServerView }).openapi('McpServerResponse');

export const McpAgentServer = z
  .object({ name: z.string(), transport: z.enum(['stdio', 'http']), state: McpStateSchema, tool_count: z.number().int() })
  .openapi('McpAgentServer');

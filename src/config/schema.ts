/**
 * The configuration schema: every key, its type and its default, in one place
 * (docs/configuration.md#every-key). config.example.toml documents the same keys; a test keeps
 * them equal.
 */
import path from 'node:path';
import { z } from 'zod';
import { AGENT_ID_PATTERN, PROFILE_NAME } from '../core/index.js';
import { ContextConfigSchema, ModelsConfigSchema } from './context.js';
import { McpConfigSchema } from './mcp.js';
import { PolicyConfigSchema } from './policy.js';
import { ToolsConfigSchema } from './tools.js';

/** `[tasks] sandbox`: whether command tasks run under bubblewrap (runtime/tasks/processes/sandbox.ts). */
export const SANDBOX_MODES = ['off', 'auto', 'required'] as const;

const HOST_PORT = /^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;
const int = (min: number, dflt: number) => z.number().int().min(min).default(dflt);
/** A credential profile in <home>/credentials.json, or '' for none. */
const profileName = () => z.string().regex(PROFILE_NAME, 'a profile name: letters, digits, . _ : - (at most 64)').or(z.literal('')).default('');


/**
 * What one model round may cost by default. One streamed delta is a few bytes to a few KiB; the
 * largest legitimate line is a tool call's arguments sent whole, bounded by the model's output
 * (128k tokens ≈ 0.5 MiB, twice that as escaped JSON), so 4 MiB leaves room and still caps the line
 * a server can make svc hold. The reply cap is far above any model's output. 120 s without content
 * covers a model being loaded before its first token; 10 minutes per round is what the official
 * OpenAI and Anthropic clients allow one request.
 */
export const MODEL_LIMIT_DEFAULTS = {
  stream_max_line_bytes: 4 * 1024 * 1024,
  max_reply_bytes: 32 * 1024 * 1024,
  stream_idle_timeout_ms: 120_000,
  round_deadline_ms: 600_000,
} as const;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const Provider = z
  .strictObject({
    kind: z.enum(['openai', 'anthropic']),
    base_url: z.string().url(),
    api_key_env: z.string().default(''),
    credential_profile: profileName(),
    models: z.array(z.string().min(1)).default([]),
  })
  .superRefine((p, ctx) => {
    if (p.api_key_env && p.credential_profile) {
      ctx.addIssue({ code: 'custom', path: ['credential_profile'], message: 'credential_profile cannot be combined with api_key_env: name one place for the key' });
    }
  });

const Otlp = z
  .strictObject({
    enabled: z.boolean().default(false),
    endpoint: z.string().default(''),
    queue_capacity: int(1, 1024),
    batch_size: int(1, 128),
    batch_interval_ms: int(1, 1000),
    timeout_ms: int(1, 5000),
    headers: z.record(z.string(), z.string()).default({}),
    credential_profile: z.string().default(''),
  })
  .superRefine((o, ctx) => {
    if (o.enabled && !/^https?:\/\/.+/.test(o.endpoint)) {
      ctx.addIssue({ code: 'custom', path: ['endpoint'], message: 'an http(s) endpoint URL is required when enabled = true' });
    }
    const hasAuthHeader = Object.keys(o.headers).some((h) => h.toLowerCase() === 'authorization');
    if (o.credential_profile && hasAuthHeader) {
      ctx.addIssue({ code: 'custom', path: ['credential_profile'], message: 'credential_profile cannot be combined with an authorization header' });
    }
  });

/** Browser sign-in through an OpenID provider (src/auth/); `issuer` empty = off. Start-up only. */
const Oidc = z
  .strictObject({
    issuer: z.string().default(''),
    client_id: z.string().default(''),
    client_secret_file: z.string().default(''),
    redirect_url: z.string().default(''),
    allowed_subjects: z.array(z.string().min(1)).default([]),
    allowed_groups: z.array(z.string().min(1)).default([]),
    scopes: z.string().default('openid profile email'),
    // Bounded: a session is never renewed, so its lifetime is how long a stolen cookie works.
    session_ttl_s: z.number().int().min(60).max(30 * 24 * 3600).default(12 * 3600),
    cookie_name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, "_" or "-"').default('svc_session'),
  })
  .superRefine((o, ctx) => {
    if (!o.issuer) return;
    const url = (key: 'issuer' | 'redirect_url') => {
      try {
        const u = new URL(o[key]);
        if (u.protocol === 'https:' || u.protocol === 'http:') return u;
      } catch {
        /* reported below */
      }
      ctx.addIssue({ code: 'custom', path: [key], message: 'an http(s) URL is required when auth.oidc.issuer is set' });
      return null;
    };
    const issuer = url('issuer');
    if (issuer && issuer.protocol === 'http:' && !/^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(issuer.hostname)) {
      ctx.addIssue({ code: 'custom', path: ['issuer'], message: 'must be https (plain http only for a provider on this machine)' });
    }
    const redirect = url('redirect_url');
    if (redirect && (redirect.search || redirect.hash)) {
      ctx.addIssue({ code: 'custom', path: ['redirect_url'], message: 'must not carry a query or fragment' });
    }
    if (!o.client_id) ctx.addIssue({ code: 'custom', path: ['client_id'], message: 'required when auth.oidc.issuer is set' });
    if (!o.scopes.split(/\s+/).includes('openid')) ctx.addIssue({ code: 'custom', path: ['scopes'], message: 'must include "openid"' });
  });

export const ConfigSchema = z.strictObject({
  default_agent: z.string().regex(AGENT_ID_PATTERN, 'must be a valid agent id').default('main'),
  control_token: z.string().default(''),
  control_token_file: z.string().default(''),
  listen: z.string().regex(HOST_PORT, 'must be HOST:PORT').default('127.0.0.1:8700'),
  log_level: z.enum(LOG_LEVELS).default('info'),
  auth: z
    .strictObject({
      read_access: z.enum(['loopback', 'token']).default('loopback'),
      allowed_hosts: z.array(z.string()).default([]),
      allowed_origins: z.array(z.string()).default([]),
      trust_loopback_peers: z.boolean().default(false),
      // The console's sign-in with the control token (POST /api/auth/token): how long its session
      // lasts. Bounded like the OIDC one: a session is never renewed.
      token_session_ttl_s: z.number().int().min(60).max(30 * 24 * 3600).default(12 * 3600),
      oidc: Oidc.prefault({}),
    })
    .prefault({}),
  // 'full': an acknowledged write survives a power cut (the WAL is fsynced, off the event loop,
  // before the answer); 'normal': it survives a crash of svc but not of the machine.
  store: z.strictObject({ synchronous: z.enum(['full', 'normal']).default('full') }).prefault({}),
  events: z
    .strictObject({
      heartbeat_ms: int(100, 15000),
      page_limit_max: int(1, 1000),
      sse_max_clients: int(1, 10000),
      sse_max_buffer_bytes: int(4096, 1048576),
      // Retention (events/retention.ts): the replay window is what these leave; 0 = no limit by that rule.
      retain_days: z.number().int().min(0).max(36500).default(30),
      retain_max_events: z.number().int().min(0).max(1_000_000_000).default(100000),
    })
    .prefault({}),
  model: z
    .strictObject({
      default: z.string().min(1).default('builtin/echo'),
      // What one model round may cost (src/runtime/providers/reply-body.ts): a longest SSE line, a
      // largest answer, time without content (keep-alives do not count) and time in all.
      stream_max_line_bytes: int(1024, MODEL_LIMIT_DEFAULTS.stream_max_line_bytes),
      max_reply_bytes: int(1024, MODEL_LIMIT_DEFAULTS.max_reply_bytes),
      stream_idle_timeout_ms: int(1, MODEL_LIMIT_DEFAULTS.stream_idle_timeout_ms),
      round_deadline_ms: int(1, MODEL_LIMIT_DEFAULTS.round_deadline_ms),
    })
    .prefault({}),
  // Names are the first part of model refs (`NAME/model`); `builtin` is svc's own provider.
  providers: z
    .record(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'a provider name is letters, digits, ".", "_" or "-" (no "/")'), Provider)
    .superRefine((providers, ctx) => {
      if (Object.hasOwn(providers, 'builtin')) ctx.addIssue({ code: 'custom', path: ['builtin'], message: 'the provider name "builtin" is reserved for the built-in provider' });
    })
    .default({}),
  tasks: z
    .strictObject({
      max_concurrent_per_agent: int(1, 8),
      output_preview_bytes: int(1, 65536),
      // Supervised child agents (kind child_agent): active ones per parent, and how deep a chain
      // of delegations may go (a root agent's child is depth 1).
      max_active_children_per_agent: int(1, 32),
      max_active_children: int(1, 256),
      max_child_depth: int(1, 4),
      // Command tasks run under bubblewrap (docs/security.md#command-sandbox): "auto" when it is
      // usable here, "required" or they fail, "off" never. Start-up only.
      sandbox: z.enum(SANDBOX_MODES).default('auto'),
    })
    .prefault({}),
  runtime: z
    .strictObject({
      // The URL clients should use for this daemon when it differs from `listen` (a proxy, a
      // tunnel); reported as runtime.advertise_url by the handshake. '' = none.
      advertise_url: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]).default(''),
      observability: z.strictObject({ otlp: Otlp.prefault({}) }).prefault({}),
    })
    .prefault({}),
  inbox: z
    .strictObject({
      socket: z.string().default(''),
      port: z.number().int().min(0).max(65535).default(0),
      // Remote-source modules run as the daemon's user: only from these and <home>/source-modules/.
      module_dirs: z.array(z.string().refine((d) => path.isAbsolute(d), 'must be an absolute path')).default([]),
      // Where source streams live (src/inbox/streams/jetstream/README.md): this daemon's SQLite
      // file, or a NATS JetStream cluster that several daemons share.
      streams: z
        .strictObject({
          backend: z.enum(['sqlite', 'jetstream']).default('sqlite'),
          servers: z.array(z.string().regex(/^(nats|tls):\/\/[^\s,]+$/, 'a nats:// or tls:// URL')).min(1).default(['nats://127.0.0.1:4222']),
          // JetStream stream names are <prefix>_<sourceId>, subjects <prefix>.<sourceId>.
          stream_prefix: z.string().regex(/^[A-Za-z0-9-]{1,32}$/, 'letters, digits and - (at most 32)').default('svc'),
          replicas: z.number().int().min(1).max(5).default(1),
          // Retention of each stream: seconds and bytes; 0 = unlimited.
          max_age_s: int(0, 0),
          max_bytes: int(0, 0),
          // A credential profile (<home>/credentials.json): a NATS token, `user:password`, or the
          // text of a .creds file. '' = connect without credentials.
          credential_profile: profileName(),
        })
        .prefault({}),
      // An inbox agent with no active target that nobody has read, watched or acknowledged for
      // this long is removed with its inbox, as AgentInbox removes offline agents after 7 days
      // (src/inbox/lifecycle.ts); 0: never. The agent policy.notify_inbox names is never removed.
      offline_agent_ttl_ms: z.number().int().min(0).max(3650 * 24 * 3600 * 1000).default(7 * 24 * 3600 * 1000),
    })
    .prefault({}),
  delivery: z
    .strictObject({
      timeout_ms: int(1, 10000),
      retry_initial_ms: int(1, 5000),
      retry_max_ms: int(1, 3600000),
      max_failures: int(1, 12),
      // AgentInbox's notify lease: a notified webhook or terminal target waits for an ack this long
      // before it is notified again (0: no lease, every batch is notified); at most 30 days, so a
      // lease end is always a date.
      notify_lease_ms: z.number().int().min(0).max(30 * 24 * 3600 * 1000).default(600000),
    })
    .prefault({}),
  timers: z.strictObject({ max_active_per_agent: int(1, 256) }).prefault({}),
  // What a model's tool calls may do by the trust of the turn (src/runtime/policy/).
  policy: PolicyConfigSchema,
  // What the built-in tools may touch and return (src/config/tools.ts, docs/tools.md).
  tools: ToolsConfigSchema,
  // What fills a prompt within the model's window (src/config/context.ts, docs/context.md).
  context: ContextConfigSchema,
  // Context windows and prices per model beyond the built-in catalog (src/config/context.ts).
  models: ModelsConfigSchema,
  // MCP servers whose tools models may call (src/config/mcp.ts, docs/tools.md#mcp-servers).
  mcp: McpConfigSchema,
  queue: z.strictObject({ max_pending: int(1, 10000), max_pending_operator: int(1, 100000) }).prefault({}),
  desktop: z.strictObject({ integration: z.boolean().default(false) }).prefault({}),
  // The TCP listeners (src/http/connections.ts): how long a connection may take to send a request,
  // and how many connections other users (per uid) and other hosts (per address) may hold.
  http: z
    .strictObject({
      headers_timeout_ms: z.number().int().min(100).max(600_000).default(10_000),
      request_timeout_ms: z.number().int().min(100).max(3_600_000).default(120_000),
      keep_alive_timeout_ms: z.number().int().min(100).max(600_000).default(72_000),
      max_connections_per_user: int(1, 256),
      max_connections_others: int(1, 2048),
    })
    .prefault({}),
})
  .superRefine((c, ctx) => {
    // The default model must name a provider svc has: `builtin` (offline) or a [providers.NAME].
    const slash = c.model.default.indexOf('/');
    const provider = slash > 0 ? c.model.default.slice(0, slash) : '';
    const model = slash > 0 ? c.model.default.slice(slash + 1) : '';
    const known = provider === 'builtin' ? model === 'echo' : provider in c.providers && model !== '';
    if (!known) {
      const names = ['builtin', ...Object.keys(c.providers)].join(', ');
      ctx.addIssue({
        code: 'custom',
        path: ['model', 'default'],
        message: `must be provider/model with a configured provider (${names}); builtin/echo needs no provider`,
      });
    }
  });

export type Config = z.infer<typeof ConfigSchema>;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

/** Keys only read at start-up that PATCH /api/control/runtime/config refuses to change. */
export const STARTUP_ONLY_KEYS = new Set([
  'default_agent',
  'control_token',
  'control_token_file',
  'listen',
  'inbox.socket',
  'inbox.port',
  'inbox.module_dirs',
  'inbox.streams',
  'auth.oidc',
  'http',
  'tasks.sandbox',
]);

/** A key is start-up only when it, or a table that holds it, is listed in STARTUP_ONLY_KEYS. */
export function isStartupOnly(key: string): boolean {
  const parts = key.split('.');
  return parts.some((_, i) => STARTUP_ONLY_KEYS.has(parts.slice(0, i + 1).join('.')));
}

export function splitHostPort(listen: string): { host: string; port: number } {
  const m = HOST_PORT.exec(listen);
  if (!m) throw new Error(`invalid address ${JSON.stringify(listen)}: expected HOST:PORT`);
  const host = m[1]!.startsWith('[') ? m[1]!.slice(1, -1) : m[1]!;
  return { host, port: Number(m[2]) };
}

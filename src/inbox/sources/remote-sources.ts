/**
 * Remote sources (docs/inbox-api.md#remote-sources-and-the-module-interface): the config shape,
 * module path resolution, the module calls (through worker.ts), and the in-memory schedule of polls
 * and idle auto-pauses.
 *
 * The module interface: an ES module whose default export is `{ poll, validate?, configSchema? }`.
 * - `configSchema` (optional): a JSON Schema of moduleConfig. It is checked at creation and PATCH
 *   (400 invalid_request naming the field, e.g. `config.moduleConfig.owner`) and again at every
 *   poll (the file may have changed); GET /sources/{id}/schema serves it.
 * - `validate(moduleConfig, {hostConfig, credential})` (optional, may be async) throws to refuse a
 *   config: 400 invalid_source_config.
 * - `poll({moduleConfig, cursor, configRef, hostConfig, credential, now, signal})` returns
 *   `{events, cursor, notBefore?}`; `events` are appended exactly like a manual append (idempotent
 *   by `id`), `cursor` (any JSON) is persisted in the same transaction and handed to the next poll
 *   (null on the first); `notBefore` (epoch ms on the daemon's clock, `now`) holds off the next
 *   scheduled poll (rate limits). `credential` is `{profile, kind, secret}` or null
 *   (credentials.ts): in memory only; messages are scrubbed of the secret and a result that
 *   contains it is refused. Failure messages are one line, without stack frames or svc's install
 *   directory, at most 500 characters (core/error-text.ts), wherever they are stored or answered.
 * A module that cannot be imported, or whose default export has no `poll`, is refused at creation
 * with 400 invalid_source_module; one outside the module directories with 400
 * source_module_not_allowed (module-path.ts), checked again before every load. svc's own modules
 * (`builtin`, the github host type) skip the module-directory rules.
 */
import { z } from 'zod';
import { type Clock, errorText, AppError, errors, type Issue } from '../../core/index.js';
import { TimerSchedule } from '../../runtime/timers/index.js';
import { ModuleLocations } from './module-path.js';
import { checkSchema, SchemaError, schemaIssues, type JsonSchema } from './json-schema.js';
import { runModuleJob, type ModuleCredential, type ModuleOutcome } from './worker.js';
import { EventInputSchema, MAX_APPEND_EVENTS, type EventInput } from '../streams/index.js';

export const DEFAULT_POLL_INTERVAL_MS = 60_000;
export const MIN_POLL_INTERVAL_MS = 1000;
/** Time limit of one module call (load + validate, or load + poll), unless the config sets `pollTimeoutMs`. */
export const MODULE_TIME_LIMIT_MS = 30_000;
/** A managed remote source whose last subscription went away is paused this long after. */
export const IDLE_AUTO_PAUSE_MS = 5 * 60_000;

export const RemoteSourceConfigSchema = z.strictObject({
  modulePath: z
    .string()
    .min(1)
    .max(1024)
    .refine((p) => !p.includes('\0'), 'must not contain NUL')
    .describe('relative to <home>/source-modules/, or absolute inside it or a directory of inbox.module_dirs'),
  moduleConfig: z.unknown().optional().describe('any JSON, handed to the module as is'),
  pollIntervalMs: z.number().int().min(MIN_POLL_INTERVAL_MS).max(24 * 3600_000).optional().describe(`default ${DEFAULT_POLL_INTERVAL_MS}`),
  pollTimeoutMs: z.number().int().min(100).max(300_000).optional().describe(`time limit of one module call; default ${MODULE_TIME_LIMIT_MS}`),
});
export type RemoteSourceConfig = z.infer<typeof RemoteSourceConfigSchema>;

/** What a poll must return. */
const PollResultSchema = z.looseObject({
  events: z.array(EventInputSchema).max(MAX_APPEND_EVENTS),
  cursor: z.unknown().optional(),
  notBefore: z.number().int().nonnegative().nullable().optional(),
});

export function parseRemoteConfig(config: unknown): RemoteSourceConfig {
  const parsed = RemoteSourceConfigSchema.safeParse(config);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({ path: ['config', ...i.path].join('.'), message: i.message }));
  throw errors.invalidSourceConfig(`${issues[0]!.path}: ${issues[0]!.message}`, { issues });
}

/**
 * What a managed source runs: a module from the module directories (`remote_source`), or one of
 * svc's own modules (`builtin`: its absolute path; the module-directory rules are for user files).
 */
export interface ModuleSpec {
  /** As configured, for messages. */
  modulePath: string;
  builtin: string | null;
  moduleConfig: unknown;
  /** Where moduleConfig sits in the source config, for issue paths (`config.moduleConfig`, `config`). */
  configPath: string;
  pollIntervalMs: number;
  pollTimeoutMs: number | undefined;
}

export function remoteModuleSpec(config: RemoteSourceConfig): ModuleSpec {
  return {
    modulePath: config.modulePath,
    builtin: null,
    moduleConfig: config.moduleConfig ?? null,
    configPath: 'config.moduleConfig',
    pollIntervalMs: config.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
    pollTimeoutMs: config.pollTimeoutMs,
  };
}

/** What a module call gets besides its moduleConfig: its host's config and the resolved credential. */
export interface ModuleContext {
  hostConfig: Record<string, unknown>;
  credential: ModuleCredential | null;
}

export interface PollOutput {
  events: EventInput[];
  cursor: unknown;
  /** The module asks not to be polled before this time (epoch ms on the daemon's clock): rate limits. */
  notBefore: number | null;
}

export type PollOutcome = { ok: true; output: PollOutput } | { ok: false; error: string; aborted?: true };

export class RemoteModules {
  /** Aborted at shutdown: every running module call ends at once. */
  private readonly shutdown = new AbortController();
  readonly locations: ModuleLocations;

  /** `moduleDirs`: `inbox.module_dirs`, read once (start-up only). */
  constructor(private readonly opts: { home: string; moduleDirs?: readonly string[]; timeLimitMs?: number }) {
    this.locations = new ModuleLocations(opts.home, opts.moduleDirs);
  }

  /** End every running module call now (daemon shutdown); later calls answer `aborted`. */
  stop(): void {
    this.shutdown.abort();
  }

  private limit(spec: ModuleSpec): number {
    return spec.pollTimeoutMs ?? this.opts.timeLimitMs ?? MODULE_TIME_LIMIT_MS;
  }

  /** Checked at every load: the file or a directory may have changed since the source was created. */
  private resolve(spec: ModuleSpec): Promise<string> {
    return spec.builtin !== null ? Promise.resolve(spec.builtin) : this.locations.resolve(spec.modulePath);
  }

  /**
   * Check where the module is, load it, check moduleConfig against the module's configSchema and
   * run its validate: 400 source_module_not_allowed / invalid_source_module / invalid_request
   * (naming the field) / invalid_source_config. Answers the module's configSchema.
   */
  async check(spec: ModuleSpec, ctx: ModuleContext): Promise<{ schema: JsonSchema | null }> {
    const modulePath = await this.resolve(spec);
    const outcome = await runModuleJob({ op: 'check', modulePath, moduleConfig: spec.moduleConfig, ...ctx }, this.limit(spec), this.shutdown.signal);
    if (!outcome.ok && outcome.stage === 'aborted') throw errors.shuttingDown();
    if (!outcome.ok && outcome.stage !== 'validate') throw errors.invalidSourceModule(spec.modulePath, errorText(redact(outcome.error, ctx.credential)));
    const schema = this.schemaOf(spec, outcome.schema);
    const issues = moduleConfigIssues(spec, schema);
    if (issues.length > 0) throw errors.invalidRequest(issues);
    if (!outcome.ok) throw errors.invalidSourceConfig(`the module refused moduleConfig: ${errorText(redact(outcome.error, ctx.credential))}`);
    return { schema };
  }

  /** The module's configSchema (null when it exports none), or why the module cannot be loaded. */
  async describe(spec: ModuleSpec): Promise<{ schema: JsonSchema | null; error: string | null }> {
    try {
      const modulePath = await this.resolve(spec);
      const outcome = await runModuleJob({ op: 'schema', modulePath, moduleConfig: spec.moduleConfig }, this.limit(spec), this.shutdown.signal);
      if (!outcome.ok) return { schema: null, error: errorText(`${outcome.stage}: ${outcome.error}`) };
      return { schema: this.schemaOf(spec, outcome.schema), error: null };
    } catch (err) {
      if (err instanceof AppError) return { schema: null, error: errorText(`${err.code}: ${err.message}`) };
      throw err;
    }
  }

  /** A configSchema Ajv cannot compile makes the module unusable (400 invalid_source_module). */
  private schemaOf(spec: ModuleSpec, schema: unknown): JsonSchema | null {
    if (schema === null || schema === undefined) return null;
    try {
      checkSchema(schema);
    } catch (err) {
      if (err instanceof SchemaError) throw errors.invalidSourceModule(spec.modulePath, `its configSchema is not a usable JSON Schema: ${err.message}`);
      throw err;
    }
    return schema as JsonSchema;
  }

  /**
   * One poll; a failure comes back as a message for the source's `error` field. Messages never
   * carry the credential's secret, and a result that contains it is refused (nothing is appended):
   * events and the cursor are stored and served.
   */
  async poll(spec: ModuleSpec, cursor: unknown, configRef: string | null, ctx: ModuleContext & { now: number }): Promise<PollOutcome> {
    const fail = (error: string, aborted = false): PollOutcome => ({ ok: false, error: errorText(redact(error, ctx.credential)), ...(aborted ? { aborted: true as const } : {}) });
    let modulePath: string;
    try {
      modulePath = await this.resolve(spec);
    } catch (err) {
      if (err instanceof AppError) return fail(`${err.code}: ${err.message}`);
      throw err;
    }
    const outcome: ModuleOutcome = await runModuleJob(
      { op: 'poll', modulePath, moduleConfig: spec.moduleConfig, cursor: cursor ?? null, configRef, ...ctx },
      this.limit(spec),
      this.shutdown.signal,
    );
    if (!outcome.ok) return fail(`${outcome.stage}: ${outcome.error}`, outcome.stage === 'aborted');
    // The module may have changed since the config was checked: it must still accept it.
    let issues: Issue[];
    try {
      issues = moduleConfigIssues(spec, this.schemaOf(spec, outcome.schema));
    } catch (err) {
      if (err instanceof AppError) return fail(err.message);
      throw err;
    }
    if (issues.length > 0) return fail(`the module's configSchema no longer accepts the config: ${issues[0]!.path}: ${issues[0]!.message}`);
    if (ctx.credential && JSON.stringify(outcome.result).includes(ctx.credential.secret)) {
      return fail(`the poll result contains the secret of credential profile ${JSON.stringify(ctx.credential.profile)}; nothing was appended`);
    }
    const parsed = PollResultSchema.safeParse(outcome.result);
    if (!parsed.success) {
      const first = parsed.error.issues[0]!;
      return fail(`poll returned an invalid result at ${first.path.join('.') || '(root)'}: ${first.message}`);
    }
    return { ok: true, output: { events: parsed.data.events, cursor: parsed.data.cursor ?? null, notBefore: parsed.data.notBefore ?? null } };
  }
}

/** moduleConfig against the module's schema; an absent one is checked as `{}` (what the module then gets). */
function moduleConfigIssues(spec: ModuleSpec, schema: JsonSchema | null): Issue[] {
  if (!schema) return [];
  return schemaIssues(schema, spec.moduleConfig ?? {}, spec.configPath);
}

/** Every occurrence of the credential's secret replaced: module messages are stored, logged and answered. */
export function redact(text: string, credential: ModuleCredential | null): string {
  if (!credential || credential.secret === '') return text;
  return text.split(credential.secret).join('[redacted]');
}


/**
 * Due times of polls (`poll:<id>`) and idle auto-pauses (`idle:<id>`) on the injected clock; one
 * real timeout wakes the owner for whatever is due.
 */
export class RemoteSchedule {
  private readonly schedule: TimerSchedule;

  constructor(
    private readonly clock: Clock,
    private readonly handlers: { poll: (sourceId: string) => void; idle: (sourceId: string) => void },
  ) {
    this.schedule = new TimerSchedule(clock, () => this.wake());
  }

  pollAt(sourceId: string, due: number): void {
    this.schedule.set(`poll:${sourceId}`, due);
  }

  idleAt(sourceId: string, due: number): void {
    this.schedule.set(`idle:${sourceId}`, due);
  }

  cancelPoll(sourceId: string): void {
    this.schedule.remove(`poll:${sourceId}`);
  }

  cancelIdle(sourceId: string): void {
    this.schedule.remove(`idle:${sourceId}`);
  }

  hasPoll(sourceId: string): boolean {
    return this.schedule.has(`poll:${sourceId}`);
  }

  /** Run what is due now (the real timeout calls this; tests call it after moving the clock). */
  wake(): void {
    for (const entry of this.schedule.takeDue(this.clock.now(), 1000)) {
      const sep = entry.timerId.indexOf(':');
      const kind = entry.timerId.slice(0, sep);
      const id = entry.timerId.slice(sep + 1);
      if (kind === 'poll') this.handlers.poll(id);
      else this.handlers.idle(id);
    }
    this.schedule.arm();
  }

  stop(): void {
    this.schedule.stop();
  }
}

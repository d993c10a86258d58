/**
 * Remote sources (CONTRACT.md section 9): the config shape, module path resolution, the module
 * calls (through source-worker.ts), and the in-memory schedule of polls and idle auto-pauses.
 *
 * The module interface: an ES module whose default export is `{ poll, validate? }`.
 * - `validate(moduleConfig)` (optional, may be async) throws to refuse a config: 400 invalid_source_config.
 * - `poll({moduleConfig, cursor, configRef, signal})` returns `{events, cursor}`; `events` are
 *   appended exactly like a manual append (idempotent by `id`), `cursor` (any JSON) is persisted in
 *   the same transaction and handed to the next poll (null on the first).
 * A module that cannot be imported, or whose default export has no `poll`, is refused at creation
 * with 400 invalid_source_module; one outside the module directories with 400
 * source_module_not_allowed (module-path.ts), checked again before every load.
 */
import { z } from 'zod';
import type { Clock } from '../core/clock.js';
import { AppError, errors } from '../core/errors.js';
import { TimerSchedule } from '../runtime/timer-scheduler.js';
import { ModuleLocations } from './module-path.js';
import { runModuleJob, type ModuleOutcome } from './source-worker.js';
import { EventInputSchema, MAX_APPEND_EVENTS, type EventInput } from './streams.js';

export const DEFAULT_POLL_INTERVAL_MS = 60_000;
export const MIN_POLL_INTERVAL_MS = 1000;
/** Time limit of one module call (load + validate, or load + poll), unless the config sets `pollTimeoutMs`. */
export const MODULE_TIME_LIMIT_MS = 30_000;
/** A managed remote source whose last subscription went away is paused this long after. */
export const IDLE_AUTO_PAUSE_MS = 5 * 60_000;
/** A module's failure message is its own text: kept this short wherever it is stored or answered. */
export const MODULE_ERROR_MAX_CHARS = 500;

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
});

export function parseRemoteConfig(config: unknown): RemoteSourceConfig {
  const parsed = RemoteSourceConfigSchema.safeParse(config);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({ path: ['config', ...i.path].join('.'), message: i.message }));
  throw errors.invalidSourceConfig(`${issues[0]!.path}: ${issues[0]!.message}`, { issues });
}

export function pollIntervalOf(config: RemoteSourceConfig): number {
  return config.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
}

export interface PollOutput {
  events: EventInput[];
  cursor: unknown;
}

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

  private limit(config: RemoteSourceConfig): number {
    return config.pollTimeoutMs ?? this.opts.timeLimitMs ?? MODULE_TIME_LIMIT_MS;
  }

  /**
   * Check where the module is, load it and run its validate: 400 source_module_not_allowed /
   * invalid_source_module / invalid_source_config.
   */
  async check(config: RemoteSourceConfig): Promise<void> {
    const modulePath = await this.locations.resolve(config.modulePath);
    const outcome = await runModuleJob({ op: 'check', modulePath, moduleConfig: config.moduleConfig ?? null }, this.limit(config), this.shutdown.signal);
    if (outcome.ok) return;
    if (outcome.stage === 'aborted') throw errors.shuttingDown();
    if (outcome.stage === 'validate') throw errors.invalidSourceConfig(`the module refused moduleConfig: ${bounded(outcome.error)}`);
    throw errors.invalidSourceModule(config.modulePath, bounded(outcome.error));
  }

  /** One poll; a failure comes back as a message for the source's `error` field. */
  async poll(
    config: RemoteSourceConfig,
    cursor: unknown,
    configRef: string | null,
  ): Promise<{ ok: true; output: PollOutput } | { ok: false; error: string; aborted?: true }> {
    let modulePath: string;
    try {
      // Checked at every load: the file or a directory may have changed since the source was created.
      modulePath = await this.locations.resolve(config.modulePath);
    } catch (err) {
      if (err instanceof AppError) return { ok: false, error: bounded(`${err.code}: ${err.message}`) };
      throw err;
    }
    const outcome: ModuleOutcome = await runModuleJob(
      { op: 'poll', modulePath, moduleConfig: config.moduleConfig ?? null, cursor: cursor ?? null, configRef },
      this.limit(config),
      this.shutdown.signal,
    );
    if (!outcome.ok) return { ok: false, error: bounded(`${outcome.stage}: ${outcome.error}`), ...(outcome.stage === 'aborted' ? { aborted: true as const } : {}) };
    const parsed = PollResultSchema.safeParse(outcome.result);
    if (!parsed.success) {
      const first = parsed.error.issues[0]!;
      return { ok: false, error: bounded(`poll returned an invalid result at ${first.path.join('.') || '(root)'}: ${first.message}`) };
    }
    return { ok: true, output: { events: parsed.data.events, cursor: parsed.data.cursor ?? null } };
  }
}

export function bounded(text: string): string {
  return text.length <= MODULE_ERROR_MAX_CHARS ? text : `${text.slice(0, MODULE_ERROR_MAX_CHARS - 1)}…`;
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

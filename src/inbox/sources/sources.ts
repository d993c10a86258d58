/**
 * Sources (= streams; a source's id is its public stream id): one event stream per
 * `hostId`+`streamKind`+`streamKey` (CONTRACT.md section 9), of the host's type.
 *
 * Lifecycle (spec/inbox.md "States and transitions"), for managed remote sources:
 * - `active`: polled every `pollIntervalMs` (first poll one interval after creation/resume/start);
 * - `error`: the last module call failed (`error` says why); scheduled polls go on at the same
 *   interval, and the next successful poll makes the source `active` again;
 * - `paused`: no polling; binding and stream state kept. PATCH keeps it paused; POST poll runs one
 *   poll and keeps it paused; only resume leaves it (the normal ensure path).
 * - idle auto-pause: when the last subscription goes away, `idleState` is `waiting` until
 *   `pauseAt` (IDLE_AUTO_PAUSE_MS later), then the source is paused with `idleState.state =
 *   auto_paused`. A new subscription cancels the wait, or resumes an auto-paused source (never
 *   one paused by the operator).
 * `local_event` sources are always `active`: pause, resume and poll answer 409 source_not_managed.
 *
 * Managed sources are those of `remote_source` and `github` hosts (host-types.ts). Their module
 * gets the host's config and the credential the host or the source names (source-credentials.ts),
 * read from the credential store at each call; a named credential that is not stored puts the
 * source in `error` with a message naming the profile. A poll may ask for a wait (`notBefore`,
 * GitHub's rate limits): the next scheduled poll is not before it.
 */
import { KeyedSerial } from '../../core/serial.js';
import type { Clock } from '../../core/clock.js';
import { errorText } from '../../core/error-text.js';
import { AppError, errors } from '../../core/errors.js';
import type { IdGenerator } from '../../core/ids.js';
import type { Store } from '../../store/store.js';
import type { Logger } from 'pino';
import type { Host, HostService } from './hosts.js';
import { isManaged, MANAGED_HOST_TYPES, moduleSpecFor, sourceConfigSchema } from './host-types.js';
import type { JsonSchema } from './json-schema.js';
import { IDLE_AUTO_PAUSE_MS, RemoteSchedule, type ModuleSpec, type RemoteModules } from './remote-sources.js';
import type { CredentialResolution, SourceCredentials } from './credentials.js';
import type { SharedSource } from '../streams/types.js';
import { EventInputSchema, type AppendResult, type EventInput, type StreamService } from '../streams/streams.js';
import { z } from 'zod';
import { sourceView, type PollResult, type Source, type SourceDetail, type SourceRemoved, type SourceRow, type SourceSchema, type StreamDetail } from './records.js';

export interface SourceServiceDeps {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  hosts: HostService;
  streams: StreamService;
  modules: RemoteModules;
  /** The credential a module gets (host credentialRef, source configRef `credential:<profile>`). */
  credentials: SourceCredentials;
  /** Delay of the idle auto-pause (tests shorten it). */
  idleAutoPauseMs?: number;
}

const SELECT = `SELECT s.*, h.host_type FROM inbox_sources s JOIN inbox_hosts h ON h.host_id = s.host_id`;

/** The module outcome a managed source records (credential problems look the same as module failures). */
type Failure = { error: string };

export class SourceService {
  private readonly deletedListeners: Array<(sourceId: string) => void> = [];
  private readonly stmts;
  private readonly schedule: RemoteSchedule;
  /** Polls of one source run one after another. */
  private readonly polling = new KeyedSerial();
  /** Per source: the earliest time its module asked to be polled again (in memory; the module keeps its own). */
  private readonly notBefore = new Map<string, number>();
  private stopped = false;

  constructor(private readonly deps: SourceServiceDeps) {
    const db = deps.store.db;
    this.stmts = {
      byId: db.prepare<[string], SourceRow>(`${SELECT} WHERE s.source_id = ?`),
      byKey: db.prepare<[string, string, string], SourceRow>(`${SELECT} WHERE s.host_id = ? AND s.stream_kind = ? AND s.stream_key = ?`),
      all: db.prepare<[], SourceRow>(`${SELECT} ORDER BY s.seq`),
      byHost: db.prepare<[string], SourceRow>(`${SELECT} WHERE s.host_id = ? ORDER BY s.seq`),
      // Polled here: a shared source registered by another daemon is polled by that daemon.
      managed: db.prepare<[], SourceRow>(`${SELECT} WHERE h.host_type IN (${MANAGED_HOST_TYPES.map((t) => `'${t}'`).join(', ')}) AND s.origin IS NULL ORDER BY s.seq`),
      ids: db.prepare<[], { source_id: string }>('SELECT source_id FROM inbox_sources ORDER BY seq'),
      importRow: db.prepare(
        `INSERT INTO inbox_sources (source_id, host_id, stream_kind, stream_key, config_json, config_ref, state, created_ms, updated_ms, origin)
         VALUES (?, ?, ?, ?, ?, ?, 'active', ?, ?, ?) ON CONFLICT DO NOTHING`,
      ),
      insert: db.prepare(
        `INSERT INTO inbox_sources (source_id, host_id, stream_kind, stream_key, config_json, config_ref, state, created_ms, updated_ms)
         VALUES (?, ?, ?, ?, ?, ?, 'active', ?, ?) ON CONFLICT (host_id, stream_kind, stream_key) DO NOTHING`,
      ),
      update: db.prepare(
        `UPDATE inbox_sources SET config_json = ?, config_ref = ?, state = ?, error = ?, paused_by = ?, idle_since_ms = ?, updated_ms = ?
          WHERE source_id = ?`,
      ),
      setCursor: db.prepare('UPDATE inbox_sources SET cursor_json = ?, last_poll_ms = ? WHERE source_id = ?'),
      delete: db.prepare('DELETE FROM inbox_sources WHERE source_id = ?'),
    };
    this.schedule = new RemoteSchedule(deps.clock, {
      poll: (id) => void this.scheduledPoll(id),
      idle: (id) => this.idleDue(id),
    });
    deps.streams.setSourceGuard((id) => {
      if (!this.stmts.byId.get(id)) throw errors.sourceNotFound(id, { sourceId: id });
    });
  }

  private get idleMs(): number {
    return this.deps.idleAutoPauseMs ?? IDLE_AUTO_PAUSE_MS;
  }

  // --- reads ---------------------------------------------------------------------------------

  private row(sourceId: string): SourceRow {
    const row = this.stmts.byId.get(sourceId);
    if (!row) throw errors.sourceNotFound(sourceId, { sourceId });
    return row;
  }

  /** Throws 404 source_not_found. */
  get(sourceId: string): Source {
    return this.toSource(this.row(sourceId));
  }

  detail(sourceId: string): SourceDetail {
    return { ...this.get(sourceId), streamStats: this.deps.streams.stats(sourceId) };
  }

  /** The source behind a public stream id: 404 stream_not_found (stream routes). */
  streamSource(streamId: string): Source {
    const row = this.stmts.byId.get(streamId);
    if (!row) throw errors.streamNotFound(streamId, { streamId });
    return this.toSource(row);
  }

  streamDetail(streamId: string): StreamDetail {
    const src = this.streamSource(streamId);
    const backend = this.deps.streams.backend;
    return {
      streamId,
      sourceId: src.sourceId,
      hostId: src.hostId,
      sourceType: src.sourceType,
      streamKind: src.streamKind,
      streamKey: src.streamKey,
      state: src.state,
      backend: backend.name,
      compaction: backend.compaction !== undefined,
      idleState: src.idleState,
      streamStats: this.deps.streams.stats(streamId),
    };
  }

  list(filter: { hostId?: string } = {}): Source[] {
    const rows = filter.hostId ? this.stmts.byHost.all(filter.hostId) : this.stmts.all.all();
    return rows.map((r) => this.toSource(r));
  }

  /** A remote_source module is loaded (in a worker) for its configSchema, which is also set into configSchema. */
  async schema(sourceId: string): Promise<SourceSchema> {
    const source = this.get(sourceId);
    let configSchema = sourceConfigSchema(source.sourceType);
    let moduleConfigSchema: JsonSchema | null = null;
    let moduleError: string | null = null;
    if (source.sourceType === 'remote_source') {
      const spec = this.safeSpec(this.row(sourceId));
      const described = spec ? await this.deps.modules.describe(spec) : { schema: null, error: 'the stored config is not a valid remote_source config' };
      moduleConfigSchema = described.schema;
      moduleError = described.error;
      if (moduleConfigSchema) {
        const properties = (configSchema.properties ?? {}) as Record<string, unknown>;
        configSchema = { ...configSchema, properties: { ...properties, moduleConfig: moduleConfigSchema } };
      }
    }
    return {
      sourceId,
      sourceType: source.sourceType,
      configSchema,
      eventSchema: z.toJSONSchema(EventInputSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema,
      moduleConfigSchema,
      moduleError,
    };
  }

  // --- create, update, delete ----------------------------------------------------------------

  /**
   * New → created true; the same hostId+streamKind+streamKey → the existing source, created
   * false, unchanged. A managed source's config is checked first: a remote_source module is loaded
   * in a worker, moduleConfig checked against its configSchema and its `validate` run (400
   * invalid_source_config / invalid_source_module / invalid_request), a github config against the
   * github schema (400 invalid_request). A named credential that is not stored does not refuse the
   * source: it starts in `error`, naming the profile.
   */
  async create(input: { hostId: string; streamKind: string; streamKey: string; config?: Record<string, unknown>; configRef?: string | null }): Promise<{
    source: Source;
    created: boolean;
  }> {
    const host = this.deps.hosts.get(input.hostId);
    const existing = this.stmts.byKey.get(input.hostId, input.streamKind, input.streamKey);
    if (existing) return { source: this.toSource(existing), created: false };
    const config = input.config ?? {};
    const configRef = input.configRef ?? null;
    const credentialError = await this.checkManaged(host, input.streamKey, config, configRef);
    const now = this.deps.clock.now();
    const result = this.deps.store.tx(() => {
      const id = this.deps.ids.make('source');
      const info = this.stmts.insert.run(id, input.hostId, input.streamKind, input.streamKey, JSON.stringify(config), configRef, now, now);
      let row = this.stmts.byKey.get(input.hostId, input.streamKind, input.streamKey)!;
      if (info.changes === 1 && isManaged(row.host_type)) {
        // Nobody subscribes yet: the idle clock starts now, as if the last subscription had gone.
        this.write(row, credentialError !== null ? { state: 'error', error: credentialError, idle_since_ms: now } : { idle_since_ms: now });
        row = this.row(row.source_id);
        this.afterCommit(() => {
          this.ensure(id);
          this.schedule.idleAt(id, now + this.idleMs);
        });
      }
      return { source: this.toSource(row), created: info.changes === 1 };
    });
    if (result.created) await this.share(result.source.sourceId);
    return result;
  }

  /** A remote stream log (jetstream): create the source's stream there and tell the other daemons. */
  private async share(sourceId: string): Promise<void> {
    const remote = this.deps.streams.backend.remote;
    if (!remote) return;
    const row = this.row(sourceId);
    const host = this.deps.hosts.get(row.host_id);
    await remote.created({
      sourceId,
      hostId: host.hostId,
      hostType: host.hostType,
      hostKey: host.hostKey,
      hostConfig: host.config,
      streamKind: row.stream_kind,
      streamKey: row.stream_key,
      config: JSON.parse(row.config_json) as Record<string, unknown>,
      configRef: row.config_ref,
      createdMs: row.created_ms,
      origin: remote.origin,
    });
  }

  /**
   * A source another daemon registered (the shared stream catalogue): stored with its id and
   * origin. False when this daemon has another source for the same host, kind and key.
   */
  importShared(shared: SharedSource): boolean {
    return this.deps.store.tx(() => {
      const hostId = this.deps.hosts.importShared({ hostId: shared.hostId, hostType: shared.hostType, hostKey: shared.hostKey, config: shared.hostConfig, createdMs: shared.createdMs });
      const now = this.deps.clock.now();
      this.stmts.importRow.run(shared.sourceId, hostId, shared.streamKind, shared.streamKey, JSON.stringify(shared.config), shared.configRef, shared.createdMs, now, shared.origin);
      const row = this.stmts.byId.get(shared.sourceId);
      if (!row) this.deps.logger.warn({ sourceId: shared.sourceId, hostId, streamKind: shared.streamKind, streamKey: shared.streamKey }, 'inbox.streams: a shared source conflicts with a source of this daemon; not imported');
      return row !== undefined;
    });
  }

  /** Ids of every source (shared ones included). */
  ids(): string[] {
    return this.stmts.ids.all().map((r) => r.source_id);
  }

  has(sourceId: string): boolean {
    return this.stmts.byId.get(sourceId) !== undefined;
  }

  /**
   * PATCH: `config` and/or `configRef`. Active and error sources are re-ensured (a remote one is
   * validated again and becomes active); a paused source stays paused until resumed.
   */
  async update(sourceId: string, patch: { config?: Record<string, unknown>; configRef?: string | null }): Promise<Source> {
    const before = this.row(sourceId);
    const config = patch.config ?? (JSON.parse(before.config_json) as Record<string, unknown>);
    const configRef = patch.configRef !== undefined ? patch.configRef : before.config_ref;
    const credentialError = await this.checkManaged(this.deps.hosts.get(before.host_id), before.stream_key, config, configRef);
    return this.deps.store.tx(() => {
      const row = this.row(sourceId);
      const paused = row.state === 'paused';
      const state = paused ? 'paused' : credentialError !== null ? 'error' : 'active';
      this.write(row, { config_json: JSON.stringify(config), config_ref: configRef, state, error: paused ? row.error : credentialError });
      if (!paused && isManaged(row.host_type)) this.afterCommit(() => this.ensure(sourceId));
      return this.get(sourceId);
    });
  }

  /** Removes the source, its stream and (through onDeleted listeners) its subscriptions. */
  delete(sourceId: string): { sourceId: string; deleted: true } {
    this.deps.store.tx(() => {
      this.row(sourceId);
      for (const listener of this.deletedListeners) listener(sourceId);
      this.deps.streams.backend.drop(sourceId);
      this.stmts.delete.run(sourceId);
      this.afterCommit(() => {
        this.schedule.cancelPoll(sourceId);
        this.schedule.cancelIdle(sourceId);
        this.notBefore.delete(sourceId);
      });
    });
    return { sourceId, deleted: true };
  }

  /**
   * DELETE /sources/{id}, as AgentInbox's `source remove [--with-subscriptions]` expects it: a
   * source that still has subscriptions is kept (409 source_has_subscriptions) unless
   * `withSubscriptions`, which removes them with it. `pausedSource`: a managed remote source
   * stopped polling as part of removing it with its subscriptions (AgentInbox pauses it first).
   */
  remove(sourceId: string, opts: { withSubscriptions?: boolean | undefined } = {}): SourceRemoved {
    return this.deps.store.tx(() => {
      const row = this.row(sourceId);
      const subscriptions = this.deps.streams.consumers(sourceId);
      if (subscriptions > 0 && !opts.withSubscriptions) throw errors.sourceHasSubscriptions(sourceId, subscriptions);
      this.delete(sourceId);
      const pausedSource = Boolean(opts.withSubscriptions) && isManaged(row.host_type);
      return { sourceId, deleted: true, removed: true, removedSubscriptions: subscriptions, pausedSource };
    });
  }

  /** Called inside the delete transaction. */
  onDeleted(listener: (sourceId: string) => void): void {
    this.deletedListeners.push(listener);
  }

  // --- events --------------------------------------------------------------------------------

  /** Manual append: local_event sources only (else 409 manual_append_unsupported). */
  async appendEvents(sourceId: string, events: EventInput[]): Promise<AppendResult> {
    const row = this.row(sourceId);
    if (row.host_type !== 'local_event') throw errors.manualAppendUnsupported(sourceId, row.host_type);
    return this.deps.streams.append(sourceId, events);
  }

  /**
   * Check a managed source's config (throws 400s, see create) and resolve its credential: the
   * error message when the named credential cannot be had, else null. Nothing for local_event.
   */
  private async checkManaged(host: Host, streamKey: string, config: Record<string, unknown>, configRef: string | null): Promise<string | null> {
    const spec = moduleSpecFor(host.hostType, streamKey, config);
    if (!spec) return null;
    const resolved = this.deps.credentials.resolve(host, configRef);
    // svc's own modules are checked by their schema (moduleSpecFor); user modules load and validate.
    if (spec.builtin === null) await this.deps.modules.check(spec, { hostConfig: host.config, credential: resolved.ok ? resolved.credential : null });
    return resolved.ok ? null : errorText(resolved.error);
  }

  // --- managed remote sources: pause, resume, poll -------------------------------------------

  private managed(sourceId: string): SourceRow {
    const row = this.row(sourceId);
    if (!isManaged(row.host_type)) throw errors.sourceNotManaged(sourceId, row.host_type);
    return row;
  }

  /**
   * Stops polling; binding, cursor and stream kept. Pausing a paused source changes nothing. The
   * idle clock is kept (resume continues it), only its timer stops.
   */
  pause(sourceId: string): Source {
    return this.deps.store.tx(() => {
      const row = this.managed(sourceId);
      if (row.state !== 'paused' || row.paused_by !== 'user') this.write(row, { state: 'paused', paused_by: 'user' });
      this.afterCommit(() => {
        this.schedule.cancelPoll(sourceId);
        this.schedule.cancelIdle(sourceId);
      });
      return this.get(sourceId);
    });
  }

  /**
   * The normal ensure path: active, error cleared, polling scheduled. Without subscriptions the
   * idle clock goes on where a manual pause left it (a wait already over pauses the source again
   * at once); a source the idle auto-pause had paused gets a fresh wait.
   */
  resume(sourceId: string): Source {
    return this.deps.store.tx(() => {
      const row = this.managed(sourceId);
      const now = this.deps.clock.now();
      const idleSince = this.deps.streams.consumers(sourceId) > 0 ? null : row.paused_by === 'idle' ? now : (row.idle_since_ms ?? now);
      this.write(row, { state: 'active', error: null, paused_by: null, idle_since_ms: idleSince });
      this.afterCommit(() => {
        this.schedule.cancelIdle(sourceId);
        this.ensure(sourceId);
        if (idleSince !== null) this.schedule.idleAt(sourceId, idleSince + this.idleMs);
      });
      return this.get(sourceId);
    });
  }

  /**
   * Run one poll now (after any poll in flight). It does not resume a paused source. A failed
   * module call marks the source `error` and answers 502 source_poll_failed.
   */
  async poll(sourceId: string): Promise<PollResult> {
    this.managed(sourceId);
    const result = await this.polling.run(sourceId, () => this.pollOnce(sourceId));
    if ('error' in result) throw errors.sourcePollFailed(sourceId, result.error);
    return result;
  }

  private async pollOnce(sourceId: string): Promise<PollResult | Failure> {
    const row = this.row(sourceId);
    const spec = moduleSpecFor(row.host_type, row.stream_key, JSON.parse(row.config_json) as Record<string, unknown>)!;
    const host = this.deps.hosts.get(row.host_id);
    const resolved: CredentialResolution = this.deps.credentials.resolve(host, row.config_ref);
    if (!resolved.ok) return this.markError(sourceId, resolved.error);
    const cursor = row.cursor_json === null ? null : JSON.parse(row.cursor_json);
    const outcome = await this.deps.modules.poll(spec, cursor, row.config_ref, { hostConfig: host.config, credential: resolved.credential, now: this.deps.clock.now() });
    // A poll cut short by shutdown says nothing about the module: the source keeps its state.
    if (!outcome.ok && outcome.aborted) throw errors.shuttingDown();
    if (!outcome.ok) return this.markError(sourceId, outcome.error);
    if (outcome.output.notBefore !== null) this.notBefore.set(sourceId, outcome.output.notBefore);
    else this.notBefore.delete(sourceId);
    let appended: AppendResult;
    try {
      appended = await this.deps.streams.append(sourceId, outcome.output.events, () => {
        const now = this.deps.clock.now();
        this.stmts.setCursor.run(JSON.stringify(outcome.output.cursor ?? null), now, sourceId);
        const current = this.row(sourceId);
        if (current.state === 'error' || current.error !== null) {
          this.write(current, { state: current.state === 'paused' ? 'paused' : 'active', error: null });
        }
      });
    } catch (err) {
      if (err instanceof AppError && err.code === 'invalid_request') return this.markError(sourceId, `poll returned an invalid event: ${err.message}`);
      throw err;
    }
    return { sourceId, appended: appended.appended, deduped: appended.deduped, state: this.row(sourceId).state };
  }

  /** The message is stored, logged and answered (502) as one safe line (core/error-text.ts). */
  private markError(sourceId: string, message: string): Failure {
    const error = errorText(message);
    this.deps.store.tx(() => {
      const row = this.stmts.byId.get(sourceId);
      if (!row) return;
      // A paused source stays paused; the failure is still recorded.
      this.write(row, { state: row.state === 'paused' ? 'paused' : 'error', error });
    });
    this.deps.logger.warn({ sourceId, err: error }, 'remote source poll failed');
    return { error };
  }

  /** Scheduled polls: only while the source is active (or in error); the next one is scheduled after. */
  private async scheduledPoll(sourceId: string): Promise<void> {
    const row = this.stmts.byId.get(sourceId);
    if (!row || row.state === 'paused' || this.stopped) return;
    try {
      await this.polling.run(sourceId, () => this.pollOnce(sourceId));
    } catch (err) {
      const expected = err instanceof AppError && (err.code === 'source_not_found' || err.code === 'shutting_down');
      if (!expected) this.deps.logger.error({ err, sourceId }, 'remote source poll crashed');
    }
    if (!this.stopped) this.ensure(sourceId);
  }

  /** Schedule the next poll of a managed source that is not paused: one interval from now, and not before a wait its module asked for. */
  private ensure(sourceId: string): void {
    const row = this.stmts.byId.get(sourceId);
    if (!row || !isManaged(row.host_type) || row.state === 'paused' || this.stopped) return;
    const spec = this.safeSpec(row);
    if (!spec) return;
    this.schedule.pollAt(sourceId, Math.max(this.deps.clock.now() + spec.pollIntervalMs, this.notBefore.get(sourceId) ?? 0));
  }

  // --- idle auto-pause -----------------------------------------------------------------------

  /** Subscriptions call this after creating/removing subscriptions on the source. */
  subscriptionsChanged(sourceId: string, remaining: number): void {
    const row = this.stmts.byId.get(sourceId);
    if (!row || !isManaged(row.host_type)) return;
    this.deps.store.tx(() => {
      const now = this.deps.clock.now();
      if (remaining > 0) {
        if (row.state === 'paused' && row.paused_by === 'idle') {
          this.write(row, { state: 'active', error: null, paused_by: null, idle_since_ms: null });
          this.afterCommit(() => this.ensure(sourceId));
        } else if (row.idle_since_ms !== null) {
          this.write(row, { idle_since_ms: null });
          this.afterCommit(() => this.schedule.cancelIdle(sourceId));
        }
      } else if (row.state !== 'paused' && row.idle_since_ms === null) {
        this.write(row, { idle_since_ms: now });
        this.afterCommit(() => this.schedule.idleAt(sourceId, now + this.idleMs));
      }
    });
  }

  private idleDue(sourceId: string): void {
    this.deps.store.tx(() => {
      const row = this.stmts.byId.get(sourceId);
      if (!row || row.state === 'paused' || row.idle_since_ms === null) return;
      if (this.deps.streams.consumers(sourceId) > 0) {
        this.write(row, { idle_since_ms: null });
        return;
      }
      this.write(row, { state: 'paused', paused_by: 'idle' });
      this.afterCommit(() => this.schedule.cancelPoll(sourceId));
    });
  }

  // --- lifecycle -----------------------------------------------------------------------------

  /**
   * Schedule polls of active remote sources and pending idle auto-pauses; an active source without
   * subscriptions and without an idle clock (kept by an older svc) starts one now.
   */
  start(): void {
    const now = this.deps.clock.now();
    for (const row of this.stmts.managed.all()) {
      if (row.state === 'paused') continue;
      let idleSince = row.idle_since_ms;
      if (idleSince === null && this.deps.streams.consumers(row.source_id) === 0) {
        idleSince = now;
        this.deps.store.tx(() => this.write(row, { idle_since_ms: now }));
      }
      this.ensure(row.source_id);
      if (idleSince !== null) this.schedule.idleAt(row.source_id, idleSince + this.idleMs);
    }
  }

  /** Stop scheduling, end module calls in flight (their workers are terminated) and wait for them. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.schedule.stop();
    this.deps.modules.stop();
    await this.polling.idle();
  }

  /** Run what is due on the clock now (tests, after moving a ManualClock). */
  runDue(): void {
    this.schedule.wake();
  }

  // --- helpers -------------------------------------------------------------------------------

  private write(row: SourceRow, change: Partial<Pick<SourceRow, 'config_json' | 'config_ref' | 'state' | 'error' | 'paused_by' | 'idle_since_ms'>>): void {
    const next = { ...row, ...change };
    this.stmts.update.run(next.config_json, next.config_ref, next.state, next.error, next.paused_by, next.idle_since_ms, this.deps.clock.now(), row.source_id);
  }

  /** The module of a stored config, or null when the config no longer parses. */
  private safeSpec(row: SourceRow): ModuleSpec | null {
    try {
      return moduleSpecFor(row.host_type, row.stream_key, JSON.parse(row.config_json) as Record<string, unknown>);
    } catch {
      return null;
    }
  }

  private afterCommit(fn: () => void): void {
    if (this.deps.store.inTransaction) this.deps.store.afterCommit(fn);
    else fn();
  }

  private toSource(r: SourceRow): Source {
    return sourceView(r, this.idleMs);
  }
}

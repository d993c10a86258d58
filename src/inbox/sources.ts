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
 */
import { KeyedSerial } from '../core/serial.js';
import { isoAt, type Clock } from '../core/clock.js';
import { AppError, errors } from '../core/errors.js';
import type { IdGenerator } from '../core/ids.js';
import type { Store } from '../store/store.js';
import type { Logger } from 'pino';
import { sourceConfigJsonSchema, type HostService, type HostType } from './hosts.js';
import {
  bounded,
  IDLE_AUTO_PAUSE_MS,
  parseRemoteConfig,
  pollIntervalOf,
  RemoteSchedule,
  type RemoteModules,
} from './remote-sources.js';
import type { StreamStats } from './stream-backend.js';
import { EventInputSchema, type AppendResult, type EventInput, type StreamService } from './streams.js';
import { z } from 'zod';

export type SourceState = 'active' | 'paused' | 'error';

/** Managed remote sources only: `waiting` for auto-pause after the last subscription went away, or `auto_paused`. */
export interface IdleState {
  state: 'waiting' | 'auto_paused';
  since: string;
  pauseAt: string | null;
}

export interface Source {
  sourceId: string;
  hostId: string;
  sourceType: HostType;
  streamKind: string;
  streamKey: string;
  config: Record<string, unknown>;
  configRef: string | null;
  state: SourceState;
  error: string | null;
  idleState: IdleState | null;
  /** remote_source only: the cursor the module returned last (null before the first poll). */
  cursor?: unknown;
  createdAt: string;
  updatedAt: string;
}

export interface SourceDetail extends Source {
  streamStats: StreamStats | null;
}

export interface StreamDetail extends Pick<Source, 'sourceId' | 'hostId' | 'sourceType' | 'streamKind' | 'streamKey' | 'state' | 'idleState'> {
  streamId: string;
  backend: string;
  compaction: boolean;
  streamStats: StreamStats | null;
}

export interface SourceSchema {
  sourceId: string;
  sourceType: HostType;
  configSchema: Record<string, unknown>;
  eventSchema: Record<string, unknown>;
}

export interface PollResult {
  sourceId: string;
  appended: number;
  deduped: number;
  state: SourceState;
}

interface SourceRow {
  source_id: string;
  host_id: string;
  host_type: HostType;
  stream_kind: string;
  stream_key: string;
  config_json: string;
  config_ref: string | null;
  state: SourceState;
  error: string | null;
  paused_by: 'user' | 'idle' | null;
  idle_since_ms: number | null;
  cursor_json: string | null;
  created_ms: number;
  updated_ms: number;
}

export interface SourceRemoved {
  sourceId: string;
  deleted: true;
  /** AgentInbox's answer fields. */
  removed: true;
  removedSubscriptions: number;
  pausedSource: boolean;
}

export interface SourceServiceDeps {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  hosts: HostService;
  streams: StreamService;
  modules: RemoteModules;
  /** Delay of the idle auto-pause (tests shorten it). */
  idleAutoPauseMs?: number;
}

const SELECT = `SELECT s.*, h.host_type FROM inbox_sources s JOIN inbox_hosts h ON h.host_id = s.host_id`;

export class SourceService {
  private readonly deletedListeners: Array<(sourceId: string) => void> = [];
  private readonly stmts;
  private readonly schedule: RemoteSchedule;
  /** Per source: the poll in flight; the next one waits for it (one module call at a time). */
  /** Polls of one source run one after another. */
  private readonly polling = new KeyedSerial();
  private stopped = false;

  constructor(private readonly deps: SourceServiceDeps) {
    const db = deps.store.db;
    this.stmts = {
      byId: db.prepare<[string], SourceRow>(`${SELECT} WHERE s.source_id = ?`),
      byKey: db.prepare<[string, string, string], SourceRow>(`${SELECT} WHERE s.host_id = ? AND s.stream_kind = ? AND s.stream_key = ?`),
      all: db.prepare<[], SourceRow>(`${SELECT} ORDER BY s.seq`),
      byHost: db.prepare<[string], SourceRow>(`${SELECT} WHERE s.host_id = ? ORDER BY s.seq`),
      remote: db.prepare<[], SourceRow>(`${SELECT} WHERE h.host_type = 'remote_source' ORDER BY s.seq`),
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

  schema(sourceId: string): SourceSchema {
    const source = this.get(sourceId);
    return {
      sourceId,
      sourceType: source.sourceType,
      configSchema: sourceConfigJsonSchema(source.sourceType),
      eventSchema: z.toJSONSchema(EventInputSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
    };
  }

  // --- create, update, delete ----------------------------------------------------------------

  /**
   * New → created true; the same hostId+streamKind+streamKey → the existing source, created
   * false, unchanged. A remote_source config is validated and its module loaded (and its
   * `validate` run) in a worker first: 400 invalid_source_config / invalid_source_module.
   */
  async create(input: { hostId: string; streamKind: string; streamKey: string; config?: Record<string, unknown>; configRef?: string | null }): Promise<{
    source: Source;
    created: boolean;
  }> {
    const host = this.deps.hosts.get(input.hostId);
    const existing = this.stmts.byKey.get(input.hostId, input.streamKind, input.streamKey);
    if (existing) return { source: this.toSource(existing), created: false };
    const config = input.config ?? {};
    if (host.hostType === 'remote_source') await this.deps.modules.check(parseRemoteConfig(config));
    const now = this.deps.clock.now();
    return this.deps.store.tx(() => {
      const id = this.deps.ids.make('source');
      const info = this.stmts.insert.run(id, input.hostId, input.streamKind, input.streamKey, JSON.stringify(config), input.configRef ?? null, now, now);
      let row = this.stmts.byKey.get(input.hostId, input.streamKind, input.streamKey)!;
      if (info.changes === 1 && row.host_type === 'remote_source') {
        // Nobody subscribes yet: the idle clock starts now, as if the last subscription had gone.
        this.write(row, { idle_since_ms: now });
        row = this.row(row.source_id);
        this.afterCommit(() => {
          this.ensure(id);
          this.schedule.idleAt(id, now + this.idleMs);
        });
      }
      return { source: this.toSource(row), created: info.changes === 1 };
    });
  }

  /**
   * PATCH: `config` and/or `configRef`. Active and error sources are re-ensured (a remote one is
   * validated again and becomes active); a paused source stays paused until resumed.
   */
  async update(sourceId: string, patch: { config?: Record<string, unknown>; configRef?: string | null }): Promise<Source> {
    const before = this.row(sourceId);
    const config = patch.config ?? (JSON.parse(before.config_json) as Record<string, unknown>);
    if (before.host_type === 'remote_source') await this.deps.modules.check(parseRemoteConfig(config));
    return this.deps.store.tx(() => {
      const row = this.row(sourceId);
      const configRef = patch.configRef !== undefined ? patch.configRef : row.config_ref;
      const paused = row.state === 'paused';
      this.write(row, { config_json: JSON.stringify(config), config_ref: configRef, state: paused ? 'paused' : 'active', error: paused ? row.error : null });
      if (!paused && row.host_type === 'remote_source') this.afterCommit(() => this.ensure(sourceId));
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
      const pausedSource = Boolean(opts.withSubscriptions) && row.host_type === 'remote_source';
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

  // --- managed remote sources: pause, resume, poll -------------------------------------------

  private managed(sourceId: string): SourceRow {
    const row = this.row(sourceId);
    if (row.host_type !== 'remote_source') throw errors.sourceNotManaged(sourceId, row.host_type);
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

  private async pollOnce(sourceId: string): Promise<PollResult | { error: string }> {
    const row = this.row(sourceId);
    const config = parseRemoteConfig(JSON.parse(row.config_json));
    const cursor = row.cursor_json === null ? null : JSON.parse(row.cursor_json);
    const outcome = await this.deps.modules.poll(config, cursor, row.config_ref);
    // A poll cut short by shutdown says nothing about the module: the source keeps its state.
    if (!outcome.ok && outcome.aborted) throw errors.shuttingDown();
    if (!outcome.ok) return this.markError(sourceId, outcome.error);
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

  /** The message is stored, logged and answered (502) at most MODULE_ERROR_MAX_CHARS long. */
  private markError(sourceId: string, message: string): { error: string } {
    const error = bounded(message);
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

  /** Schedule the next poll of a remote source that is not paused (one interval from now). */
  private ensure(sourceId: string): void {
    const row = this.stmts.byId.get(sourceId);
    if (!row || row.host_type !== 'remote_source' || row.state === 'paused' || this.stopped) return;
    const config = safeRemoteConfig(row.config_json);
    if (!config) return;
    this.schedule.pollAt(sourceId, this.deps.clock.now() + pollIntervalOf(config));
  }

  // --- idle auto-pause -----------------------------------------------------------------------

  /** Subscriptions call this after creating/removing subscriptions on the source. */
  subscriptionsChanged(sourceId: string, remaining: number): void {
    const row = this.stmts.byId.get(sourceId);
    if (!row || row.host_type !== 'remote_source') return;
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
    for (const row of this.stmts.remote.all()) {
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

  private afterCommit(fn: () => void): void {
    if (this.deps.store.inTransaction) this.deps.store.afterCommit(fn);
    else fn();
  }

  private toSource(r: SourceRow): Source {
    const source: Source = {
      sourceId: r.source_id,
      hostId: r.host_id,
      sourceType: r.host_type,
      streamKind: r.stream_kind,
      streamKey: r.stream_key,
      config: JSON.parse(r.config_json) as Record<string, unknown>,
      configRef: r.config_ref,
      state: r.state,
      error: r.error,
      idleState: null,
      createdAt: isoAt(r.created_ms),
      updatedAt: isoAt(r.updated_ms),
    };
    if (r.host_type !== 'remote_source') return source;
    if (r.state === 'paused' && r.paused_by === 'idle') {
      source.idleState = { state: 'auto_paused', since: isoAt(r.idle_since_ms ?? r.updated_ms), pauseAt: null };
    } else if (r.idle_since_ms !== null && r.state !== 'paused') {
      source.idleState = { state: 'waiting', since: isoAt(r.idle_since_ms), pauseAt: isoAt(r.idle_since_ms + this.idleMs) };
    }
    source.cursor = r.cursor_json === null ? null : JSON.parse(r.cursor_json);
    return source;
  }
}

function safeRemoteConfig(json: string) {
  try {
    return parseRemoteConfig(JSON.parse(json));
  } catch {
    return null;
  }
}

/**
 * The polling of managed sources (those of `remote_source` and `github` hosts): the schedule of
 * their polls and idle auto-pauses, pause, resume, a poll now, and the states a poll leaves
 * (spec/inbox.md "States and transitions"; sources.ts describes them). A poll calls the source's
 * module (remote-sources.ts) with the host's config and the credential named for it
 * (credentials.ts), appends what it returns and stores its cursor in the append's transaction. A
 * poll may ask for a wait (`notBefore`, GitHub's rate limits): the next scheduled poll is not
 * before it. Polls of one source run one after another.
 */
import type { Logger } from 'pino';
import { type Clock, errorText, AppError, errors, KeyedSerial } from '../../core/index.js';
import type { Store } from '../../store/index.js';
import type { AppendResult, StreamService } from '../streams/index.js';
import type { SourceCredentials, CredentialResolution } from './credentials.js';
import { isManaged, MANAGED_HOST_TYPES, moduleSpecFor } from './host-types.js';
import type { HostService } from './hosts.js';
import { SELECT_SOURCE, sourceView, type PollResult, type Source, type SourceRow, type SourceRows } from './records.js';
import { RemoteSchedule, type ModuleSpec, type RemoteModules } from './remote-sources.js';

export interface ManagedSourcesDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  hosts: HostService;
  streams: StreamService;
  modules: RemoteModules;
  credentials: SourceCredentials;
  rows: SourceRows;
  /** Delay of the idle auto-pause. */
  idleMs: number;
}

/** The module outcome a managed source records (credential problems look the same as module failures). */
type Failure = { error: string };

export class ManagedSources {
  private readonly stmts;
  /** The timers: polls and idle auto-pauses, by source. */
  readonly schedule: RemoteSchedule;
  /** Polls of one source run one after another. */
  private readonly polling = new KeyedSerial();
  /** Per source: the earliest time its module asked to be polled again (in memory; the module keeps its own). */
  private readonly notBefore = new Map<string, number>();
  private stopped = false;

  constructor(private readonly deps: ManagedSourcesDeps) {
    const db = deps.store.db;
    this.stmts = {
      // Polled here: a shared source registered by another daemon is polled by that daemon.
      managed: db.prepare<[], SourceRow>(`${SELECT_SOURCE} WHERE h.host_type IN (${MANAGED_HOST_TYPES.map((t) => `'${t}'`).join(', ')}) AND s.origin IS NULL ORDER BY s.seq`),
      setCursor: db.prepare('UPDATE inbox_sources SET cursor_json = ?, last_poll_ms = ? WHERE source_id = ?'),
    };
    this.schedule = new RemoteSchedule(deps.clock, {
      poll: (id) => void this.scheduledPoll(id),
      idle: (id) => this.idleDue(id),
    });
  }

  // --- the source service's changes ------------------------------------------------------------

  /** A new managed source: polls scheduled, and the idle clock started at `now` (nobody subscribes yet). */
  created(sourceId: string, now: number): void {
    this.ensure(sourceId);
    this.schedule.idleAt(sourceId, now + this.deps.idleMs);
  }

  /** A changed config: the next poll is scheduled again (unless the source is paused). */
  changed(sourceId: string): void {
    this.ensure(sourceId);
  }

  /** A deleted source: nothing of it stays scheduled. */
  forget(sourceId: string): void {
    this.schedule.cancelPoll(sourceId);
    this.schedule.cancelIdle(sourceId);
    this.notBefore.delete(sourceId);
  }

  // --- pause, resume, poll ---------------------------------------------------------------------

  private managed(sourceId: string): SourceRow {
    const row = this.deps.rows.get(sourceId);
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
      if (row.state !== 'paused' || row.paused_by !== 'user') this.deps.rows.write(row, { state: 'paused', paused_by: 'user' });
      this.deps.rows.afterCommit(() => {
        this.schedule.cancelPoll(sourceId);
        this.schedule.cancelIdle(sourceId);
      });
      return this.view(sourceId);
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
      this.deps.rows.write(row, { state: 'active', error: null, paused_by: null, idle_since_ms: idleSince });
      this.deps.rows.afterCommit(() => {
        this.schedule.cancelIdle(sourceId);
        this.ensure(sourceId);
        if (idleSince !== null) this.schedule.idleAt(sourceId, idleSince + this.deps.idleMs);
      });
      return this.view(sourceId);
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
    const row = this.deps.rows.get(sourceId);
    const spec = moduleSpecFor(row.host_type, row.stream_kind, row.stream_key, JSON.parse(row.config_json) as Record<string, unknown>)!;
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
        const current = this.deps.rows.get(sourceId);
        if (current.state === 'error' || current.error !== null) {
          this.deps.rows.write(current, { state: current.state === 'paused' ? 'paused' : 'active', error: null });
        }
      });
    } catch (err) {
      if (err instanceof AppError && err.code === 'invalid_request') return this.markError(sourceId, `poll returned an invalid event: ${err.message}`);
      throw err;
    }
    const after = this.view(sourceId);
    const note = after.state === 'paused' ? 'polled once; the source stays paused' : 'polled once';
    return { sourceId, sourceType: after.sourceType, appended: appended.appended, deduped: appended.deduped, eventsRead: outcome.output.events.length, note, state: after.state };
  }

  /** The message is stored, logged and answered (502) as one safe line (core/error-text.ts). */
  private markError(sourceId: string, message: string): Failure {
    const error = errorText(message);
    this.deps.store.tx(() => {
      const row = this.deps.rows.find(sourceId);
      if (!row) return;
      // A paused source stays paused; the failure is still recorded.
      this.deps.rows.write(row, { state: row.state === 'paused' ? 'paused' : 'error', error });
    });
    this.deps.logger.warn({ sourceId, err: error }, 'remote source poll failed');
    return { error };
  }

  /** Scheduled polls: only while the source is active (or in error); the next one is scheduled after. */
  private async scheduledPoll(sourceId: string): Promise<void> {
    const row = this.deps.rows.find(sourceId);
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
    const row = this.deps.rows.find(sourceId);
    if (!row || !isManaged(row.host_type) || row.state === 'paused' || this.stopped) return;
    const spec = storedModuleSpec(row);
    if (!spec) return;
    this.schedule.pollAt(sourceId, Math.max(this.deps.clock.now() + spec.pollIntervalMs, this.notBefore.get(sourceId) ?? 0));
  }

  // --- idle auto-pause -------------------------------------------------------------------------

  /** Subscriptions call this after creating/removing subscriptions on the source. */
  subscriptionsChanged(sourceId: string, remaining: number): void {
    const row = this.deps.rows.find(sourceId);
    if (!row || !isManaged(row.host_type)) return;
    const { rows } = this.deps;
    this.deps.store.tx(() => {
      const now = this.deps.clock.now();
      if (remaining > 0) {
        if (row.state === 'paused' && row.paused_by === 'idle') {
          rows.write(row, { state: 'active', error: null, paused_by: null, idle_since_ms: null });
          rows.afterCommit(() => this.ensure(sourceId));
        } else if (row.idle_since_ms !== null) {
          rows.write(row, { idle_since_ms: null });
          rows.afterCommit(() => this.schedule.cancelIdle(sourceId));
        }
      } else if (row.state !== 'paused' && row.idle_since_ms === null) {
        rows.write(row, { idle_since_ms: now });
        rows.afterCommit(() => this.schedule.idleAt(sourceId, now + this.deps.idleMs));
      }
    });
  }

  private idleDue(sourceId: string): void {
    const { rows } = this.deps;
    this.deps.store.tx(() => {
      const row = rows.find(sourceId);
      if (!row || row.state === 'paused' || row.idle_since_ms === null) return;
      if (this.deps.streams.consumers(sourceId) > 0) {
        rows.write(row, { idle_since_ms: null });
        return;
      }
      rows.write(row, { state: 'paused', paused_by: 'idle' });
      rows.afterCommit(() => this.schedule.cancelPoll(sourceId));
    });
  }

  // --- lifecycle -------------------------------------------------------------------------------

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
        this.deps.store.tx(() => this.deps.rows.write(row, { idle_since_ms: now }));
      }
      this.ensure(row.source_id);
      if (idleSince !== null) this.schedule.idleAt(row.source_id, idleSince + this.deps.idleMs);
    }
  }

  /** Stop scheduling, end module calls in flight (their workers are terminated) and wait for them. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.schedule.stop();
    this.deps.modules.stop();
    await this.polling.idle();
  }

  private view(sourceId: string): Source {
    return sourceView(this.deps.rows.get(sourceId), this.deps.idleMs);
  }
}

/** The module of a stored config, or null when the config no longer parses. */
export function storedModuleSpec(row: SourceRow): ModuleSpec | null {
  try {
    return moduleSpecFor(row.host_type, row.stream_kind, row.stream_key, JSON.parse(row.config_json) as Record<string, unknown>);
  } catch {
    return null;
  }
}

/**
 * Sources (= streams; a source's id is its public stream id): one event stream per
 * `hostId`+`streamKind`+`streamKey` (docs/inbox-api.md#hosts-and-sources), of the host's type.
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
 * `local_event` sources are always `active`: pause and resume answer 409 source_not_managed, poll
 * answers that nothing polls them (AgentInbox's answer).
 *
 * Managed sources are those of `remote_source` and `github` hosts (host-types.ts); their polling,
 * pause, resume and idle auto-pause are polling.ts. Their module gets the host's config and the
 * credential the host or the source names (credentials.ts), read from the credential store at each
 * call; a named credential that is not stored puts the source in `error` with a message naming the
 * profile.
 */
import type { Logger } from 'pino';
import { type Clock, errorText, errors, type IdGenerator } from '../../core/index.js';
import type { Store } from '../../store/index.js';
import type { AppendResult, EventInput, SharedSource, StreamService } from '../streams/index.js';
import type { SourceCredentials } from './credentials.js';
import { expandShortcut, type PlannedSubscription } from './follow-templates.js';
import { isManaged, moduleSpecFor } from './host-types.js';
import type { Host, HostService } from './hosts.js';
import type { JsonSchema } from './json-schema.js';
import { ManagedSources, storedModuleSpec } from './polling.js';
import { SELECT_SOURCE, SourceRows, sourceView, type PollResult, type Source, type SourceRemoved, type SourceRow, type SourceSchema } from './records.js';
import { IDLE_AUTO_PAUSE_MS, type RemoteModules, type RemoteSchedule } from './remote-sources.js';
import { resolvedIdentity } from './source-kinds.js';
import { previewSchema, schemaOf, type PreviewInput, type SchemaPreview } from './source-schemas.js';
import { agentInboxIdleState, sourceRuntime, streamRecord, type HostDetail, type SourceDetail, type SourceRuntime } from './source-views.js';

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

export class SourceService {
  private readonly deletedListeners: Array<(sourceId: string) => void> = [];
  private readonly stmts;
  private readonly rows: SourceRows;
  private readonly managed: ManagedSources;

  constructor(private readonly deps: SourceServiceDeps) {
    const db = deps.store.db;
    this.stmts = {
      byKey: db.prepare<[string, string, string], SourceRow>(`${SELECT_SOURCE} WHERE s.host_id = ? AND s.stream_kind = ? AND s.stream_key = ?`),
      all: db.prepare<[], SourceRow>(`${SELECT_SOURCE} ORDER BY s.seq`),
      byHost: db.prepare<[string], SourceRow>(`${SELECT_SOURCE} WHERE s.host_id = ? ORDER BY s.seq`),
      ids: db.prepare<[], { source_id: string }>('SELECT source_id FROM inbox_sources ORDER BY seq'),
      importRow: db.prepare(
        `INSERT INTO inbox_sources (source_id, host_id, stream_kind, stream_key, config_json, config_ref, state, created_ms, updated_ms, origin)
         VALUES (?, ?, ?, ?, ?, ?, 'active', ?, ?, ?) ON CONFLICT DO NOTHING`,
      ),
      insert: db.prepare(
        `INSERT INTO inbox_sources (source_id, host_id, stream_kind, stream_key, config_json, config_ref, state, created_ms, updated_ms)
         VALUES (?, ?, ?, ?, ?, ?, 'active', ?, ?) ON CONFLICT (host_id, stream_kind, stream_key) DO NOTHING`,
      ),
      delete: db.prepare('DELETE FROM inbox_sources WHERE source_id = ?'),
    };
    this.rows = new SourceRows(deps.store, deps.clock);
    const { store, clock, logger, hosts, streams, modules, credentials } = deps;
    this.managed = new ManagedSources({ store, clock, logger, hosts, streams, modules, credentials, rows: this.rows, idleMs: this.idleMs });
    deps.streams.setSourceGuard((id) => {
      if (!this.rows.find(id)) throw errors.sourceNotFound(id, { sourceId: id });
    });
  }

  private get idleMs(): number {
    return this.deps.idleAutoPauseMs ?? IDLE_AUTO_PAUSE_MS;
  }

  // --- reads ---------------------------------------------------------------------------------

  /** Throws 404 source_not_found. */
  get(sourceId: string): Source {
    return this.toSource(this.rows.get(sourceId));
  }

  /** AgentInbox's `source show` (and `stream show`): the source with its host, schema, stream and subscriptions. */
  async detail(sourceId: string): Promise<SourceDetail> {
    const source = this.get(sourceId);
    const schema = await this.schema(sourceId);
    const backend = this.deps.streams.backend;
    const modulePath = this.modulePathOf(sourceId);
    return {
      source,
      runtime: sourceRuntime(source),
      host: this.deps.hosts.get(source.hostId),
      resolvedIdentity: resolvedIdentity(source.sourceType, modulePath),
      ...(schema.moduleError !== null ? { resolutionError: schema.moduleError } : {}),
      schema,
      stream: streamRecord(source, { name: backend.name, compaction: backend.compaction !== undefined }, this.deps.streams.stats(sourceId)),
      subscriptions: this.subscriptionsOf(sourceId),
      idleState: agentInboxIdleState(source, this.idleMs),
    };
  }

  /** AgentInbox's `host show`: the host, its schema and the sources on it. */
  hostDetail(hostId: string): HostDetail {
    return { host: this.deps.hosts.get(hostId), schema: this.deps.hosts.schema(hostId), streams: this.list({ hostId }) };
  }

  /** Where the detail's `subscriptions` come from (the composition sets the subscription service's list). */
  listSubscriptionsWith(lister: (sourceId: string) => unknown[]): void {
    this.subscriptionsOf = lister;
  }

  private subscriptionsOf: (sourceId: string) => unknown[] = () => [];

  /** The source behind a public stream id: 404 stream_not_found (stream routes). */
  streamSource(streamId: string): Source {
    const row = this.rows.find(streamId);
    if (!row) throw errors.streamNotFound(streamId, { streamId });
    return this.toSource(row);
  }

  list(filter: { hostId?: string } = {}): Source[] {
    const rows = filter.hostId ? this.stmts.byHost.all(filter.hostId) : this.stmts.all.all();
    return rows.map((r) => this.toSource(r));
  }

  /** AgentInbox's `source list`: each source with its runtime. */
  listViews(filter: { hostId?: string } = {}): Array<Source & { runtime: SourceRuntime | null }> {
    return this.list(filter).map((source) => ({ ...source, runtime: sourceRuntime(source) }));
  }

  /** A remote_source module is loaded (in a worker) for its configSchema, which is also set into configSchema. */
  async schema(sourceId: string): Promise<SourceSchema> {
    const source = this.get(sourceId);
    let module: { schema: JsonSchema | null; error: string | null } = { schema: null, error: null };
    if (source.hostType === 'remote_source') {
      const spec = storedModuleSpec(this.rows.get(sourceId));
      module = spec ? await this.deps.modules.describe(spec) : { schema: null, error: 'the stored config is not a valid remote_source config' };
    }
    return { sourceId, ...schemaOf(source.sourceType, this.modulePathOf(sourceId), module) };
  }

  /** AgentInbox's schema preview of a kind (`POST /streams/schema-preview`); nothing is stored. */
  previewSchema(input: PreviewInput): Promise<SchemaPreview> {
    return previewSchema(input, this.deps);
  }

  private modulePathOf(sourceId: string): string | null {
    const row = this.rows.get(sourceId);
    return row.host_type === 'remote_source' ? (storedModuleSpec(row)?.modulePath ?? null) : null;
  }

  /**
   * A subscription shortcut on a source (AgentInbox's `pr`, github_repo sources only): the
   * subscriptions it means, each on this source or its sibling stream of the same host and key
   * (400 when the sibling does not exist or the source has no shortcuts).
   */
  expandShortcut(sourceId: string, name: string, args: Record<string, unknown>): Array<Omit<PlannedSubscription, 'streamKind'> & { sourceId: string }> {
    const source = this.get(sourceId);
    if (source.sourceType !== 'github_repo') {
      throw errors.invalidRequest([{ path: 'body.shortcut.name', message: `a ${source.sourceType} source has no subscription shortcuts (GET /sources/${sourceId}/schema lists them)` }]);
    }
    return expandShortcut(source.streamKey, name, args).map(({ streamKind, ...planned }) => {
      if (streamKind === source.streamKind) return { ...planned, sourceId };
      const sibling = this.stmts.byKey.get(source.hostId, streamKind, source.streamKey);
      if (!sibling) {
        throw errors.invalidRequest([
          { path: 'body.shortcut.args', message: `needs a ${streamKind} stream of host ${source.hostId} with streamKey ${source.streamKey}: create it first (POST /streams)` },
        ]);
      }
      return { ...planned, sourceId: sibling.source_id };
    });
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
    // AgentInbox: a source without a configRef takes its host's.
    const configRef = input.configRef ?? host.configRef;
    const credentialError = await this.checkManaged(host, input.streamKind, input.streamKey, config, configRef);
    const now = this.deps.clock.now();
    const result = this.deps.store.tx(() => {
      const id = this.deps.ids.make('source');
      const info = this.stmts.insert.run(id, input.hostId, input.streamKind, input.streamKey, JSON.stringify(config), configRef, now, now);
      let row = this.stmts.byKey.get(input.hostId, input.streamKind, input.streamKey)!;
      if (info.changes === 1 && isManaged(row.host_type)) {
        // Nobody subscribes yet: the idle clock starts now, as if the last subscription had gone.
        this.rows.write(row, credentialError !== null ? { state: 'error', error: credentialError, idle_since_ms: now } : { idle_since_ms: now });
        row = this.rows.get(row.source_id);
        this.rows.afterCommit(() => this.managed.created(id, now));
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
    const row = this.rows.get(sourceId);
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
      const row = this.rows.find(shared.sourceId);
      if (!row) this.deps.logger.warn({ sourceId: shared.sourceId, hostId, streamKind: shared.streamKind, streamKey: shared.streamKey }, 'inbox.streams: a shared source conflicts with a source of this daemon; not imported');
      return row !== undefined;
    });
  }

  /** Ids of every source (shared ones included). */
  ids(): string[] {
    return this.stmts.ids.all().map((r) => r.source_id);
  }

  has(sourceId: string): boolean {
    return this.rows.find(sourceId) !== undefined;
  }

  /**
   * PATCH: `config` and/or `configRef`. Active and error sources are re-ensured (a remote one is
   * validated again and becomes active); a paused source stays paused until resumed.
   */
  async update(sourceId: string, patch: { config?: Record<string, unknown>; configRef?: string | null }): Promise<Source> {
    const before = this.rows.get(sourceId);
    const config = patch.config ?? (JSON.parse(before.config_json) as Record<string, unknown>);
    const configRef = patch.configRef !== undefined ? patch.configRef : before.config_ref;
    const credentialError = await this.checkManaged(this.deps.hosts.get(before.host_id), before.stream_kind, before.stream_key, config, configRef);
    return this.deps.store.tx(() => {
      const row = this.rows.get(sourceId);
      const paused = row.state === 'paused';
      const state = paused ? 'paused' : credentialError !== null ? 'error' : 'active';
      this.rows.write(row, { config_json: JSON.stringify(config), config_ref: configRef, state, error: paused ? row.error : credentialError });
      if (!paused && isManaged(row.host_type)) this.rows.afterCommit(() => this.managed.changed(sourceId));
      return this.get(sourceId);
    });
  }

  /** Removes the source, its stream and (through onDeleted listeners) its subscriptions. */
  delete(sourceId: string): { sourceId: string; deleted: true } {
    this.deps.store.tx(() => {
      this.rows.get(sourceId);
      for (const listener of this.deletedListeners) listener(sourceId);
      this.deps.streams.backend.drop(sourceId);
      this.stmts.delete.run(sourceId);
      this.rows.afterCommit(() => this.managed.forget(sourceId));
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
      const row = this.rows.get(sourceId);
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
    const row = this.rows.get(sourceId);
    if (row.host_type !== 'local_event') throw errors.manualAppendUnsupported(sourceId, row.host_type);
    return this.deps.streams.append(sourceId, events);
  }

  /**
   * Check a managed source's config (throws 400s, see create) and resolve its credential: the
   * error message when the named credential cannot be had, else null. Nothing for local_event.
   */
  private async checkManaged(host: Host, streamKind: string, streamKey: string, config: Record<string, unknown>, configRef: string | null): Promise<string | null> {
    const spec = moduleSpecFor(host.hostType, streamKind, streamKey, config);
    if (!spec) return null;
    const resolved = this.deps.credentials.resolve(host, configRef);
    // svc's own modules are checked by their schema (moduleSpecFor); user modules load and validate.
    if (spec.builtin === null) await this.deps.modules.check(spec, { hostConfig: host.config, credential: resolved.ok ? resolved.credential : null });
    return resolved.ok ? null : errorText(resolved.error);
  }

  // --- managed remote sources (polling.ts) --------------------------------------------------

  /** Stops polling; binding, cursor and stream kept. 409 source_not_managed for a local_event source. */
  pause(sourceId: string): Source {
    return this.managed.pause(sourceId);
  }

  /** Active again, error cleared, polling scheduled. 409 source_not_managed for a local_event source. */
  resume(sourceId: string): Source {
    return this.managed.resume(sourceId);
  }

  /**
   * One poll now; 502 source_poll_failed when the module call fails. A local_event source has
   * nothing to poll: AgentInbox's answer says so (nothing read, a note).
   */
  async poll(sourceId: string): Promise<PollResult> {
    const source = this.get(sourceId);
    if (source.hostType === 'local_event') {
      return { sourceId, sourceType: source.sourceType, appended: 0, deduped: 0, eventsRead: 0, note: 'local_event source has no background poller', state: source.state };
    }
    return this.managed.poll(sourceId);
  }

  /** Subscriptions call this after creating/removing subscriptions on the source (the idle auto-pause). */
  subscriptionsChanged(sourceId: string, remaining: number): void {
    this.managed.subscriptionsChanged(sourceId, remaining);
  }

  start(): void {
    this.managed.start();
  }

  stop(): Promise<void> {
    return this.managed.stop();
  }

  /** Run what is due on the clock now (tests, after moving a ManualClock). */
  runDue(): void {
    this.schedule.wake();
  }

  /** The timers of managed sources: polls and idle auto-pauses (polling.ts sets them). */
  private get schedule(): RemoteSchedule {
    return this.managed.schedule;
  }

  // --- helpers -------------------------------------------------------------------------------

  private toSource(r: SourceRow): Source {
    return sourceView(r, this.idleMs);
  }
}

/**
 * Subscriptions (spec/inbox.md Subscriptions; docs/inbox-api.md#subscriptions): an inbox agent
 * follows one source through a filter, from a start position, until its cleanup policy removes it.
 *
 * - Start policies set the first offset consumed: `latest` (after the current high watermark),
 *   `earliest` (from retainedFromOffset), `at_offset` (startOffset), `at_time` (the first event at
 *   or after startTime). Existing events from that position are materialised at creation; a start
 *   below the retained range is 409 history_unavailable.
 * - `reset` moves the consumer offset the same way (or to `offset`) and answers AgentInbox's
 *   `{subscription, consumer, lag}`: the subscription keeps its creation start, the consumer takes
 *   the reset's, the lag is what is left to read. The subscription consumes from there once the
 *   reset has committed (catch-ups.ts, as AgentInbox's tick does; durable across a restart): an
 *   event that was ever an item of the agent is not materialised again (the subscription only
 *   lists itself on it while the item exists), also after compaction; only events the agent never
 *   had become items. A poll right after the reset consumes at once.
 * - Cleanup: `manual`; `at` (removed at `at`); `on_terminal` (removed `gracePeriodSecs` after the
 *   terminal signal: an event whose subject is trackedResourceRef with metadata.lifecycle
 *   "terminal"); `on_terminal_or_at` (whichever comes first). The removal time is persisted and
 *   scheduled against the injected clock, so it survives restarts. Entries stay in the inbox.
 */
import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import { isoAt, type Clock, errors, type IdGenerator } from '../../core/index.js';
import { TimerSchedule } from '../../runtime/timers/index.js';
import type { Store } from '../../store/index.js';
import type { InboxAgents } from '../entries/index.js';
import { compileFilter, type FilterSpec } from './filters.js';
import type { CleanupMode, FilterError, LiveSubscription, Matcher } from './matcher.js';
import { CatchUps } from './catch-ups.js';
import { consumerView, lagView, pollView, type ConsumerRecord, type PollResult, type SubscriptionLag } from './consumers.js';
import type { SourceService } from '../sources/index.js';
import type { StreamService } from '../streams/index.js';

export type StartPolicy = 'latest' | 'earliest' | 'at_offset' | 'at_time';

export interface CleanupPolicy {
  mode: CleanupMode;
  at: string | null;
  gracePeriodSecs: number | null;
}

export interface Subscription {
  subscriptionId: string;
  agentId: string;
  sourceId: string;
  filter: FilterSpec;
  trackedResourceRef: string | null;
  cleanupPolicy: CleanupPolicy;
  startPolicy: StartPolicy;
  startOffset: number | null;
  startTime: string | null;
  consumedOffset: number;
  /** When the terminal signal for trackedResourceRef was seen. */
  terminalAt: string | null;
  /** When the cleanup policy removes the subscription (null: not scheduled). */
  removeAt: string | null;
  createdAt: string;
  /** Events its CEL filter went over the cost limit on, since the daemon started (null: none). */
  filterError: FilterError | null;
}

export interface StartInput {
  startPolicy?: StartPolicy;
  startOffset?: number;
  startTime?: string;
}

export interface CreateSubscriptionInput extends StartInput {
  agentId: string;
  sourceId?: string;
  /** `host`: every source of a host (instead of sourceId); another name: a shortcut of the source (`pr`). */
  shortcut?: { name: 'host'; args: { hostId: string } } | { name: string; args?: Record<string, unknown> };
  filter?: FilterSpec;
  trackedResourceRef?: string | null;
  cleanupPolicy?: { mode: CleanupMode; at?: string | null; gracePeriodSecs?: number | null };
}

export type ResetInput = { offset: number } | (StartInput & { startPolicy: StartPolicy });

/**
 * `POST /subscriptions/{id}/reset`: AgentInbox's `{subscription, consumer, lag}`, svc's lag fields
 * beside (its numeric `lag` is AgentInbox's lag record here).
 */
export interface ResetResult extends Omit<SubscriptionLag, 'lag'> {
  subscription: Subscription;
  consumer: ConsumerRecord;
  lag: SubscriptionLag;
}

export interface SubscriptionListQuery {
  agentId?: string;
  sourceId?: string;
}

export interface SubscriptionsDeps {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  streams: StreamService;
  sources: SourceService;
  agents: InboxAgents;
  matcher: Matcher;
  /** Host lookup for the `host` shortcut (throws host_not_found). */
  hostExists?: (hostId: string) => void;
}

interface SubscriptionRow {
  subscription_id: string;
  agent_id: string;
  source_id: string;
  filter: string;
  tracked_resource_ref: string | null;
  cleanup_mode: CleanupMode;
  cleanup_at: string | null;
  grace_period_secs: number | null;
  start_policy: StartPolicy;
  start_offset: number | null;
  start_time: string | null;
  consumed_offset: number;
  terminal_at: string | null;
  remove_at_ms: number | null;
  created_at: string;
  /** The last reset's start (the consumer's); null until one. */
  consumer_start_policy: StartPolicy | null;
  consumer_start_offset: number | null;
  consumer_start_time: string | null;
  consumer_updated_at: string | null;
}

const REMOVE_BATCH = 256;

export class SubscriptionService {
  private readonly schedule: TimerSchedule;
  private readonly catchUps: CatchUps;
  private readonly stmt: Record<
    'insert' | 'get' | 'all' | 'byAgent' | 'bySource' | 'remove' | 'setTerminal' | 'setConsumerStart' | 'scheduled' | 'expired',
    Database.Statement
  >;

  constructor(private readonly deps: SubscriptionsDeps) {
    const db = deps.store.db;
    this.stmt = {
      insert: db.prepare(`INSERT INTO inbox_subscriptions (subscription_id, agent_id, source_id, filter, tracked_resource_ref, cleanup_mode,
        cleanup_at, grace_period_secs, start_policy, start_offset, start_time, consumed_offset, terminal_at, remove_at_ms, created_at)
        VALUES (@subscription_id, @agent_id, @source_id, @filter, @tracked_resource_ref, @cleanup_mode, @cleanup_at, @grace_period_secs,
        @start_policy, @start_offset, @start_time, @consumed_offset, NULL, @remove_at_ms, @created_at)`),
      get: db.prepare('SELECT * FROM inbox_subscriptions WHERE subscription_id = ?'),
      all: db.prepare('SELECT * FROM inbox_subscriptions ORDER BY subscription_id'),
      byAgent: db.prepare('SELECT * FROM inbox_subscriptions WHERE agent_id = ? ORDER BY subscription_id'),
      bySource: db.prepare('SELECT * FROM inbox_subscriptions WHERE source_id = ? ORDER BY subscription_id'),
      remove: db.prepare('DELETE FROM inbox_subscriptions WHERE subscription_id = ?'),
      setTerminal: db.prepare('UPDATE inbox_subscriptions SET terminal_at = ?, remove_at_ms = ? WHERE subscription_id = ?'),
      setConsumerStart: db.prepare(`UPDATE inbox_subscriptions SET consumer_start_policy = ?, consumer_start_offset = ?, consumer_start_time = ?,
        consumer_updated_at = ? WHERE subscription_id = ?`),
      scheduled: db.prepare('SELECT subscription_id, remove_at_ms FROM inbox_subscriptions WHERE remove_at_ms IS NOT NULL'),
      expired: db.prepare('SELECT * FROM inbox_subscriptions WHERE remove_at_ms IS NOT NULL AND remove_at_ms <= ?'),
    };
    this.schedule = new TimerSchedule(deps.clock, () => this.runDue());
    this.catchUps = new CatchUps(deps);
    deps.matcher.onTerminal((sub) => this.terminalSeen(sub));
    deps.sources.onDeleted((sourceId) => this.removeRows(this.stmt.bySource.all(sourceId) as SubscriptionRow[], false));
    deps.agents.onDeleted((agentId) => this.removeRows(this.stmt.byAgent.all(agentId) as SubscriptionRow[], true));
  }

  /**
   * Start-up: load every subscription into the matcher, schedule pending removals, and catch up
   * the subscriptions a reset left behind their stream (the daemon stopped before they consumed).
   */
  start(): void {
    const rows = this.stmt.all.all() as SubscriptionRow[];
    for (const row of rows) this.deps.matcher.load(this.live(row));
    for (const r of this.stmt.scheduled.all() as Array<{ subscription_id: string; remove_at_ms: number }>) this.schedule.set(r.subscription_id, r.remove_at_ms);
    this.runDue();
    const behind = this.catchUps.all(rows.map((r) => r.subscription_id));
    if (behind > 0) this.deps.logger.info({ subscriptions: behind }, 'subscriptions behind their stream caught up at start');
  }

  stop(): void {
    this.schedule.stop();
    this.catchUps.stop();
  }

  /** One subscription, or several for a shortcut; all in one transaction. */
  create(input: CreateSubscriptionInput): Subscription[] {
    if (input.shortcut && input.shortcut.name !== 'host') return this.createFromShortcut(input, input.shortcut);
    const cleanup = checkCleanup(input);
    const filter = input.filter ?? {};
    const compiled = compileFilter(filter, this.deps.logger);
    const created = this.deps.store.tx(() => {
      this.deps.agents.get(input.agentId);
      return this.targetSources(input).map((sourceId) => this.insert(input, sourceId, filter, compiled, cleanup));
    });
    return created.map((id) => this.get(id));
  }

  /**
   * A shortcut of the source (AgentInbox's `pr` on a github repo_events source): the subscriptions
   * the source expands it to (sources/follow-templates.ts), in one transaction. The shortcut owns
   * filter, trackedResourceRef and cleanupPolicy.
   */
  private createFromShortcut(input: CreateSubscriptionInput, shortcut: { name: string; args?: Record<string, unknown> }): Subscription[] {
    if (input.sourceId === undefined) throw errors.invalidRequest([{ path: 'body.sourceId', message: `required with shortcut ${shortcut.name}` }]);
    if (input.filter !== undefined || input.trackedResourceRef != null || input.cleanupPolicy !== undefined) {
      throw errors.invalidRequest([{ path: 'body.shortcut', message: 'a shortcut sets filter, trackedResourceRef and cleanupPolicy itself: send none of them' }]);
    }
    const members = this.deps.sources.expandShortcut(input.sourceId, shortcut.name, shortcut.args ?? {});
    return this.deps.store.tx(() => members.flatMap((m) => this.create({ ...input, shortcut: undefined, ...m })));
  }

  get(subscriptionId: string): Subscription {
    return toSubscription(this.row(subscriptionId), this.deps.matcher.get(subscriptionId));
  }

  list(query: SubscriptionListQuery = {}): Subscription[] {
    let rows: SubscriptionRow[];
    if (query.agentId !== undefined) rows = this.stmt.byAgent.all(query.agentId) as SubscriptionRow[];
    else if (query.sourceId !== undefined) rows = this.stmt.bySource.all(query.sourceId) as SubscriptionRow[];
    else rows = this.stmt.all.all() as SubscriptionRow[];
    if (query.agentId !== undefined && query.sourceId !== undefined) rows = rows.filter((r) => r.source_id === query.sourceId);
    return rows.map((r) => toSubscription(r, this.deps.matcher.get(r.subscription_id)));
  }

  delete(subscriptionId: string): void {
    this.deps.store.tx(() => this.removeRows([this.row(subscriptionId)], true));
  }

  lag(subscriptionId: string): SubscriptionLag {
    const sub = this.liveOf(subscriptionId);
    return lagView(sub, this.deps.streams.bounds(sub.sourceId));
  }

  /** The subscription as AgentInbox's stream consumer (consumers.ts). */
  consumer(subscriptionId: string): ConsumerRecord {
    return this.consumerOf(this.row(subscriptionId));
  }

  /** Every subscription's consumer (status). */
  consumers(): ConsumerRecord[] {
    return (this.stmt.all.all() as SubscriptionRow[]).map((r) => this.consumerOf(r));
  }

  /** Consume whatever the subscription has not consumed yet (after a reset, or a missed push). */
  poll(subscriptionId: string): PollResult {
    const sub = this.liveOf(subscriptionId);
    const before = sub.consumed;
    const materialized = this.deps.store.tx(() => this.deps.matcher.catchUp(sub, this.deps.streams.bounds(sub.sourceId).highWatermarkOffset));
    return pollView(this.lag(subscriptionId), before, materialized);
  }

  /**
   * Move the consumer to `offset` or a start policy and answer where it is; the subscription
   * consumes up to the high watermark once this has committed (nothing the agent had comes back).
   */
  reset(subscriptionId: string, input: ResetInput): ResetResult {
    const sub = this.liveOf(subscriptionId);
    const start: StartInput & { startPolicy: StartPolicy } = 'offset' in input ? { startPolicy: 'at_offset', startOffset: input.offset } : input;
    this.deps.store.tx(() => {
      const { consumed } = this.startPosition(sub.sourceId, start);
      this.stmt.setConsumerStart.run(start.startPolicy, start.startOffset ?? null, start.startTime ?? null, isoAt(this.deps.clock.now()), subscriptionId);
      this.deps.matcher.reposition(sub, consumed);
      this.catchUps.afterCommit(subscriptionId);
    });
    const lag = this.lag(subscriptionId);
    const { lag: _behind, ...lagFields } = lag;
    return { subscription: this.get(subscriptionId), consumer: this.consumer(subscriptionId), lag, ...lagFields };
  }

  /** Run the catch-ups resets scheduled, now (they run on the next turn of the event loop by themselves). */
  runCatchUps(): void {
    this.catchUps.runPending();
  }

  /** POST /gc: remove now every subscription whose cleanup time has passed, whatever the timer did. */
  gc(): Record<string, number> {
    const now = this.deps.clock.now();
    return this.deps.store.tx(() => {
      const due = this.stmt.expired.all(now) as SubscriptionRow[];
      for (const row of due) this.deps.logger.info({ subscriptionId: row.subscription_id, mode: row.cleanup_mode }, 'subscription removed by its cleanup policy');
      this.removeRows(due, true);
      return { subscriptionsRemoved: due.length };
    });
  }

  /** Remove every subscription whose cleanup time has come (the schedule's wake-up; tests call it). */
  runDue(): void {
    const now = this.deps.clock.now();
    for (;;) {
      const due = this.schedule.takeDue(now, REMOVE_BATCH);
      if (due.length === 0) break;
      this.deps.store.tx(() => {
        for (const { timerId } of due) {
          const row = this.stmt.get.get(timerId) as SubscriptionRow | undefined;
          // A stale wake-up (rolled back, rescheduled) finds nothing due.
          if (!row || row.remove_at_ms === null) continue;
          if (row.remove_at_ms > now) {
            this.schedule.set(row.subscription_id, row.remove_at_ms);
            continue;
          }
          this.deps.logger.info({ subscriptionId: row.subscription_id, mode: row.cleanup_mode }, 'subscription removed by its cleanup policy');
          this.removeRows([row], true);
        }
      });
    }
    this.schedule.arm();
  }

  private targetSources(input: CreateSubscriptionInput): string[] {
    if ((input.sourceId === undefined) === (input.shortcut === undefined)) {
      throw errors.invalidRequest([{ path: 'body', message: 'give exactly one of sourceId and shortcut' }]);
    }
    if (input.sourceId !== undefined) return [this.deps.sources.get(input.sourceId).sourceId];
    const { hostId } = (input.shortcut as { args: { hostId: string } }).args;
    this.deps.hostExists?.(hostId);
    return this.deps.sources
      .list()
      .filter((s) => s.hostId === hostId)
      .map((s) => s.sourceId);
  }

  private insert(input: CreateSubscriptionInput, sourceId: string, filter: FilterSpec, compiled: LiveSubscription['filter'], cleanup: CleanupPolicy): string {
    const subscriptionId = this.deps.ids.make('subscription');
    const start = { startPolicy: input.startPolicy ?? 'latest', startOffset: input.startOffset, startTime: input.startTime };
    const { consumed, highWatermarkOffset } = this.startPosition(sourceId, start);
    const removeAtMs = cleanup.mode === 'at' || cleanup.mode === 'on_terminal_or_at' ? Date.parse(cleanup.at!) : null;
    this.stmt.insert.run({
      subscription_id: subscriptionId,
      agent_id: input.agentId,
      source_id: sourceId,
      filter: JSON.stringify(filter),
      tracked_resource_ref: input.trackedResourceRef ?? null,
      cleanup_mode: cleanup.mode,
      cleanup_at: cleanup.at,
      grace_period_secs: cleanup.gracePeriodSecs,
      start_policy: start.startPolicy,
      start_offset: start.startOffset ?? null,
      start_time: start.startTime ?? null,
      consumed_offset: consumed,
      remove_at_ms: removeAtMs,
      created_at: isoAt(this.deps.clock.now()),
    });
    const live: LiveSubscription = {
      subscriptionId,
      agentId: input.agentId,
      sourceId,
      filter: compiled,
      trackedResourceRef: input.trackedResourceRef ?? null,
      cleanupMode: cleanup.mode,
      consumed,
      terminal: false,
      filterError: null,
    };
    this.deps.matcher.add(live);
    this.deps.matcher.catchUp(live, highWatermarkOffset);
    this.afterCommit(() => {
      if (removeAtMs !== null) this.schedule.set(subscriptionId, removeAtMs);
      this.deps.sources.subscriptionsChanged(sourceId, this.deps.matcher.count(sourceId));
    });
    return subscriptionId;
  }

  /** The consumer offset a start policy begins after; 409 history_unavailable below the retained range. */
  private startPosition(sourceId: string, start: StartInput & { startPolicy: StartPolicy }): { consumed: number; highWatermarkOffset: number } {
    const { retainedFromOffset, highWatermarkOffset } = this.deps.streams.bounds(sourceId);
    let first: number;
    let requested: unknown;
    switch (start.startPolicy) {
      case 'latest':
        return { consumed: highWatermarkOffset, highWatermarkOffset };
      case 'earliest':
        return { consumed: retainedFromOffset - 1, highWatermarkOffset };
      case 'at_offset':
        if (start.startOffset === undefined) throw errors.invalidRequest([{ path: 'body.startOffset', message: 'required with startPolicy at_offset' }]);
        first = start.startOffset;
        requested = first;
        break;
      case 'at_time':
        if (start.startTime === undefined) throw errors.invalidRequest([{ path: 'body.startTime', message: 'required with startPolicy at_time' }]);
        first = this.deps.streams.offsetAtTime(sourceId, start.startTime);
        requested = start.startTime;
        break;
    }
    if (first < retainedFromOffset) throw errors.historyUnavailable({ streamId: sourceId, requested, retainedFromOffset, highWatermarkOffset });
    return { consumed: first - 1, highWatermarkOffset };
  }

  /** Inside the matching transaction: persist the terminal time and bring the removal forward. */
  private terminalSeen(sub: LiveSubscription): void {
    const row = this.row(sub.subscriptionId);
    const now = this.deps.clock.now();
    const afterGrace = now + (row.grace_period_secs ?? 0) * 1000;
    const removeAt = row.remove_at_ms === null ? afterGrace : Math.min(row.remove_at_ms, afterGrace);
    this.stmt.setTerminal.run(isoAt(now), removeAt, sub.subscriptionId);
    this.afterCommit(() => this.schedule.set(sub.subscriptionId, removeAt));
  }

  /** Inside a transaction: rows, matcher index, schedule; sources hear the new counts after commit. */
  private removeRows(rows: SubscriptionRow[], notifySources: boolean): void {
    const touched = new Set<string>();
    for (const row of rows) {
      this.stmt.remove.run(row.subscription_id);
      this.deps.matcher.remove(row.subscription_id);
      touched.add(row.source_id);
      this.afterCommit(() => this.schedule.remove(row.subscription_id));
    }
    if (!notifySources) return;
    this.afterCommit(() => {
      for (const sourceId of touched) this.deps.sources.subscriptionsChanged(sourceId, this.deps.matcher.count(sourceId));
    });
  }

  private afterCommit(hook: () => void): void {
    this.deps.store.afterCommit(hook);
  }

  private row(subscriptionId: string): SubscriptionRow {
    const row = this.stmt.get.get(subscriptionId) as SubscriptionRow | undefined;
    if (!row) throw errors.subscriptionNotFound(subscriptionId);
    return row;
  }

  private liveOf(subscriptionId: string): LiveSubscription {
    const sub = this.deps.matcher.get(subscriptionId);
    if (!sub) throw errors.subscriptionNotFound(subscriptionId);
    return sub;
  }

  /** The consumer starts where the subscription did, until a reset moves it. */
  private consumerOf(row: SubscriptionRow): ConsumerRecord {
    const sub = toSubscription(row, this.deps.matcher.get(row.subscription_id));
    if (row.consumer_start_policy === null) return consumerView(sub);
    const { consumer_start_policy: startPolicy, consumer_start_offset: startOffset, consumer_start_time: startTime } = row;
    return consumerView({ ...sub, startPolicy, startOffset, startTime, updatedAt: row.consumer_updated_at ?? sub.createdAt });
  }

  private live(row: SubscriptionRow): LiveSubscription {
    return {
      subscriptionId: row.subscription_id,
      agentId: row.agent_id,
      sourceId: row.source_id,
      // Created under the limits of its time: the run-time cost limit still applies.
      filter: compileFilter(JSON.parse(row.filter) as FilterSpec, this.deps.logger, { stored: true }),
      trackedResourceRef: row.tracked_resource_ref,
      cleanupMode: row.cleanup_mode,
      consumed: row.consumed_offset,
      terminal: row.terminal_at !== null,
      filterError: null,
    };
  }
}

/**
 * The cleanup policy's required fields per mode (docs/inbox-api.md#subscriptions); 400
 * invalid_request otherwise.
 */
function checkCleanup(input: CreateSubscriptionInput): CleanupPolicy {
  const p = input.cleanupPolicy ?? { mode: 'manual' };
  const issues = [];
  const needsAt = p.mode === 'at' || p.mode === 'on_terminal_or_at';
  const needsRef = p.mode === 'on_terminal' || p.mode === 'on_terminal_or_at';
  if (needsAt && (p.at === undefined || p.at === null)) issues.push({ path: 'body.cleanupPolicy.at', message: `required with mode ${p.mode}` });
  if (needsRef && !input.trackedResourceRef) issues.push({ path: 'body.trackedResourceRef', message: `required with cleanupPolicy mode ${p.mode}` });
  if (issues.length > 0) throw errors.invalidRequest(issues);
  return {
    mode: p.mode,
    at: needsAt ? isoAt(Date.parse(p.at!)) : null,
    gracePeriodSecs: needsRef ? (p.gracePeriodSecs ?? 0) : null,
  };
}

function toSubscription(r: SubscriptionRow, live: LiveSubscription | undefined): Subscription {
  return {
    subscriptionId: r.subscription_id,
    agentId: r.agent_id,
    sourceId: r.source_id,
    filter: JSON.parse(r.filter) as FilterSpec,
    trackedResourceRef: r.tracked_resource_ref,
    cleanupPolicy: { mode: r.cleanup_mode, at: r.cleanup_at, gracePeriodSecs: r.grace_period_secs },
    startPolicy: r.start_policy,
    startOffset: r.start_offset,
    startTime: r.start_time,
    consumedOffset: live?.consumed ?? r.consumed_offset,
    terminalAt: r.terminal_at,
    removeAt: r.remove_at_ms === null ? null : isoAt(r.remove_at_ms),
    createdAt: r.created_at,
    filterError: live?.filterError ?? null,
  };
}

/**
 * Notifications of inbox targets (spec/inbox.md "Events", Targets; docs/inbox-api.md#delivery).
 *
 * Coalescing: new entries (InboxEntries.onCreated, after commit) open a window per active target
 * of the agent, as long as its aggregation policy says (aggregation.ts: `coalesce` windowMs,
 * COALESCE_MS by default, closing early at `maxEntries`; `immediate`: closing at once); when it
 * closes, every unacknowledged entry after the target's `queued_through` cursor becomes ONE
 * durable notification row (notifications.ts), and the cursor moves. Targets under a `digest`
 * policy open no window: digests.ts queues their rows, once per period, through `queue`.
 *
 * Delivery: per target, rows go out one at a time, oldest first (attempts.ts: retries with
 * backoff, offline targets); a later row never overtakes the head, so backoff holds for the whole
 * target. One schedule per target wakes it when its window closes or its head row falls due.
 *
 * The notify lease (lease.ts) holds webhook and terminal targets once notified: a closing window
 * of a target under its lease queues nothing (the entries wait, its dispatch state is dirty); an
 * acknowledgement or the lease's end, scheduled with the target's other moments, decides what
 * happens to what waited.
 *
 * The agent's persisted delivery pause gates all of this (windows are dropped, rows are not
 * attempted); collection, matching and entries continue, and the resume catches up (pause.ts).
 * Rows, attempts and cursors are in SQLite, so retries and catch-up survive restarts; at start
 * every active target of an unpaused agent flushes once, which picks up entries whose window was
 * open when the daemon stopped.
 */
import type { Logger } from 'pino';
import type { Clock, IdGenerator } from '../../core/index.js';
import type { Lifecycle } from '../../runtime/index.js';
import { TimerSchedule } from '../../runtime/timers/index.js';
import type { Store } from '../../store/index.js';
import type { Tracer } from '../../telemetry/index.js';
import type { AggregationPolicy } from '../types.js';
import type { InboxAgents, InboxEntries, InboxEntry } from '../entries/index.js';
import { DEFAULT_COALESCE_MS } from './aggregation.js';
import type { ActivationTally } from './activation.js';
import { DeliveryAttempts } from './attempts.js';
import { NotifyLease, type LeaseAction } from './lease.js';
import { NotificationRows, type Activate, type NotificationHistory } from './notifications.js';
import type { TargetService } from './targets.js';
import type { Deliverer, DeliverySettings, NotificationHeader, NotificationPayload, NotificationReason, NotificationSummary, TargetKind, TargetRow } from './types.js';

/** How long a burst of entries may keep arriving before it is notified as one (the default policy). */
export const COALESCE_MS = DEFAULT_COALESCE_MS;

export interface NotifierDeps {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  settings: () => DeliverySettings;
  agents: InboxAgents;
  entries: InboxEntries;
  targets: TargetService;
  deliverers: Record<TargetKind, Deliverer>;
  /** The target's effective aggregation policy (aggregation.ts). */
  policyOf: (row: TargetRow) => AggregationPolicy;
  /** Jitter source in [0, 1) (tests pin it). */
  random?: () => number;
  /** One `inbox.delivery` span per attempt (absent: not traced). */
  tracer?: Tracer | undefined;
}

export class Notifier implements Lifecycle {
  private readonly rows: NotificationRows;
  private readonly attempts: DeliveryAttempts;
  private readonly schedule: TimerSchedule;
  /** AgentInbox's notify lease of webhook and terminal targets. */
  readonly lease: NotifyLease;
  /** Targets with an open coalescing window -> when it closes. */
  private readonly windows = new Map<string, number>();
  /** Targets with an open window -> how many entries arrived in it (maxEntries). */
  private readonly windowCounts = new Map<string, number>();

  constructor(private readonly deps: NotifierDeps) {
    const { store, clock, ids, entries, targets } = deps;
    this.rows = new NotificationRows({ store, clock, ids, entries, targets });
    this.attempts = new DeliveryAttempts({
      store,
      clock,
      logger: deps.logger,
      settings: deps.settings,
      targets,
      rows: this.rows,
      deliverers: deps.deliverers,
      random: deps.random ?? Math.random,
      tracer: deps.tracer,
      settled: (targetId) => this.reschedule(targetId),
    });
    this.lease = new NotifyLease({ clock, settings: deps.settings, entries, targets });
    this.schedule = new TimerSchedule(deps.clock, () => void this.runDue());
    deps.entries.onCreated((entries) => this.onEntries(entries));
    deps.entries.onAcked((agentId) => this.onAcked(agentId));
    deps.targets.onDeleted((targetId) => this.forgetTarget(targetId));
    deps.agents.onDeleted((agentId) => {
      this.rows.removeAgent(agentId);
    });
  }

  // --- lifecycle -------------------------------------------------------------------------------

  start(): void {
    const now = this.deps.clock.now();
    for (const row of this.deps.targets.allRows()) {
      if (row.status !== 'active' || this.isPaused(row.agent_id)) continue;
      this.windows.set(row.target_id, now);
      this.reschedule(row.target_id);
    }
    void this.runDue();
  }

  async stop(): Promise<void> {
    this.schedule.stop();
    this.windows.clear();
    this.windowCounts.clear();
    this.attempts.abort();
    await this.idle();
  }

  // --- coalescing --------------------------------------------------------------------------------

  private onEntries(entries: InboxEntry[]): void {
    const perAgent = new Map<string, number>();
    for (const e of entries) perAgent.set(e.agentId, (perAgent.get(e.agentId) ?? 0) + 1);
    const now = this.deps.clock.now();
    for (const [agentId, count] of perAgent) {
      if (this.isPaused(agentId)) continue;
      for (const row of this.deps.targets.rowsOf(agentId)) {
        if (row.status === 'active') this.openWindow(row, now, count);
      }
    }
  }

  /**
   * Open the target's window for `count` new entries (or count them into the open one) as its
   * policy says. A window is never extended: it closes `windowMs` after it opened, or at once
   * when it holds `maxEntries`. Digest targets open none.
   */
  private openWindow(row: TargetRow, now: number, count: number): void {
    const policy = this.deps.policyOf(row);
    if (policy.mode === 'digest') return;
    const id = row.target_id;
    const open = this.windows.get(id);
    const held = (this.windowCounts.get(id) ?? 0) + count;
    let closesAt = open ?? now + (policy.mode === 'coalesce' ? policy.windowMs : 0);
    if (policy.mode === 'coalesce' && policy.maxEntries !== null && held >= policy.maxEntries) closesAt = Math.min(closesAt, now);
    this.windowCounts.set(id, held);
    if (closesAt === open) return;
    this.windows.set(id, closesAt);
    this.reschedule(id);
  }

  /**
   * A target whose policy stopped being a digest: entries that were waiting for the next digest
   * are notified under the new policy now, without waiting for another entry (after commit).
   */
  nudge(targetId: string): void {
    const row = this.deps.targets.find(targetId);
    if (row && row.status === 'active' && !this.isPaused(row.agent_id)) this.openWindow(row, this.deps.clock.now(), 0);
  }

  /** Queue one row for the target (digests.ts): see NotificationRows.queue. */
  queue(row: TargetRow, reason: NotificationReason, make: (header: NotificationHeader, activate: Activate) => NotificationPayload): NotificationSummary {
    return this.rows.queue(row, reason, make);
  }

  /** A tally of the entries a notification covers, for its activation fields (digests.ts). */
  newTally(): ActivationTally {
    return this.rows.newTally();
  }

  /** A resume's catch-up (pause.ts): every entry not yet notified, in as few rows as MAX_COVERED allows. */
  queueAllUnnotified(targetId: string, reason: NotificationReason): NotificationSummary[] {
    const queued = this.rows.queueAllUnnotified(targetId, reason);
    const row = this.deps.targets.find(targetId);
    if (queued.length > 0 && row) this.lease.start(row);
    return queued;
  }

  // --- delivery ----------------------------------------------------------------------------------

  /**
   * Close due windows and attempt due head rows. The schedule's timeout calls this; tests call it
   * after advancing a ManualClock. Resolves when the attempts it started have finished.
   */
  async runDue(): Promise<number> {
    const now = this.deps.clock.now();
    const started: Array<Promise<void>> = [];
    for (;;) {
      const due = this.schedule.takeDue(now, 500);
      for (const { timerId: targetId } of due) {
        this.leaseDue(targetId, now);
        const closesAt = this.windows.get(targetId);
        if (closesAt !== undefined && closesAt <= now) {
          this.windows.delete(targetId);
          this.windowCounts.delete(targetId);
          this.flush(targetId);
        }
        const attempt = this.attempt(targetId);
        if (attempt) started.push(attempt);
        else this.reschedule(targetId);
      }
      if (due.length < 500) break;
    }
    this.schedule.arm();
    await Promise.all(started);
    return started.length;
  }

  /** Resolves when every attempt under way has finished (tests, shutdown). */
  async idle(): Promise<void> {
    await this.attempts.idle();
  }

  /** Wake targets now (after a resume): their due rows are attempted on the next tick. */
  wake(targetIds: string[]): void {
    for (const id of targetIds) this.reschedule(id);
  }

  /** Make the target's pending rows due now (a recovery resets the backoff). Inside the caller's transaction. */
  resetBackoff(targetId: string): void {
    this.rows.resetBackoff(targetId);
  }

  /** Rows of a target, oldest first (tests, diagnostics). */
  notificationsOf(targetId: string): Array<{ notificationId: string; status: string; reason: string; entryCount: number; attempts: number }> {
    return this.rows.of(targetId);
  }

  /** The last `limit` activations and notifications (GET /status). */
  history(limit: number): NotificationHistory {
    return this.rows.history(limit);
  }

  /** Remove delivered and failed rows older than NOTIFICATION_RETENTION_MS. */
  gc(): Record<string, number> {
    return this.rows.gc();
  }

  private flush(targetId: string): void {
    try {
      this.deps.store.tx(() => {
        const row = this.deps.targets.find(targetId);
        // A target that switched to a digest while its window was open: the digest lists them.
        if (!row || row.status !== 'active' || this.isPaused(row.agent_id) || this.deps.policyOf(row).mode === 'digest') return;
        // Under its lease the entries wait (the dispatch state is dirty).
        if (this.lease.held(row, this.deps.clock.now())) return;
        this.queueAllUnnotified(targetId, 'entries');
      });
    } catch (err) {
      this.deps.logger.error({ err, targetId }, 'queueing an inbox notification failed');
    }
  }

  /** Start the head row's attempt if the target may be notified now; null otherwise. */
  private attempt(targetId: string): Promise<void> | null {
    if (this.attempts.busy(targetId)) return null;
    const row = this.deps.targets.find(targetId);
    if (!row || row.status !== 'active' || this.isPaused(row.agent_id)) return null;
    const head = this.rows.head(targetId);
    if (!head || head.next_attempt_ms > this.deps.clock.now()) return null;
    return this.attempts.run(row, head);
  }

  /** Schedule the target's next moment: its window closing, its head row falling due or its lease ending. */
  private reschedule(targetId: string): void {
    let due = this.windows.get(targetId) ?? Number.POSITIVE_INFINITY;
    const row = this.deps.targets.find(targetId);
    // Offline targets and paused agents get no attempts: a resume wakes them again.
    if (row && row.status === 'active' && !this.isPaused(row.agent_id)) {
      const head = this.attempts.busy(targetId) ? undefined : this.rows.head(targetId);
      if (head) due = Math.min(due, head.next_attempt_ms);
      if (row.lease_expires_ms !== null) due = Math.min(due, row.lease_expires_ms);
    }
    if (due === Number.POSITIVE_INFINITY) this.schedule.remove(targetId);
    else this.schedule.set(targetId, due);
  }

  // --- the notify lease (lease.ts) ---------------------------------------------------------------

  /** After an acknowledgement commits: each leased target of the agent as the lease says. */
  private onAcked(agentId: string): void {
    if (this.isPaused(agentId)) return;
    for (const row of this.deps.targets.rowsOf(agentId)) {
      if (row.status === 'active') this.leaseStep(row.target_id, (r) => this.lease.onAck(r));
    }
  }

  /** A due moment of the target: its lease has ended. */
  private leaseDue(targetId: string, now: number): void {
    const row = this.deps.targets.find(targetId);
    if (!row || row.lease_expires_ms === null || row.lease_expires_ms > now || row.status !== 'active' || this.isPaused(row.agent_id)) return;
    this.leaseStep(targetId, (r) => this.lease.onExpiry(r));
  }

  /** Apply what the lease decides for the target, in one transaction, then schedule it again. */
  private leaseStep(targetId: string, decide: (row: TargetRow) => LeaseAction): void {
    try {
      this.deps.store.tx(() => {
        const row = this.deps.targets.find(targetId);
        if (!row) return;
        const action = decide(row);
        if (action === 'none') return;
        this.lease.end(row);
        // A target that switched to a digest since: the digest lists what waited.
        if (action === 'notify') {
          if (this.deps.policyOf(row).mode !== 'digest') this.queueAllUnnotified(targetId, 'entries');
        } else if (action === 'extend' || (action === 'remind' && this.rows.queueUnnotified(row, 'reminder', { fromStart: true }))) this.lease.start(row);
      });
    } catch (err) {
      this.deps.logger.error({ err, targetId }, 'the notify lease of an inbox target failed');
    }
    this.reschedule(targetId);
  }

  private forgetTarget(targetId: string): void {
    this.rows.removeTarget(targetId);
    this.deps.store.afterCommit(() => {
      this.windows.delete(targetId);
      this.windowCounts.delete(targetId);
      this.schedule.remove(targetId);
    });
  }

  private isPaused(agentId: string): boolean {
    try {
      return this.deps.agents.get(agentId).deliveryPaused;
    } catch {
      return true;
    }
  }
}

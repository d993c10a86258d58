/**
 * Notifications of inbox targets (spec/inbox.md "Events", Targets; CONTRACT.md section 9).
 *
 * Coalescing: new entries (InboxEntries.onCreated, after commit) open a window per active target
 * of the agent, as long as its aggregation policy says (aggregation.ts: `coalesce` windowMs,
 * COALESCE_MS by default, closing early at `maxEntries`; `immediate`: closing at once); when it
 * closes, every unacknowledged entry after the target's `queued_through` cursor becomes ONE
 * durable notification row (a burst of events is one notification: it lists up to MAX_LISTED
 * entries and counts them all), and the cursor moves. Targets under a `digest` policy open no
 * window: digests.ts queues their rows, once per period, through `queue`.
 *
 * Delivery: per target, rows go out one at a time, oldest first. A failed attempt schedules the
 * head row again after `delivery.retry_initial_ms` doubling per consecutive failure up to
 * `delivery.retry_max_ms`, with jitter (a delay d is drawn from [d/2, d]), or after the answer's
 * `Retry-After`; a later row never overtakes the head, so backoff holds for the whole target.
 * A 410 (or a deleted runtime agent) or `delivery.max_failures` consecutive failures take the
 * target offline: its rows stay pending, unattempted, until a resume recovers it.
 *
 * The agent's persisted delivery pause gates all of this (windows are dropped, rows are not
 * attempted); collection, matching and entries continue, and the resume catches up
 * (delivery-pause.ts). Rows, attempts and cursors are in SQLite, so retries and catch-up
 * survive restarts; at start every active target of an unpaused agent flushes once, which picks
 * up entries whose window was open when the daemon stopped.
 */
import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import { isoAt, type Clock } from '../../core/clock.js';
import type { IdGenerator } from '../../core/ids.js';
import type { Lifecycle } from '../../runtime/deps.js';
import { TimerSchedule } from '../../runtime/timer-scheduler.js';
import type { Store } from '../../store/store.js';
import type { Tracer } from '../../telemetry/tracing.js';
import type { InboxAgents } from '../entries/agents.js';
import { DEFAULT_COALESCE_MS, type AggregationPolicy } from './aggregation.js';
import type { EntryDigest, InboxEntries, InboxEntry } from '../entries/entries.js';
import type { TargetKind, TargetRow, TargetService, TargetWithSecret } from './targets.js';

/** How long a burst of entries may keep arriving before it is notified as one (the default policy). */
export const COALESCE_MS = DEFAULT_COALESCE_MS;
/** Entries listed in one notification; the rest are counted (`entryCount`, `truncated`). */
export const MAX_LISTED = 50;
/** Page size when scanning for unnotified entries. */
const SCAN_PAGE = 500;
/**
 * Entries one notification covers at most: a larger backlog (a long pause) becomes several
 * notifications of this size, so one transaction never reads an unbounded backlog.
 */
export const MAX_COVERED = 10_000;
/** Delivered and failed rows older than this are removed by gc. */
export const NOTIFICATION_RETENTION_MS = 24 * 60 * 60 * 1000;

export const NOTIFICATION_REASONS = ['entries', 'catch_up', 'digest'] as const;
export type NotificationReason = (typeof NOTIFICATION_REASONS)[number];

/** What every notification carries, whatever its type. */
export interface NotificationHeader {
  notificationId: string;
  agentId: string;
  targetId: string;
  /** `entries`: new entries arrived; `digest`: a digest period ended; `catch_up`: sent by a resume for what was held back. */
  reason: NotificationReason;
  createdAt: string;
}

/** The JSON body of a notification of new entries (webhook body, runtime message `json`). */
export interface EntriesPayload extends NotificationHeader {
  type: 'inbox.entries';
  entryCount: number;
  firstEntryId: string;
  lastEntryId: string;
  /** More than MAX_LISTED entries: `entries` lists the first ones; read the inbox for the rest. */
  truncated: boolean;
  entries: InboxEntry[];
}

/** The JSON body of a digest (digests.ts): the unacknowledged entries since the last digest, summarised. */
export interface DigestPayload extends NotificationHeader {
  type: 'inbox.digest';
  entryCount: number;
  firstEntryId: string;
  lastEntryId: string;
  /** Counts per kind and source (null for direct items and timer reminders), most first. */
  sources: EntryDigest['sources'];
  /** More entries than the policy's maxEntries: `entries` lists the first ones. */
  truncated: boolean;
  entries: InboxEntry[];
  /** The previous digest (or when the digest schedule began). */
  since: string;
  /** The period boundary this digest is for. */
  scheduledFor: string;
}

export type NotificationPayload = EntriesPayload | DigestPayload;

export interface PendingNotification {
  notificationId: string;
  targetId: string;
  agentId: string;
  attempts: number;
  payload: NotificationPayload;
  /** The exact bytes sent (and signed). */
  body: string;
}

export type AttemptOutcome = { ok: true } | { ok: false; error: string; gone?: boolean; retryAfterMs?: number };

export interface Deliverer {
  /** Transactional deliverers run inside the transaction that records the outcome (runtime). */
  readonly transactional?: boolean;
  /** `signal` aborts the attempt at shutdown (it then counts as failed, and is retried after the restart). */
  deliver(target: TargetWithSecret, n: PendingNotification, signal: AbortSignal): Promise<AttemptOutcome> | AttemptOutcome;
}

export interface NotificationSummary {
  notificationId: string;
  targetId: string;
  reason: NotificationReason;
  entryCount: number;
}

export interface DeliverySettings {
  timeout_ms: number;
  retry_initial_ms: number;
  retry_max_ms: number;
  max_failures: number;
}

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

interface NotificationRow {
  notification_id: string;
  target_id: string;
  agent_id: string;
  reason: NotificationReason;
  entry_count: number;
  last_entry_id: string;
  payload: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  next_attempt_ms: number;
}

export class Notifier implements Lifecycle {
  private readonly stmt;
  private readonly schedule: TimerSchedule;
  /** Targets with an open coalescing window -> when it closes. */
  private readonly windows = new Map<string, number>();
  /** Targets with an open window -> how many entries arrived in it (maxEntries). */
  private readonly windowCounts = new Map<string, number>();
  private readonly inFlight = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private readonly random: () => number;
  /** Aborted at stop: attempts under way end at once instead of holding up shutdown. */
  private readonly shutdown = new AbortController();

  constructor(private readonly deps: NotifierDeps) {
    const db: Database.Database = deps.store.db;
    this.stmt = {
      insert: db.prepare(
        `INSERT INTO inbox_notifications (notification_id, target_id, agent_id, reason, entry_count, first_entry_id, last_entry_id, payload, status, next_attempt_ms, created_ms, updated_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
      ),
      head: db.prepare("SELECT * FROM inbox_notifications WHERE target_id = ? AND status = 'pending' ORDER BY seq LIMIT 1"),
      attempted: db.prepare('UPDATE inbox_notifications SET attempts = attempts + 1, updated_ms = ? WHERE notification_id = ?'),
      sent: db.prepare("UPDATE inbox_notifications SET status = 'sent', sent_ms = ?, last_error = NULL, updated_ms = ? WHERE notification_id = ?"),
      retry: db.prepare('UPDATE inbox_notifications SET next_attempt_ms = ?, last_error = ?, updated_ms = ? WHERE notification_id = ?'),
      dueNow: db.prepare("UPDATE inbox_notifications SET next_attempt_ms = ?, updated_ms = ? WHERE target_id = ? AND status = 'pending'"),
      removeTarget: db.prepare('DELETE FROM inbox_notifications WHERE target_id = ?'),
      removeAgent: db.prepare('DELETE FROM inbox_notifications WHERE agent_id = ?'),
      gc: db.prepare("DELETE FROM inbox_notifications WHERE status <> 'pending' AND updated_ms < ?"),
      list: db.prepare('SELECT * FROM inbox_notifications WHERE target_id = ? ORDER BY seq'),
    };
    this.schedule = new TimerSchedule(deps.clock, () => void this.runDue());
    this.random = deps.random ?? Math.random;
    deps.entries.onCreated((entries) => this.onEntries(entries));
    deps.targets.onDeleted((targetId) => this.forgetTarget(targetId));
    deps.agents.onDeleted((agentId) => {
      this.stmt.removeAgent.run(agentId);
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
    this.shutdown.abort();
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

  /**
   * Store one pending notification row for the target and move its `queued_through` cursor to
   * the payload's last entry, inside the caller's transaction. `make` builds the payload around
   * the header (the notification id, the reason, the time).
   */
  queue(row: TargetRow, reason: NotificationReason, make: (header: NotificationHeader) => NotificationPayload): NotificationSummary {
    const now = this.deps.clock.now();
    const notificationId = notificationIdFrom(this.deps.ids.make('entry'));
    const p = make({ notificationId, agentId: row.agent_id, targetId: row.target_id, reason, createdAt: isoAt(now) });
    this.stmt.insert.run(notificationId, row.target_id, row.agent_id, reason, p.entryCount, p.firstEntryId, p.lastEntryId, JSON.stringify(p), now, now, now);
    this.deps.targets.setQueuedThrough(row.target_id, p.lastEntryId);
    return { notificationId, targetId: row.target_id, reason, entryCount: p.entryCount };
  }

  /**
   * Turn the target's unacknowledged entries after its `queued_through` cursor into one pending
   * row and move the cursor, inside the caller's transaction (the coalescing flush, or a resume's
   * catch-up, which must be persisted before the pause is cleared). Null when there is nothing new.
   */
  queueUnnotified(row: TargetRow, reason: NotificationReason): NotificationSummary | null {
    const listed: InboxEntry[] = [];
    let count = 0;
    let first: string | null = null;
    let last: string | null = null;
    let cursor = row.queued_through ?? undefined;
    for (;;) {
      const page = this.deps.entries.unacked(row.agent_id, { ...(cursor ? { afterEntryId: cursor } : {}), limit: SCAN_PAGE });
      for (const e of page) {
        if (listed.length < MAX_LISTED) listed.push(e);
        first ??= e.entryId;
        last = e.entryId;
        count++;
      }
      if (page.length < SCAN_PAGE || count >= MAX_COVERED) break;
      cursor = last!;
    }
    if (count === 0 || first === null || last === null) return null;
    const [firstEntryId, lastEntryId] = [first, last];
    return this.queue(row, reason, (h) => ({
      type: 'inbox.entries',
      notificationId: h.notificationId,
      agentId: h.agentId,
      targetId: h.targetId,
      reason,
      entryCount: count,
      firstEntryId,
      lastEntryId,
      truncated: count > listed.length,
      entries: listed,
      createdAt: h.createdAt,
    }));
  }

  /** queueUnnotified until the backlog is covered (several rows only past MAX_COVERED entries). */
  queueAllUnnotified(targetId: string, reason: NotificationReason): NotificationSummary[] {
    const queued: NotificationSummary[] = [];
    for (;;) {
      const row = this.deps.targets.find(targetId);
      const summary = row ? this.queueUnnotified(row, reason) : null;
      if (!summary) return queued;
      queued.push(summary);
      if (summary.entryCount < MAX_COVERED) return queued;
    }
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
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** Wake targets now (after a resume): their due rows are attempted on the next tick. */
  wake(targetIds: string[]): void {
    for (const id of targetIds) this.reschedule(id);
  }

  /** Make the target's pending rows due now (a recovery resets the backoff). Inside the caller's transaction. */
  resetBackoff(targetId: string): void {
    const now = this.deps.clock.now();
    this.stmt.dueNow.run(now, now, targetId);
  }

  /** Rows of a target, oldest first (tests, diagnostics). */
  notificationsOf(targetId: string): Array<{ notificationId: string; status: string; reason: string; entryCount: number; attempts: number }> {
    return (this.stmt.list.all(targetId) as NotificationRow[]).map((r) => ({
      notificationId: r.notification_id,
      status: r.status,
      reason: r.reason,
      entryCount: r.entry_count,
      attempts: r.attempts,
    }));
  }

  /** Remove delivered and failed rows older than NOTIFICATION_RETENTION_MS. */
  gc(): Record<string, number> {
    const cutoff = this.deps.clock.now() - NOTIFICATION_RETENTION_MS;
    return { notificationsRemoved: this.deps.store.tx(() => this.stmt.gc.run(cutoff).changes) };
  }

  private flush(targetId: string): void {
    try {
      this.deps.store.tx(() => {
        const row = this.deps.targets.find(targetId);
        // A target that switched to a digest while its window was open: the digest lists them.
        if (!row || row.status !== 'active' || this.isPaused(row.agent_id) || this.deps.policyOf(row).mode === 'digest') return;
        this.queueAllUnnotified(targetId, 'entries');
      });
    } catch (err) {
      this.deps.logger.error({ err, targetId }, 'queueing an inbox notification failed');
    }
  }

  /** Start the head row's attempt if the target may be notified now; null otherwise. */
  private attempt(targetId: string): Promise<void> | null {
    if (this.inFlight.has(targetId)) return null;
    const row = this.deps.targets.find(targetId);
    if (!row || row.status !== 'active' || this.isPaused(row.agent_id)) return null;
    const head = this.stmt.head.get(targetId) as NotificationRow | undefined;
    if (!head || head.next_attempt_ms > this.deps.clock.now()) return null;
    const deliverer = this.deps.deliverers[row.kind];
    const pending: PendingNotification = {
      notificationId: head.notification_id,
      targetId,
      agentId: row.agent_id,
      attempts: head.attempts + 1,
      payload: JSON.parse(head.payload) as NotificationPayload,
      body: head.payload,
    };
    const target = this.deps.targets.withSecret(row);
    this.inFlight.add(targetId);
    // Ids and kinds only: never the URL, the secret or the pane.
    const span = this.deps.tracer?.startSpan('inbox.delivery', {
      'svc.inbox.agent_id': row.agent_id,
      'svc.inbox.target_id': targetId,
      'svc.inbox.target_kind': row.kind,
      'svc.inbox.notification_id': head.notification_id,
      'svc.inbox.attempt': pending.attempts,
    });
    const run = (async () => {
      let outcome: AttemptOutcome = { ok: false, error: 'not attempted' };
      try {
        if (deliverer.transactional) {
          this.deps.store.tx(() => {
            this.markAttempted(head);
            try {
              outcome = this.deps.store.tx(() => deliverer.deliver(target, pending, this.shutdown.signal) as AttemptOutcome);
            } catch (err) {
              outcome = { ok: false, error: (err as Error).message };
            }
            this.record(head, outcome);
          });
        } else {
          this.deps.store.tx(() => this.markAttempted(head));
          try {
            outcome = await deliverer.deliver(target, pending, this.shutdown.signal);
          } catch (err) {
            outcome = { ok: false, error: (err as Error).message };
          }
          this.deps.store.tx(() => this.record(head, outcome));
        }
      } catch (err) {
        this.deps.logger.error({ err, targetId }, 'recording an inbox notification attempt failed');
      } finally {
        span?.end(outcome.ok ? 'ok' : 'error', outcome.ok ? undefined : outcome.error);
        this.inFlight.delete(targetId);
        this.reschedule(targetId);
      }
    })();
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
    return run;
  }

  private markAttempted(head: NotificationRow): void {
    this.stmt.attempted.run(this.deps.clock.now(), head.notification_id);
    this.deps.targets.markAttempted(head.target_id);
  }

  /** The outcome of one attempt, in a transaction. The target row may be gone (deleted meanwhile). */
  private record(head: NotificationRow, outcome: AttemptOutcome): void {
    const now = this.deps.clock.now();
    if (!this.deps.targets.find(head.target_id)) return;
    if (outcome.ok) {
      this.stmt.sent.run(now, now, head.notification_id);
      this.deps.targets.markSucceeded(head.target_id, head.last_entry_id);
      return;
    }
    const { max_failures, retry_initial_ms, retry_max_ms } = this.deps.settings();
    const failures = this.deps.targets.markFailed(head.target_id, outcome.error);
    const offline = outcome.gone ? 'gone' : failures >= max_failures ? 'max_failures' : null;
    if (offline) {
      this.deps.targets.markOffline(head.target_id, offline);
      // Due at once when a resume recovers the target.
      this.stmt.retry.run(now, outcome.error, now, head.notification_id);
      this.deps.logger.warn({ targetId: head.target_id, reason: offline, failures }, 'inbox target went offline');
      return;
    }
    const delay =
      outcome.retryAfterMs !== undefined
        ? Math.min(outcome.retryAfterMs, retry_max_ms)
        : backoffDelay(failures, retry_initial_ms, retry_max_ms, this.random);
    this.stmt.retry.run(now + delay, outcome.error, now, head.notification_id);
  }

  /** Schedule the target's next moment: its window closing or its head row falling due. */
  private reschedule(targetId: string): void {
    let due = this.windows.get(targetId) ?? Number.POSITIVE_INFINITY;
    const row = this.deps.targets.find(targetId);
    // Offline targets and paused agents get no attempts: a resume wakes them again.
    if (row && row.status === 'active' && !this.inFlight.has(targetId) && !this.isPaused(row.agent_id)) {
      const head = this.stmt.head.get(targetId) as NotificationRow | undefined;
      if (head) due = Math.min(due, head.next_attempt_ms);
    }
    if (due === Number.POSITIVE_INFINITY) this.schedule.remove(targetId);
    else this.schedule.set(targetId, due);
  }

  private forgetTarget(targetId: string): void {
    this.stmt.removeTarget.run(targetId);
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

/**
 * Delay before the next attempt after `failures` consecutive failures: retry_initial_ms doubling
 * per failure, capped at retry_max_ms, drawn from [d/2, d] ("equal jitter") so that many targets
 * failing together do not retry in lockstep, while a delay never exceeds its cap.
 */
export function backoffDelay(failures: number, initialMs: number, maxMs: number, random: () => number): number {
  const exp = Math.min(maxMs, initialMs * 2 ** Math.min(Math.max(0, failures - 1), 40));
  return Math.round(exp / 2 + (random() * exp) / 2);
}

/** Notification ids: `ntf_` + a ULID (used as the webhook-id). */
function notificationIdFrom(anyId: string): string {
  return `ntf_${anyId.slice(anyId.indexOf('_') + 1)}`;
}

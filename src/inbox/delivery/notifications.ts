/**
 * The durable notification rows (inbox_notifications): how a target's new entries become ONE
 * pending row (a burst of events is one notification: it lists up to MAX_LISTED entries and
 * counts them all, with AgentInbox's activation fields computed over every one of them by
 * activation.ts) and move the target's `queued_through` cursor in the same transaction, and
 * the row states an attempt moves through (pending, then sent or, kept until gc, failed).
 * The notifier (notifier.ts) decides when rows are queued and attempted; this file only reads and
 * writes them, inside the caller's transaction.
 */
import type Database from 'better-sqlite3';
import { isoAt, type Clock, type IdGenerator } from '../../core/index.js';
import type { Store } from '../../store/index.js';
import type { InboxEntries, InboxEntry } from '../entries/index.js';
import { activationOf, ActivationTally } from './activation.js';
import type { TargetService } from './targets.js';
import type { Activation, NotificationHeader, NotificationPayload, NotificationReason, NotificationSummary, TargetRow } from './types.js';

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

export interface NotificationRow {
  notification_id: string;
  target_id: string;
  /** The target's kind when queued (null: queued before migration 036 for a target gone since). */
  target_kind: string | null;
  agent_id: string;
  reason: NotificationReason;
  entry_count: number;
  last_entry_id: string;
  payload: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  next_attempt_ms: number;
  last_error: string | null;
  created_ms: number;
  sent_ms: number | null;
}

/** svc's record of one notification (`GET /status` `recentNotifications`). */
export interface NotificationRecord {
  notificationId: string;
  agentId: string;
  targetId: string;
  targetKind: string | null;
  reason: string;
  status: string;
  entryCount: number;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}

/** The last notifications, newest first: AgentInbox's activations (webhook bodies sent) and svc's records of every kind. */
export interface NotificationHistory {
  activations: unknown[];
  activationCount: number;
  notifications: NotificationRecord[];
}

/**
 * AgentInbox's activations: webhook notifications that were sent, kept after their target is removed
 * (until NOTIFICATION_RETENTION_MS) and gone with their agent. svc's other notifications (terminal
 * prompts, runtime messages, pending and failed ones) are in the history's records beside them.
 */
const ACTIVATION = "target_kind = 'webhook' AND status = 'sent'";

export interface NotificationRowsDeps {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  entries: InboxEntries;
  targets: TargetService;
}

/** What a notification covers, for its activation fields (activation.ts). */
export interface Covered {
  /** Every covered entry went through it. */
  tally: ActivationTally;
  newItemCount: number;
  latestEntryId: string;
  /** The entries the body lists. */
  listed: InboxEntry[];
}

/** Builds a payload's activation fields; given to `make` by `queue`, bound to the row and its header. */
export type Activate = (covered: Covered) => Activation;

export class NotificationRows {
  private readonly stmt;

  constructor(private readonly deps: NotificationRowsDeps) {
    const db: Database.Database = deps.store.db;
    this.stmt = {
      insert: db.prepare(
        `INSERT INTO inbox_notifications (notification_id, target_id, target_kind, agent_id, reason, entry_count, first_entry_id, last_entry_id, payload, status, next_attempt_ms, created_ms, updated_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
      ),
      head: db.prepare("SELECT * FROM inbox_notifications WHERE target_id = ? AND status = 'pending' ORDER BY seq LIMIT 1"),
      attempted: db.prepare('UPDATE inbox_notifications SET attempts = attempts + 1, updated_ms = ? WHERE notification_id = ?'),
      sent: db.prepare("UPDATE inbox_notifications SET status = 'sent', sent_ms = ?, last_error = NULL, updated_ms = ? WHERE notification_id = ?"),
      retry: db.prepare('UPDATE inbox_notifications SET next_attempt_ms = ?, last_error = ?, updated_ms = ? WHERE notification_id = ?'),
      dueNow: db.prepare("UPDATE inbox_notifications SET next_attempt_ms = ?, updated_ms = ? WHERE target_id = ? AND status = 'pending'"),
      removeTarget: db.prepare("DELETE FROM inbox_notifications WHERE target_id = ? AND status = 'pending'"),
      removeAgent: db.prepare('DELETE FROM inbox_notifications WHERE agent_id = ?'),
      gc: db.prepare("DELETE FROM inbox_notifications WHERE status <> 'pending' AND updated_ms < ?"),
      list: db.prepare('SELECT * FROM inbox_notifications WHERE target_id = ? ORDER BY seq'),
      activations: db.prepare(`SELECT payload FROM inbox_notifications WHERE ${ACTIVATION} ORDER BY seq DESC LIMIT ?`).pluck(),
      activationCount: db.prepare(`SELECT count(*) FROM inbox_notifications WHERE ${ACTIVATION}`).pluck(),
      recent: db.prepare('SELECT * FROM inbox_notifications ORDER BY seq DESC LIMIT ?'),
    };
  }

  // --- queueing ----------------------------------------------------------------------------------

  /**
   * Store one pending notification row for the target and move its `queued_through` cursor to
   * the payload's last entry, inside the caller's transaction. `make` builds the payload around
   * the header (the notification id, the reason, the time) and the activation fields `activate`
   * computes (AgentInbox's `items` for webhook targets only: the other kinds would carry the
   * listed entries twice).
   */
  queue(row: TargetRow, reason: NotificationReason, make: (header: NotificationHeader, activate: Activate) => NotificationPayload): NotificationSummary {
    const now = this.deps.clock.now();
    const notificationId = notificationIdFrom(this.deps.ids.make('entry'));
    const header: NotificationHeader = { notificationId, agentId: row.agent_id, targetId: row.target_id, reason, createdAt: isoAt(now) };
    const activate: Activate = (c) =>
      activationOf({
        ...header,
        targetKind: row.kind,
        tally: c.tally,
        newItemCount: c.newItemCount,
        unackedCount: this.deps.entries.summary(row.agent_id).unackedCount,
        latestEntryId: c.latestEntryId,
        listed: row.kind === 'webhook' ? c.listed : undefined,
      });
    const p = make(header, activate);
    this.stmt.insert.run(notificationId, row.target_id, row.kind, row.agent_id, reason, p.entryCount, p.firstEntryId, p.lastEntryId, JSON.stringify(p), now, now, now);
    // A reminder covers entries notified before: the cursor never moves back.
    if (row.queued_through === null || p.lastEntryId > row.queued_through) this.deps.targets.setQueuedThrough(row.target_id, p.lastEntryId);
    return { notificationId, targetId: row.target_id, reason, entryCount: p.entryCount };
  }

  /**
   * Turn the target's unacknowledged entries after its `queued_through` cursor into one pending
   * row and move the cursor, inside the caller's transaction (the coalescing flush, or a resume's
   * catch-up, which must be persisted before the pause is cleared). Null when there is nothing new.
   * `fromStart`: every unacknowledged entry (a lease's reminder, lease.ts).
   */
  queueUnnotified(row: TargetRow, reason: NotificationReason, opts: { fromStart?: boolean } = {}): NotificationSummary | null {
    const tally = this.newTally();
    const listed: InboxEntry[] = [];
    let count = 0;
    let first: string | null = null;
    let last: string | null = null;
    let cursor = opts.fromStart ? undefined : (row.queued_through ?? undefined);
    for (;;) {
      const page = this.deps.entries.unacked(row.agent_id, { ...(cursor ? { afterEntryId: cursor } : {}), limit: SCAN_PAGE });
      for (const e of page) {
        if (listed.length < MAX_LISTED) listed.push(e);
        tally.add(e);
        first ??= e.entryId;
        last = e.entryId;
        count++;
      }
      if (page.length < SCAN_PAGE || count >= MAX_COVERED) break;
      cursor = last!;
    }
    if (count === 0 || first === null || last === null) return null;
    const [firstEntryId, lastEntryId] = [first, last];
    return this.queue(row, reason, (h, activate) => ({
      ...activate({ tally, newItemCount: count, latestEntryId: lastEntryId, listed }),
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

  /** A tally for the entries a notification covers (digests.ts feeds its own). */
  newTally(): ActivationTally {
    return new ActivationTally();
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

  // --- attempts ----------------------------------------------------------------------------------

  /** The target's oldest pending row: the only one it may be sent (a later row never overtakes it). */
  head(targetId: string): NotificationRow | undefined {
    return this.stmt.head.get(targetId) as NotificationRow | undefined;
  }

  attempted(notificationId: string): void {
    this.stmt.attempted.run(this.deps.clock.now(), notificationId);
  }

  sent(notificationId: string, now: number): void {
    this.stmt.sent.run(now, now, notificationId);
  }

  /** Still pending, next attempted at `dueMs`, with the error of the failed attempt. */
  retryAt(notificationId: string, dueMs: number, error: string, now: number): void {
    this.stmt.retry.run(dueMs, error, now, notificationId);
  }

  /** Make the target's pending rows due now (a recovery resets the backoff). Inside the caller's transaction. */
  resetBackoff(targetId: string): void {
    const now = this.deps.clock.now();
    this.stmt.dueNow.run(now, now, targetId);
  }

  // --- housekeeping ------------------------------------------------------------------------------

  /** Rows of a target, oldest first (tests, diagnostics). */
  of(targetId: string): Array<{ notificationId: string; status: string; reason: string; entryCount: number; attempts: number }> {
    return (this.stmt.list.all(targetId) as NotificationRow[]).map((r) => ({
      notificationId: r.notification_id,
      status: r.status,
      reason: r.reason,
      entryCount: r.entry_count,
      attempts: r.attempts,
    }));
  }

  /** The last `limit` activations and notifications, newest first, and how many activations are kept. */
  history(limit: number): NotificationHistory {
    return {
      activations: (this.stmt.activations.all(limit) as string[]).map((p) => JSON.parse(p) as unknown),
      activationCount: this.stmt.activationCount.get() as number,
      notifications: (this.stmt.recent.all(limit) as NotificationRow[]).map(toRecord),
    };
  }

  /**
   * A removed target's pending rows go (nothing more is sent to it); what was sent or failed stays
   * as history until the notifications' retention, as AgentInbox keeps a removed target's activations.
   */
  removeTarget(targetId: string): void {
    this.stmt.removeTarget.run(targetId);
  }

  removeAgent(agentId: string): void {
    this.stmt.removeAgent.run(agentId);
  }

  /** Remove delivered and failed rows older than NOTIFICATION_RETENTION_MS. */
  gc(): Record<string, number> {
    const cutoff = this.deps.clock.now() - NOTIFICATION_RETENTION_MS;
    return { notificationsRemoved: this.deps.store.tx(() => this.stmt.gc.run(cutoff).changes) };
  }
}

/** Notification ids: `ntf_` + a ULID (used as the webhook-id). */
function notificationIdFrom(anyId: string): string {
  return `ntf_${anyId.slice(anyId.indexOf('_') + 1)}`;
}

function toRecord(r: NotificationRow): NotificationRecord {
  return {
    notificationId: r.notification_id,
    agentId: r.agent_id,
    targetId: r.target_id,
    targetKind: r.target_kind,
    reason: r.reason,
    status: r.status,
    entryCount: r.entry_count,
    attempts: r.attempts,
    lastError: r.last_error,
    createdAt: isoAt(r.created_ms),
    sentAt: r.sent_ms === null ? null : isoAt(r.sent_ms),
  };
}

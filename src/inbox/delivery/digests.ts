/**
 * Digest notifications: targets whose effective aggregation policy is `digest` (aggregation.ts)
 * get no notification per entry; once per period (every N ms from when the policy took effect, or
 * at each occurrence of a cron expression in its IANA time zone, across DST changes like inbox
 * timers) they get ONE notification `{type:"inbox.digest", …}` (with AgentInbox's activation
 * fields beside, activation.ts) summarising the unacknowledged
 * entries since the last digest (after the target's `queued_through` cursor): the total, counts
 * per kind and source, the first `maxEntries` entries. Nothing new: no digest, the period passes.
 * Digests are ordinary notification rows, so they go out through the same deliverers with the
 * same retries, backoff and offline handling (notifier.ts); entries stay readable and ackable.
 *
 * Durable: a target's schedule is a row (inbox_digest_schedules); the digest row, the cursor and
 * the next boundary change in one transaction. A boundary that passed while the daemon was down
 * fires ONE digest at start and the schedule moves on to the next future boundary (missed periods
 * are not replayed one digest each).
 *
 * Delivery pause (spec/inbox.md "States and transitions", which names digests among the gated
 * notifications): while the agent is paused, or the target offline, a boundary that comes due
 * sends nothing and the schedule stays at it (held). The resume's catch-up (pause.ts)
 * then sends ONE digest for a digest target, `reason: "catch_up"`, only if a boundary was held,
 * persisted in the transaction that clears the pause; the schedule continues at the next future
 * boundary. A resume before the next boundary sends nothing: the next digest covers the entries.
 */
import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import { isoAt, type Clock } from '../../core/index.js';
import type { Lifecycle } from '../../runtime/index.js';
import { TimerSchedule } from '../../runtime/timers/index.js';
import type { Store } from '../../store/index.js';
import { nextRecurrence, type InboxAgents, type InboxEntries } from '../entries/index.js';
import type { AggregationPolicies, DigestPolicy, DigestScheduleView } from './aggregation.js';
import type { Notifier } from './notifier.js';
import type { TargetService } from './targets.js';
import type { NotificationReason, NotificationSummary, TargetRow } from './types.js';

const FIRE_BATCH = 500;

export interface DigestsDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  agents: InboxAgents;
  entries: InboxEntries;
  targets: TargetService;
  notifier: Notifier;
  policies: AggregationPolicies;
}

interface ScheduleRow {
  target_id: string;
  agent_id: string;
  policy: string;
  anchor_ms: number;
  next_due_ms: number | null;
  last_digest_ms: number | null;
  digest_count: number;
  created_ms: number;
  updated_ms: number;
}

export class Digests implements Lifecycle {
  private readonly stmt;
  private readonly schedule: TimerSchedule;

  constructor(private readonly deps: DigestsDeps) {
    const db: Database.Database = deps.store.db;
    this.stmt = {
      get: db.prepare('SELECT * FROM inbox_digest_schedules WHERE target_id = ?'),
      all: db.prepare('SELECT * FROM inbox_digest_schedules'),
      upsert: db.prepare(
        `INSERT INTO inbox_digest_schedules (target_id, agent_id, policy, anchor_ms, next_due_ms, created_ms, updated_ms)
         VALUES (@target_id, @agent_id, @policy, @anchor_ms, @next_due_ms, @now, @now)
         ON CONFLICT (target_id) DO UPDATE SET policy = excluded.policy, anchor_ms = excluded.anchor_ms, next_due_ms = excluded.next_due_ms, updated_ms = excluded.updated_ms`,
      ),
      fired: db.prepare(
        'UPDATE inbox_digest_schedules SET next_due_ms = ?, last_digest_ms = coalesce(?, last_digest_ms), digest_count = digest_count + ?, updated_ms = ? WHERE target_id = ?',
      ),
      remove: db.prepare('DELETE FROM inbox_digest_schedules WHERE target_id = ?'),
    };
    this.schedule = new TimerSchedule(deps.clock, () => void this.runDue());
    deps.policies.onChanged((targetId) => this.sync(targetId));
    deps.targets.onCreated((targetId) => this.sync(targetId));
    // Agent deletion runs the targets' delete listeners too.
    deps.targets.onDeleted((targetId) => {
      this.stmt.remove.run(targetId);
      deps.store.afterCommit(() => this.schedule.remove(targetId));
    });
  }

  // --- lifecycle -------------------------------------------------------------------------------

  /** Reconcile schedules with the policies, load them; a boundary passed while down fires once. */
  start(): void {
    this.deps.store.tx(() => {
      for (const row of this.deps.targets.allRows()) this.sync(row.target_id);
    });
    for (const row of this.stmt.all.iterate() as Iterable<ScheduleRow>) {
      if (row.next_due_ms !== null) this.schedule.set(row.target_id, row.next_due_ms);
    }
    const fired = this.runDue();
    if (fired > 0) this.deps.logger.info({ fired }, 'inbox digests due while the daemon was down queued at start');
  }

  stop(): void {
    this.schedule.stop();
  }

  // --- reads -----------------------------------------------------------------------------------

  isDigest(row: TargetRow): boolean {
    return this.deps.policies.effective(row).mode === 'digest';
  }

  scheduleOf(targetId: string): DigestScheduleView | null {
    const row = this.stmt.get.get(targetId) as ScheduleRow | undefined;
    if (!row) return null;
    return {
      nextDigestAt: row.next_due_ms === null ? null : isoAt(row.next_due_ms),
      lastDigestAt: row.last_digest_ms === null ? null : isoAt(row.last_digest_ms),
      digestCount: row.digest_count,
    };
  }

  // --- schedule --------------------------------------------------------------------------------

  /**
   * Inside the transaction that created the target or changed a policy: a digest target gets a
   * schedule starting now (kept as it is when its policy did not change); any other loses it.
   */
  private sync(targetId: string): void {
    const { store, clock, targets, policies, notifier } = this.deps;
    const target = targets.find(targetId);
    const existing = this.stmt.get.get(targetId) as ScheduleRow | undefined;
    const policy = target ? policies.effective(target) : null;
    if (!target || policy?.mode !== 'digest') {
      if (!existing) return;
      this.stmt.remove.run(targetId);
      store.afterCommit(() => {
        this.schedule.remove(targetId);
        notifier.nudge(targetId);
      });
      return;
    }
    const key = JSON.stringify(policy);
    if (existing?.policy === key) return;
    const now = clock.now();
    const next = nextRecurrence(policy, now, now);
    this.stmt.upsert.run({ target_id: targetId, agent_id: target.agent_id, policy: key, anchor_ms: now, next_due_ms: next, now });
    store.afterCommit(() => (next === null ? this.schedule.remove(targetId) : this.schedule.set(targetId, next)));
  }

  // --- firing ----------------------------------------------------------------------------------

  /**
   * Queue the digest of every target whose boundary is due by the clock now; re-arm. The real
   * timeout calls this; tests call it after advancing a ManualClock. Returns digests queued.
   */
  runDue(): number {
    let queued = 0;
    for (;;) {
      const due = this.schedule.takeDue(this.deps.clock.now(), FIRE_BATCH);
      if (due.length === 0) break;
      for (const { timerId: targetId } of due) {
        try {
          if (this.deps.store.tx(() => this.fire(targetId, 'digest'))) queued++;
        } catch (err) {
          this.deps.logger.error({ err, targetId }, 'queueing an inbox digest failed; retrying in 1 s');
          this.schedule.set(targetId, this.deps.clock.now() + 1000);
        }
      }
      if (due.length < FIRE_BATCH) break;
    }
    this.schedule.arm();
    return queued;
  }

  /**
   * The resume's catch-up for an active digest target (pause.ts), inside the transaction
   * that is about to clear the agent's pause (so the pause is not looked at): the digest of a
   * held boundary, if one is held.
   */
  catchUp(row: TargetRow): NotificationSummary[] {
    const summary = this.fire(row.target_id, 'catch_up');
    return summary ? [summary] : [];
  }

  /**
   * Inside a transaction: if the target's boundary has come, queue its digest (nothing when no
   * entry is new) and move to the next boundary after now; if the target may not be notified now
   * (agent paused, target offline), leave the boundary held. Returns the digest queued, if any.
   */
  private fire(targetId: string, reason: NotificationReason): NotificationSummary | null {
    const { store, clock, targets } = this.deps;
    const sched = this.stmt.get.get(targetId) as ScheduleRow | undefined;
    if (!sched || sched.next_due_ms === null) return null;
    const now = clock.now();
    if (sched.next_due_ms > now) {
      const due = sched.next_due_ms;
      store.afterCommit(() => this.schedule.set(targetId, due));
      return null;
    }
    const target = targets.find(targetId);
    const held = reason === 'catch_up' ? false : this.isPaused(target?.agent_id ?? '');
    if (!target || target.status !== 'active' || held) return null;
    const policy = JSON.parse(sched.policy) as DigestPolicy;
    const summary = this.queueDigest(target, sched, policy, reason);
    const next = nextRecurrence(policy, sched.anchor_ms, Math.max(now, sched.next_due_ms));
    this.stmt.fired.run(next, summary ? now : null, summary ? 1 : 0, now, targetId);
    store.afterCommit(() => {
      if (next !== null) this.schedule.set(targetId, next);
      if (summary) this.deps.notifier.wake([targetId]);
    });
    return summary;
  }

  private queueDigest(target: TargetRow, sched: ScheduleRow, policy: DigestPolicy, reason: NotificationReason): NotificationSummary | null {
    const d = this.deps.entries.digest(target.agent_id, { afterEntryId: target.queued_through ?? undefined, list: policy.maxEntries });
    if (!d) return null;
    // The digest's counts cover every entry; subscriptions and the latest summary come from the listed ones.
    const tally = this.deps.notifier.newTally();
    tally.addSources(d.sources);
    for (const e of d.entries) tally.add(e);
    return this.deps.notifier.queue(target, reason, (h, activate) => ({
      ...activate({ tally, newItemCount: d.entryCount, latestEntryId: d.lastEntryId, listed: d.entries }),
      type: 'inbox.digest',
      notificationId: h.notificationId,
      agentId: h.agentId,
      targetId: h.targetId,
      reason: h.reason,
      entryCount: d.entryCount,
      firstEntryId: d.firstEntryId,
      lastEntryId: d.lastEntryId,
      sources: d.sources,
      truncated: d.entryCount > d.entries.length,
      entries: d.entries,
      since: isoAt(sched.last_digest_ms ?? sched.anchor_ms),
      scheduledFor: isoAt(sched.next_due_ms!),
      createdAt: h.createdAt,
    }));
  }

  private isPaused(agentId: string): boolean {
    return !this.deps.agents.exists(agentId) || this.deps.agents.get(agentId).deliveryPaused;
  }
}

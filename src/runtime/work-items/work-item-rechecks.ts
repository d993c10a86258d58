/**
 * Work item rechecks (docs/control-plane-api.md#work-items: "When `recheck_at` passes, the runtime
 * enqueues a `system_tick` for the agent and sets `recheck_consumed_at`"). One real setTimeout is
 * armed for the earliest pending `recheck_at` (re-armed after every committed change and at start);
 * when it passes, the tick is enqueued and `recheck_consumed_at` set in the same transaction, with
 * a `work_item_recheck_fired` event, so each recheck fires exactly once. Time is read only through
 * deps.clock; tests advance a ManualClock and call runDue().
 */
import type Database from 'better-sqlite3';
import { isoAt, deriveProvenance } from '../../core/index.js';
import type { RuntimeDeps } from '../deps.js';
import type { WorkItemRow } from './work-item-records.js';

/** Due rechecks handled per transaction. */
const RECHECK_BATCH = 100;
/** Wait before retrying rechecks that could not be enqueued (an I/O error: runtime messages are never refused by the queue cap). */
const RECHECK_RETRY_MS = 1000;
/** setTimeout's largest delay; a later recheck simply re-arms when this one passes. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export class WorkItemRechecks {
  private readonly stmt;
  private timer: NodeJS.Timeout | null = null;
  private started = false;
  private stopped = false;
  /** After a recheck could not be enqueued: do not retry before this time. */
  private backoffUntil = 0;

  constructor(private readonly deps: RuntimeDeps) {
    const db: Database.Database = deps.store.db;
    this.stmt = {
      consume: db.prepare('UPDATE work_items SET recheck_consumed_at = ?, updated_at = ? WHERE work_item_id = ?'),
      next: db
        .prepare(
          "SELECT min(recheck_at) FROM work_items WHERE recheck_at IS NOT NULL AND recheck_consumed_at IS NULL AND state = 'open'",
        )
        .pluck(),
      due: db.prepare(
        `SELECT * FROM work_items WHERE recheck_at IS NOT NULL AND recheck_consumed_at IS NULL AND state = 'open' AND recheck_at <= ?
         ORDER BY recheck_at, work_item_id LIMIT ?`,
      ),
    };
  }

  start(): void {
    this.started = true;
    this.stopped = false;
    // Rechecks that came due while the daemon was down fire now (once), later ones get the timer.
    this.arm();
  }

  stop(): void {
    this.stopped = true;
    this.clearTimer();
  }

  /** Re-arm once the current transaction commits (a change may have moved the earliest recheck). */
  rearmAfterCommit(): void {
    this.deps.store.afterCommit(() => this.arm());
  }

  /**
   * Fire every recheck whose time has passed: enqueue a `system_tick` for the agent and set
   * `recheck_consumed_at`, each in one transaction (exactly once). Returns how many fired.
   * The timer calls this; tests call it after advancing a ManualClock.
   */
  runDue(): number {
    let fired = 0;
    let failed = false;
    for (;;) {
      const nowMs = this.deps.clock.now();
      const due = this.stmt.due.all(nowMs, RECHECK_BATCH) as WorkItemRow[];
      if (due.length === 0) break;
      let progressed = 0;
      this.deps.store.tx(() => {
        for (const row of due) {
          try {
            if (this.deps.store.tx(() => this.fire(row, nowMs))) fired++;
            progressed++;
          } catch (err) {
            failed = true;
            this.deps.logger.warn({ err, agent_id: row.agent_id, work_item_id: row.work_item_id }, 'work item recheck could not be enqueued; will retry');
          }
        }
      });
      if (failed || progressed < RECHECK_BATCH) break;
    }
    this.backoffUntil = failed ? this.deps.clock.now() + RECHECK_RETRY_MS : 0;
    this.arm();
    return fired;
  }

  /** One due recheck, inside a transaction. False when nothing was enqueued (agent gone). */
  private fire(row: WorkItemRow, nowMs: number): boolean {
    const now = isoAt(nowMs);
    const agent = this.deps.agents.find(row.agent_id);
    if (!agent || agent.status === 'deleting') {
      // Its agent is going away: consume the recheck without a tick (deletion purges the item).
      this.stmt.consume.run(now, now, row.work_item_id);
      return false;
    }
    const provenance = deriveProvenance('runtime', { kind: 'system', subsystem: 'work_items' }, { kind: 'system_tick', priority: 'next' });
    const message = this.deps.ingress.enqueueNow(
      row.agent_id,
      provenance,
      { type: 'text', text: `Recheck work item ${row.work_item_id} (${row.objective}): blocked by ${row.blocked_by ?? 'nothing'}` },
      {
        metadata: {
          reason: 'work_item_recheck',
          work_item_id: row.work_item_id,
          blocked_by: row.blocked_by,
          recheck_at: isoAt(row.recheck_at!),
        },
      },
    );
    this.stmt.consume.run(now, now, row.work_item_id);
    this.deps.events.append(row.agent_id, 'work_item_recheck_fired', {
      work_item_id: row.work_item_id,
      message_id: message.message_id,
      recheck_at: isoAt(row.recheck_at!),
      recheck_consumed_at: now,
    });
    return true;
  }

  /** Arm the one timer for the earliest pending recheck (no-op before start or after stop). */
  arm(): void {
    if (!this.started || this.stopped) return;
    this.clearTimer();
    const next = this.stmt.next.get() as number | null;
    if (next === null || next === undefined) return;
    const at = Math.max(next, this.backoffUntil);
    const delay = Math.min(Math.max(0, at - this.deps.clock.now()), MAX_TIMEOUT_MS);
    this.timer = setTimeout(() => {
      this.timer = null;
      try {
        this.runDue();
      } catch (err) {
        this.deps.logger.error({ err }, 'work item rechecks failed');
      }
    }, delay);
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

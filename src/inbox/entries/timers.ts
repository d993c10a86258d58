/**
 * Inbox timers (spec/inbox.md Timer; docs/inbox-api.md#timers): reminders that materialise an inbox
 * entry `{kind:"timer", sender, message, scheduleId}` per occurrence. Exactly one of
 * - `at`: one occurrence at an instant (ISO 8601 with offset), then `completed`;
 * - `every`: every N ms (N >= 1000) on the grid created + k * N;
 * - `cron`: a 5-field expression evaluated by croner in `timezone` (IANA; default the daemon
 *   host's zone), so wall-clock times follow DST: a time skipped in spring fires once at the
 *   first valid instant after the gap, a time repeated in autumn fires once.
 *
 * A firing creates the entry and moves `next_fire_ms`/`fire_count` in one transaction: each
 * occurrence yields exactly one entry, also across a crash. An overdue timer (the daemon was
 * down or the timer was paused) fires ONCE for all the occurrences it missed and moves on to the
 * next future occurrence; missed occurrences are not replayed one entry each. Resume recomputes
 * the next occurrence from now (an `at` already past fires once at resume). The schedule is the
 * shared in-memory heap (runtime/timers/timer-scheduler.ts) over the injected clock, rebuilt at
 * start. Notifying the entry to the agent's targets is the notifier's job, gated by the delivery
 * pause.
 */
import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import { isoAt, type Clock, AppError, errors, type IdGenerator } from '../../core/index.js';
import type { Lifecycle } from '../../runtime/index.js';
import { TimerSchedule } from '../../runtime/timers/index.js';
import type { Store } from '../../store/index.js';
import type { InboxAgents } from './agents.js';
import type { InboxEntries } from './entries.js';
import { checkTimezone, hostTimezone, nextRecurrence, parseCron } from './recurrence.js';

export const SCHEDULE_KINDS = ['at', 'every', 'cron'] as const;
export type ScheduleKind = (typeof SCHEDULE_KINDS)[number];
export const SCHEDULE_STATUSES = ['active', 'paused', 'completed'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];
export const MIN_EVERY_MS = 1000;
/** A firing that failed (I/O) is retried this much later. */
const RETRY_MS = 1000;
const FIRE_BATCH = 500;

/** Who a timer's reminders come from when its creator named nobody (AgentInbox's DEFAULT_TIMER_SENDER). */
export const DEFAULT_TIMER_SENDER = 'timer';

/**
 * A timer as the routes answer it: AgentInbox's AgentTimer (`mode`, `intervalMs`, `cronExpr`,
 * `status` active | paused) with svc's fields beside (`kind`, `every`, `cron`, `fireCount`, and
 * `state`, which also tells a completed timer from a paused one: AgentInbox shows a timer that
 * will never fire again as paused).
 */
export interface InboxTimer {
  scheduleId: string;
  agentId: string;
  status: 'active' | 'paused';
  mode: ScheduleKind;
  at: string | null;
  intervalMs: number | null;
  cronExpr: string | null;
  timezone: string;
  message: string;
  sender: string | null;
  nextFireAt: string | null;
  lastFiredAt: string | null;
  createdAt: string;
  updatedAt: string;
  state: ScheduleStatus;
  kind: ScheduleKind;
  every: number | null;
  cron: string | null;
  fireCount: number;
}

/** A pause or resume: the timer, and whether its status changed (AgentInbox's UpdateTimerStatusResult). */
export interface TimerUpdate {
  updated: boolean;
  timer: InboxTimer;
}

export interface CreateInboxTimerInput {
  agentId: string;
  at?: string | undefined;
  every?: number | undefined;
  cron?: string | undefined;
  timezone?: string | undefined;
  message: string;
  sender?: string | null | undefined;
}

interface ScheduleRow {
  schedule_id: string;
  agent_id: string;
  kind: ScheduleKind;
  at_ms: number | null;
  every_ms: number | null;
  cron: string | null;
  timezone: string;
  message: string;
  sender: string | null;
  status: ScheduleStatus;
  next_fire_ms: number | null;
  last_fired_ms: number | null;
  fire_count: number;
  created_ms: number;
  updated_ms: number;
}

export interface InboxTimersDeps {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  agents: InboxAgents;
  entries: InboxEntries;
}

/** First occurrence strictly after `afterMs`; null when there is none (an `at` already fired, a cron that never matches). */
function nextAfter(row: ScheduleRow, afterMs: number): number | null {
  if (row.kind === 'at') return row.at_ms !== null && row.at_ms > afterMs ? row.at_ms : null;
  return nextRecurrence({ every: row.kind === 'every' ? row.every_ms : null, cron: row.cron, timezone: row.timezone }, row.created_ms, afterMs);
}

export class InboxTimers implements Lifecycle {
  private readonly stmt;
  private readonly schedule: TimerSchedule;

  constructor(private readonly deps: InboxTimersDeps) {
    const db: Database.Database = deps.store.db;
    this.stmt = {
      insert: db.prepare(
        `INSERT INTO inbox_schedules (schedule_id, agent_id, kind, at_ms, every_ms, cron, timezone, message, sender, status, next_fire_ms, fire_count, created_ms, updated_ms)
         VALUES (@schedule_id, @agent_id, @kind, @at_ms, @every_ms, @cron, @timezone, @message, @sender, @status, @next_fire_ms, 0, @created_ms, @updated_ms)`,
      ),
      get: db.prepare('SELECT * FROM inbox_schedules WHERE schedule_id = ?'),
      list: db.prepare('SELECT * FROM inbox_schedules ORDER BY seq'),
      listAgent: db.prepare('SELECT * FROM inbox_schedules WHERE agent_id = ? ORDER BY seq'),
      active: db.prepare("SELECT schedule_id, next_fire_ms FROM inbox_schedules WHERE status = 'active' AND next_fire_ms IS NOT NULL"),
      setState: db.prepare('UPDATE inbox_schedules SET status = ?, next_fire_ms = ?, updated_ms = ? WHERE schedule_id = ?'),
      fired: db.prepare(
        'UPDATE inbox_schedules SET status = ?, next_fire_ms = ?, last_fired_ms = ?, fire_count = fire_count + 1, updated_ms = ? WHERE schedule_id = ?',
      ),
      remove: db.prepare('DELETE FROM inbox_schedules WHERE schedule_id = ?'),
      ofAgent: db.prepare('SELECT schedule_id FROM inbox_schedules WHERE agent_id = ?').pluck(),
      removeAgent: db.prepare('DELETE FROM inbox_schedules WHERE agent_id = ?'),
    };
    this.schedule = new TimerSchedule(deps.clock, () => this.runDue());
    deps.agents.onDeleted((agentId) => {
      const ids = this.stmt.ofAgent.all(agentId) as string[];
      this.stmt.removeAgent.run(agentId);
      deps.store.afterCommit(() => ids.forEach((id) => this.schedule.remove(id)));
    });
  }

  // --- lifecycle -------------------------------------------------------------------------------

  /** Load active timers; overdue ones fire now, once each. */
  start(): void {
    for (const row of this.stmt.active.iterate() as Iterable<{ schedule_id: string; next_fire_ms: number }>) {
      this.schedule.set(row.schedule_id, row.next_fire_ms);
    }
    const fired = this.runDue();
    if (fired > 0) this.deps.logger.info({ fired }, 'overdue inbox timers fired at start');
  }

  stop(): void {
    this.schedule.stop();
  }

  // --- reads -----------------------------------------------------------------------------------

  list(opts: { agentId?: string | undefined; status?: ScheduleStatus | undefined } = {}): InboxTimer[] {
    if (opts.agentId) this.deps.agents.get(opts.agentId);
    const rows = (opts.agentId ? this.stmt.listAgent.all(opts.agentId) : this.stmt.list.all()) as ScheduleRow[];
    return rows.filter((r) => !opts.status || r.status === opts.status).map(toTimer);
  }

  get(scheduleId: string): InboxTimer {
    return toTimer(this.rowOf(scheduleId));
  }

  // --- mutations -------------------------------------------------------------------------------

  create(input: CreateInboxTimerInput): InboxTimer {
    const given = SCHEDULE_KINDS.filter((k) => input[k] !== undefined);
    if (given.length !== 1) {
      throw errors.invalidRequest([{ path: 'body', message: 'send exactly one of at, every, cron' }]);
    }
    const kind = given[0]!;
    const timezone = checkTimezone(input.timezone ?? hostTimezone());
    if (kind === 'every' && input.every! < MIN_EVERY_MS) {
      throw errors.invalidRequest([{ path: 'body.every', message: `must be at least ${MIN_EVERY_MS} ms` }]);
    }
    let atMs: number | null = null;
    if (kind === 'at') {
      atMs = Date.parse(input.at!);
      if (Number.isNaN(atMs)) throw errors.invalidRequest([{ path: 'body.at', message: 'must be an ISO 8601 timestamp with offset' }]);
    }
    if (kind === 'cron') parseCron(input.cron!, timezone);
    return this.deps.store.tx(() => {
      this.deps.agents.get(input.agentId);
      const now = this.deps.clock.now();
      const row: ScheduleRow = {
        schedule_id: this.deps.ids.make('schedule'),
        agent_id: input.agentId,
        kind,
        at_ms: atMs,
        every_ms: kind === 'every' ? input.every! : null,
        cron: kind === 'cron' ? input.cron!.trim() : null,
        timezone,
        message: input.message,
        sender: input.sender ?? DEFAULT_TIMER_SENDER,
        status: 'active',
        next_fire_ms: null,
        last_fired_ms: null,
        fire_count: 0,
        created_ms: now,
        updated_ms: now,
      };
      // An `at` in the past is due at once (fires one entry).
      row.next_fire_ms = kind === 'at' ? atMs : nextAfter(row, now);
      if (row.next_fire_ms === null) throw errors.invalidCron(input.cron!, 'the expression never matches a future time');
      this.stmt.insert.run(row);
      this.deps.store.afterCommit(() => this.schedule.set(row.schedule_id, row.next_fire_ms!));
      return toTimer(row);
    });
  }

  /** active -> paused; paused -> unchanged (updated false); completed -> 409 timer_completed. */
  pause(scheduleId: string): TimerUpdate {
    return this.deps.store.tx(() => {
      const row = this.rowOf(scheduleId);
      if (row.status === 'completed') throw errors.inboxTimerCompleted(scheduleId);
      if (row.status === 'paused') return { updated: false, timer: toTimer(row) };
      this.stmt.setState.run('paused', null, this.deps.clock.now(), scheduleId);
      this.deps.store.afterCommit(() => this.schedule.remove(scheduleId));
      return { updated: true, timer: this.get(scheduleId) };
    });
  }

  /** paused -> active at the next occurrence after now (an `at` in the past: due now); active -> unchanged (updated false). */
  resume(scheduleId: string): TimerUpdate {
    return this.deps.store.tx(() => {
      const row = this.rowOf(scheduleId);
      if (row.status === 'completed') throw errors.inboxTimerCompleted(scheduleId);
      if (row.status === 'active') return { updated: false, timer: toTimer(row) };
      const now = this.deps.clock.now();
      const next = row.kind === 'at' ? row.at_ms : nextAfter(row, now);
      if (next === null) {
        // Never fires again: completed, which AgentInbox's status shows as paused (unchanged).
        this.stmt.setState.run('completed', null, now, scheduleId);
        return { updated: false, timer: this.get(scheduleId) };
      }
      this.stmt.setState.run('active', next, now, scheduleId);
      this.deps.store.afterCommit(() => this.schedule.set(scheduleId, next));
      return { updated: true, timer: this.get(scheduleId) };
    });
  }

  delete(scheduleId: string): void {
    this.deps.store.tx(() => {
      this.rowOf(scheduleId);
      this.stmt.remove.run(scheduleId);
      this.deps.store.afterCommit(() => this.schedule.remove(scheduleId));
    });
  }

  // --- firing ----------------------------------------------------------------------------------

  /** Fire every timer due by the clock now; re-arm. The real timeout calls this; tests call it after advancing a ManualClock. */
  runDue(): number {
    let fired = 0;
    for (;;) {
      const due = this.schedule.takeDue(this.deps.clock.now(), FIRE_BATCH);
      if (due.length === 0) break;
      fired += this.fireBatch(due.map((d) => d.timerId));
      if (due.length < FIRE_BATCH) break;
    }
    this.schedule.arm();
    return fired;
  }

  /** One transaction for the batch, one savepoint per timer. */
  private fireBatch(ids: string[]): number {
    const { store, clock, logger } = this.deps;
    const reschedule: Array<[string, number]> = [];
    let fired = 0;
    try {
      store.tx(() => {
        for (const id of ids) {
          try {
            const next = store.tx(() => this.fireOne(id));
            if (next === undefined) continue;
            fired++;
            if (next !== null) reschedule.push([id, next]);
          } catch (err) {
            if (err instanceof AppError && err.code === 'agent_not_found') {
              store.tx(() => this.stmt.setState.run('completed', null, clock.now(), id));
              continue;
            }
            logger.warn({ err, scheduleId: id }, `inbox timer firing failed; retrying in ${RETRY_MS} ms`);
            reschedule.push([id, clock.now() + RETRY_MS]);
          }
        }
      });
    } catch (err) {
      logger.error({ err }, `committing inbox timer firings failed; retrying in ${RETRY_MS} ms`);
      for (const id of ids) this.schedule.set(id, clock.now() + RETRY_MS);
      return 0;
    }
    for (const [id, due] of reschedule) this.schedule.set(id, due);
    return fired;
  }

  /** Inside a transaction: one entry for this occurrence (however many were missed). Next due, null (completed) or undefined (not due). */
  private fireOne(scheduleId: string): number | null | undefined {
    const row = this.stmt.get.get(scheduleId) as ScheduleRow | undefined;
    if (!row || row.status !== 'active' || row.next_fire_ms === null) return undefined;
    const now = this.deps.clock.now();
    if (row.next_fire_ms > now) return row.next_fire_ms;
    this.deps.entries.create(row.agent_id, { kind: 'timer', sender: row.sender, message: row.message, scheduleId });
    const next = nextAfter(row, Math.max(now, row.next_fire_ms));
    this.stmt.fired.run(next === null ? 'completed' : 'active', next, now, now, scheduleId);
    return next;
  }

  private rowOf(scheduleId: string): ScheduleRow {
    const row = this.stmt.get.get(scheduleId) as ScheduleRow | undefined;
    if (!row) throw errors.inboxTimerNotFound(scheduleId);
    return row;
  }
}

function toTimer(row: ScheduleRow): InboxTimer {
  return {
    scheduleId: row.schedule_id,
    agentId: row.agent_id,
    status: row.status === 'active' ? 'active' : 'paused',
    mode: row.kind,
    at: row.at_ms === null ? null : isoAt(row.at_ms),
    intervalMs: row.every_ms,
    cronExpr: row.cron,
    timezone: row.timezone,
    message: row.message,
    sender: row.sender,
    nextFireAt: row.status === 'active' && row.next_fire_ms !== null ? isoAt(row.next_fire_ms) : null,
    lastFiredAt: row.last_fired_ms === null ? null : isoAt(row.last_fired_ms),
    createdAt: isoAt(row.created_ms),
    updatedAt: isoAt(row.updated_ms),
    state: row.status,
    kind: row.kind,
    every: row.every_ms,
    cron: row.cron,
    fireCount: row.fire_count,
  };
}

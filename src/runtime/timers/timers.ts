/**
 * Durable agent timers (docs/control-plane-api.md#timers; spec "Timer" state table).
 *
 * A timer first fires `duration_ms` after its creation; an interval timer (`interval_ms` > 0)
 * then fires every `interval_ms` on that original grid (created + duration + k * interval).
 * `interval_ms` null or 0 means a one-shot. A firing enqueues a `system_tick` (origin
 * `{kind:"timer", timer_id}`, trusted_system / runtime_instruction / next), updates the record
 * and appends `timer_fired`, all in one transaction. A firing that finds several periods missed
 * (the daemon was down, or the event loop was held up) fires once for all of them and moves
 * `next_fire_at` to the first grid point in the future: the cadence never drifts.
 *
 * Floors (resource bounds): an interval is 0 (a one-shot) or at least `MIN_INTERVAL_MS`, like the
 * inbox timers' `every`; an agent has at most `timers.max_active_per_agent` active timers (409
 * timer_limit_reached past it). Both are checked here, where every creator (the HTTP route, the
 * model's create_timer tool) passes. The queue never refuses a tick (a runtime-owned message), so
 * a timer keeps at most one tick waiting in it: while its previous tick is still queued (the agent
 * is stopped or busy), a due firing is held and re-checked every `RETRY_MS`, then fires once for
 * every period it missed. An agent's queue thus holds at most one tick per active timer.
 *
 * Records are rows in SQLite; the schedule is an in-memory min-heap rebuilt from the active rows
 * at start (timer-scheduler.ts), with one real setTimeout for the earliest due timer. All
 * time comes from `deps.clock`; tests with a ManualClock advance it and call `runDue()`.
 */
import type Database from 'better-sqlite3';
import { isoAt, AppError, errors, deriveProvenance, type TrustLevel } from '../../core/index.js';
import type { AgentRecord } from '../agents/index.js';
import type { Span } from '../../telemetry/index.js';
import type { ResourceService, RuntimeDeps } from '../deps.js';
import { TimerSchedule, type ScheduleEntry } from './timer-scheduler.js';

export const TIMER_STATUSES = ['active', 'cancelled', 'completed'] as const;
export type TimerStatus = (typeof TIMER_STATUSES)[number];

export interface TimerRecord {
  timer_id: string;
  agent_id: string;
  status: TimerStatus;
  duration_ms: number;
  interval_ms: number | null;
  summary: string | null;
  created_at: string;
  /** When the timer fires next; null once it is cancelled or completed. */
  next_fire_at: string | null;
  last_fired_at: string | null;
  fire_count: number;
}

export interface CreateTimerInput {
  duration_ms: number;
  interval_ms?: number | null | undefined;
  summary?: string | null | undefined;
  /** Set when a model's tool call creates the timer: the trust of its turn, carried by every tick. */
  taint?: TrustLevel | null | undefined;
}

export interface ListTimersOptions {
  limit?: number | undefined;
  status?: TimerStatus | undefined;
}

interface TimerRow {
  timer_id: string;
  agent_id: string;
  incarnation: number;
  status: TimerStatus;
  duration_ms: number;
  interval_ms: number | null;
  summary: string | null;
  created_ms: number;
  next_fire_ms: number | null;
  last_fired_ms: number | null;
  fire_count: number;
  taint: TrustLevel | null;
}

/** Shortest period of an interval timer (the inbox timers' `every` floor too). */
export const MIN_INTERVAL_MS = 1000;

/** Timers on the agent state page. */
export const STATE_LIMIT = 50;
/** Default and largest page of GET /api/agents/:id/timers. */
export const LIST_DEFAULT = 100;
export const LIST_MAX = 1000;
/** Firings committed together in one transaction (one fsync), each in its own savepoint. */
const FIRE_BATCH = 500;
/** A firing that could not be delivered (an I/O error; the queue cap never refuses a tick) is retried this much later. */
export const RETRY_MS = 1000;

type FireOutcome = { fired: true; next: number | null } | { fired: false; next: number } | undefined;

export class TimerService implements ResourceService {
  private readonly stmt;
  private readonly schedule: TimerSchedule;
  /** The last tick each timer enqueued (a stale id, e.g. of a rolled-back firing, reads as not queued). */
  private readonly lastTick = new Map<string, string>();

  constructor(private readonly deps: RuntimeDeps) {
    const db: Database.Database = deps.store.db;
    this.stmt = {
      insert: db.prepare(
        `INSERT INTO timers (timer_id, agent_id, incarnation, status, duration_ms, interval_ms, summary, created_ms, next_fire_ms, last_fired_ms, fire_count, taint, updated_ms)
         VALUES (@timer_id, @agent_id, @incarnation, @status, @duration_ms, @interval_ms, @summary, @created_ms, @next_fire_ms, @last_fired_ms, @fire_count, @taint, @created_ms)`,
      ),
      get: db.prepare('SELECT * FROM timers WHERE timer_id = ?'),
      active: db.prepare("SELECT timer_id, next_fire_ms FROM timers WHERE status = 'active'"),
      listActive: db.prepare(
        "SELECT * FROM timers WHERE agent_id = ? AND incarnation = ? AND status = 'active' ORDER BY seq DESC LIMIT ?",
      ),
      listInactive: db.prepare(
        "SELECT * FROM timers WHERE agent_id = ? AND incarnation = ? AND status IN ('cancelled', 'completed') ORDER BY seq DESC LIMIT ?",
      ),
      listStatus: db.prepare('SELECT * FROM timers WHERE agent_id = ? AND incarnation = ? AND status = ? ORDER BY seq DESC LIMIT ?'),
      fire: db.prepare(
        'UPDATE timers SET status = ?, next_fire_ms = ?, last_fired_ms = ?, fire_count = ?, updated_ms = ? WHERE timer_id = ?',
      ),
      cancel: db.prepare("UPDATE timers SET status = 'cancelled', next_fire_ms = NULL, updated_ms = ? WHERE timer_id = ?"),
      activeOfAgent: db.prepare("SELECT timer_id FROM timers WHERE agent_id = ? AND status = 'active'").pluck(),
      countActive: db.prepare("SELECT count(*) FROM timers WHERE agent_id = ? AND incarnation = ? AND status = 'active'").pluck(),
      cancelAllOfAgent: db.prepare(
        "UPDATE timers SET status = 'cancelled', next_fire_ms = NULL, updated_ms = ? WHERE agent_id = ? AND status = 'active'",
      ),
    };
    this.schedule = new TimerSchedule(deps.clock, () => this.runDue());
  }

  // --- lifecycle -------------------------------------------------------------------------------

  /** Load every active timer into the schedule; overdue ones fire now, once each. */
  start(): void {
    for (const row of this.stmt.active.iterate() as Iterable<{ timer_id: string; next_fire_ms: number }>) {
      this.schedule.set(row.timer_id, row.next_fire_ms);
    }
    for (const m of this.deps.queue.queuedFrom('timer')) {
      const timerId = m.metadata.timer_id;
      if (typeof timerId === 'string') this.lastTick.set(timerId, m.message_id);
    }
    const fired = this.runDue();
    if (fired > 0) this.deps.logger.info({ fired, active: this.schedule.size }, 'overdue timers fired at start');
  }

  stop(): void {
    this.schedule.stop();
  }

  /** The agent is going away: its active timers are cancelled quietly (no event; its log is purged). */
  stopAgent(agentId: string): void {
    const ids = this.stmt.activeOfAgent.all(agentId) as string[];
    if (ids.length === 0) return;
    this.deps.store.tx(() => this.stmt.cancelAllOfAgent.run(this.deps.clock.now(), agentId));
    for (const id of ids) {
      this.schedule.remove(id);
      this.lastTick.delete(id);
    }
  }

  /** Recent timers of the agent for GET /api/agents/:id/state: active first, at most 50. */
  stateFor(agentId: string): TimerRecord[] {
    const agent = this.deps.agents.find(agentId);
    return agent ? this.listOf(agent, { limit: STATE_LIMIT }) : [];
  }

  // --- reads -----------------------------------------------------------------------------------

  /** Recent timers: active ones first (newest first), then cancelled and completed ones. */
  list(agentId: string, opts: ListTimersOptions = {}): TimerRecord[] {
    return this.listOf(this.deps.agents.get(agentId), opts);
  }

  get(agentId: string, timerId: string): TimerRecord {
    const agent = this.deps.agents.get(agentId);
    return toRecord(this.rowOf(agent, timerId));
  }

  /** Active timers in the schedule (all agents). */
  get activeCount(): number {
    return this.schedule.size;
  }

  // --- mutations -------------------------------------------------------------------------------

  /**
   * Create a timer; answered after its commit. An interval under MIN_INTERVAL_MS answers 400
   * invalid_request, an agent at its active-timer cap 409 timer_limit_reached.
   */
  create(agentId: string, input: CreateTimerInput): Promise<TimerRecord> {
    const interval = input.interval_ms ?? 0;
    if (interval !== 0 && interval < MIN_INTERVAL_MS) {
      return Promise.reject(
        errors.invalidRequest([{ path: 'interval_ms', message: `must be 0 or null (a one-shot timer) or at least ${MIN_INTERVAL_MS} ms` }]),
      );
    }
    return this.deps.store.write(() => {
      const agent = this.deps.agents.getWritable(agentId);
      const cap = this.deps.config.values.timers.max_active_per_agent;
      if ((this.stmt.countActive.get(agent.agent_id, agent.incarnation) as number) >= cap) throw errors.timerLimitReached(agent.agent_id, cap);
      const now = this.deps.clock.now();
      const row: TimerRow = {
        timer_id: this.deps.ids.make('timer'),
        agent_id: agent.agent_id,
        incarnation: agent.incarnation,
        status: 'active',
        duration_ms: input.duration_ms,
        interval_ms: input.interval_ms ?? null,
        summary: input.summary ?? null,
        created_ms: now,
        next_fire_ms: now + input.duration_ms,
        last_fired_ms: null,
        fire_count: 0,
        taint: input.taint ?? null,
      };
      this.stmt.insert.run(row);
      const record = toRecord(row);
      this.deps.events.append(agentId, 'timer_created', { timer_id: row.timer_id, timer: record });
      this.deps.store.afterCommit(() => this.schedule.set(row.timer_id, row.next_fire_ms!));
      return record;
    });
  }

  /** active -> cancelled (+ timer_cancelled); cancelled -> unchanged; completed -> 400 timer_completed. */
  cancel(agentId: string, timerId: string): Promise<TimerRecord> {
    return this.deps.store.write(() => {
      const agent = this.deps.agents.getWritable(agentId);
      const row = this.rowOf(agent, timerId);
      if (row.status === 'completed') throw errors.timerCompleted(timerId);
      if (row.status === 'cancelled') return toRecord(row);
      this.stmt.cancel.run(this.deps.clock.now(), timerId);
      const record = toRecord({ ...row, status: 'cancelled', next_fire_ms: null });
      this.deps.events.append(agentId, 'timer_cancelled', { timer_id: timerId, timer: record });
      this.deps.store.afterCommit(() => {
        this.schedule.remove(timerId);
        this.lastTick.delete(timerId);
      });
      return record;
    });
  }

  // --- firing ----------------------------------------------------------------------------------

  /**
   * Fire every timer due by the clock's current time, then re-arm the real timeout for the next
   * one. Returns how many fired. The timeout calls this; tests call it after advancing a
   * ManualClock.
   */
  runDue(): number {
    let fired = 0;
    for (;;) {
      const due = this.schedule.takeDue(this.deps.clock.now(), FIRE_BATCH);
      if (due.length === 0) break;
      fired += this.fireBatch(due);
      if (due.length < FIRE_BATCH) break;
    }
    this.schedule.arm();
    return fired;
  }

  /** One transaction for the batch, one savepoint per timer: one failing timer undoes only itself. */
  private fireBatch(entries: ScheduleEntry[]): number {
    const { store, logger, clock } = this.deps;
    const reschedule: Array<[string, number]> = [];
    let fired = 0;
    try {
      store.tx(() => {
        for (const e of entries) {
          const span = this.deps.tracer?.startSpan('timer.fire', { 'svc.timer_id': e.timerId }, null);
          try {
            const outcome = store.tx(() => this.fireOne(e.timerId, span));
            if (!outcome?.fired) {
              span?.discard();
              if (outcome) reschedule.push([e.timerId, outcome.next]);
              continue;
            }
            span?.end('ok');
            fired++;
            if (outcome.next !== null) reschedule.push([e.timerId, outcome.next]);
            else this.lastTick.delete(e.timerId);
          } catch (err) {
            span?.end('error', err);
            if (err instanceof AppError && (err.code === 'agent_not_found' || err.code === 'agent_deleting')) {
              // The agent is gone or going: nobody is left to deliver to.
              store.tx(() => this.stmt.cancel.run(clock.now(), e.timerId));
              continue;
            }
            logger.warn({ err, timer_id: e.timerId }, `timer firing failed; retrying in ${RETRY_MS} ms`);
            reschedule.push([e.timerId, clock.now() + RETRY_MS]);
          }
        }
      });
    } catch (err) {
      // The commit itself failed: nothing of the batch happened; try it all again later.
      logger.error({ err, timers: entries.length }, `committing timer firings failed; retrying in ${RETRY_MS} ms`);
      const retryAt = clock.now() + RETRY_MS;
      for (const e of entries) this.schedule.set(e.timerId, retryAt);
      return 0;
    }
    for (const [id, due] of reschedule) this.schedule.set(id, due);
    return fired;
  }

  /**
   * Fire one timer inside the caller's transaction. Returns whether it fired and when it is due
   * next (null: the timer completed), or undefined when it is no longer active. A timer not due
   * yet, or held behind its own still-queued tick, did not fire and is due again at `next`.
   */
  private fireOne(timerId: string, span?: Span): FireOutcome {
    const row = this.stmt.get.get(timerId) as TimerRow | undefined;
    if (!row || row.status !== 'active' || row.next_fire_ms === null) return undefined;
    const at = this.deps.clock.now();
    if (row.next_fire_ms > at) return { fired: false, next: row.next_fire_ms };
    const agent = this.deps.agents.find(row.agent_id);
    if (!agent || agent.incarnation !== row.incarnation) throw errors.agentNotFound(row.agent_id);
    const previous = this.lastTick.get(timerId);
    if (previous !== undefined && this.deps.queue.isQueued(previous)) return { fired: false, next: at + RETRY_MS };
    const scheduledFor = row.next_fire_ms;
    span?.setAttributes({ 'svc.agent_id': row.agent_id, 'svc.timer.lateness_ms': at - scheduledFor });
    const fireCount = row.fire_count + 1;
    // A period under the floor can only be a row stored before the floor existed: it keeps the floor.
    const interval = row.interval_ms ? Math.max(row.interval_ms, MIN_INTERVAL_MS) : 0;
    // Missed grid points are coalesced into this one firing; the next stays on the grid.
    const missed = interval > 0 ? Math.floor((at - scheduledFor) / interval) : 0;
    const next = interval > 0 ? scheduledFor + (missed + 1) * interval : null;
    const status: TimerStatus = next === null ? 'completed' : 'active';
    const provenance = deriveProvenance('timer', { kind: 'timer', timer_id: timerId }, { kind: 'system_tick', taint: row.taint });
    const message = this.deps.ingress.enqueueNow(
      row.agent_id,
      provenance,
      {
        type: 'json',
        value: { reason: 'timer', timer_id: timerId, summary: row.summary, fire_count: fireCount, scheduled_for: isoAt(scheduledFor) },
      },
      { metadata: { timer_id: timerId } },
    );
    this.lastTick.set(timerId, message.message_id);
    this.stmt.fire.run(status, next, at, fireCount, at, timerId);
    this.deps.events.append(row.agent_id, 'timer_fired', {
      timer_id: timerId,
      message_id: message.message_id,
      scheduled_for: isoAt(scheduledFor),
      fired_at: isoAt(at),
      lateness_ms: at - scheduledFor,
      missed_periods: missed,
      fire_count: fireCount,
      status,
      next_fire_at: next === null ? null : isoAt(next),
    });
    return { fired: true, next };
  }

  // --- helpers ---------------------------------------------------------------------------------

  private rowOf(agent: AgentRecord, timerId: string): TimerRow {
    const row = this.stmt.get.get(timerId) as TimerRow | undefined;
    if (!row || row.agent_id !== agent.agent_id || row.incarnation !== agent.incarnation) {
      throw errors.timerNotFound(timerId, { agent_id: agent.agent_id });
    }
    return row;
  }

  private listOf(agent: AgentRecord, opts: ListTimersOptions): TimerRecord[] {
    const limit = Math.min(LIST_MAX, Math.max(1, opts.limit ?? LIST_DEFAULT));
    const { agent_id, incarnation } = agent;
    let rows: TimerRow[];
    if (opts.status) rows = this.stmt.listStatus.all(agent_id, incarnation, opts.status, limit) as TimerRow[];
    else {
      rows = this.stmt.listActive.all(agent_id, incarnation, limit) as TimerRow[];
      if (rows.length < limit) rows = rows.concat(this.stmt.listInactive.all(agent_id, incarnation, limit - rows.length) as TimerRow[]);
    }
    return rows.map(toRecord);
  }
}

function toRecord(row: TimerRow): TimerRecord {
  return {
    timer_id: row.timer_id,
    agent_id: row.agent_id,
    status: row.status,
    duration_ms: row.duration_ms,
    interval_ms: row.interval_ms,
    summary: row.summary,
    created_at: isoAt(row.created_ms),
    next_fire_at: row.status === 'active' && row.next_fire_ms !== null ? isoAt(row.next_fire_ms) : null,
    last_fired_at: row.last_fired_ms === null ? null : isoAt(row.last_fired_ms),
    fire_count: row.fire_count,
  };
}

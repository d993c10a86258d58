/**
 * Event retention: keeps each agent's durable log within `events.retain_days` and
 * `events.retain_max_events`, and gives the freed space back to the file system. What is left is
 * the replay window (docs/configuration.md#event-retention): `after_seq` below it answers 404
 * cursor_not_found, and an open stream that falls behind it is closed (events/sse.ts).
 *
 * Only a prefix of a log is ever deleted, so the retained events stay one contiguous range
 * `oldest..head`. The age rule deletes the oldest events while they are older than the cut-off (a
 * log is in time order: an older event behind a newer one waits for it). The count rule keeps the
 * newest `retain_max_events` event_seqs. The head is never lost (EventLog.prune).
 *
 * Off the request path: a pass deletes at most `batchSize` rows per transaction, each a group-commit
 * write of its own (so the event loop turns between batches and requests are answered meanwhile),
 * followed by a small PASSIVE checkpoint, so no single checkpoint has a large WAL to copy and sync.
 * Then `PRAGMA incremental_vacuum` returns the free pages in steps of `vacuumStepPages`, the same way.
 * A pass runs at start, every `intervalMs` (unref'd timer), and when an append finds a log a
 * batch's worth past its cap (counted from the appended event_seq, never a COUNT(*)).
 */
import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import { isoAt, type Clock } from '../core/index.js';
import { INTERNAL, type Store } from '../store/index.js';
import type { EventEnvelope, EventLog } from './event-log.js';

const DAY_MS = 86_400_000;

export const RETENTION_DEFAULTS = { batchSize: 500, intervalMs: 60_000, vacuumStepPages: 256 } as const;

export interface RetentionOptions {
  /** Events older than this many days are pruned; 0 = no age limit. */
  retainDays: number;
  /** Events kept per agent (the newest); 0 = no count limit. */
  maxEvents: number;
  /** Rows deleted per transaction, at most. */
  batchSize?: number;
  intervalMs?: number;
  /** Pages handed back per incremental_vacuum step, at most. */
  vacuumStepPages?: number;
}

export interface RetentionDeps {
  store: Store;
  events: EventLog;
  clock: Clock;
  logger?: Logger;
  /** Called after each committed batch with the number of events it deleted. */
  onPruned?: (count: number) => void;
}

export class EventRetention {
  private readonly retainDays: number;
  private readonly maxEvents: number;
  private readonly batchSize: number;
  private readonly intervalMs: number;
  private readonly vacuumStepPages: number;
  private readonly stmt: ReturnType<typeof prepare>;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  /** Lowest retained event_seq per agent as last seen: with an appended event_seq, the log's length. */
  private readonly oldest = new Map<string, number>();

  constructor(
    private readonly deps: RetentionDeps,
    opts: RetentionOptions,
  ) {
    this.retainDays = opts.retainDays;
    this.maxEvents = opts.maxEvents;
    this.batchSize = opts.batchSize ?? RETENTION_DEFAULTS.batchSize;
    this.intervalMs = opts.intervalMs ?? RETENTION_DEFAULTS.intervalMs;
    this.vacuumStepPages = opts.vacuumStepPages ?? RETENTION_DEFAULTS.vacuumStepPages;
    this.stmt = prepare(deps.store.db);
  }

  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => void this.trigger(), this.intervalMs);
    this.timer.unref();
    // A daemon that was down for a while (or whose limits were lowered) catches up now.
    void this.trigger();
  }

  /** Stop the timer and wait for a running pass to end after its current batch. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.idle();
  }

  /** Run a pass now, or once more after the running one; resolves when no pass is running. */
  trigger(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.loop().finally(() => (this.running = null));
    return this.running;
  }

  /** Resolves once no pass is running. */
  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  /** Append listener (once started): a log a batch's worth past its cap starts a pass. */
  noteAppend(event: EventEnvelope): void {
    if (this.maxEvents === 0 || this.timer === null) return;
    let oldest = this.oldest.get(event.agent_id);
    if (oldest === undefined) this.oldest.set(event.agent_id, (oldest = this.deps.events.oldestRetained(event.agent_id)));
    if (event.event_seq - oldest + 1 >= this.maxEvents + this.batchSize) void this.trigger();
  }

  private async loop(): Promise<void> {
    // Never inside the caller's turn (an append's commit hooks): the pass starts on its own.
    await yieldToLoop();
    try {
      do {
        this.again = false;
        await this.pass();
      } while (this.again && !this.stopped);
    } catch (err) {
      // A closed store at shutdown, a full disk: the next pass tries again.
      this.deps.logger?.warn({ err }, 'event retention pass failed');
    }
  }

  private async pass(): Promise<void> {
    const started = this.deps.clock.now();
    const cutoff = this.retainDays > 0 ? isoAt(started - this.retainDays * DAY_MS) : null;
    let pruned = 0;
    if (this.retainDays > 0 || this.maxEvents > 0) {
      const agents = this.stmt.agents.all() as string[];
      const withLog = new Set(agents);
      for (const key of this.oldest.keys()) if (!withLog.has(key)) this.oldest.delete(key);
      for (const agentId of agents) {
        if (this.stopped) return;
        pruned += await this.pruneAgent(agentId, cutoff);
      }
    }
    const vacuumed = await this.vacuum();
    if (pruned > 0 || vacuumed > 0) {
      this.deps.logger?.info({ pruned, vacuumed_pages: vacuumed, ms: this.deps.clock.now() - started }, 'event retention pass');
    }
  }

  private async pruneAgent(agentId: string, cutoff: string | null): Promise<number> {
    const { store, events } = this.deps;
    let total = 0;
    while (!this.stopped && this.cut(agentId, cutoff) !== null) {
      // Decided again inside the transaction: the log may have changed since (deletion, appends).
      const n = await store.write(() => {
        const cut = this.cut(agentId, cutoff);
        return cut === null ? 0 : events.prune(agentId, cut);
      }, INTERNAL);
      if (n === 0) break;
      total += n;
      this.deps.onPruned?.(n);
      await this.checkpoint();
    }
    this.oldest.set(agentId, events.oldestRetained(agentId));
    return total;
  }

  /** The highest event_seq the next batch deletes, or null when the log is within both limits. */
  private cut(agentId: string, cutoff: string | null): number | null {
    const oldest = this.deps.events.oldestRetained(agentId);
    const head = this.deps.events.head(agentId);
    if (oldest > head) return null;
    const last = Math.min(oldest + this.batchSize - 1, head);
    let cut = this.maxEvents > 0 ? head - this.maxEvents : 0;
    if (cutoff !== null && cut < last) {
      const kept = this.stmt.firstKept.get(agentId, oldest, last, cutoff) as number | undefined;
      cut = Math.max(cut, kept === undefined ? last : kept - 1);
    }
    cut = Math.min(cut, last);
    return cut >= oldest ? cut : null;
  }

  /** Hand free pages back to the file system in bounded steps; returns the pages freed. */
  private async vacuum(): Promise<number> {
    const { store } = this.deps;
    let total = 0;
    while (!this.stopped) {
      const free = this.freePages();
      if (free === 0) break;
      await store.write(() => store.db.pragma(`incremental_vacuum(${Math.min(free, this.vacuumStepPages)})`), INTERNAL);
      const left = this.freePages();
      // Nothing moved (auto_vacuum is not incremental): do not spin.
      if (left >= free) break;
      total += free - left;
      await this.checkpoint();
    }
    return total;
  }

  private freePages(): number {
    return this.deps.store.db.pragma('freelist_count', { simple: true }) as number;
  }

  /**
   * Each batch's pages reach the database file in a small checkpoint of their own, in an event-loop
   * turn of its own (the commit took the previous one).
   */
  private async checkpoint(): Promise<void> {
    await yieldToLoop();
    if (!this.deps.store.inTransaction) this.deps.store.checkpoint('PASSIVE');
  }
}

/** Resolves in a later turn of the event loop, after pending I/O (requests) has been handled. */
function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function prepare(db: Database.Database) {
  return {
    // Every agent with a log: one index seek per agent (a skip-scan), not a scan of the events.
    agents: db
      .prepare(
        `WITH RECURSIVE a(id) AS (
           SELECT min(agent_id) FROM events
           UNION ALL SELECT (SELECT min(agent_id) FROM events WHERE agent_id > a.id) FROM a WHERE a.id IS NOT NULL
         ) SELECT id FROM a WHERE id IS NOT NULL`,
      )
      .pluck(),
    // The first event of the range young enough to keep.
    firstKept: db
      .prepare('SELECT event_seq FROM events WHERE agent_id = ? AND event_seq BETWEEN ? AND ? AND ts >= ? ORDER BY event_seq LIMIT 1')
      .pluck(),
  };
}

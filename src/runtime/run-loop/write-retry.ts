/**
 * The run loop's writes under storage faults. A write the disk refused (full, or an I/O error:
 * src/store/faults.ts) changed nothing, and the same write succeeds once space is back; so instead
 * of failing the worker (which left its messages pending until a restart), the write is tried
 * again after a backoff (RETRY_INITIAL_MS, doubling, at most RETRY_MAX_MS) until it succeeds or the
 * caller's signal aborts (shutdown, deletion, or the turn's abort). One error line when a write
 * starts failing and one info line when it succeeds again: a streak is logged once, not per attempt.
 *
 * The waits are measured on the injected clock: one real timer wakes the waiters up and they ask
 * the clock whether their time has come (as the timer schedule does); tests advance a ManualClock
 * and call `retryDue()`.
 */
import type { Logger } from 'pino';
import type { Clock } from '../../core/index.js';
import { storageFaultOf, INTERNAL, type Store } from '../../store/index.js';

export const RETRY_INITIAL_MS = 250;
export const RETRY_MAX_MS = 5_000;

interface Waiter {
  due: number;
  wake: () => void;
}

export class WriteRetry {
  private readonly waiters = new Set<Waiter>();
  private timer: NodeJS.Timeout | null = null;
  private armedFor = Number.POSITIVE_INFINITY;

  constructor(private readonly deps: { store: Store; clock: Clock; logger: Logger }) {}

  /** `fn` in a group commit (promised to nobody: INTERNAL), tried again while the disk refuses it. */
  async write<T>(fn: () => T, who: { agentId: string; signal: AbortSignal }): Promise<T> {
    const { store, clock, logger } = this.deps;
    let failures = 0;
    let since = 0;
    for (;;) {
      try {
        const value = await store.write(fn, INTERNAL);
        if (failures > 0) logger.info({ agent_id: who.agentId, attempts: failures + 1, failing_ms: clock.now() - since }, 'run loop writes succeed again; the agent goes on');
        return value;
      } catch (err) {
        const fault = storageFaultOf(err);
        if (fault === null || who.signal.aborted) throw err;
        if (failures++ === 0) {
          since = clock.now();
          logger.error({ err, agent_id: who.agentId, fault }, 'run loop write refused by the disk; retrying with backoff until it succeeds');
        }
        await this.sleep(Math.min(RETRY_MAX_MS, RETRY_INITIAL_MS * 2 ** (failures - 1)), who.signal, err);
      }
    }
  }

  /** Writes waiting for their next attempt. */
  get waiting(): number {
    return this.waiters.size;
  }

  /** Wake every waiter whose time has come on the clock, and arm the timer for the next one. */
  retryDue(): void {
    const now = this.deps.clock.now();
    for (const w of [...this.waiters]) if (w.due <= now) w.wake();
    this.arm();
  }

  /** Waits `ms` on the clock; rejects with `reason` when `signal` aborts first. */
  private sleep(ms: number, signal: AbortSignal, reason: unknown): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(reason);
      const w: Waiter = {
        due: this.deps.clock.now() + ms,
        wake: () => {
          this.waiters.delete(w);
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.waiters.delete(w);
        this.arm();
        reject(reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.add(w);
      this.arm();
    });
  }

  private arm(): void {
    let due = Number.POSITIVE_INFINITY;
    for (const w of this.waiters) due = Math.min(due, w.due);
    if (due === Number.POSITIVE_INFINITY) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      this.armedFor = due;
      return;
    }
    if (this.timer && this.armedFor <= due) return;
    if (this.timer) clearTimeout(this.timer);
    this.armedFor = due;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.armedFor = Number.POSITIVE_INFINITY;
      this.retryDue();
    }, Math.max(0, due - this.deps.clock.now()));
    this.timer.unref();
  }
}

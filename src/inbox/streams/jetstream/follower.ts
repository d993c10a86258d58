/** The mirroring state of one stream (backend.ts, "mirroring"). */
import type { Logger } from 'pino';
import type { MirroredEvent } from '../sqlite-backend.js';
import type { Delivered } from './layout.js';

/** One mirrored stream: its consumer, what it received, what committed, and appends waiting for it. */
export class Follower {
  /** Last offset received from the consumer (pending or committed). */
  received: number;
  /** Last offset committed to the mirror. */
  ingested: number;
  pending: MirroredEvent[] = [];
  flushScheduled = false;
  stopped = false;
  /** After a failed mirror write: ignore deliveries until the consumer restarts at `ingested`. */
  resetting = false;
  /** Bumped by a failed mirror write: batches received before it are dropped. */
  epoch = 0;
  /** The consumer was (re)created: its first delivery may follow a gap (retention). */
  resumed = true;
  stopConsumer: (() => void) | null = null;
  waiters: Array<{ through: number; resolve: (caughtUp: boolean) => void; timer?: NodeJS.Timeout }> = [];
  /** Per append in progress (its appendId): the sequence of each of its copies the consumer delivered. */
  readonly copies = new Map<string, Map<string, number>>();
  /** `received` at the last look of the stall watchdog (refresh). */
  receivedAtLastLook = 0;

  constructor(
    readonly streamId: string,
    head: number,
  ) {
    this.received = head;
    this.ingested = head;
  }

  settle(): void {
    this.waiters = this.waiters.filter((w) => {
      if (w.through > this.ingested) return true;
      clearTimeout(w.timer);
      w.resolve(true);
      return false;
    });
  }

  /** A delivered message, queued for the mirror; the copy is noted for the append that published it. */
  take(item: Delivered): void {
    if (item.appendId !== null) this.copies.get(item.appendId)?.set(item.event.id, item.offset);
    if (this.resumed) {
      item.resumed = true;
      this.resumed = false;
    }
    this.pending.push(item);
  }

  /** Resolves true once the mirror holds `through`; false after `waitMs`, and then `onTimeout` runs. */
  holds(through: number, waitMs: number, onTimeout: () => void): Promise<boolean> {
    if (this.ingested >= through) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter: (typeof this.waiters)[number] = { through, resolve };
      waiter.timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        if (this.ingested >= through) return resolve(true);
        resolve(false);
        onTimeout();
      }, waitMs).unref();
      this.waiters.push(waiter);
    });
  }

  stop(): void {
    this.stopped = true;
    this.stopConsumer?.();
    for (const w of this.waiters) {
      clearTimeout(w.timer);
      w.resolve(false);
    }
  }

  /** Start the consumer again: one whose server went away may stall without an error. */
  restartStalled(logger: Logger, why: string): void {
    if (this.stopped || !this.stopConsumer) return;
    logger.warn({ sourceId: this.streamId, received: this.received }, `inbox.streams: consumer stalled (${why}); starting it again`);
    this.stopConsumer();
  }
}

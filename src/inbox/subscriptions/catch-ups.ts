/**
 * Catch-ups that run outside the request that caused them, as AgentInbox's subscription tick
 * consumes after its reset has answered: a reset only moves (and persists) the consumer offset,
 * and the subscription consumes up to the high watermark right after that transaction commits.
 * The moved offset is durable; a daemon stopped before the catch-up ran catches up at its next
 * start (`all`), since nothing else leaves a subscription behind its stream (matching is pushed
 * on append, and an append to a subscription that is behind consumes the gap first).
 *
 * Each catch-up is its own transaction; one that fails is logged and changes nothing (the next
 * poll, append or start consumes from the persisted offset).
 */
import type { Logger } from 'pino';
import type { Store } from '../../store/index.js';
import type { StreamService } from '../streams/index.js';
import type { Matcher } from './matcher.js';

export interface CatchUpsDeps {
  store: Store;
  logger: Logger;
  streams: StreamService;
  matcher: Matcher;
}

export class CatchUps {
  private readonly pending = new Set<string>();
  private handle: NodeJS.Immediate | null = null;
  private stopped = false;

  constructor(private readonly deps: CatchUpsDeps) {}

  /** Inside a transaction: catch the subscription up once it has committed, on the next turn of the event loop. */
  afterCommit(subscriptionId: string): void {
    this.deps.store.afterCommit(() => {
      if (this.stopped) return;
      this.pending.add(subscriptionId);
      this.handle ??= setImmediate(() => this.runPending());
    });
  }

  /** Run the scheduled catch-ups now (the scheduled turn; tests call it). */
  runPending(): void {
    if (this.handle) clearImmediate(this.handle);
    this.handle = null;
    const ids = [...this.pending];
    this.pending.clear();
    for (const id of ids) this.run(id);
  }

  /** At start-up: every loaded subscription behind its stream's high watermark catches up. Returns how many did. */
  all(subscriptionIds: string[]): number {
    const highWatermarks = new Map<string, number>();
    let behind = 0;
    for (const id of subscriptionIds) {
      const sub = this.deps.matcher.get(id);
      if (!sub) continue;
      let hwm = highWatermarks.get(sub.sourceId);
      if (hwm === undefined) highWatermarks.set(sub.sourceId, (hwm = this.deps.streams.bounds(sub.sourceId).highWatermarkOffset));
      if (sub.consumed >= hwm) continue;
      behind++;
      this.run(id);
    }
    return behind;
  }

  /** Drop what is scheduled (shutdown): the offsets are persisted, the next start catches up. */
  stop(): void {
    this.stopped = true;
    if (this.handle) clearImmediate(this.handle);
    this.handle = null;
    this.pending.clear();
  }

  private run(subscriptionId: string): void {
    const sub = this.deps.matcher.get(subscriptionId);
    if (!sub) return; // removed meanwhile
    try {
      const materialized = this.deps.store.tx(() => this.deps.matcher.catchUp(sub, this.deps.streams.bounds(sub.sourceId).highWatermarkOffset));
      this.deps.logger.debug({ subscriptionId, consumedOffset: sub.consumed, materialized }, 'subscription caught up');
    } catch (err) {
      this.deps.logger.error({ err, subscriptionId }, 'subscription catch-up failed; the next poll, append or start consumes from its offset');
    }
  }
}

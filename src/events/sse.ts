/**
 * SSE delivery of the event log, on top of a plain Node ServerResponse whose SSE headers the
 * HTTP layer has already sent (so nothing here depends on Fastify).
 *
 * A stream sends its backlog from the durable log in order, in chunks, waiting for the socket to
 * drain between chunks; when a read finds nothing more it subscribes to the broadcaster in the
 * same synchronous step, so no event can fall between backlog and live. Live frames go straight
 * to the socket; when the socket pushes back they queue, and a client whose queue passes the
 * byte budget is disconnected (never silently skipped): it reconnects with Last-Event-ID.
 */
import type { ServerResponse } from 'node:http';
import { frameOf, type Broadcaster, type Subscriber } from './broadcaster.js';
import type { EventLog } from './event-log.js';

const BACKLOG_CHUNK = 512;

export class SseConnection implements Subscriber {
  private queue: string[] = [];
  private queuedBytes = 0;
  private blocked = false;
  private waiters: Array<() => void> = [];
  private closeHooks: Array<() => void> = [];
  closed = false;
  closeReason: string | null = null;
  /** The agent whose log this connection follows (null for the global stream). */
  agentId: string | null = null;

  constructor(
    private readonly raw: ServerResponse,
    private readonly maxBufferedBytes: number,
  ) {
    raw.on('close', () => this.finish('client_closed'));
    raw.on('error', () => this.finish('error'));
  }

  /** Write one frame, queueing behind backpressure; disconnects a client that lags too far. */
  deliver(frame: string): void {
    if (this.closed) return;
    if (this.blocked) {
      this.queue.push(frame);
      this.queuedBytes += frame.length;
      if (this.queuedBytes > this.maxBufferedBytes) this.close('lagging');
      return;
    }
    if (!this.raw.write(frame)) this.block();
  }

  /** Resolves once the socket has drained what was written (or the connection closed). */
  writable(): Promise<void> {
    if (!this.blocked || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  onClose(hook: () => void): void {
    if (this.closed) hook();
    else this.closeHooks.push(hook);
  }

  close(reason = 'server_closed'): void {
    if (this.closed) return;
    this.finish(reason);
    this.raw.end();
  }

  private block(): void {
    this.blocked = true;
    this.raw.once('drain', this.drain);
  }

  private readonly drain = (): void => {
    this.blocked = false;
    while (this.queue.length > 0 && !this.closed) {
      const frame = this.queue.shift()!;
      this.queuedBytes -= frame.length;
      if (!this.raw.write(frame)) return this.block();
    }
    this.release();
  };

  private release(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  private finish(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.closeReason = reason;
    this.queue = [];
    this.queuedBytes = 0;
    this.release();
    const hooks = this.closeHooks;
    this.closeHooks = [];
    for (const h of hooks) h();
  }
}

export interface SseHubOptions {
  maxBufferedBytes: number;
  maxClients: number;
  onLagging?: () => void;
}

/** Owns every open SSE connection: counts them, streams the log into them, ends them at shutdown. */
export class SseHub {
  private readonly connections = new Set<SseConnection>();

  constructor(
    private readonly log: EventLog,
    private readonly broadcaster: Broadcaster,
    private readonly opts: SseHubOptions,
  ) {}

  get size(): number {
    return this.connections.size;
  }

  get full(): boolean {
    return this.connections.size >= this.opts.maxClients;
  }

  attach(raw: ServerResponse): SseConnection {
    const conn = new SseConnection(raw, this.opts.maxBufferedBytes);
    this.connections.add(conn);
    conn.onClose(() => {
      this.connections.delete(conn);
      if (conn.closeReason === 'lagging') this.opts.onLagging?.();
    });
    return conn;
  }

  /**
   * Stream `agentId`'s log after `afterSeq`: the backlog (at most `limit` events, then close),
   * then live events. `afterSeq` undefined means live only.
   */
  async streamAgent(conn: SseConnection, agentId: string, afterSeq: number | undefined, limit?: number): Promise<void> {
    conn.agentId = agentId;
    let last = afterSeq ?? this.log.head(agentId);
    let sent = 0;
    while (!conn.closed) {
      const room = limit === undefined ? BACKLOG_CHUNK : Math.min(BACKLOG_CHUNK, limit - sent);
      if (room <= 0) {
        conn.close('limit_reached');
        return;
      }
      const rows = this.log.readAfter(agentId, last, room);
      if (rows.length === 0) {
        // Caught up. Subscribing in this same synchronous step means no commit can slip between.
        const unsubscribe = this.broadcaster.subscribe(agentId, conn);
        conn.onClose(unsubscribe);
        return;
      }
      for (const event of rows) {
        conn.deliver(frameOf(event));
        last = event.event_seq;
      }
      sent += rows.length;
      await conn.writable();
    }
  }

  /** Live-only stream across public agents. */
  streamAll(conn: SseConnection): void {
    const unsubscribe = this.broadcaster.subscribeAll(conn);
    conn.onClose(unsubscribe);
  }

  /** End every stream following an agent (its log is about to be purged). */
  closeAgent(agentId: string): void {
    for (const conn of [...this.connections]) if (conn.agentId === agentId) conn.close('agent_deleted');
  }

  closeAll(): void {
    for (const conn of [...this.connections]) conn.close('shutdown');
  }
}


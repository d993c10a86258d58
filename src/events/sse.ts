/**
 * SSE delivery of the event log, on top of a plain Node ServerResponse whose SSE headers the
 * HTTP layer has already sent (so nothing here depends on Fastify).
 *
 * A stream sends its backlog from the durable log in order, in chunks, waiting for the socket to
 * drain between chunks; when a read finds nothing more it subscribes to the broadcaster in the
 * same synchronous step, so no event can fall between backlog and live. Live frames go straight
 * to the socket; when the socket pushes back they queue, and a client whose queue passes the
 * byte budget is disconnected (never silently skipped): it reconnects with Last-Event-ID.
 *
 * Closing a stream is two steps. The connection stops taking frames at once (`closed`), but it
 * counts against `events.sse_max_clients` until its socket has really closed: a lagging client's
 * socket is destroyed on the spot (what it has not read is lost anyway), and a stream ended for
 * another reason gets `END_GRACE_MS` to read its last frames before its socket is destroyed too.
 * Otherwise a client that stops reading would keep a descriptor open for ever after the hub had
 * forgotten it, and the client cap would bound nothing.
 */
import type { ServerResponse } from 'node:http';
import { frameOf, type Broadcaster, type Subscriber } from './broadcaster.js';
import type { EventEnvelope, EventLog } from './event-log.js';

const BACKLOG_CHUNK = 512;
/** How long a gracefully ended stream may take to flush before its socket is destroyed. */
export const END_GRACE_MS = 2000;

/** The SSE connection written to a response, if it is one (so a guard can end it cleanly). */
const streams = new WeakMap<ServerResponse, SseConnection>();
export const sseConnectionOf = (raw: ServerResponse): SseConnection | undefined => streams.get(raw);

export class SseConnection implements Subscriber {
  private queue: string[] = [];
  private queuedBytes = 0;
  private blocked = false;
  private waiters: Array<() => void> = [];
  private closeHooks: Array<() => void> = [];
  private socketHooks: Array<() => void> = [];
  private endTimer: NodeJS.Timeout | null = null;
  /** No more frames are taken (the socket may still be open: see `socketClosed`). */
  closed = false;
  /** The response's socket has closed; only then does the connection stop counting. */
  socketClosed = false;
  closeReason: string | null = null;
  /** The agent whose log this connection follows (null for the global stream). */
  agentId: string | null = null;

  constructor(
    private readonly raw: ServerResponse,
    private readonly maxBufferedBytes: number,
    private readonly endGraceMs = END_GRACE_MS,
  ) {
    raw.on('close', () => {
      this.finish('client_closed');
      this.socketGone();
    });
    raw.on('error', () => this.finish('error'));
    // A client that left before the stream was attached has already had its 'close'.
    if (raw.destroyed || raw.socket?.destroyed) {
      this.finish('client_closed');
      this.socketGone();
    }
  }

  /**
   * Live frames of an agent's log up to this event_seq were already sent from the backlog (a
   * client that read a page may open its stream at an event not yet published): skipped.
   */
  sentThrough = 0;

  /** Write one frame, queueing behind backpressure; disconnects a client that lags too far. */
  deliver(frame: string, event?: EventEnvelope): void {
    if (this.closed) return;
    if (event && this.agentId !== null && event.event_seq <= this.sentThrough) return;
    if (this.blocked) {
      this.queue.push(frame);
      this.queuedBytes += frame.length;
      if (this.queuedBytes > this.maxBufferedBytes) this.close('lagging');
      return;
    }
    if (!this.raw.write(frame)) this.block();
  }

  /** The socket pushed back: frames delivered now queue until it drains (and count against the budget). */
  get backedUp(): boolean {
    return this.blocked;
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

  /** Runs once the socket has closed (at once if it already has). */
  onSocketClosed(hook: () => void): void {
    if (this.socketClosed) hook();
    else this.socketHooks.push(hook);
  }

  /**
   * Stop the stream. A lagging client's socket is destroyed now; otherwise the response ends and
   * the socket is destroyed if it has not closed within the grace period (a client that does not
   * read never lets the end flush).
   */
  close(reason = 'server_closed'): void {
    if (this.closed) return;
    this.finish(reason);
    if (reason === 'lagging') {
      this.raw.destroy();
      return;
    }
    this.raw.end();
    if (this.socketClosed) return;
    this.endTimer = setTimeout(() => this.raw.destroy(), this.endGraceMs);
    this.endTimer.unref();
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

  private socketGone(): void {
    if (this.socketClosed) return;
    this.socketClosed = true;
    if (this.endTimer) clearTimeout(this.endTimer);
    this.endTimer = null;
    const hooks = this.socketHooks;
    this.socketHooks = [];
    for (const h of hooks) h();
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
  /** Grace before an ended stream's socket is destroyed (default END_GRACE_MS). */
  endGraceMs?: number;
}

/**
 * Owns every SSE connection whose socket is open: counts them (a connection leaves the count when
 * its socket closes, not when it stops taking frames), streams the log into them, ends them at
 * shutdown.
 */
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
    const conn = new SseConnection(raw, this.opts.maxBufferedBytes, this.opts.endGraceMs);
    streams.set(raw, conn);
    this.connections.add(conn);
    conn.onClose(() => {
      if (conn.closeReason === 'lagging') this.opts.onLagging?.();
    });
    conn.onSocketClosed(() => this.connections.delete(conn));
    return conn;
  }

  /**
   * Stream `agentId`'s log after `afterSeq`: the backlog (at most `limit` events, then close),
   * then live events. `afterSeq` undefined means live only.
   */
  async streamAgent(conn: SseConnection, agentId: string, afterSeq: number | undefined, limit?: number): Promise<void> {
    conn.agentId = agentId;
    let last = afterSeq ?? this.log.publishedHead(agentId);
    let sent = 0;
    while (!conn.closed) {
      const room = limit === undefined ? BACKLOG_CHUNK : Math.min(BACKLOG_CHUNK, limit - sent);
      if (room <= 0) {
        conn.close('limit_reached');
        return;
      }
      const rows = this.log.readAfter(agentId, last, room);
      if (this.fellBehind(agentId, last, rows)) {
        conn.close('behind_window');
        return;
      }
      if (rows.length === 0) {
        // Caught up. Subscribing in this same synchronous step means no commit can slip between.
        conn.sentThrough = last;
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

  /**
   * Retention pruned events after `last` that this stream has not sent (spec "Events" item 4): the
   * next read starts past `last + 1`, or finds nothing while the head is further on. The stream is
   * closed rather than skipping them; the client pages and reopens. `last` 0 is `after_seq=0`,
   * which starts wherever the window starts (after pruning, or a re-created agent's log).
   */
  private fellBehind(agentId: string, last: number, rows: EventEnvelope[]): boolean {
    if (last === 0) return false;
    return rows.length > 0 ? rows[0]!.event_seq !== last + 1 : last < this.log.publishedHead(agentId);
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


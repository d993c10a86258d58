/**
 * What a TCP connection may hold, on every listener (docs/security.md#connections, `[http]`):
 *
 * - Timeouts. A connection must send a complete request head within `headers_timeout_ms` and its
 *   body within `request_timeout_ms` (Node checks both from the first byte of a request, or from
 *   the accept for the first one, every `connectionsCheckingInterval`); an idle keep-alive
 *   connection is closed after `keep_alive_timeout_ms`. Node's `requestTimeout` covers receiving the
 *   request only: an SSE answer, however long, is not cut by it.
 * - Budgets, on the TCP listeners (the Unix socket admits only the daemon's user). Each other
 *   local user (by the uid owning the client socket) and each remote address holds at most
 *   `max_connections_per_user` connections, and all of them together `max_connections_others`;
 *   the daemon's own user is not counted. A connection over budget is reset as soon as its peer is
 *   known, so another user cannot spend the file descriptors the owner's connections and the
 *   inbox socket need. Peers are identified by `peerKey` (one shared read of /proc/net/tcp for the
 *   connections accepted together); a reset leaves no TIME_WAIT row to fill that table.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import type { Metrics } from '../telemetry/index.js';
import { ownKey, peerKey } from '../core/index.js';

export type HttpLimits = Config['http'];

/** Applies the timeouts to a server that is not listening yet (Fastify's or a plain one). */
export function applyTimeouts(server: Server, limits: HttpLimits): void {
  server.headersTimeout = limits.headers_timeout_ms;
  server.requestTimeout = limits.request_timeout_ms;
  server.keepAliveTimeout = limits.keep_alive_timeout_ms;
  // Read when the server starts listening; Node's default (30 s) would let a silent connection
  // outlive a short headers timeout by that much.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.max(100, Math.min(1000, Math.floor(limits.headers_timeout_ms / 2)));
}

/** Per-peer open connections of one daemon, shared by its TCP listeners. */
export class ConnectionBudget {
  private readonly open = new Map<string, number>();
  private others = 0;
  private refused = 0;

  constructor(
    private readonly limits: HttpLimits,
    private readonly logger: Logger,
    private readonly metrics: Metrics,
  ) {}

  /** Counts every TCP connection of `server` against its peer's budget. */
  watch(server: Server): void {
    server.on('connection', (socket: Socket) => {
      if (socket.remoteAddress === undefined) return; // a Unix socket: the daemon's user only
      void peerKey(socket).then((key) => this.admit(socket, key));
    });
  }

  private admit(socket: Socket, key: string): void {
    // Gone before its peer was known: nothing to count (its `close` has already fired).
    if (socket.destroyed || key === ownKey) return;
    const held = this.open.get(key) ?? 0;
    if (held >= this.limits.max_connections_per_user || this.others >= this.limits.max_connections_others) {
      this.metrics.httpConnectionsRefused.inc();
      // The first refusal and every thousandth: a flood of them must not flood the log.
      if (this.refused++ % 1000 === 0) {
        this.logger.warn({ peer: key, open: held, others: this.others, refused: this.refused }, 'connection budget reached: connections over it are reset');
      }
      socket.resetAndDestroy();
      return;
    }
    this.open.set(key, held + 1);
    this.others += 1;
    socket.once('close', () => {
      this.others -= 1;
      const left = this.open.get(key)! - 1;
      if (left > 0) this.open.set(key, left);
      else this.open.delete(key);
    });
  }
}

/**
 * The connection to NATS as the backend sees it: the credential's connection options, and whether
 * the connection is up. The client reports `disconnect` as soon as it loses its server and
 * `reconnect` once it has another; in between it buffers publishes and their acknowledgements can
 * only come after a reconnect or time out (5 s). An append does not wait for that: while the
 * connection is known down it is refused at once (503 with Retry-After), and one in flight when
 * the connection drops is refused then (a retry of it is deduplicated by id).
 */
import type { ConnectionOptions, NatsConnection } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import type { NatsLibrary } from './library.js';

/** Connection options from the credential material: a .creds file's text, or a token. */
export function credentialOptions(material: string | null, transport: NatsLibrary['transport']): Partial<ConnectionOptions> {
  if (!material) return {};
  if (material.includes('-----BEGIN NATS USER JWT-----')) return { authenticator: transport.credsAuthenticator(new TextEncoder().encode(material)) };
  return { token: material.trim() };
}

export class ConnectionDown extends Error {
  constructor() {
    super('the connection to NATS is down (reconnecting)');
    this.name = 'ConnectionDown';
  }
}

export class ConnectionState {
  private isDown = false;
  /** Operations in flight, refused when the connection drops. */
  private readonly inFlight = new Set<(err: Error) => void>();

  constructor(private readonly logger: Logger) {}

  get down(): boolean {
    return this.isDown;
  }

  /** `op`'s outcome, or ConnectionDown at once if the connection is down or as soon as it drops. */
  whileUp<T>(op: () => Promise<T>): Promise<T> {
    if (this.isDown) return Promise.reject(new ConnectionDown());
    return new Promise<T>((resolve, reject) => {
      const refuse = (err: Error) => reject(err);
      this.inFlight.add(refuse);
      let started: Promise<T>;
      try {
        started = op();
      } catch (e) {
        // The client throws at once when its connection is closed or draining.
        this.inFlight.delete(refuse);
        reject(e);
        return;
      }
      started.then(
        (v) => {
          this.inFlight.delete(refuse);
          resolve(v);
        },
        (e: unknown) => {
          this.inFlight.delete(refuse);
          reject(e);
        },
      );
    });
  }

  /**
   * Follow the connection's status until it closes. Changes are logged; `onReconnect` runs after a
   * reconnect (every consumer starts again after what it received: the server it pulled from may be gone).
   */
  async watch(nc: NatsConnection, closing: () => boolean, onReconnect: () => void): Promise<void> {
    try {
      for await (const s of nc.status()) {
        if (s.type === 'disconnect') this.drop();
        else if (s.type === 'reconnect') this.isDown = false;
        else continue;
        this.logger.warn({ server: s.server }, `inbox.streams: NATS ${s.type}`);
        if (s.type === 'reconnect') onReconnect();
      }
    } catch (err) {
      if (!closing()) this.logger.warn({ err: (err as Error).message }, 'inbox.streams: NATS status stream ended');
    }
    // The status stream ends when the connection is closed for good.
    this.drop();
  }

  private drop(): void {
    this.isDown = true;
    const refused = [...this.inFlight];
    this.inFlight.clear();
    for (const refuse of refused) refuse(new ConnectionDown());
  }
}

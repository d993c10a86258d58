/**
 * The NATS client packages, loaded when a daemon opens JetStream streams: a daemon on the SQLite
 * backend (the default), and every CLI command, never load them (they add ~70 ms to a start).
 */
export interface NatsLibrary {
  jetstream: typeof import('@nats-io/jetstream');
  kv: typeof import('@nats-io/kv');
  transport: typeof import('@nats-io/transport-node');
}

let loading: Promise<NatsLibrary> | null = null;

export function natsLibrary(): Promise<NatsLibrary> {
  loading ??= Promise.all([import('@nats-io/jetstream'), import('@nats-io/kv'), import('@nats-io/transport-node')]).then(([jetstream, kv, transport]) => ({
    jetstream,
    kv,
    transport,
  }));
  return loading;
}

/**
 * The inbox's stream tests run once per stream backend: `describe.each(BACKENDS)` and, inside,
 * `useBackend(name)`, which for JetStream starts a real single-node `nats-server -js` for the file
 * (test/helpers/nats.ts) and gives every daemon or service set its own `stream_prefix`, so tests
 * never see each other's streams. What legitimately differs between backends is listed in
 * docs/jetstream.md and asserted per backend here and in the tests.
 */
import { afterAll, beforeAll } from 'vitest';
import { openStreams } from '../../src/inbox/index.js';
import type { StreamStats } from '../../src/inbox/streams/types.js';
import { startServices } from '../../src/services.js';
import { startNats, type NatsCluster } from './nats.js';
import { testServices, type TestServices } from './services.js';

export type BackendName = 'sqlite' | 'jetstream';
export const BACKENDS: BackendName[] = ['sqlite', 'jetstream'];

let prefixes = 0;

export interface BackendEnv {
  name: BackendName;
  /** The `[inbox.streams]` table for a new daemon; `prefix` shares streams between daemons. */
  configToml(prefix?: string): string;
  /** A fresh prefix (two daemons given the same one share their streams). */
  prefix(): string;
  /** In-process services on this backend, opened and started. */
  services(opts?: { configToml?: string }): Promise<TestServices>;
  /** The stream stats this backend reports for a stream without compaction. */
  stats(s: { eventCount: number; retainedFromOffset: number; highWatermarkOffset: number }): StreamStats;
  nats(): NatsCluster;
}

export function useBackend(name: BackendName, opts: { nodes?: 1 | 3 } = {}): BackendEnv {
  let cluster: NatsCluster | null = null;
  if (name === 'jetstream') {
    beforeAll(async () => {
      cluster = await startNats({ nodes: opts.nodes ?? 1 });
    }, 60_000);
    afterAll(() => cluster?.close());
  }
  const env: BackendEnv = {
    name,
    prefix: () => `t${process.pid}-${++prefixes}`,
    configToml(prefix = env.prefix()) {
      if (name === 'sqlite') return '';
      const replicas = (opts.nodes ?? 1) === 3 ? 3 : 1;
      return `[inbox.streams]\nbackend = "jetstream"\nservers = ${JSON.stringify(env.nats().urls)}\nstream_prefix = "${prefix}"\nreplicas = ${replicas}\n`;
    },
    async services(o = {}) {
      const t = testServices({ configToml: `${o.configToml ?? ''}\n${env.configToml()}`, start: false });
      await openStreams(t.s.inbox);
      startServices(t.s);
      return t;
    },
    stats({ eventCount, retainedFromOffset, highWatermarkOffset }) {
      const base = { eventCount, replayableEventCount: eventCount, retainedFromOffset, highWatermarkOffset };
      return name === 'sqlite' ? { ...base, prunedEventCount: 0, prunedThroughOffset: retainedFromOffset - 1 } : base;
    },
    nats() {
      if (!cluster) throw new Error('no nats-server: the sqlite backend has none');
      return cluster;
    },
  };
  return env;
}

/**
 * The JetStream backend under faults (src/inbox/streams/jetstream/README.md, "Append"): real
 * daemons on a real single-node `nats-server -js`. While the connection to NATS is known to be down
 * an append answers 503 at once instead of waiting out the publish timeout; the same event id
 * appended through two daemons at the same moment is stored once and counted once: one answer says
 * `appended: 1`, the other `deduped: 1`. Needs `npm run build` first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonPool, request, waitFor, type RunningDaemon } from '../helpers/daemon.js';
import { startNats, type NatsCluster } from '../helpers/nats.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const pool = daemonPool();
let nats: NatsCluster;
beforeAll(async () => {
  nats = await startNats();
}, 30_000);
afterAll(async () => {
  pool.cleanup();
  await nats?.close();
});

let prefixes = 0;
const toml = (prefix: string) => `[inbox.streams]\nbackend = "jetstream"\nservers = ${JSON.stringify(nats.urls)}\nstream_prefix = "f${process.pid}-${prefix}"\n`;

const call = async (d: RunningDaemon, method: string, url: string, body?: unknown): Promise<Json> => {
  const r = await request({ socketPath: d.socket }, method, url, body === undefined ? {} : { body });
  if (r.status >= 300) throw new Error(`${method} ${url}: ${r.status} ${r.text}`);
  return r.json as Json;
};

async function newSource(d: RunningDaemon): Promise<string> {
  const host = await call(d, 'POST', '/hosts', { hostType: 'local_event', hostKey: `h${++prefixes}` });
  const source = await call(d, 'POST', '/sources', { hostId: host.hostId, streamKind: 'events', streamKey: `s${prefixes}` });
  return source.sourceId as string;
}

describe('an append while NATS is down', () => {
  it('answers 503 with Retry-After as soon as the connection is known down, not after the publish timeout; appends work again after', async () => {
    const d = await pool.start({ configToml: toml(`down${++prefixes}`) });
    const sourceId = await newSource(d);
    expect(await call(d, 'POST', `/sources/${sourceId}/events`, { id: 'before', type: 't' })).toMatchObject({ appended: 1 });

    await nats.kill(0);
    try {
      // The daemon hears of the lost connection from its client (logged); from then on it knows.
      await waitFor(() => d.logs().includes('inbox.streams: NATS disconnect'), 10_000);
      const timings: number[] = [];
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        const r = await request({ socketPath: d.socket }, 'POST', `/sources/${sourceId}/events`, { body: { id: `during-${i}`, type: 't' } });
        timings.push(Math.round(performance.now() - started));
        expect(r.status, r.text).toBe(503);
        expect(r.json).toMatchObject({ ok: false, code: 'stream_backend_unavailable', streamId: sourceId });
        expect(r.headers['retry-after']).toBe('1');
      }
      console.log(`503 during the outage answered in ${timings.join(', ')} ms`);
      // Loose: the publish timeout is 5 s; failing fast is milliseconds.
      expect(Math.max(...timings)).toBeLessThan(2000);
    } finally {
      await nats.restart(0);
    }
    const again = await waitFor(async () => {
      const x = await request({ socketPath: d.socket }, 'POST', `/sources/${sourceId}/events`, { body: { id: 'after', type: 't' } });
      return x.status === 200 ? x : null;
    }, 30_000);
    expect(again.json).toMatchObject({ appended: 1, deduped: 0 });
  }, 90_000);
});

describe('the same event id through two daemons at once', () => {
  it('is stored once and counted once: appended 1 on one answer, deduped 1 on the other', async () => {
    const prefix = `dup${++prefixes}`;
    const [a, b] = await Promise.all([pool.start({ configToml: toml(prefix) }), pool.start({ configToml: toml(prefix) })]);
    const sourceId = await newSource(a);
    await waitFor(async () => (await call(b, 'GET', '/sources')).sources.some((s: Json) => s.sourceId === sourceId), 10_000);
    const ROUNDS = 20;
    for (let i = 0; i < ROUNDS; i++) {
      // Two events per append: the first of each batch is not the one the batch's last ack answers for.
      const events = [{ id: `same-${i}-x`, type: 't' }, { id: `same-${i}-y`, type: 't' }];
      const [ra, rb] = await Promise.all([call(a, 'POST', `/sources/${sourceId}/events`, { events }), call(b, 'POST', `/sources/${sourceId}/events`, { events })]);
      expect({ round: i, appended: ra.appended + rb.appended, deduped: ra.deduped + rb.deduped }).toEqual({ round: i, appended: 2, deduped: 2 });
      // Each answer accounts for both of its events, and what it calls appended carries offsets.
      for (const r of [ra, rb]) {
        expect(r.appended + r.deduped).toBe(2);
        if (r.appended === 0) expect(r.firstOffset).toBeNull();
      }
    }
    // Stored once each: two events per round, offsets 1..2*ROUNDS, on both daemons' mirrors.
    for (const d of [a, b]) {
      await waitFor(async () => (await call(d, 'GET', `/streams/${sourceId}`)).stream.streamStats.highWatermarkOffset === 2 * ROUNDS, 10_000);
    }
  }, 90_000);
});

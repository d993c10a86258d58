/**
 * Several daemons, one set of streams (src/inbox/streams/jetstream/README.md): two real daemons
 * with their own homes on a real three-node `nats-server -js` cluster with `replicas = 3`. A source
 * registered on one is appendable and watchable from the other; each daemon materialises entries
 * only for its own agents; a daemon killed during appends resumes with nothing lost or duplicated;
 * a NATS node killed during a burst loses no acknowledged append, offsets stay gap-free and watch
 * resumes. Needs `npm run build` first.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Kvm } from '@nats-io/kv';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SseParser, type SseFrame } from '../../src/cli/control/events.js';
import { daemonPool, request, runSvc, waitFor, type RunningDaemon } from '../helpers/daemon.js';
import { startNats, type NatsCluster } from '../helpers/nats.js';
import { useBackend } from '../helpers/stream-backends.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const env = useBackend('jetstream', { nodes: 3 });
const pool = daemonPool();
afterAll(() => pool.cleanup());

const call = async (d: RunningDaemon, method: string, url: string, body?: unknown): Promise<Json> => {
  const r = await request({ socketPath: d.socket }, method, url, body === undefined ? {} : { body });
  if (r.status >= 300) throw new Error(`${method} ${url}: ${r.status} ${r.text}`);
  return r.json as Json;
};

/** Every entry of an agent's inbox, page by page. */
async function allEntries(d: RunningDaemon, agentId: string): Promise<Json[]> {
  const out: Json[] = [];
  let after = '';
  for (;;) {
    const page = await call(d, 'GET', `/agents/${agentId}/inbox/items?limit=500&includeAcked=true${after ? `&after=${after}` : ''}`);
    out.push(...page.entries);
    if (!page.nextCursor) return out;
    after = page.nextCursor;
  }
}

class Watch {
  frames: SseFrame[] = [];
  /** The daemon closed the stream (it never should here). */
  ended = false;
  private req!: http.ClientRequest;

  static open(d: RunningDaemon, agentId: string): Promise<Watch> {
    const w = new Watch();
    return new Promise((resolve, reject) => {
      w.req = http.get({ socketPath: d.socket, path: `/agents/${agentId}/inbox/watch`, headers: { accept: 'text/event-stream' } }, (res) => {
        res.setEncoding('utf8');
        const parser = new SseParser((f) => w.frames.push(f));
        res.on('data', (c: string) => parser.push(c));
        res.on('close', () => (w.ended = true));
        resolve(w);
      });
      w.req.on('error', reject);
    });
  }

  offsets(): number[] {
    return this.frames.filter((f) => f.event === 'items').flatMap((f) => (JSON.parse(f.data).entries as Json[]).map((e) => e.offset as number));
  }

  close(): void {
    this.req.destroy();
  }
}

let prefix: string;
let a: RunningDaemon;
let b: RunningDaemon;
const homes = { a: '', b: '' };
beforeAll(async () => {
  prefix = env.prefix();
  homes.a = pool.home();
  homes.b = pool.home();
  [a, b] = await Promise.all([pool.start({ home: homes.a, configToml: env.configToml(prefix) }), pool.start({ home: homes.b, configToml: env.configToml(prefix) })]);
}, 60_000);

let seq = 0;
/** A local_event source registered on `on`, once the other daemon lists it too. */
async function sharedSource(on: RunningDaemon, other: RunningDaemon): Promise<string> {
  const host = await call(on, 'POST', '/hosts', { hostType: 'local_event', hostKey: `h${++seq}` });
  const source = await call(on, 'POST', '/sources', { hostId: host.hostId, streamKind: 'events', streamKey: `s${seq}` });
  await waitFor(async () => (await call(other, 'GET', '/sources')).sources.some((s: Json) => s.sourceId === source.sourceId), 10_000);
  return source.sourceId as string;
}

async function subscribedAgent(d: RunningDaemon, sourceId: string): Promise<string> {
  const agent = await call(d, 'POST', '/agents', { name: `agent${++seq}` });
  await call(d, 'POST', '/subscriptions', { agentId: agent.agentId, sourceId });
  return agent.agentId as string;
}

describe('two daemons on one JetStream cluster (replicas 3)', () => {
  it('a source registered on one daemon is appendable and subscribable from the other; each materialises its own agents', async () => {
    const sourceId = await sharedSource(a, b);
    const onB = await subscribedAgent(b, sourceId);
    const onA = await subscribedAgent(a, sourceId);
    const watch = await Watch.open(b, onB);
    expect(await call(a, 'POST', `/sources/${sourceId}/events`, { id: 'e1', type: 'pr.opened', data: { n: 1 } })).toEqual({ appended: 1, deduped: 0, firstOffset: 1, lastOffset: 1 });
    expect(await call(b, 'POST', `/sources/${sourceId}/events`, { events: [{ id: 'e1', type: 'pr.opened' }, { id: 'e2', type: 'pr.closed' }] })).toEqual({ appended: 1, deduped: 1, firstOffset: 2, lastOffset: 2 });
    // The append through A reaches the agent on B live, over B's watch.
    await waitFor(() => watch.offsets().includes(2), 10_000);
    expect(watch.offsets()).toEqual([1, 2]);
    watch.close();
    for (const [d, agentId] of [[a, onA], [b, onB]] as const) {
      const entries = await allEntries(d, agentId);
      expect(entries.map((e) => [e.offset, e.event.id, e.agentId])).toEqual([
        [1, 'e1', agentId],
        [2, 'e2', agentId],
      ]);
    }
    // Each daemon has only its own agents.
    expect((await call(a, 'GET', '/agents')).agents.map((x: Json) => x.agentId)).not.toContain(onB);
    const stats = (await call(b, 'GET', `/streams/${sourceId}`)).stream.streamStats;
    expect(stats).toEqual({ eventCount: 2, replayableEventCount: 2, retainedFromOffset: 1, highWatermarkOffset: 2 });
  });

  it('a daemon killed during appends resumes with every event matched exactly once', async () => {
    const sourceId = await sharedSource(a, b);
    const agentId = await subscribedAgent(b, sourceId);
    const acked: number[] = [];
    let stop = false;
    const writer = (async () => {
      for (let i = 0; !stop; i++) acked.push((await call(a, 'POST', `/sources/${sourceId}/events`, { id: `k${i}`, type: 't' })).firstOffset);
    })();
    await waitFor(() => acked.length >= 100, 20_000);
    await b.stop('SIGKILL');
    const atKill = acked.length;
    await waitFor(() => acked.length >= atKill + 100, 20_000);
    b = await pool.start({ home: homes.b, configToml: env.configToml(prefix) });
    await waitFor(() => acked.length >= atKill + 200, 20_000);
    stop = true;
    await writer;
    const last = acked[acked.length - 1]!;
    expect(acked).toEqual(Array.from({ length: acked.length }, (_, i) => i + 1));
    const entries = await waitFor(async () => {
      const all = await allEntries(b, agentId);
      return all.length >= last ? all : null;
    }, 20_000);
    expect(entries.map((e) => e.offset)).toEqual(Array.from({ length: last }, (_, i) => i + 1));
  }, 90_000);

  it('a NATS node killed during a burst: every acknowledged append is readable, offsets gap-free, watch resumes', async () => {
    const sourceId = await sharedSource(a, b);
    const agentId = await subscribedAgent(b, sourceId);
    const watch = await Watch.open(b, agentId);
    const acked = new Map<string, number>();
    let failed = 0;
    let stop = false;
    const writers = Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; !stop; i++) {
        const id = `w${w}-${i}`;
        const r = await request({ socketPath: a.socket }, 'POST', `/sources/${sourceId}/events`, { body: { id, type: 't' } });
        if (r.status === 200) acked.set(id, r.json.firstOffset ?? acked.get(id));
        else if (r.status === 503) failed++;
        else throw new Error(`unexpected ${r.status} ${r.text}`);
      }
    });
    // The waits are generous: a Raft election among three nats-servers on a loaded machine (the
    // whole suite runs beside this) can take tens of seconds; what is checked is below.
    await waitFor(() => acked.size >= 200, 30_000);
    // The node that leads the stream's Raft group is the hardest case; any node will do for the rule.
    await env.nats().kill(0);
    const atKill = acked.size;
    await waitFor(() => acked.size >= atKill + 200, 60_000);
    await env.nats().restart(0);
    await waitFor(() => acked.size >= atKill + 300, 60_000);
    stop = true;
    await Promise.all(writers);
    // Every acknowledged append is in the stream at the offset it was acknowledged with, once.
    const offsets = [...acked.values()];
    expect(new Set(offsets).size).toBe(offsets.length);
    const entries = await waitFor(async () => {
      const all = await allEntries(b, agentId);
      return all.length >= Math.max(...offsets) ? all : null;
    }, 30_000);
    const byOffset = new Map(entries.map((e) => [e.offset as number, e.event.id as string]));
    for (const [id, offset] of acked) expect(byOffset.get(offset)).toBe(id);
    // Gap-free, and each id matched once.
    expect(entries.map((e) => e.offset)).toEqual(Array.from({ length: entries.length }, (_, i) => i + 1));
    expect(new Set(entries.map((e) => e.event.id)).size).toBe(entries.length);
    // The watch on B went on through the node's loss and the catch-up's burst, and saw every entry once.
    await waitFor(() => watch.ended || watch.offsets().length >= entries.length, 20_000);
    expect(watch.ended, 'the watch was closed').toBe(false);
    expect(watch.offsets()).toEqual(entries.map((e) => e.offset));
    watch.close();
  }, 240_000);

  it('deleting the source on one daemon deletes it on the other with its subscriptions', async () => {
    const sourceId = await sharedSource(a, b);
    await subscribedAgent(b, sourceId);
    await call(a, 'DELETE', `/sources/${sourceId}?withSubscriptions=true`);
    await waitFor(async () => !(await call(b, 'GET', '/sources')).sources.some((s: Json) => s.sourceId === sourceId), 10_000);
    expect((await call(b, 'GET', '/subscriptions')).subscriptions.filter((s: Json) => s.sourceId === sourceId)).toEqual([]);
  });
});

describe('credentials, an unreachable cluster, and what other NATS clients can write', () => {
  const TOKEN = 's3cret-nats-token-for-tests';
  let nats: NatsCluster;
  beforeAll(async () => {
    nats = await startNats({ token: TOKEN });
  }, 30_000);
  afterAll(() => nats?.close());

  const toml = (extra = '', prefix = env.prefix()) => `[inbox.streams]\nbackend = "jetstream"\nservers = ${JSON.stringify(nats.urls)}\nstream_prefix = "${prefix}"\n${extra}`;
  /** A daemon whose credential profile "nats" holds the token. */
  const startWithToken = (prefix?: string) => {
    const home = pool.home();
    fs.writeFileSync(path.join(home, 'credentials.json'), JSON.stringify({ profiles: { nats: { token: TOKEN } } }), { mode: 0o600 });
    return pool.start({ home, configToml: toml('credential_profile = "nats"\n', prefix) });
  };

  it('connects with the token of a credential profile, never logs it, and refuses to start without it', async () => {
    const serve = (configToml: string) => {
      const home = pool.home();
      fs.writeFileSync(path.join(home, 'config.toml'), configToml);
      return runSvc(['serve', '--home', home, '--listen', '127.0.0.1:0']);
    };
    const denied = await serve(toml());
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toMatch(/inbox\.streams: cannot connect to NATS at nats:\/\/127\.0\.0\.1:\d+: .*(Authorization|AUTHORIZATION|authorization)/);
    const missing = await serve(toml('credential_profile = "nats"\n'));
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/^svc: inbox\.streams\.credential_profile "nats": credential store .* does not exist/m);

    const d = await startWithToken();
    const host = await call(d, 'POST', '/hosts', { hostType: 'local_event', hostKey: 'k' });
    const source = await call(d, 'POST', '/sources', { hostId: host.hostId, streamKind: 'k', streamKey: 'k' });
    expect(await call(d, 'POST', `/sources/${source.sourceId}/events`, { type: 't' })).toMatchObject({ appended: 1, firstOffset: 1 });
    expect(d.logs()).not.toContain(TOKEN);
    expect(fs.readFileSync(path.join(d.home, 'config.toml'), 'utf8')).not.toContain(TOKEN);
  });

  it('a cluster that is down answers 503 stream_backend_unavailable (with Retry-After), and appends work again when it is back', async () => {
    const d = await startWithToken();
    const host = await call(d, 'POST', '/hosts', { hostType: 'local_event', hostKey: 'k' });
    const source = await call(d, 'POST', '/sources', { hostId: host.hostId, streamKind: 'k', streamKey: 'k' });
    await nats.kill(0);
    const r = await request({ socketPath: d.socket }, 'POST', `/sources/${source.sourceId}/events`, { body: { id: 'x', type: 't' } });
    expect(r.status, r.text).toBe(503);
    expect(r.json).toMatchObject({ ok: false, code: 'stream_backend_unavailable', streamId: source.sourceId });
    expect(r.headers['retry-after']).toBe('1');
    await nats.restart(0);
    const again = await waitFor(async () => {
      const x = await request({ socketPath: d.socket }, 'POST', `/sources/${source.sourceId}/events`, { body: { id: 'x', type: 't' } });
      return x.status === 200 ? x : null;
    }, 30_000);
    // The 503 append may or may not have reached the stream; either way the id is stored once.
    expect(again.json.appended + again.json.deduped).toBe(1);
    // Right after a node's restart the consumer may stall until its watchdog starts it again: the
    // append is then answered from JetStream's acknowledgement before the mirror has it
    // (docs/jetstream.md).
    const stats = await waitFor(async () => (await call(d, 'GET', `/streams/${source.sourceId}`)).stream.streamStats, 15_000);
    expect(stats.highWatermarkOffset).toBe(1);
  }, 60_000);

  it('a catalogue entry that is not a source (written by another NATS client) is skipped; the daemon goes on', async () => {
    const prefix = env.prefix();
    const d = await startWithToken(prefix);
    const nc = await connect({ servers: nats.urls, token: TOKEN });
    const kv = await new Kvm(nc).open(`${prefix}_catalog`);
    await kv.put('source.src_01AAAAAAAAAAAAAAAAAAAAAAAA', '{"sourceId":"src_01AAAAAAAAAAAAAAAAAAAAAAAA","hostType":"remote_source"}');
    await kv.put('source.junk', 'not json');
    await nc.close();
    await waitFor(() => d.logs().includes('catalogue entry is not a source'), 10_000);
    expect((await call(d, 'GET', '/sources')).sources).toEqual([]);
    const host = await call(d, 'POST', '/hosts', { hostType: 'local_event', hostKey: 'k' });
    const source = await call(d, 'POST', '/sources', { hostId: host.hostId, streamKind: 'k', streamKey: 'k' });
    expect(await call(d, 'POST', `/sources/${source.sourceId}/events`, { type: 't' })).toMatchObject({ appended: 1 });
  });
});

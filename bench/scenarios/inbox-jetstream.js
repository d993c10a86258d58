/**
 * Inbox streams on NATS JetStream against the SQLite backend, under the same load in one run.
 * Real nats-server processes (bench/lib/nats.js) are started once: one single node and one
 * three-node cluster. Three daemons run at once, each on its own home:
 * - `sqlite`: the default backend (the baseline);
 * - `jetstream`: `[inbox.streams] backend = "jetstream"` on the single node, replicas 1;
 * - `jetstream-r3`: on the cluster, replicas 3.
 *
 * 1. Append latency: single-event appends (`{"type":"t","data":{"n":i}}`), sequential, one
 *    keep-alive connection per daemon over the Unix socket, timed from send to the last byte of
 *    the answer; in rounds, each round a block of appends per configuration in rotated order, so
 *    drift lands on all alike.
 * 2. Batch ingest: batches of 1,000 events from 4 concurrent connections into one source per
 *    configuration, in the same rotated rounds; events/s over each configuration's total time.
 * 3. Append → watch across two daemons: the JetStream daemons are stopped and two pairs started,
 *    A and B on the same servers and a fresh `stream_prefix` (single node R1, cluster R3). A
 *    local_event source is created on A; once B lists it, an inbox agent on B is subscribed and
 *    B's watch opened; then events appended through A one at a time, timed from the send to the
 *    watch frame carrying the entry at B. The baseline is one sqlite daemon appending and watching
 *    itself. Rounds rotate over the three as above.
 *
 * No goals: the rows are informational. nats-server runs with its defaults (JetStream does not
 * fsync each message; SQLite does, on the daemon's commit, which the JetStream backend also makes
 * for its mirror before it answers).
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { openWatcher, socketJson, timedCall } from '../lib/inbox.js';
import { startNats } from '../lib/nats.js';
import { cpuSeconds, removeHome, startDaemon, tempHome } from '../lib/processes.js';
import { halfSpread, int, ms, nowNs, ratio, summary } from '../lib/stats.js';

const BATCH = 1000;
const CONNECTIONS = 4;
const FRAME_TIMEOUT_MS = 15_000;
const LISTED_TIMEOUT_MS = 15_000;

export async function run(opts) {
  const o = opts.inboxJetstream;
  const daemons = [];
  const clusters = [];
  const watchers = [];
  const start = async (name, streams) => {
    const d = await startInboxDaemon(name, streams);
    daemons.push(d);
    return d;
  };
  try {
    const t0 = Date.now();
    const started = await Promise.allSettled([startNats({ nodes: 1 }), startNats({ nodes: 3 })]);
    clusters.push(...started.filter((r) => r.status === 'fulfilled').map((r) => r.value));
    for (const r of started) if (r.status === 'rejected') throw r.reason;
    const [single, cluster] = clusters;
    opts.log(`  nats-server: 1 node and a 3-node cluster ready in ${Date.now() - t0} ms`);
    const js1 = (prefix) => ({ servers: single.urls, prefix, replicas: 1 });
    const js3 = (prefix) => ({ servers: cluster.urls, prefix, replicas: 3 });
    const configs = await Promise.all([start('sqlite', null), start('jetstream', js1('bench1')), start('jetstream-r3', js3('bench3'))]);
    const natsPids = { sqlite: [], jetstream: single.nodes.map((n) => n.pid), 'jetstream-r3': cluster.nodes.map((n) => n.pid) };

    // 1. Single-event append latency.
    for (const c of configs) c.latencySource = await createSource(c, 'latency');
    const samples = new Map(configs.map((c) => [c.name, []]));
    const counters = new Map(configs.map((c) => [c.name, 0]));
    const appendBlock = async (c, count, keep) => {
      for (let k = 0; k < count; k++) {
        const n = counters.get(c.name);
        counters.set(c.name, n + 1);
        const r = await timedCall(c.socketPath, c.single, 'POST', `/sources/${c.latencySource}/events`, { type: 't', data: { n } });
        if (r.body.appended !== 1) throw new Error(`${c.name} append ${n}: ${JSON.stringify(r.body)}`);
        if (keep) samples.get(c.name).push(r.ms);
      }
    };
    for (const c of configs) await appendBlock(c, o.warmup, false);
    for (let round = 0; round < o.rounds; round++) {
      for (const c of rotate(configs, round)) await appendBlock(c, o.appends, true);
    }
    const latency = Object.fromEntries(configs.map((c) => [c.name, summary(samples.get(c.name))]));
    for (const c of configs) opts.log(`  append ${c.name}: p50 ${ms(latency[c.name].p50)} p99 ${ms(latency[c.name].p99)}`);

    // 2. Batch ingest.
    for (const c of configs) c.ingestSource = await createSource(c, 'ingest');
    const perRound = Math.ceil(o.ingest / o.rounds / BATCH) * BATCH;
    const ingest = Object.fromEntries(configs.map((c) => [c.name, { events: 0, seconds: 0, rates: [], daemon_cpu_s: 0, nats_cpu_s: 0 }]));
    const natsCpu = (name) => natsPids[name].reduce((sum, pid) => sum + cpuSeconds(pid), 0);
    for (let round = 0; round < o.rounds; round++) {
      for (const c of rotate(configs, round)) {
        const [daemon0, nats0] = [cpuSeconds(c.pid), natsCpu(c.name)];
        const seconds = await ingestBlock(c, round * perRound, perRound);
        const r = ingest[c.name];
        r.daemon_cpu_s += cpuSeconds(c.pid) - daemon0;
        r.nats_cpu_s += natsCpu(c.name) - nats0;
        r.events += perRound;
        r.seconds += seconds;
        r.rates.push(perRound / seconds);
      }
    }
    for (const c of configs) {
      const r = ingest[c.name];
      r.perSecond = r.events / r.seconds;
      const stats = (await c.call('GET', `/streams/${c.ingestSource}`)).streamStats;
      if (stats.highWatermarkOffset !== r.events) throw new Error(`${c.name}: ingest stream has highWatermarkOffset ${stats.highWatermarkOffset}, expected ${r.events}`);
      opts.log(`  ingest ${c.name}: ${int(r.events)} events in ${r.seconds.toFixed(1)} s: ${int(r.perSecond)} events/s`);
    }

    // 3. Append → watch: fresh JetStream pairs (so B mirrors only the watched stream), the sqlite daemon alone.
    const sqlite = configs[0];
    for (const c of configs.slice(1)) {
      await c.stop();
      daemons.splice(daemons.indexOf(c), 1);
    }
    const [a1, b1, a3, b3] = await Promise.all([start('jetstream A', js1('watch1')), start('jetstream B', js1('watch1')), start('jetstream-r3 A', js3('watch3')), start('jetstream-r3 B', js3('watch3'))]);
    const pairs = [
      { name: 'sqlite', a: sqlite, b: sqlite },
      { name: 'jetstream', a: a1, b: b1 },
      { name: 'jetstream-r3', a: a3, b: b3 },
    ];
    for (const p of pairs) {
      p.sourceId = await createSource(p.a, 'watch');
      const t = nowNs();
      await waitListed(p.b, p.sourceId);
      p.listedMs = (nowNs() - t) / 1e6;
      const { agentId } = await p.b.call('POST', '/agents', {});
      await p.b.call('POST', '/subscriptions', { agentId, sourceId: p.sourceId });
      p.watcher = await openWatcher(p.b.socketPath, agentId);
      watchers.push(p.watcher);
      p.sent = 0;
      p.append = [];
      p.frame = [];
      if (p.a !== p.b) opts.log(`  ${p.name}: source created on A listed on B after ${ms(p.listedMs, 0)}`);
    }
    const watchBlock = async (p, count, keep) => {
      for (let k = 0; k < count; k++) {
        const n = p.sent++;
        const t = nowNs();
        const frame = p.watcher.next(n);
        const r = await timedCall(p.a.socketPath, p.a.single, 'POST', `/sources/${p.sourceId}/events`, { type: 't', data: { n } });
        if (r.body.appended !== 1) throw new Error(`${p.name} append ${n}: ${JSON.stringify(r.body)}`);
        const tFrame = await within(frame, FRAME_TIMEOUT_MS, `${p.name}: no watch frame for event ${n}`);
        if (!keep) continue;
        p.append.push(r.ms);
        p.frame.push((tFrame - t) / 1e6);
      }
    };
    for (const p of pairs) await watchBlock(p, o.watchWarmup, false);
    const watchPerRound = Math.ceil(o.watchAppends / o.rounds);
    for (let round = 0; round < o.rounds; round++) {
      for (const p of rotate(pairs, round)) await watchBlock(p, watchPerRound, true);
    }
    const watch = Object.fromEntries(pairs.map((p) => [p.name, { append_ms: summary(p.append), frame_ms: summary(p.frame), listed_ms: p.a === p.b ? null : p.listedMs }]));
    for (const p of pairs) opts.log(`  watch ${p.name}: append answered p50 ${ms(watch[p.name].append_ms.p50)} p99 ${ms(watch[p.name].append_ms.p99)} | frame p50 ${ms(watch[p.name].frame_ms.p50)} p99 ${ms(watch[p.name].frame_ms.p99)}`);
    const failures = pairs.filter((p) => p.watcher.count !== p.sent || p.watcher.duplicates > 0).map((p) => `${p.name}: the watch got ${p.watcher.count} entries (${p.watcher.duplicates} repeated) for ${p.sent} appends`);

    return report({ o, perRound, watchPerRound, latency, ingest, watch, failures });
  } finally {
    for (const w of watchers) w.close();
    await Promise.all(daemons.map((d) => d.stop()));
    await Promise.all(clusters.map((c) => c.close()));
  }
}

/** A daemon on a fresh home; `streams` null for the sqlite backend, else { servers, prefix, replicas }. */
async function startInboxDaemon(name, streams) {
  const home = tempHome();
  if (streams) {
    fs.appendFileSync(
      path.join(home, 'config.toml'),
      `[inbox.streams]\nbackend = "jetstream"\nservers = ${JSON.stringify(streams.servers)}\nstream_prefix = "${streams.prefix}"\nreplicas = ${streams.replicas}\n`,
    );
  }
  const daemon = await startDaemon(home);
  const socketPath = path.join(home, 'inbox.sock');
  const pool = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const single = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let stopped = false;
  return {
    name,
    pid: daemon.pid,
    socketPath,
    pool,
    single,
    call: (method, p, body) => socketJson(socketPath, pool, method, p, body),
    async stop() {
      if (stopped) return;
      stopped = true;
      pool.destroy();
      single.destroy();
      await daemon.stop();
      removeHome(home);
    },
  };
}

async function createSource(d, key) {
  const host = await d.call('POST', '/hosts', { hostType: 'local_event', hostKey: `bench-${key}` });
  const src = await d.call('POST', '/sources', { hostId: host.hostId, streamKind: 'bench', streamKey: key });
  return src.sourceId;
}

/** Poll GET /sources on `d` until it lists `sourceId` (at once when the source was created there). */
async function waitListed(d, sourceId) {
  const deadline = Date.now() + LISTED_TIMEOUT_MS;
  for (;;) {
    const { sources } = await d.call('GET', '/sources');
    if (sources.some((s) => s.sourceId === sourceId)) return;
    if (Date.now() > deadline) throw new Error(`${d.name} did not list source ${sourceId} within ${LISTED_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** `count` events (from event number `from`) in batches of BATCH over CONNECTIONS connections; resolves with the seconds taken. */
async function ingestBlock(c, from, count) {
  const jobs = Array.from({ length: Math.ceil(count / BATCH) }, (_, b) => from + b * BATCH);
  const t0 = nowNs();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < jobs.length) {
        const first = jobs[next++];
        const events = Array.from({ length: BATCH }, (_, i) => ({ id: `e${first + i}`, type: 'bench.event', subject: `item-${(first + i) % 97}`, data: { n: first + i, text: 'x'.repeat(64) } }));
        const r = await c.call('POST', `/sources/${c.ingestSource}/events`, { events });
        if (r.appended !== BATCH) throw new Error(`${c.name} batch at ${first}: ${JSON.stringify(r).slice(0, 300)}`);
      }
    }),
  );
  return (nowNs() - t0) / 1e9;
}

/** `list` rotated left by `round` places. */
const rotate = (list, round) => list.map((_, i) => list[(i + round) % list.length]);

function within(promise, timeoutMs, message) {
  let timer;
  const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(message)), timeoutMs)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const LABELS = { sqlite: 'sqlite (baseline)', jetstream: 'jetstream (1 node, R1)', 'jetstream-r3': 'jetstream-r3 (3 nodes, R3)' };

function report({ o, perRound, watchPerRound, latency, ingest, watch, failures }) {
  const rows = [];
  const vs = (v, base) => (v === base ? '' : ` (${ratio(v / base)} sqlite)`);
  for (const [name, l] of Object.entries(latency)) {
    rows.push({ measure: `append p50 / p99, ${LABELS[name]}`, result: `${ms(l.p50)} / ${ms(l.p99)}${vs(l.p99, latency.sqlite.p99)}` });
  }
  for (const [name, r] of Object.entries(ingest)) {
    const spread = halfSpread(r.rates);
    rows.push({ measure: `ingest events/s, ${LABELS[name]}`, result: `${int(r.perSecond)} ± ${(spread * 100).toFixed(0)} %${vs(r.perSecond, ingest.sqlite.perSecond)}` });
  }
  const perEvent = (cpu, r) => `${int((cpu / r.events) * 1e6)} µs`;
  rows.push({
    measure: 'ingest CPU per event: daemon / nats-server (all nodes)',
    result: Object.entries(ingest)
      .map(([name, r]) => `${name} ${perEvent(r.daemon_cpu_s, r)}${name === 'sqlite' ? '' : ` / ${perEvent(r.nats_cpu_s, r)}`}`)
      .join(' · '),
  });
  for (const [name, w] of Object.entries(watch)) {
    const where = name === 'sqlite' ? 'one sqlite daemon (baseline)' : `${LABELS[name].replace(' (', ', A → B (')}`;
    rows.push({ measure: `append → watch p50 / p99, ${where}`, result: `${ms(w.frame_ms.p50)} / ${ms(w.frame_ms.p99)}${vs(w.frame_ms.p99, watch.sqlite.frame_ms.p99)}` });
  }
  for (const [name, w] of Object.entries(watch)) {
    if (w.listed_ms !== null) rows.push({ measure: `source created on A listed on B, ${LABELS[name]}`, result: ms(w.listed_ms, 0) });
  }
  return {
    params:
      `3 daemons at once (sqlite; jetstream on 1 nats-server node, R1; jetstream on a 3-node cluster, R3); ${o.rounds} rounds in rotated order of ${o.appends} sequential single-event appends per daemon ` +
      `(after ${o.warmup} warm-up) on one keep-alive Unix-socket connection, then of ${int(perRound)} events in ${BATCH}-event batches over ${CONNECTIONS} connections; ` +
      `append → watch: ${o.rounds} × ${watchPerRound} sequential appends (after ${o.watchWarmup} warm-up) through daemon A timed to the watch frame at daemon B (same servers and stream_prefix), sqlite on one daemon; ratios are of p99 (ingest: of events/s)`,
    rows,
    data: { rounds: o.rounds, appends: o.appends, warmup: o.warmup, batch: BATCH, connections: CONNECTIONS, ingest_per_round: perRound, watch_per_round: watchPerRound, watch_warmup: o.watchWarmup, append_ms: latency, ingest, watch },
    failures,
  };
}

/**
 * Inbox append: batch ingest rate and single-event append latency against stream size.
 *
 * Three local_event streams are filled over the Unix socket with batches of 1,000 events from 4
 * concurrent connections: 10,000, 100,000 and 1,000,000 events (the ingest rate is measured over
 * the whole fill). Then a sequential loop appends one event at a time over one keep-alive
 * connection, cycling through the three streams (order reversed every round, so drift lands on
 * all alike), timing each request from send to the last byte. Each append is its own group-commit
 * transaction with an fsync, so the latency is mostly the disk's; what matters is that it does not
 * grow with the stream: the 10k stream is the baseline of the same run, the goal is p99 at 1M
 * within 1.5x of p99 at 10k.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { timedCall } from '../lib/inbox.js';
import { removeHome, startDaemon, tempHome } from '../lib/processes.js';
import { int, mib, ms, nowNs, ratio, summary } from '../lib/stats.js';

const GOAL_RATIO = 1.5;
const GOAL_INGEST_PER_S = 50_000;
const BATCH = 1000;
const CONNECTIONS = 4;

export async function run(opts) {
  const { sizes, appends, warmup } = opts.inboxAppend;
  const home = tempHome();
  const daemon = await startDaemon(home);
  const socketPath = path.join(home, 'inbox.sock');
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const call = (method, p, body) => timedCall(socketPath, agent, method, p, body).then((r) => r.body);
  try {
    const host = await call('POST', '/hosts', { hostType: 'local_event', hostKey: 'bench' });
    const streams = [];
    for (const size of sizes) {
      const src = await call('POST', '/sources', { hostId: host.hostId, streamKind: 'bench', streamKey: `s${size}` });
      streams.push({ id: src.sourceId, size });
    }

    // Batch ingest: every stream filled to its size, CONNECTIONS batches in flight.
    const jobs = streams.flatMap((s) => Array.from({ length: Math.ceil(s.size / BATCH) }, (_, b) => ({ s, from: b * BATCH, n: Math.min(BATCH, s.size - b * BATCH) })));
    const total = jobs.reduce((sum, j) => sum + j.n, 0);
    const t0 = nowNs();
    let next = 0;
    let lastLog = Date.now();
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (next < jobs.length) {
          const j = jobs[next++];
          const events = Array.from({ length: j.n }, (_, i) => ({ id: `e${j.from + i}`, type: 'bench.event', subject: `item-${(j.from + i) % 97}`, data: { n: j.from + i, text: 'x'.repeat(64) } }));
          const r = await call('POST', `/sources/${j.s.id}/events`, { events });
          if (r.appended !== j.n) throw new Error(`batch at ${j.from}: ${JSON.stringify(r)}`);
          if (Date.now() - lastLog > 5000) {
            lastLog = Date.now();
            opts.log(`  ingest: ${next * BATCH} of ${total} events`);
          }
        }
      }),
    );
    const ingestSeconds = (nowNs() - t0) / 1e9;
    const perSecond = total / ingestSeconds;
    opts.log(`  ingested ${int(total)} events in ${ingestSeconds.toFixed(1)} s: ${int(perSecond)} events/s`);
    for (const s of streams) {
      const stats = (await call('GET', `/streams/${s.id}`)).streamStats;
      if (stats.highWatermarkOffset !== s.size) throw new Error(`stream of ${s.size} has highWatermarkOffset ${stats.highWatermarkOffset}`);
    }

    // Sequential single-event appends, one connection, round robin over the streams.
    const single = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const samples = streams.map(() => []);
    for (let round = 0; round < warmup + appends; round++) {
      const order = round % 2 === 0 ? streams.map((_, k) => k) : streams.map((_, k) => streams.length - 1 - k);
      for (const k of order) {
        const r = await timedCall(socketPath, single, 'POST', `/sources/${streams[k].id}/events`, { type: 'bench.single', data: { round } });
        if (r.body.appended !== 1) throw new Error(`single append: ${JSON.stringify(r.body)}`);
        if (round >= warmup) samples[k].push(r.ms);
      }
    }
    single.destroy();
    const latencies = streams.map((s, k) => ({ size: s.size, ...summary(samples[k]) }));
    for (const l of latencies) opts.log(`  ${label(l.size)} stream: p50 ${ms(l.p50)} p99 ${ms(l.p99)}`);
    const dbBytes = fs.statSync(path.join(home, 'svc.db')).size + walBytes(home);
    return report({ sizes, appends, warmup, total, ingestSeconds, perSecond, latencies, dbBytes });
  } finally {
    agent.destroy();
    await daemon.stop();
    removeHome(home);
  }
}

function walBytes(home) {
  try {
    return fs.statSync(path.join(home, 'svc.db-wal')).size;
  } catch {
    return 0;
  }
}

const label = (n) => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n));

function report({ sizes, appends, warmup, total, ingestSeconds, perSecond, latencies, dbBytes }) {
  const base = latencies[0];
  const big = latencies[latencies.length - 1];
  const rows = [{ measure: `batch ingest (${BATCH}-event batches, ${CONNECTIONS} connections)`, result: `${int(perSecond)} events/s`, goal: `≥ ${int(GOAL_INGEST_PER_S)}/s`, ok: perSecond >= GOAL_INGEST_PER_S }];
  for (const l of latencies) rows.push({ measure: `single append, ${label(l.size)}-event stream p50 / p99`, result: `${ms(l.p50)} / ${ms(l.p99)}` });
  const r = big.p99 / base.p99;
  rows.push({ measure: `append p99 ${label(big.size)} / ${label(base.size)}`, result: ratio(r), goal: `≤ ${GOAL_RATIO}x`, ok: r <= GOAL_RATIO });
  rows.push({ measure: 'database + WAL after the run', result: mib(dbBytes) });
  return {
    params: `local_event streams of ${sizes.map(label).join(', ')} events (${int(total)} ingested over the Unix socket); ${appends} sequential single-event appends per stream (after ${warmup} warm-up), one keep-alive connection`,
    rows,
    data: { sizes, batch: BATCH, connections: CONNECTIONS, ingested: total, ingest_seconds: ingestSeconds, events_per_second: perSecond, appends, warmup, latency_ms: latencies, p99_ratio: r, db_bytes: dbBytes },
    failures: [],
  };
}

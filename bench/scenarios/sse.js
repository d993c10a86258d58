/**
 * SSE fan-out: N live clients on GET /api/agents/main/events/stream (split over worker
 * processes), then W warm-up and M timed messages enqueued at a fixed pace (open loop: a batch
 * leaves every interval whether or not the previous one was answered, so a slow daemon cannot slow
 * the load down and hide its own latency). Each timed frame's latency is its arrival at a client
 * minus the send time of the enqueue request whose message_id it carries. Every client must
 * receive all W + M frames with event_seq going up by exactly one.
 *
 * The same run is repeated against a bare-Fastify fan-out server (bench/servers/bare-fanout.js):
 * the floor this machine puts under any Node process writing to that many loopback sockets.
 */
import http from 'node:http';
import { expectJson, metrics, sleep, stopAgent } from '../lib/http.js';
import { cpuSeconds, removeHome, rssBytes, startBareFanout, startDaemon } from '../lib/processes.js';
import { openClients } from '../lib/sse-clients.js';
import { int, mib, ms, nowNs, ratio, summary } from '../lib/stats.js';

const GOAL_P99_MS = 50;
const DRAIN_TIMEOUT_MS = 30_000;
const STREAM = '/api/agents/main/events/stream';

export async function run(opts) {
  const svc = await measureTarget(opts, () => startDaemon());
  opts.log(`  svc: frame p50 ${ms(svc.latency.p50, 1)} p99 ${ms(svc.latency.p99, 1)}, ${svc.failures.length ? svc.failures.join('; ') : 'no loss'}`);
  const bare = await measureTarget(opts, () => startBareFanout());
  opts.log(`  bare: frame p50 ${ms(bare.latency.p50, 1)} p99 ${ms(bare.latency.p99, 1)}, ${bare.failures.length ? bare.failures.join('; ') : 'no loss'}`);
  return summarise(opts, svc, bare);
}

async function measureTarget(opts, start) {
  const { clients: total, events: n, warmup, batch, intervalMs, workers } = opts.sse;
  const server = await start();
  let pool = null;
  try {
    // svc: the run loop would answer every message with a turn (more events than enqueues); the
    // scenario measures fan-out of what it enqueues.
    if (server.home) await stopAgent(server.base);
    pool = await openClients(`${server.base}${STREAM}`, total, workers);
    if (pool.connected !== total) throw new Error(`only ${pool.connected} of ${total} SSE clients connected to ${server.name}: ${pool.errors.join('; ')}`);
    await sleep(500);
    const rssConnected = rssBytes(server.pid);
    // Nothing else appends to main's log during the bench, so the frames will carry head + 1 ...
    // head + warmup (warm-up: JIT, fresh sockets) and then the n measured ones.
    const head = (await expectJson(server.base, 'GET', '/api/agents/main/events?limit=1', 200)).cursor_seq;
    await pool.expect(head + 1, head + warmup, n);
    const complete = pool.whenComplete(DRAIN_TIMEOUT_MS + ((warmup + n) / batch) * intervalMs);

    const isSvc = Boolean(server.home);
    const metrics0 = isSvc ? await metrics(server.base) : null;
    const cpuServer0 = cpuSeconds(server.pid);
    const cpuSelf0 = process.cpuUsage();
    const t0 = nowNs();
    const sent = await enqueuePaced(server.base, warmup, n, batch, intervalMs);
    const allArrived = await complete;
    const wall = (nowNs() - t0) / 1e9;
    const serverCpu = cpuSeconds(server.pid) - cpuServer0;
    const selfCpu = process.cpuUsage(cpuSelf0);
    const rssAfter = rssBytes(server.pid);
    const reports = await pool.report(sent.sendNs);
    const metrics1 = isSvc ? await metrics(server.base) : null;
    const store = isSvc
      ? { commits: metrics1.svc_store_commits - metrics0.svc_store_commits, laggingDisconnects: metrics1.svc_sse_lagging_disconnects - metrics0.svc_sse_lagging_disconnects }
      : null;
    return { ...analyse({ opts: opts.sse, sent, reports, allArrived, wall, serverCpu, selfCpu: (selfCpu.user + selfCpu.system) / 1e6, rssConnected, rssAfter, head }), store };
  } finally {
    await pool?.close();
    await server.stop();
    if (server.home) removeHome(server.home);
  }
}

/** Send warmup + n enqueues, `batch` at a time every `intervalMs`; resolves when all are answered. */
async function enqueuePaced(base, warmup, n, batch, intervalMs) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const sendNs = new Map();
  const ackMs = [];
  const failures = [];
  const pending = [];
  const start = nowNs();
  for (let i = 0, b = 0; i < warmup + n; b++) {
    // Drift-free schedule: batch b leaves at start + b * interval.
    const wait = (start + b * intervalMs * 1e6 - nowNs()) / 1e6;
    if (wait > 1) await sleep(wait);
    for (let j = 0; j < batch && i < warmup + n; j++, i++) pending.push(enqueueOne(base, agent, i, sendNs, i < warmup ? [] : ackMs, failures));
  }
  await Promise.all(pending);
  agent.destroy();
  return { sendNs, ackMs, failures, seconds: (nowNs() - start) / 1e9 };
}

function enqueueOne(base, agent, i, sendNs, ackMs, failures) {
  return new Promise((resolve) => {
    const body = JSON.stringify({ text: `sse bench ${i}` });
    const req = http.request(`${base}/api/agents/main/enqueue`, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    let sentAt = 0;
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        if (res.statusCode !== 202) failures.push(`status ${res.statusCode}: ${text.slice(0, 200)}`);
        else {
          sendNs.set(JSON.parse(text).message_id, sentAt);
          ackMs.push((nowNs() - sentAt) / 1e6);
        }
        resolve();
      });
    });
    req.on('error', (err) => {
      failures.push(err.message);
      resolve();
    });
    // The send time is taken as the request is handed to the socket.
    sentAt = nowNs();
    req.end(body);
  });
}

function analyse({ opts, sent, reports, allArrived, wall, serverCpu, selfCpu, rssConnected, rssAfter, head }) {
  const { clients: total, events: n, warmup } = opts;
  const sum = (f) => reports.reduce((a, r) => a + f(r), 0);
  const frames = sum((r) => r.frames);
  const lost = total * (warmup + n) - frames;
  const gaps = sum((r) => r.gaps);
  const backwards = sum((r) => r.backwards);
  const closedEarly = sum((r) => r.closedEarly);

  // Every worker must agree on which message sits at each event_seq, and it must be one we sent, each once.
  const ids = reports[0].ids;
  const idDisagreements = sum((r) => r.idMismatches) + reports.slice(1).reduce((a, r) => a + r.ids.filter((id, k) => id !== ids[k]).length, 0);
  const unknownIds = ids.filter((id) => !sent.sendNs.has(id)).length;
  const distinct = new Set(ids).size;

  // Fan-out spread: for each event, last arrival minus first arrival over all clients.
  const spreads = [];
  for (let k = 0; k < n; k++) {
    const first = Math.min(...reports.map((r) => r.first[k]));
    const last = Math.max(...reports.map((r) => r.last[k]));
    if (Number.isFinite(first) && Number.isFinite(last)) spreads.push((last - first) / 1e6);
  }

  const failures = [];
  if (sent.failures.length) failures.push(`${sent.failures.length} enqueues failed (${sent.failures[0]})`);
  if (!allArrived || lost !== 0) failures.push(`${lost} frames lost`);
  if (gaps || backwards) failures.push(`${gaps} gaps and ${backwards} repeated/out-of-order frames`);
  if (closedEarly) failures.push(`${closedEarly} clients were disconnected by the server`);
  if (idDisagreements || unknownIds || distinct !== n) failures.push(`frame payloads disagree: ${idDisagreements} mismatches, ${unknownIds} unknown message_ids, ${distinct} distinct of ${n}`);

  return {
    latency: summary(concat(reports.map((r) => r.latencies))),
    ack: summary(sent.ackMs),
    spread: summary(spreads),
    frames,
    lost,
    gaps,
    outOfOrder: backwards,
    closedEarly,
    clientsComplete: sum((r) => r.complete),
    baseSeq: head,
    enqueueSeconds: sent.seconds,
    wallSeconds: wall,
    cpuSeconds: { server: serverCpu, clients: sum((r) => r.cpuSeconds), enqueuer: selfCpu },
    clientLoopDelayP99Ms: Math.max(...reports.map((r) => r.loopDelayP99Ms)),
    rssBytes: { connected: rssConnected, afterFanout: rssAfter },
    failures,
  };
}

function summarise(opts, svc, bare) {
  const { clients: total, events: n, warmup, batch, intervalMs, workers } = opts.sse;
  const rate = (batch * 1000) / intervalMs;
  const cpu = (m) => m.cpuSeconds;
  const correct = svc.failures.length === 0;
  const failures = [...svc.failures.map((f) => `svc: ${f}`), ...bare.failures.map((f) => `bare fan-out: ${f}`)];
  // When the clients burn more CPU than the server on 2 shared cores, part of every latency is
  // the clients' own queueing; say so rather than blame (or credit) the daemon.
  const clientHeavy = cpu(svc).clients > cpu(svc).server || svc.clientLoopDelayP99Ms > 20;
  return {
    params: `${int(total)} clients in ${workers} worker processes, ${int(n)} events (after ${warmup} warm-up events) enqueued ${batch} every ${intervalMs} ms (${int(rate)}/s offered), ${int(total * n)} timed frames per server`,
    rows: [
      { measure: 'svc frame latency (enqueue sent -> frame at client): p50 / p99', result: `${ms(svc.latency.p50, 1)} / ${ms(svc.latency.p99, 1)}`, goal: `p99 ≤ ${GOAL_P99_MS} ms`, ok: svc.latency.p99 <= GOAL_P99_MS },
      { measure: 'bare-Fastify fan-out frame latency: p50 / p99', result: `${ms(bare.latency.p50, 1)} / ${ms(bare.latency.p99, 1)}` },
      { measure: 'svc / bare frame latency p99', result: ratio(svc.latency.p99 / bare.latency.p99) },
      { measure: 'svc frame latency p99.9 / max', result: `${ms(svc.latency.p999, 1)} / ${ms(svc.latency.max, 1)}` },
      { measure: '202 latency during fan-out, p50 / p99: svc; bare', result: `${ms(svc.ack.p50, 1)} / ${ms(svc.ack.p99, 1)}; ${ms(bare.ack.p50, 1)} / ${ms(bare.ack.p99, 1)}` },
      { measure: 'spread per event, last - first client, p50 / p99: svc; bare', result: `${ms(svc.spread.p50, 1)} / ${ms(svc.spread.p99, 1)}; ${ms(bare.spread.p50, 1)} / ${ms(bare.spread.p99, 1)}` },
      {
        measure: 'svc frames delivered; lost; gaps / out of order',
        result: `${int(svc.frames)} of ${int(total * (warmup + n))}; ${int(svc.lost)}; ${svc.gaps} / ${svc.outOfOrder}`,
        goal: '0 lost, 0 out of order',
        ok: correct,
      },
      {
        measure: 'CPU while frames flowed (svc run)',
        result: `daemon ${cpu(svc).server.toFixed(1)} s, clients ${cpu(svc).clients.toFixed(1)} s, enqueuer ${cpu(svc).enqueuer.toFixed(1)} s over ${svc.wallSeconds.toFixed(1)} s; client loop delay p99 ${svc.clientLoopDelayP99Ms.toFixed(0)} ms${clientHeavy ? ' (clients outweigh the daemon: latencies include client-side queueing)' : ''}`,
      },
      { measure: 'svc commits during fan-out (events per commit); lagging disconnects', result: `${int(svc.store.commits)} (${((warmup + n) / svc.store.commits).toFixed(1)}); ${svc.store.laggingDisconnects}` },
      { measure: `svc daemon RSS: ${int(total)} clients connected / after fan-out`, result: `${mib(svc.rssBytes.connected)} / ${mib(svc.rssBytes.afterFanout)}` },
    ],
    data: { clients: total, workers, events: n, warmup_events: warmup, batch, interval_ms: intervalMs, offered_rate_per_s: rate, client_heavy: clientHeavy, svc, bare },
    failures,
  };
}

function concat(arrays) {
  const out = new Float64Array(arrays.reduce((a, x) => a + x.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}

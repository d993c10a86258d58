/**
 * Enqueue throughput and the latency of one durable write. autocannon against
 * POST /api/agents/main/enqueue on svc (synchronous = "full", the default), on svc with
 * `[store] synchronous = "normal"` (no fsync: what durability costs) and on the same route of
 * bare Fastify, in the same run, in rotating order per round so drift on a noisy machine hits
 * all alike. The ratio's tolerance is half the spread of the per-round ratios. CPU time per
 * request is read from /proc for each server, which stays meaningful even when the load
 * generator (sharing the same cores) is the limit. Then one connection, one request at a time:
 * the latency of a single durable write, fsync included, beside the same without fsync and
 * beside bare Fastify. The agent is stopped before the load, so the run loop consumes nothing
 * and every 202 stays a queued message (the turns scenario measures consumption).
 *
 * Where svc's CPU goes: the event-loop thread's share of it (and how busy that thread was: below
 * a whole core, the machine's other core, shared with the load generator, is the limit, not the
 * loop), svc's HTTP layer alone (`GET /api/`, which reads no table, under the same load), and,
 * in a child process without HTTP (lib/enqueue-probe.js), the domain enqueue and the two SQL
 * inserts under it. A second baseline, `durable` (servers/bare-durable.js), is bare Fastify
 * writing one SQLite row per request with group commit and synchronous=FULL: the least a durable
 * enqueue costs here, beside which svc's own features are what remains. Two more answer whether a
 * writer thread would help: bare Fastify writing svc's own two rows per request (its schema, its
 * statements) with the same group commit, once on the event loop (`rows`) and once by a
 * `worker_threads` writer with its own connection (`writer`), the loop gathering the next batch
 * while the worker commits.
 */
import http from 'node:http';
import autocannon from 'autocannon';
import { expectJson, metrics, request, stopAgent } from '../lib/http.js';
import { BRAKE_OFF, RETENTION_OFF, cpuSeconds, removeHome, startBareDurable, startBareFastify, startDaemon, tempHome } from '../lib/processes.js';
import { halfSpread, int, mean, ms, nowNs, ratio, summary } from '../lib/stats.js';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PATH = '/api/agents/main/enqueue';
const BODY = JSON.stringify({ text: 'hello' });
const GOAL_RATIO = 0.8;
const PROBE = fileURLToPath(new URL('../lib/enqueue-probe.js', import.meta.url));
/** In-process enqueues measured by the probe, in groups as 50 connections give the group commit. */
const PROBE_COUNT = 40_000;
const PROBE_BATCH = 25;
const SERIAL_WARMUP = 50;
const NAMES = ['svc', 'normal', 'bare', 'durable', 'rows', 'writer'];
const LABEL = {
  svc: 'svc',
  normal: 'svc, synchronous=normal',
  bare: 'bare Fastify',
  durable: 'bare Fastify + one durable SQLite row',
  rows: "bare Fastify + svc's two rows, on the event loop",
  writer: "bare Fastify + svc's two rows, by a writer thread",
};
/** The baselines: nothing of svc's in them, so no queue to count. */
const BASELINES = new Set(['bare', 'durable', 'rows', 'writer']);

function startNormal() {
  return startDaemon(tempHome('[store]\nsynchronous = "normal"\n'));
}

export async function run(opts) {
  const { duration, connections, rounds, warmup, serial } = opts.enqueue;
  const targets = {};
  const runs = Object.fromEntries(NAMES.map((t) => [t, []]));
  const accepted = { svc: 0, normal: 0 };
  const single = {};
  let warmupNot202 = 0;
  const pending = {};
  let group = null;
  let floor = null;
  const durableHomes = [];
  let probe = null;
  try {
    targets.svc = await startDaemon();
    targets.normal = await startNormal();
    targets.bare = await startBareFastify();
    // Durable baselines: one narrow row; svc's two rows on the loop and by a writer thread.
    for (const [t, rows, writer] of [['durable', 'narrow', 'loop'], ['rows', 'svc', 'loop'], ['writer', 'svc', 'worker']]) {
      const home = tempHome();
      durableHomes.push(home);
      targets[t] = await startBareDurable(path.join(home, 'durable.db'), rows, writer);
    }
    for (const t of ['svc', 'normal']) await stopAgent(targets[t].base);
    for (const t of NAMES) {
      const w = await load(targets[t], warmup, connections);
      warmupNot202 += w.completed - w.accepted;
      if (!BASELINES.has(t)) accepted[t] += w.accepted;
    }
    const before = await metrics(targets.svc.base);
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < NAMES.length; i++) {
        const t = NAMES[(i + r) % NAMES.length];
        const result = await load(targets[t], duration, connections);
        runs[t].push(result);
        if (!BASELINES.has(t)) accepted[t] += result.accepted;
        opts.log(`  ${t.padEnd(6)} round ${r + 1}: ${int(result.rps)} req/s, p99 ${result.p99} ms, ${result.cpuUsPerReq.toFixed(0)} µs CPU/req, non-202 ${result.completed - result.accepted}`);
      }
    }
    const after = await metrics(targets.svc.base);
    // Where svc's CPU per enqueue goes: its HTTP layer alone (a GET that touches no table), and,
    // in a child process without HTTP, the domain enqueue and the bare SQL inserts under it.
    floor = await load(targets.svc, duration, connections, { method: 'GET', path: '/api/' });
    opts.log(`  svc    GET /api/: ${int(floor.rps)} req/s, ${floor.cpuUsPerReq.toFixed(0)} µs CPU/req`);
    probe = await runProbe(PROBE_COUNT, PROBE_BATCH);
    opts.log(`  probe  in-process enqueue ${probe.domain_us.toFixed(1)} µs CPU, SQL inserts alone ${probe.sql_us.toFixed(1)} µs CPU`);
    // Group commit at work: how many enqueues shared one transaction (one fsync).
    group = {
      commits: after.svc_store_commits - before.svc_store_commits,
      enqueued: after.svc_messages_enqueued - before.svc_messages_enqueued,
    };
    for (const t of NAMES) {
      single[t] = await oneAtATime(targets[t], serial);
      if (!BASELINES.has(t)) accepted[t] += serial + SERIAL_WARMUP;
      opts.log(`  ${t.padEnd(6)} one connection: p50 ${single[t].p50.toFixed(0)} µs, p99 ${single[t].p99.toFixed(0)} µs`);
    }
    // Every 202 must be a durable queued message: the queue depth counts them.
    for (const t of ['svc', 'normal']) pending[t] = (await expectJson(targets[t].base, 'GET', '/api/agents/main/status', 200)).pending_messages;
  } finally {
    for (const t of NAMES) await targets[t]?.stop();
    for (const t of ['svc', 'normal']) if (targets[t]) removeHome(targets[t].home);
    for (const home of durableHomes) removeHome(home);
  }

  const agg = (list) => ({
    rps: mean(list.map((x) => x.rps)),
    p50: mean(list.map((x) => x.p50)),
    p99: Math.max(...list.map((x) => x.p99)),
    cpuUsPerReq: mean(list.map((x) => x.cpuUsPerReq)),
    mainUsPerReq: mean(list.map((x) => x.mainUsPerReq)),
    mainCores: mean(list.map((x) => x.mainCores)),
    non2xx: list.reduce((a, x) => a + x.non2xx, 0),
    not202: list.reduce((a, x) => a + (x.completed - x.accepted), 0),
    errors: list.reduce((a, x) => a + x.errors + x.timeouts, 0),
  });
  const s = agg(runs.svc);
  const n = agg(runs.normal);
  const b = agg(runs.bare);
  const dur = agg(runs.durable);
  const rowsLoop = agg(runs.rows);
  const rowsWorker = agg(runs.writer);
  const perRoundWriter = runs.writer.map((x, i) => x.rps / runs.rows[i].rps);
  const perRoundDurable = runs.svc.map((x, i) => x.rps / runs.durable[i].rps);
  const perRoundRatio = runs.svc.map((x, i) => x.rps / runs.bare[i].rps);
  const perRoundNormal = runs.normal.map((x, i) => x.rps / runs.bare[i].rps);
  const r = mean(perRoundRatio);
  const tol = halfSpread(perRoundRatio);
  const failures = [];
  if (warmupNot202 > 0) failures.push(`${warmupNot202} responses other than 202 during warm-up`);
  for (const [name, x] of [['svc', s], ['svc (normal)', n], ['bare Fastify', b], ['bare durable', dur], ['svc rows (loop)', rowsLoop], ['svc rows (writer thread)', rowsWorker]]) {
    if (x.not202 > 0 || x.errors > 0) failures.push(`${name} answered ${x.not202} responses other than 202 (${x.non2xx} non-2xx) and had ${x.errors} errors/timeouts`);
  }
  // autocannon stops with up to `connections` requests in flight per run; the server may still
  // have queued those, so the queue may hold a few more than the 202s counted, never fewer.
  const inFlightMax = connections * (1 + rounds);
  const queuedOk = ['svc', 'normal'].every((t) => pending[t] >= accepted[t] && pending[t] <= accepted[t] + inFlightMax);
  if (!queuedOk) failures.push(`202s vs queued messages: svc ${accepted.svc} vs ${pending.svc}, normal ${accepted.normal} vs ${pending.normal}`);
  const us = (v) => `${v.toFixed(0)} µs`;

  const params = `${connections} connections, ${rounds} × ${duration} s per server (after ${warmup} s warm-up), then ${serial} requests one at a time on one connection; body ${BODY}`;
  return {
    params,
    rows: [
      { measure: 'svc enqueue: req/s, p50 / p99 (worst round)', result: `${int(s.rps)} req/s, ${ms(s.p50, 1)} / ${ms(s.p99, 0)}` },
      { measure: 'svc, synchronous=normal: req/s, p50 / p99', result: `${int(n.rps)} req/s, ${ms(n.p50, 1)} / ${ms(n.p99, 0)}` },
      { measure: 'bare Fastify: req/s, p50 / p99 (worst round)', result: `${int(b.rps)} req/s, ${ms(b.p50, 1)} / ${ms(b.p99, 0)}` },
      { measure: 'svc / bare Fastify throughput', result: ratio(r, tol), goal: `≥ ${GOAL_RATIO}x`, ok: r >= GOAL_RATIO },
      { measure: 'svc (synchronous=normal) / bare Fastify throughput', result: ratio(mean(perRoundNormal), halfSpread(perRoundNormal)) },
      { measure: 'bare Fastify + one durable SQLite row (group commit, FULL): req/s, p50 / p99', result: `${int(dur.rps)} req/s, ${ms(dur.p50, 1)} / ${ms(dur.p99, 0)}` },
      { measure: 'svc / that durable baseline throughput', result: ratio(mean(perRoundDurable), halfSpread(perRoundDurable)) },
      { measure: 'server CPU per request: svc / normal / bare / durable baseline', result: `${us(s.cpuUsPerReq)} / ${us(n.cpuUsPerReq)} / ${us(b.cpuUsPerReq)} / ${us(dur.cpuUsPerReq)}` },
      {
        measure: 'svc CPU per enqueue: event-loop thread / other threads (fsync, checkpoints, GC); loop busy',
        result: `${us(s.mainUsPerReq)} / ${us(s.cpuUsPerReq - s.mainUsPerReq)}; ${(s.mainCores * 100).toFixed(0)} % of a core`,
      },
      {
        measure: 'where it goes: svc HTTP layer (GET /api/) · enqueue without HTTP · its SQL inserts alone',
        result: `${us(floor.cpuUsPerReq)} · ${us(probe.domain_us)} · ${us(probe.sql_us)} (bare Fastify's whole POST: ${us(b.cpuUsPerReq)})`,
      },
      {
        measure: "writer thread? svc's two rows per request (its schema, same group commit, FULL): on the event loop · by a writer thread: req/s, CPU per request (event loop's share)",
        result: `${int(rowsLoop.rps)} req/s, ${us(rowsLoop.cpuUsPerReq)} (${us(rowsLoop.mainUsPerReq)}) · ${int(rowsWorker.rps)} req/s, ${us(rowsWorker.cpuUsPerReq)} (${us(rowsWorker.mainUsPerReq)}); writer / loop ${ratio(mean(perRoundWriter), halfSpread(perRoundWriter))}; one connection p50 / p99 ${us(single.rows.p50)} / ${us(single.rows.p99)} · ${us(single.writer.p50)} / ${us(single.writer.p99)}`,
      },
      { measure: 'svc group commit: enqueues per commit', result: `${(group.enqueued / group.commits).toFixed(1)} (${int(group.commits)} commits)` },
      {
        measure: 'one connection, p50 / p99: svc (fsync) · normal · bare · durable baseline (fsync)',
        result: `${us(single.svc.p50)} / ${us(single.svc.p99)} · ${us(single.normal.p50)} / ${us(single.normal.p99)} · ${us(single.bare.p50)} / ${us(single.bare.p99)} · ${us(single.durable.p50)} / ${us(single.durable.p99)}`,
      },
      {
        measure: 'responses other than 202, errors; 202s vs messages queued (svc)',
        result: `${s.not202 + n.not202}, ${s.errors + n.errors}; ${int(accepted.svc)} vs ${int(pending.svc)}`,
        goal: `0, 0; queued - 202s in [0, ${inFlightMax}]`,
        ok: s.not202 + n.not202 === 0 && s.errors + n.errors === 0 && queuedOk,
      },
    ],
    data: { connections, duration_s: duration, rounds, warmup_s: warmup, serial, body: BODY, svc: s, normal: n, bare: b, durable: dur, rows_loop: rowsLoop, rows_writer: rowsWorker, per_round_ratio_writer: perRoundWriter, per_round_ratio_durable: perRoundDurable, http_floor: floor, probe, ratio: r, ratio_tolerance: tol, per_round_ratio: perRoundRatio, per_round_ratio_normal: perRoundNormal, runs, single, accepted, pending, group_commit: group },
    failures,
  };
}

async function load(target, duration, connections, request = { method: 'POST', path: PATH, body: BODY }) {
  const cpu0 = cpuSeconds(target.pid);
  const main0 = cpuSeconds(target.pid, target.pid);
  const res = await autocannon({
    url: `${target.base}${request.path}`,
    method: request.method,
    ...(request.body ? { headers: { 'content-type': 'application/json' }, body: request.body } : {}),
    connections,
    duration,
  });
  const cpu = cpuSeconds(target.pid) - cpu0;
  const main = cpuSeconds(target.pid, target.pid) - main0;
  const completed = res.requests.total;
  return {
    rps: completed / res.duration,
    completed,
    accepted: res.statusCodeStats?.['202']?.count ?? 0,
    p50: res.latency.p50,
    p99: res.latency.p99,
    non2xx: res.non2xx,
    errors: res.errors,
    timeouts: res.timeouts,
    cpuUsPerReq: (cpu * 1e6) / Math.max(1, completed),
    cpuCores: cpu / res.duration,
    // The event loop's thread alone: how busy it was (cores) and its share per request.
    mainUsPerReq: (main * 1e6) / Math.max(1, completed),
    mainCores: main / res.duration,
  };
}

/** lib/enqueue-probe.js in a child process on a fresh home (retention off): CPU µs per enqueue without HTTP. */
function runProbe(count, batch) {
  const home = tempHome(RETENTION_OFF + BRAKE_OFF);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [PROBE, home, String(count), String(batch)], { timeout: 300_000 }, (err, stdout, stderr) => {
      removeHome(home);
      if (err) return reject(new Error(`enqueue probe failed: ${stderr || err.message}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop()));
    });
  });
}

/** `count` requests one after another on one keep-alive connection; latency summary in µs. */
async function oneAtATime(target, count) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const samples = [];
  try {
    for (let i = 0; i < count + SERIAL_WARMUP; i++) {
      const t0 = nowNs();
      const res = await request(target.base, 'POST', PATH, { json: { text: 'hello' }, agent });
      if (res.status !== 202) throw new Error(`one-at-a-time enqueue answered ${res.status}: ${res.text.slice(0, 200)}`);
      if (i >= SERIAL_WARMUP) samples.push((nowNs() - t0) / 1000);
    }
  } finally {
    agent.destroy();
  }
  return summary(samples);
}

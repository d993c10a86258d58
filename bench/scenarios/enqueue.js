/**
 * Enqueue throughput: autocannon against POST /api/agents/main/enqueue on svc and against the
 * same route on bare Fastify, in the same run, in alternating rounds (svc, bare, bare, svc, ...)
 * so drift on a noisy machine hits both sides alike. The ratio's tolerance is half the spread of
 * the per-round ratios. CPU time per request is read from /proc for each server, which stays
 * meaningful even when the load generator (sharing the same cores) is the limit. The agent is
 * stopped before the load, so the run loop consumes nothing and every 202 stays a queued message
 * (the turns scenario measures consumption).
 */
import autocannon from 'autocannon';
import { expectJson, metrics, stopAgent } from '../lib/http.js';
import { cpuSeconds, removeHome, startBareFastify, startDaemon } from '../lib/processes.js';
import { halfSpread, int, mean, ms, ratio } from '../lib/stats.js';

const PATH = '/api/agents/main/enqueue';
const BODY = JSON.stringify({ text: 'hello' });
const GOAL_RATIO = 0.6;

export async function run(opts) {
  const { duration, connections, rounds, warmup } = opts.enqueue;
  const svc = await startDaemon();
  let bare = null;
  const runs = { svc: [], bare: [] };
  let svcAccepted = 0;
  let warmupNot202 = 0;
  let pending;
  let group = null;
  try {
    await stopAgent(svc.base);
    bare = await startBareFastify();
    const targets = { svc, bare };
    for (const t of ['svc', 'bare']) {
      const w = await load(targets[t], warmup, connections);
      warmupNot202 += w.completed - w.accepted;
      if (t === 'svc') svcAccepted += w.accepted;
    }
    const before = await metrics(svc.base);
    for (let r = 0; r < rounds; r++) {
      for (const t of r % 2 === 0 ? ['svc', 'bare'] : ['bare', 'svc']) {
        const result = await load(targets[t], duration, connections);
        runs[t].push(result);
        if (t === 'svc') svcAccepted += result.accepted;
        opts.log(`  ${t.padEnd(4)} round ${r + 1}: ${int(result.rps)} req/s, p99 ${result.p99} ms, ${result.cpuUsPerReq.toFixed(0)} µs CPU/req, non-202 ${result.completed - result.accepted}`);
      }
    }
    const after = await metrics(svc.base);
    // Group commit at work: how many enqueues shared one transaction (one fsync).
    group = {
      commits: after.svc_store_commits - before.svc_store_commits,
      enqueued: after.svc_messages_enqueued - before.svc_messages_enqueued,
    };
    // Every 202 must be a durable queued message: the queue depth counts them.
    const status = await expectJson(svc.base, 'GET', '/api/agents/main/status', 200);
    pending = status.pending_messages;
  } finally {
    await svc.stop();
    await bare?.stop();
    removeHome(svc.home);
  }

  const perRoundRatio = runs.svc.map((s, i) => s.rps / runs.bare[i].rps);
  const agg = (list) => ({
    rps: mean(list.map((x) => x.rps)),
    p50: mean(list.map((x) => x.p50)),
    p99: Math.max(...list.map((x) => x.p99)),
    cpuUsPerReq: mean(list.map((x) => x.cpuUsPerReq)),
    non2xx: list.reduce((a, x) => a + x.non2xx, 0),
    not202: list.reduce((a, x) => a + (x.completed - x.accepted), 0),
    errors: list.reduce((a, x) => a + x.errors + x.timeouts, 0),
  });
  const s = agg(runs.svc);
  const b = agg(runs.bare);
  const r = mean(perRoundRatio);
  const tol = halfSpread(perRoundRatio);
  const failures = [];
  if (warmupNot202 > 0) failures.push(`${warmupNot202} responses other than 202 during warm-up`);
  if (s.not202 > 0 || s.errors > 0) failures.push(`svc answered ${s.not202} responses other than 202 (${s.non2xx} non-2xx) and had ${s.errors} errors/timeouts`);
  if (b.not202 > 0 || b.errors > 0) failures.push(`bare Fastify answered ${b.not202} responses other than 202 and had ${b.errors} errors/timeouts`);
  // autocannon stops with up to `connections` requests in flight per run; the server may still
  // have queued those, so the queue may hold a few more than the 202s counted, never fewer.
  const inFlightMax = connections * (1 + rounds);
  const queuedOk = pending >= svcAccepted && pending <= svcAccepted + inFlightMax;
  if (!queuedOk) failures.push(`svc answered ${svcAccepted} × 202 but holds ${pending} queued messages`);

  const params = `${connections} connections, ${rounds} × ${duration} s per server (after ${warmup} s warm-up), body ${BODY}`;
  return {
    params,
    rows: [
      { measure: 'svc enqueue: req/s, p50 / p99 (worst round)', result: `${int(s.rps)} req/s, ${ms(s.p50, 1)} / ${ms(s.p99, 0)}` },
      { measure: 'bare Fastify: req/s, p50 / p99 (worst round)', result: `${int(b.rps)} req/s, ${ms(b.p50, 1)} / ${ms(b.p99, 0)}` },
      { measure: 'svc / bare Fastify throughput', result: ratio(r, tol), goal: `≥ ${GOAL_RATIO}x`, ok: r >= GOAL_RATIO },
      { measure: 'server CPU per request: svc / bare', result: `${s.cpuUsPerReq.toFixed(0)} µs / ${b.cpuUsPerReq.toFixed(0)} µs` },
      { measure: 'svc group commit: enqueues per commit', result: `${(group.enqueued / group.commits).toFixed(1)} (${int(group.commits)} commits)` },
      {
        measure: 'svc responses other than 202, errors; 202s vs messages queued',
        result: `${s.not202}, ${s.errors}; ${int(svcAccepted)} vs ${int(pending)}`,
        goal: `0, 0; queued - 202s in [0, ${inFlightMax}]`,
        ok: s.not202 === 0 && s.errors === 0 && queuedOk,
      },
    ],
    data: { connections, duration_s: duration, rounds, warmup_s: warmup, body: BODY, svc: s, bare: b, ratio: r, ratio_tolerance: tol, per_round_ratio: perRoundRatio, runs, svc_accepted: svcAccepted, svc_pending: pending, group_commit: group },
    failures,
  };
}

async function load(target, duration, connections) {
  const cpu0 = cpuSeconds(target.pid);
  const res = await autocannon({
    url: `${target.base}${PATH}`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: BODY,
    connections,
    duration,
  });
  const cpu = cpuSeconds(target.pid) - cpu0;
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
  };
}

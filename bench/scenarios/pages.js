/**
 * Event pages against log size: one agent with a large log (1,000,000 events by default) and
 * one with a small one (10,000), written straight into the database before the daemon starts.
 * Then a sequential loop of GET /api/agents/:id/events?limit=128 over one keep-alive connection,
 * cycling through both agents and both page variants so noise lands on all alike, timing each
 * request from send to the last byte. The newest page is the common case; a page at a mid-log cursor
 * (before_seq = half the log) checks that a cursor seeks instead of scanning. Retention is off, so
 * the whole seeded log is the replay window.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { expectJson, timedGet } from '../lib/http.js';
import { RETENTION_OFF, removeHome, startDaemon, tempHome } from '../lib/processes.js';
import { seedEvents } from '../lib/seed-events.js';
import { mib, ms, nowNs, ratio, summary } from '../lib/stats.js';

const GOAL_P99_MS = 5;
const GOAL_RATIO = 1.5;
const LIMIT = 128;

export async function run(opts) {
  const { bigEvents, smallEvents, requests, warmup } = opts.pages;
  // The whole seeded log stays in the replay window: retention off (it would prune to 100,000).
  const home = tempHome(RETENTION_OFF);
  const agents = [
    { id: 'small', total: smallEvents },
    { id: 'main', total: bigEvents },
  ];
  try {
    // First start creates the schema, the default agent and the small agent; then stop.
    let daemon = await startDaemon(home);
    await expectJson(daemon.base, 'POST', '/api/control/agents/small/create', 201, { json: {} });
    await daemon.stop();

    const t0 = nowNs();
    const written = seedEvents(path.join(home, 'svc.db'), agents.map((a) => ({ agentId: a.id, total: a.total })), opts.log);
    const seedSeconds = (nowNs() - t0) / 1e9;
    const dbBytes = fs.statSync(path.join(home, 'svc.db')).size;
    opts.log(`  wrote ${written.toLocaleString('en-US')} rows in ${seedSeconds.toFixed(1)} s, database ${mib(dbBytes)}`);

    const s0 = nowNs();
    daemon = await startDaemon(home);
    const startSeconds = (nowNs() - s0) / 1e9;
    try {
      for (const a of agents) {
        const head = (await expectJson(daemon.base, 'GET', `/api/agents/${a.id}/events?limit=1`, 200)).cursor_seq;
        if (head !== a.total) throw new Error(`agent ${a.id} has head ${head}, expected ${a.total}`);
      }
      const variants = [
        { name: 'newest page', query: () => `limit=${LIMIT}` },
        { name: 'mid-log cursor', query: (a) => `limit=${LIMIT}&before_seq=${Math.floor(a.total / 2)}` },
      ];
      // All four paths in one loop, order reversed every round, so warm-up and drift land on all alike.
      const paths = variants.flatMap((v) => agents.map((a) => `/api/agents/${a.id}/events?${v.query(a)}`));
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      await timeLoop(daemon.base, agent, paths, warmup);
      const samples = await timeLoop(daemon.base, agent, paths, requests);
      const results = variants.map((v, i) => {
        const [small, big] = [summary(samples[2 * i]), summary(samples[2 * i + 1])];
        opts.log(`  ${v.name}: ${small.count} requests each, ${label(agents[0].total)} p50 ${ms(small.p50)} p99 ${ms(small.p99)} | ${label(agents[1].total)} p50 ${ms(big.p50)} p99 ${ms(big.p99)}`);
        return { variant: v.name, small, big, ratio: big.p99 / small.p99, paths: paths.slice(2 * i, 2 * i + 2) };
      });
      agent.destroy();
      return report({ agents, requests, warmup, results, seedSeconds, startSeconds, dbBytes });
    } finally {
      await daemon.stop();
    }
  } finally {
    removeHome(home);
  }
}

/** `count` rounds of one request per path, alternating the order each round; latencies in ms per path. */
async function timeLoop(base, agent, paths, count) {
  const out = paths.map(() => []);
  for (let i = 0; i < count; i++) {
    const order = i % 2 === 0 ? paths.map((_, k) => k) : paths.map((_, k) => paths.length - 1 - k);
    for (const k of order) out[k].push(await timedPage(base, agent, paths[k]));
  }
  return out;
}

async function timedPage(base, agent, p) {
  const res = await timedGet(base, agent, p);
  if (res.status !== 200) throw new Error(`GET ${p}: ${res.status}`);
  const page = JSON.parse(res.text);
  if (page.events.length !== LIMIT) throw new Error(`GET ${p}: ${page.events.length} events, expected ${LIMIT}`);
  return res.ms;
}

const label = (n) => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n));

function report({ agents, requests, warmup, results, seedSeconds, startSeconds, dbBytes }) {
  const [small, big] = agents;
  const S = label(small.total);
  const B = label(big.total);
  const rows = [];
  for (const r of results) {
    rows.push({ measure: `${r.variant}: ${S} log p50 / p99`, result: `${ms(r.small.p50)} / ${ms(r.small.p99)}`, goal: `p99 ≤ ${GOAL_P99_MS} ms`, ok: r.small.p99 <= GOAL_P99_MS });
    rows.push({ measure: `${r.variant}: ${B} log p50 / p99`, result: `${ms(r.big.p50)} / ${ms(r.big.p99)}`, goal: `p99 ≤ ${GOAL_P99_MS} ms`, ok: r.big.p99 <= GOAL_P99_MS });
    rows.push({ measure: `${r.variant}: p99 ${B} / ${S}`, result: ratio(r.ratio), goal: `~1 (≤ ${GOAL_RATIO}x)`, ok: r.ratio <= GOAL_RATIO });
  }
  rows.push({ measure: 'seed / daemon start on the big database', result: `${seedSeconds.toFixed(1)} s / ${startSeconds.toFixed(2)} s (${mib(dbBytes)})` });
  return {
    params: `GET /api/agents/:id/events?limit=${LIMIT}, ${small.total.toLocaleString('en-US')} vs ${big.total.toLocaleString('en-US')} events, ${requests} sequential requests per agent and variant (after ${warmup} warm-up), one keep-alive connection`,
    rows,
    data: {
      limit: LIMIT,
      events: { [small.id]: small.total, [big.id]: big.total },
      requests_per_agent: requests,
      warmup,
      results: results.map((r) => ({ variant: r.variant, paths: r.paths, small_ms: r.small, big_ms: r.big, p99_ratio: r.ratio })),
      seed_seconds: seedSeconds,
      daemon_start_seconds: startSeconds,
      db_bytes: dbBytes,
    },
    failures: [],
  };
}

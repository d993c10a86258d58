/**
 * Event retention under a large backlog: how long the event loop stalls while the daemon prunes.
 *
 * One agent's log gets 1,000,000 events written straight into the database (lib/seed-events.js).
 * Baseline: the daemon started on it with retention off (`retain_days = 0`, `retain_max_events = 0`,
 * nothing to prune), and a sequential loop of GET /api/agents/main/status on one keep-alive
 * connection for a few seconds. Then the daemon is restarted with `retain_max_events` small
 * (1,000 by default), so its first retention pass deletes almost the whole log in batches and
 * gives the pages back (incremental vacuum); the same loop runs from `listening` until the pass
 * logs that it is done. A cheap GET's latency is the event-loop delay a request meets: a batch or
 * checkpoint that held the loop shows up as a slow request.
 * The goal: p99 while pruning ≤ 20 ms. Also reported: how long the pass took (the daemon's own
 * measure, from its log line) and the database file before and after (after the daemon's shutdown
 * checkpoint).
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { expectJson, sleep, timedGet } from '../lib/http.js';
import { BENCH_CONFIG, removeHome, startDaemon, tempHome } from '../lib/processes.js';
import { seedEvents } from '../lib/seed-events.js';
import { int, mib, ms, nowNs, ratio, summary } from '../lib/stats.js';

const GOAL_P99_MS = 20;
const PASS_TIMEOUT_MS = 600_000;

export async function run(opts) {
  const { events, keep, baselineSeconds } = opts.prune;
  const home = tempHome();
  const dbFile = path.join(home, 'svc.db');
  const configure = (retainMaxEvents) =>
    fs.writeFileSync(path.join(home, 'config.toml'), `${BENCH_CONFIG}[events]\nretain_days = 0\nretain_max_events = ${retainMaxEvents}\n`);
  const failures = [];
  try {
    configure(0);
    let daemon = await startDaemon(home);
    await daemon.stop();
    const t0 = nowNs();
    seedEvents(dbFile, [{ agentId: 'main', total: events }], opts.log);
    const seedSeconds = (nowNs() - t0) / 1e9;
    const bytesBefore = fs.statSync(dbFile).size;
    opts.log(`  seeded ${int(events)} events in ${seedSeconds.toFixed(1)} s, database ${mib(bytesBefore)}`);

    daemon = await startDaemon(home);
    let baseline;
    try {
      const deadline = nowNs() + baselineSeconds * 1e9;
      baseline = summary(await timeStatus(daemon.base, () => nowNs() >= deadline));
    } finally {
      await daemon.stop();
    }
    opts.log(`  baseline (nothing to prune): ${baseline.count} requests, p50 ${ms(baseline.p50)} p99 ${ms(baseline.p99)} max ${ms(baseline.max)}`);

    configure(keep);
    const spawned = nowNs();
    daemon = await startDaemon(home);
    let pass;
    let pruning;
    let wallSeconds;
    try {
      const passDone = passLine(daemon.output);
      let finished = null;
      passDone.then((p) => (finished = p), () => (finished = {}));
      const samples = await timeStatus(daemon.base, () => finished !== null);
      pass = await passDone;
      wallSeconds = (nowNs() - spawned) / 1e9;
      pruning = summary(samples);
      const head = (await expectJson(daemon.base, 'GET', '/api/agents/main/events?limit=1', 200)).cursor_seq;
      const oldest = (await expectJson(daemon.base, 'GET', '/api/agents/main/events?limit=1&order=asc', 200)).oldest_seq;
      if (head !== events || oldest !== events - keep + 1) failures.push(`after pruning: head ${head}, oldest ${oldest}; expected ${events}, ${events - keep + 1}`);
    } finally {
      await daemon.stop();
    }
    const bytesAfter = fs.statSync(dbFile).size;
    opts.log(
      `  pruning ${int(pass.pruned)} events: ${pruning.count} requests, p50 ${ms(pruning.p50)} p99 ${ms(pruning.p99)} max ${ms(pruning.max)}; pass ${(pass.ms / 1000).toFixed(1)} s; database ${mib(bytesBefore)} -> ${mib(bytesAfter)}`,
    );
    return report({ events, keep, baselineSeconds, baseline, pruning, pass, wallSeconds, seedSeconds, bytesBefore, bytesAfter, failures });
  } finally {
    removeHome(home);
  }
}

/** Sequential GETs of a cheap route on one keep-alive connection until `stop()`; latencies in ms. */
async function timeStatus(base, stop) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const out = [];
  try {
    while (!stop()) {
      const res = await timedGet(base, agent, '/api/agents/main/status');
      if (res.status !== 200) throw new Error(`GET /api/agents/main/status: ${res.status}`);
      out.push(res.ms);
    }
  } finally {
    agent.destroy();
  }
  return out;
}

/** The daemon's `event retention pass` log line (it may come before `listening`): {pruned, vacuumed_pages, ms}. */
async function passLine(output) {
  const deadline = nowNs() + PASS_TIMEOUT_MS * 1e6;
  for (;;) {
    const line = output().split('\n').find((l) => l.includes('"event retention pass"'));
    if (line) return JSON.parse(line);
    if (nowNs() > deadline) throw new Error(`no retention pass logged within ${PASS_TIMEOUT_MS / 1000} s`);
    await sleep(50);
  }
}

function report({ events, keep, baselineSeconds, baseline, pruning, pass, wallSeconds, seedSeconds, bytesBefore, bytesAfter, failures }) {
  return {
    params: `one agent with ${int(events)} events written into svc.db, retain_max_events = ${int(keep)}; GET /api/agents/main/status in a sequential loop on one keep-alive connection, ${baselineSeconds} s with retention off (baseline), then from listening until the first retention pass ends`,
    rows: [
      {
        measure: `GET status while pruning ${int(pass.pruned)} events: p50 / p99 (max)`,
        result: `${ms(pruning.p50)} / ${ms(pruning.p99)} (${ms(pruning.max)})`,
        goal: `p99 ≤ ${GOAL_P99_MS} ms`,
        ok: pruning.p99 <= GOAL_P99_MS,
      },
      { measure: 'baseline, nothing to prune: p50 / p99 (max)', result: `${ms(baseline.p50)} / ${ms(baseline.p99)} (${ms(baseline.max)}); p99 pruning / baseline ${ratio(pruning.p99 / baseline.p99)}` },
      {
        measure: 'retention pass (prune + incremental vacuum), daemon clock; spawn to pass end',
        result: `${(pass.ms / 1000).toFixed(1)} s (${int(pass.pruned / (pass.ms / 1000))} events/s, ${int(pass.vacuumed_pages)} pages vacuumed); ${wallSeconds.toFixed(1)} s`,
      },
      { measure: 'database file before / after', result: `${mib(bytesBefore)} / ${mib(bytesAfter)}` },
    ],
    data: {
      events,
      keep,
      baseline_seconds: baselineSeconds,
      seed_seconds: seedSeconds,
      baseline_ms: baseline,
      pruning_ms: pruning,
      pass,
      spawn_to_pass_end_seconds: wallSeconds,
      db_bytes_before: bytesBefore,
      db_bytes_after: bytesAfter,
    },
    failures,
  };
}

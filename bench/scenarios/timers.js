/**
 * Timer lateness under load: 10,000 active one-shot timers (by default) spread over several
 * agents, created over HTTP with due times spread evenly over a 15 s window that opens a few
 * seconds after creation starts (so all of them are active before the first one fires). Then the
 * scenario waits until every timer has fired and reads the `timer_fired` events back from the
 * durable logs. Lateness is the daemon's own `fired_at - scheduled_for` from each event's payload
 * (both on the daemon's clock, millisecond resolution): how late the scheduler got round to a
 * timer, with 10,000 waiting. Correctness: every timer fires exactly once and ends `completed`.
 */
import http from 'node:http';
import { expectJson, request, sleep } from '../lib/http.js';
import { cpuSeconds, removeHome, startDaemon } from '../lib/processes.js';
import { int, ms, summary } from '../lib/stats.js';

const GOAL_P99_MS = 20;
const CONCURRENCY = 32;

export async function run(opts) {
  const { count, agents: agentCount, leadMs, spreadMs } = opts.timers;
  const svc = await startDaemon();
  const agents = Array.from({ length: agentCount }, (_, i) => `timers${i}`);
  const failures = [];
  let created = 0;
  let createSeconds = 0;
  let lateness = [];
  let firedEvents = 0;
  let duplicates = 0;
  let notCompleted = 0;
  let cpu = 0;
  let createdBeforeFirstFire = true;
  try {
    for (const a of agents) await expectJson(svc.base, 'POST', `/api/control/agents/${a}/create`, 201, { json: {} });
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const windowStart = Date.now() + leadMs;
    const ids = new Set();
    let next = 0;
    const t0 = Date.now();
    const worker = async () => {
      for (;;) {
        const i = next++;
        if (i >= count) return;
        const due = windowStart + Math.floor((i / count) * spreadMs);
        const res = await request(svc.base, 'POST', `/api/control/agents/${agents[i % agentCount]}/timers`, {
          agent,
          json: { duration_ms: Math.max(0, due - Date.now()), interval_ms: null, summary: `bench ${i}` },
        });
        if (res.status !== 201) throw new Error(`create timer: ${res.status} ${res.text.slice(0, 200)}`);
        ids.add(res.body.timer_id);
        created++;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const createdAt = Date.now();
    createSeconds = (createdAt - t0) / 1000;
    createdBeforeFirstFire = createdAt < windowStart;
    opts.log(`  created ${int(created)} timers over ${agentCount} agents in ${createSeconds.toFixed(1)} s; window ${spreadMs / 1000} s opens in ${((windowStart - createdAt) / 1000).toFixed(1)} s`);

    const cpu0 = cpuSeconds(svc.pid);
    // Wait for the window to pass, then for the last active timer to go.
    await sleep(Math.max(0, windowStart + spreadMs - Date.now()));
    const deadline = Date.now() + 30_000;
    for (;;) {
      let active = 0;
      for (const a of agents) active += (await expectJson(svc.base, 'GET', `/api/agents/${a}/timers?status=active&limit=1000`, 200, { agent })).timers.length;
      if (active === 0) break;
      if (Date.now() > deadline) {
        failures.push(`${active} timers still active 30 s after the window closed`);
        break;
      }
      await sleep(200);
    }
    cpu = cpuSeconds(svc.pid) - cpu0;

    const seen = new Set();
    for (const a of agents) {
      let after = 0;
      for (;;) {
        const page = await expectJson(svc.base, 'GET', `/api/agents/${a}/events?order=asc&after_seq=${after}&limit=1000`, 200, { agent });
        for (const e of page.events) {
          if (e.type !== 'timer_fired') continue;
          firedEvents++;
          if (seen.has(e.payload.timer_id)) duplicates++;
          seen.add(e.payload.timer_id);
          if (e.payload.status !== 'completed') notCompleted++;
          lateness.push(Date.parse(e.payload.fired_at) - Date.parse(e.payload.scheduled_for));
        }
        if (!page.has_newer || page.events.length === 0) break;
        after = page.newest_seq;
      }
    }
    const missing = [...ids].filter((id) => !seen.has(id)).length;
    if (missing > 0) failures.push(`${missing} of ${created} timers never fired`);
    if (duplicates > 0) failures.push(`${duplicates} timers fired more than once`);
    if (notCompleted > 0) failures.push(`${notCompleted} one-shot firings did not complete their timer`);
    agent.destroy();
  } finally {
    await svc.stop();
    removeHome(svc.home);
  }
  const s = summary(lateness);
  opts.log(`  ${int(firedEvents)} firings: lateness p50 ${ms(s.p50, 0)}, p99 ${ms(s.p99, 0)}, max ${ms(s.max, 0)}`);
  const negative = lateness.filter((v) => v < 0).length;
  if (negative > 0) failures.push(`${negative} firings before their scheduled time`);
  lateness = undefined;
  return {
    params: `${int(count)} one-shot timers over ${agentCount} agents, created by ${CONCURRENCY} concurrent clients, due evenly over ${spreadMs / 1000} s starting ${leadMs / 1000} s after creation began; lateness = fired_at - scheduled_for from each timer_fired event`,
    rows: [
      {
        measure: `timer lateness with ${int(count)} active: p50 / p99 (max)`,
        result: `${ms(s.p50, 0)} / ${ms(s.p99, 0)} (${ms(s.max, 0)})`,
        goal: `p99 ≤ ${GOAL_P99_MS} ms`,
        ok: s.p99 <= GOAL_P99_MS,
      },
      {
        measure: 'timers created / fired exactly once; all active before the first was due',
        result: `${int(created)} / ${int(firedEvents - duplicates)}; ${createdBeforeFirstFire ? 'yes' : 'no'} (created in ${createSeconds.toFixed(1)} s)`,
        goal: 'equal, no duplicates',
        ok: firedEvents === created && duplicates === 0,
      },
      { measure: 'daemon CPU while firing', result: `${cpu.toFixed(2)} s (${((cpu * 1e6) / Math.max(1, firedEvents)).toFixed(0)} µs per firing)` },
    ],
    data: { count, agents: agentCount, lead_ms: leadMs, spread_ms: spreadMs, created, create_seconds: createSeconds, created_before_first_fire: createdBeforeFirstFire, fired: firedEvents, duplicates, lateness_ms: s, cpu_seconds: cpu },
    failures,
  };
}

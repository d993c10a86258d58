/**
 * Turn throughput and latency on one agent with builtin/echo, each beside a baseline measured on
 * the same daemon in the same run:
 * - baseline: enqueue-only rate (autocannon, agent stopped so nothing is consumed);
 * - drain: the backlog left by the baseline processed by the run loop (turn → result brief),
 *   messages/s from `control start` until the queue is empty;
 * - end to end: autocannon enqueue with the agent running, messages/s from the first request
 *   until every message has its brief;
 * - latency: sequential enqueues on an idle agent, enqueue → `turn_entry` frame on the events
 *   SSE stream, beside enqueue → `message_enqueued` frame (the baseline).
 * Correctness: every message completed exactly once (turn_completed count equals messages), read
 * back from the event log; so event retention is off in this daemon (a run logs ~500,000 events,
 * past the default `retain_max_events`, and pruning would take the earliest turns' events).
 */
import autocannon from 'autocannon';
import { eventFrames, expectJson, request, sleep, stopAgent } from '../lib/http.js';
import { BRAKE_OFF, RETENTION_OFF, removeHome, startDaemon, tempHome } from '../lib/processes.js';
import { int, ms, nowNs, summary } from '../lib/stats.js';

const PATH = '/api/agents/main/enqueue';
const GOAL_RPS = 1000;

export async function run(opts) {
  const { duration, connections, latencySamples } = opts.turns;
  const svc = await startDaemon(tempHome(RETENTION_OFF + BRAKE_OFF));
  const failures = [];
  let base;
  let drain;
  let e2e;
  let lat;
  try {
    await stopAgent(svc.base);
    base = await load(svc, duration, connections, 'baseline');
    opts.log(`  enqueue only (agent stopped): ${int(base.rps)} req/s, ${int(base.accepted)} queued`);
    drain = await drainRate(svc, base.accepted);
    opts.log(`  drain of ${int(drain.messages)} queued messages: ${int(drain.rps)} messages/s`);
    e2e = await endToEnd(svc, duration, connections);
    opts.log(`  enqueue → turn → brief with the agent running: ${int(e2e.rps)} messages/s (enqueue ${int(e2e.enqueueRps)} req/s)`);
    lat = await latency(svc, latencySamples);
    opts.log(`  enqueue → turn_entry p50 ${ms(lat.turn.p50)} p99 ${ms(lat.turn.p99)}; enqueue → message_enqueued p50 ${ms(lat.enq.p50)} p99 ${ms(lat.enq.p99)}`);
    const status = await expectJson(svc.base, 'GET', '/api/agents/main/status', 200);
    const total = base.accepted + e2e.accepted + lat.count;
    const completed = await countEvents(svc, 'turn_completed');
    // autocannon stops with up to `connections` requests in flight per phase; the daemon may
    // still have queued (and so processed) those: never fewer turns than 202s, at most that many more.
    const inFlightMax = connections * 2;
    if (completed < total || completed > total + inFlightMax) failures.push(`${int(total)} messages accepted (+ at most ${inFlightMax} in flight) but ${int(completed)} turn_completed events`);
    if (status.pending_messages !== 0) failures.push(`${status.pending_messages} messages still queued at the end`);
  } finally {
    await svc.stop();
    removeHome(svc.home);
  }
  return {
    params: `${connections} connections, ${duration} s per load phase, ${latencySamples} latency samples, builtin/echo, one agent, event retention off`,
    rows: [
      { measure: 'baseline: enqueue only (agent stopped)', result: `${int(base.rps)} req/s` },
      { measure: 'drain: queued messages → turn → result brief', result: `${int(drain.rps)} messages/s (${int(drain.messages)} messages)`, goal: `≥ ${GOAL_RPS}/s`, ok: drain.rps >= GOAL_RPS },
      { measure: 'end to end: enqueue → turn → brief, agent running', result: `${int(e2e.rps)} messages/s (enqueue side ${int(e2e.enqueueRps)} req/s)` },
      { measure: 'enqueue → turn_entry (SSE) p50 / p99', result: `${ms(lat.turn.p50)} / ${ms(lat.turn.p99)}` },
      { measure: 'baseline: enqueue → message_enqueued (SSE) p50 / p99', result: `${ms(lat.enq.p50)} / ${ms(lat.enq.p99)}` },
    ],
    data: { baseline: base, drain, end_to_end: e2e, latency: lat },
    failures,
  };
}

async function load(svc, duration, connections) {
  const res = await autocannon({
    url: `${svc.base}${PATH}`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'hello' }),
    connections,
    duration,
  });
  return { rps: res.requests.total / res.duration, accepted: res.statusCodeStats?.['202']?.count ?? 0, completed: res.requests.total };
}

async function pending(svc) {
  const c = await expectJson(svc.base, 'GET', '/api/agents/main/conversation?limit=1', 200);
  return c.pending + (c.current_turn ? 1 : 0);
}

async function waitDrained(svc) {
  for (;;) {
    if ((await pending(svc)) === 0) return nowNs();
    await sleep(20);
  }
}

async function drainRate(svc, expected) {
  const messages = await pending(svc);
  const t0 = nowNs();
  await expectJson(svc.base, 'POST', '/api/control/agents/main/control', 200, { json: { action: 'start' } });
  const t1 = await waitDrained(svc);
  const seconds = (t1 - t0) / 1e9;
  return { messages, expected, seconds, rps: messages / seconds };
}

async function endToEnd(svc, duration, connections) {
  const t0 = nowNs();
  const res = await load(svc, duration, connections);
  const t1 = await waitDrained(svc);
  const seconds = (t1 - t0) / 1e9;
  return { accepted: res.accepted, seconds, rps: res.accepted / seconds, enqueueRps: res.rps };
}

/** Sequential enqueues on an idle agent; frame arrival times from one events SSE stream. */
async function latency(svc, samples) {
  const seen = new Map(); // message_id -> { enq, turn } arrival ns
  const stream = await eventFrames(svc.base, '/api/agents/main/events/stream', (type, data, at) => {
    if (type !== 'message_enqueued' && type !== 'turn_entry') return;
    const entry = seen.get(data.payload.message_id) ?? {};
    entry[type === 'turn_entry' ? 'turn' : 'enq'] = at;
    seen.set(data.payload.message_id, entry);
  });
  await sleep(100);
  const turn = [];
  const enq = [];
  for (let i = 0; i < samples; i++) {
    const t0 = nowNs();
    const res = await request(svc.base, 'POST', PATH, { json: { text: `latency ${i}` } });
    if (res.status !== 202) throw new Error(`enqueue answered ${res.status}`);
    const id = res.body.message_id;
    const deadline = Date.now() + 10_000;
    while (!(seen.get(id)?.turn && seen.get(id)?.enq)) {
      if (Date.now() > deadline) throw new Error(`no turn_entry for ${id} within 10 s`);
      await sleep(0);
    }
    const s = seen.get(id);
    turn.push((s.turn - t0) / 1e6);
    enq.push((s.enq - t0) / 1e6);
    await waitDrained(svc);
  }
  stream.close();
  return { count: samples, turn: summary(turn), enq: summary(enq) };
}

async function countEvents(svc, type) {
  let n = 0;
  let after = 0;
  for (;;) {
    const page = await expectJson(svc.base, 'GET', `/api/agents/main/events?order=asc&limit=1000&max_level=info&after_seq=${after}`, 200);
    n += page.events.filter((e) => e.type === type).length;
    if (!page.has_newer || page.events.length === 0) return n;
    after = page.newest_seq;
  }
}

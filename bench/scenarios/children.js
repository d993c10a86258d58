/**
 * Supervised child agents with builtin/echo, each beside a baseline measured on the same daemon in
 * the same run, the same way:
 * - latency: `POST …/tasks {kind: child_agent}` → the child's first `turn_entry` event, beside
 *   `POST …/prompt` → `turn_entry` on an existing agent (the baseline: what delegation adds is
 *   creating the child, its workspace and its first message);
 * - fan-out: 20 child tasks started at once on one parent → all 20 tasks `completed` (their answers
 *   recorded and the 20 task_result messages queued for the parent), beside 20 prompts to 20
 *   existing agents → all 20 result briefs.
 * Both are measured by polling the event logs (every ~1 ms), so both carry the same polling error.
 * Correctness: every task completes, the parent gets exactly one task_result per task, every
 * child is private with the parent as its parent.
 */
import { expectJson, request, sleep } from '../lib/http.js';
import { removeHome, startDaemon } from '../lib/processes.js';
import { int, ms, nowNs, ratio, summary } from '../lib/stats.js';

export async function run(opts) {
  const { samples, children } = opts.children;
  const svc = await startDaemon();
  const failures = [];
  let lat;
  let fan;
  try {
    await expectJson(svc.base, 'POST', '/api/control/agents/peer/create', 201, { json: {} });
    lat = await latency(svc, samples);
    opts.log(`  delegate → child turn_entry p50 ${ms(lat.child.p50)} p99 ${ms(lat.child.p99)}; prompt → turn_entry p50 ${ms(lat.base.p50)} p99 ${ms(lat.base.p99)}`);
    fan = await fanOut(svc, children, failures);
    opts.log(`  ${children} children at once → all answered: ${ms(fan.children)}; ${children} prompts to ${children} agents → all answered: ${ms(fan.base)}`);
  } finally {
    await svc.stop();
    removeHome(svc.home);
  }
  return {
    params: `builtin/echo, ${samples} latency samples (inherit workspace), ${children} concurrent children on one parent`,
    rows: [
      { measure: 'delegate → child first turn_entry p50 / p99', result: `${ms(lat.child.p50)} / ${ms(lat.child.p99)}` },
      { measure: 'baseline: prompt → turn_entry p50 / p99', result: `${ms(lat.base.p50)} / ${ms(lat.base.p99)}` },
      { measure: 'delegate / prompt (p50)', result: ratio(lat.child.p50 / lat.base.p50) },
      { measure: `${children} children at once → all tasks completed`, result: `${ms(fan.children, 1)} (${ratio(fan.children / fan.base)} the baseline)` },
      { measure: `baseline: ${children} prompts to ${children} agents → all result briefs`, result: ms(fan.base, 1) },
    ],
    data: { latency: lat, fan_out: fan },
    failures,
  };
}

/** Poll `agent`'s events after `after` until one of `type` is there; null if the agent does not exist yet. */
async function waitEvent(svc, agent, type, after = 0, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await request(svc.base, 'GET', `/api/agents/${agent}/events?order=asc&limit=200&after_seq=${after}`);
    if (res.status === 200 && res.body.events.some((e) => e.type === type)) return;
    if (Date.now() > deadline) throw new Error(`no ${type} on ${agent} within ${timeoutMs} ms`);
    await sleep(1);
  }
}

async function head(svc, agent) {
  const page = await expectJson(svc.base, 'GET', `/api/agents/${agent}/events?order=desc&limit=1`, 200);
  return page.newest_seq ?? 0;
}

async function latency(svc, samples) {
  const child = [];
  const base = [];
  for (let i = 0; i < samples; i++) {
    // Baseline: an existing agent, prompt → turn_entry.
    const after = await head(svc, 'peer');
    let t0 = nowNs();
    await expectJson(svc.base, 'POST', '/api/control/agents/peer/prompt', 202, { json: { text: `hello ${i}` } });
    await waitEvent(svc, 'peer', 'turn_entry', after);
    base.push((nowNs() - t0) / 1e6);
    // Delegation: a new child, POST → its first turn_entry.
    const id = `lat-${i}`;
    t0 = nowNs();
    await expectJson(svc.base, 'POST', '/api/control/agents/main/tasks', 201, { json: { kind: 'child_agent', initial_message: `hello ${i}`, child_agent_id: id } });
    await waitEvent(svc, id, 'turn_entry');
    child.push((nowNs() - t0) / 1e6);
  }
  await drainTasks(svc, 'main', samples);
  return { samples, child: summary(child), base: summary(base) };
}

async function drainTasks(svc, agent, expected, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const list = await expectJson(svc.base, 'GET', `/api/agents/${agent}/tasks?limit=1000`, 200);
    const done = list.tasks.filter((t) => t.status === 'completed').length;
    if (done >= expected) return list.tasks;
    if (Date.now() > deadline) throw new Error(`${done} of ${expected} child tasks of ${agent} completed within ${timeoutMs} ms`);
    await sleep(1);
  }
}

async function fanOut(svc, n, failures) {
  await expectJson(svc.base, 'POST', '/api/control/agents/lead/create', 201, { json: {} });
  for (let i = 0; i < n; i++) await expectJson(svc.base, 'POST', `/api/control/agents/w${i}/create`, 201, { json: {} });
  // Baseline: n prompts to n existing agents → n result briefs.
  let t0 = nowNs();
  await Promise.all(Array.from({ length: n }, (_, i) => expectJson(svc.base, 'POST', `/api/control/agents/w${i}/prompt`, 202, { json: { text: `work ${i}` } })));
  await Promise.all(Array.from({ length: n }, (_, i) => waitEvent(svc, `w${i}`, 'brief_created', 0, 30_000)));
  const base = (nowNs() - t0) / 1e6;
  // n children of one parent at once → n completed tasks.
  t0 = nowNs();
  await Promise.all(
    Array.from({ length: n }, (_, i) => expectJson(svc.base, 'POST', '/api/control/agents/lead/tasks', 201, { json: { kind: 'child_agent', initial_message: `work ${i}` } })),
  );
  const tasks = await drainTasks(svc, 'lead', n);
  const children = (nowNs() - t0) / 1e6;
  const results = await expectJson(svc.base, 'GET', '/api/agents/lead/events?order=asc&limit=1000', 200);
  const taskResults = results.events.filter((e) => e.type === 'message_enqueued' && e.payload.kind === 'task_result').length;
  if (taskResults !== n) failures.push(`${n} child tasks but ${taskResults} task_result messages for the parent`);
  for (const t of tasks) {
    const child = await expectJson(svc.base, 'GET', `/api/control/agents/${t.child_agent_id}/detail`, 200);
    if (child.visibility !== 'private' || child.parent_agent_id !== 'lead') failures.push(`child ${t.child_agent_id} is ${child.visibility} under ${child.parent_agent_id}`);
  }
  return { n, children, base, tasks: int(tasks.length) };
}

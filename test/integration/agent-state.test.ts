/**
 * The state page's waiting intents (spec "Agents": GET /api/agents/:id/state), derived from live
 * state against the real daemon: an active task's result, an active timer, operator input on a work
 * item whose plan needs it, a blocked work item; each goes away when what it waits for ends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonPool, request, type RunningDaemon } from '../helpers/daemon.js';

const pool = daemonPool();
let d: RunningDaemon;
beforeAll(async () => {
  d = await pool.start();
  expect((await request(d, 'POST', '/api/control/agents/waiter/create', { body: {} })).status).toBe(201);
});
afterAll(() => pool.cleanup());

const intents = async () => (await request(d, 'GET', '/api/agents/waiter/state')).json.waiting_intents as Array<Record<string, unknown>>;

describe('waiting_intents', () => {
  it('lists what the agent waits for, and forgets each when it ends', async () => {
    expect(await intents()).toEqual([]);
    const base = '/api/control/agents/waiter';
    const task = (await request(d, 'POST', `${base}/tasks`, { body: { summary: 'long build', cmd: 'sleep 30' } })).json;
    const timer = (await request(d, 'POST', `${base}/timers`, { body: { duration_ms: 600_000, summary: 'check back' } })).json;
    const asking = (await request(d, 'POST', `${base}/work-items`, { body: { objective: 'pick a name' } })).json;
    await request(d, 'PATCH', `${base}/work-items/${asking.id}`, { body: { plan_status: 'needs_input' } });
    const blocked = (await request(d, 'POST', `${base}/work-items`, { body: { objective: 'deploy' } })).json;
    await request(d, 'PATCH', `${base}/work-items/${blocked.id}`, { body: { blocked_by: 'waiting for CI' } });
    await request(d, 'POST', `${base}/work-items`, { body: { objective: 'runnable, waits for nothing' } });

    const all = await intents();
    expect(all).toEqual(
      expect.arrayContaining([
        { kind: 'task_result', task_id: task.task_id, task_kind: 'command', status: expect.any(String), summary: 'long build' },
        { kind: 'timer', timer_id: timer.timer_id, next_fire_at: expect.any(String), interval_ms: null, summary: 'check back' },
        { kind: 'operator_input', work_item_id: asking.id, objective: 'pick a name' },
        { kind: 'blocked_work_item', work_item_id: blocked.id, objective: 'deploy', blocked_by: 'waiting for CI' },
      ]),
    );
    expect(all).toHaveLength(4);

    await request(d, 'POST', `${base}/tasks/${task.task_id}/stop`, { body: {} });
    await request(d, 'POST', `${base}/timers/${timer.timer_id}/cancel`, { body: {} });
    await request(d, 'POST', `${base}/work-items/${asking.id}/complete`, { body: { report_text: 'named' } });
    const deadline = Date.now() + 10_000;
    let left = await intents();
    while (left.some((i) => i.kind === 'task_result') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      left = await intents();
    }
    expect(left.map((i) => i.kind)).toEqual(['blocked_work_item']);
  });
});

/**
 * Coordination tools on in-process services (docs/tools.md#coordination): wait_for ends the turn
 * and is woken by a durable task result or timer tick (across a restart too), get_agent shows
 * only what the agent may see, list_tasks/task_status/task_input go through TaskService, and
 * send_message enqueues with the runtime's provenance, never the model's. Every refusal is a tool
 * error with a code, and changes nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { ManualClock } from '../../src/core/clock.js';
import { createServices, startServices, stopServices, type Services } from '../../src/services.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { waitFor } from '../helpers/daemon.js';
import { holdDeletion, testServices, type TestServices } from '../helpers/services.js';
import { toolCaller, type Data } from '../helpers/tools.js';

let t: TestServices;
const { okOutcome, refusal } = toolCaller(() => t.s);
const ok = async (name: string, args: Record<string, unknown>, ctx = {}) => (await okOutcome(name, args, ctx)).data;

beforeEach(() => {
  t = testServices();
});
afterEach(async () => {
  await t?.close();
});

/** Events of an agent after `seq` (all levels). */
function eventsOf(agentId: string, after = 0): Data[] {
  return t.s.events.page(agentId, { after_seq: after, limit: 1000, order: 'asc', max_level: 'debug' }).events as unknown as Data[];
}
const head = (agentId = 'main') => t.s.events.head(agentId);
const enqueued = (agentId: string, after = 0) => eventsOf(agentId, after).filter((e) => e.type === 'message_enqueued');

async function runningTask(cmd = 'sleep 30'): Promise<string> {
  return (await ok('run_command', { cmd, wait_ms: 0 })).task_id;
}

describe('wait_for', () => {
  it('on a running task ends the turn, records wait_registered, and the task result is the wake', async () => {
    const taskId = await runningTask('sleep 0.3; echo woke');
    const mark = head();
    const out = await okOutcome('wait_for', { task_id: taskId, reason: 'the build' });
    expect(out.endTurn).toBe(true);
    expect(out.data).toMatchObject({ waiting: true, task_id: taskId, status: 'running', note: expect.stringContaining('task_result') });
    const [wait] = eventsOf('main', mark);
    expect(wait).toMatchObject({ type: 'wait_registered', payload: { task_id: taskId, reason: 'the build', turn_id: 'turn_T' } });
    // The wake: the task_result message the ledger enqueues when the task ends.
    const result = await waitFor(() => enqueued('main', mark).find((e) => e.payload.kind === 'task_result'), 10_000);
    expect(result.payload.body.value).toMatchObject({ task_id: taskId, status: 'completed' });
  });

  it('on a finished task answers its result at once and does not end the turn', async () => {
    const taskId = (await ok('run_command', { cmd: 'echo done-already' })).task_id;
    const mark = head();
    const out = await okOutcome('wait_for', { task_id: taskId, reason: 'x' });
    expect(out.endTurn).toBeUndefined();
    expect(out.data).toMatchObject({ waiting: false, task_id: taskId, status: 'completed', finished: true, output_preview: 'done-already\n' });
    expect(eventsOf('main', mark)).toEqual([]);
  });

  it('on an active timer of the agent ends the turn; the tick wakes it', async () => {
    const timer = await ok('create_timer', { duration_ms: 5000, summary: 'poll' });
    const mark = head();
    const out = await okOutcome('wait_for', { timer_id: timer.timer_id, reason: 'next poll' });
    expect(out).toMatchObject({ endTurn: true, data: { waiting: true, timer_id: timer.timer_id, next_fire_at: timer.next_fire_at } });
    expect(eventsOf('main', mark)).toMatchObject([{ type: 'wait_registered', payload: { timer_id: timer.timer_id, reason: 'next poll', turn_id: 'turn_T' } }]);
    t.clock.advance(5000);
    t.s.timers.runDue();
    expect(enqueued('main', mark).map((e) => e.payload.kind)).toEqual(['system_tick']);
  });

  it('on a completed timer answers at once; a cancelled one has nothing to wait for', async () => {
    const done = await ok('create_timer', { duration_ms: 0 });
    t.s.timers.runDue();
    const cancelled = await ok('create_timer', { duration_ms: 1000 });
    await ok('cancel_timer', { timer_id: cancelled.timer_id });
    const mark = head();
    const out = await okOutcome('wait_for', { timer_id: done.timer_id, reason: 'x' });
    expect(out.endTurn).toBeUndefined();
    expect(out.data).toMatchObject({ waiting: false, status: 'completed' });
    await refusal('wait_for', { timer_id: cancelled.timer_id, reason: 'x' }, 'nothing_to_wait_for');
    expect(eventsOf('main', mark)).toEqual([]);
  });

  it('for a duration creates a one-shot timer as create_timer does (the turn trust as taint) and ends the turn', async () => {
    const mark = head();
    const out = await okOutcome('wait_for', { duration_ms: 60_000, reason: 'let CI finish' }, { trust: 'untrusted_external' });
    expect(out.endTurn).toBe(true);
    const timerId = out.data.timer_id as string;
    expect(t.s.timers.get('main', timerId)).toMatchObject({ status: 'active', duration_ms: 60_000, interval_ms: null, summary: 'wait_for: let CI finish' });
    expect(eventsOf('main', mark).map((e) => [e.type, e.payload.timer_id])).toEqual([
      ['timer_created', timerId],
      ['wait_registered', timerId],
    ]);
    expect(eventsOf('main', mark)[1]!.payload).toMatchObject({ duration_ms: 60_000, reason: 'let CI finish', turn_id: 'turn_T' });
    t.clock.advance(60_000);
    t.s.timers.runDue();
    const [tick] = enqueued('main', mark);
    // The tick carries the reason, and the untrusted turn's trust: waiting does not launder it.
    expect(tick!.payload.body.value).toMatchObject({ reason: 'timer', timer_id: timerId, summary: 'wait_for: let CI finish' });
    expect(tick!.payload.provenance).toMatchObject({ kind: 'system_tick', origin: { kind: 'timer', timer_id: timerId }, trust: 'untrusted_external' });
  });

  it('respects the per-agent timer cap', async () => {
    await t.close();
    t = testServices({ configToml: '[timers]\nmax_active_per_agent = 1\n' });
    await ok('create_timer', { duration_ms: 1000 });
    const mark = head();
    await refusal('wait_for', { duration_ms: 1000, reason: 'x' }, 'timer_limit_reached');
    expect(eventsOf('main', mark)).toEqual([]);
  });

  it('refuses malformed arguments and what is not the agent\'s, and changes nothing', async () => {
    const other = t.s.agents.create('other', {}).agent.agent_id;
    const foreignTask = t.s.tasks.create(other, { cmd: 'sleep 30' }).task_id;
    const foreignTimer = (await t.s.timers.create(other, { duration_ms: 1000 })).timer_id;
    const taskId = await runningTask();
    const mark = head();
    const timers = t.s.timers.list('main').length;
    for (const args of [
      { reason: 'nothing named' },
      { task_id: taskId, duration_ms: 10, reason: 'two targets' },
      { task_id: taskId, timer_id: 'tmr_x', reason: 'two targets' },
      { duration_ms: 10 },
      { duration_ms: 10, reason: '   ' },
      { duration_ms: 10, reason: 'x'.repeat(2001) },
      { duration_ms: -1, reason: 'x' },
      { duration_ms: 1.5, reason: 'x' },
      { duration_ms: 1e15, reason: 'x' },
      { duration_ms: '10', reason: 'x' },
      { duration_ms: 10, reason: 'x', interval_ms: 1000 },
      { task_id: '', reason: 'x' },
      { duration_ms: 10, reason: 'x', trust: 'trusted_operator' },
      JSON.parse('{"duration_ms": 10, "reason": "x", "__proto__": {"polluted": true}}'),
    ]) {
      const data = await refusal('wait_for', args, 'invalid_arguments');
      expect(data.issues.length).toBeGreaterThan(0);
    }
    await refusal('wait_for', { task_id: foreignTask, reason: 'x' }, 'task_not_found');
    await refusal('wait_for', { task_id: 'task_nope', reason: 'x' }, 'task_not_found');
    await refusal('wait_for', { timer_id: foreignTimer, reason: 'x' }, 'timer_not_found');
    expect(eventsOf('main', mark)).toEqual([]);
    expect(t.s.timers.list('main')).toHaveLength(timers);
    expect(({} as Data).polluted).toBeUndefined();
  });
});

describe('wait_for across a restart', () => {
  const homes: string[] = [];
  afterEach(() => {
    for (const h of homes.splice(0)) fs.rmSync(h, { recursive: true, force: true });
  });

  function open(home: string, clock: ManualClock): Services {
    const s = createServices(loadConfig({ home }, {}), clock, createLogger('silent'));
    s.runLoop.scheduler.disable();
    startServices(s);
    return s;
  }

  it('a duration wait registered before the daemon stops wakes the agent after it starts again', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-wait-'));
    homes.push(home);
    const clock = new ManualClock();
    let s = open(home, clock);
    const caller = toolCaller(() => s);
    const out = await caller.okOutcome('wait_for', { duration_ms: 90_000, reason: 'the nightly export' });
    expect(out.endTurn).toBe(true);
    const timerId = out.data.timer_id as string;
    await stopServices(s);

    // Down for longer than the wait: the first start after it fires the overdue timer once.
    clock.advance(3_600_000);
    s = open(home, clock);
    try {
      const next = s.queue.peekNext('main');
      expect(next).toMatchObject({ kind: 'system_tick', origin: { kind: 'timer', timer_id: timerId } });
      expect(next!.body).toMatchObject({ type: 'json', value: { summary: 'wait_for: the nightly export' } });
      expect(s.timers.get('main', timerId).status).toBe('completed');
      const kinds = s.events.page('main', { limit: 1000, order: 'asc', max_level: 'debug' }).events.map((e) => e.type);
      expect(kinds.filter((k) => k === 'wait_registered' || k === 'timer_fired')).toEqual(['wait_registered', 'timer_fired']);
    } finally {
      await stopServices(s);
    }
  });
});

describe('get_agent', () => {
  it('shows the agent itself by default: status, model, visibility, work item, queue depth', async () => {
    await t.s.ingress.controlPrompt('main', 'hello');
    const item = t.s.workItems.create('main', { objective: 'ship it' });
    t.s.workItems.pick('main', item.id);
    expect(await ok('get_agent', {})).toEqual({
      agent_id: 'main',
      display_name: 'main',
      status: 'idle',
      model: t.s.agents.effectiveModel(t.s.agents.get('main')),
      visibility: 'public',
      parent_agent_id: null,
      is_self: true,
      current_work_item_id: item.id,
      queue_depth: 1,
    });
  });

  it('shows public agents and private children it supervises; another owner\'s private agent reads as unknown', async () => {
    t.s.agents.create('other', { display_name: 'Other' });
    t.s.agents.create('kid', { parent_agent_id: 'main', visibility: 'private' });
    t.s.agents.create('their-kid', { parent_agent_id: 'other', visibility: 'private' });
    expect(await ok('get_agent', { agent_id: 'other' })).toMatchObject({ agent_id: 'other', display_name: 'Other', is_self: false, queue_depth: 0 });
    expect(await ok('get_agent', { agent_id: 'kid' })).toMatchObject({ visibility: 'private', parent_agent_id: 'main' });
    // The private child sees itself; its supervisor's other agents are not its business.
    expect(await ok('get_agent', {}, { agentId: 'their-kid' })).toMatchObject({ agent_id: 'their-kid', is_self: true });
    const hidden = await refusal('get_agent', { agent_id: 'their-kid' }, 'agent_not_found');
    const unknown = await refusal('get_agent', { agent_id: 'their-kie' }, 'agent_not_found');
    // Nothing tells the two apart but the id they name.
    expect(JSON.stringify(hidden).replaceAll('their-kid', 'X')).toBe(JSON.stringify(unknown).replaceAll('their-kie', 'X'));
    await refusal('get_agent', { agent_id: 'kid' }, 'agent_not_found', { agentId: 'other' });
    await refusal('get_agent', { agent_id: 'x'.repeat(200) }, 'invalid_arguments');
  });
});

describe('list_tasks and task_status', () => {
  it('list the agent\'s tasks newest first, by status, bounded; task_status reads one', async () => {
    const done = (await ok('run_command', { cmd: 'exit 3', summary: 'fails' })).task_id;
    const running = await runningTask();
    t.s.agents.create('other', {});
    t.s.tasks.create('other', { cmd: 'sleep 30' });

    const all = await ok('list_tasks', {});
    expect(all.tasks.map((x: Data) => x.task_id)).toEqual([running, done]);
    expect(all.tasks[1]).toEqual({
      task_id: done,
      kind: 'command',
      status: 'failed',
      summary: 'fails',
      child_agent_id: null,
      exit_status: 3,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(all.truncated).toBe(false);
    expect((await ok('list_tasks', { status: 'running' })).tasks.map((x: Data) => x.task_id)).toEqual([running]);
    expect(await ok('list_tasks', { limit: 1 })).toMatchObject({ tasks: [{ task_id: running }], truncated: true });
    await refusal('list_tasks', { status: 'sleeping' }, 'invalid_arguments');
    await refusal('list_tasks', { limit: 0 }, 'invalid_arguments');
    await refusal('list_tasks', { limit: 101 }, 'invalid_arguments');

    expect(await ok('task_status', { task_id: done })).toMatchObject({ task_id: done, kind: 'command', status: 'failed', finished: true, exit_status: 3, result_summary: expect.any(String) });
    expect(await ok('task_status', { task_id: running })).toMatchObject({ status: 'running', finished: false, exit_status: null, finished_at: null });
    const foreign = t.s.tasks.list('other')[0]!.task_id;
    await refusal('task_status', { task_id: foreign }, 'task_not_found');
  });
});

describe('task_input', () => {
  it('writes to the stdin of a running command task, as the input route does, with runtime_instruction authority', async () => {
    const task = t.s.tasks.create('main', { cmd: 'read line; echo "got $line"', accepts_input: true });
    await waitFor(() => t.s.tasks.get('main', task.task_id).status === 'running', 10_000);
    const mark = head();
    expect(await ok('task_input', { task_id: task.task_id, text: 'hello\n', eof: true })).toMatchObject({ accepted: true, input_target: 'stdin' });
    const [delivered] = eventsOf('main', mark).filter((e) => e.type === 'task_input_delivered');
    expect(delivered!.payload).toMatchObject({ task_id: task.task_id, bytes_written: 6, eof: true, authority_class: 'runtime_instruction' });
    const out = await t.s.tasks.output('main', task.task_id, { block: true, timeoutMs: 10_000 });
    expect(out.task).toMatchObject({ status: 'completed', output_preview: 'got hello\n' });
  });

  it('says why input was not accepted, and refuses what is not the agent\'s', async () => {
    const noStdin = await runningTask();
    expect(await ok('task_input', { task_id: noStdin, text: 'x' })).toMatchObject({ accepted: false, summary: expect.stringContaining('accepts_input') });
    t.s.agents.create('other', {});
    const foreign = t.s.tasks.create('other', { cmd: 'sleep 30', accepts_input: true }).task_id;
    await refusal('task_input', { task_id: foreign, text: 'x' }, 'task_not_found');
    await refusal('task_input', { task_id: noStdin }, 'invalid_arguments');
    await refusal('task_input', { task_id: noStdin, text: 'x'.repeat(262_145) }, 'invalid_arguments');
  });

  it('gives a child agent task a follow-up', async () => {
    const spawned = await ok('spawn_agent', { initial_message: 'count the files' });
    const mark = head(spawned.child_agent_id);
    expect(await ok('task_input', { task_id: spawned.task_id, text: 'and the lines' })).toMatchObject({ accepted: true, input_target: 'child_followup' });
    const [followup] = enqueued(spawned.child_agent_id, mark);
    expect(followup!.payload).toMatchObject({ kind: 'internal_followup', body: { type: 'text', text: expect.stringContaining('and the lines') } });
  });
});

describe('send_message', () => {
  beforeEach(() => {
    t.s.agents.create('other', {});
  });

  it('enqueues to another agent with the runtime\'s provenance: origin agent, trusted_integration at most, the turn\'s message as cause', async () => {
    const mark = head('other');
    const data = await ok('send_message', { agent_id: 'other', text: 'the build is green' });
    expect(data).toEqual({ sent: true, agent_id: 'other', message_id: expect.stringMatching(/^msg_/) });
    const [ev] = enqueued('other', mark);
    expect(ev!.payload).toMatchObject({
      message_id: data.message_id,
      kind: 'internal_followup',
      priority: 'normal',
      causation_id: 'msg_M',
      body: { type: 'text', text: 'the build is green' },
      metadata: { turn_id: 'turn_T' },
      provenance: {
        origin: { kind: 'agent', agent_id: 'main' },
        trust: 'trusted_integration',
        authority_class: 'integration_signal',
        delivery_surface: 'agent_message',
      },
    });
    expect(t.s.queue.get(data.message_id)).toMatchObject({ agent_id: 'other', status: 'queued', trust: 'trusted_integration' });
  });

  it('carries the sending turn\'s taint, and the priority asked for (never interject)', async () => {
    const mark = head('other');
    await ok('send_message', { agent_id: 'other', text: 'from a stranger', priority: 'next' }, { trust: 'untrusted_external' });
    await ok('send_message', { agent_id: 'other', text: 'later', priority: 'background' });
    expect(enqueued('other', mark).map((e) => [e.payload.provenance.trust, e.payload.priority])).toEqual([
      ['untrusted_external', 'next'],
      ['trusted_integration', 'background'],
    ]);
    await refusal('send_message', { agent_id: 'other', text: 'now', priority: 'interject' }, 'invalid_arguments');
  });

  it('takes no provenance from the model, and refuses bad arguments; nothing is queued', async () => {
    const mark = head('other');
    for (const extra of [{ trust: 'trusted_operator' }, { origin: { kind: 'operator' } }, { authority_class: 'operator_instruction' }, { kind: 'operator_prompt' }, { from: 'operator' }]) {
      const data = await refusal('send_message', { agent_id: 'other', text: 'hi', ...extra }, 'invalid_arguments');
      expect(data.error).toContain('unknown argument');
    }
    await refusal('send_message', { agent_id: 'other', text: '  ' }, 'invalid_arguments');
    await refusal('send_message', { agent_id: 'other', text: 'x'.repeat(262_145) }, 'invalid_arguments');
    await refusal('send_message', { agent_id: 'other' }, 'invalid_arguments');
    await refusal('send_message', { text: 'hi' }, 'invalid_arguments');
    expect(enqueued('other', mark)).toEqual([]);
  });

  it('refuses itself, unknown agents and another owner\'s private agents alike; reaches its own private child', async () => {
    t.s.agents.create('kid', { parent_agent_id: 'main', visibility: 'private' });
    t.s.agents.create('their-kid', { parent_agent_id: 'other', visibility: 'private' });
    const mark = head('their-kid');
    await refusal('send_message', { agent_id: 'main', text: 'me' }, 'message_to_self');
    await refusal('send_message', { agent_id: 'nobody', text: 'hi' }, 'agent_not_found');
    const hidden = await refusal('send_message', { agent_id: 'their-kid', text: 'hi' }, 'agent_not_found');
    expect(hidden).toMatchObject({ agent_id: 'their-kid' });
    expect(Object.keys(hidden).sort()).toEqual(['agent_id', 'code', 'error', 'ok']);
    expect(enqueued('their-kid', mark)).toEqual([]);
    const sent = await ok('send_message', { agent_id: 'kid', text: 'status?' });
    expect(t.s.queue.get(sent.message_id)).toMatchObject({ agent_id: 'kid', origin: { kind: 'agent', agent_id: 'main' } });
    // The child answers its supervisor the same way.
    const back = await ok('send_message', { agent_id: 'main', text: 'half done' }, { agentId: 'kid' });
    expect(t.s.queue.get(back.message_id)).toMatchObject({ agent_id: 'main', origin: { kind: 'agent', agent_id: 'kid' } });
  });

  it('counts against the receiver\'s external budget; a stopped agent queues, a deleting one refuses', async () => {
    await t.close();
    t = testServices({ configToml: '[queue]\nmax_pending = 2\n' });
    t.s.agents.create('other', {});
    t.s.agents.create('going', {});
    await ok('send_message', { agent_id: 'other', text: '1' });
    await t.s.ingress.publicEnqueue('other', { text: '2' });
    const mark = head('other');
    const full = await refusal('send_message', { agent_id: 'other', text: '3' }, 'overloaded');
    expect(full.error).toContain('queue.max_pending');
    expect(enqueued('other', mark)).toEqual([]);
    // The operator's budget is apart: a full external budget does not lock the operator out.
    await t.s.ingress.controlPrompt('other', 'operator here');

    await t.s.runLoop.control.control('going', { action: 'stop' });
    await ok('send_message', { agent_id: 'going', text: 'when you are back' });
    const held = holdDeletion(t.s, 'going');
    await refusal('send_message', { agent_id: 'going', text: 'bye' }, 'agent_deleting');
    held.release();
  });
});

/**
 * Operator first (issue: "with 10,000 public enqueues pending, the operator's own prompt gets
 * 429: external senders can lock the operator out"). External senders have their own per-agent
 * budget (`queue.max_pending`); operator prompts and operator ingress count apart (against the
 * much larger `queue.max_pending_operator`), and runtime-owned messages (task results, timer
 * ticks, rechecks, wake ticks) are never refused, so none of them is lost to a full queue.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { DELIVERY_SURFACES, deriveProvenance, ORIGIN_RULES, SURFACE_RULES, type DeliverySurface, type Origin } from '../../src/core/provenance.js';
import { daemonPool, request, stopAgent, waitFor, type RunningDaemon } from '../helpers/daemon.js';
import { testServices, type TestServices } from '../helpers/services.js';

describe('queue budgets (core/provenance.ts)', () => {
  it('every surface that admits an external sender counts against the public budget, and only those', () => {
    for (const surface of DELIVERY_SURFACES) {
      const rule = SURFACE_RULES[surface];
      const trusts = rule.origins.map((o) => ORIGIN_RULES[o].trust);
      const external = trusts.some((t) => t === 'untrusted_external' || t === 'trusted_integration');
      expect(rule.budget === 'public', surface).toBe(external);
      if (trusts.includes('trusted_operator')) expect(rule.budget, surface).toBe('operator');
    }
    // Runtime-owned producers are never capped.
    for (const surface of ['task', 'timer', 'runtime', 'control_wake'] as const) expect(SURFACE_RULES[surface].budget).toBe('runtime');
  });
});

describe('the queue keeps one budget per kind of sender', () => {
  let t: TestServices;
  afterEach(() => t?.close());

  const ORIGIN_OF: Record<DeliverySurface, Origin> = {
    public_enqueue: { kind: 'channel', channel: 'x' },
    generic_webhook: { kind: 'generic_webhook' },
    control_prompt: { kind: 'operator', actor_id: 'control' },
    debug_prompt: { kind: 'system', subsystem: 'debug_prompt' },
    operator_ingress: { kind: 'operator', actor_id: 'alice' },
    callback_enqueue: { kind: 'callback', descriptor_id: 'trg_x' },
    callback_wake: { kind: 'callback', descriptor_id: 'trg_x' },
    control_wake: { kind: 'system', subsystem: 'wake' },
    timer: { kind: 'timer', timer_id: 'tmr_x' },
    task: { kind: 'task', task_id: 'tsk_x' },
    runtime: { kind: 'system', subsystem: 'test' },
    inbox: { kind: 'webhook', source: 'inbox' },
    agent_message: { kind: 'agent', agent_id: 'other' },
  };
  const KIND_OF: Partial<Record<DeliverySurface, 'internal_followup' | 'system_tick' | 'task_result'>> = {
    debug_prompt: 'internal_followup',
    callback_wake: 'system_tick',
    control_wake: 'system_tick',
    task: 'task_result',
  };
  const put = (surface: DeliverySurface) => {
    const kind = KIND_OF[surface];
    const provenance = deriveProvenance(surface, ORIGIN_OF[surface], kind ? { kind } : {});
    return t.s.store.tx(() => t.s.queue.enqueue({ agentId: 'main', provenance, body: { type: 'text', text: surface } }));
  };
  const refusal = (surface: DeliverySurface) => {
    try {
      put(surface);
    } catch (err) {
      if (err instanceof AppError) return { status: err.status, code: err.code, message: err.message };
      throw err;
    }
    return null;
  };

  it('a full public budget refuses every external surface, and nothing else', () => {
    t = testServices({ configToml: '[queue]\nmax_pending = 5\nmax_pending_operator = 3\n' });
    for (let i = 0; i < 5; i++) put('public_enqueue');
    for (const surface of DELIVERY_SURFACES) {
      const r = refusal(surface);
      if (SURFACE_RULES[surface].budget === 'public') expect(r, surface).toMatchObject({ status: 429, code: 'overloaded' });
      else expect(r, surface).toBeNull();
    }
    expect(t.s.queue.pendingIn('main', 'public')).toBe(5);
  });

  it('the operator budget is separate and capped by queue.max_pending_operator; runtime messages pass both', () => {
    t = testServices({ configToml: '[queue]\nmax_pending = 5\nmax_pending_operator = 3\n' });
    for (let i = 0; i < 5; i++) put('public_enqueue');
    for (let i = 0; i < 3; i++) put(i % 2 === 0 ? 'control_prompt' : 'operator_ingress');
    expect(refusal('control_prompt')).toMatchObject({ status: 429, code: 'overloaded', message: expect.stringContaining('queue.max_pending_operator') });
    expect(refusal('public_enqueue')).toMatchObject({ status: 429, code: 'overloaded', message: expect.stringContaining('queue.max_pending)') });
    // Task results, timer ticks and other runtime messages: never refused, whatever the depth.
    const runtime = ['task', 'timer', 'runtime', 'control_wake'] as const;
    for (let i = 0; i < 50; i++) put(runtime[i % runtime.length]!);
    expect(t.s.queue.pending('main')).toBe(58);
    // Claims free room only in the claimed message's budget: the operator's interject goes first.
    t.s.store.tx(() => t.s.queue.claimNext('main'));
    expect(t.s.queue.pendingIn('main', 'operator')).toBe(2);
    expect(refusal('public_enqueue')).toMatchObject({ code: 'overloaded' });
    expect(refusal('control_prompt')).toBeNull();
  });

  it('a task result is enqueued when the public budget is full', async () => {
    t = testServices({ configToml: '[queue]\nmax_pending = 1\n' });
    await t.s.ingress.publicEnqueue('main', { text: 'fill' });
    const task = await t.s.tasks.create('main', { summary: 'hi', cmd: 'echo hi' });
    await waitFor(() => t.s.tasks.get('main', task.task_id).status === 'completed', 10_000);
    const results = t.s.events
      .page('main', { limit: 1000, order: 'asc', max_level: 'debug' })
      .events.filter((e) => e.type === 'message_enqueued' && e.provenance?.kind === 'task_result');
    expect(results).toHaveLength(1);
    expect(t.s.queue.pending('main')).toBe(2);
  });
});

describe('operator first, against a real daemon', () => {
  const pool = daemonPool();
  afterEach(() => pool.killAll());
  afterAll(() => pool.cleanup());

  const eventsOf = async (d: RunningDaemon) => (await request(d, 'GET', '/api/agents/main/events?order=asc&limit=1000')).json.events as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any

  it('with the public budget full: public ingress 429, operator prompt and ingress accepted, task results and timer ticks queued', async () => {
    const d = await pool.start({ configToml: '[queue]\nmax_pending = 5\n' });
    await stopAgent(d, 'main'); // nothing is taken from the queue
    for (let i = 0; i < 5; i++) expect((await request(d, 'POST', '/api/enqueue', { body: { text: `m${i}` } })).status).toBe(202);

    const refused = await request(d, 'POST', '/api/enqueue', { body: { text: 'one too many' } });
    expect(refused.status).toBe(429);
    expect(refused.json.code).toBe('overloaded');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await request(d, 'POST', '/api/webhooks/generic/main', { body: { a: 1 } })).json.code).toBe('overloaded');
    const trigger = await request(d, 'POST', '/api/control/agents/main/external-triggers', { body: { delivery_mode: 'enqueue' } });
    expect(trigger.status, trigger.text).toBe(201);
    const callback = await request(d, 'POST', `/api/callbacks/enqueue/${trigger.json.token}`, { body: { b: 2 } });
    expect(callback.json.code).toBe('overloaded');

    // The operator is not locked out.
    const prompt = await request(d, 'POST', '/api/control/agents/main/prompt', { body: { text: 'operator here' } });
    expect(prompt.status, prompt.text).toBe(202);
    const binding = await request(d, 'POST', '/api/control/agents/main/operator-bindings', {
      body: { binding_id: 'b1', transport: 'remote-operator', operator_actor_id: 'alice' },
    });
    expect(binding.status, binding.text).toBe(201);
    const ingress = await request(d, 'POST', '/api/control/agents/main/operator-ingress', { body: { text: 'from my phone', actor_id: 'alice', binding_id: 'b1' } });
    expect(ingress.status, ingress.text).toBe(202);

    // Runtime-owned messages are never refused: a task's result and a timer's tick are queued.
    const task = await request(d, 'POST', '/api/control/agents/main/tasks', { body: { summary: 'hi', cmd: 'echo hi' } });
    expect(task.status, task.text).toBe(201);
    const timer = await request(d, 'POST', '/api/control/agents/main/timers', { body: { duration_ms: 0 } });
    expect(timer.status, timer.text).toBe(201);
    const evs = await waitFor(async () => {
      const all = await eventsOf(d);
      const result = all.some((e) => e.type === 'message_enqueued' && e.provenance?.kind === 'task_result' && e.provenance.origin.task_id === task.json.task_id);
      const tick = all.some((e) => e.type === 'timer_fired' && e.payload.timer_id === timer.json.timer_id);
      return result && tick && all;
    }, 10_000);
    const result = evs.find((e) => e.type === 'message_enqueued' && e.provenance?.kind === 'task_result')!;
    expect(result.payload.body.value).toMatchObject({ task_id: task.json.task_id, status: 'completed', output_preview: 'hi\n' });

    const status = await request(d, 'GET', '/api/agents/main/status');
    expect(status.json.pending_messages).toBe(9); // 5 public, 2 operator, 1 task result, 1 timer tick
  });
});

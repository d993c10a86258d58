/**
 * Usage and budgets inside the run loop, with a scripted provider: every round lands in the
 * ledger in the transaction that records it (`model_round` carries its cost, `turn_completed` the
 * turn's tokens and cost); `max_tokens_per_turn` ends a turn at the round that reaches it without
 * running its tools; a spent daily budget keeps the next turn from starting; control start resumes.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deriveProvenance } from '../../src/core/provenance.js';
import type { CompletionResult, RoundUsage } from '../../src/runtime/providers/types.js';
import { startServices } from '../../src/services.js';
import { scriptedAgent, until, type ScriptProvider } from '../helpers/run-loop.js';
import { testServices, type TestServices } from '../helpers/services.js';

let t: TestServices;
let provider: ScriptProvider;

beforeEach(() => {
  t = testServices({ start: false, runLoop: true, configToml: '[models.pricing."test/m"]\ninput = 1\noutput = 2\n' });
  provider = scriptedAgent(t.s);
  startServices(t.s);
});
afterEach(() => t.close());

const events = (type: string) => t.s.events.page('main', { limit: 1000, order: 'asc', max_level: 'debug' }).events.filter((e) => e.type === type);
const statusOf = (id: string) => t.s.queue.get(id)!.status;

function enqueue(text: string): string {
  const provenance = deriveProvenance('control_prompt', { kind: 'operator', actor_id: 'test' }, { priority: 'interject' });
  return t.s.store.tx(() => t.s.ingress.enqueueNow('main', provenance, { type: 'text', text })).message_id;
}

const answer = (usage: RoundUsage, text = 'done'): CompletionResult => ({ text, toolCalls: [], stopReason: 'stop', usage });
const toolRound = (usage: RoundUsage): CompletionResult => ({
  text: 'looking',
  toolCalls: [{ id: `call_${provider.requests.length}`, name: 'read_task_output', arguments: { task_id: 'task_none' } }],
  stopReason: 'tool_calls',
  usage,
});

describe('usage of turns', () => {
  it('each round is in the ledger; model_round has its cost, turn_completed the turn\'s tokens and cost', async () => {
    provider.steps.push(() => toolRound({ input_tokens: 1000, output_tokens: 100 }), () => answer({ input_tokens: 1200, output_tokens: 300, cache_read_tokens: 1000 }));
    const id = enqueue('look');
    await until(() => statusOf(id) === 'completed', 'turn completed');
    const rounds = events('model_round').map((e) => e.payload);
    expect(rounds.map((r) => r.cost_usd)).toEqual([(1000 + 200) / 1e6, (1200 + 600) / 1e6]);
    const done = events('turn_completed')[0]!.payload;
    expect(done).toMatchObject({ tokens: 2600 });
    expect(done.cost_usd).toBeCloseTo(3000 / 1e6, 12);
    const report = t.s.usage.totals('main', 'model');
    expect(report.rows).toEqual([expect.objectContaining({ key: 'test/m', input_tokens: 2200, output_tokens: 400, cache_read_tokens: 1000, rounds: 2, turns: 1 })]);
  });

  it('a round without usage from the provider is recorded as estimated', async () => {
    provider.steps.push(() => ({ text: 'no counts', toolCalls: [], stopReason: 'stop' }));
    const id = enqueue('hi');
    await until(() => statusOf(id) === 'completed', 'turn completed');
    expect(t.s.usage.totals('main', 'day').total).toMatchObject({ rounds: 1, estimated_rounds: 1 });
  });
});

describe('budgets in the run loop', () => {
  it('max_tokens_per_turn: the round that reaches it ends the turn, its tools do not run, the agent pauses', async () => {
    await t.s.store.write(() => t.s.policy.patchAgent('main', { limits: { max_tokens_per_turn: 2000 } }));
    provider.steps.push(() => toolRound({ input_tokens: 900, output_tokens: 100 }), () => toolRound({ input_tokens: 950, output_tokens: 50 }), () => answer({ input_tokens: 1, output_tokens: 1 }));
    const id = enqueue('loop');
    await until(() => statusOf(id) === 'completed', 'turn ended');
    expect(provider.requests).toHaveLength(2);
    expect(events('tool_called')).toHaveLength(1);
    const [exceeded] = events('budget_exceeded');
    expect(exceeded!.payload).toMatchObject({ limit: 'max_tokens_per_turn', value: 2000, max: 2000, status: 'stopped' });
    expect(t.s.briefs.list('main', {}).find((b) => b.brief_id === exceeded!.payload.brief_id)).toMatchObject({ kind: 'failure', text: expect.stringContaining('max_tokens_per_turn') });
    expect(events('turn_completed')[0]!.payload).toMatchObject({ tokens: 2000 });
    expect(t.s.agents.statusOf('main')).toBe('stopped');
  });

  it('max_tokens_per_day: the next turn does not start; control start resumes it', async () => {
    await t.s.store.write(() => t.s.policy.patchAgent('main', { limits: { max_tokens_per_day: 500 } }));
    provider.steps.push(() => answer({ input_tokens: 400, output_tokens: 100 }, 'first'), () => answer({ input_tokens: 1, output_tokens: 1 }, 'second'));
    const first = enqueue('one');
    await until(() => statusOf(first) === 'completed', 'first turn');
    const second = enqueue('two');
    await until(() => events('budget_exceeded').length === 1, 'budget met');
    expect(events('budget_exceeded')[0]!.payload).toMatchObject({ limit: 'max_tokens_per_day', value: 500, max: 500, message_id: second, status: 'stopped' });
    expect(statusOf(second)).toBe('queued');
    expect(provider.requests).toHaveLength(1);
    await t.s.runLoop.control.control('main', { action: 'start' });
    await until(() => statusOf(second) === 'completed', 'second turn after the resume');
    expect(t.s.briefs.list('main', {})[0]).toMatchObject({ kind: 'result', text: 'second' });
    // The day is whole in the totals; the budget counts from the resume.
    expect(t.s.usage.today('main', t.clock.now()).tokens).toBe(502);
    expect(t.s.usage.stateSection('main').budgets.today_tokens).toBe(2);
    // A resume while the budget is not spent (from another pause) leaves the day's count alone.
    await t.s.runLoop.control.control('main', { action: 'stop' });
    await t.s.runLoop.control.control('main', { action: 'start' });
    expect(t.s.usage.stateSection('main').budgets.today_tokens).toBe(2);
  });

  it('max_cost_per_day: a running turn stops at its next round once the day is spent; its tools do not run', async () => {
    // Prices: 1 USD input, 2 USD output per million tokens; the budget is 0.003 USD.
    await t.s.store.write(() => t.s.policy.patchAgent('main', { limits: { max_cost_per_day: 0.003 } }));
    provider.steps.push(
      () => toolRound({ input_tokens: 2000, output_tokens: 600 }),
      () => toolRound({ input_tokens: 1, output_tokens: 1 }),
      () => toolRound({ input_tokens: 1, output_tokens: 1 }),
    );
    const id = enqueue('runaway');
    await until(() => statusOf(id) === 'completed', 'turn ended');
    // Round 1 (0.0032 USD) ran its tool; round 2 found the day spent: no tool, its text is the reply.
    expect(provider.requests).toHaveLength(2);
    expect(events('tool_called')).toHaveLength(1);
    expect(events('budget_exceeded')[0]!.payload).toMatchObject({ limit: 'max_cost_per_day', max: 0.003, status: 'stopped' });
    expect(t.s.agents.statusOf('main')).toBe('stopped');
  });
});

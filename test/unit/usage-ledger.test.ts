/**
 * The usage ledger and its budgets on an injected clock (src/runtime/usage/): totals by day, work
 * item and model are the sums of the rows; costs at the configured prices, cache reads and writes
 * at theirs; a model without a price costs null, never 0; an estimated round is marked; hostile
 * counts are capped; the daily budgets count since the last resume, which survives a restart, and
 * start again at the UTC day boundary; rows go with their agent and after RETAIN_DAYS.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIMIT_DEFAULTS, type PolicyLimits } from '../../src/config/index.js';
import { UsageService } from '../../src/runtime/usage/index.js';
import type { RoundUsage } from '../../src/runtime/providers/types.js';
import { testServices, type TestServices } from '../helpers/services.js';

const PRICES = `
[models.pricing."test/m"]
input = 2
output = 10
cache_read = 0.5
cache_write = 4

[models.pricing."ghost/model-x"]
input = 1
output = 1
`;

let t: TestServices;
beforeEach(() => {
  t = testServices({ configToml: PRICES });
  t.s.store.tx(() => t.s.agents.create('other', {}, () => null));
});
afterEach(() => t.close());

let turnSeq = 0;
const DAY = 86_400_000;
const limits = (over: Partial<PolicyLimits> = {}): PolicyLimits => ({ ...LIMIT_DEFAULTS, ...over });

/** One round recorded inside a transaction, as the run loop does. */
function round(usage: RoundUsage | null, opts: { agent?: string; turn?: string; round?: number; model?: string; estimate?: number } = {}) {
  return t.s.store.tx(() =>
    t.s.usage.record({
      agentId: opts.agent ?? 'main',
      turnId: opts.turn ?? `turn_${++turnSeq}`,
      round: opts.round ?? 1,
      modelRef: opts.model ?? 'test/m',
      usage,
      estimatedInput: opts.estimate,
      at: t.clock.now(),
    }),
  );
}

/** Sums straight from the rows, to set the ledger's totals against. */
function rowSums(agent: string) {
  return t.s.store.db
    .prepare(
      `SELECT SUM(input_tokens) AS input, SUM(output_tokens) AS output, SUM(cache_read_tokens) AS cache_read, SUM(cache_write_tokens) AS cache_write,
       SUM(reasoning_tokens) AS reasoning, COUNT(*) AS rounds, COUNT(DISTINCT turn_id) AS turns FROM usage_rounds WHERE agent_id = ?`,
    )
    .get(agent) as Record<string, number>;
}

describe('the ledger', () => {
  it('totals by day, work item and model are the sums of the rows, and total is the sum of each grouping', () => {
    round({ input_tokens: 1000, output_tokens: 200, cache_read_tokens: 600, cache_write_tokens: 100, reasoning_tokens: 50 }, { turn: 'turn_a' });
    round({ input_tokens: 300, output_tokens: 30 }, { turn: 'turn_a', round: 2 });
    const item = t.s.workItems.create('main', { objective: 'ship it' });
    t.s.workItems.pick('main', item.id);
    round({ input_tokens: 10, output_tokens: 5 }, { model: 'ghost/model-x' });
    t.clock.advance(DAY);
    round({ input_tokens: 7, output_tokens: 3 }, { model: 'nobody/knows' });
    round({ input_tokens: 99, output_tokens: 99 }, { agent: 'other' });

    const raw = rowSums('main');
    const reports = (['day', 'work_item', 'model'] as const).map((by) => t.s.usage.totals('main', by));
    for (const r of reports) {
      expect(r.total).toMatchObject({ input_tokens: raw.input, output_tokens: raw.output, cache_read_tokens: raw.cache_read, cache_write_tokens: raw.cache_write, reasoning_tokens: raw.reasoning, rounds: raw.rounds, turns: raw.turns });
      expect(r.total.tokens).toBe(raw.input! + raw.output!);
      for (const k of ['input_tokens', 'rounds', 'turns', 'unpriced_rounds'] as const) expect(r.rows.reduce((a, row) => a + row[k], 0)).toBe(r.total[k]);
      expect(r.rows.reduce((a, row) => a + (row.cost_usd ?? 0), 0)).toBeCloseTo(r.total.cost_usd!, 10);
    }
    const [byDay, byItem, byModel] = reports;
    expect(byDay!.rows.map((r) => [r.key, r.rounds, r.turns])).toEqual([['2030-01-01', 3, 2], ['2030-01-02', 1, 1]]);
    expect(byItem!.rows.map((r) => [r.key, r.rounds])).toEqual([[null, 2], [item.id, 2]]);
    expect(byModel!.rows.map((r) => r.key)).toEqual(['test/m', 'ghost/model-x', 'nobody/knows']);
    expect(byModel!.rows.find((r) => r.key === 'nobody/knows')).toMatchObject({ cost_usd: null, unpriced_rounds: 1 });
    // A range of days, inclusive at both ends.
    expect(t.s.usage.totals('main', 'model', { from: '2030-01-02', to: '2030-01-02' }).total.rounds).toBe(1);
    expect(t.s.usage.totals('main', 'day', { to: '2030-01-01' }).total.rounds).toBe(3);
  });

  it('costs at the prices per million tokens: cached reads and writes at theirs, reasoning inside the output', () => {
    // 300 plain input at 2, 600 read at 0.5, 100 written at 4, 200 output at 10 (reasoning included).
    const r = round({ input_tokens: 1000, output_tokens: 200, cache_read_tokens: 600, cache_write_tokens: 100, reasoning_tokens: 150 });
    expect(r).toEqual({ cost_usd: (300 * 2 + 600 * 0.5 + 100 * 4 + 200 * 10) / 1e6, tokens: 1200 });
    // A catalog model without a cache-write price bills writes as input.
    expect(round({ input_tokens: 1000, output_tokens: 0, cache_write_tokens: 1000 }, { model: 'openai/gpt-4o' }).cost_usd).toBeCloseTo(1000 * 2.5 / 1e6, 12);
    expect(round({ input_tokens: 100, output_tokens: 100 }, { model: 'builtin/echo' }).cost_usd).toBe(0);
  });

  it('a model without a price costs null, not 0, and a day of only such rounds too', () => {
    expect(round({ input_tokens: 100, output_tokens: 100 }, { model: 'local/llama' })).toEqual({ cost_usd: null, tokens: 200 });
    expect(t.s.usage.today('main', t.clock.now())).toEqual({ tokens: 200, cost_usd: null });
    const row = t.s.store.db.prepare('SELECT cost_usd FROM usage_rounds').get() as { cost_usd: number | null };
    expect(row.cost_usd).toBeNull();
    round({ input_tokens: 1_000_000, output_tokens: 0 });
    expect(t.s.usage.today('main', t.clock.now())).toEqual({ tokens: 1_000_200, cost_usd: 2 });
    expect(t.s.usage.totals('main', 'day').total).toMatchObject({ cost_usd: 2, unpriced_rounds: 1, rounds: 2 });
  });

  it('a round the provider reported no input for stores the estimate, marked', () => {
    round(null, { estimate: 1234 });
    round({ output_tokens: 5 }, { estimate: 10 });
    round(null);
    expect(t.s.usage.totals('main', 'day').total).toMatchObject({ input_tokens: 1244, output_tokens: 5, estimated_rounds: 3, rounds: 3 });
  });

  it('hostile counts are capped or dropped, and a round recorded twice counts once', () => {
    round({ input_tokens: 1e300, output_tokens: Number.NaN, cache_read_tokens: -5, reasoning_tokens: Infinity }, { turn: 'turn_x' });
    round({ input_tokens: 1, output_tokens: 1 }, { turn: 'turn_x' });
    const total = t.s.usage.totals('main', 'day').total;
    expect(total).toMatchObject({ input_tokens: 1e12, output_tokens: 0, cache_read_tokens: 0, reasoning_tokens: 0, rounds: 1, turns: 1 });
    expect(t.s.usage.turnTokens('turn_x')).toMatchObject({ tokens: 1e12, rounds: 1 });
  });

  it('counters move after the commit, not for a round rolled back', async () => {
    const value = async () => (await t.s.metrics.modelInputTokens.get()).values[0]?.value ?? 0;
    const start = await value();
    expect(() =>
      t.s.store.tx(() => {
        t.s.usage.record({ agentId: 'main', turnId: 'turn_rb', round: 1, modelRef: 'test/m', usage: { input_tokens: 50, output_tokens: 1 }, at: t.clock.now() });
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(await value()).toBe(start);
    expect(t.s.usage.turnTokens('turn_rb').rounds).toBe(0);
    round({ input_tokens: 70, output_tokens: 1 });
    expect(await value()).toBe(start + 70);
  });

  it('goes with its agent, and after 400 days', async () => {
    round({ input_tokens: 5, output_tokens: 5 }, { agent: 'other' });
    round({ input_tokens: 5, output_tokens: 5 });
    t.s.deletion.request('other', { cascadePrivateChildren: false });
    await t.s.deletion.idle();
    expect(t.s.store.db.prepare("SELECT count(*) FROM usage_rounds WHERE agent_id = 'other'").pluck().get()).toBe(0);
    expect(t.s.store.db.prepare("SELECT count(*) FROM usage_days WHERE agent_id = 'other'").pluck().get()).toBe(0);
    t.clock.advance(400 * DAY);
    t.s.usage.prune();
    expect(t.s.usage.totals('main', 'day').total.rounds).toBe(1);
    t.clock.advance(DAY);
    t.s.usage.prune();
    expect(t.s.usage.totals('main', 'day').total.rounds).toBe(0);
    expect(t.s.store.db.prepare('SELECT count(*) FROM usage_rounds').pluck().get()).toBe(0);
  });
});

describe('budgets', () => {
  it('max_tokens_per_day and max_cost_per_day trip at the limit, not before', () => {
    round({ input_tokens: 600, output_tokens: 300 });
    expect(t.s.usage.budgetTrip('main', limits({ max_tokens_per_day: 1000 }), t.clock.now())).toBeNull();
    round({ input_tokens: 100, output_tokens: 0 });
    expect(t.s.usage.budgetTrip('main', limits({ max_tokens_per_day: 1000 }), t.clock.now())).toEqual({ limit: 'max_tokens_per_day', value: 1000, max: 1000 });
    // 700 input at 2 + 300 output at 10 per million = 0.0044 USD.
    expect(t.s.usage.budgetTrip('main', limits({ max_cost_per_day: 0.005 }), t.clock.now())).toBeNull();
    expect(t.s.usage.budgetTrip('main', limits({ max_cost_per_day: 0.0044 }), t.clock.now())).toEqual({ limit: 'max_cost_per_day', value: 0.0044, max: 0.0044 });
    expect(t.s.usage.budgetTrip('main', limits(), t.clock.now())).toBeNull();
    expect(t.s.usage.budgetTrip('other', limits({ max_tokens_per_day: 1 }), t.clock.now())).toBeNull();
  });

  it('max_tokens_per_turn counts the turn\'s rounds and the one just answered', () => {
    round({ input_tokens: 400, output_tokens: 100 }, { turn: 'turn_t' });
    const max = limits({ max_tokens_per_turn: 1000 });
    expect(t.s.usage.turnTrip('turn_t', max)).toBeNull();
    expect(t.s.usage.turnTrip('turn_t', max, { input_tokens: 450, output_tokens: 49 })).toBeNull();
    expect(t.s.usage.turnTrip('turn_t', max, { input_tokens: 450, output_tokens: 50 })).toEqual({ limit: 'max_tokens_per_turn', value: 1000, max: 1000 });
    expect(t.s.usage.turnTrip('turn_t', limits())).toBeNull();
  });

  it('a resume restarts today\'s count, and the restart point survives a daemon restart', () => {
    round({ input_tokens: 2000, output_tokens: 0 });
    const max = limits({ max_tokens_per_day: 1000 });
    t.s.store.tx(() => t.s.policy.patchAgent('main', { limits: { max_tokens_per_day: 1000 } }));
    expect(t.s.usage.budgetTrip('main', max, t.clock.now())).not.toBeNull();
    t.clock.advance(60_000);
    t.s.usage.resume('main', t.clock.now());
    expect(t.s.usage.budgetTrip('main', max, t.clock.now())).toBeNull();
    expect(t.s.usage.stateSection('main').budgets).toMatchObject({ today_tokens: 0, counted_since: '2030-01-01T00:01:00.000Z' });
    round({ input_tokens: 999, output_tokens: 0 });
    expect(t.s.usage.budgetTrip('main', max, t.clock.now())).toBeNull();

    // A daemon restart keeps nothing in memory: a new service over the same store reads the point back.
    const again = new UsageService({ store: t.s.store, clock: t.clock, costOf: () => null, focus: () => null, limits: () => max, pricingWarnings: () => [] });
    expect(again.budgetTrip('main', max, t.clock.now())).toBeNull();
    round({ input_tokens: 1, output_tokens: 0 });
    expect(again.budgetTrip('main', max, t.clock.now())).toEqual({ limit: 'max_tokens_per_day', value: 1000, max: 1000 });
    expect(t.s.usage.today('main', t.clock.now()).tokens).toBe(3000);
  });

  it('a new UTC day starts at zero, and yesterday\'s resume does not carry over', () => {
    t.clock.set(Date.UTC(2030, 5, 1, 23, 59));
    t.s.store.tx(() => t.s.policy.patchAgent('main', { limits: { max_tokens_per_day: 600 } }));
    const max = limits({ max_tokens_per_day: 600 });
    // A resume while the budget is not spent changes nothing.
    round({ input_tokens: 500, output_tokens: 0 });
    t.s.usage.resume('main', t.clock.now());
    expect(t.s.usage.stateSection('main').budgets).toMatchObject({ today_tokens: 500, counted_since: null });
    round({ input_tokens: 700, output_tokens: 0 });
    expect(t.s.usage.budgetTrip('main', max, t.clock.now())).toEqual({ limit: 'max_tokens_per_day', value: 1200, max: 600 });
    t.s.usage.resume('main', t.clock.now());
    expect(t.s.usage.budgetTrip('main', max, t.clock.now())).toBeNull();
    t.clock.advance(60_000);
    expect(t.s.usage.budgetTrip('main', max, t.clock.now())).toBeNull();
    expect(t.s.usage.stateSection('main').budgets).toMatchObject({ today_tokens: 0, counted_since: null });
    round({ input_tokens: 600, output_tokens: 0 });
    expect(t.s.usage.budgetTrip('main', max, t.clock.now())).toMatchObject({ value: 600 });
    expect(t.s.usage.totals('main', 'day').rows.map((r) => [r.key, r.tokens])).toEqual([['2030-06-01', 1200], ['2030-06-02', 600]]);
  });

  it('the state page section: today, total, the budgets in force, and a warning for a price no model matches', async () => {
    await t.s.store.write(() => t.s.policy.patchAgent('main', { limits: { max_cost_per_day: 2.5, max_tokens_per_turn: 5000 } }));
    round({ input_tokens: 10, output_tokens: 20 });
    const section = t.s.usage.stateSection('main');
    expect(section.today).toMatchObject({ key: '2030-01-01', tokens: 30, rounds: 1 });
    expect(section.total).toMatchObject({ tokens: 30, rounds: 1 });
    expect(section.budgets).toMatchObject({ max_tokens_per_turn: 5000, max_tokens_per_day: 0, max_cost_per_day: 2.5, today_tokens: 30 });
    // test/m has a provider nobody configured either: both keys are unknown to svc.
    expect(section.warnings).toHaveLength(2);
    expect(section.warnings.join('\n')).toContain('"ghost/model-x"');
  });
});

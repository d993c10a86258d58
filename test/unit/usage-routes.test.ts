/**
 * GET /api/agents/:id/usage and the usage section of the state page through inject, with bad
 * input: an unknown grouping, a malformed or impossible day, a range backwards, an unknown agent;
 * and the budgets set through PATCH /api/control/agents/:id/policy, where a negative, absurd or
 * wrongly typed value answers 400 naming the key and changes nothing.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentRoutes } from '../../src/http/control/agents.js';
import { policyRoutes } from '../../src/http/control/run-control.js';
import { routeApp } from '../helpers/app.js';
import { testServices, type TestServices } from '../helpers/services.js';

let t: TestServices;
let app: FastifyInstance;
beforeEach(async () => {
  t = testServices({ configToml: '[models.pricing."test/m"]\ninput = 3\noutput = 15\n' });
  app = await routeApp(t.s, [...agentRoutes(t.s), ...policyRoutes(t.s)]);
  t.s.store.tx(() => {
    for (const [turn, at, model, input] of [['turn_1', 0, 'test/m', 1_000_000], ['turn_2', 86_400_000, 'test/m', 2_000_000], ['turn_3', 86_400_000, 'local/x', 10]] as const) {
      t.s.usage.record({ agentId: 'main', turnId: turn, round: 1, modelRef: model, usage: { input_tokens: input, output_tokens: 100 }, at: t.clock.now() + at });
    }
  });
});
afterEach(async () => {
  await app.close();
  await t.close();
});

const inject = (method: 'GET' | 'PATCH', url: string, payload?: object) => app.inject({ method, url, headers: { host: 'localhost' }, ...(payload ? { payload } : {}) });

describe('GET /api/agents/:id/usage', () => {
  it('by day (the default), by model, within a range of days', async () => {
    const byDay = (await inject('GET', '/api/agents/main/usage')).json();
    expect(byDay).toMatchObject({ agent_id: 'main', by: 'day', currency: 'USD', from: null, to: null });
    expect(byDay.rows.map((r: { key: string; rounds: number }) => [r.key, r.rounds])).toEqual([['2030-01-01', 1], ['2030-01-02', 2]]);
    expect(byDay.total).toMatchObject({ input_tokens: 3_000_010, output_tokens: 300, tokens: 3_000_310, rounds: 3, turns: 3, unpriced_rounds: 1 });
    expect(byDay.total.cost_usd).toBeCloseTo(9 + 300 * 15 / 1e6 * (2 / 3), 6);
    const byModel = (await inject('GET', '/api/agents/main/usage?by=model&from=2030-01-02&to=2030-01-02')).json();
    expect(byModel.rows).toEqual([
      expect.objectContaining({ key: 'test/m', input_tokens: 2_000_000, rounds: 1 }),
      expect.objectContaining({ key: 'local/x', cost_usd: null, unpriced_rounds: 1 }),
    ]);
    expect((await inject('GET', '/api/agents/main/usage?by=work_item')).json().rows).toEqual([expect.objectContaining({ key: null, rounds: 3 })]);
  });

  it.each([
    ['an unknown grouping', 'by=week', 'query.by'],
    ['a malformed day', 'from=2030-1-01', 'query.from'],
    ['a day that does not exist', 'from=2030-02-30', 'query.from'],
    ['a word for a day', 'to=yesterday', 'query.to'],
    ['a range backwards', 'from=2030-01-02&to=2030-01-01', 'query.to'],
    ['a huge value', `from=${'9'.repeat(5000)}`, 'query.from'],
  ])('%s answers 400 naming the parameter', async (_what, qs, path) => {
    const res = await inject('GET', `/api/agents/main/usage?${qs}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ ok: false, code: 'invalid_request', issues: [expect.objectContaining({ path })] });
  });

  it.each(['nobody', '..%2F..%2Fetc', '__proto__'])('an agent that does not exist (%s) answers 404', async (id) => {
    const res = await inject('GET', `/api/agents/${id}/usage`);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('agent_not_found');
  });

  it('the state page carries the usage section', async () => {
    const state = (await inject('GET', '/api/agents/main/state')).json();
    expect(state.usage).toMatchObject({ today: { key: '2030-01-01', rounds: 1 }, total: { rounds: 3 }, budgets: { max_cost_per_day: 0, today_tokens: 1_000_100, counted_since: null } });
    expect(state.usage.warnings).toEqual([expect.stringContaining('"test/m"')]);
  });
});

describe('budgets through the policy route', () => {
  it.each([
    [{ max_cost_per_day: -1 }, 'body.limits.max_cost_per_day'],
    [{ max_cost_per_day: 1e9 }, 'body.limits.max_cost_per_day'],
    [{ max_tokens_per_day: '1000' }, 'body.limits.max_tokens_per_day'],
    [{ max_tokens_per_day: 1.5 }, 'body.limits.max_tokens_per_day'],
    [{ max_tokens_per_turn: 1e13 }, 'body.limits.max_tokens_per_turn'],
    [{ max_tokens_per_turn: null }, 'body.limits.max_tokens_per_turn'],
    [{ max_cost_per_day: 'NaN' }, 'body.limits.max_cost_per_day'],
    [{ max_budget: 5 }, 'body.limits.max_budget'],
  ])('%j answers 400 naming %s and changes nothing', async (limits, path) => {
    const res = await inject('PATCH', '/api/control/agents/main/policy', { limits });
    expect(res.statusCode).toBe(400);
    expect(res.json().issues).toEqual([expect.objectContaining({ path })]);
    expect(t.s.policy.effective('main').limits).toMatchObject({ max_cost_per_day: 0, max_tokens_per_day: 0, max_tokens_per_turn: 0 });
  });

  it('a prototype key in the limits is refused and changes nothing', async () => {
    const res = await app.inject({ method: 'PATCH', url: '/api/control/agents/main/policy', headers: { host: 'localhost', 'content-type': 'application/json' }, payload: '{"limits":{"__proto__":{"max_cost_per_day":0.0001}}}' });
    expect(res.statusCode).toBe(400);
    expect(t.s.policy.effective('main').limits.max_cost_per_day).toBe(0);
  });

  it('a valid budget is in force at once and shows on the state page', async () => {
    const res = await inject('PATCH', '/api/control/agents/main/policy', { limits: { max_cost_per_day: 2.5, max_tokens_per_day: 1_000_000 } });
    expect(res.statusCode).toBe(200);
    expect(res.json().effective.limits).toMatchObject({ max_cost_per_day: 2.5, max_tokens_per_day: 1_000_000 });
    expect((await inject('GET', '/api/agents/main/state')).json().usage.budgets).toMatchObject({ max_cost_per_day: 2.5, max_tokens_per_day: 1_000_000 });
  });
});

/**
 * Usage and budgets through the daemon (docs/context.md#usage-and-cost), driven by a scripted
 * OpenAI-compatible model on loopback that reports usage: the totals of GET /api/agents/:id/usage,
 * the metrics' counters and `svc usage` equal what the fake server counted; a daily cost budget
 * keeps the next turn from starting (a failure brief and `budget_exceeded`), control start resumes
 * it, and the resume holds across a daemon restart. Needs `npm run build` first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliFor } from '../helpers/cli.js';
import { daemonPool, request, waitFor, type RunningDaemon } from '../helpers/daemon.js';
import { fakeOpenAIConfig, startFakeOpenAI, type FakeModelServer, type Reply } from '../helpers/fake-openai.js';
import type { Json } from '../helpers/tasks.js';

const pool = daemonPool();
let model: FakeModelServer;
let d: RunningDaemon;
const { svc, svcJson, expectFailure } = cliFor(() => d);

// USD per million tokens: 1000 input = $0.002, 1000 output = $0.01, 1000 cached = $0.0005.
const PRICES = '\n[models.pricing."fake/m"]\ninput = 2\noutput = 10\ncache_read = 0.5\n';

beforeAll(async () => {
  model = await startFakeOpenAI();
  d = await pool.start({ configToml: fakeOpenAIConfig(model.url) + PRICES });
}, 30_000);
afterAll(async () => {
  pool.cleanup();
  await model.close();
});

type Usage = NonNullable<Extract<Reply, { usage?: unknown }>['usage']>;

async function events(agent: string, type: string): Promise<Json[]> {
  const res = await request(d, 'GET', `/api/agents/${agent}/events?order=desc&limit=1000&max_level=debug`);
  return (res.json.events as Json[]).reverse().filter((e) => e.type === type);
}

async function prompt(agent: string, text: string): Promise<void> {
  const res = await request(d, 'POST', `/api/control/agents/${agent}/prompt`, { body: { text } });
  expect(res.status, res.text).toBe(202);
}

const turnsDone = (agent: string, n: number) => waitFor(async () => (await events(agent, 'turn_completed')).length >= n, 20_000);

async function counter(name: string): Promise<number> {
  const text = (await request(d, 'GET', '/api/control/runtime/metrics')).text;
  return Number(new RegExp(`^${name}_total (\\S+)$`, 'm').exec(text)?.[1]);
}

describe('usage', () => {
  const sent: Usage[] = [
    { input: 1000, output: 50, cache_read: 200 },
    { input: 1300, output: 120, cache_read: 1000, reasoning: 40 },
    { input: 500, output: 10 },
  ];
  const sum = (k: keyof Usage) => sent.reduce((a, u) => a + (u[k] ?? 0), 0);

  it('the route, the counters and svc usage add up to what the model server counted', async () => {
    const before = { input: await counter('svc_model_input_tokens'), cost: await counter('svc_model_cost_usd') };
    model.enqueue(
      { toolCalls: [{ name: 'read_task_output', args: ['{"task_id":"task_none"}'] }], usage: sent[0] },
      { text: ['first'], usage: sent[1] },
      { text: ['second'], usage: sent[2] },
    );
    await prompt('main', 'one');
    await turnsDone('main', 1);
    await prompt('main', 'two');
    await turnsDone('main', 2);

    const byDay = (await request(d, 'GET', '/api/agents/main/usage')).json;
    const total = { input_tokens: sum('input'), output_tokens: sum('output'), cache_read_tokens: sum('cache_read'), reasoning_tokens: sum('reasoning'), cache_write_tokens: 0, rounds: 3, turns: 2, unpriced_rounds: 0, estimated_rounds: 0 };
    expect(byDay).toMatchObject({ agent_id: 'main', by: 'day', currency: 'USD', total });
    const cost = ((sum('input') - sum('cache_read')) * 2 + sum('cache_read') * 0.5 + sum('output') * 10) / 1e6;
    expect(byDay.total.cost_usd).toBeCloseTo(cost, 10);
    expect(byDay.rows).toEqual([expect.objectContaining({ key: new Date().toISOString().slice(0, 10), ...total })]);
    const byModel = (await request(d, 'GET', '/api/agents/main/usage?by=model')).json;
    expect(byModel.rows).toEqual([expect.objectContaining({ key: 'fake/m', ...total })]);
    // The events say the same: each round's cost, each turn's tokens.
    const rounds = await events('main', 'model_round');
    expect(rounds.reduce((a, e) => a + e.payload.cost_usd, 0)).toBeCloseTo(cost, 10);
    expect((await events('main', 'turn_completed')).map((e) => e.payload.tokens)).toEqual([1000 + 50 + 1300 + 120, 510]);

    expect(await counter('svc_model_input_tokens')).toBe(before.input + sum('input'));
    expect(await counter('svc_model_cost_usd')).toBeCloseTo(before.cost + cost, 10);

    const table = await svc(['usage', 'main']);
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^DAY\s+INPUT\s+OUTPUT\s+CACHE_READ\s+CACHE_WRITE\s+REASONING\s+COST_USD$/);
    expect(lines.at(-1)).toMatch(new RegExp(`^total\\s+${sum('input')}\\s+${sum('output')}\\s+${sum('cache_read')}\\s+0\\s+${sum('reasoning')}\\s+0\\.0\\d+$`));
    expect((await svc(['usage', 'main', '--by', 'model'])).stdout).toMatch(/^fake\/m\s+2800\s/m);
    expect(await svcJson(['usage', 'main', '--by', 'work_item'])).toMatchObject({ by: 'work_item', rows: [{ key: null, rounds: 3 }], total });
    expect(await expectFailure(['usage', 'main', '--from', '2030-02-30'], 'invalid_request')).toContain('query.from');
    expect(await expectFailure(['usage', 'nobody'], 'agent_not_found')).toContain('nobody');
    expect((await svc(['agents', 'state', 'main'])).stdout).toMatch(new RegExp(`^usage_today\\s+${sum('input') + sum('output')} tokens, 0\\.0\\d+ USD$`, 'm'));
  }, 60_000);
});

describe('a daily cost budget', () => {
  it('stops the next turn with a failure brief and budget_exceeded; control start resumes, also across a restart', async () => {
    const A = 'thrifty';
    expect((await request(d, 'POST', `/api/control/agents/${A}/create`, { body: {} })).status).toBe(201);
    const patched = await request(d, 'PATCH', `/api/control/agents/${A}/policy`, { body: { limits: { max_cost_per_day: 0.001 } } });
    expect(patched.status, patched.text).toBe(200);
    // $0.0012: the first turn starts (nothing spent yet) and spends more than the budget.
    model.enqueue({ text: ['spent'], usage: { input: 600, output: 0 } });
    await prompt(A, 'spend');
    await turnsDone(A, 1);
    await prompt(A, 'more');
    const [exceeded] = await waitFor(async () => {
      const found = await events(A, 'budget_exceeded');
      return found.length > 0 ? found : null;
    }, 20_000);
    expect(exceeded!.payload).toMatchObject({ limit: 'max_cost_per_day', value: 0.0012, max: 0.001, status: 'stopped' });
    const briefs = (await request(d, 'GET', `/api/agents/${A}/briefs`)).json.briefs as Json[];
    expect(briefs.find((b) => b.brief_id === exceeded!.payload.brief_id)).toMatchObject({ kind: 'failure', text: expect.stringContaining('max_cost_per_day') });
    expect((await request(d, 'GET', `/api/agents/${A}/status`)).json).toMatchObject({ status: 'stopped', pending_messages: 1 });
    const state = (await request(d, 'GET', `/api/agents/${A}/state`)).json;
    expect(state.usage.budgets).toMatchObject({ max_cost_per_day: 0.001, today_cost_usd: 0.0012, counted_since: null });

    model.enqueue({ text: ['resumed'], usage: { input: 10, output: 1 } });
    expect((await request(d, 'POST', `/api/control/agents/${A}/control`, { body: { action: 'start' } })).json.status).toBe('idle');
    await turnsDone(A, 2);
    const after = (await request(d, 'GET', `/api/agents/${A}/state`)).json.usage;
    expect(after.budgets.counted_since).not.toBeNull();
    expect(after.budgets.today_cost_usd).toBeCloseTo(30 / 1e6, 10);
    expect(after.today.cost_usd).toBeCloseTo(0.0012 + 30 / 1e6, 10);

    // A restart keeps the point the count restarted at: the next turn starts.
    const home = d.home;
    expect(await d.stop()).toBe(0);
    d = await pool.start({ home });
    model.enqueue({ text: ['after the restart'], usage: { input: 10, output: 1 } });
    await prompt(A, 'again');
    await turnsDone(A, 3);
    expect(await events(A, 'budget_exceeded')).toHaveLength(1);
  }, 60_000);
});

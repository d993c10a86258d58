/**
 * Work items over real HTTP against the daemon (docs/control-plane-api.md#work-items; spec
 * work-items rows, "Work item PATCH rules", PickWorkItemResponse): every route, every error code,
 * auth classes, the events in GET /api/agents/:id/events, the state page, a real recheck tick, and
 * deletion.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonPool, request, type HttpResult, type RunningDaemon } from '../helpers/daemon.js';

const pool = daemonPool();
let d: RunningDaemon;

beforeAll(async () => {
  d = await pool.start();
});
afterAll(() => pool.cleanup());

function expectError(res: HttpResult, status: number, code: string): void {
  expect({ status: res.status, code: res.json?.code }, res.text).toEqual({ status, code });
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.json.ok).toBe(false);
  expect(res.json.error).toBeTypeOf('string');
}

const base = (agent: string) => `/api/control/agents/${agent}/work-items`;
const create = (body: unknown, agent = 'main', target: RunningDaemon = d) => request(target, 'POST', base(agent), { body });
const patch = (id: string, body: unknown, agent = 'main') => request(d, 'PATCH', `${base(agent)}/${id}`, { body });
const pick = (id: string, body?: unknown, agent = 'main') => request(d, 'POST', `${base(agent)}/${id}/pick`, body === undefined ? {} : { body });
const complete = (id: string, body: unknown, agent = 'main') => request(d, 'POST', `${base(agent)}/${id}/complete`, { body });
const getItem = (id: string, agent = 'main', target: RunningDaemon = d) => request(target, 'GET', `/api/agents/${agent}/work-items/${id}`);

async function newItem(objective = 'ship it', agent = 'main'): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await create({ objective }, agent);
  expect(res.status, res.text).toBe(201);
  return res.json;
}

async function eventsAsc(agent = 'main', target: RunningDaemon = d): Promise<Array<{ event_seq: number; type: string; payload: Record<string, any> }>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await request(target, 'GET', `/api/agents/${agent}/events?order=asc&limit=1000`);
  expect(res.status, res.text).toBe(200);
  return res.json.events;
}

async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await fn();
  while (!ok(last)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 25));
    last = await fn();
  }
  return last;
}

describe('create, list, get', () => {
  it('POST creates an open draft (201) visible in list and detail, with a work_item_created event', async () => {
    const res = await create({ objective: 'write the docs', authority_class: 'operator_instruction' });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({
      agent_id: 'main',
      objective: 'write the docs',
      state: 'open',
      plan_status: 'draft',
      revision: 1,
      todo_list: [],
      workspace_id: 'agent_home',
      blocked_by: null,
      plan_artifact: null,
      recheck_at: null,
      recheck_consumed_at: null,
      result_summary: null,
    });
    const id = res.json.id as string;
    expect(id).toMatch(/^wi_/);
    expect(Date.parse(res.json.created_at)).not.toBeNaN();

    const one = await getItem(id);
    expect(one.status, one.text).toBe(200);
    expect(one.json).toEqual(res.json);

    const list = await request(d, 'GET', '/api/agents/main/work-items');
    expect(list.status).toBe(200);
    expect(list.json.ok).toBe(true);
    expect(list.json.work_items.map((w: { id: string }) => w.id)).toContain(id);

    const ev = (await eventsAsc()).filter((e) => e.type === 'work_item_created' && e.payload.work_item_id === id);
    expect(ev).toHaveLength(1);
    expect(ev[0]!.payload).toMatchObject({ objective: 'write the docs', authority_class: 'operator_instruction' });
  });

  it('blank or empty objective -> 400 empty_objective; missing or wrong type -> 400 invalid_request', async () => {
    expectError(await create({ objective: '   ' }), 400, 'empty_objective');
    expectError(await create({ objective: '' }), 400, 'empty_objective');
    expectError(await create({}), 400, 'invalid_request');
    expectError(await create({ objective: 42 }), 400, 'invalid_request');
    expectError(await create({ objective: 'x', authority_class: 'boss' }), 400, 'invalid_request');
  });

  it('unknown agent -> 404 agent_not_found (create, list, get); unknown item -> 404 work_item_not_found', async () => {
    expectError(await create({ objective: 'x' }, 'ghost'), 404, 'agent_not_found');
    expectError(await request(d, 'GET', '/api/agents/ghost/work-items'), 404, 'agent_not_found');
    expectError(await getItem('wi_nope', 'ghost'), 404, 'agent_not_found');
    const res = await getItem('wi_nope');
    expectError(res, 404, 'work_item_not_found');
  });

  it("another agent's item is not found through this agent", async () => {
    expect((await request(d, 'POST', '/api/control/agents/side/create', { body: {} })).status).toBe(201);
    const other = await newItem('side job', 'side');
    expectError(await getItem(other.id, 'main'), 404, 'work_item_not_found');
    expectError(await patch(other.id, { plan_status: 'ready' }, 'main'), 404, 'work_item_not_found');
    expect((await getItem(other.id, 'side')).status).toBe(200);
  });
});

describe('PATCH', () => {
  it('updates fields, bumps revision by 1 per accepted update, and emits work_item_updated', async () => {
    const item = await newItem();
    const todo = [
      { text: 'plan', state: 'completed' },
      { text: 'build', state: 'in_progress' },
      { text: 'test', state: 'pending' },
    ];
    let res = await patch(item.id, { objective: 'ship it well', plan_status: 'ready', todo_list: todo });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ objective: 'ship it well', plan_status: 'ready', todo_list: todo, revision: 2 });
    res = await patch(item.id, { blocked_by: 'waiting for review' });
    expect(res.json).toMatchObject({ blocked_by: 'waiting for review', revision: 3 });
    res = await patch(item.id, { plan_status: 'needs_input' });
    expect(res.json).toMatchObject({ blocked_by: 'waiting for review', plan_status: 'needs_input', revision: 4 });
    res = await patch(item.id, { blocked_by: null });
    expect(res.json).toMatchObject({ blocked_by: null, revision: 5 });
    expect((await getItem(item.id)).json).toEqual(res.json);

    const updates = (await eventsAsc()).filter((e) => e.type === 'work_item_updated' && e.payload.work_item_id === item.id);
    expect(updates.map((e) => e.payload.revision)).toEqual([2, 3, 4, 5]);
    expect(updates[1]!.payload.changes).toEqual({ blocked_by: 'waiting for review' });
  });

  it('empty update -> 400 empty_update; unknown field or bad value -> 400 invalid_request; nothing changes', async () => {
    const item = await newItem();
    expectError(await patch(item.id, {}), 400, 'empty_update');
    expectError(await patch(item.id, { authority_class: 'operator_instruction' }), 400, 'empty_update');
    const unknown = await patch(item.id, { objective: 'x', colour: 'blue' });
    expectError(unknown, 400, 'invalid_request');
    expect(JSON.stringify(unknown.json.issues)).toContain('colour');
    expectError(await patch(item.id, { plan_status: 'done' }), 400, 'invalid_request');
    expectError(await patch(item.id, { todo_list: [{ text: 'a', state: 'later' }] }), 400, 'invalid_request');
    expectError(await patch(item.id, { todo_list: [{ text: 'a' }] }), 400, 'invalid_request');
    expectError(await patch(item.id, { recheck_after: 1.5, blocked_by: 'x' }), 400, 'invalid_request');
    expectError(await patch(item.id, { recheck_after: -1, blocked_by: 'x' }), 400, 'invalid_request');
    expectError(await patch(item.id, { objective: '  ' }), 400, 'empty_objective');
    expectError(await request(d, 'PATCH', `${base('main')}/${item.id}`, { raw: '{not json', headers: { 'content-type': 'application/json' } }), 400, 'invalid_json');
    expect((await getItem(item.id)).json.revision).toBe(1);
  });

  it('recheck_after without a non-empty blocker -> 400 recheck_requires_blocker; with one it sets recheck_at', async () => {
    const item = await newItem();
    expectError(await patch(item.id, { recheck_after: 60_000 }), 400, 'recheck_requires_blocker');
    expectError(await patch(item.id, { recheck_after: 60_000, blocked_by: '' }), 400, 'recheck_requires_blocker');
    const before = Date.now();
    const res = await patch(item.id, { recheck_after: 3_600_000, blocked_by: 'deploy window' });
    expect(res.status, res.text).toBe(200);
    const at = Date.parse(res.json.recheck_at);
    expect(at).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(at).toBeLessThanOrEqual(Date.now() + 3_600_000);
    expect(res.json.recheck_consumed_at).toBeNull();
    // The existing blocker satisfies the rule.
    expect((await patch(item.id, { recheck_after: 7_200_000 })).status).toBe(200);
  });

  it('on a completed item -> 409 work_item_not_open', async () => {
    const item = await newItem();
    expect((await complete(item.id, { report_text: 'done' })).status).toBe(200);
    expectError(await patch(item.id, { plan_status: 'ready' }), 409, 'work_item_not_open');
  });
});

describe('pick', () => {
  it('records the focus transitions: initial_pick, same_work_item, focus_switch with warnings, inspection mode', async () => {
    expect((await request(d, 'POST', '/api/control/agents/picker/create', { body: {} })).status).toBe(201);
    const a = await newItem('a', 'picker');
    const b = await newItem('b', 'picker');

    let res = await pick(a.id, { reason: 'first things first' }, 'picker');
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ current_work_item_id: a.id, previous_work_item: null });
    expect(res.json.current_work_item).toMatchObject({ id: a.id, state: 'open' });
    expect(res.json.transition).toEqual({
      current_work_item_id: a.id,
      current_readiness: 'runnable',
      switch_kind: 'initial_pick',
      current_focus_mode: 'runnable',
      previous_readiness: null,
      previous_work_item_id: null,
      reason: 'first things first',
      warnings: [],
    });

    res = await pick(a.id, undefined, 'picker');
    expect(res.status, res.text).toBe(200);
    expect(res.json.transition).toMatchObject({ switch_kind: 'same_work_item', previous_work_item_id: a.id, reason: null });

    expect((await patch(b.id, { blocked_by: 'needs a key' }, 'picker')).status).toBe(200);
    res = await pick(b.id, { reason: null, authority_class: 'operator_instruction' }, 'picker');
    expect(res.json.previous_work_item).toMatchObject({ id: a.id });
    expect(res.json.transition).toMatchObject({
      switch_kind: 'focus_switch',
      current_readiness: 'blocked',
      current_focus_mode: 'inspection',
      previous_readiness: 'runnable',
      previous_work_item_id: a.id,
    });
    expect(res.json.transition.warnings.map((w: { code: string }) => w.code).sort()).toEqual(['previous_work_item_unfinished', 'work_item_blocked']);

    expect((await patch(a.id, { plan_status: 'needs_input' }, 'picker')).status).toBe(200);
    res = await pick(a.id, {}, 'picker');
    expect(res.json.transition).toMatchObject({ current_readiness: 'waiting_for_operator', current_focus_mode: 'inspection', previous_readiness: 'blocked' });

    const picked = (await eventsAsc('picker')).filter((e) => e.type === 'work_item_picked');
    expect(picked.map((e) => e.payload.switch_kind)).toEqual(['initial_pick', 'same_work_item', 'focus_switch', 'focus_switch']);
  });

  it('strict body: unknown field -> 400 invalid_request; completed item -> 409; unknown item -> 404', async () => {
    const item = await newItem();
    expectError(await pick(item.id, { reason: 'x', priority: 'high' }), 400, 'invalid_request');
    expectError(await pick('wi_nope', {}), 404, 'work_item_not_found');
    expectError(await pick(item.id, {}, 'ghost'), 404, 'agent_not_found');
    expect((await complete(item.id, { report_text: 'done' })).status).toBe(200);
    expectError(await pick(item.id, {}), 409, 'work_item_not_open');
  });
});

describe('complete', () => {
  it('open -> completed with the report, revision + 1, brief_created (result) and work_item_completed events', async () => {
    const item = await newItem('finish me');
    const res = await complete(item.id, { report_text: 'Finished: all green.', authority_class: 'operator_instruction' });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ id: item.id, state: 'completed', result_summary: 'Finished: all green.', revision: 2 });
    expect((await getItem(item.id)).json).toEqual(res.json);
    const events = await eventsAsc();
    const brief = events.find((e) => e.type === 'brief_created' && e.payload.work_item_id === item.id);
    // brief_created carries the whole brief beside the summary fields; a completion is no turn's.
    expect(brief?.payload).toEqual({
      brief_id: expect.stringMatching(/^brf_[0-9A-HJKMNP-TV-Z]{26}$/),
      brief_kind: 'result',
      // The real system's field names beside svc's (docs/holon-gui.md).
      kind: 'result',
      created_at: brief!.payload.brief.created_at,
      work_item_id: item.id,
      turn_id: null,
      message_id: null,
      text: 'Finished: all green.',
      brief: {
        brief_id: brief!.payload.brief_id,
        agent_id: 'main',
        kind: 'result',
        title: 'Work item completed: finish me',
        text: 'Finished: all green.',
        turn_id: null,
        message_id: null,
        work_item_id: item.id,
        failure_artifact: null,
        created_at: expect.any(String),
      },
    });
    expect(new Date(brief!.payload.brief.created_at).toISOString()).toBe(brief!.payload.brief.created_at);
    const done = events.find((e) => e.type === 'work_item_completed' && e.payload.work_item_id === item.id);
    expect(done?.payload).toMatchObject({ revision: 2, result_summary: 'Finished: all green.' });
    expect(done!.event_seq).toBe(brief!.event_seq + 1);
  });

  it('empty report -> 400 empty_report; strict body -> 400 invalid_request; completed -> 409 work_item_not_open', async () => {
    const item = await newItem();
    expectError(await complete(item.id, { report_text: '   ' }), 400, 'empty_report');
    expectError(await complete(item.id, {}), 400, 'invalid_request');
    expectError(await complete(item.id, { report_text: 'ok', extra: 1 }), 400, 'invalid_request');
    expectError(await complete('wi_nope', { report_text: 'ok' }), 404, 'work_item_not_found');
    expect((await getItem(item.id)).json).toMatchObject({ state: 'open', revision: 1 });
    expect((await complete(item.id, { report_text: 'ok' })).status).toBe(200);
    expectError(await complete(item.id, { report_text: 'again' }), 409, 'work_item_not_open');
    expect((await getItem(item.id)).json).toMatchObject({ result_summary: 'ok', revision: 2 });
  });
});

describe('rechecks, state page, auth, deletion', () => {
  it('a due recheck enqueues one system_tick naming the work item and sets recheck_consumed_at', async () => {
    expect((await request(d, 'POST', '/api/control/agents/rechecker/create', { body: {} })).status).toBe(201);
    const item = await newItem('wait for CI', 'rechecker');
    const res = await patch(item.id, { blocked_by: 'CI running', recheck_after: 150 }, 'rechecker');
    expect(res.status, res.text).toBe(200);
    const consumed = await waitFor(
      () => getItem(item.id, 'rechecker'),
      (r) => r.json?.recheck_consumed_at !== null,
      'recheck_consumed_at',
    );
    expect(Date.parse(consumed.json.recheck_consumed_at)).toBeGreaterThanOrEqual(Date.parse(res.json.recheck_at));
    await new Promise((r) => setTimeout(r, 200));
    const ticks = (await eventsAsc('rechecker')).filter((e) => e.type === 'message_enqueued' && e.payload.kind === 'system_tick');
    expect(ticks).toHaveLength(1);
    expect(ticks[0]!.payload).toMatchObject({
      priority: 'next',
      metadata: { reason: 'work_item_recheck', work_item_id: item.id },
      provenance: { origin: { kind: 'system', subsystem: 'work_items' }, trust: 'trusted_system', authority_class: 'runtime_instruction', kind: 'system_tick' },
    });
  });

  it('the state page lists slim work items with readiness', async () => {
    const item = await newItem('on the state page');
    await patch(item.id, { plan_status: 'needs_input' });
    const res = await request(d, 'GET', '/api/agents/main/state');
    expect(res.status, res.text).toBe(200);
    const entry = res.json.work_items.find((w: { id: string }) => w.id === item.id);
    expect(entry).toEqual({
      id: item.id,
      objective: 'on the state page',
      state: 'open',
      plan_status: 'needs_input',
      readiness: 'waiting_for_operator',
      blocked_by: null,
      revision: 2,
      updated_at: expect.any(String),
      agent_id: 'main',
      is_current: false,
      is_runnable: false,
    });
  });

  it('in bearer mode control routes need the token and reads from loopback do not', async () => {
    const b = await pool.start({ args: ['--token', 'sekrit-token-value'] });
    const auth = { authorization: 'Bearer sekrit-token-value' };
    expectError(await request(b, 'POST', base('main'), { body: { objective: 'x' } }), 401, 'auth_required');
    const ok = await request(b, 'POST', base('main'), { body: { objective: 'x' }, headers: auth });
    expect(ok.status, ok.text).toBe(201);
    const id = ok.json.id as string;
    expectError(await request(b, 'PATCH', `${base('main')}/${id}`, { body: { plan_status: 'ready' } }), 401, 'auth_required');
    expectError(await request(b, 'POST', `${base('main')}/${id}/pick`, { body: {} }), 401, 'auth_required');
    expectError(await request(b, 'POST', `${base('main')}/${id}/complete`, { body: { report_text: 'x' } }), 401, 'auth_required');
    expect((await request(b, 'GET', '/api/agents/main/work-items')).status).toBe(200);
    expect((await request(b, 'GET', `/api/agents/main/work-items/${id}`)).status).toBe(200);
    await b.stop();
  });

  it('work items survive a restart, and an overdue recheck fires once at start', async () => {
    const r = await pool.start();
    const made = await create({ objective: 'durable' }, 'main', r);
    expect(made.status).toBe(201);
    const id = made.json.id as string;
    expect((await request(r, 'PATCH', `${base('main')}/${id}`, { body: { blocked_by: 'later', recheck_after: 300 } })).status).toBe(200);
    await r.stop();
    await new Promise((res) => setTimeout(res, 400));
    const r2 = await pool.start({ home: r.home });
    const after = await waitFor(() => getItem(id, 'main', r2), (x) => x.json?.recheck_consumed_at !== null, 'overdue recheck');
    expect(after.json).toMatchObject({ objective: 'durable', blocked_by: 'later', revision: 2 });
    const ticks = (await eventsAsc('main', r2)).filter((e) => e.type === 'message_enqueued' && e.payload.metadata?.work_item_id === id);
    expect(ticks).toHaveLength(1);
    await r2.stop();
  });

  it('a deleting agent refuses mutations (409 agent_deleting); a re-created agent has no old work items', async () => {
    expect((await request(d, 'POST', '/api/control/agents/temp/create', { body: {} })).status).toBe(201);
    const item = await newItem('temporary', 'temp');
    const del = await request(d, 'DELETE', '/api/control/agents/temp');
    expect(del.status, del.text).toBe(202);
    // Mutations while the deletion runs (or after it, once the agent is gone) are refused.
    const during = await create({ objective: 'x' }, 'temp');
    expect([404, 409]).toContain(during.status);
    expect(during.json.code).toBe(during.status === 409 ? 'agent_deleting' : 'agent_not_found');
    await waitFor(
      () => request(d, 'GET', '/api/control/agents/temp/delete-status'),
      (r) => r.json?.job?.status === 'completed',
      'deletion',
    );
    expectError(await pick(item.id, {}, 'temp'), 404, 'agent_not_found');
    expect((await request(d, 'POST', '/api/control/agents/temp/create', { body: {} })).status).toBe(201);
    const list = await request(d, 'GET', '/api/agents/temp/work-items');
    expect(list.json).toEqual({ ok: true, work_items: [] });
    expectError(await getItem(item.id, 'temp'), 404, 'work_item_not_found');
  });
});

/**
 * Work items in process (docs/control-plane-api.md#work-items; spec "States and transitions / Work
 * item"): create, PATCH rules, readiness, pick transitions with a durable focus, completion (incl.
 * a legacy `completing` record), events in the same transaction, rechecks firing exactly once on a
 * ManualClock, and the state page section.
 */
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import type { Message } from '../../src/runtime/agents/queue.js';
import { createServices, startServices, stopServices } from '../../src/services.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { readinessOf, type WorkItem } from '../../src/runtime/work-items/work-item-records.js';
import { testServices, type TestServices } from '../helpers/services.js';

let t: TestServices;
beforeEach(() => {
  t = testServices();
});
afterEach(() => t.close());

const svc = () => t.s.workItems;
const create = (objective = 'ship the feature', agent = 'main') => svc().create(agent, { objective });

/** Close the current services and open new ones on the same home (a daemon restart); afterEach closes them. */
async function restart(): Promise<void> {
  const { home, clock } = t;
  await stopServices(t.s);
  const s2 = createServices(loadConfig({ home }, {}), clock, createLogger('silent'));
  s2.runLoop.scheduler.disable(); // the ticks stay queued for the assertions
  startServices(s2);
  t = {
    s: s2,
    clock,
    home,
    close: async () => {
      await stopServices(s2);
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}

function eventsOf(agent = 'main') {
  return t.s.events.page(agent, { limit: 1000, order: 'asc', max_level: 'debug' }).events;
}
function lastEvent(agent = 'main') {
  const ev = eventsOf(agent);
  return ev[ev.length - 1]!;
}
function expectCode(fn: () => unknown, status: number, code: string) {
  expect(fn).toThrowError(expect.objectContaining({ status, code }));
}
/** The queued system_tick messages of an agent, oldest first (claims them). */
function drainTicks(agent = 'main'): Message[] {
  const out: Message[] = [];
  for (;;) {
    const m = t.s.store.tx(() => t.s.queue.claimNext(agent));
    if (!m) return out;
    if (m.kind === 'system_tick') out.push(m);
  }
}

describe('create', () => {
  it('makes an open draft with revision 1, an empty todo list and the agent_home workspace', () => {
    const item = svc().create('main', { objective: '  write docs  ', authority_class: 'operator_instruction' });
    expect(item).toMatchObject({
      agent_id: 'main',
      objective: 'write docs',
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
    expect(item.id).toMatch(/^wi_[0-9A-Z]{26}$/);
    expect(item.created_at).toBe(new Date(t.clock.now()).toISOString());
    expect(svc().get('main', item.id)).toEqual(item);
    const ev = lastEvent();
    expect(ev.type).toBe('work_item_created');
    expect(ev.payload).toMatchObject({ work_item_id: item.id, objective: 'write docs', authority_class: 'operator_instruction' });
  });

  it('refuses a blank objective (empty_objective) and writes nothing', () => {
    const before = eventsOf().length;
    expectCode(() => create('   '), 400, 'empty_objective');
    expectCode(() => create(''), 400, 'empty_objective');
    expect(svc().list('main')).toEqual([]);
    expect(eventsOf().length).toBe(before);
  });

  it('refuses an unknown agent (404) and a deleting agent (409)', () => {
    expectCode(() => create('x', 'ghost'), 404, 'agent_not_found');
    t.s.agents.create('doomed', {});
    t.s.store.tx(() => t.s.agents.setStatus('doomed', 'deleting'));
    expectCode(() => create('x', 'doomed'), 409, 'agent_deleting');
  });

  it('every mutation refuses a deleting agent (409 agent_deleting); reads still work', () => {
    t.s.agents.create('doomed', {});
    const item = create('x', 'doomed');
    t.s.store.tx(() => t.s.agents.setStatus('doomed', 'deleting'));
    expectCode(() => svc().update('doomed', item.id, { plan_status: 'ready' }), 409, 'agent_deleting');
    expectCode(() => svc().pick('doomed', item.id), 409, 'agent_deleting');
    expectCode(() => svc().complete('doomed', item.id, { report_text: 'x' }), 409, 'agent_deleting');
    expect(svc().get('doomed', item.id)).toMatchObject({ state: 'open', revision: 1 });
    expect(svc().list('doomed')).toHaveLength(1);
  });

  it('lists oldest first, per agent; get of an unknown or foreign id is 404 work_item_not_found', () => {
    t.s.agents.create('other', {});
    const a = create('a');
    const b = create('b');
    const o = create('o', 'other');
    expect(svc().list('main').map((w) => w.id)).toEqual([a.id, b.id]);
    expect(svc().list('other').map((w) => w.id)).toEqual([o.id]);
    expectCode(() => svc().get('main', o.id), 404, 'work_item_not_found');
    expectCode(() => svc().get('main', 'wi_nope'), 404, 'work_item_not_found');
    expectCode(() => svc().list('ghost'), 404, 'agent_not_found');
  });
});

describe('PATCH rules', () => {
  it('updates each field, increments revision by exactly 1 per accepted update and emits work_item_updated', () => {
    const item = create();
    const r2 = svc().update('main', item.id, { objective: ' new goal ' });
    expect(r2).toMatchObject({ objective: 'new goal', revision: 2 });
    const r3 = svc().update('main', item.id, { plan_status: 'ready' });
    expect(r3).toMatchObject({ plan_status: 'ready', revision: 3 });
    const todo = [
      { text: 'one', state: 'completed' as const },
      { text: 'two', state: 'in_progress' as const },
      { text: 'three', state: 'pending' as const },
    ];
    const r4 = svc().update('main', item.id, { todo_list: todo });
    expect(r4).toMatchObject({ todo_list: todo, revision: 4 });
    // The same value again is still an accepted update.
    const r5 = svc().update('main', item.id, { plan_status: 'ready' });
    expect(r5.revision).toBe(5);
    const ev = lastEvent();
    expect(ev.type).toBe('work_item_updated');
    expect(ev.payload).toMatchObject({ work_item_id: item.id, revision: 5, fields: ['plan_status'], changes: { plan_status: 'ready' } });
    expect(svc().get('main', item.id)).toEqual(r5);
  });

  it('rejects an empty update (also one carrying only authority_class) without a revision bump', () => {
    const item = create();
    expectCode(() => svc().update('main', item.id, {}), 400, 'empty_update');
    expectCode(() => svc().update('main', item.id, { authority_class: 'operator_instruction' }), 400, 'empty_update');
    expectCode(() => svc().update('main', item.id, { objective: ' ' }), 400, 'empty_objective');
    expect(svc().get('main', item.id).revision).toBe(1);
  });

  it('blocked_by: a string sets, omitted leaves unchanged, null clears', () => {
    const item = create();
    expect(svc().update('main', item.id, { blocked_by: 'waiting for CI' }).blocked_by).toBe('waiting for CI');
    expect(svc().update('main', item.id, { plan_status: 'ready' }).blocked_by).toBe('waiting for CI');
    expect(svc().update('main', item.id, { blocked_by: null }).blocked_by).toBeNull();
  });

  it('recheck_after requires a non-empty blocker: existing, or set in the same update', () => {
    const item = create();
    expectCode(() => svc().update('main', item.id, { recheck_after: 1000 }), 400, 'recheck_requires_blocker');
    expectCode(() => svc().update('main', item.id, { recheck_after: 1000, blocked_by: '  ' }), 400, 'recheck_requires_blocker');
    expect(svc().get('main', item.id).revision).toBe(1);
    const set = svc().update('main', item.id, { recheck_after: 5000, blocked_by: 'deploy' });
    expect(set.recheck_at).toBe(new Date(t.clock.now() + 5000).toISOString());
    expect(set.recheck_consumed_at).toBeNull();
    t.clock.advance(100);
    const again = svc().update('main', item.id, { recheck_after: 1000 });
    expect(again.recheck_at).toBe(new Date(t.clock.now() + 1000).toISOString());
    // Clearing the blocker in the same update as recheck_after: refused.
    expectCode(() => svc().update('main', item.id, { recheck_after: 10, blocked_by: null }), 400, 'recheck_requires_blocker');
  });

  it('clearing the blocker cancels a pending recheck', () => {
    const item = create();
    svc().update('main', item.id, { blocked_by: 'x', recheck_after: 1000 });
    const cleared = svc().update('main', item.id, { blocked_by: null });
    expect(cleared.recheck_at).toBeNull();
    t.clock.advance(5000);
    expect(svc().runDueRechecks()).toBe(0);
    expect(drainTicks()).toEqual([]);
  });

  it('refuses changes on a completed item (409 work_item_not_open), unknown items and deleting agents', () => {
    const item = create();
    svc().complete('main', item.id, { report_text: 'done' });
    expectCode(() => svc().update('main', item.id, { plan_status: 'ready' }), 409, 'work_item_not_open');
    expectCode(() => svc().update('main', 'wi_nope', { plan_status: 'ready' }), 404, 'work_item_not_found');
    expectCode(() => svc().update('ghost', item.id, { plan_status: 'ready' }), 404, 'agent_not_found');
  });
});

describe('readiness', () => {
  it.each([
    [{ state: 'completed', blocked_by: 'x', plan_status: 'needs_input' }, 'completed'],
    [{ state: 'completing', blocked_by: null, plan_status: 'ready' }, 'completed'],
    [{ state: 'open', blocked_by: 'x', plan_status: 'needs_input' }, 'blocked'],
    [{ state: 'open', blocked_by: null, plan_status: 'needs_input' }, 'waiting_for_operator'],
    [{ state: 'open', blocked_by: null, plan_status: 'draft' }, 'runnable'],
    [{ state: 'open', blocked_by: null, plan_status: 'ready' }, 'runnable'],
  ] as const)('%j -> %s', (item, expected) => {
    expect(readinessOf(item as Pick<WorkItem, 'state' | 'blocked_by' | 'plan_status'>)).toBe(expected);
  });
});

describe('pick', () => {
  it('initial pick of a runnable item: runnable focus, no previous, no warnings; durable focus', () => {
    const a = create('a');
    const r = svc().pick('main', a.id, { reason: ' start here ', authority_class: 'operator_instruction' });
    expect(r.current_work_item_id).toBe(a.id);
    expect(r.current_work_item).toEqual(a);
    expect(r.previous_work_item).toBeNull();
    expect(r.transition).toEqual({
      current_work_item_id: a.id,
      current_readiness: 'runnable',
      switch_kind: 'initial_pick',
      current_focus_mode: 'runnable',
      previous_readiness: null,
      previous_work_item_id: null,
      reason: 'start here',
      warnings: [],
    });
    expect(svc().currentFocus('main')).toBe(a.id);
    // Pick does not change the record: no revision bump.
    expect(svc().get('main', a.id).revision).toBe(1);
    const ev = lastEvent();
    expect(ev.type).toBe('work_item_picked');
    expect(ev.payload).toMatchObject({ work_item_id: a.id, switch_kind: 'initial_pick', current_readiness: 'runnable' });
  });

  it('picking the same item again is same_work_item', () => {
    const a = create('a');
    svc().pick('main', a.id);
    const r = svc().pick('main', a.id, { reason: null });
    expect(r.transition).toMatchObject({ switch_kind: 'same_work_item', previous_work_item_id: a.id, previous_readiness: 'runnable', reason: null, warnings: [] });
    expect(r.previous_work_item?.id).toBe(a.id);
  });

  it('switching away from an unfinished item is a focus_switch with a warning', () => {
    const a = create('a');
    const b = create('b');
    svc().pick('main', a.id);
    const r = svc().pick('main', b.id);
    expect(r.transition).toMatchObject({ switch_kind: 'focus_switch', previous_work_item_id: a.id, previous_readiness: 'runnable', current_focus_mode: 'runnable' });
    expect(r.transition.warnings.map((w) => w.code)).toEqual(['previous_work_item_unfinished']);
    expect(svc().currentFocus('main')).toBe(b.id);
  });

  it('switching away from a completed item has no warning and reports previous_readiness completed', () => {
    const a = create('a');
    const b = create('b');
    svc().pick('main', a.id);
    svc().complete('main', a.id, { report_text: 'done' });
    const r = svc().pick('main', b.id);
    expect(r.transition).toMatchObject({ switch_kind: 'focus_switch', previous_readiness: 'completed', warnings: [] });
    expect(r.previous_work_item?.state).toBe('completed');
  });

  it('a blocked item is picked in inspection mode with a warning', () => {
    const a = create('a');
    svc().update('main', a.id, { blocked_by: 'review' });
    const r = svc().pick('main', a.id);
    expect(r.transition).toMatchObject({ current_readiness: 'blocked', current_focus_mode: 'inspection' });
    expect(r.transition.warnings.map((w) => w.code)).toEqual(['work_item_blocked']);
  });

  it('an item waiting for the operator is picked in inspection mode with a warning', () => {
    const a = create('a');
    svc().update('main', a.id, { plan_status: 'needs_input' });
    const r = svc().pick('main', a.id);
    expect(r.transition).toMatchObject({ current_readiness: 'waiting_for_operator', current_focus_mode: 'inspection' });
    expect(r.transition.warnings.map((w) => w.code)).toEqual(['work_item_waiting_for_operator']);
  });

  it('refuses a completed item (409) and leaves the focus where it was', () => {
    const a = create('a');
    const b = create('b');
    svc().pick('main', a.id);
    svc().complete('main', b.id, { report_text: 'done' });
    expectCode(() => svc().pick('main', b.id), 409, 'work_item_not_open');
    expectCode(() => svc().pick('main', 'wi_nope'), 404, 'work_item_not_found');
    expect(svc().currentFocus('main')).toBe(a.id);
  });

  it('the focus survives a restart of the services (durable)', async () => {
    const a = create('a');
    svc().pick('main', a.id);
    await restart();
    expect(svc().currentFocus('main')).toBe(a.id);
    const b = create('b');
    const r = svc().pick('main', b.id);
    expect(r.transition).toMatchObject({ switch_kind: 'focus_switch', previous_work_item_id: a.id });
  });
});

describe('complete', () => {
  it('open -> completed with the report as result_summary, revision + 1, a result brief and work_item_completed', () => {
    const a = create('a');
    svc().update('main', a.id, { plan_status: 'ready' });
    const done = svc().complete('main', a.id, { report_text: 'all shipped', authority_class: 'operator_instruction' });
    expect(done).toMatchObject({ state: 'completed', result_summary: 'all shipped', revision: 3 });
    expect(svc().get('main', a.id)).toEqual(done);
    const ev = eventsOf().slice(-2);
    expect(ev.map((e) => e.type)).toEqual(['brief_created', 'work_item_completed']);
    expect(ev[0]!.payload).toMatchObject({ brief_kind: 'result', work_item_id: a.id, text: 'all shipped' });
    expect(ev[0]!.payload.brief).toMatchObject({ kind: 'result', work_item_id: a.id, text: 'all shipped', agent_id: 'main' });
    expect(ev[1]!.payload).toMatchObject({ work_item_id: a.id, from_state: 'open', revision: 3, result_summary: 'all shipped' });
  });

  it('refuses an empty report (400 empty_report) and a second completion (409)', () => {
    const a = create('a');
    expectCode(() => svc().complete('main', a.id, { report_text: '  ' }), 400, 'empty_report');
    expect(svc().get('main', a.id)).toMatchObject({ state: 'open', revision: 1 });
    svc().complete('main', a.id, { report_text: 'ok' });
    expectCode(() => svc().complete('main', a.id, { report_text: 'again' }), 409, 'work_item_not_open');
    expect(svc().get('main', a.id)).toMatchObject({ result_summary: 'ok', revision: 2 });
  });

  it('finalises a legacy `completing` record', () => {
    const a = create('a');
    t.s.store.db.prepare("UPDATE work_items SET state = 'completing', result_summary = 'legacy' WHERE work_item_id = ?").run(a.id);
    expect(svc().get('main', a.id).state).toBe('completing');
    expectCode(() => svc().update('main', a.id, { plan_status: 'ready' }), 409, 'work_item_not_open');
    const done = svc().complete('main', a.id, { report_text: '' });
    expect(done).toMatchObject({ state: 'completed', result_summary: 'legacy', revision: 2 });
    expect(lastEvent().payload).toMatchObject({ work_item_id: a.id, from_state: 'completing' });
  });

  it('a pending recheck of a completed item never fires', () => {
    const a = create('a');
    svc().update('main', a.id, { blocked_by: 'x', recheck_after: 1000 });
    svc().complete('main', a.id, { report_text: 'done anyway' });
    t.clock.advance(2000);
    expect(svc().runDueRechecks()).toBe(0);
    expect(drainTicks()).toEqual([]);
  });
});

describe('rechecks', () => {
  it('enqueue one system_tick for the agent when recheck_at passes, and set recheck_consumed_at, exactly once', () => {
    const a = create('a');
    svc().update('main', a.id, { blocked_by: 'waiting for CI', recheck_after: 60_000 });
    t.clock.advance(59_999);
    expect(svc().runDueRechecks()).toBe(0);
    expect(svc().get('main', a.id).recheck_consumed_at).toBeNull();
    t.clock.advance(1);
    expect(svc().runDueRechecks()).toBe(1);
    const item = svc().get('main', a.id);
    expect(item.recheck_consumed_at).toBe(new Date(t.clock.now()).toISOString());
    // Exactly once: later runs find nothing.
    t.clock.advance(60_000);
    expect(svc().runDueRechecks()).toBe(0);
    const ticks = drainTicks();
    expect(ticks).toHaveLength(1);
    expect(ticks[0]).toMatchObject({
      kind: 'system_tick',
      origin: { kind: 'system', subsystem: 'work_items' },
      trust: 'trusted_system',
      authority_class: 'runtime_instruction',
      priority: 'next',
      delivery_surface: 'runtime',
      metadata: { reason: 'work_item_recheck', work_item_id: a.id, blocked_by: 'waiting for CI' },
    });
    const types = eventsOf().map((e) => e.type);
    expect(types.filter((x) => x === 'work_item_recheck_fired')).toHaveLength(1);
    expect(types.slice(-2)).toEqual(['message_enqueued', 'work_item_recheck_fired']);
  });

  it('a new recheck_after re-arms a consumed recheck', () => {
    const a = create('a');
    svc().update('main', a.id, { blocked_by: 'x', recheck_after: 10 });
    t.clock.advance(10);
    expect(svc().runDueRechecks()).toBe(1);
    svc().update('main', a.id, { recheck_after: 10 });
    expect(svc().get('main', a.id).recheck_consumed_at).toBeNull();
    t.clock.advance(10);
    expect(svc().runDueRechecks()).toBe(1);
    expect(drainTicks()).toHaveLength(2);
  });

  it('fires due rechecks of several items and agents in recheck_at order', () => {
    t.s.agents.create('other', {});
    const a = create('a');
    const b = create('b');
    const o = create('o', 'other');
    svc().update('main', a.id, { blocked_by: 'x', recheck_after: 300 });
    svc().update('main', b.id, { blocked_by: 'x', recheck_after: 100 });
    svc().update('other', o.id, { blocked_by: 'x', recheck_after: 200 });
    t.clock.advance(250);
    expect(svc().runDueRechecks()).toBe(2);
    expect(drainTicks('main').map((m) => m.metadata.work_item_id)).toEqual([b.id]);
    expect(drainTicks('other').map((m) => m.metadata.work_item_id)).toEqual([o.id]);
    t.clock.advance(50);
    expect(svc().runDueRechecks()).toBe(1);
    expect(drainTicks('main').map((m) => m.metadata.work_item_id)).toEqual([a.id]);
  });

  it('a recheck fires even when external senders have filled the queue', async () => {
    await t.close();
    t = testServices({ configToml: '[queue]\nmax_pending = 1\n' });
    const a = create('a');
    svc().update('main', a.id, { blocked_by: 'x', recheck_after: 10 });
    await t.s.ingress.publicEnqueue('main', { text: 'fill the public budget' });
    t.clock.advance(10);
    expect(svc().runDueRechecks()).toBe(1);
    expect(svc().get('main', a.id).recheck_consumed_at).not.toBeNull();
  });

  it('the real timer fires a recheck on its own once it is due (armed at start and after changes)', async () => {
    const a = create('a');
    // Due immediately on the ManualClock: the armed setTimeout(0) runs it without a manual call.
    svc().update('main', a.id, { blocked_by: 'x', recheck_after: 0 });
    await new Promise((r) => setTimeout(r, 20));
    expect(svc().get('main', a.id).recheck_consumed_at).not.toBeNull();
    expect(drainTicks()).toHaveLength(1);
  });

  it('a recheck that came due while the services were down fires once at start()', async () => {
    const a = create('a');
    svc().update('main', a.id, { blocked_by: 'x', recheck_after: 60_000 });
    t.clock.advance(120_000);
    await restart();
    await new Promise((r) => setTimeout(r, 20));
    expect(svc().get('main', a.id).recheck_consumed_at).toBe(new Date(t.clock.now()).toISOString());
    expect(svc().runDueRechecks()).toBe(0);
    expect(t.s.queue.pendingByPriority('main').next).toBe(1);
  });

  it('stop() clears the timer: nothing fires after stop', async () => {
    const a = create('a');
    svc().stop();
    svc().update('main', a.id, { blocked_by: 'x', recheck_after: 0 });
    await new Promise((r) => setTimeout(r, 20));
    expect(svc().get('main', a.id).recheck_consumed_at).toBeNull();
  });
});

describe('state page and deletion', () => {
  it('stateFor gives slim items, open ones first, bounded to 50', () => {
    const first = create('first');
    svc().complete('main', first.id, { report_text: 'done' });
    const blocked = create('blocked');
    for (let i = 0; i < 55; i++) create(`item ${i}`);
    // The most recently updated open item comes first.
    t.clock.advance(1000);
    svc().update('main', blocked.id, { blocked_by: 'x' });
    const slim = svc().stateFor('main');
    expect(slim).toHaveLength(50);
    expect(slim.every((w) => w.state === 'open')).toBe(true);
    expect(slim[0]).toEqual({
      id: blocked.id,
      objective: 'blocked',
      state: 'open',
      plan_status: 'draft',
      readiness: 'blocked',
      blocked_by: 'x',
      revision: 2,
      updated_at: expect.any(String),
    });
    expect(Object.keys(slim[0]!).sort()).toEqual(['blocked_by', 'id', 'objective', 'plan_status', 'readiness', 'revision', 'state', 'updated_at']);
  });

  it('stateFor puts completed items after open ones', () => {
    const a = create('a');
    create('b');
    svc().complete('main', a.id, { report_text: 'done' });
    expect(svc().stateFor('main').map((w) => w.objective)).toEqual(['b', 'a']);
  });

  it('stopAgent purges the agent work items and focus (nothing revives in a new incarnation)', () => {
    t.s.agents.create('temp', {});
    const a = create('a', 'temp');
    svc().pick('temp', a.id);
    const kept = create('kept');
    svc().stopAgent('temp');
    expect(svc().list('temp')).toEqual([]);
    expect(svc().currentFocus('temp')).toBeNull();
    expect(svc().list('main').map((w) => w.id)).toEqual([kept.id]);
  });
});

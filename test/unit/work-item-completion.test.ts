/**
 * The completion intent of a work item (spec "States and transitions / Work item": complete
 * "binds the completion intent"): POST complete and the complete tool store what the item was
 * completed with, by whom and when, serve it as `completion`, and work_item_completed carries it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { workItemRoutes } from '../../src/http/control/work-items.js';
import { createServices, startServices, stopServices } from '../../src/services.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { routeApp } from '../helpers/app.js';
import { testServices, type TestServices } from '../helpers/services.js';

let t: TestServices;
let app: FastifyInstance;
beforeEach(async () => {
  t = testServices();
  app = await routeApp(t.s, workItemRoutes(t.s));
});
afterEach(async () => {
  await app.close();
  await t.close();
});

const svc = () => t.s.workItems;
const base = '/api/control/agents/main/work-items';
const post = (url: string, payload: object) => app.inject({ method: 'POST', url, headers: { host: 'localhost' }, payload });
const lastEvent = () => t.s.events.page('main', { limit: 1000, order: 'asc', max_level: 'debug' }).events.at(-1)!;

describe('completion intent', () => {
  it('POST complete stores it (operator, time, report, authority, result brief, plan hash) and work_item_completed carries it', async () => {
    const item = svc().create('main', { objective: 'ship' });
    fs.writeFileSync(path.join(t.s.agents.homeOf('main'), 'plan.md'), 'the plan');
    const planned = svc().update('main', item.id, { plan_artifact: { path: 'plan.md' } });
    expect(planned.completion).toBeNull();
    t.clock.advance(5000);
    const res = await post(`${base}/${item.id}/complete`, { report_text: 'shipped', authority_class: 'operator_instruction' });
    expect(res.statusCode, res.body).toBe(200);
    const brief = t.s.briefs.list('main', {}).find((b) => b.work_item_id === item.id)!;
    const completion = {
      result_summary: 'shipped',
      completed_by: 'operator',
      completed_at: new Date(t.clock.now()).toISOString(),
      authority_class: 'operator_instruction',
      result_brief_id: brief.brief_id,
      plan_hash: planned.plan_artifact!.hash,
    };
    expect(res.json()).toMatchObject({ state: 'completed', completion });
    expect(svc().get('main', item.id).completion).toEqual(completion);
    expect(lastEvent()).toMatchObject({ type: 'work_item_completed', payload: { work_item_id: item.id, completion } });
  });

  it('an open item has none; the service defaults to the operator and records an agent when told', () => {
    const a = svc().create('main', { objective: 'a' });
    const b = svc().create('main', { objective: 'b' });
    expect(svc().get('main', a.id).completion).toBeNull();
    expect(svc().complete('main', a.id, { report_text: 'done' }).completion).toMatchObject({ completed_by: 'operator', authority_class: null, plan_hash: null });
    expect(svc().complete('main', b.id, { report_text: 'done', completed_by: 'agent', authority_class: 'runtime_instruction' }).completion).toMatchObject({
      completed_by: 'agent',
      authority_class: 'runtime_instruction',
    });
  });

  it('finalising a legacy `completing` record without a report binds an intent without a brief', () => {
    const a = svc().create('main', { objective: 'a' });
    t.s.store.db.prepare("UPDATE work_items SET state = 'completing', result_summary = 'legacy' WHERE work_item_id = ?").run(a.id);
    expect(svc().complete('main', a.id, { report_text: '' }).completion).toMatchObject({ result_summary: 'legacy', result_brief_id: null, completed_by: 'operator' });
  });

  it('a refused completion stores no intent', () => {
    const a = svc().create('main', { objective: 'a' });
    expect(() => svc().complete('main', a.id, { report_text: ' ' })).toThrowError(expect.objectContaining({ code: 'empty_report' }));
    expect(svc().get('main', a.id).completion).toBeNull();
  });

  it('survives a restart', async () => {
    const a = svc().create('main', { objective: 'a' });
    const done = svc().complete('main', a.id, { report_text: 'kept' });
    await stopServices(t.s);
    const { home } = t;
    const s2 = createServices(loadConfig({ home }, {}), t.clock, createLogger('silent'));
    s2.runLoop.scheduler.disable();
    startServices(s2);
    t = { ...t, s: s2, close: async () => { await stopServices(s2); fs.rmSync(home, { recursive: true, force: true }); } };
    expect(s2.workItems.get('main', a.id).completion).toEqual(done.completion);
  });
});

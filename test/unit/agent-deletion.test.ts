import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { createServices, startServices, stopServices } from '../../src/services.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { testServices, type TestServices } from '../helpers/services.js';

let t: TestServices;
beforeEach(() => {
  t = testServices();
});
afterEach(() => t.close());

describe('agent deletion job', () => {
  it('walks its phases to completed, purging queue, log and home; re-creation is a new incarnation', async () => {
    const { s } = t;
    s.agents.create('doomed', { template: 'default' });
    await s.ingress.controlPrompt('doomed', 'hello');
    expect(fs.existsSync(s.agents.homeOf('doomed'))).toBe(true);
    const job = s.deletion.request('doomed', { cascadePrivateChildren: false });
    expect(job.status).toBe('pending');
    expect(s.agents.get('doomed').status).toBe('deleting');
    await s.deletion.idle();
    expect(s.jobs.get(job.job_id)).toMatchObject({ status: 'completed', phase: 'finalizing', error: null });
    expect(s.agents.find('doomed')).toBeNull();
    // The log is gone but its head is kept: the next incarnation continues after it.
    const head = s.events.head('doomed');
    expect(head).toBeGreaterThan(1);
    expect(s.events.page('doomed', { limit: 10, order: 'asc', max_level: 'debug' }).events).toEqual([]);
    expect(s.queue.pending('doomed')).toBe(0);
    expect(fs.existsSync(s.agents.homeOf('doomed'))).toBe(false);
    const again = s.agents.create('doomed', {});
    expect(again).toMatchObject({ created: true, agent: { incarnation: 2 } });
    const fresh = s.events.page('doomed', { limit: 10, order: 'asc', max_level: 'debug' }).events;
    expect(fresh.map((e) => [e.type, e.event_seq])).toEqual([['agent_created', head + 1]]);
  });

  it('the kept head survives a restart: an incarnation created after it still continues the log', async () => {
    const { s } = t;
    s.agents.create('doomed', {});
    await s.ingress.controlPrompt('doomed', 'hello');
    s.deletion.request('doomed', { cascadePrivateChildren: false });
    await s.deletion.idle();
    const head = s.events.head('doomed');
    expect(head).toBeGreaterThan(1);
    await stopServices(s);
    const again = createServices(loadConfig({ home: t.home }, {}), t.clock, createLogger('silent'));
    startServices(again);
    try {
      again.agents.create('doomed', {});
      expect(again.events.page('doomed', { limit: 10, order: 'asc', max_level: 'debug' }).events[0]).toMatchObject({ type: 'agent_created', event_seq: head + 1 });
    } finally {
      await stopServices(again);
      // Both are stopped: the afterEach only removes the home.
      const home = t.home;
      t = { ...t, close: async () => fs.rmSync(home, { recursive: true, force: true }) };
    }
  });

  it('refuses mutations and re-creation while deleting, and a deletion of the default agent', async () => {
    const { s } = t;
    s.agents.create('x', {});
    s.deletion.request('x', { cascadePrivateChildren: false });
    expect(() => s.agents.create('x', {}, (id) => s.deletion.latestJob(id)?.job_id ?? null)).toThrowError(
      expect.objectContaining({ status: 409, code: 'deletion_incomplete' }),
    );
    expect(() => s.agents.rename('x', 'y')).toThrowError(expect.objectContaining({ code: 'agent_deleting' }));
    await expect(s.ingress.controlPrompt('x', 'hi')).rejects.toMatchObject({ code: 'agent_deleting' });
    expect(() => s.deletion.request('main', { cascadePrivateChildren: false })).toThrowError(expect.objectContaining({ code: 'default_agent_protected' }));
    await s.deletion.idle();
  });

  it('needs cascade for private subagents and then deletes them too', async () => {
    const { s } = t;
    s.agents.create('parent', {});
    s.agents.create('child', { parent_agent_id: 'parent', visibility: 'private' });
    expect(() => s.deletion.request('parent', { cascadePrivateChildren: false })).toThrowError(expect.objectContaining({ code: 'private_children_exist' }));
    s.deletion.request('parent', { cascadePrivateChildren: true });
    await s.deletion.idle();
    expect(s.agents.find('parent')).toBeNull();
    expect(s.agents.find('child')).toBeNull();
  });

  it('resumes an unfinished deletion from its persisted phase', async () => {
    const { s } = t;
    s.agents.create('half', {});
    // As a daemon that died during purging_events would have left it:
    const job = s.store.tx(() => {
      s.agents.setStatus('half', 'deleting');
      const j = s.jobs.create('agent_delete', 'half', {});
      return s.jobs.update(j.job_id, { status: 'running', phase: 'purging_events' });
    });
    s.deletion.resumeUnfinished();
    await s.deletion.idle();
    expect(s.jobs.get(job.job_id).status).toBe('completed');
    expect(s.agents.find('half')).toBeNull();
  });

  it('a failed phase leaves the job failed and the agent deleting; a new DELETE retries', async () => {
    const { s } = t;
    s.agents.create('stuck', {});
    let failOnce = true;
    s.deletion.onStop(() => {
      if (failOnce) {
        failOnce = false;
        throw new Error('task would not stop');
      }
    });
    const first = s.deletion.request('stuck', { cascadePrivateChildren: false });
    await s.deletion.idle();
    expect(s.jobs.get(first.job_id)).toMatchObject({ status: 'failed', error: 'stopping: task would not stop' });
    expect(s.agents.get('stuck').status).toBe('deleting');
    const retry = s.deletion.request('stuck', { cascadePrivateChildren: false });
    expect(retry.job_id).not.toBe(first.job_id);
    await s.deletion.idle();
    expect(s.jobs.get(retry.job_id).status).toBe('completed');
  });
});

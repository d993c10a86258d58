/**
 * The agent bootstrap's `initial_message` step (spec "Control plane", repair row): a directory
 * template's INITIAL_MESSAGE.md is enqueued once to the new agent as a runtime-owned message, in
 * the transaction that records the step; a failed step stays pending and repair enqueues it
 * exactly once; agents stored before the step existed count it as done. In process, and through
 * the HTTP routes with inject.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errors } from '../../src/core/errors.js';
import { agentRoutes } from '../../src/http/control/agents.js';
import { agentDetail } from '../../src/runtime/views/agent-views.js';
import type { Message } from '../../src/runtime/agents/queue.js';
import { routeApp } from '../helpers/app.js';
import { testServices, type TestServices } from '../helpers/services.js';

let t: TestServices;
beforeEach(() => {
  t = testServices();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await t.close();
});

const GREETING = '# Welcome\n\nRead AGENT.md, then say hello.\n';

/** A directory template `<home>/templates/<name>` with the given files. */
function template(name: string, files: Record<string, string>): string {
  const dir = path.join(t.home, 'templates', name);
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
  return dir;
}

/** Every message of the agent, oldest first, whatever its status. */
function messagesOf(agentId: string): Message[] {
  const ids = t.s.store.db.prepare('SELECT message_id FROM messages WHERE agent_id = ? ORDER BY seq').pluck().all(agentId) as string[];
  return ids.map((id) => t.s.queue.get(id)!);
}

function eventTypes(agentId: string): string[] {
  return t.s.events.page(agentId, { limit: 1000, order: 'asc', max_level: 'debug' }).events.map((e) => e.type);
}

const pendingSteps = (agentId: string) => agentDetail(t.s, t.s.agents.get(agentId)).bootstrap.pending_steps;

describe('initial_message at create', () => {
  it('a directory template with INITIAL_MESSAGE.md queues exactly one runtime-owned message with its text', () => {
    template('greeter', { 'NOTES.md': 'notes\n', 'INITIAL_MESSAGE.md': GREETING });
    const { created, agent } = t.s.agents.create('greeted', { template: 'greeter' });
    expect(created).toBe(true);
    expect(agent.bootstrap).toEqual({ home_dir: true, template: true, workspace: true, initial_message: true });

    const messages = messagesOf('greeted');
    expect(messages).toHaveLength(1);
    const m = messages[0]!;
    expect(m.body).toEqual({ type: 'text', text: GREETING });
    expect(m.origin).toEqual({ kind: 'system', subsystem: 'bootstrap' });
    expect(m).toMatchObject({
      kind: 'internal_followup',
      trust: 'trusted_system',
      authority_class: 'runtime_instruction',
      priority: 'normal',
      delivery_surface: 'runtime',
      status: 'queued',
    });
    expect(m.metadata).toEqual({ bootstrap: true, template: 'greeter' });
    expect(eventTypes('greeted')).toEqual(['agent_created', 'message_enqueued']);

    // The other files are copied; the initial message is not a file of the agent home.
    const home = t.s.agents.homeOf('greeted');
    expect(fs.readFileSync(path.join(home, 'NOTES.md'), 'utf8')).toBe('notes\n');
    expect(fs.existsSync(path.join(home, 'INITIAL_MESSAGE.md'))).toBe(false);
  });

  it.each([
    ['no template', undefined],
    ['the built-in default template', 'default'],
    ['a directory template without INITIAL_MESSAGE.md', 'plain'],
    ['a whitespace-only INITIAL_MESSAGE.md', 'blank'],
  ])('%s completes the step without a message', (_what, name) => {
    template('plain', { 'NOTES.md': 'n\n' });
    template('blank', { 'INITIAL_MESSAGE.md': ' \n\t\n' });
    const { agent } = t.s.agents.create('quiet', { template: name });
    expect(agent.bootstrap.initial_message).toBe(true);
    expect(pendingSteps('quiet')).toEqual([]);
    expect(messagesOf('quiet')).toEqual([]);
  });
});

describe('a failed initial_message step and repair', () => {
  it('the queue refusing leaves the step pending, nothing queued; repair then enqueues it exactly once', () => {
    template('greeter', { 'INITIAL_MESSAGE.md': GREETING });
    const enqueue = vi.spyOn(t.s.queue, 'enqueue').mockImplementationOnce(() => {
      throw errors.overloaded('refused for the test');
    });
    const { created } = t.s.agents.create('flaky', { template: 'greeter' });
    expect(created).toBe(true);
    expect(enqueue).toHaveBeenCalledTimes(1);
    expect(pendingSteps('flaky')).toEqual(['initial_message']);
    expect(messagesOf('flaky')).toEqual([]);

    const first = t.s.agents.repair('flaky');
    expect(first).toMatchObject({ completed: ['initial_message'], pending: [], error: null });
    expect(messagesOf('flaky').map((m) => (m.body as { text: string }).text)).toEqual([GREETING]);
    expect(pendingSteps('flaky')).toEqual([]);

    const second = t.s.agents.repair('flaky');
    expect(second).toMatchObject({ completed: [], pending: [], error: null });
    expect(messagesOf('flaky')).toHaveLength(1);
    expect(eventTypes('flaky').filter((e) => e === 'agent_repaired')).toHaveLength(1);
  });

  it('an unreadable INITIAL_MESSAGE.md leaves the step pending with the reason; repair after the fix enqueues once', () => {
    const dir = template('broken', { 'NOTES.md': 'n\n' });
    fs.mkdirSync(path.join(dir, 'INITIAL_MESSAGE.md')); // a directory: cannot be read as the message
    t.s.agents.create('stuck', { template: 'broken' });
    expect(pendingSteps('stuck')).toEqual(['initial_message']);
    const failed = t.s.agents.repair('stuck');
    expect(failed.completed).toEqual([]);
    expect(failed.pending).toEqual(['initial_message']);
    expect(failed.error).toMatch(/^initial_message: INITIAL_MESSAGE\.md of template "broken" is not a regular file/);
    expect(messagesOf('stuck')).toEqual([]);

    fs.rmdirSync(path.join(dir, 'INITIAL_MESSAGE.md'));
    fs.writeFileSync(path.join(dir, 'INITIAL_MESSAGE.md'), 'fixed\n');
    expect(t.s.agents.repair('stuck')).toMatchObject({ completed: ['initial_message'], pending: [], error: null });
    expect(t.s.agents.repair('stuck').completed).toEqual([]);
    expect(messagesOf('stuck').map((m) => (m.body as { text: string }).text)).toEqual(['fixed\n']);
  });

  it('a template removed before repair keeps the step pending (not silently skipped)', () => {
    const dir = template('fleeting', { 'INITIAL_MESSAGE.md': GREETING });
    vi.spyOn(t.s.queue, 'enqueue').mockImplementationOnce(() => {
      throw new Error('refused for the test');
    });
    t.s.agents.create('orphan', { template: 'fleeting' });
    fs.rmSync(dir, { recursive: true });
    const r = t.s.agents.repair('orphan');
    expect(r.pending).toEqual(['initial_message']);
    expect(r.error).toMatch(/template "fleeting" no longer exists/);
    expect(messagesOf('orphan')).toEqual([]);
  });

  it('the message and the step record commit together: a failed record write takes the message back', () => {
    template('greeter', { 'INITIAL_MESSAGE.md': GREETING });
    // The write that marks initial_message done fails inside the transaction, after the enqueue.
    t.s.store.db.exec(`CREATE TEMP TRIGGER refuse_record BEFORE UPDATE OF bootstrap ON agents
      WHEN json_extract(NEW.bootstrap, '$.initial_message') = 1 BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`);
    t.s.agents.create('atomic', { template: 'greeter' });
    expect(pendingSteps('atomic')).toEqual(['initial_message']);
    expect(messagesOf('atomic')).toEqual([]);
    expect(eventTypes('atomic')).toEqual(['agent_created']);
    expect(t.s.queue.pending('atomic')).toBe(0);

    t.s.store.db.exec('DROP TRIGGER refuse_record');
    expect(t.s.agents.repair('atomic').completed).toEqual(['initial_message']);
    expect(messagesOf('atomic')).toHaveLength(1);
    expect(t.s.queue.pending('atomic')).toBe(1);
  });

  it('a message already processed is not sent again by repair', () => {
    template('greeter', { 'INITIAL_MESSAGE.md': GREETING });
    t.s.agents.create('served', { template: 'greeter' });
    t.s.store.tx(() => {
      const m = t.s.queue.claimNext('served')!;
      t.s.queue.finish(m.message_id, 'completed');
    });
    expect(t.s.agents.repair('served').completed).toEqual([]);
    expect(messagesOf('served').map((m) => m.status)).toEqual(['completed']);
  });
});

describe('agents stored before the step existed', () => {
  it('a bootstrap record without initial_message counts it as done: no message at start, on repair, or after a later step is repaired', () => {
    template('greeter', { 'INITIAL_MESSAGE.md': GREETING });
    t.s.agents.create('veteran', { template: 'greeter' });
    t.s.agents.create('veteran2', { template: 'greeter' });
    // What an older daemon wrote: the three original steps, one of them still pending.
    t.s.store.db.exec("DELETE FROM messages WHERE agent_id IN ('veteran', 'veteran2')");
    const old = t.s.store.db.prepare('UPDATE agents SET bootstrap = ? WHERE agent_id = ?');
    old.run(JSON.stringify({ home_dir: true, template: true, workspace: true }), 'veteran');
    old.run(JSON.stringify({ home_dir: true, template: true, workspace: false }), 'veteran2');

    expect(t.s.agents.get('veteran').bootstrap.initial_message).toBe(true);
    expect(pendingSteps('veteran')).toEqual([]);
    expect(t.s.agents.repair('veteran')).toMatchObject({ completed: [], pending: [] });
    expect(pendingSteps('veteran2')).toEqual(['workspace']);
    expect(t.s.agents.repair('veteran2')).toMatchObject({ completed: ['workspace'], pending: [] });
    expect(messagesOf('veteran')).toEqual([]);
    expect(messagesOf('veteran2')).toEqual([]);
  });
});

describe('HTTP: create, detail and repair (inject)', () => {
  let app: FastifyInstance;
  beforeEach(async () => {
    app = await routeApp(t.s, agentRoutes(t.s));
  });
  afterEach(() => app.close());

  const post = (url: string, payload?: object) =>
    app.inject({ method: 'POST', url, headers: { host: 'localhost' }, ...(payload === undefined ? {} : { payload }) });
  const get = (url: string) => app.inject({ method: 'GET', url, headers: { host: 'localhost' } });

  it('a pending initial_message shows in the detail; repair reports it completed once, with one agent_repaired event', async () => {
    template('greeter', { 'INITIAL_MESSAGE.md': GREETING });
    vi.spyOn(t.s.queue, 'enqueue').mockImplementationOnce(() => {
      throw errors.overloaded('refused for the test');
    });
    const created = await post('/api/control/agents/web/create', { template: 'greeter' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().agent.bootstrap).toEqual({ complete: false, pending_steps: ['initial_message'] });
    expect((await get('/api/control/agents/web/detail')).json().bootstrap.pending_steps).toEqual(['initial_message']);

    const repaired = await post('/api/control/agents/web/repair');
    expect(repaired.statusCode, repaired.body).toBe(200);
    expect(repaired.json()).toMatchObject({
      ok: true,
      agent_id: 'web',
      completed: ['initial_message'],
      pending: [],
      error: null,
      agent: { bootstrap: { complete: true, pending_steps: [] }, pending_messages: 1 },
    });
    const again = await post('/api/control/agents/web/repair');
    expect(again.json()).toMatchObject({ completed: [], pending: [], error: null, agent: { pending_messages: 1 } });

    const events = t.s.events.page('web', { limit: 1000, order: 'asc', max_level: 'debug' }).events;
    expect(events.map((e) => e.type)).toEqual(['agent_created', 'message_enqueued', 'agent_repaired']);
    expect(events[2]!.payload).toEqual({ agent_id: 'web', completed: ['initial_message'], pending: [] });
    expect(messagesOf('web')).toHaveLength(1);
  });

  it('repair of an unknown agent is 404 agent_not_found and changes nothing', async () => {
    const r = await post('/api/control/agents/ghost/repair');
    expect(r.statusCode).toBe(404);
    expect(r.json()).toMatchObject({ ok: false, code: 'agent_not_found' });
    expect(t.s.agents.find('ghost')).toBeNull();
  });
});

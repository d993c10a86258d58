/**
 * Agents (docs/control-plane-api.md#agents, spec "Agent identity and deletion") against the real
 * daemon: the default agent, create (idempotent, ids, templates, lineage, visibility), rename,
 * repair, asynchronous deletion with a job, re-creation as a new incarnation with a fresh event
 * log, and the status/state pages.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startDaemon, stopAgent, type HttpResult, type RunningDaemon } from '../helpers/daemon.js';

let d: RunningDaemon;

beforeAll(async () => {
  d = await startDaemon();
});

afterAll(async () => {
  await d?.stop();
  if (d) fs.rmSync(d.home, { recursive: true, force: true });
});

function expectError(res: HttpResult, status: number, code: string): void {
  expect({ status: res.status, code: res.json?.code }, res.text).toEqual({ status, code });
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.json.ok).toBe(false);
  expect(res.json.error).toBeTypeOf('string');
}

const create = (id: string, body: unknown = {}) => request(d, 'POST', `/api/control/agents/${encodeURIComponent(id)}/create`, { body });
const detail = (id: string) => request(d, 'GET', `/api/control/agents/${encodeURIComponent(id)}/detail`);

async function eventsAsc(id: string): Promise<Array<{ event_seq: number; type: string; payload: Record<string, unknown>; agent_id: string }>> {
  const res = await request(d, 'GET', `/api/agents/${id}/events?order=asc&limit=1000`);
  expect(res.status, res.text).toBe(200);
  return res.json.events;
}

async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await fn();
  while (!ok(last)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 20));
    last = await fn();
  }
  return last;
}

async function deleteAndWait(id: string, query = ''): Promise<Record<string, unknown>> {
  const res = await request(d, 'DELETE', `/api/control/agents/${id}${query}`);
  expect(res.status, res.text).toBe(202);
  const done = await waitFor(
    () => request(d, 'GET', `/api/control/agents/${id}/delete-status`),
    (r) => r.json?.job?.status === 'completed' || r.json?.job?.status === 'failed',
    `deletion of ${id}`,
  );
  expect(done.json.job.status, done.text).toBe('completed');
  return done.json.job;
}

function homeOf(det: HttpResult, id: string): string {
  return typeof det.json.home_dir === 'string' ? det.json.home_dir : path.join(d.home, 'agents', id);
}

describe('the default agent', () => {
  it('exists on first start: GET /api/ names it and it is in agents/list', async () => {
    const root = await request(d, 'GET', '/api/');
    expect(root.status).toBe(200);
    expect(root.json).toEqual({ ok: true, default_agent: 'main' });
    const list = await request(d, 'GET', '/api/agents/list');
    expect(list.status).toBe(200);
    const main = list.json.find((a: { agent_id: string }) => a.agent_id === 'main');
    expect(main).toMatchObject({ agent_id: 'main', status: 'idle', visibility: 'public', is_default: true });
  });

  it('its log starts with agent_created at event_seq 1', async () => {
    const events = await eventsAsc('main');
    expect(events[0]).toMatchObject({ event_seq: 1, type: 'agent_created', agent_id: 'main' });
    expect(events[0]!.payload).toMatchObject({ agent_id: 'main', incarnation: 1 });
  });

  it('create on it answers 200 created:false', async () => {
    const res = await create('main');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ ok: true, created: false, agent: { agent_id: 'main' } });
  });

  it('DELETE answers 409 default_agent_protected and it stays', async () => {
    const res = await request(d, 'DELETE', '/api/control/agents/main');
    expectError(res, 409, 'default_agent_protected');
    expect((await detail('main')).json.status).toBe('idle');
    expectError(await request(d, 'GET', '/api/control/agents/main/delete-status'), 404, 'job_not_found');
  });

  it('a configured default_agent is created on first start', async () => {
    const other = await startDaemon({ configToml: 'default_agent = "boss"\n' });
    try {
      expect((await request(other, 'GET', '/api/')).json.default_agent).toBe('boss');
      const list = await request(other, 'GET', '/api/agents/list');
      expect(list.json.map((a: { agent_id: string }) => a.agent_id)).toEqual(['boss']);
      expect(list.json[0].is_default).toBe(true);
    } finally {
      await other.stop();
      fs.rmSync(other.home, { recursive: true, force: true });
    }
  });
});

describe('create', () => {
  it('a new agent: 201 created:true with its detail', async () => {
    const res = await create('alpha');
    expect(res.status, res.text).toBe(201);
    expect(res.json.ok).toBe(true);
    expect(res.json.created).toBe(true);
    const a = res.json.agent;
    expect(a).toMatchObject({
      agent_id: 'alpha',
      display_name: 'alpha',
      identity: { agent_id: 'alpha', incarnation: 1 },
      status: 'idle',
      model: 'builtin/echo',
      model_override: null,
      template: null,
      parent_agent_id: null,
      lineage: [],
      visibility: 'public',
    });
    expect(Date.parse(a.identity.created_at)).not.toBeNaN();
    const { updated_at: _u1, ...fromCreate } = a;
    const { updated_at: _u2, ...fromDetail } = (await detail('alpha')).json;
    expect(fromDetail).toEqual(fromCreate);
  });

  it('again: 200 created:false, same identity, no second agent_created', async () => {
    const before = await eventsAsc('alpha');
    const res = await create('alpha', { visibility: 'private' });
    expect(res.status).toBe(200);
    expect(res.json.created).toBe(false);
    expect(res.json.agent.identity.incarnation).toBe(1);
    expect(res.json.agent.visibility).toBe('public');
    expect(await eventsAsc('alpha')).toEqual(before);
  });

  it('writes agent_created into the new log', async () => {
    const events = await eventsAsc('alpha');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ event_seq: 1, type: 'agent_created', agent_id: 'alpha' });
    expect(events[0]!.payload).toMatchObject({ agent_id: 'alpha', incarnation: 1 });
  });

  it('shows up in agents/list', async () => {
    const list = await request(d, 'GET', '/api/agents/list');
    const entry = list.json.find((a: { agent_id: string }) => a.agent_id === 'alpha');
    expect(entry).toMatchObject({ agent_id: 'alpha', display_name: 'alpha', status: 'idle', visibility: 'public', is_default: false });
  });

  it.each(['-bad', '.hidden', '_x', 'a'.repeat(65), 'has space', 'sl/ash', 'ünï', 'a:b'])('invalid id %j -> 400 invalid_agent_id', async (id) => {
    const res = await create(id);
    expectError(res, 400, 'invalid_agent_id');
    const list = await request(d, 'GET', '/api/agents/list');
    expect(list.json.map((a: { agent_id: string }) => a.agent_id)).not.toContain(id);
  });

  it.each(['a', 'A.b_c-9', 'x'.repeat(64), '9lives'])('valid id %j is accepted', async (id) => {
    const res = await create(id);
    expect(res.status, res.text).toBe(201);
    expect(res.json.agent.agent_id).toBe(id);
  });

  it('an unknown template -> 400 template_not_found, nothing created', async () => {
    expectError(await create('tpl-x', { template: 'no-such-template' }), 400, 'template_not_found');
    expectError(await detail('tpl-x'), 404, 'agent_not_found');
  });

  it.each(['..', '../..', '../agents/main', '/etc', '../../../../../../etc', 'toString', '__proto__', 'constructor'])(
    'template %j names no template (no path traversal, no prototype keys) -> 400 template_not_found',
    async (template) => {
      expectError(await create('tpl-evil', { template }), 400, 'template_not_found');
      expectError(await detail('tpl-evil'), 404, 'agent_not_found');
    },
  );

  it('template "default" writes AGENT.md into the agent home', async () => {
    const res = await create('tpl-default', { template: 'default' });
    expect(res.status, res.text).toBe(201);
    expect(res.json.agent.template).toBe('default');
    const file = path.join(homeOf(await detail('tpl-default'), 'tpl-default'), 'AGENT.md');
    expect(fs.existsSync(file)).toBe(true);
    expect(fs.readFileSync(file, 'utf8').length).toBeGreaterThan(0);
  });

  it('a template directory under <home>/templates is copied into the agent home', async () => {
    const dir = path.join(d.home, 'templates', 'custom');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'NOTES.md'), 'custom template\n');
    const res = await create('tpl-custom', { template: 'custom' });
    expect(res.status, res.text).toBe(201);
    const file = path.join(homeOf(await detail('tpl-custom'), 'tpl-custom'), 'NOTES.md');
    expect(fs.readFileSync(file, 'utf8')).toBe('custom template\n');
  });

  it("a template's INITIAL_MESSAGE.md is not copied; its text is enqueued once to the new agent", async () => {
    const dir = path.join(d.home, 'templates', 'greeter');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'NOTES.md'), 'notes\n');
    fs.writeFileSync(path.join(dir, 'INITIAL_MESSAGE.md'), 'Say hello.\n');
    const res = await create('tpl-greeted', { template: 'greeter' });
    expect(res.status, res.text).toBe(201);
    expect(res.json.agent.bootstrap).toEqual({ complete: true, pending_steps: [] });
    const home = homeOf(await detail('tpl-greeted'), 'tpl-greeted');
    expect(fs.existsSync(path.join(home, 'NOTES.md'))).toBe(true);
    expect(fs.existsSync(path.join(home, 'INITIAL_MESSAGE.md'))).toBe(false);
    const enqueued = (await eventsAsc('tpl-greeted')).filter((e) => e.type === 'message_enqueued');
    expect(enqueued).toHaveLength(1);
    expect(enqueued[0]!.payload).toMatchObject({
      kind: 'internal_followup',
      body: { type: 'text', text: 'Say hello.\n' },
      metadata: { bootstrap: true, template: 'greeter' },
      provenance: { origin: { kind: 'system', subsystem: 'bootstrap' }, trust: 'trusted_system' },
    });
    expect((await request(d, 'POST', '/api/control/agents/tpl-greeted/repair')).json).toMatchObject({ completed: [], pending: [] });
    expect((await eventsAsc('tpl-greeted')).filter((e) => e.type === 'message_enqueued')).toHaveLength(1);
  });

  it('visibility private is kept in the detail and the list', async () => {
    const res = await create('hidden-one', { visibility: 'private' });
    expect(res.status).toBe(201);
    expect(res.json.agent.visibility).toBe('private');
    const list = await request(d, 'GET', '/api/agents/list');
    expect(list.json.find((a: { agent_id: string }) => a.agent_id === 'hidden-one')?.visibility).toBe('private');
  });

  it('an unknown parent -> 400 parent_not_found, nothing created', async () => {
    expectError(await create('orphan', { parent_agent_id: 'nobody' }), 400, 'parent_not_found');
    expectError(await detail('orphan'), 404, 'agent_not_found');
  });
});

describe('lineage', () => {
  beforeAll(async () => {
    expect((await create('lin-root')).status).toBe(201);
    expect((await create('lin-child', { parent_agent_id: 'lin-root' })).status).toBe(201);
    expect((await create('lin-grand', { parent_agent_id: 'lin-child', visibility: 'private' })).status).toBe(201);
  });

  it('parent_agent_id and lineage in the detail', async () => {
    const child = (await detail('lin-child')).json;
    expect(child.parent_agent_id).toBe('lin-root');
    expect(child.lineage).toEqual(['lin-root']);
    const grand = (await detail('lin-grand')).json;
    expect(grand.parent_agent_id).toBe('lin-child');
    expect([...grand.lineage].sort()).toEqual(['lin-child', 'lin-root']);
    expect(grand.lineage).toHaveLength(2);
    expect((await detail('lin-root')).json.lineage).toEqual([]);
  });

  it('GET /api/control/agents/tree nests them with their lineage', async () => {
    const res = await request(d, 'GET', '/api/control/agents/tree');
    expect(res.status).toBe(200);
    const roots = res.json.agents as Array<{ agent_id: string; lineage: string[]; parent_agent_id: string | null; children: any[] }>; // eslint-disable-line @typescript-eslint/no-explicit-any
    const root = roots.find((n) => n.agent_id === 'lin-root');
    expect(root).toBeDefined();
    expect(root!.lineage).toEqual([]);
    expect(root!.children.map((c) => c.agent_id)).toEqual(['lin-child']);
    const child = root!.children[0];
    expect(child.parent_agent_id).toBe('lin-root');
    expect(child.lineage).toEqual(['lin-root']);
    expect(child.children.map((c: { agent_id: string }) => c.agent_id)).toEqual(['lin-grand']);
    const grand = child.children[0];
    expect([...grand.lineage].sort()).toEqual(['lin-child', 'lin-root']);
    // Children are not repeated as roots.
    expect(roots.map((n) => n.agent_id)).not.toContain('lin-child');
    expect(roots.map((n) => n.agent_id)).not.toContain('lin-grand');
    expect(roots.map((n) => n.agent_id)).toContain('main');
  });

  it('a private root agent is not in the tree', async () => {
    const res = await request(d, 'GET', '/api/control/agents/tree');
    const ids = JSON.stringify(res.json.agents);
    expect(ids).not.toContain('"hidden-one"');
  });
});

describe('rename', () => {
  beforeAll(async () => {
    expect((await create('namer')).status).toBe(201);
  });

  it('changes display_name, keeps agent_id, emits agent_renamed', async () => {
    const res = await request(d, 'PATCH', '/api/control/agents/namer/name', { body: { name: '  Research Bot  ' } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.agent_id).toBe('namer');
    expect(res.json.display_name).toBe('Research Bot');
    expect((await detail('namer')).json.display_name).toBe('Research Bot');
    const list = await request(d, 'GET', '/api/agents/list');
    expect(list.json.find((a: { agent_id: string }) => a.agent_id === 'namer')?.display_name).toBe('Research Bot');
    const events = await eventsAsc('namer');
    const last = events[events.length - 1]!;
    expect(last.type).toBe('agent_renamed');
    expect(last.event_seq).toBe(2);
    expect(last.payload).toMatchObject({ agent_id: 'namer', from: 'namer', to: 'Research Bot' });
  });

  it.each(['', '   '])('empty name %j -> 400, unchanged, no event', async (name) => {
    const before = await eventsAsc('namer');
    const res = await request(d, 'PATCH', '/api/control/agents/namer/name', { body: { name } });
    expectError(res, 400, 'empty_name');
    expect((await detail('namer')).json.display_name).toBe('Research Bot');
    expect(await eventsAsc('namer')).toEqual(before);
  });

  it('an unknown agent -> 404 agent_not_found', async () => {
    expectError(await request(d, 'PATCH', '/api/control/agents/nobody/name', { body: { name: 'x' } }), 404, 'agent_not_found');
  });

  it('a name over 256 characters -> 400, unchanged, no event', async () => {
    const before = await eventsAsc('namer');
    expectError(await request(d, 'PATCH', '/api/control/agents/namer/name', { body: { name: 'n'.repeat(100_000) } }), 400, 'invalid_request');
    expect(await eventsAsc('namer')).toEqual(before);
  });

  it('only public self-owned agents: a private agent or one with a parent -> 409 agent_not_renamable, no event', async () => {
    expect((await create('private-namer', { visibility: 'private' })).status).toBe(201);
    expect((await create('child-namer', { parent_agent_id: 'namer' })).status).toBe(201);
    for (const id of ['private-namer', 'child-namer']) {
      const before = await eventsAsc(id);
      expectError(await request(d, 'PATCH', `/api/control/agents/${id}/name`, { body: { name: 'Renamed' } }), 409, 'agent_not_renamable');
      expect((await detail(id)).json.display_name).toBe(id);
      expect(await eventsAsc(id)).toEqual(before);
    }
  });
});

describe('repair', () => {
  it('reports completed and pending bootstrap steps without touching identity', async () => {
    expect((await create('fixme', { template: 'default' })).status).toBe(201);
    const res = await request(d, 'POST', '/api/control/agents/fixme/repair');
    expect(res.status, res.text).toBe(200);
    expect(res.json.ok).toBe(true);
    expect(Array.isArray(res.json.completed)).toBe(true);
    expect(Array.isArray(res.json.pending)).toBe(true);
    expect(res.json.pending).toEqual([]); // a healthy agent has nothing left to do
    expect(res.json.agent.identity.incarnation).toBe(1);
    expect(res.json.agent.agent_id).toBe('fixme');
  });
});

describe('status and state pages', () => {
  beforeAll(async () => {
    expect((await create('pages')).status).toBe(201);
  });

  it('status is the AgentSummary', async () => {
    const res = await request(d, 'GET', '/api/agents/pages/status');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ agent_id: 'pages', display_name: 'pages', status: 'idle', pending_messages: 0 });
  });

  it('state is the bounded bootstrap page', async () => {
    // Stopped, so the run loop leaves the message queued and the pending count is exact.
    await stopAgent(d, 'pages');
    expect((await request(d, 'POST', '/api/agents/pages/enqueue', { body: { text: 'one' } })).status).toBe(202);
    const res = await request(d, 'GET', '/api/agents/pages/state');
    expect(res.status).toBe(200);
    const s = res.json;
    expect(s.agent).toMatchObject({ agent_id: 'pages', status: 'stopped' });
    expect(s.session.pending_count).toBe(1);
    for (const key of ['tasks', 'timers', 'work_items', 'waiting_intents', 'external_triggers']) {
      expect(Array.isArray(s[key]), key).toBe(true);
    }
    expect(s.workspaces).toBeTypeOf('object');
    expect(s.workspaces).not.toBeNull();
    expect((await request(d, 'GET', '/api/agents/pages/status')).json.pending_messages).toBe(1);
  });
});

describe('delete and re-create', () => {
  let firstCreatedAt: string;
  /** The last event_seq of the first incarnation's log. */
  let oldHead = 0;

  beforeAll(async () => {
    const res = await create('doomed', { template: 'default' });
    expect(res.status).toBe(201);
    firstCreatedAt = res.json.agent.identity.created_at;
    expect((await request(d, 'POST', '/api/agents/doomed/enqueue', { body: { text: 'old message' } })).status).toBe(202);
    expect((await request(d, 'PATCH', '/api/control/agents/doomed/name', { body: { name: 'Old Name' } })).status).toBe(200);
    fs.writeFileSync(path.join(homeOf(await detail('doomed'), 'doomed'), 'old-marker.txt'), 'from incarnation 1');
  });

  it('DELETE -> 202 with the job; delete-status reaches completed; the agent is then gone', async () => {
    oldHead = (await eventsAsc('doomed')).at(-1)!.event_seq;
    expect(oldHead).toBeGreaterThanOrEqual(3);
    const res = await request(d, 'DELETE', '/api/control/agents/doomed');
    expect(res.status, res.text).toBe(202);
    expect(res.json.ok).toBe(true);
    const job = res.json.job;
    expect(Object.keys(job)).toEqual(expect.arrayContaining(['job_id', 'agent_id', 'status', 'phase', 'error', 'created_at', 'updated_at']));
    expect(job.job_id).toMatch(/^job_/);
    expect(job.agent_id).toBe('doomed');
    expect(['pending', 'running', 'completed']).toContain(job.status);
    expect(job.error).toBeNull();

    const done = await waitFor(
      () => request(d, 'GET', '/api/control/agents/doomed/delete-status'),
      (r) => r.json?.job?.status === 'completed' || r.json?.job?.status === 'failed',
      'deletion',
    );
    expect(done.status).toBe(200);
    expect(done.json.job).toMatchObject({ job_id: job.job_id, agent_id: 'doomed', status: 'completed', error: null });

    expectError(await request(d, 'GET', '/api/agents/doomed/status'), 404, 'agent_not_found');
    expectError(await detail('doomed'), 404, 'agent_not_found');
    expectError(await request(d, 'GET', '/api/agents/doomed/events'), 404, 'agent_not_found');
    expectError(await request(d, 'POST', '/api/agents/doomed/enqueue', { body: { text: 'late' } }), 404, 'agent_not_found');
    const list = await request(d, 'GET', '/api/agents/list');
    expect(list.json.map((a: { agent_id: string }) => a.agent_id)).not.toContain('doomed');
    expect(fs.existsSync(path.join(d.home, 'agents', 'doomed', 'old-marker.txt'))).toBe(false);
  });

  it('re-create: 201, incarnation 2, a fresh log that continues after the old head, nothing of the old one', async () => {
    const res = await create('doomed');
    expect(res.status, res.text).toBe(201);
    expect(res.json.created).toBe(true);
    const a = res.json.agent;
    expect(a.identity.incarnation).toBe(2);
    expect(a.display_name).toBe('doomed');
    expect(a.template).toBeNull();
    expect(a.status).toBe('idle');
    expect(Date.parse(a.identity.created_at)).toBeGreaterThanOrEqual(Date.parse(firstCreatedAt));

    const events = await eventsAsc('doomed');
    // The deletion's own events went with the log; the new one starts past everything the old had.
    expect(events).toHaveLength(1);
    expect(events[0]!.event_seq).toBeGreaterThan(oldHead);
    expect(events[0]).toMatchObject({ type: 'agent_created' });
    expect(events[0]!.payload).toMatchObject({ incarnation: 2 });
    expect(JSON.stringify(events)).not.toContain('old message');
    expect(JSON.stringify(events)).not.toContain('Old Name');

    const status = await request(d, 'GET', '/api/agents/doomed/status');
    expect(status.json.pending_messages).toBe(0);
    const home = homeOf(await detail('doomed'), 'doomed');
    expect(fs.existsSync(path.join(home, 'old-marker.txt'))).toBe(false);
    expect(fs.existsSync(path.join(home, 'AGENT.md'))).toBe(false);

    // A client resuming from a cursor of the old log reads the new log from its start, never from
    // its middle; a cursor past the new head is still cursor_not_found.
    const resumed = await request(d, 'GET', `/api/agents/doomed/events?after_seq=${oldHead}&order=asc`);
    expect(resumed.json.events.map((e: { type: string }) => e.type)[0]).toBe('agent_created');
    const head = events[0]!.event_seq;
    // On the stream the replay window is the new log: the old head (the last event a client saw) is
    // its lower edge, an older cursor is below it.
    const below = await request(d, 'GET', '/api/agents/doomed/events/stream?after_seq=1');
    expectError(below, 404, 'cursor_not_found');
    expect(below.json).toMatchObject({ after_seq: 1, event_seq: head });
    const ahead = await request(d, 'GET', `/api/agents/doomed/events/stream?after_seq=${head + 5}`);
    expectError(ahead, 404, 'cursor_not_found');
    expect(ahead.json).toMatchObject({ after_seq: head + 5, event_seq: head });
  });

  it("the new incarnation's log goes on without gaps", async () => {
    // Stopping is the next event; stopped, the run loop adds nothing after the enqueue.
    await stopAgent(d, 'doomed');
    expect((await request(d, 'POST', '/api/agents/doomed/enqueue', { body: { text: 'new message' } })).status).toBe(202);
    const events = await eventsAsc('doomed');
    const first = events[0]!.event_seq;
    expect(events.map((e) => e.event_seq)).toEqual([first, first + 1, first + 2]);
    expect(events.map((e) => e.type)).toEqual(['agent_created', 'control_applied', 'message_enqueued']);
  });

  it('a third incarnation after another deletion continues after the second one', async () => {
    const secondHead = (await eventsAsc('doomed')).at(-1)!.event_seq;
    await deleteAndWait('doomed');
    const res = await create('doomed');
    expect(res.status).toBe(201);
    expect(res.json.agent.identity.incarnation).toBe(3);
    expect((await eventsAsc('doomed'))[0]!.event_seq).toBeGreaterThan(secondHead);
  });

  it('DELETE of an unknown agent -> 404 agent_not_found', async () => {
    expectError(await request(d, 'DELETE', '/api/control/agents/never-was'), 404, 'agent_not_found');
  });

  it('private subagents: 409 private_children_exist, then cascade_private_children=true deletes both', async () => {
    expect((await create('fam-parent')).status).toBe(201);
    expect((await create('fam-kid', { parent_agent_id: 'fam-parent', visibility: 'private' })).status).toBe(201);
    const refused = await request(d, 'DELETE', '/api/control/agents/fam-parent');
    expectError(refused, 409, 'private_children_exist');
    expect((await detail('fam-parent')).json.status).toBe('idle');
    await deleteAndWait('fam-parent', '?cascade_private_children=true');
    await waitFor(() => detail('fam-kid'), (r) => r.status === 404, 'the private child to go');
    expectError(await detail('fam-parent'), 404, 'agent_not_found');
    expectError(await detail('fam-kid'), 404, 'agent_not_found');
  });
});

/**
 * Model tools (issue 4 item 3) through in-process services: each tool leaves the same events and
 * provenance as the HTTP route it mirrors (compared event by event with the route called through
 * Fastify inject), refused operations and bad arguments are ok:false outcomes carrying the
 * catalogue's codes, and nothing throws.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { taskRoutes } from '../../src/http/control/tasks.js';
import { timerRoutes } from '../../src/http/control/timers.js';
import { workItemRoutes } from '../../src/http/control/work-items.js';
import type { Tool, ToolContext, ToolOutcome } from '../../src/runtime/tools/index.js';
import { routeApp } from '../helpers/app.js';
import { testServices, type TestServices } from '../helpers/services.js';

let t: TestServices;
let app: FastifyInstance;
beforeEach(async () => {
  t = testServices();
  app = await routeApp(t.s, [...taskRoutes(t.s), ...workItemRoutes(t.s), ...timerRoutes(t.s)]);
});
afterEach(async () => {
  await app.close();
  await t.close();
});

const CTX = { agentId: 'main', turnId: 'turn_T', messageId: 'msg_M', trust: 'trusted_operator', network: false } as const;

function tool(name: string): Tool {
  const found = t.s.tools.find((x) => x.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

function call(name: string, args: Record<string, unknown>, ctx: Partial<ToolContext> = {}): Promise<ToolOutcome> {
  return tool(name).execute({ ...CTX, signal: new AbortController().signal, ...ctx }, args);
}

/** data of an ok outcome (fails the test otherwise). */
async function ok(name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const out = await call(name, args);
  expect(out.ok, out.content).toBe(true);
  expect(JSON.parse(out.content)).toEqual(out.data);
  return out.data as Record<string, any>;
}

async function refused(name: string, args: Record<string, unknown>, code: string): Promise<Record<string, any>> {
  const out = await call(name, args);
  expect(out.ok).toBe(false);
  const data = JSON.parse(out.content);
  expect(data).toMatchObject({ ok: false, code, error: expect.any(String) });
  expect(out.data).toEqual(data);
  return data;
}

const post = (url: string, payload: object, method: 'POST' | 'PATCH' = 'POST') =>
  app.inject({ method, url, headers: { host: 'localhost' }, payload });

const head = () => t.s.events.head('main');
/** Events appended after `seq`, with ids (which differ between two calls) replaced by their prefix. */
function eventsAfter(seq: number) {
  return t.s.events
    .page('main', { after_seq: seq, limit: 1000, order: 'asc', max_level: 'debug' })
    .events.map((e) => ({ type: e.type, payload: JSON.parse(JSON.stringify(e.payload).replace(/\b(task|wi|tmr|brf|msg|evt)_[0-9A-Z]{26}\b/g, '$1_ID')) }));
}

/**
 * Runs `viaRoute` and `viaTool` from the same state mark and expects the same events from both
 * (after `normalise`, for what rightly differs: who acted).
 */
async function sameEvents(viaRoute: () => Promise<unknown>, viaTool: () => Promise<unknown>, normalise = (s: string) => s) {
  let mark = head();
  await viaRoute();
  const fromRoute = eventsAfter(mark);
  mark = head();
  await viaTool();
  const fromTool = eventsAfter(mark);
  expect(fromRoute.length).toBeGreaterThan(0);
  expect(JSON.parse(normalise(JSON.stringify(fromTool)))).toEqual(JSON.parse(normalise(JSON.stringify(fromRoute))));
  return fromTool;
}

describe('tool catalogue', () => {
  it('offers every tool once, snake_case, with a description and a strict object JSON Schema', () => {
    const names = t.s.tools.map((x) => x.name);
    expect(names.sort()).toEqual(
      ['attach_plan', 'cancel_timer', 'complete_work_item', 'create_timer', 'create_work_item', 'pick_work_item', 'read_task_output', 'read_tool_artifact', 'run_command', 'send_brief', 'update_work_item', 'open_skill', 'spawn_agent', 'followup_agent', 'stop_task',
        'wait_for', 'get_agent', 'list_tasks', 'task_status', 'task_input', 'send_message', 'get_workspace_state', 'attach_workspace', 'switch_workspace', 'web_fetch',
        'read_file', 'list_files', 'search_files', 'write_file', 'edit_file', 'apply_patch', 'memory_search', 'memory_get', 'reply_to_entry'].sort(),
    );
    const fileClasses = Object.fromEntries(t.s.tools.map((x) => [x.name, x.class]));
    expect(fileClasses).toMatchObject({ read_file: 'read', list_files: 'read', search_files: 'read', write_file: 'write', edit_file: 'write', apply_patch: 'write', memory_search: 'read', memory_get: 'read' });
    for (const x of t.s.tools) {
      expect(x.name).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(x.description.length).toBeGreaterThan(20);
      expect(x.parameters).toMatchObject({ type: 'object', additionalProperties: false, properties: expect.any(Object) });
      expect(x.parameters).not.toHaveProperty('$schema');
    }
    expect(tool('run_command').parameters.required).toEqual(['cmd']);
    // Coordination: one class each (docs/tools.md#coordination); wait_for adds write for a duration (it creates a timer).
    const classes = Object.fromEntries(['wait_for', 'get_agent', 'list_tasks', 'task_status', 'task_input', 'send_message', 'get_workspace_state', 'attach_workspace', 'switch_workspace'].map((n) => [n, tool(n).class]));
    expect(classes).toEqual({ wait_for: 'read', get_agent: 'read', list_tasks: 'read', task_status: 'read', task_input: 'exec', send_message: 'agents', get_workspace_state: 'read', attach_workspace: 'write', switch_workspace: 'write' });
    expect(tool('wait_for').extraClasses!({ duration_ms: 5 })).toEqual(['write']);
    expect(tool('wait_for').extraClasses!({ task_id: 'task_x' })).toEqual([]);
    expect(tool('update_work_item').parameters.required).toEqual(['work_item_id']);
    expect(tool('web_fetch')).toMatchObject({ class: 'network', parameters: { required: ['url'] } });
  });
});

describe('run_command and read_task_output', () => {
  it('creates the task exactly like POST .../tasks with runtime_instruction authority, waits and returns the output', async () => {
    // network: false as a model's command gets by default (the operator route's default is true).
    const route = await post('/api/control/agents/main/tasks', { summary: 'greet', cmd: 'echo hello', authority_class: 'runtime_instruction', network: false });
    expect(route.statusCode).toBe(201);
    await t.s.tasks.output('main', route.json().task_id, { block: true, timeoutMs: 10_000 });

    const mark = head();
    const data = await ok('run_command', { cmd: 'echo hello', summary: 'greet' });
    expect(data).toMatchObject({ status: 'completed', finished: true, exit_status: 0, output_preview: 'hello\n', output_truncated: false });
    expect(data.task_id).toMatch(/^task_/);

    const created = eventsAfter(mark).find((e) => e.type === 'task_create_requested')!;
    const routeCreated = eventsAfter(0).find((e) => e.type === 'task_create_requested')!;
    // The same event, except the provenance of the task: the tool's turn message vs none (operator).
    expect(routeCreated.payload.parent_message_id).toBeNull();
    expect(created.payload.parent_message_id).toMatch(/^msg_/);
    expect({ ...created, payload: { ...created.payload, parent_message_id: null } }).toEqual(routeCreated);
    expect(t.s.tasks.get('main', data.task_id).parent_message_id).toBe(created.payload.parent_message_id);
    expect(created.payload.authority_class).toBe('runtime_instruction');
    // The finished task answers the agent like any other: a task_result message (origin task).
    const statuses = eventsAfter(mark).filter((e) => e.type === 'task_status_changed').map((e) => e.payload.to);
    expect(statuses).toEqual(['running', 'completed']);
    const results = eventsAfter(mark).filter((e) => e.type === 'message_enqueued' && e.payload.kind === 'task_result');
    expect(results).toHaveLength(1);
    expect(results[0]!.payload.provenance).toMatchObject({ origin: { kind: 'task' }, trust: 'trusted_system' });
  });

  it('reports a failing command as a finished task with its exit status (the tool itself succeeded)', async () => {
    const data = await ok('run_command', { cmd: 'echo broken >&2; exit 3' });
    expect(data).toMatchObject({ status: 'failed', finished: true, exit_status: 3, output_preview: 'broken\n' });
  });

  it('returns unfinished after wait_ms, and read_task_output picks the task up again', async () => {
    const data = await ok('run_command', { cmd: 'sleep 0.3; echo late', wait_ms: 0 });
    expect(data).toMatchObject({ status: 'running', finished: false, exit_status: null });
    const now = await ok('read_task_output', { task_id: data.task_id });
    expect(now.finished).toBe(false);
    const later = await ok('read_task_output', { task_id: data.task_id, wait_ms: 10_000 });
    expect(later).toMatchObject({ task_id: data.task_id, status: 'completed', finished: true, output_preview: 'late\n' });
  });

  it('stops waiting when the run is aborted; the task keeps running', async () => {
    const abort = new AbortController();
    const started = Date.now();
    const pending = call('run_command', { cmd: 'sleep 30', wait_ms: 60_000 }, { signal: abort.signal });
    setTimeout(() => abort.abort(), 100);
    const out = await pending;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(out.ok).toBe(true);
    const data = out.data as Record<string, any>;
    expect(data).toMatchObject({ status: 'running', finished: false });
    expect(t.s.tasks.get('main', data.task_id).status).toBe('running');
  });

  it('refuses with the service codes and creates nothing', async () => {
    const mark = head();
    await refused('run_command', { cmd: 'true', workdir: '/definitely/not/here' }, 'workdir_not_found');
    await refused('read_task_output', { task_id: 'task_nope' }, 'task_not_found');
    expect(eventsAfter(mark)).toEqual([]);
    expect(t.s.tasks.list('main')).toEqual([]);
  });

  it('validates arguments: missing, blank, wrong type, out of range, unknown', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'cmd'],
      [{ cmd: '   ' }, 'cmd'],
      [{ cmd: 42 }, 'cmd'],
      [{ cmd: 'true', wait_ms: 10_000_000 }, 'wait_ms'],
      [{ cmd: 'true', wait_ms: 1.5 }, 'wait_ms'],
      [{ cmd: 'true', timeout: 5 }, ''],
    ];
    for (const [args, path] of cases) {
      const data = await refused('run_command', args, 'invalid_arguments');
      expect(data.issues, JSON.stringify(args)).toContainEqual(expect.objectContaining({ path }));
      expect(data.error).toMatch(/^invalid arguments for run_command: /);
    }
    const unknown = await refused('run_command', { cmd: 'true', timeout: 5 }, 'invalid_arguments');
    expect(unknown.issues[0].message).toBe('unknown argument timeout');
    expect(t.s.tasks.list('main')).toEqual([]);
  });
});

describe('work item tools', () => {
  it('create, update, pick and complete leave the same events as the routes, with runtime_instruction authority', async () => {
    const base = '/api/control/agents/main/work-items';
    const auth = { authority_class: 'runtime_instruction' };
    let routeId = '';
    let toolId = '';
    const created = await sameEvents(
      async () => (routeId = (await post(base, { objective: 'ship it', ...auth })).json().id),
      async () => (toolId = (await ok('create_work_item', { objective: 'ship it' })).id),
    );
    expect(created.map((e) => e.type)).toEqual(['work_item_created']);
    expect(created[0]!.payload.authority_class).toBe('runtime_instruction');

    const patch = { objective: 'ship it well', plan_status: 'ready', todo_list: [{ text: 'test', state: 'pending' }], blocked_by: 'review' };
    await sameEvents(
      () => post(`${base}/${routeId}`, { ...patch, ...auth }, 'PATCH'),
      () => ok('update_work_item', { work_item_id: toolId, ...patch }),
    );
    await sameEvents(
      () => post(`${base}/${routeId}`, { blocked_by: null, ...auth }, 'PATCH'),
      () => ok('update_work_item', { work_item_id: toolId, blocked_by: null }),
    );
    // The first pick of each is not the same transition (the tool's pick switches focus away from the route's item).
    const pickedByRoute = (await post(`${base}/${routeId}/pick`, { reason: 'first', ...auth })).json();
    const picked = await ok('pick_work_item', { work_item_id: toolId, reason: 'next' });
    expect(picked.transition).toMatchObject({ switch_kind: 'focus_switch', previous_work_item_id: routeId, reason: 'next' });
    expect(pickedByRoute.transition.switch_kind).toBe('initial_pick');
    expect(eventsAfter(head() - 1)[0]).toMatchObject({ type: 'work_item_picked', payload: { authority_class: 'runtime_instruction' } });

    // The one difference: the completion intent names who completed the item.
    const completed = await sameEvents(
      () => post(`${base}/${routeId}/complete`, { report_text: 'done', ...auth }),
      () => ok('complete_work_item', { work_item_id: toolId, report_text: 'done' }),
      (json) => json.replace(/"completed_by":"(operator|agent)"/g, '"completed_by":"WHO"'),
    );
    expect(completed.map((e) => e.type)).toContain('work_item_completed');
    expect(completed.find((e) => e.type === 'work_item_completed')!.payload.completion).toMatchObject({ completed_by: 'agent', result_summary: 'done' });
    expect(t.s.workItems.get('main', routeId).completion).toMatchObject({ completed_by: 'operator', authority_class: 'runtime_instruction' });
    expect(t.s.workItems.get('main', toolId)).toMatchObject({ state: 'completed', result_summary: 'done', completion: { completed_by: 'agent' } });
  });

  it('turns the service refusals into ok:false outcomes with their codes', async () => {
    await refused('create_work_item', { objective: '   ' }, 'empty_objective');
    const { id } = await ok('create_work_item', { objective: 'x' });
    await refused('update_work_item', { work_item_id: id }, 'empty_update');
    await refused('update_work_item', { work_item_id: 'wi_missing', objective: 'y' }, 'work_item_not_found');
    await refused('update_work_item', { work_item_id: id, plan_status: 'finished' }, 'invalid_arguments');
    await refused('complete_work_item', { work_item_id: id, report_text: ' ' }, 'empty_report');
    await ok('complete_work_item', { work_item_id: id, report_text: 'done' });
    await refused('complete_work_item', { work_item_id: id, report_text: 'again' }, 'work_item_not_open');
    await refused('pick_work_item', { work_item_id: id }, 'work_item_not_open');
  });
});

describe('attach_plan', () => {
  const base = '/api/control/agents/main/work-items';
  const homeFile = (rel: string) => path.join(fs.realpathSync(t.s.agents.homeOf('main')), rel);

  it('without text attaches like PATCH plan_artifact: the same events, runtime_instruction authority', async () => {
    fs.writeFileSync(homeFile('plan.md'), 'the plan');
    const routeId = (await post(base, { objective: 'a' })).json().id;
    const toolId = (await ok('create_work_item', { objective: 'b' })).id;
    const events = await sameEvents(
      () => post(`${base}/${routeId}`, { plan_artifact: { path: 'plan.md' }, authority_class: 'runtime_instruction' }, 'PATCH'),
      () => ok('attach_plan', { work_item_id: toolId, path: 'plan.md' }),
    );
    expect(events.map((e) => e.type)).toEqual(['work_item_updated']);
    expect(events[0]!.payload).toMatchObject({ fields: ['plan_artifact'], authority_class: 'runtime_instruction', changes: { plan_artifact: { preview: 'the plan' } } });
  });

  it('with text writes the file inside the workspace (parents created, 0600) and attaches it', async () => {
    const { id } = await ok('create_work_item', { objective: 'x' });
    const text = '# Plan\n\n- [ ] write\n- [ ] test\n';
    const item = await ok('attach_plan', { work_item_id: id, path: 'plans/deep/x.md', text });
    const file = homeFile('plans/deep/x.md');
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(item.plan_artifact).toMatchObject({
      path: file,
      relative_path: 'plans/deep/x.md',
      workspace_id: 'agent_home',
      hash: `sha256:${createHash('sha256').update(text).digest('hex')}`,
      bytes: Buffer.byteLength(text),
      preview: text,
      preview_complete: true,
    });
    // Rewriting replaces the content.
    const again = await ok('attach_plan', { work_item_id: id, path: 'plans/deep/x.md', text: 'v2' });
    expect(again).toMatchObject({ revision: 3, plan_artifact: { preview: 'v2', bytes: 2 } });
  });

  it('never writes outside the workspace: traversal, absolute paths elsewhere, symlinked directories', async () => {
    const { id } = await ok('create_work_item', { objective: 'x' });
    const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-outside-')));
    try {
      fs.symlinkSync(outside, homeFile('link'));
      fs.writeFileSync(path.join(outside, 'victim.md'), 'untouched');
      fs.symlinkSync(path.join(outside, 'victim.md'), homeFile('victim.md'));
      for (const p of [`../../${path.basename(outside)}/x.md`, path.join(outside, 'x.md'), 'link/x.md', 'link/sub/x.md', 'victim.md', '.']) {
        const data = await refused('attach_plan', { work_item_id: id, path: p, text: 'pwned' }, 'plan_file_not_allowed');
        expect(data.path).toBe(p);
      }
      expect(fs.readdirSync(outside)).toEqual(['victim.md']);
      expect(fs.readFileSync(path.join(outside, 'victim.md'), 'utf8')).toBe('untouched');
      await refused('attach_plan', { work_item_id: id, path: 'big.md', text: 'a'.repeat(256 * 1024 + 1) }, 'plan_too_large');
      expect(fs.existsSync(homeFile('big.md'))).toBe(false);
      expect(t.s.workItems.get('main', id)).toMatchObject({ revision: 1, plan_artifact: null });
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('checks the item before writing: unknown 404, completed 409, no file', async () => {
    const { id } = await ok('create_work_item', { objective: 'x' });
    await ok('complete_work_item', { work_item_id: id, report_text: 'done' });
    await refused('attach_plan', { work_item_id: 'wi_nope', path: 'a.md', text: 'a' }, 'work_item_not_found');
    await refused('attach_plan', { work_item_id: id, path: 'b.md', text: 'b' }, 'work_item_not_open');
    expect(fs.existsSync(homeFile('a.md')) || fs.existsSync(homeFile('b.md'))).toBe(false);
  });
});

describe('timer tools', () => {
  it('create and cancel leave the same events as the routes', async () => {
    const base = '/api/control/agents/main/timers';
    let routeId = '';
    let toolId = '';
    const created = await sameEvents(
      async () => (routeId = (await post(base, { duration_ms: 60_000, interval_ms: 5_000, summary: 'poll' })).json().timer_id),
      async () => (toolId = (await ok('create_timer', { duration_ms: 60_000, interval_ms: 5_000, summary: 'poll' })).timer_id),
    );
    expect(created.map((e) => e.type)).toEqual(['timer_created']);
    const cancelled = await sameEvents(
      () => post(`${base}/${routeId}/cancel`, {}),
      () => ok('cancel_timer', { timer_id: toolId }),
    );
    expect(cancelled.map((e) => e.type)).toEqual(['timer_cancelled']);
    expect(t.s.timers.get('main', toolId).status).toBe('cancelled');
  });

  it('fires like any timer, and refuses unknown, completed and misspelt timers', async () => {
    const { timer_id } = await ok('create_timer', { duration_ms: 1000 });
    t.clock.advance(1000);
    expect(t.s.timers.runDue()).toBe(1);
    await refused('cancel_timer', { timer_id }, 'timer_completed');
    await refused('cancel_timer', { timer_id: 'tmr_missing' }, 'timer_not_found');
    const bad = await refused('create_timer', { after_ms: 1000 }, 'invalid_arguments');
    expect(bad.issues.map((i: { path: string }) => i.path)).toEqual(expect.arrayContaining(['duration_ms', '']));
    await refused('create_timer', { duration_ms: -5 }, 'invalid_arguments');
  });
});

describe('send_brief', () => {
  it('creates a progress brief linked to the turn and the message, with its brief_created event', async () => {
    const mark = head();
    const brief = await ok('send_brief', { title: 'Halfway', text: 'tests pass, docs next' });
    expect(brief).toMatchObject({ kind: 'progress', title: 'Halfway', text: 'tests pass, docs next', turn_id: 'turn_T', message_id: 'msg_M', agent_id: 'main' });
    expect(t.s.briefs.get(brief.brief_id)).toEqual(brief);
    const ev = eventsAfter(mark);
    expect(ev.map((e) => e.type)).toEqual(['brief_created']);
    expect(ev[0]!.payload).toMatchObject({ brief_kind: 'progress', turn_id: 'turn_T', message_id: 'msg_M' });
  });

  it('refuses a blank title or text, and an unknown agent', async () => {
    await refused('send_brief', { title: ' ', text: 'x' }, 'invalid_arguments');
    await refused('send_brief', { title: 'x' }, 'invalid_arguments');
    const out = await call('send_brief', { title: 'a', text: 'b' }, { agentId: 'ghost' });
    expect(out).toMatchObject({ ok: false, data: { code: 'agent_not_found' } });
    expect(t.s.briefs.list('main', {})).toEqual([]);
  });
});

describe('open_skill', () => {
  function skillAt(dir: string, name: string, description: string, extra: Record<string, string> = {}): void {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\nDo ${name} carefully.\n`);
    for (const [f, text] of Object.entries(extra)) {
      fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      fs.writeFileSync(path.join(dir, f), text);
    }
  }

  it('lists the effective skills in the system prompt section, workspace before user, one per name', () => {
    expect(t.s.skillUse.promptSection('main')).toBe('');
    skillAt(path.join(t.home, 'skills', 'deploy'), 'deploy', 'Ship a release');
    skillAt(path.join(t.home, 'skills', 'review'), 'review', 'Review code (user copy)');
    skillAt(path.join(t.s.workspaces.activePath('main'), 'skills', 'review'), 'review', 'Review code (workspace copy)');
    const section = t.s.skillUse.promptSection('main');
    expect(section).toMatch(/open_skill/);
    expect(section).toContain('- deploy: Ship a release (user, ');
    expect(section).toContain('- review: Review code (workspace copy) (workspace, ');
    expect(section).not.toContain('user copy');
  });

  it('opens SKILL.md or a file under the skill, records skill_opened, never reads outside', async () => {
    const dir = path.join(t.home, 'skills', 'deploy');
    skillAt(dir, 'deploy', 'Ship a release', { 'docs/steps.md': 'step one' });
    const outside = path.join(t.home, 'secret.txt');
    fs.writeFileSync(outside, 'TOP SECRET');
    fs.symlinkSync(outside, path.join(dir, 'leak.md'));
    const mark = head();
    const opened = await ok('open_skill', { name: 'deploy' });
    expect(opened).toMatchObject({ name: 'deploy', scope: 'user', file: 'SKILL.md', truncated: false });
    expect(opened.content).toContain('Do deploy carefully.');
    expect((await ok('open_skill', { name: 'deploy', file: 'docs/steps.md' })).content).toBe('step one');
    expect(eventsAfter(mark).map((e) => [e.type, e.payload.name, e.payload.file, e.payload.turn_id])).toEqual([
      ['skill_opened', 'deploy', 'SKILL.md', 'turn_T'],
      ['skill_opened', 'deploy', 'docs/steps.md', 'turn_T'],
    ]);
    for (const file of ['../secret.txt', 'leak.md', outside, 'docs', 'missing.md']) {
      const refusedOut = await refused('open_skill', { name: 'deploy', file }, 'skill_file_not_allowed');
      expect(JSON.stringify(refusedOut)).not.toContain('TOP SECRET');
    }
    await refused('open_skill', { name: 'nope' }, 'skill_not_found');
    expect(eventsAfter(mark)).toHaveLength(2);
  });
});

describe('every tool', () => {
  it('does nothing once the run is aborted', async () => {
    const abort = new AbortController();
    abort.abort();
    const mark = head();
    for (const x of t.s.tools) {
      const out = await x.execute({ ...CTX, signal: abort.signal }, { objective: 'x' });
      expect(out, x.name).toMatchObject({ ok: false, data: { code: 'aborted' } });
    }
    expect(eventsAfter(mark)).toEqual([]);
  });

  it('reports an unexpected failure as tool_failed instead of throwing', async () => {
    vi.spyOn(t.s.workItems, 'create').mockImplementation(() => {
      throw new Error('disk on fire');
    });
    const data = await refused('create_work_item', { objective: 'x' }, 'tool_failed');
    expect(data.error).toContain('disk on fire');
  });
});

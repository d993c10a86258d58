import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { git, gitRepo } from '../helpers/git.js';
import { testServices, type TestServices } from '../helpers/services.js';

let t: TestServices | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

async function until<T>(fn: () => T | undefined | null | false, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}


describe('child agent tasks (builtin/echo)', () => {
  it('inherit: creates a private child, runs its turn, completes with its answer and tells the parent', async () => {
    t = testServices({ runLoop: true });
    const { s } = t;
    const task = await s.tasks.createAny('main', { kind: 'child_agent', initial_message: 'count the files' });
    expect(task).toMatchObject({ kind: 'child_agent', status: 'running', parent_message_id: null, command: null });
    const child = s.agents.get(task.child_agent_id!);
    expect(child).toMatchObject({ parent_agent_id: 'main', visibility: 'private' });
    expect(task.child_supervision).toMatchObject({ parent_agent_id: 'main', child_agent_id: child.agent_id, supervision_task_id: task.task_id, cleanup_owner: 'supervision_task', followup_target: 'parent_supervisor', workspace_mode: 'inherit', worktree: null });
    const done = await until(() => {
      const x = s.tasks.get('main', task.task_id);
      return x.status === 'completed' && x;
    });
    expect(done.child_observability).toMatchObject({ phase: 'terminal' });
    const out = await s.tasks.output('main', task.task_id);
    expect(out.task.output_preview).toContain('count the files');
    expect(out.task.result_summary).toContain('echo:');
    const msgs = s.store.db.prepare("SELECT * FROM messages WHERE agent_id = 'main' AND kind = 'task_result'").all() as any[];
    expect(msgs).toHaveLength(1);
    expect(JSON.parse(msgs[0].body).value).toMatchObject({ task_id: task.task_id, kind: 'child_agent', status: 'completed', child_agent_id: child.agent_id });
  });
});

describe('child agent tasks in a git worktree', () => {
  it('worktree: a branch and worktree for the child; a changed worktree is retained for review, the parent sees the changed files', async () => {
    t = testServices({ runLoop: false });
    const { s } = t;
    const repo = gitRepo();
    s.workspaces.attach('main', repo);
    const task = await s.tasks.createAny('main', { kind: 'child_agent', initial_message: 'edit README', workspace_mode: 'worktree', objective: 'edit the readme' });
    expect(task.status).toBe('running');
    const wt = (task.child_supervision as any).worktree;
    expect(wt).toMatchObject({ worktree_branch: `svc/${task.task_id}`, original_branch: 'main', original_cwd: fs.realpathSync(repo), cleanup_status: 'active', changed_files: [] });
    expect(fs.existsSync(path.join(wt.worktree_path, 'README.md'))).toBe(true);
    expect(git(repo, 'branch', '--list', `svc/${task.task_id}`)).toContain(`svc/${task.task_id}`);
    expect(s.workspaces.activePath(task.child_agent_id!)).toBe(wt.worktree_path);
    expect(task.child_supervision).toMatchObject({ child_work_item_id: expect.stringMatching(/^wi_/) });
    expect(task.child_observability).toMatchObject({ phase: 'running', current_work_item_id: (task.child_supervision as any).child_work_item_id, work_summary: 'edit the readme' });
    // The child "edits" a file, then its turn runs.
    fs.appendFileSync(path.join(wt.worktree_path, 'README.md'), 'more\n');
    fs.writeFileSync(path.join(wt.worktree_path, 'NEW.txt'), 'new\n');
    s.runLoop.scheduler.enable();
    const done = await until(() => {
      const x = s.tasks.get('main', task.task_id);
      return x.status === 'completed' && x;
    });
    expect((done.child_supervision as any).worktree).toMatchObject({ changed_files: ['NEW.txt', 'README.md'], retained_for_review: true, cleanup_status: 'retained' });
    expect(fs.existsSync(wt.worktree_path)).toBe(true);
    const result = s.store.db.prepare("SELECT body FROM messages WHERE agent_id = 'main' AND kind = 'task_result'").get() as any;
    expect(JSON.parse(result.body).value.worktree).toMatchObject({ changed_files: ['NEW.txt', 'README.md'], retained_for_review: true });
    // Stop on the finished task discards the child, its worktree and its branch.
    const stop = s.tasks.requestStop('main', task.task_id);
    expect(stop.summary_text).toContain('being deleted');
    await s.deletion.idle();
    await until(() => !fs.existsSync(wt.worktree_path));
    expect(s.agents.find(task.child_agent_id!)).toBeNull();
    expect(git(repo, 'branch', '--list', `svc/${task.task_id}`).trim()).toBe('');
    expect(git(repo, 'worktree', 'list')).not.toContain(wt.worktree_path);
    await until(() => (s.tasks.get('main', task.task_id).child_supervision as any).worktree.cleanup_status === 'removed');
  });

  it('auto cleanup removes a clean worktree and its branch when the child answers; a follow-up is then refused', async () => {
    t = testServices({ runLoop: true });
    const { s } = t;
    const repo = gitRepo();
    s.workspaces.attach('main', repo);
    const task = await s.tasks.createAny('main', { kind: 'child_agent', initial_message: 'look only', workspace_mode: 'worktree' });
    const wt = (task.child_supervision as any).worktree;
    const done = await until(() => {
      const x = s.tasks.get('main', task.task_id);
      return (x.child_supervision as any).worktree.cleanup_status === 'removed' && x;
    });
    expect(done.status).toBe('completed');
    expect((done.child_supervision as any).worktree).toMatchObject({ changed_files: [], auto_cleaned_up: true, branch_cleanup_status: 'deleted' });
    expect(fs.existsSync(wt.worktree_path)).toBe(false);
    expect(git(repo, 'branch', '--list', `svc/${task.task_id}`).trim()).toBe('');
    const r = s.tasks.input('main', task.task_id, { text: 'one more thing' });
    expect(r).toMatchObject({ accepted_input: false, input_target: 'child_followup' });
  });

  it('refuses worktree mode outside a repository (400 worktree_unavailable) and creates nothing', async () => {
    t = testServices({ runLoop: false });
    const { s } = t;
    await expect(s.tasks.createAny('main', { kind: 'child_agent', initial_message: 'x', workspace_mode: 'worktree' })).rejects.toMatchObject({ status: 400, code: 'worktree_unavailable' });
    expect(s.tasks.list('main')).toHaveLength(0);
    expect(s.agents.list().map((a) => a.agent_id)).toEqual(['main']);
  });
});

describe('child agent limits and lifecycle', () => {
  it('bounds active children per parent, in the whole daemon, and the depth of delegation (409, nothing created)', async () => {
    t = testServices({ runLoop: false, configToml: '[tasks]\nmax_active_children_per_agent = 2\nmax_active_children = 3\nmax_child_depth = 2\n' });
    const { s } = t;
    const a = await s.tasks.createAny('main', { kind: 'child_agent', initial_message: 'one' });
    await s.tasks.createAny('main', { kind: 'child_agent', initial_message: 'two' });
    await expect(s.tasks.createAny('main', { kind: 'child_agent', initial_message: 'three' })).rejects.toMatchObject({
      status: 409,
      code: 'child_limit_reached',
      extra: expect.objectContaining({ config_key: 'tasks.max_active_children_per_agent' }),
    });
    // A child delegates (depth 2 is allowed), its child may not (depth 3).
    const grand = await s.tasks.createAny(a.child_agent_id!, { kind: 'child_agent', initial_message: 'deeper' });
    expect(s.agents.lineage(s.agents.get(grand.child_agent_id!))).toEqual([a.child_agent_id, 'main']);
    await expect(s.tasks.createAny(grand.child_agent_id!, { kind: 'child_agent', initial_message: 'too deep' })).rejects.toMatchObject({ code: 'child_depth_exceeded' });
    // Three active in the daemon: another parent is refused too.
    s.agents.create('other', {});
    await expect(s.tasks.createAny('other', { kind: 'child_agent', initial_message: 'x' })).rejects.toMatchObject({
      code: 'child_limit_reached',
      extra: expect.objectContaining({ config_key: 'tasks.max_active_children' }),
    });
    expect(s.agents.list()).toHaveLength(5);
  });

  it('a follow-up to a running child is queued for it; deleting the child cancels its task and tells the parent', async () => {
    t = testServices({ runLoop: false });
    const { s } = t;
    const task = await s.tasks.createAny('main', { kind: 'child_agent', initial_message: 'first' });
    const r = s.tasks.input('main', task.task_id, { text: 'second' });
    expect(r).toMatchObject({ accepted_input: true, input_target: 'child_followup', bytes_written: 6 });
    const queued = s.store.db.prepare("SELECT kind, body, origin FROM messages WHERE agent_id = ? AND status = 'queued' ORDER BY seq").all(task.child_agent_id) as any[];
    expect(queued.map((m) => [m.kind, JSON.parse(m.body).text, JSON.parse(m.origin)])).toEqual([
      ['internal_followup', 'first', { kind: 'task', task_id: task.task_id }],
      ['internal_followup', 'second', { kind: 'task', task_id: task.task_id }],
    ]);
    s.deletion.request(task.child_agent_id!, { cascadePrivateChildren: false });
    await s.deletion.idle();
    const after = s.tasks.get('main', task.task_id);
    expect(after.status).toBe('cancelled');
    expect(after.child_observability).toMatchObject({ phase: 'terminal' });
    const result = s.store.db.prepare("SELECT body FROM messages WHERE agent_id = 'main' AND kind = 'task_result'").get() as any;
    expect(JSON.parse(result.body).value).toMatchObject({ status: 'cancelled', failure_artifact: expect.objectContaining({ kind: 'child_deleted' }) });
    expect(s.tasks.input('main', task.task_id, { text: 'anyone?' })).toMatchObject({ accepted_input: false });
  });
});

describe('child agent tasks: stop races and observability', () => {
  it('a stop during the worktree set-up leaves no child, worktree or branch behind', async () => {
    t = testServices({ runLoop: false });
    const { s } = t;
    const repo = gitRepo();
    s.workspaces.attach('main', repo);
    const pending = s.tasks.createAny('main', { kind: 'child_agent', initial_message: 'x', workspace_mode: 'worktree', child_agent_id: 'racer' });
    // The task row exists (queued) while git creates the worktree.
    let queued = s.tasks.list('main')[0];
    while (!queued) {
      await new Promise((r) => setImmediate(r));
      queued = s.tasks.list('main')[0];
    }
    expect(queued.status).toBe('queued');
    expect(s.tasks.requestStop('main', queued.task_id).task.status).toBe('cancelled');
    const done = await pending;
    expect(done.status).toBe('cancelled');
    await s.deletion.idle();
    await until(() => s.agents.find('racer') === null);
    await until(() => !git(repo, 'branch', '--list').includes('svc/'));
    expect(fs.readdirSync(path.join(t.home, 'worktrees'))).toEqual([]);
  });

  it('observability: blocked on the child\'s own running command, waiting when the operator stopped it', async () => {
    t = testServices({ runLoop: false });
    const { s } = t;
    const task = await s.tasks.createAny('main', { kind: 'child_agent', initial_message: 'x' });
    const child = task.child_agent_id!;
    const cmd = s.tasks.create(child, { cmd: 'sleep 5' });
    await until(() => s.tasks.get(child, cmd.task_id).status === 'running');
    expect(s.tasks.get('main', task.task_id).child_observability).toMatchObject({ phase: 'blocked', blocked_reason: 'managed_task_running' });
    s.tasks.requestStop(child, cmd.task_id);
    await until(() => s.tasks.get(child, cmd.task_id).status === 'cancelled');
    await s.runLoop.control.control(child, { action: 'stop' });
    expect(s.tasks.get('main', task.task_id).child_observability).toMatchObject({ phase: 'waiting', waiting_reason: 'awaiting_operator_input' });
  });
});

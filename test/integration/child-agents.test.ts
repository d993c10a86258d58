/**
 * Supervised child agents end to end: a real daemon, an OpenAI-compatible fake model answering
 * the parent and the child by what each request's system prompt says, real git worktrees, the CLI.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cliFor } from '../helpers/cli.js';
import { daemonPool, request, waitFor, type RunningDaemon } from '../helpers/daemon.js';
import { startFakeOpenAI } from '../helpers/fake-openai.js';
import { gitRepo } from '../helpers/git.js';
import type { FakeModelServer, RecordedRequest, Reply } from '../helpers/fake-model-server.js';

const pool = daemonPool();
let fake: FakeModelServer | null = null;
afterEach(async () => {
  pool.killAll();
  await fake?.close();
  fake = null;
});
afterAll(() => pool.cleanup());

const config = (url: string) => `[model]\ndefault = "fake/m"\n\n[providers.fake]\nkind = "openai"\nbase_url = "${url}"\napi_key_env = ""\nmodels = ["m"]\n`;

const branches = (repo: string) => execFileSync('git', ['-C', repo, 'branch', '--list'], { encoding: 'utf8' });

interface Msg {
  role: string;
  content?: string | null;
  tool_calls?: unknown[];
}
const messagesOf = (r: RecordedRequest): Msg[] => (r.body as { messages: Msg[] }).messages;
const isChild = (r: RecordedRequest) => String(messagesOf(r)[0]?.content ?? '').includes('supervised child agent');
const last = (r: RecordedRequest) => messagesOf(r).at(-1)!;
const call = (name: string, args: unknown): Reply => ({ toolCalls: [{ name, args: [JSON.stringify(args)] }] });

/**
 * The parent delegates "add a notes file" to a child in a worktree; the child writes NOTES.md with
 * run_command and answers; a follow-up makes it answer again.
 */
function scriptedModel(f: FakeModelServer, opts: { childHangs?: () => boolean } = {}): void {
  f.responder = (r) => {
    const m = last(r);
    const text = String(m.content ?? '');
    if (isChild(r)) {
      if (opts.childHangs?.()) return { type: 'hang' };
      if (m.role === 'tool') return { text: ['Added NOTES.md with one line.'] };
      if (text.includes('task_result')) return { text: ['(my command had already finished)'] };
      if (text.includes('follow-up')) return { text: ['Follow-up done: nothing else to change.'] };
      return call('run_command', { cmd: 'echo "notes from the child" > NOTES.md', summary: 'write notes' });
    }
    if (m.role === 'tool') return { text: ['Delegated to a helper.'] };
    if (text.includes('task_result')) return { text: ['The helper reported back.'] };
    return call('spawn_agent', { initial_message: 'Add a NOTES.md file, then answer with what you changed.', workspace_mode: 'worktree', objective: 'add notes' });
  };
}

async function events(d: RunningDaemon, agent: string): Promise<Array<{ type: string; payload: Record<string, any> }>> {
  const res = await request(d, 'GET', `/api/agents/${agent}/events?order=asc&limit=500`);
  expect(res.status).toBe(200);
  return res.json.events;
}

describe('supervised child agents against the daemon', () => {
  it('svc prompt: the parent delegates to a child in a git worktree; the child edits a file and answers; follow-up; stop leaves nothing behind', async () => {
    fake = await startFakeOpenAI();
    scriptedModel(fake);
    const d = await pool.start({ configToml: config(fake.url) });
    const { svc, svcJson } = cliFor(() => d);
    const repo = gitRepo();
    expect((await request(d, 'POST', '/api/control/agents/main/workspace/attach', { body: { path: repo } })).status).toBe(200);

    const prompted = await svc(['prompt', 'main', 'delegate adding notes to a helper in a worktree', '--wait']);
    expect(prompted.code, prompted.stderr).toBe(0);
    expect(prompted.stdout).toContain('Delegated to a helper.');

    const list = await svcJson(['tasks', 'list', 'main']);
    const task = list.tasks.find((t: any) => t.kind === 'child_agent');
    expect(task).toBeTruthy();
    const childId: string = task.child_agent_id;
    // Provenance: the task was created by the turn answering the operator's prompt.
    const created = (await events(d, 'main')).find((e) => e.type === 'task_create_requested')!;
    const prompt = (await events(d, 'main')).find((e) => e.type === 'message_enqueued' && e.payload.kind === 'operator_prompt')!;
    expect(task.parent_message_id).toBe(prompt.payload.message_id);
    expect(created.payload).toMatchObject({ kind: 'child_agent', child_agent_id: childId, parent_message_id: prompt.payload.message_id });

    // The child answers after writing NOTES.md in its worktree, not in the repository.
    const done = await waitFor(async () => {
      const r = await request(d, 'GET', `/api/agents/main/tasks/${task.task_id}`);
      return r.json.status === 'completed' ? r.json : null;
    }, 20_000);
    const wt = done.child_supervision.worktree;
    expect(wt).toMatchObject({ worktree_branch: `svc/${task.task_id}`, original_branch: 'main', changed_files: ['NOTES.md'], retained_for_review: true, cleanup_status: 'retained' });
    expect(fs.readFileSync(path.join(wt.worktree_path, 'NOTES.md'), 'utf8')).toBe('notes from the child\n');
    expect(fs.existsSync(path.join(repo, 'NOTES.md'))).toBe(false);
    // The answer the task finished with (not what the child said afterwards, e.g. to its own task_result).
    expect(done.child_observability).toMatchObject({ phase: 'terminal', last_result_brief: 'Added NOTES.md with one line.', work_summary: 'add notes' });
    const out = await request(d, 'GET', `/api/agents/main/tasks/${task.task_id}/output`);
    expect(out.json.task).toMatchObject({ status: 'completed', output_preview: 'Added NOTES.md with one line.', result_summary: 'Added NOTES.md with one line.' });

    // The parent got the result as a task_result message and answered it.
    await waitFor(async () => (await events(d, 'main')).some((e) => e.type === 'turn_completed' && String(e.payload.text ?? '').length >= 0 && e.payload.brief_id) , 10_000);
    const results = (await events(d, 'main')).filter((e) => e.type === 'message_enqueued' && e.payload.kind === 'task_result');
    expect(results).toHaveLength(1);
    const parentSaw = await waitFor(() => fake!.completions().find((r) => !isChild(r) && String(last(r).content ?? '').includes('Added NOTES.md')), 10_000);
    expect(String(last(parentSaw).content)).toContain('retained_for_review');

    // The child ran its own turn through the same provider: its requests carry the delegation.
    const childReq = fake.completions().find((r) => isChild(r))!;
    expect(String(messagesOf(childReq).at(1)?.content)).toContain('Add a NOTES.md file');

    // Visible in the tree (supervised under main), in `svc tasks show` and on the state page.
    const tree = await svcJson(['agents', 'tree']);
    const mainNode = tree.agents.find((n: any) => n.agent_id === 'main');
    expect(mainNode.children).toEqual([
      expect.objectContaining({ agent_id: childId, visibility: 'private', lineage: ['main'], supervision: expect.objectContaining({ task_id: task.task_id, workspace_mode: 'worktree' }) }),
    ]);
    const treeText = await svc(['agents', 'tree']);
    expect(treeText.stdout).toMatch(new RegExp(`└─ ${childId} .*task ${task.task_id} completed, worktree`));
    const shown = await svc(['tasks', 'show', 'main', task.task_id]);
    expect(shown.stdout).toMatch(/changed_files\s+NOTES\.md/);
    expect(shown.stdout).toMatch(/phase\s+terminal/);

    // A follow-up reaches the child: the task runs again and completes with the new answer.
    const input = await request(d, 'POST', `/api/control/agents/main/tasks/${task.task_id}/input`, { body: { text: 'One follow-up: anything else?' } });
    expect(input.json).toMatchObject({ accepted_input: true, input_target: 'child_followup' });
    expect(input.json.task.status).toBe('running');
    const again = await waitFor(async () => {
      const r = await request(d, 'GET', `/api/agents/main/tasks/${task.task_id}/output`);
      return r.json.task.status === 'completed' && r.json.task.output_preview.startsWith('Follow-up done') ? r.json : null;
    }, 20_000);
    expect(again.task.child_supervision.followups).toBe(1);

    // Stop: the child, its worktree and its branch are gone.
    const stop = await request(d, 'POST', `/api/control/agents/main/tasks/${task.task_id}/stop`, { body: {} });
    expect(stop.status).toBe(200);
    await waitFor(async () => (await request(d, 'GET', `/api/agents/${childId}`)).status === 404, 10_000);
    await waitFor(() => !fs.existsSync(wt.worktree_path), 10_000);
    await waitFor(() => !branches(repo).includes(`svc/${task.task_id}`), 10_000);
    const after = await request(d, 'GET', `/api/agents/main/tasks/${task.task_id}`);
    expect(after.json.child_supervision.worktree).toMatchObject({ cleanup_status: 'removed', branch_cleanup_status: 'deleted' });
    expect(after.json.child_observability.phase).toBe('terminal');
  }, 60_000);

  it('cascade delete of a parent removes its running child, the worktree and the branch; without cascade 409', async () => {
    fake = await startFakeOpenAI();
    scriptedModel(fake, { childHangs: () => true });
    const d = await pool.start({ configToml: config(fake.url) });
    const repo = gitRepo();
    expect((await request(d, 'POST', '/api/control/agents/lead/create', { body: {} })).status).toBe(201);
    expect((await request(d, 'POST', '/api/control/agents/lead/workspace/attach', { body: { path: repo } })).status).toBe(200);
    const created = await request(d, 'POST', '/api/control/agents/lead/tasks', {
      body: { kind: 'child_agent', initial_message: 'work on it', workspace_mode: 'worktree', child_agent_id: 'lead-helper' },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ kind: 'child_agent', status: 'running', child_agent_id: 'lead-helper', parent_message_id: null, command: null });
    const wtPath = created.json.child_supervision.worktree.worktree_path;
    // The child is mid-turn (its model request hangs).
    await waitFor(async () => (await request(d, 'GET', '/api/agents/lead-helper/state')).json.session.current_run !== null, 10_000);
    const obs = await request(d, 'GET', `/api/agents/lead/tasks/${created.json.task_id}`);
    expect(obs.json.child_observability).toMatchObject({ phase: 'running', blocked_reason: null });
    const state = await request(d, 'GET', '/api/agents/lead/state');
    expect(state.json.waiting_intents).toEqual([expect.objectContaining({ kind: 'task_result', task_id: created.json.task_id, task_kind: 'child_agent' })]);

    const refused = await request(d, 'DELETE', '/api/control/agents/lead');
    expect(refused.status).toBe(409);
    const del = await request(d, 'DELETE', '/api/control/agents/lead?cascade_private_children=true');
    expect(del.status).toBe(202);
    await waitFor(async () => (await request(d, 'GET', '/api/agents/lead-helper')).status === 404 && (await request(d, 'GET', '/api/agents/lead')).status === 404, 15_000);
    await waitFor(() => !fs.existsSync(wtPath), 10_000);
    await waitFor(() => !branches(repo).includes('svc/'), 10_000);
    expect(execFileSync('git', ['-C', repo, 'worktree', 'list'], { encoding: 'utf8' })).not.toContain(wtPath);
  }, 60_000);

  it('kill -9 while the child works: after the restart its turn is retried and the task completes', async () => {
    fake = await startFakeOpenAI();
    let hang = true;
    scriptedModel(fake, { childHangs: () => hang });
    const d = await pool.start({ configToml: config(fake.url) });
    const created = await request(d, 'POST', '/api/control/agents/main/tasks', { body: { kind: 'child_agent', initial_message: 'inspect the workspace' } });
    expect(created.json.child_supervision.workspace_mode).toBe('inherit');
    await waitFor(() => fake!.completions().some(isChild), 10_000);
    d.proc.kill('SIGKILL');
    await new Promise((r) => d.proc.once('exit', r));
    hang = false;
    const d2 = await pool.start({ home: d.home, configToml: config(fake.url) });
    const done = await waitFor(async () => {
      const r = await request(d2, 'GET', `/api/agents/main/tasks/${created.json.task_id}`);
      return r.json.status === 'completed' ? r.json : null;
    }, 20_000);
    expect(done.child_agent_id).toBe(created.json.child_agent_id);
  }, 60_000);

  it('svc tasks delegate --wait prints the child\'s answer (builtin/echo) and svc tasks show names the child', async () => {
    const d = await pool.start();
    const { svc, svcJson } = cliFor(() => d);
    const r = await svc(['tasks', 'delegate', 'main', 'say', 'hello', '--wait']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('echo:');
    expect(r.stdout).toContain('say hello');
    expect(r.stderr).toMatch(/^task task_\S+ completed$/m);
    const list = await svcJson(['tasks', 'list', 'main']);
    expect(list.tasks[0]).toMatchObject({ kind: 'child_agent', status: 'completed' });
    const shown = await svc(['tasks', 'show', 'main', list.tasks[0].task_id]);
    expect(shown.stdout).toMatch(new RegExp(`child_agent_id\\s+${list.tasks[0].child_agent_id}`));
    expect(shown.stdout).toMatch(/workspace_mode\s+inherit/);
  }, 30_000);

  it('bad input changes nothing: missing initial_message, unknown workspace_mode, worktree outside git, taken child id', async () => {
    const d = await pool.start();
    const post = (body: unknown) => request(d, 'POST', '/api/control/agents/main/tasks', { body });
    expect((await post({ kind: 'child_agent' })).json).toMatchObject({ ok: false, code: 'invalid_request' });
    expect((await post({ kind: 'child_agent', initial_message: 'x', workspace_mode: 'clone' })).status).toBe(400);
    expect((await post({ kind: 'child_agent', initial_message: 'x', workspace_mode: 'worktree' })).json).toMatchObject({ code: 'worktree_unavailable' });
    expect((await post({ kind: 'child_agent', initial_message: 'x', child_agent_id: 'main' })).json).toMatchObject({ code: 'child_agent_exists' });
    expect((await post({ kind: 'shell', cmd: 'true' })).status).toBe(400);
    const tasks = await request(d, 'GET', '/api/agents/main/tasks');
    expect(tasks.json.tasks).toEqual([]);
    const tree = await request(d, 'GET', '/api/control/agents/tree');
    expect(tree.json.agents.map((n: any) => n.agent_id)).toEqual(['main']);
    expect(tree.json.agents[0].children).toEqual([]);
  }, 30_000);
});

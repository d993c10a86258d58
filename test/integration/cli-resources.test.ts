/**
 * The `svc` client commands for control-plane resources (docs/cli.md#commands): tasks, timers,
 * work items, triggers, operator bindings and ingress, workspaces and file references. Every
 * subcommand runs as a real child process (`node bin/svc.js …`, the built output) against one real
 * daemon; assertions are on stdout, stderr and exit codes. Needs `npm run build` first.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliFor } from '../helpers/cli.js';
import { request, runSvc, startDaemon, tempHome, type RunningDaemon } from '../helpers/daemon.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

let d: RunningDaemon;
const dirs: string[] = [];

beforeAll(async () => {
  d = await startDaemon();
  for (const id of ['cli-tasks', 'cli-timers', 'cli-work', 'cli-trig', 'cli-ws']) {
    const r = await request(d, 'POST', `/api/control/agents/${id}/create`, { body: {} });
    expect(r.status, r.text).toBe(201);
  }
});

afterAll(async () => {
  await d?.stop();
  if (d) fs.rmSync(d.home, { recursive: true, force: true });
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** `svc ARGS --url <daemon>`. */
const { svc, svcJson, expectFailure } = cliFor(() => d);


describe('svc tasks', () => {
  const A = 'cli-tasks';

  it('run --wait prints the output and exits 0 for a completed task', async () => {
    const r = await svc(['tasks', 'run', A, 'echo', 'hello-$((40+2))', '--summary', 'greet', '--wait', '--timeout-ms', '10000']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('hello-42\n');
    expect(r.stderr).toMatch(/^task task_\S+ completed, exit 0$/m);
  });

  it('run --wait exits with the exit status of a failed task and still prints its output', async () => {
    const r = await svc(['tasks', 'run', A, 'echo boom; exit 5', '--wait', '--timeout-ms', '10000']);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('boom\n');
    expect(r.stderr).toMatch(/^task task_\S+ failed, exit 5$/m);
  });

  it('run passes the words after `--` verbatim, and options it does not know (-h) to the command', async () => {
    // Not through svc(): it appends --url, which after `--` would be the command's.
    const r = await runSvc(['tasks', 'run', A, '--wait', '--timeout-ms', '10000', '--url', d.base, '--', 'sh', '-c', "echo hi; echo 'it''s' \"$0\"; exit 3"]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toBe('hi\nits sh\n');
    expect(r.stderr).toMatch(/^task task_\S+ failed, exit 3$/m);

    // `-h` is the command's (not --help), and svc's own --wait after it still counts.
    const df = await svc(['tasks', 'run', A, 'printf', '%s,', '-h', '.', '--wait', '--timeout-ms', '10000']);
    expect(df.code, df.stderr).toBe(0);
    expect(df.stdout).toBe('-h,.,\n');
    const created = await runSvc(['tasks', 'run', A, '--json', '--url', d.base, '--', 'echo', '$HOME', 'a b']);
    expect(JSON.parse(created.stdout).command.cmd).toBe("echo '$HOME' 'a b'");
  });

  it('run --wait --json gives the TaskOutputResult; a timeout exits 4', async () => {
    const ok = await svc(['tasks', 'run', A, 'printf abc', '--wait', '--json']);
    expect(ok.code).toBe(0);
    const out = JSON.parse(ok.stdout);
    expect(out).toMatchObject({ ok: true, retrieval_status: 'success', task: { status: 'completed', output_preview: 'abc', exit_status: 0 } });

    const slow = await svc(['tasks', 'run', A, 'sleep 20', '--wait', '--timeout-ms', '200', '--json']);
    expect(slow.code).toBe(4);
    const res = JSON.parse(slow.stdout);
    expect(res.retrieval_status).toBe('timeout');
    expect(res.task.status).toBe('running');
    await svcJson(['tasks', 'stop', A, res.task.task_id]);
  });

  it('run (no --wait) creates with the flags; list and show find it', async () => {
    const workdir = tempHome('svc-cli-wd-');
    dirs.push(workdir);
    const created = await svcJson(['tasks', 'run', A, 'pwd', '--summary', 'where', '--workdir', workdir, '--shell', 'sh', '--login']);
    expect(created.task_id).toMatch(/^task_/);
    expect(created.summary).toBe('where');
    expect(created.command).toMatchObject({ cmd: 'pwd', workdir: fs.realpathSync(workdir), login: true, accepts_input: false });

    const out = await svcJson(['tasks', 'output', A, created.task_id, '--block', '--timeout-ms', '10000']);
    expect(out.task.output_preview.trim()).toBe(fs.realpathSync(workdir));

    const list = await svcJson(['tasks', 'list', A]);
    expect(list.tasks.map((t: Json) => t.task_id)).toContain(created.task_id);
    const human = await svc(['tasks', 'list', A]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^TASK_ID\s+STATUS\s+KIND/);
    expect(human.stdout).toContain(created.task_id);

    const shown = await svcJson(['tasks', 'show', A, created.task_id]);
    expect(shown).toMatchObject({ task_id: created.task_id, status: 'completed', summary: 'where' });
    const shownHuman = await svc(['tasks', 'show', A, created.task_id]);
    expect(shownHuman.stdout).toMatch(new RegExp(`^task_id\\s+${created.task_id}$`, 'm'));
    expect(shownHuman.stdout).toMatch(/^cmd\s+pwd$/m);
  });

  it('output without --block answers not_ready for a running task; human output goes to stdout', async () => {
    const t = await svcJson(['tasks', 'run', A, 'echo partial; sleep 20']);
    let out: Json;
    const deadline = Date.now() + 5000;
    do out = await svcJson(['tasks', 'output', A, t.task_id]);
    while (!out.task.output_preview.includes('partial') && Date.now() < deadline);
    expect(out.retrieval_status).toBe('not_ready');
    const human = await svc(['tasks', 'output', A, t.task_id]);
    expect(human.code).toBe(0);
    expect(human.stdout).toBe('partial\n');
    expect(human.stderr).toMatch(/ running \(not finished yet\)$/m);
    // --block that ends before the task does: the timed-out exit code.
    const blocked = await svc(['tasks', 'output', A, t.task_id, '--block', '--timeout-ms', '200']);
    expect(blocked.code).toBe(4);
    expect(blocked.stderr).toMatch(/ running \(the wait timed out\)$/m);

    const stopped = await svc(['tasks', 'stop', A, t.task_id]);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stdout).toMatch(/^previous_status\s+running$/m);
    expect(stopped.stdout).toMatch(/^signal_sent\s+SIGTERM$/m);
    const after = await svcJson(['tasks', 'output', A, t.task_id, '--block', '--timeout-ms', '10000']);
    expect(after.task.status).toBe('cancelled');
  });

  it('input writes to the stdin of a task started with --input', async () => {
    const t = await svcJson(['tasks', 'run', A, 'read line; echo "got:$line"', '--input']);
    expect(t.command.accepts_input).toBe(true);
    const sent = await svcJson(['tasks', 'input', A, t.task_id, 'hello', '--newline', '--eof']);
    expect(sent).toMatchObject({ accepted_input: true, bytes_written: 6 });
    const out = await svcJson(['tasks', 'output', A, t.task_id, '--block', '--timeout-ms', '10000']);
    expect(out.task.output_preview).toBe('got:hello\n');
    // The task has finished: the input is refused, and the command says so with a non-zero exit.
    const late = await svc(['tasks', 'input', A, t.task_id, 'again']);
    expect(late.code).toBe(1);
    expect(late.stdout).toMatch(/^not accepted: /);
  });

  it('unknown task or agent: non-zero exit with the server code on stderr', async () => {
    await expectFailure(['tasks', 'show', A, 'task_nope'], 'task_not_found');
    await expectFailure(['tasks', 'output', A, 'task_nope'], 'task_not_found');
    await expectFailure(['tasks', 'stop', A, 'task_nope'], 'task_not_found');
    await expectFailure(['tasks', 'input', A, 'task_nope', 'x'], 'task_not_found');
    await expectFailure(['tasks', 'run', 'no-such-agent', 'true'], 'agent_not_found');
    await expectFailure(['tasks', 'run', A, 'true', '--workdir', '/definitely/not/here'], 'workdir_not_found');
  });
});

describe('svc timers', () => {
  const A = 'cli-timers';

  it('create, list, show, cancel', async () => {
    const t = await svcJson(['timers', 'create', A, '--duration-ms', '600000', '--interval-ms', '1000', '--summary', 'poll']);
    expect(t).toMatchObject({ agent_id: A, status: 'active', duration_ms: 600000, interval_ms: 1000, summary: 'poll', fire_count: 0 });
    expect(t.timer_id).toMatch(/^tmr_/);

    const human = await svc(['timers', 'create', A, '--duration-ms', '600000']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^status\s+active$/m);
    expect(human.stdout).toMatch(/^interval_ms\s+-$/m);

    const list = await svcJson(['timers', 'list', A]);
    expect(list.timers).toHaveLength(2);
    expect(list.timers.map((x: Json) => x.timer_id)).toContain(t.timer_id);
    const table = await svc(['timers', 'list', A]);
    expect(table.stdout).toMatch(/^TIMER_ID\s+STATUS/);
    expect(table.stdout.split('\n').filter((l) => l.startsWith('tmr_'))).toHaveLength(2);

    expect(await svcJson(['timers', 'show', A, t.timer_id])).toMatchObject({ timer_id: t.timer_id, status: 'active' });
    const cancelled = await svcJson(['timers', 'cancel', A, t.timer_id]);
    expect(cancelled).toMatchObject({ timer_id: t.timer_id, status: 'cancelled', next_fire_at: null });
    const active = await svcJson(['timers', 'list', A, '--status', 'active']);
    expect(active.timers.map((x: Json) => x.timer_id)).not.toContain(t.timer_id);
  });

  it('errors: unknown timer, missing or bad --duration-ms', async () => {
    await expectFailure(['timers', 'show', A, 'tmr_nope'], 'timer_not_found');
    await expectFailure(['timers', 'cancel', A, 'tmr_nope'], 'timer_not_found');
    const missing = await svc(['timers', 'create', A]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/--duration-ms/);
    const bad = await svc(['timers', 'create', A, '--duration-ms', 'soon']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/option '--duration-ms <duration>' argument 'soon' is invalid/);
    expect((await svcJson(['timers', 'list', A])).timers).toHaveLength(2);
  });

  it('--duration and --interval take units; a bad or doubled one is a usage error naming the flag', async () => {
    const t = await svcJson(['timers', 'create', A, '--duration', '10m', '--interval', '1h30m']);
    expect(t).toMatchObject({ duration_ms: 600_000, interval_ms: 5_400_000 });
    expect(await svcJson(['timers', 'create', A, '--duration-ms', '2m'])).toMatchObject({ duration_ms: 120_000 });
    await svcJson(['timers', 'cancel', A, t.timer_id]);
    for (const [args, message] of [
      [['--duration', '5x'], /option '--duration <duration>' argument '5x' is invalid\. expected a duration such as 500ms, 5s/],
      [['--duration', '1s', '--interval', 'often'], /option '--interval <duration>' argument 'often' is invalid/],
      [['--duration', '1s', '--duration-ms', '1000'], /option '--duration <duration>' cannot be used with option '--duration-ms <duration>'/],
      [['--summary', 'x'], /required option '--duration <duration>' \(or '--duration-ms'\) not specified/],
    ] as const) {
      const r = await svc(['timers', 'create', A, ...args]);
      expect([r.code, r.stdout], r.stderr).toEqual([1, '']);
      expect(r.stderr).toMatch(message);
    }
    const json = await svc(['timers', 'create', A, '--duration', 'soon', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, code: 'usage_error', error: expect.stringContaining('--duration') });
  });
});

describe('svc work', () => {
  const A = 'cli-work';

  it('create, list, show, update, pick, complete', async () => {
    const w = await svcJson(['work', 'create', A, 'ship the CLI']);
    expect(w).toMatchObject({ agent_id: A, objective: 'ship the CLI', state: 'open', plan_status: 'draft', revision: 1 });

    const list = await svcJson(['work', 'list', A]);
    expect(list.work_items.map((x: Json) => x.id)).toEqual([w.id]);
    const table = await svc(['work', 'list', A]);
    expect(table.stdout).toMatch(/^ID\s+STATE\s+PLAN_STATUS/);
    expect(table.stdout).toContain('ship the CLI');
    expect(await svcJson(['work', 'show', A, w.id])).toMatchObject({ id: w.id, revision: 1 });

    const todo = JSON.stringify([
      { text: 'write code', state: 'completed' },
      { text: 'write tests', state: 'in_progress' },
    ]);
    const u = await svcJson(['work', 'update', A, w.id, '--objective', 'ship it', '--blocked-by', 'review', '--recheck-after-ms', '60000', '--todo', todo]);
    expect(u).toMatchObject({ objective: 'ship it', blocked_by: 'review', revision: 2, todo_list: JSON.parse(todo) });
    expect(u.recheck_at).toBeTypeOf('string');
    const shown = await svc(['work', 'show', A, w.id]);
    expect(shown.stdout).toContain('  [x] write code');
    expect(shown.stdout).toContain('  [~] write tests');

    const blockedPick = await svcJson(['work', 'pick', A, w.id, '--reason', 'look']);
    expect(blockedPick.transition).toMatchObject({ switch_kind: 'initial_pick', current_focus_mode: 'inspection', reason: 'look' });

    const unblocked = await svcJson(['work', 'update', A, w.id, '--unblock']);
    expect(unblocked).toMatchObject({ blocked_by: null, recheck_at: null, revision: 3 });
    const pick = await svc(['work', 'pick', A, w.id]);
    expect(pick.code).toBe(0);
    expect(pick.stdout).toMatch(/^switch_kind\s+same_work_item$/m);
    expect(pick.stdout).toMatch(/^current_focus_mode\s+runnable$/m);

    const done = await svcJson(['work', 'complete', A, w.id, 'all shipped']);
    expect(done).toMatchObject({ state: 'completed', result_summary: 'all shipped', revision: 4 });
  });

  it('errors: unknown item, not open, bad flags', async () => {
    await expectFailure(['work', 'show', A, 'wi_nope'], 'work_item_not_found');
    await expectFailure(['work', 'pick', A, 'wi_nope'], 'work_item_not_found');
    await expectFailure(['work', 'create', A, '   '], 'empty_objective');
    const w = await svcJson(['work', 'create', A, 'short-lived']);
    await expectFailure(['work', 'update', A, w.id], 'empty_update');
    await svcJson(['work', 'complete', A, w.id, 'done']);
    await expectFailure(['work', 'complete', A, w.id, 'again'], 'work_item_not_open');

    const badTodo = await svc(['work', 'update', A, w.id, '--todo', '{not json']);
    expect(badTodo.code).not.toBe(0);
    expect(badTodo.stderr).toMatch(/--todo: not valid JSON/);
    const both = await svc(['work', 'update', A, w.id, '--blocked-by', 'x', '--unblock']);
    expect(both.code).not.toBe(0);
    expect(both.stderr).toMatch(/cannot be used with/);
  });
});

describe('svc triggers, bindings, ingress', () => {
  const A = 'cli-trig';

  it('triggers create prints the token once; list never shows it; revoke stops it', async () => {
    const human = await svc(['triggers', 'create', A, '--mode', 'enqueue', '--summary', 'ci hook']);
    expect(human.code, human.stderr).toBe(0);
    const token = /^token\s+(\S+)$/m.exec(human.stdout)?.[1];
    const triggerId = /^trigger_id\s+(trg_\S+)$/m.exec(human.stdout)?.[1];
    expect(token).toBeTruthy();
    expect(human.stdout).toMatch(new RegExp(`^callback_path\\s+/api/callbacks/enqueue/${token}$`, 'm'));
    expect(human.stdout).toMatch(/not shown again/);

    const cb = await request(d, 'POST', `/api/callbacks/enqueue/${token}`, { body: { x: 1 } });
    expect(cb.status, cb.text).toBe(202);

    const wake = await svcJson(['triggers', 'create', A, '--mode', 'wake']);
    expect(wake).toMatchObject({ delivery_mode: 'wake', status: 'active', callback_path: `/api/callbacks/wake/${wake.token}` });

    const list = await svc(['triggers', 'list', A, '--json']);
    expect(list.code).toBe(0);
    expect(list.stdout).not.toContain(token!);
    expect(JSON.parse(list.stdout).triggers.map((t: Json) => t.trigger_id).sort()).toEqual([triggerId, wake.trigger_id].sort());
    const table = await svc(['triggers', 'list', A]);
    expect(table.stdout).toMatch(/^TRIGGER_ID\s+DELIVERY_MODE\s+STATUS/);

    const revoked = await svcJson(['triggers', 'revoke', A, triggerId!]);
    expect(revoked).toMatchObject({ trigger_id: triggerId, status: 'revoked' });
    const dead = await request(d, 'POST', `/api/callbacks/enqueue/${token}`, { body: {} });
    expect(dead.status).toBe(404);
  });

  it('triggers errors: unknown id, bad mode', async () => {
    await expectFailure(['triggers', 'revoke', A, 'trg_nope'], 'trigger_not_found');
    const bad = await svc(['triggers', 'create', A, '--mode', 'shout']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/Allowed choices are enqueue, wake/);
    const missing = await svc(['triggers', 'create', A]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/--mode/);
  });

  it('bindings set and list (credential redacted); ingress through the binding', async () => {
    const b = await svcJson([
      'bindings', 'set', A, '--binding-id', 'cli-b1', '--actor', 'op-1', '--transport', 'remote-operator',
      '--callback-url', 'https://example.test/hook', '--bearer-token', 'super-secret', '--provider', 'acme', '--default-route', 'r1',
    ]);
    expect(b.created).toBe(true);
    expect(b.binding).toMatchObject({
      binding_id: 'cli-b1',
      transport: 'remote_operator',
      operator_actor_id: 'op-1',
      delivery_callback_url: 'https://example.test/hook',
      delivery_auth: { kind: 'bearer', bearer_token: '[redacted]' },
      has_credential: true,
      provider: 'acme',
      default_route_id: 'r1',
    });
    const again = await svc(['bindings', 'set', A, '--binding-id', 'cli-b1', '--actor', 'op-1', '--transport', 'remote_operator']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^updated$/m);
    expect(again.stdout).toMatch(/^provider\s+acme$/m);

    const list = await svc(['bindings', 'list', A, '--json']);
    expect(list.code).toBe(0);
    expect(list.stdout).not.toContain('super-secret');
    expect(JSON.parse(list.stdout).bindings.map((x: Json) => x.binding_id)).toEqual(['cli-b1']);
    const table = await svc(['bindings', 'list', A]);
    expect(table.stdout).toMatch(/^BINDING_ID\s+TRANSPORT/);
    expect(table.stdout).toMatch(/^cli-b1\s+remote_operator\s+op-1\s+active\s+acme/m);

    const sent = await svcJson(['ingress', A, 'hello operator', '--binding', 'cli-b1', '--actor', 'op-1', '--provider', 'acme']);
    expect(sent).toMatchObject({ ok: true, agent_id: A });
    expect(sent.message_id).toBeTypeOf('string');
    const human = await svc(['ingress', A, 'again', '--binding', 'cli-b1', '--actor', 'op-1']);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`^queued msg_\\S+ for ${A}\\n$`));
  });

  it('bindings and ingress errors', async () => {
    await expectFailure(['bindings', 'set', A, '--actor', 'x', '--transport', 't', '--callback-url', 'not a url'], 'invalid_request');
    await expectFailure(['bindings', 'list', 'no-such-agent'], 'agent_not_found');
    await expectFailure(['ingress', A, 'hi', '--binding', 'no-such-binding', '--actor', 'op-1'], 'binding_not_found');
    await expectFailure(['ingress', A, 'hi', '--binding', 'cli-b1', '--actor', 'intruder'], 'binding_mismatch');
    const missing = await svc(['ingress', A, 'hi', '--actor', 'op-1']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/--binding/);
  });
});

describe('svc workspaces and files', () => {
  const A = 'cli-ws';
  let repo: string;

  beforeAll(() => {
    repo = tempHome('svc-cli-repo-');
    dirs.push(repo);
    execFileSync('git', ['init', '-q', repo]);
    fs.mkdirSync(path.join(repo, 'src'));
    fs.writeFileSync(path.join(repo, 'src', 'a.txt'), 'a');
  });

  it('list starts with agent_home; attach, worktrees, resolve, exit, detach', async () => {
    const initial = await svcJson(['workspaces', 'list', A]);
    expect(initial.active_workspace_id).toBe('agent_home');
    expect(initial.registry.map((w: Json) => w.workspace_id)).toEqual(['agent_home']);

    const att = await svcJson(['workspaces', 'attach', A, repo]);
    expect(att).toMatchObject({ created: true, workspace: { kind: 'git', root_kind: 'workspace', active: true } });
    const wsId: string = att.workspace.workspace_id;
    expect(att.active_workspace_id).toBe(wsId);
    const twice = await svc(['workspaces', 'attach', A, repo]);
    expect(twice.stdout).toMatch(/^already attached/);

    const listed = await svc(['workspaces', 'list', A]);
    expect(listed.stdout).toMatch(new RegExp(`^active: ${wsId}$`, 'm'));
    expect(listed.stdout).toMatch(new RegExp(`^${wsId}\\s+true\\s+git`, 'm'));

    const wt = await svcJson(['workspaces', 'worktrees', A]);
    expect(wt).toMatchObject({ workspace_id: wsId, is_git: true, error: null });
    expect(wt.worktrees).toHaveLength(1);
    expect(wt.worktrees[0].is_main).toBe(true);
    const home = await svcJson(['workspaces', 'worktrees', A, '--workspace', 'agent_home']);
    expect(home.is_git).toBe(false);

    const real = fs.realpathSync(repo);
    const res = await svcJson(['files', 'resolve', '--agent', A, `workspace://${wsId}/src/a.txt`, path.join(repo, 'src'), 'src/a.txt', 'missing.txt']);
    expect(res.agent_id).toBe(A);
    expect(res.results).toEqual([
      { status: 'resolved', location: expect.objectContaining({ workspace_id: wsId, path: 'src/a.txt', kind: 'file', absolute_path: path.join(real, 'src', 'a.txt') }) },
      { status: 'resolved', location: expect.objectContaining({ workspace_id: wsId, path: 'src', kind: 'directory' }) },
      { status: 'resolved', location: expect.objectContaining({ workspace_id: wsId, path: 'src/a.txt' }) },
      expect.objectContaining({ status: 'unresolved', reason: 'not_found' }),
    ]);
    const human = await svc(['files', 'resolve', '--agent', A, 'src/a.txt', '/etc/hostname']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`^src/a.txt\\s+resolved\\s+${wsId}\\s+src/a.txt`, 'm'));
    expect(human.stdout).toMatch(/^\/etc\/hostname\s+unresolved\s.*outside_workspace$/m);

    await expectFailure(['workspaces', 'detach', A, wsId], 'workspace_active');
    const exit = await svc(['workspaces', 'exit', A]);
    expect(exit.code).toBe(0);
    expect(exit.stdout).toBe(`left ${wsId}; active: agent_home\n`);
    expect(await svcJson(['workspaces', 'exit', A])).toMatchObject({ changed: false, active_workspace_id: 'agent_home' });
    // Relative paths now resolve against agent_home unless --workspace names the repo.
    const viaFlag = await svcJson(['files', 'resolve', '--agent', A, '--workspace', wsId, 'src/a.txt']);
    expect(viaFlag.results[0]).toMatchObject({ status: 'resolved', location: { workspace_id: wsId } });

    const det = await svcJson(['workspaces', 'detach', A, wsId]);
    expect(det).toMatchObject({ detached: true, workspace_id: wsId, active_workspace_id: 'agent_home' });
    expect((await svcJson(['workspaces', 'list', A])).registry).toHaveLength(1);
  });

  it('errors: unknown workspace, bad path, unknown agent', async () => {
    await expectFailure(['workspaces', 'detach', A, 'ws_nope'], 'workspace_not_found');
    await expectFailure(['workspaces', 'attach', A, '/definitely/not/here'], 'invalid_workspace_path');
    await expectFailure(['workspaces', 'list', 'no-such-agent'], 'agent_not_found');
    await expectFailure(['workspaces', 'worktrees', A, '--workspace', 'ws_nope'], 'workspace_not_found');
    await expectFailure(['files', 'resolve', '--agent', 'no-such-agent', '/tmp'], 'agent_not_found');
  });
});

describe('svc client errors', () => {
  it('an unreachable daemon exits 3 with `unreachable`', async () => {
    const r = await runSvc(['tasks', 'list', 'main', '--url', 'http://127.0.0.1:1']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^svc: unreachable: cannot reach the svc daemon/);
    // --json: the same exit code, the failure as one JSON document on stdout.
    const j = await runSvc(['tasks', 'list', 'main', '--url', 'http://127.0.0.1:1', '--json']);
    expect([j.code, j.stderr]).toEqual([3, '']);
    expect(JSON.parse(j.stdout)).toMatchObject({ ok: false, code: 'unreachable', status: 0, error: expect.stringContaining('cannot reach the svc daemon') });
  });
});

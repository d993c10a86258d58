/**
 * Command tasks (docs/getting-started.md#run-the-daemon-svc-serve and
 * docs/control-plane-api.md#command-tasks) against the real daemon: the HTTP surface, real process
 * groups, the task_result message and events, the concurrency cap, stop and force stop, restarts
 * after SIGKILL and SIGTERM of the daemon, and 200 concurrent tasks leaving nothing behind.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { groupAlive } from '../../src/runtime/tasks/processes/task-process.js';
import { daemonPool, request, stopAgent, type RunningDaemon } from '../helpers/daemon.js';
import { createAgent, createTask, events, expectError, output, pgidOf, snapshot, until, type Json } from '../helpers/tasks.js';

const pool = daemonPool();
afterAll(() => pool.cleanup());

/** Pids whose parent is `ppid` (zombies included: a zombie child is an un-waited child). */
function childrenOf(ppid: number): Array<{ pid: number; state: string }> {
  const out: Array<{ pid: number; state: string }> = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(rest[1]) === ppid) out.push({ pid: Number(name), state: rest[0]! });
    } catch {
      /* gone */
    }
  }
  return out;
}

describe('command tasks over HTTP', () => {
  let d: RunningDaemon;
  beforeAll(async () => {
    d = await pool.start({ configToml: '[tasks]\nmax_concurrent_per_agent = 2\noutput_preview_bytes = 16\n' });
  });

  it('runs a command to completion: 201 snapshot, output file, output preview, list and detail', async () => {
    const task = await createTask(d, 'main', { cmd: 'echo hi; echo err >&2' });
    expect(task.task_id).toMatch(/^task_[0-9A-Z]{26}$/);
    expect(task).toMatchObject({
      kind: 'command',
      wait_policy: 'background',
      summary: 'test task',
      parent_message_id: null,
      child_agent_id: null,
      child_observability: null,
      child_supervision: null,
    });
    expect(['queued', 'running', 'completed']).toContain(task.status);
    expect(task.command).toMatchObject({
      cmd: 'echo hi; echo err >&2',
      shell: '/bin/sh',
      login: false,
      accepts_input: false,
      tty: false,
      terminal_reentry: false,
      promoted_from_exec_command: false,
      workdir: path.join(d.home, 'agents', 'main'),
    });
    expect(task.command.output_path.startsWith(path.join(d.home, 'agents', 'main') + path.sep)).toBe(true);
    const out = await output(d, 'main', task.task_id);
    expect(out.retrieval_status).toBe('success');
    expect(out.task).toMatchObject({ task_id: task.task_id, kind: 'command', status: 'completed', exit_status: 0, output_preview: 'hi\nerr\n', output_truncated: false });
    expect(fs.readFileSync(task.command.output_path, 'utf8')).toBe('hi\nerr\n');
    const detail = await snapshot(d, 'main', task.task_id);
    expect(detail).toMatchObject({ status: 'completed', command: { exit_status: 0 } });
    const list = await request(d, 'GET', '/api/agents/main/tasks');
    expect(list.json.ok).toBe(true);
    expect(list.json.tasks.map((t: Json) => t.task_id)).toContain(task.task_id);
  });

  it('keeps only the last output_preview_bytes in the preview and says it truncated', async () => {
    const task = await createTask(d, 'main', { cmd: "printf '%s' 0123456789abcdefghijklmnopqrstuvwxyz" });
    const out = await output(d, 'main', task.task_id);
    expect(out.task.output_preview).toBe('klmnopqrstuvwxyz');
    expect(out.task.output_truncated).toBe(true);
    expect(fs.readFileSync(task.command.output_path, 'utf8')).toBe('0123456789abcdefghijklmnopqrstuvwxyz');
  });

  it('a non-zero exit status fails the task with that status and a failure_artifact', async () => {
    const task = await createTask(d, 'main', { cmd: 'exit 7' });
    const out = await output(d, 'main', task.task_id);
    expect(out.task).toMatchObject({ status: 'failed', exit_status: 7 });
    expect(out.task.failure_artifact).toMatchObject({ category: 'task', exit_status: 7 });
    expect((await snapshot(d, 'main', task.task_id)).command.exit_status).toBe(7);
  });

  it('honours workdir and login; refuses bad input with the envelope', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-wd-'));
    try {
      const a = await createTask(d, 'main', { cmd: 'pwd', workdir: dir });
      expect(a.command.workdir).toBe(dir);
      expect((await output(d, 'main', a.task_id)).task.output_preview).toBe(`${fs.realpathSync(dir)}\n`.slice(-16));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const login = await createTask(d, 'main', { cmd: 'shopt -q login_shell && echo L || echo N', shell: 'bash', login: true });
    expect(login.command).toMatchObject({ login: true, shell: 'bash' });
    expect((await output(d, 'main', login.task_id)).task.output_preview).toBe('L\n');
    const plain = await createTask(d, 'main', { cmd: 'shopt -q login_shell && echo L || echo N', shell: 'bash' });
    expect((await output(d, 'main', plain.task_id)).task.output_preview).toBe('N\n');

    expectError(await request(d, 'POST', '/api/control/agents/main/tasks', { body: { summary: 'x', cmd: 'true', workdir: '/no/such/dir' } }), 400, 'workdir_not_found');
    expectError(await request(d, 'POST', '/api/control/agents/main/tasks', { body: { summary: 'x', cmd: 'true', shell: '/no/shell' } }), 400, 'shell_not_found');
    expectError(await request(d, 'POST', '/api/control/agents/main/tasks', { body: { summary: 'x' } }), 400, 'invalid_request');
    expectError(await request(d, 'POST', '/api/control/agents/main/tasks', { body: { summary: 'x', cmd: 'a\u0000b' } }), 400, 'invalid_request');
    expectError(await request(d, 'POST', '/api/control/agents/main/tasks', { body: { cmd: 'true', login: 'yes' } }), 400, 'invalid_request');
    expectError(await request(d, 'POST', '/api/control/agents/ghost/tasks', { body: { summary: 'x', cmd: 'true' } }), 404, 'agent_not_found');
    expectError(await request(d, 'GET', '/api/agents/main/tasks/task_01ARZ3NDEKTSV4RRFFQ69G5FAV'), 404, 'task_not_found');
    expectError(await request(d, 'GET', '/api/agents/main/tasks/task_01ARZ3NDEKTSV4RRFFQ69G5FAV/output'), 404, 'task_not_found');
    expectError(await request(d, 'POST', '/api/control/agents/main/tasks/task_01ARZ3NDEKTSV4RRFFQ69G5FAV/stop'), 404, 'task_not_found');
    expectError(await request(d, 'GET', '/api/agents/main/tasks/x/output?timeout_ms=-1'), 400, 'invalid_request');
  });

  it('output: not_ready without block, timeout after timeout_ms (event-driven), success when it ends; stdin via input', async () => {
    await createAgent(d, 'io');
    const task = await createTask(d, 'io', { cmd: 'read a; echo "got $a"', accepts_input: true });
    expect(task.command).toMatchObject({ accepts_input: true, input_target: 'stdin' });
    const notReady = await output(d, 'io', task.task_id, 'block=false');
    expect(notReady.retrieval_status).toBe('not_ready');
    expect(notReady.task.status).toBe('running');
    const t0 = Date.now();
    const timedOut = await output(d, 'io', task.task_id, 'block=true&timeout_ms=300');
    const waited = Date.now() - t0;
    expect(timedOut.retrieval_status).toBe('timeout');
    expect(waited).toBeGreaterThanOrEqual(280);
    expect(waited).toBeLessThan(3000);

    const pending = output(d, 'io', task.task_id, 'block=true&timeout_ms=20000');
    await new Promise((r) => setTimeout(r, 100));
    const t1 = Date.now();
    const input = await request(d, 'POST', `/api/control/agents/io/tasks/${task.task_id}/input`, { body: { text: 'yes\n' } });
    expect(input.status).toBe(200);
    expect(input.json).toMatchObject({ accepted_input: true, bytes_written: 4, input_target: 'stdin' });
    expect(input.json.task.task_id).toBe(task.task_id);
    const done = await pending;
    expect(Date.now() - t1).toBeLessThan(2000); // woken by the exit, not by the 20 s timeout
    expect(done.retrieval_status).toBe('success');
    expect(done.task).toMatchObject({ status: 'completed', output_preview: 'got yes\n' });

    const late = await request(d, 'POST', `/api/control/agents/io/tasks/${task.task_id}/input`, { body: { text: 'more\n' } });
    expect(late.status).toBe(200);
    expect(late.json.accepted_input).toBe(false);
    expect(late.json.summary_text).toEqual(expect.any(String));
    const noInput = await createTask(d, 'io', { cmd: 'sleep 0.2' });
    const refused = await request(d, 'POST', `/api/control/agents/io/tasks/${noInput.task_id}/input`, { body: { text: 'x' } });
    expect(refused.status).toBe(200);
    expect(refused.json).toMatchObject({ accepted_input: false, bytes_written: null });
    expect(refused.json.summary_text).toMatch(/accepts_input/);
  });

  it('stop: SIGTERM to the group -> cancelling -> cancelled; stop on a finished task answers it unchanged', async () => {
    await createAgent(d, 'stopper');
    const task = await createTask(d, 'stopper', { cmd: 'sleep 30 & sleep 30; wait' });
    const pgid = await pgidOf(d, 'stopper', task.task_id);
    expect(groupAlive(pgid)).toBe(true);
    const stop = await request(d, 'POST', `/api/control/agents/stopper/tasks/${task.task_id}/stop`);
    expect(stop.status, stop.text).toBe(200);
    expect(stop.json).toMatchObject({ ok: true, force_stop_requested: false });
    expect(stop.json.task.status).toBe('cancelling');
    const out = await output(d, 'stopper', task.task_id);
    expect(out.task.status).toBe('cancelled');
    await until(() => !groupAlive(pgid), 'the task group to be gone');
    const before = await snapshot(d, 'stopper', task.task_id);
    const again = await request(d, 'POST', `/api/control/agents/stopper/tasks/${task.task_id}/stop`, { body: {} });
    expect(again.status).toBe(200);
    expect(again.json.force_stop_requested).toBe(false);
    expect(again.json.task).toEqual(before);
  });

  it('a second stop forces: SIGKILL to a group that ignores SIGTERM', async () => {
    await createAgent(d, 'stubborn');
    const task = await createTask(d, 'stubborn', { cmd: "trap '' TERM; echo armed; sleep 30" });
    await until(async () => (await output(d, 'stubborn', task.task_id, 'block=false')).task.output_preview === 'armed\n', 'the trap to be set');
    const pgid = await pgidOf(d, 'stubborn', task.task_id);
    const first = await request(d, 'POST', `/api/control/agents/stubborn/tasks/${task.task_id}/stop`, { body: {} });
    expect(first.json).toMatchObject({ force_stop_requested: false, task: { status: 'cancelling' } });
    expect((await output(d, 'stubborn', task.task_id, 'block=true&timeout_ms=400')).retrieval_status).toBe('timeout');
    expect((await snapshot(d, 'stubborn', task.task_id)).status).toBe('cancelling');
    expect(groupAlive(pgid)).toBe(true);
    const second = await request(d, 'POST', `/api/control/agents/stubborn/tasks/${task.task_id}/stop`, { body: {} });
    expect(second.json.force_stop_requested).toBe(true);
    const out = await output(d, 'stubborn', task.task_id);
    expect(out.retrieval_status).toBe('success');
    expect(out.task.status).toBe('cancelled');
    await until(() => !groupAlive(pgid), 'the task group to be gone');
  });

  it('caps running tasks per agent: the third waits queued and runs when a slot frees', async () => {
    await createAgent(d, 'capped');
    const a = await createTask(d, 'capped', { cmd: 'read x', accepts_input: true });
    const b = await createTask(d, 'capped', { cmd: 'read x', accepts_input: true });
    const c = await createTask(d, 'capped', { cmd: 'echo third' });
    expect([a.status, b.status, c.status]).toEqual(['running', 'running', 'queued']);
    expect((await output(d, 'capped', c.task_id, 'block=true&timeout_ms=300')).retrieval_status).toBe('timeout');
    const state = await request(d, 'GET', '/api/agents/capped/state');
    expect(state.json.tasks.map((t: Json) => t.status).sort()).toEqual(['queued', 'running', 'running']);
    await request(d, 'POST', `/api/control/agents/capped/tasks/${a.task_id}/input`, { body: { text: '\n' } });
    const out = await output(d, 'capped', c.task_id);
    expect(out.task).toMatchObject({ status: 'completed', output_preview: 'third\n' });
    await request(d, 'POST', `/api/control/agents/capped/tasks/${b.task_id}/input`, { body: { text: '\n' } });
    await output(d, 'capped', b.task_id);
    const changes = (await events(d, 'capped')).filter((e) => e.type === 'task_status_changed' && e.payload.task_id === c.task_id);
    expect(changes.map((e) => [e.payload.from, e.payload.to])).toEqual([
      ['queued', 'running'],
      ['running', 'completed'],
    ]);
  });

  it('records task_create_requested and task_status_changed, and enqueues a task_result with task provenance', async () => {
    await createAgent(d, 'evented');
    // Stopped, so the task_result stays queued and the log holds only the task's own events.
    await stopAgent(d, 'evented');
    const task = await createTask(d, 'evented', { cmd: 'echo result; exit 2' });
    await output(d, 'evented', task.task_id);
    const evs = await events(d, 'evented');
    const all = evs.filter((e) => e.payload.task_id === task.task_id || e.provenance?.origin?.task_id === task.task_id);
    // Holon's kinds follow each task event as companions (docs/holon-gui.md#event-kinds).
    expect(all.filter((e) => e.payload.companion_of).map((e) => [e.type, e.payload.companion_of.type, e.payload.task_status])).toEqual([
      ['task_created', 'task_create_requested', 'queued'],
      ['task_status_updated', 'task_status_changed', 'running'],
      ['task_result_received', 'task_status_changed', 'failed'],
    ]);
    const mine = all.filter((e) => !e.payload.companion_of);
    expect(mine.map((e) => e.type)).toEqual(['task_create_requested', 'task_status_changed', 'task_status_changed', 'message_enqueued']);
    expect(mine[0].payload).toMatchObject({ task_id: task.task_id, cmd: 'echo result; exit 2', summary: 'test task' });
    expect(mine[2].payload).toMatchObject({ from: 'running', to: 'failed', exit_status: 2 });
    const msg = mine[3];
    expect(msg.provenance).toMatchObject({
      origin: { kind: 'task', task_id: task.task_id },
      trust: 'trusted_system',
      authority_class: 'runtime_instruction',
      kind: 'task_result',
      delivery_surface: 'task',
    });
    expect(msg.payload.body).toMatchObject({ type: 'json', value: { task_id: task.task_id, status: 'failed', exit_status: 2, output_preview: 'result\n' } });
    // Each status change is in the log by the time the change is visible.
    const seqs = evs.map((e) => e.event_seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
  });
});

describe('command tasks across daemon deaths', () => {
  afterEach(() => pool.killAll());

  it('SIGKILL of the daemon: at restart the task is interrupted and its process group is killed', async () => {
    const home = pool.home();
    // A sandboxed task dies with the daemon (test/integration/sandbox.test.ts); this is the unsandboxed one.
    const d = await pool.start({ home, configToml: '[tasks]\nsandbox = "off"\n' });
    const task = await createTask(d, 'main', { cmd: 'sleep 60 & sleep 60; wait' });
    const pgid = await pgidOf(d, 'main', task.task_id);
    d.proc.kill('SIGKILL');
    await new Promise((r) => d.proc.once('exit', r));
    await new Promise((r) => setTimeout(r, 200));
    expect(groupAlive(pgid)).toBe(true); // the daemon died, its task did not
    const again = await pool.start({ home });
    const snap = await snapshot(again, 'main', task.task_id);
    expect(snap.status).toBe('interrupted');
    await until(() => !groupAlive(pgid), 'the leftover group to be killed');
    const out = await output(again, 'main', task.task_id, 'block=false');
    expect(out.retrieval_status).toBe('success');
    expect(out.task.failure_artifact).toMatchObject({ category: 'runtime' });
    const changes = (await events(again, 'main')).filter((e) => e.type === 'task_status_changed' && e.payload.task_id === task.task_id);
    expect(changes.at(-1).payload).toMatchObject({ from: 'running', to: 'interrupted' });
  });

  it('graceful SIGTERM of the daemon: running tasks are terminated and interrupted, within 5 s', async () => {
    const home = pool.home();
    const d = await pool.start({ home });
    const soft = await createTask(d, 'main', { cmd: 'sleep 60' });
    const hard = await createTask(d, 'main', { cmd: "trap '' TERM; sleep 60" });
    const pgids = [await pgidOf(d, 'main', soft.task_id), await pgidOf(d, 'main', hard.task_id)];
    const t0 = Date.now();
    const code = await d.stop('SIGTERM');
    expect(code).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5000);
    for (const pgid of pgids) await until(() => !groupAlive(pgid), `group ${pgid} to be gone`, 2000);
    const again = await pool.start({ home });
    for (const t of [soft, hard]) expect((await snapshot(again, 'main', t.task_id)).status).toBe('interrupted');
    const changes = (await events(again, 'main')).filter((e) => e.type === 'task_status_changed' && e.payload.to === 'interrupted');
    expect(changes.map((e) => e.payload.from).sort()).toEqual(['running', 'running']);
  });

  it('200 concurrent tasks all finish and leave no zombie, child or group member behind', async () => {
    const d = await pool.start({ configToml: '[tasks]\nmax_concurrent_per_agent = 250\n' });
    const daemonPid = d.proc.pid!;
    const tasks = await Promise.all(
      Array.from({ length: 200 }, (_, i) => createTask(d, 'main', { cmd: i % 2 ? `echo task ${i}` : `sleep 0.3; echo task ${i} >&2` })),
    );
    expect(new Set(tasks.map((t) => t.task_id)).size).toBe(200);
    const outs = await Promise.all(tasks.map((t) => output(d, 'main', t.task_id, 'block=true&timeout_ms=60000')));
    outs.forEach((o, i) => {
      expect(o.retrieval_status).toBe('success');
      expect(o.task).toMatchObject({ status: 'completed', exit_status: 0, output_preview: `task ${i}\n` });
    });
    const evs = await events(d, 'main');
    const pgids = evs.filter((e) => e.type === 'task_status_changed' && e.payload.to === 'running').map((e) => e.payload.pgid as number);
    expect(pgids).toHaveLength(200);
    expect(evs.filter((e) => e.type === 'message_enqueued' && e.provenance?.kind === 'task_result')).toHaveLength(200);
    await until(() => childrenOf(daemonPid).length === 0, 'the daemon to have no children', 5000);
    expect(childrenOf(daemonPid)).toEqual([]);
    for (const pgid of pgids) expect(groupAlive(pgid), `group ${pgid}`).toBe(false);
  }, 120_000);
});

/**
 * Command tasks in process (docs/control-plane-api.md#command-tasks): real child processes, real
 * process groups, the service called directly. The HTTP surface and daemon restarts are in
 * test/integration/tasks.test.ts.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { ManualClock } from '../../src/core/clock.js';
import { createServices, startServices, stopServices } from '../../src/services.js';
import { groupAlive, killLeftoverGroup, procStartTime, procStat, readTail, resolveExecutable } from '../../src/runtime/tasks/processes/task-process.js';
import type { TaskSnapshot } from '../../src/runtime/tasks/task-records.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { testServices, type TestServices } from '../helpers/services.js';

let t: TestServices | null = null;
const extraCleanup: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const c of extraCleanup.splice(0)) await c();
  await t?.close();
  t = null;
});

/** For checks of host pids and terminals as an unsandboxed command sees them. */
const UNSANDBOXED = '[tasks]\nsandbox = "off"\n';

function setup(configToml?: string): TestServices {
  t = testServices(configToml ? { configToml } : {});
  return t;
}

const run = (cmd: string, extra: Record<string, unknown> = {}, agent = 'main') => t!.s.tasks.create(agent, { summary: 'test', cmd, ...extra });
const finish = (task: TaskSnapshot, agent = 'main') => t!.s.tasks.output(agent, task.task_id, { block: true, timeoutMs: 10_000 });
const events = (agent = 'main') => t!.s.events.page(agent, { limit: 1000, order: 'asc', max_level: 'debug' }).events;
const statusOf = (task: TaskSnapshot, agent = 'main') => t!.s.tasks.get(agent, task.task_id).status;

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

function pgidOf(task: TaskSnapshot, agent = 'main'): number {
  const ev = events(agent).find((e) => e.type === 'task_status_changed' && e.payload.task_id === task.task_id && e.payload.to === 'running');
  return ev!.payload.pgid as number;
}

describe('readTail', () => {
  it('returns the last bytes, says when it cut, and never splits a UTF-8 character', () => {
    const dir = fs.mkdtempSync('/tmp/svc-tail-');
    extraCleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const f = path.join(dir, 'out.log');
    fs.writeFileSync(f, 'abc');
    expect(readTail(f, 16)).toEqual({ text: 'abc', truncated: false, bytes: 3 });
    fs.writeFileSync(f, '0123456789');
    expect(readTail(f, 4)).toEqual({ text: '6789', truncated: true, bytes: 10 });
    fs.writeFileSync(f, 'xx€€'); // € is 3 bytes: the last 4 bytes start inside the first €
    expect(readTail(f, 4)).toEqual({ text: '€', truncated: true, bytes: 8 });
    expect(readTail(path.join(dir, 'missing'), 4)).toEqual({ text: '', truncated: false, bytes: 0 });
  });

  it('resolves shells by path or PATH name', () => {
    expect(resolveExecutable('/bin/sh')).toBe('/bin/sh');
    expect(resolveExecutable('sh')).not.toBeNull();
    expect(resolveExecutable('/definitely/not/a/shell')).toBeNull();
    expect(resolveExecutable('/tmp')).toBeNull();
  });
});

describe('command tasks', () => {
  it('runs a command to completion: snapshot, output file, events and a task_result message', async () => {
    setup();
    const task = run('echo hello; echo oops >&2');
    expect(task.task_id).toMatch(/^task_/);
    expect(task).toMatchObject({ kind: 'command', status: 'running', wait_policy: 'background', summary: 'test', parent_message_id: null });
    expect(task.command).toMatchObject({
      cmd: 'echo hello; echo oops >&2',
      shell: '/bin/sh',
      login: false,
      accepts_input: false,
      input_target: null,
      tty: false,
      terminal_reentry: false,
      promoted_from_exec_command: false,
      workdir: t!.s.agents.homeOf('main'),
      exit_status: null,
    });
    expect(task.command!.cmd_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(task.command!.output_path).toBe(path.join(t!.s.agents.homeOf('main'), 'tasks', `${task.task_id}.log`));
    const out = await finish(task);
    expect(out.retrieval_status).toBe('success');
    expect(out.task).toMatchObject({ status: 'completed', exit_status: 0, output_truncated: false, failure_artifact: null });
    expect(out.task.output_preview).toBe('hello\noops\n');
    expect(fs.readFileSync(task.command!.output_path, 'utf8')).toBe('hello\noops\n');

    const evs = events().filter((e) => e.payload.task_id === task.task_id || e.payload.metadata);
    const kinds = evs.map((e) => e.type);
    expect(kinds).toContain('task_create_requested');
    const changes = evs.filter((e) => e.type === 'task_status_changed').map((e) => [e.payload.from, e.payload.to]);
    expect(changes).toEqual([
      ['queued', 'running'],
      ['running', 'completed'],
    ]);
    const msg = evs.find((e) => e.type === 'message_enqueued' && (e.payload.kind as string) === 'task_result');
    expect(msg!.provenance).toMatchObject({
      origin: { kind: 'task', task_id: task.task_id },
      trust: 'trusted_system',
      kind: 'task_result',
      delivery_surface: 'task',
    });
    expect((msg!.payload.body as { value: Record<string, unknown> }).value).toMatchObject({
      task_id: task.task_id,
      status: 'completed',
      exit_status: 0,
      output_preview: 'hello\noops\n',
    });
    expect(t!.s.queue.pending('main')).toBe(1);
  });

  it('a non-zero exit fails with its exit status; a signal death fails with exit_status null', async () => {
    setup();
    const out = await finish(run('echo bad; exit 3'));
    expect(out.task).toMatchObject({ status: 'failed', exit_status: 3 });
    expect(out.task.failure_artifact).toMatchObject({ category: 'task', kind: 'exit_status', exit_status: 3 });
    const killed = await finish(run('kill -9 $$'));
    expect(killed.task).toMatchObject({ status: 'failed', exit_status: null });
    expect(killed.task.failure_artifact).toMatchObject({ kind: 'signal', metadata: { signal: 'SIGKILL' } });
  });

  it('honours shell, login and workdir; refuses a missing shell or workdir with 400', async () => {
    setup();
    const sub = path.join(t!.s.agents.homeOf('main'), 'sub');
    fs.mkdirSync(sub);
    const a = run('pwd', { workdir: 'sub' });
    expect(a.command!.workdir).toBe(sub);
    expect((await finish(a)).task.output_preview).toBe(`${sub}\n`);
    const bash = resolveExecutable('bash');
    if (bash) {
      const b = run('shopt -q login_shell && echo login || echo plain', { shell: 'bash', login: true });
      expect(b.command).toMatchObject({ shell: 'bash', login: true });
      expect((await finish(b)).task.output_preview).toBe('login\n');
      const c = run('shopt -q login_shell && echo login || echo plain', { shell: 'bash' });
      expect((await finish(c)).task.output_preview).toBe('plain\n');
    }
    expect(() => run('true', { workdir: '/no/such/dir' })).toThrowError(expect.objectContaining({ status: 400, code: 'workdir_not_found' }));
    expect(() => run('true', { shell: '/no/such/shell' })).toThrowError(expect.objectContaining({ status: 400, code: 'shell_not_found' }));
    expect(() => t!.s.tasks.create('ghost', { cmd: 'true' })).toThrowError(expect.objectContaining({ status: 404, code: 'agent_not_found' }));
    expect(() => t!.s.tasks.get('main', 'task_nope')).toThrowError(expect.objectContaining({ status: 404, code: 'task_not_found' }));
  });

  it('output: not_ready without block, timeout after timeout_ms, success as soon as it ends', async () => {
    setup();
    const task = run('echo started; read x; echo done', { accepts_input: true });
    await until(() => readTail(task.command!.output_path, 100).text === 'started\n');
    const now = await t!.s.tasks.output('main', task.task_id);
    expect(now.retrieval_status).toBe('not_ready');
    expect(now.task.output_preview).toBe('started\n');
    const t0 = Date.now();
    const timedOut = await t!.s.tasks.output('main', task.task_id, { block: true, timeoutMs: 150 });
    expect(timedOut.retrieval_status).toBe('timeout');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    const waiting = t!.s.tasks.output('main', task.task_id, { block: true, timeoutMs: 10_000 });
    const t1 = Date.now();
    setTimeout(() => t!.s.tasks.input('main', task.task_id, { text: 'go\n' }), 50);
    const done = await waiting;
    expect(done.retrieval_status).toBe('success');
    expect(done.task.output_preview).toBe('started\ndone\n');
    expect(Date.now() - t1).toBeLessThan(2000);
  });

  it('input reaches stdin only for a running task created with accepts_input', async () => {
    setup();
    const task = run('read a; read b; echo "got $a $b"', { accepts_input: true });
    expect(task.command!.input_target).toBe('stdin');
    const r = t!.s.tasks.input('main', task.task_id, { text: 'one\n' });
    expect(r).toMatchObject({ accepted_input: true, bytes_written: 4, input_target: 'stdin' });
    t!.s.tasks.input('main', task.task_id, { text: 'two\n', eof: true });
    expect((await finish(task)).task.output_preview).toBe('got one two\n');
    const after = t!.s.tasks.input('main', task.task_id, { text: 'late\n' });
    expect(after).toMatchObject({ accepted_input: false, bytes_written: null });
    expect(after.summary_text).toMatch(/completed/);
    const plain = run('sleep 5');
    const refused = t!.s.tasks.input('main', plain.task_id, { text: 'x' });
    expect(refused).toMatchObject({ accepted_input: false, input_target: null });
    expect(refused.summary_text).toMatch(/accepts_input/);
  });

  it('stop: SIGTERM to the group -> cancelling -> cancelled; a second stop forces SIGKILL', async () => {
    setup();
    const task = run('sleep 30 & wait');
    const pgid = pgidOf(task);
    expect(groupAlive(pgid)).toBe(true);
    const first = t!.s.tasks.requestStop('main', task.task_id);
    expect(first).toMatchObject({ force_stop_requested: false, signal_sent: 'SIGTERM' });
    expect(first.task.status).toBe('cancelling');
    const out = await finish(task);
    expect(out.task.status).toBe('cancelled');
    await until(() => !groupAlive(pgid));
    const again = t!.s.tasks.requestStop('main', task.task_id);
    expect(again).toMatchObject({ force_stop_requested: false, signal_sent: null });
    expect(again.task).toEqual(t!.s.tasks.get('main', task.task_id));

    const stubborn = run("trap '' TERM; echo ready; sleep 30");
    await until(() => readTail(stubborn.command!.output_path, 100).text === 'ready\n');
    expect(t!.s.tasks.requestStop('main', stubborn.task_id).task.status).toBe('cancelling');
    await new Promise((r) => setTimeout(r, 200));
    expect(statusOf(stubborn)).toBe('cancelling');
    const forced = t!.s.tasks.requestStop('main', stubborn.task_id);
    expect(forced.force_stop_requested).toBe(true);
    expect((await finish(stubborn)).task.status).toBe('cancelled');
    await until(() => !groupAlive(pgidOf(stubborn)));
  });

  it('caps running tasks per agent; the next queued one starts when a slot frees; stop on queued cancels it', async () => {
    setup('[tasks]\nmax_concurrent_per_agent = 2\n');
    const a = run('read x', { accepts_input: true });
    const b = run('read x', { accepts_input: true });
    const c = run('echo third');
    const d = run('echo fourth');
    expect([a.status, b.status, c.status, d.status]).toEqual(['running', 'running', 'queued', 'queued']);
    expect(t!.s.tasks.stateFor('main')).toHaveLength(4);
    const stopped = t!.s.tasks.requestStop('main', d.task_id);
    expect(stopped.task.status).toBe('cancelled');
    expect(statusOf(c)).toBe('queued');
    t!.s.tasks.input('main', a.task_id, { text: '\n' });
    const out = await finish(c);
    expect(out.task).toMatchObject({ status: 'completed', output_preview: 'third\n' });
    t!.s.tasks.input('main', b.task_id, { text: '\n' });
    await finish(b);
    expect(t!.s.tasks.stateFor('main')).toEqual([]);
    expect(t!.s.tasks.list('main').map((x) => x.task_id)).toEqual([d.task_id, c.task_id, b.task_id, a.task_id]);
  });

  it('kills what the command left running in its group when the leader exits', async () => {
    // The pid a command writes down is a host pid only outside the sandbox's pid namespace; the
    // sandboxed case is in test/integration/sandbox.test.ts.
    setup(UNSANDBOXED);
    const task = run('sleep 30 & echo $! > bg.pid');
    await finish(task);
    const bg = Number(fs.readFileSync(path.join(t!.s.agents.homeOf('main'), 'bg.pid'), 'utf8'));
    expect(bg).toBeGreaterThan(1);
    await until(() => !groupAlive(pgidOf(task)), 3000);
    expect(procStat(bg)?.state ?? 'Z').toBe('Z'); // gone, or a zombie waiting for init
  });

  it('graceful stop interrupts running tasks and kills their groups; agent deletion ends and forgets its tasks', async () => {
    setup();
    t!.s.agents.create('other', {});
    const del = run("trap '' TERM; sleep 30", {}, 'other');
    const delPgid = pgidOf(del, 'other');
    t!.s.deletion.request('other', { cascadePrivateChildren: false });
    await t!.s.deletion.idle();
    await until(() => !groupAlive(delPgid));
    expect(t!.s.agents.find('other')).toBeNull();

    const task = run('sleep 30');
    const pgid = pgidOf(task);
    const started = Date.now();
    await t!.s.tasks.stop();
    expect(Date.now() - started).toBeLessThan(2500);
    await until(() => !groupAlive(pgid));
    expect(statusOf(task)).toBe('interrupted');
    expect(() => run('true')).toThrowError(expect.objectContaining({ code: 'shutting_down' }));
  });
});

describe('recovery after the daemon died', () => {
  it('marks active tasks interrupted and kills their leftover groups at the next start', async () => {
    const first = testServices();
    const leftover = spawn('/bin/sh', ['-c', 'sleep 30'], { detached: true, stdio: 'ignore' });
    const pid = leftover.pid!;
    extraCleanup.push(() => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    });
    const now = new Date().toISOString();
    const insert = first.s.store.db.prepare(
      `INSERT INTO tasks (task_id, agent_id, status, cmd, cmd_digest, shell, workdir, output_path, pid, pgid, proc_start, created_at, updated_at)
       VALUES (?, 'main', ?, 'sleep 30', 'x', '/bin/sh', '/tmp', '/tmp/none.log', ?, ?, ?, ?, ?)`,
    );
    insert.run('task_running', 'running', pid, pid, procStartTime(pid), now, now);
    insert.run('task_queued', 'queued', null, null, null, now, now);
    // A "running" task whose recorded pid now belongs to a stranger (start time differs): left alone.
    insert.run('task_stranger', 'cancelling', process.pid, process.pid, 'not-the-start-time', now, now);
    first.s.store.close(); // the daemon dies: no stop hooks

    const second = createServices(loadConfig({ home: first.home }, {}), new ManualClock(), createLogger('silent'));
    startServices(second);
    try {
      for (const id of ['task_running', 'task_queued', 'task_stranger']) {
        expect(second.tasks.get('main', id).status).toBe('interrupted');
      }
      await new Promise<void>((resolve) => (leftover.exitCode !== null || leftover.signalCode !== null ? resolve() : leftover.once('exit', () => resolve())));
      expect(leftover.signalCode).toBe('SIGKILL');
      await until(() => !groupAlive(pid));
      const results = second.events.page('main', { limit: 1000, order: 'asc', max_level: 'debug' }).events.filter((e) => e.type === 'message_enqueued');
      expect(results.map((e) => (e.provenance!.origin as { task_id: string }).task_id).sort()).toEqual(['task_queued', 'task_running', 'task_stranger']);
    } finally {
      await stopServices(second);
      fs.rmSync(first.home, { recursive: true, force: true });
    }
  });

  it('killLeftoverGroup leaves a process alone whose start time does not match', () => {
    expect(killLeftoverGroup(process.pid, 'nope')).toBe(false);
    expect(killLeftoverGroup(1, null)).toBe(false);
  });
});

/**
 * Command tasks in a pseudo-terminal (`tty: true`, src/runtime/tasks/processes/task-pty.ts) against
 * the real daemon: the HTTP surface and the CLI, input and EOF through the terminal, stop and force
 * stop, refused sizes, and what becomes of a terminal task when the daemon is killed or shut down.
 */
import fs from 'node:fs';
import { spawn as spawnPty } from 'node-pty';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { groupAlive, procStat } from '../../src/runtime/tasks/processes/task-process.js';
import { cliFor } from '../helpers/cli.js';
import { BIN, daemonPool, request, type RunningDaemon } from '../helpers/daemon.js';
import { createAgent, createTask, expectError, markedPids, output, pgidOf, snapshot, until, type Json } from '../helpers/tasks.js';

const pool = daemonPool();
afterAll(() => pool.cleanup());

const input = (d: RunningDaemon, agent: string, taskId: string, body: Record<string, unknown>) =>
  request(d, 'POST', `/api/control/agents/${agent}/tasks/${taskId}/input`, { body });

/** Controlling terminal (field 7, tty_nr; 0 for none) from /proc/<pid>/stat. */
function ttyNr(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[4]);
}

/** The command sandbox off, for what only an unsandboxed task does (surviving the daemon). */
const UNSANDBOXED = '[tasks]\nsandbox = "off"\n';

describe('tty command tasks over HTTP', () => {
  let d: RunningDaemon;
  beforeAll(async () => {
    d = await pool.start();
  });
  const { svc, svcJson } = cliFor(() => d);

  it('a tty task sees a terminal (tty, test -t 0), a pipe task does not; snapshot, list and output say so', async () => {
    const cmd = 'tty; test -t 0 && echo interactive';
    const task = await createTask(d, 'main', { cmd, tty: true });
    expect(task.command).toMatchObject({ tty: true, accepts_input: true, input_target: 'tty', terminal_size: { cols: 120, rows: 40 } });
    const out = await output(d, 'main', task.task_id);
    expect(out.task).toMatchObject({ status: 'completed', exit_status: 0 });
    // In the command sandbox bubblewrap shows the task's own pty as /dev/console (its /dev has no other terminal).
    expect(out.task.output_preview).toMatch(/^(\/dev\/pts\/\d+|\/dev\/console)\r\ninteractive\r\n$/);
    expect(fs.readFileSync(task.command.output_path, 'utf8')).toBe(out.task.output_preview);
    expect((await snapshot(d, 'main', task.task_id)).command).toMatchObject({ tty: true, terminal_reentry: false });

    const plain = await createTask(d, 'main', { cmd });
    expect(plain.command).toMatchObject({ tty: false, terminal_reentry: false, input_target: null, terminal_size: null });
    const plainOut = await output(d, 'main', plain.task_id);
    expect(plainOut.task.output_preview).toBe('not a tty\n');
    const list = await request(d, 'GET', '/api/agents/main/tasks');
    const byId = new Map(list.json.tasks.map((t: Json) => [t.task_id, t.command.tty]));
    expect([byId.get(task.task_id), byId.get(plain.task_id)]).toEqual([true, false]);
  });

  it('input is typed into the terminal: a read gets it; eof sends Ctrl-D and ends a cat; terminal_reentry while running', async () => {
    await createAgent(d, 'typist');
    const task = await createTask(d, 'typist', { cmd: 'read a; echo "got $a"; cat; echo cat-done', tty: true, cols: 80, rows: 24 });
    expect(task.command.terminal_size).toEqual({ cols: 80, rows: 24 });
    await until(async () => (await snapshot(d, 'typist', task.task_id)).status === 'running', 'the task to run');
    expect((await snapshot(d, 'typist', task.task_id)).command).toMatchObject({ terminal_reentry: true, input_target: 'tty' });
    const first = await input(d, 'typist', task.task_id, { text: 'hello\n' });
    expect(first.status, first.text).toBe(200);
    expect(first.json).toMatchObject({ accepted_input: true, bytes_written: 6, input_target: 'tty', task: { command: { terminal_reentry: true } } });
    await until(async () => (await output(d, 'typist', task.task_id, 'block=false')).task.output_preview.includes('got hello'), 'the read to answer');
    expect((await output(d, 'typist', task.task_id, 'block=true&timeout_ms=300')).retrieval_status).toBe('timeout'); // cat waits
    const eof = await input(d, 'typist', task.task_id, { text: 'to cat\n', eof: true });
    expect(eof.json).toMatchObject({ accepted_input: true, input_target: 'tty' });
    const done = await output(d, 'typist', task.task_id);
    expect(done.task).toMatchObject({ status: 'completed', exit_status: 0 });
    expect(done.task.output_preview).toContain('got hello\r\n');
    expect(done.task.output_preview).toContain('to cat\r\nto cat\r\ncat-done\r\n'); // the terminal's echo, then cat's copy
    const late = await input(d, 'typist', task.task_id, { text: 'x\n' });
    expect(late.json).toMatchObject({ accepted_input: false, bytes_written: null, task: { command: { terminal_reentry: false } } });
  });

  it('refuses nonsense sizes, sizes without tty and tty with accepts_input false: 400, nothing created', async () => {
    await createAgent(d, 'sizes');
    const bad = [
      { tty: true, cols: 0 },
      { tty: true, rows: 100000 },
      { tty: true, cols: 2.5 },
      { tty: true, cols: '80' },
      { tty: 'yes' },
      { cols: 80, rows: 24 },
      { tty: true, accepts_input: false },
    ];
    for (const extra of bad) {
      expectError(await request(d, 'POST', '/api/control/agents/sizes/tasks', { body: { cmd: 'true', ...extra } }), 400, 'invalid_request');
    }
    expect((await request(d, 'GET', '/api/agents/sizes/tasks')).json.tasks).toEqual([]);
    expect(fs.existsSync(`${d.home}/agents/sizes/tasks`) ? fs.readdirSync(`${d.home}/agents/sizes/tasks`) : []).toEqual([]);
  });

  it('stop: SIGTERM to the terminal group -> cancelled; a second stop SIGKILLs one that ignores SIGTERM', async () => {
    await createAgent(d, 'tty-stop');
    const task = await createTask(d, 'tty-stop', { cmd: 'sleep 30 & sleep 30; wait', tty: true });
    const pgid = await pgidOf(d, 'tty-stop', task.task_id);
    const stop = await request(d, 'POST', `/api/control/agents/tty-stop/tasks/${task.task_id}/stop`, { body: {} });
    expect(stop.json).toMatchObject({ force_stop_requested: false, signal_sent: 'SIGTERM', task: { status: 'cancelling' } });
    expect((await output(d, 'tty-stop', task.task_id)).task.status).toBe('cancelled');
    await until(() => !groupAlive(pgid), 'the group to be gone');

    const stubborn = await createTask(d, 'tty-stop', { cmd: "trap '' TERM; echo armed; sleep 30", tty: true });
    await until(async () => (await output(d, 'tty-stop', stubborn.task_id, 'block=false')).task.output_preview === 'armed\r\n', 'the trap to be set');
    const stubbornPgid = await pgidOf(d, 'tty-stop', stubborn.task_id);
    await request(d, 'POST', `/api/control/agents/tty-stop/tasks/${stubborn.task_id}/stop`, { body: {} });
    expect((await output(d, 'tty-stop', stubborn.task_id, 'block=true&timeout_ms=400')).retrieval_status).toBe('timeout');
    expect(groupAlive(stubbornPgid)).toBe(true);
    const second = await request(d, 'POST', `/api/control/agents/tty-stop/tasks/${stubborn.task_id}/stop`, { body: {} });
    expect(second.json.force_stop_requested).toBe(true);
    expect((await output(d, 'tty-stop', stubborn.task_id)).task.status).toBe('cancelled');
    await until(() => !groupAlive(stubbornPgid), 'the group to be gone');
  });

  it('svc tasks run --tty, svc tasks input types into it, --eof sends Ctrl-D', async () => {
    const created = await svcJson(['tasks', 'run', 'main', 'test -t 0 && echo interactive; cat', '--tty', '--cols', '100', '--rows', '30']);
    expect(created.command).toMatchObject({ tty: true, input_target: 'tty', terminal_size: { cols: 100, rows: 30 } });
    const typed = await svc(['tasks', 'input', 'main', created.task_id, 'typed', '--newline', '--eof']);
    expect(typed.code, typed.stderr).toBe(0);
    expect(typed.stdout).toMatch(/^accepted: 6 bytes written \(.*Ctrl-D/);
    const out = await svcJson(['tasks', 'output', 'main', created.task_id, '--block', '--timeout-ms', '10000']);
    expect(out.task).toMatchObject({ status: 'completed', output_preview: 'interactive\r\ntyped\r\ntyped\r\n' });
    const shown = await svc(['tasks', 'show', 'main', created.task_id]);
    expect(shown.stdout).toMatch(/^tty\s+true$/m);
    expect(shown.stdout).toMatch(/^input_target\s+tty$/m);
    const refused = await svc(['tasks', 'run', 'main', 'true', '--cols', '80']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/^svc: invalid_request: /m);
  }, 60_000); // five CLI processes
});

describe('tty command tasks across daemon deaths', () => {
  afterEach(() => pool.killAll());

  it('SIGKILL of the daemon: the terminal stays up (its master is held), at restart the task is interrupted and its group killed', async () => {
    const home = pool.home();
    // A sandboxed task dies with the daemon (test/integration/sandbox.test.ts); this is the unsandboxed one.
    const d = await pool.start({ home, configToml: UNSANDBOXED });
    const task = await createTask(d, 'main', { cmd: 'sleep 60 & sleep 60; wait', tty: true });
    const pgid = await pgidOf(d, 'main', task.task_id);
    d.proc.kill('SIGKILL');
    await new Promise((r) => d.proc.once('exit', r));
    await new Promise((r) => setTimeout(r, 300));
    expect(groupAlive(pgid)).toBe(true); // not hung up: the daemon died, its task did not
    expect(markedPids(task.task_id).length).toBe(4); // sh, two sleeps, the holder of the pty master
    const again = await pool.start({ home });
    const snap = await snapshot(again, 'main', task.task_id);
    expect(snap).toMatchObject({ status: 'interrupted', command: { tty: true, terminal_reentry: false } });
    await until(() => !groupAlive(pgid), 'the leftover group to be killed');
    await until(() => markedPids(task.task_id).length === 0, 'the recovery to end the holder too');
    const late = await input(again, 'main', task.task_id, { text: 'x\n' });
    expect(late.json).toMatchObject({ accepted_input: false, input_target: 'tty' });
  });

  it('graceful SIGTERM of the daemon: tty tasks are terminated and interrupted, within 5 s', async () => {
    const home = pool.home();
    const d = await pool.start({ home });
    const soft = await createTask(d, 'main', { cmd: 'sleep 60', tty: true });
    const hard = await createTask(d, 'main', { cmd: "trap '' TERM HUP; echo armed; sleep 60", tty: true });
    const pgids = [await pgidOf(d, 'main', soft.task_id), await pgidOf(d, 'main', hard.task_id)];
    await until(() => fs.readFileSync(hard.command.output_path, 'utf8') === 'armed\r\n', 'the traps to be set');
    const t0 = Date.now();
    expect(await d.stop('SIGTERM')).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5000);
    for (const pgid of pgids) await until(() => !groupAlive(pgid), `group ${pgid} to be gone`, 2000);
    const again = await pool.start({ home });
    for (const t of [soft, hard]) expect((await snapshot(again, 'main', t.task_id)).status).toBe('interrupted');
  });
});

describe('a daemon started in a terminal', () => {
  it('gives a tty task its own terminal, never the daemon\'s, and a pipe task none', async () => {
    const home = pool.home();
    // `svc serve` in an interactive terminal: the daemon has a controlling tty of its own.
    const term = spawnPty(process.execPath, [BIN, 'serve', '--home', home, '--listen', '127.0.0.1:0'], {
      cols: 200,
      rows: 50,
      env: { ...process.env, SVC_TOKEN: '', SVC_HOME: '', SVC_LISTEN: '', SVC_LOG_LEVEL: '' },
    });
    let log = '';
    term.onData((chunk) => (log += chunk));
    try {
      await until(() => /"msg":"listening"/.test(log), 'the daemon to listen', 15_000);
      const listen = /"listen":"([^"]+)"/.exec(log)![1]!;
      const d = { base: `http://${listen}` } as RunningDaemon;
      const daemonTty = ttyNr(term.pid);
      expect(daemonTty).not.toBe(0);
      const tty = await createTask(d, 'main', { cmd: 'echo up; sleep 30', tty: true });
      const pipe = await createTask(d, 'main', { cmd: 'echo up; sleep 30' });
      const [ttyPid, pipePid] = [await pgidOf(d, 'main', tty.task_id), await pgidOf(d, 'main', pipe.task_id)];
      await until(() => fs.readFileSync(tty.command.output_path, 'utf8') === 'up\r\n', 'the tty task to run');
      const pts = fs.readlinkSync(`/proc/${ttyPid}/fd/0`);
      expect(ttyNr(ttyPid)).toBe(fs.statSync(pts).rdev);
      expect(ttyNr(ttyPid)).not.toBe(daemonTty);
      expect(procStat(ttyPid)!.session).not.toBe(procStat(term.pid)!.session);
      expect(ttyNr(pipePid)).toBe(0);
      for (const t of [tty, pipe]) await request(d, 'POST', `/api/control/agents/main/tasks/${t.task_id}/stop`, { body: {} });
      await until(() => !groupAlive(ttyPid) && !groupAlive(pipePid), 'both tasks to end');
    } finally {
      term.kill('SIGTERM');
      await until(() => procStat(term.pid) === null || procStat(term.pid)!.state === 'Z', 'the daemon to exit', 10_000).catch(() => term.kill('SIGKILL'));
    }
  });
});

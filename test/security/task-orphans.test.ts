/**
 * No orphans (issue: a task that runs `setsid sleep 300 &` left that process alive after the
 * daemon's shutdown and after a restart). Against the real daemon: whatever a command task started
 * outside its process group and session is ended at task stop, at graceful shutdown and at the
 * recovery after a SIGKILL of the daemon; a process no task started is never touched, not even
 * one that pretends to be a task's of another home.
 *
 * "Gone" means the pid no longer answers signal 0, or is a zombie: an orphan's zombie waits for
 * init to reap it (some inits never do), it runs nothing. The bystanders are children of this
 * test process, which node reaps, so a zombie there would still mean "killed".
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { daemonPool, request, type RunningDaemon } from '../helpers/daemon.js';

const pool = daemonPool();
/**
 * The reaper's own guarantees, with the command sandbox off: the pids a task writes down must be
 * host pids, in files the test can read. Sandboxed tasks (their own pid namespace, which dies with
 * them) are checked in test/integration/sandbox.test.ts.
 */
const UNSANDBOXED = { configToml: '[tasks]\nsandbox = "off"\n' };
/** Every pid a task wrote down: killed in afterEach whatever the outcome, so no test leaves them. */
const escaped = new Set<number>();
const bystanders: ChildProcess[] = [];
let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-orphans-'));
});
afterEach(() => {
  pool.killAll();
  for (const pid of escaped) signal(pid, 'SIGKILL');
  escaped.clear();
  for (const p of bystanders.splice(0)) p.kill('SIGKILL');
});
afterAll(() => {
  pool.cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

function signal(pid: number, sig: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
}

/** State letter from /proc/<pid>/stat (the command name may hold spaces: split after the last ')'). */
function stateOf(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]!;
  } catch {
    return null;
  }
}

const running = (pid: number) => signal(pid, 0) && stateOf(pid) !== 'Z' && stateOf(pid) !== null;

async function until(cond: () => boolean | Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * A command that starts three processes that each leave the task's process group, records their
 * pids in files, then waits: a `setsid` child; a double fork (its parent subshell exits at once,
 * so it is reparented to init); and a child that moves to its own process group with an emptied
 * environment but stays in the task's session.
 */
function escapingCommand(tag: string): { cmd: string; files: string[] } {
  const files = ['setsid', 'double-fork', 'cleared-env'].map((n) => path.join(dir, `${tag}.${n}.pid`));
  const sleep = fs.realpathSync('/bin/sleep');
  const cmd = [
    `setsid ${sleep} 300 & echo $! > ${files[0]}`,
    `(setsid ${sleep} 301 & echo $! > ${files[1]}) &`,
    `perl -e 'setpgrp(0, 0); exec @ARGV' env -i ${sleep} 302 & echo $! > ${files[2]}`,
    'wait',
  ].join('\n');
  return { cmd, files };
}

/** The pids the task wrote, once each runs `sleep` (it has left the group by then). */
async function escapedPids(files: string[]): Promise<number[]> {
  const read = () => files.map((f) => (fs.existsSync(f) ? Number(fs.readFileSync(f, 'utf8').trim()) : 0));
  await until(() => read().every((pid) => pid > 1 && running(pid) && commOf(pid) === 'sleep'), 'the escaped processes to start');
  const pids = read();
  for (const pid of pids) escaped.add(pid);
  // Each leads a group of its own: signals to the task's group do not reach them.
  for (const pid of pids) expect(pgidOf(pid), `pid ${pid} left the task's group`).toBe(pid);
  return pids;
}

async function createTask(d: RunningDaemon, cmd: string, tty: boolean): Promise<string> {
  const r = await request(d, 'POST', '/api/control/agents/main/tasks', { body: { summary: 'escapes', cmd, tty } });
  expect(r.status, r.text).toBe(201);
  return r.json.task_id;
}

async function statusOf(d: RunningDaemon, taskId: string): Promise<string> {
  return (await request(d, 'GET', `/api/agents/main/tasks/${taskId}`)).json.status;
}

/** Processes this test starts itself: a plain one, and one carrying a task id under another home's marker. */
function startBystanders(taskId: string): ChildProcess[] {
  const plain = spawn('sleep', ['303'], { detached: true, stdio: 'ignore' });
  const impostor = spawn('sleep', ['304'], {
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, SVC_TASK_ID: taskId, SVC_TASK_OWNER: 'another-home' },
  });
  bystanders.push(plain, impostor);
  return [plain, impostor];
}

function commOf(pid: number): string | null {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return null;
  }
}

function pgidOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

// Each case for a pipe task and for a task in a pseudo-terminal (tty: true), whose leader leads the pty's session.
describe.each([
  { mode: 'pipe', tty: false },
  { mode: 'tty', tty: true },
])('processes a $mode task started outside its group', ({ mode, tty }) => {
  it('are ended by a graceful shutdown (SIGTERM to the daemon)', async () => {
    const d = await pool.start(UNSANDBOXED);
    const { cmd, files } = escapingCommand(`${mode}-shutdown`);
    const taskId = await createTask(d, cmd, tty);
    const pids = await escapedPids(files);
    const others = startBystanders(taskId);
    const t0 = Date.now();
    expect(await d.stop('SIGTERM')).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5000);
    // Ended before the daemon exited, not eventually.
    for (const pid of pids) expect(running(pid), `pid ${pid} still running after shutdown`).toBe(false);
    for (const p of others) expect(running(p.pid!), 'a process no task started').toBe(true);
  });

  it('are ended by the recovery after a SIGKILL of the daemon', async () => {
    const home = pool.home();
    const d = await pool.start({ home, ...UNSANDBOXED });
    const { cmd, files } = escapingCommand(`${mode}-crash`);
    const taskId = await createTask(d, cmd, tty);
    const pids = await escapedPids(files);
    const others = startBystanders(taskId);
    d.proc.kill('SIGKILL');
    await new Promise((r) => d.proc.once('exit', r));
    await new Promise((r) => setTimeout(r, 300));
    for (const pid of pids) expect(running(pid), `pid ${pid} should outlive the daemon's SIGKILL`).toBe(true);
    const again = await pool.start({ home, ...UNSANDBOXED });
    expect(await statusOf(again, taskId)).toBe('interrupted');
    for (const pid of pids) await until(() => !running(pid), `pid ${pid} to be ended by the recovery`);
    for (const p of others) expect(running(p.pid!), 'a process no task started').toBe(true);
    expect(await again.stop('SIGTERM')).toBe(0);
    for (const p of others) expect(running(p.pid!), 'a process no task started, after the second shutdown').toBe(true);
  });

  it('are ended when the task is stopped (POST .../tasks/:task_id/stop)', async () => {
    const d = await pool.start(UNSANDBOXED);
    const { cmd, files } = escapingCommand(`${mode}-stop`);
    const taskId = await createTask(d, cmd, tty);
    const pids = await escapedPids(files);
    const others = startBystanders(taskId);
    const stop = await request(d, 'POST', `/api/control/agents/main/tasks/${taskId}/stop`, { body: {} });
    expect(stop.status, stop.text).toBe(200);
    await until(async () => (await statusOf(d, taskId)) === 'cancelled', 'the task to be cancelled');
    for (const pid of pids) await until(() => !running(pid), `pid ${pid} to be ended with its task`, 3000);
    for (const p of others) expect(running(p.pid!), 'a process no task started').toBe(true);
  });

  it('are ended when the task finishes on its own; a process no task started is left alone', async () => {
    const d = await pool.start(UNSANDBOXED);
    const marker = path.join(dir, `${mode}-finish.done`);
    const { cmd, files } = escapingCommand(`${mode}-finish`);
    // The same escapes, but the command exits instead of waiting.
    const taskId = await createTask(d, `${cmd.replace(/\nwait$/, '')}\nwhile [ ! -e ${marker} ]; do sleep 0.05; done`, tty);
    const pids = await escapedPids(files);
    const others = startBystanders(taskId);
    fs.writeFileSync(marker, '');
    await until(async () => (await statusOf(d, taskId)) === 'completed', 'the task to complete');
    for (const pid of pids) await until(() => !running(pid), `pid ${pid} to be ended with its task`, 3000);
    for (const p of others) expect(running(p.pid!), 'a process no task started').toBe(true);
  });
});

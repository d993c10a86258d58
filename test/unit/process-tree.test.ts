/**
 * The /proc readers (src/runtime/tasks/processes/process-tree.ts) and the task reaper's choice of
 * processes (src/runtime/tasks/processes/task-reaper.ts) on real processes: which are a task's
 * (marker, session, parent chain) and which are not (another home's marker, a recycled pid, another
 * boot, this process).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { isGone, listProcesses, parseEnviron, parseStat, readEnviron, readProc, withDescendants, type ProcEntry } from '../../src/runtime/tasks/processes/process-tree.js';
import { TaskReaper, type TaskTarget } from '../../src/runtime/tasks/processes/task-reaper.js';
import { createLogger } from '../../src/telemetry/logger.js';

const started: ChildProcess[] = [];
const pidsToKill: number[] = [];
afterEach(() => {
  for (const p of started.splice(0)) p.kill('SIGKILL');
  for (const pid of pidsToKill.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
});

const line = (pid: number, comm: string, rest: string) => `${pid} (${comm}) ${rest}`;
// Fields 3..22 and a few after: state ppid pgrp session tty tpgid flags minflt cminflt majflt
// cmajflt utime stime cutime cstime priority nice threads itrealvalue starttime vsize rss
const REST = 'S 100 200 300 0 -1 4194304 101 0 0 0 0 0 0 0 20 0 1 0 71880 3133440 383';

describe('parseStat', () => {
  it('reads state, parent, group, session and start time (field 22)', () => {
    expect(parseStat(line(4242, 'sleep', REST))).toEqual({ pid: 4242, comm: 'sleep', state: 'S', ppid: 100, pgrp: 200, session: 300, starttime: '71880' });
  });

  it('splits after the LAST parenthesis: a command name may hold spaces, parentheses and digits', () => {
    for (const comm of ['a b', 'x) 1 2 3 (y', '((', ') Z 9 9 9', 'tab\there', '']) {
      const parsed = parseStat(`${line(7, comm, REST)}\n`);
      expect(parsed, comm).toMatchObject({ pid: 7, comm, state: 'S', ppid: 100, pgrp: 200, session: 300, starttime: '71880' });
    }
  });

  it('refuses what is not a stat line', () => {
    for (const bad of ['', 'garbage', '12 (x) S 1 2', 'x (sleep) S 1 2 3 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5', line(1, 'c', REST.replace('71880', 'soon'))]) {
      expect(parseStat(bad), bad).toBeNull();
    }
  });

  it('agrees with /proc for this process and its parent', () => {
    const self = readProc(process.pid)!;
    expect(self).toMatchObject({ pid: process.pid, ppid: process.ppid, state: expect.stringMatching(/^[RS]$/) });
    expect(self.starttime).toMatch(/^\d+$/);
    expect(isGone(self)).toBe(false);
    expect(isGone(null)).toBe(true);
    expect(isGone({ ...self, state: 'Z' })).toBe(true);
  });
});

describe('parseEnviron', () => {
  it('splits on NUL, at the first "=", first definition wins, skips entries without a name', () => {
    const raw = Buffer.from('A=1\0B=x=y\0\0NOEQ\0=anon\0A=2\0EMPTY=\0C=last', 'utf8');
    expect([...parseEnviron(raw)]).toEqual([
      ['A', '1'],
      ['B', 'x=y'],
      ['EMPTY', ''],
      ['C', 'last'],
    ]);
    expect(parseEnviron('').size).toBe(0);
    expect(parseEnviron('K=v\0').get('K')).toBe('v');
  });

  it('reads a child process environment from /proc', async () => {
    const child = spawn('sleep', ['30'], { env: { ONLY: 'this', WITH: 'a=b' }, stdio: 'ignore' });
    started.push(child);
    await until(() => readProc(child.pid!)?.comm === 'sleep');
    expect(Object.fromEntries((await readEnviron(child.pid!))!)).toEqual({ ONLY: 'this', WITH: 'a=b' });
    expect(await readEnviron(2 ** 22 + 1)).toBeNull();
  });
});

describe('withDescendants', () => {
  const p = (pid: number, ppid: number, state = 'S'): ProcEntry => ({ pid, ppid, state, comm: 'x', pgrp: pid, session: pid, starttime: '1' });
  const table = [p(1, 0), p(10, 1), p(11, 10), p(12, 11), p(13, 11, 'Z'), p(20, 1), p(21, 20), p(30, 12)];

  it('adds children, grandchildren, ...; not zombies; never through an excluded process', () => {
    expect([...withDescendants(table, [10])].sort((a, b) => a - b)).toEqual([10, 11, 12, 30]);
    expect([...withDescendants(table, [10], new Set([12]))].sort((a, b) => a - b)).toEqual([10, 11]);
    expect([...withDescendants(table, [21, 21])]).toEqual([21]);
    expect([...withDescendants(table, [])]).toEqual([]);
  });
});

describe('listProcesses', () => {
  it('lists this process', async () => {
    const all = (await listProcesses())!;
    expect(all.find((e) => e.pid === process.pid)).toMatchObject({ ppid: process.ppid });
  });
});

describe('TaskReaper: whose processes', () => {
  const reaper = new TaskReaper('owner-a', { graceMs: 300, logger: createLogger('silent') });
  const target = (taskId: string, over: Partial<TaskTarget> = {}): TaskTarget => ({ taskId, pgid: null, procStart: null, bootId: reaper.currentBoot, ...over });

  /** A detached `sh -c script` (its own session and group, like a task's leader). */
  async function leader(script: string, env: NodeJS.ProcessEnv = {}): Promise<{ pid: number; start: string }> {
    const child = spawn('/bin/sh', ['-c', script], { detached: true, stdio: 'ignore', env: { PATH: process.env.PATH, ...env } });
    started.push(child);
    pidsToKill.push(-child.pid!);
    await until(() => readProc(child.pid!) !== null);
    return { pid: child.pid!, start: readProc(child.pid!)!.starttime };
  }

  async function pidFrom(file: string): Promise<number> {
    await until(() => fs.existsSync(file) && /^\d+\n$/.test(fs.readFileSync(file, 'utf8')));
    const pid = Number(fs.readFileSync(file, 'utf8'));
    pidsToKill.push(pid);
    await until(() => readProc(pid)?.comm === 'sleep');
    return pid;
  }

  it('finds a setsid descendant by its marker, for its task and owner only', async () => {
    const file = tmpFile();
    await leader(`setsid sleep 30 & echo $! > ${file}; wait`, reaper.env('task_a'));
    const escaped = await pidFrom(file);
    expect(readProc(escaped)!.session).toBe(escaped);
    expect([...(await reaper.find({ targets: [target('task_a')] })).keys()]).toContain(escaped);
    expect([...(await reaper.find({ targets: [target('task_b')] })).keys()]).not.toContain(escaped);
    expect([...(await reaper.find({ targets: [], everyMarked: true })).keys()]).toContain(escaped);
    const other = new TaskReaper('owner-b', { graceMs: 300, logger: createLogger('silent') });
    expect([...(await other.find({ targets: [target('task_a')], everyMarked: true })).keys()]).not.toContain(escaped);
  });

  it('finds a process with an emptied environment in the task session; not when the pid names someone else', async () => {
    const file = tmpFile();
    const lead = await leader(`perl -e 'setpgrp(0, 0); exec @ARGV' env -i ${fs.realpathSync('/bin/sleep')} 30 & echo $! > ${file}; wait`);
    const cleared = await pidFrom(file);
    expect(readProc(cleared)).toMatchObject({ pgrp: cleared, session: lead.pid });
    const anchored = target('task_c', { pgid: lead.pid, procStart: lead.start });
    expect([...(await reaper.find({ targets: [anchored] })).keys()].sort()).toEqual([lead.pid, cleared].sort());
    // The recorded leader's pid now runs a process that started at another time: not ours.
    expect((await reaper.find({ targets: [{ ...anchored, procStart: String(Number(lead.start) + 1) }] })).size).toBe(0);
    // Recorded in another boot: start times do not compare.
    expect((await reaper.find({ targets: [{ ...anchored, bootId: 'another-boot' }] })).size).toBe(0);
    // Without a leader record there is nothing to anchor on.
    expect((await reaper.find({ targets: [target('task_c')] })).size).toBe(0);
  });

  it('after a restart, a session whose leader is gone anchors nothing (its pid may name another process by now)', async () => {
    const file = tmpFile();
    // The leader starts a member in its own session, without the marker, and exits.
    const lead = await leader(`sleep 30 & echo $! > ${file}`);
    const member = await pidFrom(file);
    await until(() => readProc(lead.pid) === null || readProc(lead.pid)!.state === 'Z');
    expect(readProc(member)).toMatchObject({ session: lead.pid });
    const anchored = target('task_e', { pgid: lead.pid, procStart: lead.start });
    expect([...(await reaper.find({ targets: [anchored] })).keys()]).toContain(member);
    expect([...(await reaper.find({ targets: [anchored], liveLeadersOnly: true })).keys()]).not.toContain(member);
  });

  it('finds the children of a marked process even when they dropped the marker; never this process', async () => {
    const file = tmpFile();
    const lead = await leader(`env -i setsid ${fs.realpathSync('/bin/sleep')} 30 & echo $! > ${file}; wait`, reaper.env('task_d'));
    const child = await pidFrom(file);
    expect((await readEnviron(child))!.size).toBe(0);
    const found = await reaper.find({ targets: [target('task_d')] });
    expect([...found.keys()].sort()).toEqual([lead.pid, child].sort());
    // Anchored on this process's own session: its members are found, this process never is.
    const session = readProc(process.pid)!.session;
    const mine = await reaper.find({ targets: [target('task_self', { pgid: session, procStart: readProc(session)?.starttime ?? '0' })] });
    expect(mine.has(process.pid)).toBe(false);
  });

  it('end: SIGTERM, then SIGKILL after the grace for what ignores it', async () => {
    const file = tmpFile();
    const lead = await leader(`trap '' TERM; setsid sleep 30 & echo $! > ${file}; wait`, reaper.env('task_e'));
    const escaped = await pidFrom(file);
    const t0 = Date.now();
    await reaper.end([target('task_e', { pgid: lead.pid, procStart: lead.start })]);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(300);
    expect(isGone(readProc(escaped))).toBe(true);
    expect(isGone(readProc(lead.pid))).toBe(true);
    await reaper.idle();
  });
});

let fileSeq = 0;
let tmpDir: string | null = null;
afterAll(() => {
  if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
});
function tmpFile(): string {
  tmpDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'svc-ptree-'));
  return path.join(tmpDir, `pid.${++fileSeq}`);
}

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

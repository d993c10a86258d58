/**
 * Command tasks in a pseudo-terminal (`tty: true`; src/runtime/tasks/processes/task-pty.ts), in
 * process: the service called directly, real ptys, real process groups. Over HTTP and across daemon
 * deaths: test/integration/tty-tasks.test.ts; escaped processes:
 * test/security/task-orphans.test.ts.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { groupAlive, procStat, readTail } from '../../src/runtime/tasks/processes/task-process.js';
import type { TaskSnapshot } from '../../src/runtime/tasks/task-records.js';
import { testServices, type TestServices } from '../helpers/services.js';
import { markedPids as marked } from '../helpers/tasks.js';

let t: TestServices | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

/**
 * For checks of what an unsandboxed command sees (its pty's name; in the sandbox bubblewrap shows
 * it as /dev/console) and of which processes carry the marker (in the sandbox bubblewrap's two
 * too); the sandboxed case is in test/integration/sandbox.test.ts.
 */
const UNSANDBOXED = '[tasks]\nsandbox = "off"\n';

function setup(configToml?: string): TestServices {
  t = testServices(configToml ? { configToml } : {});
  return t;
}

const run = (cmd: string, extra: Record<string, unknown> = {}) => t!.s.tasks.create('main', { summary: 'tty test', cmd, tty: true, ...extra });
const finish = (task: TaskSnapshot) => t!.s.tasks.output('main', task.task_id, { block: true, timeoutMs: 10_000 });
const fileOf = (task: TaskSnapshot) => fs.readFileSync(task.command!.output_path, 'utf8');

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The leader's pid, from the task's running event. */
function pidOf(task: TaskSnapshot): number {
  const ev = t!.s.events
    .page('main', { limit: 1000, order: 'asc', max_level: 'debug' })
    .events.find((e) => e.type === 'task_status_changed' && e.payload.task_id === task.task_id && e.payload.to === 'running');
  return ev!.payload.pid as number;
}

/** Controlling terminal (field 7, tty_nr) from /proc/<pid>/stat. */
function ttyNr(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[4]);
}

describe('tty command tasks', () => {
  it('run in a terminal: tty and test -t 0 see one, a pipe task does not; the snapshot says so', async () => {
    setup(UNSANDBOXED);
    const cmd = 'tty; test -t 0 && echo interactive; stty size';
    const task = run(cmd);
    expect(task.command).toMatchObject({ tty: true, accepts_input: true, input_target: 'tty', terminal_size: { cols: 120, rows: 40 } });
    const out = await finish(task);
    expect(out.task).toMatchObject({ status: 'completed', exit_status: 0 });
    expect(out.task.output_preview).toMatch(/^\/dev\/pts\/\d+\r\ninteractive\r\n40 120\r\n$/);
    const done = t!.s.tasks.get('main', task.task_id);
    expect(done.command).toMatchObject({ tty: true, terminal_reentry: false, input_target: 'tty' });

    const plain = run(cmd, { tty: false });
    expect(plain.command).toMatchObject({ tty: false, terminal_reentry: false, input_target: null, terminal_size: null });
    const plainOut = await finish(plain);
    expect(plainOut.task.output_preview).toContain('not a tty');
    expect(plainOut.task.output_preview).not.toContain('interactive');
    expect(plainOut.task.output_preview).not.toContain('/dev/pts/');
  });

  it('honours cols and rows; keeps escape sequences in the output file; reports exit status and signal exactly', async () => {
    setup();
    const sized = run('stty size', { cols: 80, rows: 24 });
    expect(sized.command!.terminal_size).toEqual({ cols: 80, rows: 24 });
    expect((await finish(sized)).task.output_preview).toBe('24 80\r\n');
    const colour = run("printf '\\033[31mred\\033[0m\\n'");
    await finish(colour);
    expect(fileOf(colour)).toBe('\u001b[31mred\u001b[0m\r\n');
    expect((await finish(run('exit 3'))).task).toMatchObject({ status: 'failed', exit_status: 3 });
    const killed = await finish(run('kill -9 $$'));
    expect(killed.task).toMatchObject({ status: 'failed', exit_status: null });
    expect(killed.task.failure_artifact).toMatchObject({ kind: 'signal', metadata: { signal: 'SIGKILL' } });
  });

  it('leads a session of its own with its pty as controlling terminal; the environment carries the marker, not the token', async () => {
    setup(UNSANDBOXED);
    const before = process.env.SVC_TOKEN;
    process.env.SVC_TOKEN = 'daemon-secret';
    let task: TaskSnapshot;
    try {
      task = run('echo "token=${SVC_TOKEN-unset} id=$SVC_TASK_ID owner=${SVC_TASK_OWNER:+set} term=$TERM"; read x');
    } finally {
      if (before === undefined) delete process.env.SVC_TOKEN;
      else process.env.SVC_TOKEN = before;
    }
    await until(() => readTail(task.command!.output_path, 1000).text.includes('term='));
    expect(readTail(task.command!.output_path, 1000).text).toBe(`token=unset id=${task.task_id} owner=set term=xterm-256color\r\n`);
    const pid = pidOf(task);
    const stat = procStat(pid)!;
    expect({ pgrp: stat.pgrp, session: stat.session }).toEqual({ pgrp: pid, session: pid });
    expect(stat.session).not.toBe(procStat(process.pid)!.session);
    const pts = fs.readlinkSync(`/proc/${pid}/fd/0`);
    expect(pts).toMatch(/^\/dev\/pts\/\d+$/);
    for (const fd of [1, 2]) expect(fs.readlinkSync(`/proc/${pid}/fd/${fd}`)).toBe(pts);
    expect(ttyNr(pid)).toBe(fs.statSync(pts).rdev);
    expect(t!.s.tasks.get('main', task.task_id).command).toMatchObject({ terminal_reentry: true, tty: true });
    // The leader and the holder of the terminal's master (a sleep outside the session) carry the marker.
    const carriers = marked(task.task_id);
    expect(carriers).toContain(pid);
    expect(carriers.map((p) => procStat(p)!.comm).sort()).toEqual(['sh', 'sleep']);
    t!.s.tasks.input('main', task.task_id, { text: '\n' });
    expect((await finish(task)).task.status).toBe('completed');
    await until(() => marked(task.task_id).length === 0);
  });

  it('input is typed into the terminal and reaches a read; eof sends Ctrl-D, which ends a cat', async () => {
    setup();
    const task = run('read a; echo "got $a"');
    const r = t!.s.tasks.input('main', task.task_id, { text: 'hello\n' });
    expect(r).toMatchObject({ accepted_input: true, bytes_written: 6, input_target: 'tty' });
    expect(r.summary_text).toMatch(/terminal/);
    const out = await finish(task);
    expect(out.task.status).toBe('completed');
    expect(out.task.output_preview).toContain('got hello\r\n');
    const late = t!.s.tasks.input('main', task.task_id, { text: 'more\n' });
    expect(late).toMatchObject({ accepted_input: false, bytes_written: null, input_target: 'tty' });

    const cat = run('cat; echo cat-done');
    expect(t!.s.tasks.input('main', cat.task_id, { text: 'line\n' }).accepted_input).toBe(true);
    const eof = t!.s.tasks.input('main', cat.task_id, { text: '', eof: true });
    expect(eof).toMatchObject({ accepted_input: true, bytes_written: 0 });
    expect(eof.summary_text).toMatch(/Ctrl-D/);
    const catOut = await finish(cat);
    expect(catOut.task).toMatchObject({ status: 'completed', exit_status: 0 });
    expect(catOut.task.output_preview).toContain('cat-done');

    // A partial line: the first Ctrl-D hands "tail" over, the second ends the file.
    const partial = run('cat; echo; echo cat-done');
    t!.s.tasks.input('main', partial.task_id, { text: 'tail', eof: true });
    const partialOut = await finish(partial);
    expect(partialOut.task.status).toBe('completed');
    expect(partialOut.task.output_preview).toContain('tailtail');
    expect(partialOut.task.output_preview).toContain('cat-done');
  });

  it('stop: SIGTERM to the group -> cancelled; a second stop SIGKILLs a terminal that ignores SIGTERM; shutdown interrupts', async () => {
    setup();
    const task = run('sleep 30 & wait');
    const pgid = pidOf(task);
    expect(groupAlive(pgid)).toBe(true);
    expect(t!.s.tasks.requestStop('main', task.task_id)).toMatchObject({ force_stop_requested: false, signal_sent: 'SIGTERM', task: { status: 'cancelling' } });
    expect((await finish(task)).task.status).toBe('cancelled');
    await until(() => !groupAlive(pgid));
    expect(t!.s.tasks.get('main', task.task_id).command!.terminal_reentry).toBe(false);

    const stubborn = run("trap '' TERM; echo ready; sleep 30");
    await until(() => readTail(stubborn.command!.output_path, 100).text === 'ready\r\n');
    const stubbornPgid = pidOf(stubborn);
    t!.s.tasks.requestStop('main', stubborn.task_id);
    await new Promise((r) => setTimeout(r, 200));
    expect(t!.s.tasks.get('main', stubborn.task_id).status).toBe('cancelling');
    expect(t!.s.tasks.requestStop('main', stubborn.task_id).force_stop_requested).toBe(true);
    expect((await finish(stubborn)).task.status).toBe('cancelled');
    await until(() => !groupAlive(stubbornPgid));

    const running = run("trap '' TERM; sleep 30");
    const runningPgid = pidOf(running);
    await t!.s.tasks.stop();
    await until(() => !groupAlive(runningPgid));
    expect(t!.s.tasks.get('main', running.task_id).status).toBe('interrupted');
  });

  it('refuses nonsense sizes, sizes without tty, and tty with accepts_input false (400, nothing created)', () => {
    setup();
    const bad: Array<Record<string, unknown>> = [
      { tty: true, cols: 0 },
      { tty: true, rows: 1001 },
      { tty: true, cols: 1.5 },
      { tty: true, rows: -3 },
      { cols: 80 },
      { tty: false, rows: 24 },
      { tty: true, accepts_input: false },
    ];
    for (const extra of bad) {
      expect(() => t!.s.tasks.create('main', { cmd: 'true', ...extra }), JSON.stringify(extra)).toThrowError(
        expect.objectContaining({ status: 400, code: 'invalid_request' }),
      );
    }
    expect(t!.s.tasks.list('main')).toEqual([]);
    const created = t!.s.events.page('main', { limit: 1000, order: 'asc', max_level: 'debug' }).events.filter((e) => e.type === 'task_create_requested');
    expect(created).toEqual([]);
  });
});

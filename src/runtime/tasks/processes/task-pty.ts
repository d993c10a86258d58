/**
 * Command tasks in a pseudo-terminal (`tty: true`, docs/control-plane-api.md#terminal-tasks): what
 * differs from a pipe task, in one place. runtime/tasks/command-tasks.ts supervises both kinds the
 * same way.
 *
 * Mechanism: node-pty (`forkpty(3)`). The child `<shell> -c <cmd>` is forked straight from the
 * daemon as the session leader of a new pty, with the pty's slave as its controlling terminal and
 * as stdin, stdout and stderr: pid = process group = session, exactly like a pipe task's detached
 * leader. So stop (SIGTERM to the group, SIGKILL on a repeat), shutdown, the recovery after a kill -9
 * of the daemon and the reaper (task-reaper.ts: session anchor, the SVC_TASK_ID /
 * SVC_TASK_OWNER marker in the environment, parent chain) apply unchanged, and the exit status or
 * terminating signal is the command's own. It never sees a terminal of the daemon: its session is
 * new, and its only terminal is its own pty.
 *
 * Considered and not taken: util-linux `script -qfec CMD /dev/null` (no native addon). Tried here:
 * it puts the command in a second session under `script`, answers SIGTERM by writing "Session
 * terminated, killing shell..." into the output and SIGKILLing the shell 2 s later (so a first
 * stop would force), reports a signal death as exit status 128+N, and leaves the pty 0x0 when its
 * own stdin is not a terminal.
 *
 * Costs, documented in docs/control-plane-api.md#terminal-tasks:
 * - Output passes through the daemon: what the pty produces is appended to `command.output_path`
 *   by the daemon (reading pauses while the file write lags), escape sequences and the terminal's
 *   echo of the input included. If the daemon dies, output stops being recorded; the terminal
 *   itself stays up (see holdTerminal) until the next start interrupts the task.
 * - node-pty 1.1 leaves its master descriptor inheritable (no FD_CLOEXEC; upstream
 *   microsoft/node-pty#657). A process the daemon starts while a terminal task runs inherits that
 *   terminal's master. Every task runs as the daemon's user, who may open the slave
 *   (/dev/pts/N) and read the output file anyway, so no privilege is crossed; the reaper ends the
 *   inheriting task processes with their tasks.
 * - A native addon, built from source by `npm ci` (python3, make, a C++ compiler), and loaded only
 *   when the first terminal task starts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream';
import type { IPty } from 'node-pty';
import { errors, type Issue } from '../../../core/index.js';
import { commandExit, commandLine, procStartTime, resolveExecutable, type SpawnSpec, type Spawned, type TaskInput } from './task-process.js';
import { TERMINAL_SIZE, type CreateTaskInput } from '../task-records.js';

/** What a terminal task's programs see as $TERM. */
export const TERM_NAME = 'xterm-256color';
/** The terminal's EOF character (VEOF, Ctrl-D) as `stty` sets it by default. */
const EOF_CHAR = '\x04';

export interface PtySpec extends Omit<SpawnSpec, 'acceptsInput'> {
  cols: number;
  rows: number;
  /** The task's marker variables (task-reaper.ts), for the terminal's holder. */
  marker: Record<string, string>;
}

/** The terminal settings of a create request, checked: a 400 before anything is created. */
export interface TerminalOptions {
  tty: boolean;
  acceptsInput: boolean;
  cols: number | null;
  rows: number | null;
}

/**
 * `tty: true` always accepts input (it goes to the terminal), so `accepts_input: false` with it is
 * a contradiction and refused rather than overridden; `cols`/`rows` are whole numbers within
 * TERMINAL_SIZE and only mean something with `tty: true`.
 */
export function terminalOptions(input: Pick<CreateTaskInput, 'tty' | 'accepts_input' | 'cols' | 'rows'>): TerminalOptions {
  const tty = input.tty === true;
  const issues: Issue[] = [];
  if (tty && input.accepts_input === false) {
    issues.push({ path: 'accepts_input', message: 'a tty task always accepts input (it goes to the terminal): omit accepts_input or set it true' });
  }
  for (const key of ['cols', 'rows'] as const) {
    const v = input[key];
    if (v === null || v === undefined) continue;
    if (!tty) issues.push({ path: key, message: `${key} sets the terminal size: it needs tty: true` });
    else if (!Number.isInteger(v) || v < TERMINAL_SIZE.min || v > TERMINAL_SIZE.max) {
      issues.push({ path: key, message: `${key} must be an integer from ${TERMINAL_SIZE.min} to ${TERMINAL_SIZE.max}` });
    }
  }
  if (issues.length > 0) throw errors.invalidRequest(issues);
  return { tty, acceptsInput: tty || input.accepts_input === true, cols: tty ? (input.cols ?? TERMINAL_SIZE.cols) : null, rows: tty ? (input.rows ?? TERMINAL_SIZE.rows) : null };
}

const require = createRequire(import.meta.url);
let nodePty: typeof import('node-pty') | null = null;

/**
 * Start the command in a new pseudo-terminal. Throws when that fails (the addon cannot be loaded,
 * no pty is left): the caller records the task as failed, as for a pipe task.
 */
export function spawnPty(spec: PtySpec): Spawned {
  nodePty ??= require('node-pty') as typeof import('node-pty');
  fs.mkdirSync(path.dirname(spec.outputPath), { recursive: true });
  const out = fs.createWriteStream(spec.outputPath, { flags: 'a', mode: 0o600 });
  // A failing output file (disk full) must not take the daemon down: the output is lost, the task runs on.
  out.on('error', () => undefined);
  let term: IPty;
  try {
    const [file, args] = commandLine(spec);
    term = nodePty.spawn(file, args, {
      name: TERM_NAME,
      cols: spec.cols,
      rows: spec.rows,
      cwd: spec.workdir,
      env: spec.env,
      encoding: null, // raw bytes: output is stored as the program wrote it
    });
  } catch (err) {
    out.destroy();
    throw err;
  }
  const holder = holdTerminal((term as unknown as { fd: number }).fd, spec.marker);
  // Read errors other than the EIO of a closed pty would be thrown by node-pty without a listener;
  // the exit still arrives (node-pty waits for the child itself).
  (term as unknown as NodeJS.EventEmitter).on('error', () => undefined);
  let paused = false;
  term.onData((chunk: string | Buffer) => {
    if (out.write(chunk) || paused || out.destroyed) return;
    paused = true;
    term.pause();
    out.once('drain', () => {
      paused = false;
      term.resume();
    });
  });
  let gone = false;
  const input: TaskInput = {
    target: 'tty',
    get open() {
      return !gone;
    },
    write(data, eof) {
      if (data.length > 0) term.write(data);
      // In the terminal's line mode the EOF character ends a read; after a partial line the first
      // one only hands that line over, so a second is needed for the reader to see end of file.
      if (eof) term.write(data.length > 0 && !/[\r\n]$/.test(data.toString('latin1')) ? EOF_CHAR.repeat(2) : EOF_CHAR);
    },
    close() {
      gone = true;
    },
  };
  return {
    pid: term.pid,
    pgid: term.pid,
    procStart: procStartTime(term.pid),
    input,
    onExit(cb) {
      // node-pty reports the exit once the pty has drained (or 200 ms after the leader exited, when
      // something else still holds the terminal); the file is complete when the stream finishes.
      term.onExit(({ exitCode, signal }) => {
        gone = true;
        holder?.kill('SIGKILL');
        out.end();
        finished(out, () => cb(...commandExit(spec, signal ? null : exitCode, signal ? signalName(signal) : null)));
      });
    },
  };
}

/**
 * A process that only keeps a copy of the terminal's master open (`sleep` with it as fd 3), so that
 * the terminal outlives a crash of the daemon. Without it, the daemon's death closes the last
 * master: the kernel hangs the terminal up, its leader dies of SIGHUP and its session goes with
 * it, and the next start can no longer find what the task left in that session (a process that
 * cleared its environment). With it, a dead daemon leaves a tty task running as it leaves a pipe
 * task, and the recovery ends both the same way. Output is not recorded meanwhile: once the pty's
 * buffer is full the command blocks writing. The holder carries the task's marker, so the reaper
 * ends it with the task's other processes; the task's exit kills it. Null when it cannot start:
 * the terminal then hangs up with the daemon.
 */
function holdTerminal(masterFd: number, marker: Record<string, string>): ChildProcess | null {
  const sleep = resolveExecutable('sleep');
  if (!sleep || !Number.isInteger(masterFd)) return null;
  try {
    const child = spawn(sleep, ['2147483647'], { detached: true, stdio: ['ignore', 'ignore', 'ignore', masterFd], env: { ...marker } });
    child.on('error', () => undefined);
    child.unref();
    return child.pid === undefined ? null : child;
  } catch {
    return null;
  }
}

function signalName(n: number): NodeJS.Signals {
  const hit = Object.entries(os.constants.signals).find(([, v]) => v === n);
  return (hit?.[0] ?? `SIG${n}`) as NodeJS.Signals;
}

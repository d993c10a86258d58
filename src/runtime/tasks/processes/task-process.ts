/**
 * The operating-system side of command tasks: spawning `<shell> -c <cmd>` as the leader of its own
 * process group (and session) with its combined output appended to a file, signalling whole
 * groups, recognising a leftover group after a daemon crash without hitting a recycled pid, and
 * reading the tail of an output file. No database, no events: runtime/tasks/command-tasks.ts owns the
 * lifecycle. A task with a terminal is spawned by task-pty.ts into the same `Spawned` shape.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { openRegularFile } from '../../../core/index.js';
import { readProc, type ProcEntry } from './process-tree.js';

export interface SpawnSpec {
  shell: string;
  login: boolean;
  cmd: string;
  workdir: string;
  outputPath: string;
  acceptsInput: boolean;
  env: NodeJS.ProcessEnv;
  /** The command sandbox's wrapper (sandbox.ts); null: the shell runs as it is. */
  wrapper: Wrapper | null;
}

/** A program and its arguments, to which the shell and its command are appended (sandbox.ts). */
export interface Wrapper {
  file: string;
  args: string[];
}

/** The program and arguments that run the spec's command, in its sandbox when it has one. */
export function commandLine(spec: Pick<SpawnSpec, 'shell' | 'login' | 'cmd' | 'wrapper'>): [string, string[]] {
  const shell = [spec.login ? '-lc' : '-c', spec.cmd];
  return spec.wrapper ? [spec.wrapper.file, [...spec.wrapper.args, spec.shell, ...shell]] : [spec.shell, shell];
}

/**
 * The leader's exit as the command's own. In the sandbox the pid namespace's init reports a
 * command killed by signal N as status 128 + N (as a shell does): that is read back as the signal.
 */
export function commandExit(spec: Pick<SpawnSpec, 'wrapper'>, code: number | null, signal: NodeJS.Signals | null): [number | null, NodeJS.Signals | null] {
  if (!spec.wrapper || signal !== null || code === null || code <= 128) return [code, signal];
  const name = Object.entries(os.constants.signals).find(([, n]) => n === code - 128)?.[0];
  return name ? [null, name as NodeJS.Signals] : [code, signal];
}

/** Where a running task's input goes: a stdin pipe, or its terminal. */
export interface TaskInput {
  readonly target: 'stdin' | 'tty';
  /** False once input can no longer be delivered (the pipe was closed, or the process is gone). */
  readonly open: boolean;
  /** Write `data`, then with `eof` signal end of file (a pipe is closed; a terminal gets its EOF character). */
  write(data: Buffer, eof: boolean): void;
  /** The leader exited: stop delivering input. */
  close(): void;
}

/** A started task process, whatever runs it (a pipe child here, a pseudo-terminal in task-pty.ts). */
export interface Spawned {
  pid: number;
  /** The leader is a session and process-group leader: pgid = pid. */
  pgid: number;
  /** Start time of the leader (/proc/<pid>/stat field 22), null where /proc is not available. */
  procStart: string | null;
  input: TaskInput | null;
  /** Register the exit handler (once, in the tick of the spawn): called when the leader exited and its output is in the file. */
  onExit(cb: (code: number | null, signal: NodeJS.Signals | null) => void): void;
}

/**
 * Start the command. Throws when the operating system refuses (no such shell or workdir, out of
 * processes): the caller records the task as failed. The output file is opened for appending and
 * handed to the child as both stdout and stderr, so output lands on disk without passing through
 * the daemon and keeps landing there if the daemon dies. `detached: true` makes the child a
 * session and process-group leader.
 */
export function spawnCommand(spec: SpawnSpec): Spawned {
  fs.mkdirSync(path.dirname(spec.outputPath), { recursive: true });
  const fd = fs.openSync(spec.outputPath, 'a', 0o600);
  let child: ReturnType<typeof spawn>;
  try {
    const [file, args] = commandLine(spec);
    child = spawn(file, args, {
      cwd: spec.workdir,
      env: spec.env,
      detached: true,
      stdio: [spec.acceptsInput ? 'pipe' : 'ignore', fd, fd],
    });
  } finally {
    fs.closeSync(fd);
  }
  // A failed spawn reports asynchronously through 'error' (and never 'exit'): swallow the event,
  // the missing pid already tells the caller.
  child.on('error', () => undefined);
  child.stdin?.on('error', () => undefined); // EPIPE after the command exited
  if (child.pid === undefined) {
    throw new Error(`could not start ${spec.shell} in ${spec.workdir}`);
  }
  const pid = child.pid;
  return {
    pid,
    pgid: pid,
    procStart: procStartTime(pid),
    input: child.stdin ? pipeInput(child.stdin) : null,
    onExit: (cb) => void child.once('exit', (code, signal) => cb(...commandExit(spec, code, signal))),
  };
}

function pipeInput(stdin: Writable): TaskInput {
  return {
    target: 'stdin',
    get open() {
      return !stdin.destroyed && !stdin.writableEnded;
    },
    write(data, eof) {
      stdin.write(data);
      if (eof) stdin.end();
    },
    close() {
      stdin.destroy();
    },
  };
}

/** Send a signal to every process of a group; false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  if (!Number.isInteger(pgid) || pgid <= 1) return false;
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether any process of the group is still alive. Zombies do not count: an orphan killed with
 * its group is reaped by init, not by us, and stays in the group until then.
 */
export function groupAlive(pgid: number): boolean {
  const members = groupMembers(pgid);
  return members === null ? signalGroup(pgid, 0 as unknown as NodeJS.Signals) : members.length > 0;
}

/** Pids of the group's live (non-zombie) processes from /proc; null where /proc is not available. */
export function groupMembers(pgid: number): number[] | null {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return null;
  }
  const out: number[] = [];
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    const stat = procStat(Number(name));
    if (stat && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X') out.push(Number(name));
  }
  return out;
}

/** State, parent, process group, session and start time of a process from /proc; null when gone or unknown. */
export function procStat(pid: number): ProcEntry | null {
  return readProc(pid);
}

/** Start time of a process from /proc (Linux); null when unknown. */
export function procStartTime(pid: number): string | null {
  return procStat(pid)?.starttime ?? null;
}

/**
 * Kill a group left behind by a daemon that died, if it is still the task's group. The pid
 * number of a group leader cannot be handed out again while any member of its group lives, so:
 * a live process with that pid whose start time differs is a stranger (do nothing); otherwise
 * whatever answers to the group is ours.
 */
export function killLeftoverGroup(pgid: number, procStart: string | null): boolean {
  if (!Number.isInteger(pgid) || pgid <= 1) return false;
  const now = procStartTime(pgid);
  if (now !== null && procStart !== null && now !== procStart) return false;
  return signalGroup(pgid, 'SIGKILL');
}

/** The executable a shell name resolves to (PATH lookup for a bare name), or null. */
export function resolveExecutable(name: string, envPath = process.env.PATH ?? ''): string | null {
  const candidates = name.includes('/') ? [name] : envPath.split(':').filter(Boolean).map((dir) => path.join(dir, name));
  for (const candidate of candidates) {
    try {
      if (!fs.statSync(candidate).isFile()) continue;
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      /* next */
    }
  }
  return null;
}

export interface Tail {
  text: string;
  truncated: boolean;
  bytes: number;
}

/**
 * The last `limit` bytes of a file as UTF-8 text. A cut that lands inside a multi-byte
 * character skips that character's continuation bytes rather than emitting a broken one.
 */
export function readTail(file: string, limit: number): Tail {
  let fd: number;
  let size: number;
  try {
    // A task can put a FIFO where its output file was: read, it would never end.
    ({ fd, stat: { size } } = openRegularFile(file));
  } catch {
    return { text: '', truncated: false, bytes: 0 };
  }
  try {
    const length = Math.min(size, limit);
    const buf = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const n = fs.readSync(fd, buf, read, length - read, size - length + read);
      if (n === 0) break;
      read += n;
    }
    let start = 0;
    if (size > length) {
      while (start < Math.min(read, 3) && (buf[start]! & 0xc0) === 0x80) start++;
    }
    return { text: buf.subarray(start, read).toString('utf8'), truncated: size > length, bytes: size };
  } finally {
    fs.closeSync(fd);
  }
}

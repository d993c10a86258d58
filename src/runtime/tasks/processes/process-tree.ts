/**
 * The process table as Linux shows it in /proc: one entry per process from /proc/<pid>/stat, the
 * environment a process was started with from /proc/<pid>/environ, and the boot the start times
 * count from. Reading only: what to do with the table is decided by task-reaper.ts.
 * Everything answers null where /proc is not available (not Linux), so callers degrade to
 * process-group signals.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';

export interface ProcEntry {
  pid: number;
  /** The command name (may contain spaces and parentheses). */
  comm: string;
  /** R, S, D, T, Z (zombie), X (dead), ... */
  state: string;
  ppid: number;
  pgrp: number;
  session: number;
  /** Field 22: start time in clock ticks since boot, as written (the pair pid + start time names one process). */
  starttime: string;
}

/**
 * Parse one /proc/<pid>/stat line. The command name sits between the first `(` and the LAST `)`:
 * it may itself contain spaces, parentheses and digits, so the fields are split only after it.
 */
export function parseStat(text: string): ProcEntry | null {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const pid = Number(text.slice(0, open).trim());
  const rest = text.slice(close + 2).trim().split(' ');
  // rest[0] is field 3 (state); field n is rest[n - 3]: starttime (22) is rest[19].
  if (!Number.isInteger(pid) || pid <= 0 || rest.length < 20) return null;
  const [state, ppid, pgrp, session] = [rest[0]!, Number(rest[1]), Number(rest[2]), Number(rest[3])];
  const starttime = rest[19]!;
  if (![ppid, pgrp, session].every(Number.isInteger) || !/^\d+$/.test(starttime)) return null;
  return { pid, comm: text.slice(open + 1, close), state, ppid, pgrp, session, starttime };
}

/**
 * Parse /proc/<pid>/environ: `KEY=value` entries separated (and usually ended) by NUL bytes. An
 * entry without `=` is skipped; a value may itself contain `=`. The first definition of a key
 * wins, as getenv(3) finds it.
 */
export function parseEnviron(raw: Buffer | string): Map<string, string> {
  const text = typeof raw === 'string' ? raw : raw.toString('utf8');
  const env = new Map<string, string>();
  for (const entry of text.split('\0')) {
    const eq = entry.indexOf('=');
    if (eq <= 0) continue;
    const key = entry.slice(0, eq);
    if (!env.has(key)) env.set(key, entry.slice(eq + 1));
  }
  return env;
}

/** One process's entry; null when it is gone (or /proc is not there). */
export function readProc(pid: number): ProcEntry | null {
  try {
    return parseStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * The real and effective uid of a process, from the `Uid:` line of /proc/<pid>/status (real,
 * effective, saved, filesystem); null when it is gone or /proc is not there.
 */
export function readUids(pid: number): { real: number; effective: number } | null {
  try {
    const line = /^Uid:\s+(\d+)\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return line ? { real: Number(line[1]), effective: Number(line[2]) } : null;
  } catch {
    return null;
  }
}

/** Parallel reads of a walk: enough to keep the thread pool busy, few enough to leave it to others too. */
const WALK_CONCURRENCY = 8;

/**
 * Every process visible in /proc (those that exit while it is read are skipped); null without
 * /proc. Asynchronous: a walk reads one file per process (hundreds), which measured 15-100 ms on
 * a loaded machine, too long to hold the event loop.
 */
export async function listProcesses(): Promise<ProcEntry[] | null> {
  let names: string[];
  try {
    names = await fsp.readdir('/proc');
  } catch {
    return null;
  }
  const pids = names.filter((n) => /^\d+$/.test(n)).map(Number);
  const out: ProcEntry[] = [];
  await eachLimited(pids, WALK_CONCURRENCY, async (pid) => {
    try {
      const entry = parseStat(await fsp.readFile(`/proc/${pid}/stat`, 'utf8'));
      if (entry) out.push(entry);
    } catch {
      /* exited meanwhile */
    }
  });
  return out;
}

/**
 * The environment a process was started with. Null when it cannot be read: gone, another user's
 * (without privilege), or a process that made itself non-dumpable (ssh-agent, setuid programs).
 * A process that overwrites its environment area in memory shows the overwritten text.
 */
export async function readEnviron(pid: number): Promise<Map<string, string> | null> {
  try {
    return parseEnviron(await fsp.readFile(`/proc/${pid}/environ`));
  } catch {
    return null;
  }
}

/** Run `fn` over `items`, at most `limit` at a time. */
export async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** The kernel's id of the current boot: start times from another boot name other processes. */
export function bootId(): string | null {
  try {
    return fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/** Whether the process is gone or a zombie (it runs nothing any more and cannot be signalled usefully). */
export function isGone(entry: ProcEntry | null): boolean {
  return entry === null || entry.state === 'Z' || entry.state === 'X';
}

/**
 * `seeds` and every live process whose parent chain leads to one of them (children, grandchildren,
 * ...), from one snapshot of the table. Processes listed in `exclude` are neither added nor walked
 * through.
 */
export function withDescendants(procs: readonly ProcEntry[], seeds: Iterable<number>, exclude: ReadonlySet<number> = new Set()): Set<number> {
  const children = new Map<number, number[]>();
  for (const p of procs) {
    if (isGone(p)) continue;
    let list = children.get(p.ppid);
    if (!list) children.set(p.ppid, (list = []));
    list.push(p.pid);
  }
  const out = new Set<number>();
  const todo = [...seeds].filter((pid) => !exclude.has(pid));
  while (todo.length > 0) {
    const pid = todo.pop()!;
    if (out.has(pid)) continue;
    out.add(pid);
    for (const child of children.get(pid) ?? []) if (!exclude.has(child) && !out.has(child)) todo.push(child);
  }
  return out;
}

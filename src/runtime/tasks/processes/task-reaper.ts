/**
 * Finding and ending every process a command task started, including those that left its process
 * group and session (`setsid`, a double fork, daemon(3), `nohup ... &` under job control).
 *
 * How a process is recognised as a task's (Linux, through /proc; see process-tree.ts):
 * - Marker. Each task's environment carries `SVC_TASK_ID=<task_id>` and `SVC_TASK_OWNER=<owner>`,
 *   owner being a digest of the daemon's home (one daemon per home), so daemons on other homes
 *   never end each other's processes and a restarted daemon recognises its predecessor's. The
 *   environment is inherited through fork, exec, setsid and double forks, and /proc/<pid>/environ
 *   shows it whatever became of the parent chain (an orphan is reparented to init or a
 *   subreaper). Read once per process (pid + start time) and cached.
 * - Session and group. The leader is spawned detached, so its pid is also its session and process
 *   group id. Processes in that session or group are the task's provided the number still names
 *   the task: the leader, if alive, must have the recorded start time (/proc/<pid>/stat field 22)
 *   and the boot must be the recorded one; a dead leader's pid is not handed out again while its
 *   session or group has members. A member must also have started no earlier than the leader.
 *   This finds a descendant that cleared its environment but stayed in the session.
 * - Parent chain. Live descendants of anything found above (a child started with `env -i`
 *   while its parent lives).
 * Signals go to single pids, each re-read just before (a pid whose start time changed is someone
 * else now), never to the daemon itself.
 *
 * Known limit: a process that clears its environment (or overwrites it in memory, or makes itself
 * non-dumpable, as ssh-agent does), leaves the session AND whose parent has exited is found by
 * none of the above; only a cgroup per task would close that gap.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { Logger } from 'pino';
import { bootId, eachLimited, isGone, listProcesses, readEnviron, readProc, withDescendants, type ProcEntry } from './process-tree.js';

export const TASK_ID_VAR = 'SVC_TASK_ID';
export const TASK_OWNER_VAR = 'SVC_TASK_OWNER';

/** What the task's record keeps about its leader (tasks.pid/pgid/proc_start/proc_boot). */
export interface TaskTarget {
  taskId: string;
  /** Leader pid = process group = session; null when it never started. */
  pgid: number | null;
  procStart: string | null;
  bootId: string | null;
}

/** Which processes a sweep is after. */
interface Selection {
  targets: readonly TaskTarget[];
  /** Also every process carrying this owner's marker, whatever its task (shutdown, recovery). */
  everyMarked?: boolean;
  /**
   * Only the tasks' groups and sessions and their descendants: no environment is read for other
   * processes (the machine may start hundreds a second; a check per connection must stay cheap).
   */
  groupsOnly?: boolean;
  /**
   * Anchor on a session or group only while its leader is alive with the recorded start time.
   * After a restart the daemon was away for an unknown time: once every original member had gone,
   * the leader's pid may have been handed to an unrelated process that made its own session and
   * exited, leaving members that started after the leader. Recovery relies on the marker and the
   * parent chain instead.
   */
  liveLeadersOnly?: boolean;
}

interface Mark {
  starttime: string;
  owner: string | null;
  taskId: string | null;
}

/** Pause between checks of whether the signalled processes went, and between SIGKILL rounds. */
const POLL_MS = 50;
/** SIGKILL rounds: each re-reads the table, so what forked meanwhile is caught by the next one. */
const KILL_ROUNDS = 5;
/** Requests within this window are served together: one walk of /proc for all of them. */
const BATCH_MS = 25;

export class TaskReaper {
  private readonly marks = new Map<number, Mark>();
  private readonly pending = new Set<Promise<void>>();
  private readonly boot = bootId();
  /** Requests waiting to be served together, by kind (`end`, or the signal to send). */
  private readonly batches = new Map<string, { targets: TaskTarget[]; done: Promise<void> }>();

  constructor(
    readonly owner: string,
    private readonly opts: { graceMs: number; logger: Logger },
  ) {}

  /** The owner id of a home: stable across restarts, different for every home. */
  static ownerOf(home: string): string {
    let real = home;
    try {
      real = fs.realpathSync(home);
    } catch {
      /* not created yet: the path as given */
    }
    return createHash('sha256').update(real).digest('hex').slice(0, 16);
  }

  /** The boot id to record with a task's leader (null without /proc). */
  get currentBoot(): string | null {
    return this.boot;
  }

  /** The marker variables of a task's environment. */
  env(taskId: string): Record<string, string> {
    return { [TASK_ID_VAR]: taskId, [TASK_OWNER_VAR]: this.owner };
  }

  /** Send `signal` (SIGTERM also gets a SIGCONT) to every live process of the tasks. */
  signal(targets: readonly TaskTarget[], signal: NodeJS.Signals): Promise<void> {
    return this.batched(signal, targets, async (all) => {
      const found = await this.find({ targets: all });
      this.send(found, signal);
      if (signal === 'SIGTERM') this.send(found, 'SIGCONT');
    });
  }

  /**
   * End every process of the tasks: SIGTERM (and SIGCONT), up to the grace for them to go, then
   * SIGKILL whatever is left, re-reading the table each round.
   */
  end(targets: readonly TaskTarget[]): Promise<void> {
    return this.batched('end', targets, (all) => this.sweep({ targets: all }));
  }

  /**
   * End the tasks' processes and every other process carrying this owner's marker.
   * `afterRestart`: the tasks belong to a daemon that died (see Selection.liveLeadersOnly).
   */
  endAll(targets: readonly TaskTarget[] = [], opts: { afterRestart?: boolean } = {}): Promise<void> {
    return this.track(this.sweep({ targets, everyMarked: true, liveLeadersOnly: opts.afterRestart === true }));
  }

  /** Resolves once every signal and sweep started so far has finished. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /**
   * The task whose process holds the socket `inode` (the client end of a connection to the
   * daemon), or null: one walk of /proc for the processes of the tasks' groups and sessions and
   * their descendants (in the sandbox: everything the task runs, its own pid namespace), then their
   * open files. A holder whose task id cannot be read is `unknown`. An unsandboxed process that
   * left its task's group and parent chain is not found: without the sandbox a task is no boundary.
   */
  async socketHolder(inode: number, targets: readonly TaskTarget[]): Promise<string | null> {
    const link = `socket:[${inode}]`;
    for (const pid of (await this.find({ targets, groupsOnly: true })).keys()) {
      let fds: string[];
      try {
        fds = await fs.promises.readdir(`/proc/${pid}/fd`);
      } catch {
        continue; // gone meanwhile
      }
      for (const fd of fds) {
        const target = await fs.promises.readlink(`/proc/${pid}/fd/${fd}`).catch(() => null);
        if (target === link) return this.marks.get(pid)?.taskId ?? (await readEnviron(pid))?.get(TASK_ID_VAR) ?? 'unknown';
      }
    }
    return null;
  }

  /** The live processes (pid -> start time) a selection names, from one walk of /proc. */
  async find(sel: Selection): Promise<Map<number, string>> {
    const found = new Map<number, string>();
    const procs = await listProcesses();
    if (!procs) return found;
    const byPid = new Map(procs.map((p) => [p.pid, p]));
    for (const [pid, mark] of this.marks) if (byPid.get(pid)?.starttime !== mark.starttime) this.marks.delete(pid);

    // Sessions/groups still the tasks' own, with the earliest start time a member may have.
    const anchors = new Map<number, number>();
    for (const t of sel.targets) {
      if (t.pgid === null || t.pgid <= 1 || t.procStart === null) continue;
      if (t.bootId !== null && this.boot !== null && t.bootId !== this.boot) continue;
      const leader = byPid.get(t.pgid);
      if (leader && leader.starttime !== t.procStart) continue;
      if (!leader && sel.liveLeadersOnly) continue;
      anchors.set(t.pgid, Number(t.procStart));
    }
    const ids = new Set(sel.targets.map((t) => t.taskId));
    const ours = (m: Mark) => m.owner === this.owner && m.taskId !== null && (sel.everyMarked === true || ids.has(m.taskId));

    const seeds: number[] = [];
    const unread: ProcEntry[] = [];
    for (const p of procs) {
      if (p.pid === process.pid || p.pid <= 1 || isGone(p)) continue;
      const since = anchors.get(p.session) ?? anchors.get(p.pgrp);
      if (since !== undefined && Number(p.starttime) >= since) seeds.push(p.pid);
      else if (this.marks.has(p.pid)) {
        if (ours(this.marks.get(p.pid)!)) seeds.push(p.pid);
      } else if (!sel.groupsOnly) unread.push(p);
    }
    await eachLimited(unread, 8, async (p) => {
      const env = await readEnviron(p.pid);
      const mark: Mark = { starttime: p.starttime, owner: env?.get(TASK_OWNER_VAR) ?? null, taskId: env?.get(TASK_ID_VAR) ?? null };
      this.marks.set(p.pid, mark);
      if (ours(mark)) seeds.push(p.pid);
    });
    for (const pid of withDescendants(procs, seeds, new Set([process.pid]))) found.set(pid, byPid.get(pid)!.starttime);
    return found;
  }

  private async sweep(sel: Selection): Promise<void> {
    let found = await this.find(sel);
    if (found.size === 0) return;
    this.send(found, 'SIGTERM');
    this.send(found, 'SIGCONT');
    const deadline = Date.now() + this.opts.graceMs;
    while (Date.now() < deadline && [...found].some(([pid, start]) => alive(pid, start))) await delay(POLL_MS);
    for (let round = 0; round < KILL_ROUNDS; round++) {
      found = await this.find(sel);
      if (found.size === 0) return;
      this.send(found, 'SIGKILL');
      await delay(POLL_MS);
    }
    this.opts.logger.warn({ pids: [...found.keys()], tasks: sel.targets.map((t) => t.taskId) }, 'task processes still alive after SIGKILL');
  }

  private send(found: Map<number, string>, signal: NodeJS.Signals): void {
    for (const [pid, start] of found) {
      if (pid === process.pid || !alive(pid, start)) continue;
      try {
        process.kill(pid, signal);
      } catch {
        /* exited meanwhile, or not ours to signal */
      }
    }
  }

  /** Requests of one kind within BATCH_MS share one walk of /proc (200 tasks ending at once: one). */
  private batched(kind: string, targets: readonly TaskTarget[], run: (all: TaskTarget[]) => Promise<void>): Promise<void> {
    const open = this.batches.get(kind);
    if (open) {
      open.targets.push(...targets);
      return open.done;
    }
    const batch = { targets: [...targets], done: Promise.resolve() };
    this.batches.set(kind, batch);
    batch.done = this.track(
      delay(BATCH_MS).then(() => {
        this.batches.delete(kind);
        return run(batch.targets);
      }),
    );
    return batch.done;
  }

  private track(p: Promise<void>): Promise<void> {
    const tracked = p.catch((err) => this.opts.logger.error({ err }, 'ending task processes failed'));
    this.pending.add(tracked);
    void tracked.finally(() => this.pending.delete(tracked));
    return tracked;
  }
}

/** Whether `pid` is still the process that started at `start`, and not a zombie. */
function alive(pid: number, start: string): boolean {
  const entry = readProc(pid);
  return !isGone(entry) && entry!.starttime === start;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

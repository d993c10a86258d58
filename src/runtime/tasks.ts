/**
 * Command tasks as real child processes (CONTRACT.md section 8).
 *
 * A task is a row in `tasks` and, while it runs, a child process: `<shell> -c <cmd>` (`-lc` when
 * `login`) started as the leader of its own process group, its combined stdout+stderr appended to
 * `<agent home>/tasks/<task_id>.log`. Every status change commits together with its
 * `task_status_changed` event; a task that reaches a terminal status also enqueues a
 * `task_result` message (origin `task`, trusted_system) in that same transaction.
 *
 * Lifecycle: queued -> running -> completed | failed (exit status), running -> cancelling (first
 * stop: SIGTERM to the group) -> cancelled (on exit; a second stop SIGKILLs the group), queued ->
 * cancelled (stop before start), any active status -> interrupted (graceful shutdown, or found
 * active at the next start after the daemon died; its leftover group is killed then).
 * At most `tasks.max_concurrent_per_agent` tasks of an agent run at once; the rest wait `queued`
 * and start, oldest first, as slots free. When a task's leader exits, whatever it left running in
 * its group is killed: a task owns its group for exactly its lifetime.
 *
 * A task also owns every process it started outside its group and session (`setsid`, double
 * forks): runtime/task-reaper.ts finds them by a marker in their environment and by the recorded
 * session. They get the signals the group gets (stop, force stop, shutdown), and when the leader
 * exits, at shutdown and at the recovery after a crash, whatever is left of them gets SIGTERM,
 * then SIGKILL after a grace: nothing a task started outlives the task, nor the daemon.
 */
import { createHash } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { isoAt } from '../core/clock.js';
import { errors } from '../core/errors.js';
import type { FailureArtifact } from '../core/failure.js';
import { deriveProvenance } from '../core/provenance.js';
import type { Span, SpanStatus } from '../telemetry/tracing.js';
import type { ResourceService, RuntimeDeps } from './deps.js';
import { TaskReaper, type TaskTarget } from './task-reaper.js';
import {
  killLeftoverGroup,
  readTail,
  resolveExecutable,
  signalGroup,
  spawnCommand,
} from './task-process.js';
import {
  DEFAULT_OUTPUT_WAIT_MS,
  DEFAULT_SHELL,
  MAX_OUTPUT_WAIT_MS,
  failure,
  isTerminal,
  snapshot,
  type CreateTaskInput,
  type OutputOptions,
  type TaskRow,
  type TaskSnapshot,
  type TaskStatus,
} from './task-records.js';
import type { WorkspaceService } from './workspaces.js';
/** Grace between SIGTERM and SIGKILL when the daemon (or an agent deletion) ends tasks. */
const KILL_GRACE_MS = 1000;
const STATE_PAGE_LIMIT = 50;

export interface TaskDeps extends RuntimeDeps {
  workspaces: WorkspaceService;
}

/** A running child process of a task. */
interface Live {
  taskId: string;
  agentId: string;
  child: ChildProcess;
  pgid: number;
  /** What the reaper needs to find the task's processes outside its group. */
  target: TaskTarget;
  /** Resolves once the exit has been recorded. */
  exited: Promise<void>;
  /** Set before the daemon or a deletion ends the task: the status it ends with. */
  endAs?: 'interrupted' | 'cancelled';
  endReason?: string;
  /** The `task.run` span, ended with the exit. */
  span: Span | undefined;
}

interface Transition {
  exit_status?: number | null;
  term_signal?: string | null;
  result_summary?: string | null;
  failure?: FailureArtifact | null;
  pid?: number | null;
  pgid?: number | null;
  proc_start?: string | null;
  proc_boot?: string | null;
  started_at?: string | null;
  stop_requests?: number;
  /** Extra fields for the task_status_changed event. */
  event?: Record<string, unknown>;
}

/** A task as the agent's state page lists it (active tasks only). */
export interface TaskStateEntry {
  task_id: string;
  kind: string;
  status: string;
  summary: string | null;
  created_at: string;
  updated_at: string;
}

export class TaskService implements ResourceService {
  private readonly stmt;
  private readonly live = new Map<string, Live>();
  private readonly liveByAgent = new Map<string, Set<string>>();
  private readonly waiters = new Map<string, Set<() => void>>();
  private stopping = false;
  private readonly reaper: TaskReaper;

  constructor(private readonly deps: TaskDeps) {
    this.reaper = new TaskReaper(TaskReaper.ownerOf(deps.config.home), { graceMs: KILL_GRACE_MS, logger: deps.logger });
    const db: Database.Database = deps.store.db;
    this.stmt = {
      insert: db.prepare(
        `INSERT INTO tasks (task_id, agent_id, kind, status, summary, cmd, cmd_digest, shell, login, accepts_input, workdir, output_path, created_at, updated_at)
         VALUES (@task_id, @agent_id, 'command', 'queued', @summary, @cmd, @cmd_digest, @shell, @login, @accepts_input, @workdir, @output_path, @now, @now)`,
      ),
      get: db.prepare('SELECT * FROM tasks WHERE task_id = ?'),
      update: db.prepare(
        `UPDATE tasks SET status = @status, exit_status = @exit_status, term_signal = @term_signal, result_summary = @result_summary,
           failure = @failure, pid = @pid, pgid = @pgid, proc_start = @proc_start, proc_boot = @proc_boot, stop_requests = @stop_requests,
           started_at = @started_at, finished_at = @finished_at, updated_at = @updated_at
         WHERE task_id = @task_id`,
      ),
      nextQueued: db.prepare("SELECT * FROM tasks WHERE agent_id = ? AND status = 'queued' ORDER BY seq LIMIT 1"),
      activeAll: db.prepare("SELECT * FROM tasks WHERE status IN ('queued', 'running', 'cancelling') ORDER BY seq"),
      activeOf: db.prepare("SELECT * FROM tasks WHERE agent_id = ? AND status IN ('queued', 'running', 'cancelling') ORDER BY seq DESC LIMIT ?"),
      recentOf: db.prepare(
        "SELECT * FROM tasks WHERE agent_id = ? AND status NOT IN ('queued', 'running', 'cancelling') ORDER BY seq DESC LIMIT ?",
      ),
      purge: db.prepare('DELETE FROM tasks WHERE agent_id = ?'),
      everStarted: db.prepare('SELECT 1 FROM tasks WHERE pid IS NOT NULL LIMIT 1'),
    };
  }

  // --- reads -----------------------------------------------------------------------------------

  /** The task of this agent, or 404 (agent_not_found, then task_not_found). */
  getRow(agentId: string, taskId: string): TaskRow {
    this.deps.agents.get(agentId);
    const row = this.stmt.get.get(taskId) as TaskRow | undefined;
    if (!row || row.agent_id !== agentId) throw errors.taskNotFound(taskId, { agent_id: agentId });
    return row;
  }

  get(agentId: string, taskId: string): TaskSnapshot {
    return snapshot(this.getRow(agentId, taskId));
  }

  /** Active tasks and the most recent finished ones, newest first, at most `limit` of each. */
  list(agentId: string, limit = 100): TaskSnapshot[] {
    this.deps.agents.get(agentId);
    const rows = [
      ...(this.stmt.activeOf.all(agentId, limit) as TaskRow[]),
      ...(this.stmt.recentOf.all(agentId, limit) as TaskRow[]),
    ];
    rows.sort((a, b) => b.seq - a.seq);
    return rows.map(snapshot);
  }

  /** The agent's entries for GET /api/agents/:id/state: active tasks, slim, bounded. */
  stateFor(agentId: string): TaskStateEntry[] {
    return (this.stmt.activeOf.all(agentId, STATE_PAGE_LIMIT) as TaskRow[]).map((r) => ({
      task_id: r.task_id,
      kind: r.kind,
      status: r.status,
      summary: r.summary,
      created_at: r.created_at,
      updated_at: r.updated_at,
    }));
  }

  /** Number of task processes alive right now (all agents). */
  get runningCount(): number {
    return this.live.size;
  }

  // --- create ----------------------------------------------------------------------------------

  create(agentId: string, input: CreateTaskInput): TaskSnapshot {
    this.deps.agents.getWritable(agentId);
    if (this.stopping) throw errors.shuttingDown();
    const shell = input.shell?.trim() || DEFAULT_SHELL;
    if (!resolveExecutable(shell)) throw errors.shellNotFound(shell);
    const base = this.deps.workspaces.activePath(agentId);
    const workdir = input.workdir ? path.resolve(base, input.workdir) : base;
    if (!isDirectory(workdir)) throw errors.workdirNotFound(workdir);

    const taskId = this.deps.ids.make('task');
    const outputPath = path.join(this.deps.agents.homeOf(agentId), 'tasks', `${taskId}.log`);
    fs.mkdirSync(path.dirname(outputPath), { recursive: true });
    fs.writeFileSync(outputPath, '', { flag: 'a', mode: 0o600 });
    const summary = input.summary?.trim() || oneLine(input.cmd);
    const login = input.login === true;
    const acceptsInput = input.accepts_input === true;
    const digest = createHash('sha256').update(input.cmd).digest('hex');

    this.deps.store.tx(() => {
      this.deps.agents.assertWritable(agentId);
      this.stmt.insert.run({
        task_id: taskId,
        agent_id: agentId,
        summary,
        cmd: input.cmd,
        cmd_digest: digest,
        shell,
        login: login ? 1 : 0,
        accepts_input: acceptsInput ? 1 : 0,
        workdir,
        output_path: outputPath,
        now: this.now(),
      });
      this.deps.events.append(agentId, 'task_create_requested', {
        task_id: taskId,
        kind: 'command',
        status: 'queued',
        summary,
        cmd: input.cmd,
        cmd_digest: digest,
        shell,
        login,
        accepts_input: acceptsInput,
        workdir,
        output_path: outputPath,
        authority_class: input.authority_class ?? null,
      });
    });
    this.pump(agentId);
    return snapshot(this.stmt.get.get(taskId) as TaskRow);
  }

  // --- output ----------------------------------------------------------------------------------

  async output(agentId: string, taskId: string, opts: OutputOptions = {}) {
    let row = this.getRow(agentId, taskId);
    let retrieval: 'success' | 'timeout' | 'not_ready' = 'success';
    if (!isTerminal(row.status)) {
      if (!opts.block) {
        retrieval = 'not_ready';
      } else {
        const ms = Math.min(opts.timeoutMs ?? DEFAULT_OUTPUT_WAIT_MS, MAX_OUTPUT_WAIT_MS);
        await this.waitTerminal(taskId, ms, opts.signal);
        row = this.getRow(agentId, taskId);
        retrieval = isTerminal(row.status) ? 'success' : 'timeout';
      }
    }
    const tail = readTail(row.output_path, this.deps.config.values.tasks.output_preview_bytes);
    return {
      retrieval_status: retrieval,
      task: {
        task_id: row.task_id,
        kind: row.kind,
        status: row.status,
        output_preview: tail.text,
        output_truncated: tail.truncated,
        output_bytes: tail.bytes,
        exit_status: row.exit_status,
        result_summary: row.result_summary,
        summary: row.summary,
        failure_artifact: row.failure ? (JSON.parse(row.failure) as FailureArtifact) : null,
        artifacts: [{ path: row.output_path }],
        output_artifact: null,
      },
    };
  }

  /** Resolves when the task reaches a terminal status, after `ms`, or on abort (never rejects). */
  private waitTerminal(taskId: string, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      let set = this.waiters.get(taskId);
      if (!set) this.waiters.set(taskId, (set = new Set()));
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        const s = this.waiters.get(taskId);
        s?.delete(done);
        if (s && s.size === 0) this.waiters.delete(taskId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      set.add(done);
      if (signal?.aborted) done();
    });
  }

  private notify(taskId: string): void {
    const set = this.waiters.get(taskId);
    if (!set) return;
    for (const done of [...set]) done();
  }

  /** End every pending blocking output read now (shutdown): each answers with the current state. */
  releaseWaiters(): void {
    for (const taskId of [...this.waiters.keys()]) this.notify(taskId);
  }

  // --- input -----------------------------------------------------------------------------------

  input(agentId: string, taskId: string, body: { text: string; eof?: boolean | null | undefined; authority_class?: string | null | undefined }) {
    const row = this.getRow(agentId, taskId);
    const refuse = (summaryText: string) => ({
      ok: true as const,
      task: snapshot(row),
      accepted_input: false,
      bytes_written: null,
      input_target: row.accepts_input ? 'stdin' : null,
      summary_text: summaryText,
    });
    if (!row.accepts_input) return refuse(`task ${row.task_id} was created without accepts_input: it has no stdin, input not delivered`);
    const stdin = this.live.get(taskId)?.child.stdin;
    if (row.status !== 'running' || !stdin || stdin.destroyed || stdin.writableEnded) {
      return refuse(`task ${row.task_id} is ${row.status}, not running: input not delivered`);
    }
    const buf = Buffer.from(body.text, 'utf8');
    stdin.write(buf);
    if (body.eof) stdin.end();
    this.deps.store.tx(() =>
      this.deps.events.append(agentId, 'task_input_delivered', {
        task_id: taskId,
        bytes_written: buf.length,
        eof: body.eof === true,
        authority_class: body.authority_class ?? null,
      }),
    );
    return {
      ok: true as const,
      task: snapshot(row),
      accepted_input: true,
      bytes_written: buf.length,
      input_target: 'stdin',
      summary_text: `wrote ${buf.length} bytes to the stdin of task ${taskId}${body.eof ? ' and closed it' : ''}`,
    };
  }

  // --- stop ------------------------------------------------------------------------------------

  requestStop(agentId: string, taskId: string, opts: { authority_class?: string | null | undefined } = {}) {
    const row = this.getRow(agentId, taskId);
    const result = (r: TaskRow, force: boolean, signal: NodeJS.Signals | null, summaryText: string) => ({
      ok: true as const,
      task: snapshot(r),
      force_stop_requested: force,
      previous_status: row.status,
      signal_sent: signal,
      summary_text: summaryText,
    });
    if (isTerminal(row.status)) return result(row, false, null, `task ${taskId} already finished (${row.status})`);
    const live = this.live.get(taskId);
    if (row.status === 'queued' || !live) {
      const done = this.deps.store.tx(() =>
        this.transition(row, 'cancelled', {
          result_summary: row.status === 'queued' ? 'cancelled before it started' : 'cancelled (no process was running)',
          failure: failure(row, 'task', 'cancelled', 'stopped on request before the command ran', null),
          event: { authority_class: opts.authority_class ?? null },
        }),
      );
      return result(done, false, null, `task ${taskId} cancelled`);
    }
    if (row.status === 'running') {
      const next = this.deps.store.tx(() =>
        this.transition(row, 'cancelling', { stop_requests: row.stop_requests + 1, event: { signal: 'SIGTERM', authority_class: opts.authority_class ?? null } }),
      );
      signalGroup(live.pgid, 'SIGTERM');
      signalGroup(live.pgid, 'SIGCONT');
      void this.reaper.signal([live.target], 'SIGTERM');
      return result(next, false, 'SIGTERM', `sent SIGTERM to the process group of task ${taskId}`);
    }
    // cancelling: a repeated stop forces.
    const next = this.deps.store.tx(() => {
      const now = this.now();
      this.stmt.update.run({ ...row, stop_requests: row.stop_requests + 1, updated_at: now });
      this.deps.events.append(agentId, 'task_force_stop_requested', {
        task_id: taskId,
        kind: row.kind,
        status: row.status,
        signal: 'SIGKILL',
        pgid: live.pgid,
        authority_class: opts.authority_class ?? null,
      });
      return { ...row, stop_requests: row.stop_requests + 1, updated_at: now };
    });
    signalGroup(live.pgid, 'SIGKILL');
    void this.reaper.signal([live.target], 'SIGKILL');
    return result(next, true, 'SIGKILL', `sent SIGKILL to the process group of task ${taskId}`);
  }

  // --- lifecycle -------------------------------------------------------------------------------

  /**
   * Recovery at start: tasks recorded as active belong to a daemon that died. Their leftover
   * process groups are killed (when still theirs) and they become `interrupted`. Then, in the
   * background, their processes outside the group, and any other process still carrying this
   * home's task marker (a task that ended while its escapees were being swept), are ended. A
   * home where no task ever started has nothing to look for.
   */
  start(): void {
    const rows = this.stmt.activeAll.all() as TaskRow[];
    const started = rows.filter((row) => row.pgid !== null && row.status !== 'queued');
    for (const row of started) killLeftoverGroup(row.pgid!, row.proc_start);
    if (this.stmt.everStarted.get()) void this.reaper.endAll(started.map(targetOf), { afterRestart: true });
    if (rows.length === 0) return;
    this.deps.store.tx(() => {
      for (const row of rows) {
        const before = row.status === 'queued';
        const text = before ? 'interrupted: the daemon stopped before the task started' : 'interrupted: the daemon stopped while the task was running';
        this.transition(row, 'interrupted', {
          result_summary: text,
          failure: failure(row, 'runtime', 'daemon_restart', text, null),
          event: { reason: 'daemon_restart' },
        });
      }
    });
    this.deps.logger.warn({ tasks: rows.length }, 'tasks left active by the previous daemon marked interrupted');
  }

  /** Graceful shutdown: SIGTERM every running group, SIGKILL after a grace, all become interrupted. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.releaseWaiters();
    await this.endLive([...this.live.values()], 'interrupted', 'interrupted: the daemon shut down');
    const leftovers = this.stmt.activeAll.all() as TaskRow[];
    if (leftovers.length > 0) {
      this.deps.store.tx(() => {
        for (const row of leftovers) {
          const text = row.status === 'queued' ? 'interrupted: the daemon shut down before the task started' : 'interrupted: the daemon shut down';
          this.transition(row, 'interrupted', { result_summary: text, failure: failure(row, 'runtime', 'daemon_shutdown', text, null), event: { reason: 'daemon_shutdown' } });
        }
      });
    }
    // The exits above started sweeps of what the tasks left outside their groups; one more for
    // anything else carrying this home's marker; the daemon exits only when they are done.
    if (this.stmt.everStarted.get()) await this.reaper.endAll(leftovers.filter((row) => row.pgid !== null).map(targetOf));
    await this.reaper.idle();
  }

  /** The agent is being deleted: end its processes, then forget its tasks. */
  async stopAgent(agentId: string): Promise<void> {
    const ids = [...(this.liveByAgent.get(agentId) ?? [])];
    await this.endLive(ids.map((id) => this.live.get(id)!).filter(Boolean), 'cancelled', 'cancelled: the agent is being deleted');
    const rows = this.deps.store.tx(() => {
      const active = this.stmt.activeOf.all(agentId, Number.MAX_SAFE_INTEGER) as TaskRow[];
      this.stmt.purge.run(agentId);
      return active;
    });
    for (const row of rows) this.notify(row.task_id);
  }

  // --- internals -------------------------------------------------------------------------------

  /** SIGTERM, wait up to the grace, SIGKILL, wait a little more; records each exit as `endAs`. */
  private async endLive(lives: Live[], endAs: 'interrupted' | 'cancelled', reason: string): Promise<void> {
    if (lives.length === 0) return;
    for (const l of lives) {
      l.endAs = endAs;
      l.endReason = reason;
      signalGroup(l.pgid, 'SIGTERM');
      signalGroup(l.pgid, 'SIGCONT');
    }
    void this.reaper.signal(lives.map((l) => l.target), 'SIGTERM');
    const all = Promise.all(lives.map((l) => l.exited));
    if (await within(all, KILL_GRACE_MS)) return;
    const stuck = lives.filter((l) => this.live.has(l.taskId));
    for (const l of stuck) signalGroup(l.pgid, 'SIGKILL');
    void this.reaper.signal(stuck.map((l) => l.target), 'SIGKILL');
    if (await within(all, KILL_GRACE_MS)) return;
    // Still not reaped (uninterruptible sleep): record the end anyway; the exit, if it ever comes, is ignored.
    this.deps.store.tx(() => {
      for (const l of lives) {
        const row = this.stmt.get.get(l.taskId) as TaskRow | undefined;
        if (row && !isTerminal(row.status)) {
          this.transition(row, endAs, { result_summary: reason, failure: failure(row, 'runtime', 'kill_timeout', `${reason}; the process did not exit after SIGKILL`, null) });
        }
      }
    });
  }

  /** Start queued tasks of the agent while it has free slots (oldest first). */
  private pump(agentId: string): void {
    if (this.stopping) return;
    const cap = this.deps.config.values.tasks.max_concurrent_per_agent;
    for (;;) {
      if ((this.liveByAgent.get(agentId)?.size ?? 0) >= cap) return;
      const agent = this.deps.agents.find(agentId);
      if (!agent || agent.status === 'deleting') return;
      const row = this.stmt.nextQueued.get(agentId) as TaskRow | undefined;
      if (!row) return;
      this.launch(row);
    }
  }

  private launch(row: TaskRow): void {
    let spawned: ReturnType<typeof spawnCommand>;
    try {
      spawned = spawnCommand({
        shell: row.shell,
        login: row.login === 1,
        cmd: row.cmd,
        workdir: row.workdir,
        outputPath: row.output_path,
        acceptsInput: row.accepts_input === 1,
        env: taskEnv(row, this.reaper.env(row.task_id)),
      });
    } catch (err) {
      const text = `could not start the command: ${(err as Error).message}`;
      this.deps.tracer?.startSpan('task.run', taskSpanAttrs(row), null).end('error', text);
      this.deps.store.tx(() =>
        this.transition(row, 'failed', { result_summary: text, failure: failure(row, 'runtime', 'spawn_failed', text, null) }),
      );
      return;
    }
    const { child, pid, pgid, procStart } = spawned;
    const procBoot = procStart === null ? null : this.reaper.currentBoot;
    let markExited!: () => void;
    const span = this.deps.tracer?.startSpan('task.run', taskSpanAttrs(row), null);
    const target: TaskTarget = { taskId: row.task_id, pgid, procStart, bootId: procBoot };
    const live: Live = { taskId: row.task_id, agentId: row.agent_id, child, pgid, target, exited: new Promise<void>((r) => (markExited = r)), span };
    this.live.set(row.task_id, live);
    let set = this.liveByAgent.get(row.agent_id);
    if (!set) this.liveByAgent.set(row.agent_id, (set = new Set()));
    set.add(row.task_id);
    child.once('exit', (code, signal) => {
      try {
        this.onExit(live, code, signal);
      } catch (err) {
        this.deps.logger.error({ err, task_id: live.taskId }, 'recording a task exit failed');
      } finally {
        live.span?.end('error', 'recording the task exit failed'); // no-op once ended
        markExited();
        this.pump(live.agentId);
      }
    });
    // Same tick as the spawn: the exit cannot be recorded before this.
    this.deps.store.tx(() =>
      this.transition(row, 'running', { pid, pgid, proc_start: procStart, proc_boot: procBoot, started_at: this.now(), event: { pid, pgid } }),
    );
  }

  private onExit(live: Live, code: number | null, signal: NodeJS.Signals | null): void {
    this.live.delete(live.taskId);
    const set = this.liveByAgent.get(live.agentId);
    set?.delete(live.taskId);
    if (set && set.size === 0) this.liveByAgent.delete(live.agentId);
    live.child.stdin?.destroy();
    // The leader is gone: whatever it left in its group goes with it, and what it started
    // outside the group is ended (SIGTERM, then SIGKILL after the grace).
    signalGroup(live.pgid, 'SIGKILL');
    void this.reaper.end([live.target]);
    const row = this.stmt.get.get(live.taskId) as TaskRow | undefined;
    if (!row || isTerminal(row.status)) {
      live.span?.end(row ? taskSpanStatus(row.status) : 'cancelled');
      return;
    }
    const how = signal ? `killed by signal ${signal}` : `exited with status ${code}`;
    let status: TaskStatus;
    let result: string;
    let fail: FailureArtifact | null;
    if (live.endAs) {
      status = live.endAs;
      result = `${live.endReason ?? status} (${how})`;
      fail = failure(row, 'runtime', live.endAs === 'interrupted' ? 'daemon_shutdown' : 'agent_deleted', result, code, signal);
    } else if (row.status === 'cancelling') {
      status = 'cancelled';
      result = `cancelled on request (${how})`;
      fail = failure(row, 'task', 'cancelled', result, code, signal);
    } else if (code === 0) {
      status = 'completed';
      result = how;
      fail = null;
    } else {
      status = 'failed';
      result = how;
      fail = signal
        ? failure(row, 'task', 'signal', `the command was ${how}`, null, signal)
        : failure(row, 'task', 'exit_status', `the command ${how}`, code);
    }
    this.deps.store.tx(() =>
      this.transition(row, status, { exit_status: signal ? null : code, term_signal: signal, result_summary: result, failure: fail }),
    );
    live.span?.setAttributes({ 'svc.task.status': status, 'svc.task.exit_status': signal ? null : code });
    live.span?.end(taskSpanStatus(status), status === 'failed' ? result : undefined);
  }

  /**
   * Write a status change, its task_status_changed event and, for a terminal status, the
   * task_result message. Inside a transaction.
   */
  private transition(row: TaskRow, to: TaskStatus, t: Transition): TaskRow {
    const now = this.now();
    const terminal = isTerminal(to);
    const next: TaskRow = {
      ...row,
      status: to,
      exit_status: t.exit_status !== undefined ? t.exit_status : row.exit_status,
      term_signal: t.term_signal !== undefined ? t.term_signal : row.term_signal,
      result_summary: t.result_summary !== undefined ? t.result_summary : row.result_summary,
      failure: t.failure !== undefined ? (t.failure ? JSON.stringify(t.failure) : null) : row.failure,
      pid: t.pid !== undefined ? t.pid : row.pid,
      pgid: t.pgid !== undefined ? t.pgid : row.pgid,
      proc_start: t.proc_start !== undefined ? t.proc_start : row.proc_start,
      proc_boot: t.proc_boot !== undefined ? t.proc_boot : row.proc_boot,
      started_at: t.started_at !== undefined ? t.started_at : row.started_at,
      stop_requests: t.stop_requests ?? row.stop_requests,
      finished_at: terminal ? now : row.finished_at,
      updated_at: now,
    };
    this.stmt.update.run(next);
    this.deps.events.append(row.agent_id, 'task_status_changed', {
      task_id: row.task_id,
      kind: row.kind,
      from: row.status,
      to,
      status: to,
      exit_status: next.exit_status,
      signal: next.term_signal,
      result_summary: next.result_summary,
      ...t.event,
    });
    if (terminal) this.enqueueResult(next, readTail(next.output_path, this.deps.config.values.tasks.output_preview_bytes));
    if (terminal) this.deps.store.afterCommit(() => this.notify(row.task_id));
    return next;
  }

  /**
   * Enqueue the task_result message; null when the agent cannot take it (it is being deleted).
   * The queue cap never refuses it (a runtime-owned message), so a result is not lost to a full queue.
   */
  private enqueueResult(row: TaskRow, preview: { text: string; truncated: boolean }): string | null {
    const agent = this.deps.agents.find(row.agent_id);
    if (!agent || agent.status === 'deleting') return null;
    const provenance = deriveProvenance('task', { kind: 'task', task_id: row.task_id }, { kind: 'task_result' });
    try {
      // A savepoint: a refusal (agent deleting) undoes only the message.
      return this.deps.store.tx(
        () =>
          this.deps.ingress.enqueueNow(
            row.agent_id,
            provenance,
            {
              type: 'json',
              value: {
                task_id: row.task_id,
                kind: row.kind,
                status: row.status,
                exit_status: row.exit_status,
                summary: row.summary,
                cmd: row.cmd,
                result_summary: row.result_summary,
                output_preview: preview.text,
                output_truncated: preview.truncated,
                output_path: row.output_path,
                failure_artifact: row.failure ? JSON.parse(row.failure) : null,
              },
            },
            { metadata: { task_id: row.task_id }, correlation_id: row.task_id },
          ).message_id,
      );
    } catch (err) {
      this.deps.logger.warn({ err, task_id: row.task_id, agent_id: row.agent_id }, 'task_result not enqueued');
      return null;
    }
  }

  private now(): string {
    return isoAt(this.deps.clock.now());
  }
}

/**
 * The daemon's environment minus its control token, plus the task's identity and the marker
 * (SVC_TASK_ID, SVC_TASK_OWNER) by which its processes are found wherever they go.
 */
function taskEnv(row: TaskRow, marker: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, SVC_AGENT_ID: row.agent_id, ...marker };
  delete env.SVC_TOKEN;
  return env;
}

function targetOf(row: TaskRow): TaskTarget {
  return { taskId: row.task_id, pgid: row.pgid, procStart: row.proc_start, bootId: row.proc_boot };
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function oneLine(cmd: string): string {
  const line = cmd.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}

/** Whether `p` settles within `ms`. */
async function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([p.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function taskSpanAttrs(row: TaskRow) {
  // Never the command line (it may carry secrets): ids and kind only.
  return { 'svc.agent_id': row.agent_id, 'svc.task_id': row.task_id, 'svc.task.kind': row.kind };
}

function taskSpanStatus(status: TaskStatus): SpanStatus {
  return status === 'completed' ? 'ok' : status === 'cancelled' || status === 'interrupted' ? 'cancelled' : 'error';
}

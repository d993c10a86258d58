/**
 * The task rows and their one write path, shared by every kind of task (command-tasks.ts
 * runs processes, child-tasks.ts supervises child agents).
 *
 * Every status change commits together with its `task_status_changed` event; a change to a
 * terminal status also enqueues the `task_result` message (origin `task`, trusted_system) in that
 * same transaction, and wakes the callers blocked on the task's output once it commits. The body
 * of the result message is the kind's own (`describe`).
 */
import type Database from 'better-sqlite3';
import { isoAt, type FailureArtifact, deriveProvenance } from '../../core/index.js';
import type { RuntimeDeps } from '../deps.js';
import { isTerminal, type TaskKind, type TaskRow, type TaskStatus } from './task-records.js';

export interface Transition {
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
  child_agent_id?: string | null;
  sandboxed?: number | null;
  /** Extra fields for the task_status_changed event. */
  event?: Record<string, unknown>;
}

/** What a kind puts in its task_result message, besides the common fields. */
export type ResultDescriber = (row: TaskRow) => Record<string, unknown>;

/** The row fields a new task is inserted with (the rest start empty). */
export type NewTask = Pick<TaskRow, 'task_id' | 'agent_id' | 'kind' | 'summary' | 'parent_message_id'> &
  Partial<Pick<TaskRow, 'status' | 'cmd' | 'cmd_digest' | 'shell' | 'login' | 'accepts_input' | 'tty' | 'tty_cols' | 'tty_rows' | 'workdir' | 'output_path' | 'child_agent_id' | 'taint' | 'network' | 'sandbox_root'>>;

export class TaskLedger {
  readonly stmt;
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly describers = new Map<TaskKind, ResultDescriber>();

  constructor(private readonly deps: RuntimeDeps) {
    const db: Database.Database = deps.store.db;
    this.stmt = {
      insert: db.prepare(
        `INSERT INTO tasks (task_id, agent_id, kind, status, summary, cmd, cmd_digest, shell, login, accepts_input, tty, tty_cols, tty_rows,
           workdir, output_path, parent_message_id, child_agent_id, taint, network, sandbox_root, created_at, updated_at)
         VALUES (@task_id, @agent_id, @kind, @status, @summary, @cmd, @cmd_digest, @shell, @login, @accepts_input, @tty, @tty_cols, @tty_rows,
           @workdir, @output_path, @parent_message_id, @child_agent_id, @taint, @network, @sandbox_root, @now, @now)`,
      ),
      get: db.prepare('SELECT * FROM tasks WHERE task_id = ?'),
      update: db.prepare(
        `UPDATE tasks SET status = @status, exit_status = @exit_status, term_signal = @term_signal, result_summary = @result_summary,
           failure = @failure, pid = @pid, pgid = @pgid, proc_start = @proc_start, proc_boot = @proc_boot, stop_requests = @stop_requests,
           child_agent_id = @child_agent_id, sandboxed = @sandboxed, started_at = @started_at, finished_at = @finished_at, updated_at = @updated_at
         WHERE task_id = @task_id`,
      ),
      nextQueued: db.prepare("SELECT * FROM tasks WHERE agent_id = ? AND kind = 'command' AND status = 'queued' ORDER BY seq LIMIT 1"),
      activeAll: db.prepare("SELECT * FROM tasks WHERE status IN ('queued', 'running', 'cancelling') ORDER BY seq"),
      activeOf: db.prepare("SELECT * FROM tasks WHERE agent_id = ? AND status IN ('queued', 'running', 'cancelling') ORDER BY seq DESC LIMIT ?"),
      recentOf: db.prepare(
        "SELECT * FROM tasks WHERE agent_id = ? AND status NOT IN ('queued', 'running', 'cancelling') ORDER BY seq DESC LIMIT ?",
      ),
      purge: db.prepare('DELETE FROM tasks WHERE agent_id = ?'),
      everStarted: db.prepare('SELECT 1 FROM tasks WHERE pid IS NOT NULL LIMIT 1'),
    };
  }

  /** Register what a kind's task_result message carries. */
  describe(kind: TaskKind, fn: ResultDescriber): void {
    this.describers.set(kind, fn);
  }

  find(taskId: string): TaskRow | null {
    return (this.stmt.get.get(taskId) as TaskRow | undefined) ?? null;
  }

  /** Insert a new task and its `task_create_requested` event. Inside a transaction. */
  insert(t: NewTask, event: Record<string, unknown>): TaskRow {
    this.stmt.insert.run({
      status: 'queued',
      cmd: null,
      cmd_digest: null,
      shell: null,
      login: 0,
      accepts_input: 0,
      tty: 0,
      tty_cols: null,
      tty_rows: null,
      workdir: null,
      output_path: null,
      child_agent_id: null,
      taint: null,
      network: 0,
      sandbox_root: null,
      ...t,
      now: this.now(),
    });
    const row = this.find(t.task_id)!;
    this.deps.events.append(t.agent_id, 'task_create_requested', {
      task_id: t.task_id,
      kind: t.kind,
      status: row.status,
      summary: t.summary,
      parent_message_id: t.parent_message_id,
      ...event,
    });
    return row;
  }

  /**
   * Write a status change, its task_status_changed event and, for a terminal status, the
   * task_result message. Inside a transaction.
   */
  transition(row: TaskRow, to: TaskStatus, t: Transition): TaskRow {
    const now = this.now();
    const terminal = isTerminal(to);
    const pick = <K extends keyof Transition & keyof TaskRow>(k: K) => (t[k] !== undefined ? (t[k] as TaskRow[K]) : row[k]);
    const next: TaskRow = {
      ...row,
      status: to,
      exit_status: pick('exit_status'),
      term_signal: pick('term_signal'),
      result_summary: pick('result_summary'),
      failure: t.failure !== undefined ? (t.failure ? JSON.stringify(t.failure) : null) : row.failure,
      pid: pick('pid'),
      pgid: pick('pgid'),
      proc_start: pick('proc_start'),
      proc_boot: pick('proc_boot'),
      started_at: pick('started_at'),
      child_agent_id: pick('child_agent_id'),
      sandboxed: pick('sandboxed'),
      stop_requests: t.stop_requests ?? row.stop_requests,
      finished_at: terminal ? now : null,
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
      summary: row.summary,
      result_summary: next.result_summary,
      ...(next.child_agent_id ? { child_agent_id: next.child_agent_id } : {}),
      ...t.event,
    });
    if (terminal) {
      this.enqueueResult(next);
      this.deps.store.afterCommit(() => this.notify(row.task_id));
    }
    return next;
  }

  /** Record a change that is not a status change (a stop request, a force stop) with its event. */
  touch(row: TaskRow, patch: Partial<Pick<TaskRow, 'stop_requests'>>, event: string, payload: Record<string, unknown>): TaskRow {
    const next = { ...row, ...patch, updated_at: this.now() };
    this.stmt.update.run(next);
    this.deps.events.append(row.agent_id, event, { task_id: row.task_id, kind: row.kind, status: row.status, ...payload });
    return next;
  }

  /** Resolves when the task reaches a terminal status, after `ms`, or on abort (never rejects). */
  waitTerminal(taskId: string, ms: number, signal?: AbortSignal): Promise<void> {
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

  notify(taskId: string): void {
    const set = this.waiters.get(taskId);
    if (!set) return;
    for (const done of [...set]) done();
  }

  /** End every pending blocking output read now (shutdown): each answers with the current state. */
  releaseWaiters(): void {
    for (const taskId of [...this.waiters.keys()]) this.notify(taskId);
  }

  /**
   * Enqueue the task_result message; null when the agent cannot take it (it is being deleted).
   * The queue cap never refuses it (a runtime-owned message), so a result is not lost to a full queue.
   */
  private enqueueResult(row: TaskRow): string | null {
    const agent = this.deps.agents.find(row.agent_id);
    if (!agent || agent.status === 'deleting') return null;
    const provenance = deriveProvenance('task', { kind: 'task', task_id: row.task_id }, { kind: 'task_result', taint: row.taint });
    const value = {
      task_id: row.task_id,
      kind: row.kind,
      status: row.status,
      exit_status: row.exit_status,
      summary: row.summary,
      result_summary: row.result_summary,
      failure_artifact: row.failure ? JSON.parse(row.failure) : null,
      ...this.describers.get(row.kind)?.(row),
    };
    try {
      // A savepoint: a refusal (agent deleting) undoes only the message.
      return this.deps.store.tx(
        () =>
          this.deps.ingress.enqueueNow(row.agent_id, provenance, { type: 'json', value }, { metadata: { task_id: row.task_id }, correlation_id: row.task_id })
            .message_id,
      );
    } catch (err) {
      this.deps.logger.warn({ err, task_id: row.task_id, agent_id: row.agent_id }, 'task_result not enqueued');
      return null;
    }
  }

  now(): string {
    return isoAt(this.deps.clock.now());
  }
}

/**
 * Command tasks as real child processes (docs/control-plane-api.md#command-tasks): the process
 * supervision behind TaskService (tasks.ts); the rows and their events are task-ledger.ts's.
 *
 * A task is a row in `tasks` and, while it runs, a child process: `<shell> -c <cmd>` (`-lc` when
 * `login`) started as the leader of its own process group, its combined stdout+stderr appended to
 * `<agent home>/tasks/<task_id>.log`. With `tty: true` the command runs in a pseudo-terminal
 * instead (processes/task-pty.ts): the same leader, group and session, the terminal's output in the
 * same file, input to the terminal.
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
 * forks): processes/task-reaper.ts finds them by a marker in their environment and by the recorded
 * session. They get the signals the group gets (stop, force stop, shutdown), and when the leader
 * exits, at shutdown and at the recovery after a crash, whatever is left of them gets SIGTERM,
 * then SIGKILL after a grace: nothing a task started outlives the task, nor the daemon. With the
 * command sandbox on (processes/sandbox.ts) the command runs under bubblewrap in its own pid namespace.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { errors, settlesWithin, type FailureArtifact } from '../../core/index.js';
import type { Span, SpanStatus } from '../../telemetry/index.js';
import type { RuntimeDeps } from '../deps.js';
import type { TaskLedger } from './task-ledger.js';
import {
  killLeftoverGroup,
  readTail,
  resolveExecutable,
  Sandbox,
  SandboxUnavailableError,
  signalGroup,
  spawnCommand,
  spawnPty,
  taskEnvironment,
  terminalOptions,
  TaskReaper,
  workdirRefusal,
  type Spawned,
  type TaskTarget,
  type Wrapper,
} from './processes/index.js';
import {
  DEFAULT_SHELL,
  failure,
  inputTarget,
  isCommand,
  oneLine,
  isTerminal,
  type CommandRow,
  type CreateTaskInput,
  type TaskRow,
  type TaskStatus,
} from './task-records.js';
import type { WorkspaceService } from '../workspaces/index.js';

/** Grace between SIGTERM and SIGKILL when the daemon (or an agent deletion) ends tasks. */
const KILL_GRACE_MS = 1000;

export interface CommandTaskDeps extends RuntimeDeps {
  workspaces: WorkspaceService;
  ledger: TaskLedger;
  /** Where bwrap is (tests: a missing path); default: `bwrap` on PATH. */
  bwrap?: string | undefined;
}

/** A running child process of a task. */
interface Live {
  taskId: string;
  agentId: string;
  proc: Spawned;
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

/** The outcome of an input or stop request; TaskService adds the snapshot. */
export interface InputOutcome {
  accepted_input: boolean;
  bytes_written: number | null;
  input_target: string | null;
  summary_text: string;
}

export interface StopOutcome {
  row: TaskRow;
  force_stop_requested: boolean;
  signal_sent: NodeJS.Signals | null;
  summary_text: string;
}

export class CommandTasks {
  private readonly live = new Map<string, Live>();
  private readonly liveByAgent = new Map<string, Set<string>>();
  private stopping = false;
  private readonly reaper: TaskReaper;
  private readonly ledger: TaskLedger;
  /** The command sandbox (processes/sandbox.ts), detected once. */
  readonly sandbox: Sandbox;

  constructor(private readonly deps: CommandTaskDeps) {
    this.ledger = deps.ledger;
    this.sandbox = new Sandbox(deps.config.values.tasks.sandbox, deps.bwrap);
    this.reaper = new TaskReaper(TaskReaper.ownerOf(deps.config.home), { graceMs: KILL_GRACE_MS, logger: deps.logger });
    deps.ledger.describe('command', (row) => {
      const preview = row.output_path ? readTail(row.output_path, deps.config.values.tasks.output_preview_bytes) : { text: '', truncated: false };
      return { cmd: row.cmd, output_preview: preview.text, output_truncated: preview.truncated, output_path: row.output_path };
    });
  }

  /** Number of task processes alive right now (all agents). */
  get runningCount(): number {
    return this.live.size;
  }

  /** The command task whose process holds socket `inode`, or null (no process of a live task does). */
  socketHolder(inode: number): Promise<string | null> | null {
    return this.live.size === 0 ? null : this.reaper.socketHolder(inode, [...this.live.values()].map((l) => l.target));
  }

  get isStopping(): boolean {
    return this.stopping;
  }

  create(agentId: string, input: CreateTaskInput): TaskRow {
    const term = terminalOptions(input);
    const shell = input.shell?.trim() || DEFAULT_SHELL;
    if (!resolveExecutable(shell)) throw errors.shellNotFound(shell);
    const base = this.deps.workspaces.activePath(agentId);
    const workdir = input.workdir ? path.resolve(base, input.workdir) : base;
    if (!isDirectory(workdir)) throw errors.workdirNotFound(workdir);
    const refusal = this.sandbox.status().active ? workdirRefusal(this.deps.config.home, base, workdir) : null;
    if (refusal) throw errors.workdirNotAllowed(workdir, refusal);

    const taskId = this.deps.ids.make('task');
    const outputPath = path.join(this.deps.agents.homeOf(agentId), 'tasks', `${taskId}.log`);
    fs.mkdirSync(path.dirname(outputPath), { recursive: true });
    fs.writeFileSync(outputPath, '', { flag: 'a', mode: 0o600 });
    const summary = input.summary?.trim() || oneLine(input.cmd);
    const login = input.login === true;
    const acceptsInput = term.acceptsInput;
    const digest = createHash('sha256').update(input.cmd).digest('hex');
    const network = input.network === true;

    const row = this.deps.store.tx(() => {
      this.deps.agents.assertWritable(agentId);
      return this.ledger.insert(
        {
          task_id: taskId,
          agent_id: agentId,
          kind: 'command',
          summary,
          parent_message_id: input.parent_message_id ?? null,
          taint: input.taint ?? null,
          cmd: input.cmd,
          cmd_digest: digest,
          shell,
          login: login ? 1 : 0,
          accepts_input: acceptsInput ? 1 : 0,
          tty: term.tty ? 1 : 0,
          tty_cols: term.cols,
          tty_rows: term.rows,
          workdir,
          output_path: outputPath,
          network: network ? 1 : 0,
          sandbox_root: base,
        },
        {
          cmd: input.cmd,
          cmd_digest: digest,
          shell,
          login,
          accepts_input: acceptsInput,
          tty: term.tty,
          ...(term.tty ? { terminal_size: { cols: term.cols, rows: term.rows } } : {}),
          workdir,
          output_path: outputPath,
          network,
          authority_class: input.authority_class ?? null,
        },
      );
    });
    this.pump(agentId);
    return this.ledger.find(row.task_id) ?? row;
  }

  /** Output of a command task: the tail of its output file. */
  output(row: CommandRow) {
    const tail = readTail(row.output_path, this.deps.config.values.tasks.output_preview_bytes);
    return {
      output_preview: tail.text,
      output_truncated: tail.truncated,
      output_bytes: tail.bytes,
      artifacts: [{ path: row.output_path }],
    };
  }

  input(row: CommandRow, body: { text: string; eof?: boolean | null | undefined; authority_class?: string | null | undefined }): InputOutcome {
    const taskId = row.task_id;
    const target = inputTarget(row);
    const refuse = (summaryText: string): InputOutcome => ({ accepted_input: false, bytes_written: null, input_target: target, summary_text: summaryText });
    if (!target) return refuse(`task ${taskId} was created without accepts_input: it has no stdin, input not delivered`);
    const sink = this.live.get(taskId)?.proc.input;
    if (row.status !== 'running' || !sink?.open) {
      return refuse(`task ${taskId} is ${row.status}, not running: input not delivered`);
    }
    const buf = Buffer.from(body.text, 'utf8');
    sink.write(buf, body.eof === true);
    this.deps.store.tx(() =>
      this.deps.events.append(row.agent_id, 'task_input_delivered', {
        task_id: taskId,
        kind: row.kind,
        input_target: target,
        bytes_written: buf.length,
        eof: body.eof === true,
        authority_class: body.authority_class ?? null,
      }),
    );
    const end = target === 'tty' ? ' and sent the EOF character (Ctrl-D)' : ' and closed it';
    const where = target === 'tty' ? 'terminal' : 'stdin';
    return {
      accepted_input: true,
      bytes_written: buf.length,
      input_target: target,
      summary_text: `wrote ${buf.length} bytes to the ${where} of task ${taskId}${body.eof ? end : ''}`,
    };
  }

  /** Stop an active command task: cancel a queued one, SIGTERM a running one, SIGKILL on a repeat. */
  requestStop(row: CommandRow, authorityClass: string | null): StopOutcome {
    const taskId = row.task_id;
    const live = this.live.get(taskId);
    if (row.status === 'queued' || !live) {
      const done = this.deps.store.tx(() =>
        this.ledger.transition(row, 'cancelled', {
          result_summary: row.status === 'queued' ? 'cancelled before it started' : 'cancelled (no process was running)',
          failure: failure(row, 'task', 'cancelled', 'stopped on request before the command ran', null),
          event: { authority_class: authorityClass },
        }),
      );
      return { row: done, force_stop_requested: false, signal_sent: null, summary_text: `task ${taskId} cancelled` };
    }
    if (row.status === 'running') {
      const next = this.deps.store.tx(() =>
        this.ledger.transition(row, 'cancelling', { stop_requests: row.stop_requests + 1, event: { signal: 'SIGTERM', authority_class: authorityClass } }),
      );
      signalGroup(live.pgid, 'SIGTERM');
      signalGroup(live.pgid, 'SIGCONT');
      void this.reaper.signal([live.target], 'SIGTERM');
      return { row: next, force_stop_requested: false, signal_sent: 'SIGTERM', summary_text: `sent SIGTERM to the process group of task ${taskId}` };
    }
    // cancelling: a repeated stop forces.
    const next = this.deps.store.tx(() =>
      this.ledger.touch(row, { stop_requests: row.stop_requests + 1 }, 'task_force_stop_requested', {
        signal: 'SIGKILL',
        pgid: live.pgid,
        authority_class: authorityClass,
      }),
    );
    signalGroup(live.pgid, 'SIGKILL');
    void this.reaper.signal([live.target], 'SIGKILL');
    return { row: next, force_stop_requested: true, signal_sent: 'SIGKILL', summary_text: `sent SIGKILL to the process group of task ${taskId}` };
  }

  // --- lifecycle -------------------------------------------------------------------------------

  /**
   * Recovery at start: command tasks recorded as active belong to a daemon that died. Their
   * leftover process groups are killed (when still theirs) and they become `interrupted`. Then, in
   * the background, their processes outside the group, and any other process still carrying this
   * home's task marker (a task that ended while its escapees were being swept), are ended. A home
   * where no task ever started has nothing to look for.
   */
  start(): void {
    const sandbox = this.sandbox.status();
    if (sandbox.reason) this.deps.logger.warn({ mode: sandbox.mode, bwrap: sandbox.bwrap }, `command sandbox: ${sandbox.reason}`);
    const rows = (this.ledger.stmt.activeAll.all() as TaskRow[]).filter(isCommand);
    const started = rows.filter((row) => row.pgid !== null && row.status !== 'queued');
    for (const row of started) killLeftoverGroup(row.pgid!, row.proc_start);
    if (this.ledger.stmt.everStarted.get()) void this.reaper.endAll(started.map(targetOf), { afterRestart: true });
    if (rows.length === 0) return;
    this.deps.store.tx(() => {
      for (const row of rows) {
        const before = row.status === 'queued';
        const text = before ? 'interrupted: the daemon stopped before the task started' : 'interrupted: the daemon stopped while the task was running';
        this.ledger.transition(row, 'interrupted', {
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
    await this.endLive([...this.live.values()], 'interrupted', 'interrupted: the daemon shut down');
    const leftovers = (this.ledger.stmt.activeAll.all() as TaskRow[]).filter(isCommand);
    if (leftovers.length > 0) {
      this.deps.store.tx(() => {
        for (const row of leftovers) {
          const text = row.status === 'queued' ? 'interrupted: the daemon shut down before the task started' : 'interrupted: the daemon shut down';
          this.ledger.transition(row, 'interrupted', { result_summary: text, failure: failure(row, 'runtime', 'daemon_shutdown', text, null), event: { reason: 'daemon_shutdown' } });
        }
      });
    }
    // Sweeps of what the tasks left outside their groups, one more for this home's marker; then exit.
    if (this.ledger.stmt.everStarted.get()) await this.reaper.endAll(leftovers.filter((row) => row.pgid !== null).map(targetOf));
    await this.reaper.idle();
  }

  /** The agent is being deleted: end its processes (their rows are purged by TaskService). */
  async stopAgent(agentId: string): Promise<void> {
    const ids = [...(this.liveByAgent.get(agentId) ?? [])];
    await this.endLive(ids.map((id) => this.live.get(id)!).filter(Boolean), 'cancelled', 'cancelled: the agent is being deleted');
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
    if (await settlesWithin(all, KILL_GRACE_MS)) return;
    const stuck = lives.filter((l) => this.live.has(l.taskId));
    for (const l of stuck) signalGroup(l.pgid, 'SIGKILL');
    void this.reaper.signal(stuck.map((l) => l.target), 'SIGKILL');
    if (await settlesWithin(all, KILL_GRACE_MS)) return;
    // Still not reaped (uninterruptible sleep): record the end anyway; the exit, if it ever comes, is ignored.
    this.deps.store.tx(() => {
      for (const l of lives) {
        const row = this.ledger.find(l.taskId);
        if (row && !isTerminal(row.status)) {
          this.ledger.transition(row, endAs, { result_summary: reason, failure: failure(row, 'runtime', 'kill_timeout', `${reason}; the process did not exit after SIGKILL`, null) });
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
      const row = this.ledger.stmt.nextQueued.get(agentId) as CommandRow | undefined;
      if (!row) return;
      this.launch(row);
    }
  }

  private launch(row: CommandRow): void {
    let spawned: Spawned;
    let wrapper: Wrapper | null;
    try {
      const { home, socketPath, values } = this.deps.config;
      wrapper = this.sandbox.wrap({ home, root: row.sandbox_root ?? row.workdir, workdir: row.workdir, network: row.network === 1, tty: row.tty === 1, masks: [socketPath] });
      const marker = this.reaper.env(row.task_id);
      const secretNames = Object.values(values.providers).map((p) => p.api_key_env);
      const env = taskEnvironment(process.env, { agentId: row.agent_id, marker, sandboxed: wrapper !== null, secretNames });
      const spec = { shell: row.shell, login: row.login === 1, cmd: row.cmd, workdir: row.workdir, outputPath: row.output_path, env, wrapper };
      spawned = row.tty === 1
        ? spawnPty({ ...spec, marker, cols: row.tty_cols!, rows: row.tty_rows! })
        : spawnCommand({ ...spec, acceptsInput: row.accepts_input === 1 });
    } catch (err) {
      const text = `could not start the command: ${(err as Error).message}`;
      const kind = err instanceof SandboxUnavailableError ? 'sandbox_unavailable' : 'spawn_failed';
      this.deps.tracer?.startSpan('task.run', taskSpanAttrs(row), null).end('error', text);
      this.deps.store.tx(() =>
        this.ledger.transition(row, 'failed', { result_summary: text, failure: failure(row, 'runtime', kind, text, null) }),
      );
      return;
    }
    const { pid, pgid, procStart } = spawned;
    const procBoot = procStart === null ? null : this.reaper.currentBoot;
    let markExited!: () => void;
    const span = this.deps.tracer?.startSpan('task.run', taskSpanAttrs(row), null);
    const target: TaskTarget = { taskId: row.task_id, pgid, procStart, bootId: procBoot };
    const live: Live = { taskId: row.task_id, agentId: row.agent_id, proc: spawned, pgid, target, exited: new Promise<void>((r) => (markExited = r)), span };
    this.live.set(row.task_id, live);
    let set = this.liveByAgent.get(row.agent_id);
    if (!set) this.liveByAgent.set(row.agent_id, (set = new Set()));
    set.add(row.task_id);
    spawned.onExit((code, signal) => {
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
      this.ledger.transition(row, 'running', { pid, pgid, proc_start: procStart, proc_boot: procBoot, sandboxed: wrapper ? 1 : 0, started_at: this.ledger.now(), event: { pid, pgid, sandboxed: wrapper !== null } }),
    );
  }

  private onExit(live: Live, code: number | null, signal: NodeJS.Signals | null): void {
    this.live.delete(live.taskId);
    const set = this.liveByAgent.get(live.agentId);
    set?.delete(live.taskId);
    if (set && set.size === 0) this.liveByAgent.delete(live.agentId);
    live.proc.input?.close();
    // The leader is gone: whatever it left in its group goes with it, and what it started
    // outside the group is ended (SIGTERM, then SIGKILL after the grace).
    signalGroup(live.pgid, 'SIGKILL');
    void this.reaper.end([live.target]);
    const row = this.ledger.find(live.taskId);
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
      this.ledger.transition(row, status, { exit_status: signal ? null : code, term_signal: signal, result_summary: result, failure: fail }),
    );
    live.span?.setAttributes({ 'svc.task.status': status, 'svc.task.exit_status': signal ? null : code });
    live.span?.end(taskSpanStatus(status), status === 'failed' ? result : undefined);
  }
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

function taskSpanAttrs(row: TaskRow) {
  // Never the command line (it may carry secrets): ids and kind only.
  return { 'svc.agent_id': row.agent_id, 'svc.task_id': row.task_id, 'svc.task.kind': row.kind };
}

function taskSpanStatus(status: TaskStatus): SpanStatus {
  return status === 'completed' ? 'ok' : status === 'cancelled' || status === 'interrupted' ? 'cancelled' : 'error';
}

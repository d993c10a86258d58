/**
 * Tasks (docs/control-plane-api.md#command-tasks; spec "Task status snapshot"): what the routes and
 * tools call. Two kinds behind one surface:
 * - `command`: a real child process (command-tasks.ts);
 * - `child_agent`: a supervised private child agent (child-tasks.ts).
 * The rows, their events and the `task_result` message are task-ledger.ts's.
 */
import { errors, type FailureArtifact } from '../../core/index.js';
import type { AgentDeletion } from '../agents/index.js';
import type { BriefService } from '../channels/index.js';
import { ChildTasks, type CreateChildInput } from './child-tasks.js';
import { CommandTasks, type InputOutcome, type StopOutcome } from './command-tasks.js';
import type { ResourceService, RuntimeDeps } from '../deps.js';
import type { SandboxStatus } from './processes/index.js';
import { TaskLedger } from './task-ledger.js';
import {
  DEFAULT_OUTPUT_WAIT_MS,
  MAX_OUTPUT_WAIT_MS,
  isCommand,
  isTerminal,
  snapshot,
  type CreateTaskInput,
  type OutputOptions,
  type TaskRow,
  type TaskSnapshot,
} from './task-records.js';
import type { TimerService } from '../timers/index.js';
import type { WorkItemService } from '../work-items/index.js';
import type { WorkspaceService } from '../workspaces/index.js';

const STATE_PAGE_LIMIT = 50;

export interface TaskDeps extends RuntimeDeps {
  workspaces: WorkspaceService;
  briefs: BriefService;
  deletion: AgentDeletion;
  workItems: WorkItemService;
  timers: TimerService;
  /** Where bwrap is (tests point it at a missing path); default: `bwrap` on PATH. */
  bwrap?: string | undefined;
}

/** A task as the agent's state page lists it (active tasks only). */
export interface TaskStateEntry {
  task_id: string;
  kind: string;
  status: string;
  summary: string | null;
  created_at: string;
  updated_at: string;
  child_agent_id: string | null;
}

export type CreateAnyTaskInput = CreateTaskInput | (CreateChildInput & { kind: 'child_agent' | 'child_agent_task' });

export class TaskService implements ResourceService {
  private readonly ledger: TaskLedger;
  private readonly commands: CommandTasks;
  private readonly children: ChildTasks;

  constructor(private readonly deps: TaskDeps) {
    this.ledger = new TaskLedger(deps);
    this.commands = new CommandTasks({ ...deps, ledger: this.ledger });
    this.children = new ChildTasks({ ...deps, ledger: this.ledger });
  }

  // --- reads -----------------------------------------------------------------------------------

  /** The task of this agent, or 404 (agent_not_found, then task_not_found). */
  getRow(agentId: string, taskId: string): TaskRow {
    this.deps.agents.get(agentId);
    const row = this.ledger.find(taskId);
    if (!row || row.agent_id !== agentId) throw errors.taskNotFound(taskId, { agent_id: agentId });
    return row;
  }

  get(agentId: string, taskId: string): TaskSnapshot {
    return this.view(this.getRow(agentId, taskId));
  }

  /** Active tasks and the most recent finished ones, newest first, at most `limit` of each. */
  list(agentId: string, limit = 100): TaskSnapshot[] {
    this.deps.agents.get(agentId);
    const rows = [...(this.ledger.stmt.activeOf.all(agentId, limit) as TaskRow[]), ...(this.ledger.stmt.recentOf.all(agentId, limit) as TaskRow[])];
    rows.sort((a, b) => b.seq - a.seq);
    return rows.map((r) => this.view(r));
  }

  /** The agent's entries for GET /api/agents/:id/state: active tasks, slim, bounded. */
  stateFor(agentId: string): TaskStateEntry[] {
    return (this.ledger.stmt.activeOf.all(agentId, STATE_PAGE_LIMIT) as TaskRow[]).map((r) => ({
      task_id: r.task_id,
      kind: r.kind,
      status: r.status,
      summary: r.summary,
      created_at: r.created_at,
      updated_at: r.updated_at,
      child_agent_id: r.child_agent_id,
    }));
  }

  /** The task supervising a child agent (the newest), for the agent tree. */
  supervisionOf(childId: string) {
    return this.children.supervisionOf(childId);
  }

  /** Number of task processes alive right now (all agents). */
  get runningCount(): number {
    return this.commands.runningCount;
  }

  /**
   * The command task whose process holds the client end of a connection (its socket inode), or
   * null: such a connection is not the operator's, even from the daemon's own uid (http/auth.ts).
   */
  socketHolder(inode: number): Promise<string | null> | null {
    return this.commands.socketHolder(inode);
  }

  /** Whether command tasks run in the command sandbox, and why not (docs/security.md#command-sandbox). */
  sandboxStatus(): SandboxStatus {
    return this.commands.sandbox.status();
  }

  private view(row: TaskRow): TaskSnapshot {
    return snapshot(row, row.kind === 'child_agent' ? this.children.sections(row) : null);
  }

  // --- create ----------------------------------------------------------------------------------

  /** A command task (synchronous), or use createAny for either kind. */
  create(agentId: string, input: CreateTaskInput): TaskSnapshot {
    this.deps.agents.getWritable(agentId);
    if (this.commands.isStopping) throw errors.shuttingDown();
    return this.view(this.commands.create(agentId, input));
  }

  /** Either kind, by `kind` (absent: command). A child task answers once its child is set up. */
  async createAny(agentId: string, input: CreateAnyTaskInput): Promise<TaskSnapshot> {
    if (!isChildInput(input)) return this.create(agentId, input);
    this.deps.agents.getWritable(agentId);
    if (this.commands.isStopping) throw errors.shuttingDown();
    return this.view(await this.children.create(agentId, input));
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
        await this.ledger.waitTerminal(taskId, ms, opts.signal);
        row = this.getRow(agentId, taskId);
        retrieval = isTerminal(row.status) ? 'success' : 'timeout';
      }
    }
    const body = isCommand(row) ? this.commands.output(row) : this.children.output(row);
    return {
      retrieval_status: retrieval,
      task: {
        task_id: row.task_id,
        kind: row.kind,
        status: row.status,
        ...body,
        exit_status: row.exit_status,
        result_summary: row.result_summary,
        summary: row.summary,
        failure_artifact: row.failure ? (JSON.parse(row.failure) as FailureArtifact) : null,
        output_artifact: null,
      },
    };
  }

  /** End every pending blocking output read now (shutdown): each answers with the current state. */
  releaseWaiters(): void {
    this.ledger.releaseWaiters();
  }

  // --- input and stop --------------------------------------------------------------------------

  input(agentId: string, taskId: string, body: { text: string; eof?: boolean | null | undefined; authority_class?: string | null | undefined }) {
    const row = this.getRow(agentId, taskId);
    const outcome: InputOutcome = isCommand(row) ? this.commands.input(row, body) : this.children.input(row, body);
    return { ok: true as const, task: this.view(this.ledger.find(taskId) ?? row), ...outcome };
  }

  requestStop(agentId: string, taskId: string, opts: { authority_class?: string | null | undefined } = {}) {
    const row = this.getRow(agentId, taskId);
    const authority = opts.authority_class ?? null;
    let outcome: StopOutcome;
    if (row.kind === 'child_agent') outcome = this.children.requestStop(row, authority);
    else if (isTerminal(row.status) || !isCommand(row)) outcome = { row, force_stop_requested: false, signal_sent: null, summary_text: `task ${taskId} already finished (${row.status})` };
    else outcome = this.commands.requestStop(row, authority);
    return {
      ok: true as const,
      task: this.view(outcome.row),
      force_stop_requested: outcome.force_stop_requested,
      previous_status: row.status,
      signal_sent: outcome.signal_sent,
      summary_text: outcome.summary_text,
    };
  }

  // --- lifecycle -------------------------------------------------------------------------------

  start(): void {
    this.commands.start();
    this.children.start();
  }

  async stop(): Promise<void> {
    this.releaseWaiters();
    await this.commands.stop();
    await this.children.stop();
  }

  /**
   * The agent is being deleted (called after its run loop stopped): end its processes, cancel the
   * task supervising it and remove worktrees, then forget its tasks.
   */
  async releaseAgent(agentId: string): Promise<void> {
    await this.commands.stopAgent(agentId);
    await this.children.releaseAgent(agentId);
    const rows = this.deps.store.tx(() => {
      const active = this.ledger.stmt.activeOf.all(agentId, Number.MAX_SAFE_INTEGER) as TaskRow[];
      this.ledger.stmt.purge.run(agentId);
      return active;
    });
    for (const row of rows) this.ledger.notify(row.task_id);
  }
}

function isChildInput(input: CreateAnyTaskInput): input is CreateChildInput & { kind: 'child_agent' | 'child_agent_task' } {
  return input.kind === 'child_agent' || input.kind === 'child_agent_task';
}

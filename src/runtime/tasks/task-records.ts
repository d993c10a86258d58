/**
 * The records of tasks: kinds, statuses, the stored row, the spec's TaskStatusSnapshot projection
 * and the failure artifact. No behaviour here: command-tasks.ts runs the processes,
 * child-tasks.ts supervises child agents, task-ledger.ts writes the rows.
 */
import type { FailureArtifact, TrustLevel } from '../../core/index.js';

export const TASK_STATUSES = ['queued', 'running', 'cancelling', 'completed', 'failed', 'cancelled', 'interrupted'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
const ACTIVE: ReadonlySet<TaskStatus> = new Set(['queued', 'running', 'cancelling']);
export const isTerminal = (s: TaskStatus): boolean => !ACTIVE.has(s);

/** `command`: a child process; `child_agent`: a supervised private child agent. */
export const TASK_KINDS = ['command', 'child_agent'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];

export const DEFAULT_SHELL = '/bin/sh';
/** Server cap on `timeout_ms` of a blocking output read. */
export const MAX_OUTPUT_WAIT_MS = 300_000;
/** Wait of `block=true` without `timeout_ms`. */
export const DEFAULT_OUTPUT_WAIT_MS = 30_000;

/** Terminal size of a `tty` task: the default, and the bounds of `cols`/`rows` on create. */
export const TERMINAL_SIZE = { cols: 120, rows: 40, min: 1, max: 1000 } as const;

export interface TaskRow {
  seq: number;
  task_id: string;
  agent_id: string;
  kind: TaskKind;
  status: TaskStatus;
  summary: string | null;
  /** The command columns are null for a child_agent task. */
  cmd: string | null;
  cmd_digest: string | null;
  shell: string | null;
  login: number;
  accepts_input: number;
  /** 1: the command runs in a pseudo-terminal (processes/task-pty.ts); see store/migrations/020-task-tty.ts. */
  tty: number;
  tty_cols: number | null;
  tty_rows: number | null;
  workdir: string | null;
  output_path: string | null;
  exit_status: number | null;
  term_signal: string | null;
  result_summary: string | null;
  failure: string | null;
  pid: number | null;
  pgid: number | null;
  proc_start: string | null;
  /** Boot id of the leader's start (null: unknown); see store/migrations/016-task-boot.ts. */
  proc_boot: string | null;
  stop_requests: number;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** The message whose turn created the task; null for a task an operator created. */
  parent_message_id: string | null;
  child_agent_id: string | null;
  /** The trust of the turn that created the task (null: an operator's); its messages are trusted no more. */
  taint: TrustLevel | null;
  /** 1: the command may reach the network (store/migrations/026-task-sandbox.ts). */
  network: number;
  /** The workspace root its sandbox binds writable (null for a child_agent task). */
  sandbox_root: string | null;
  /** Whether it ran in the command sandbox: null until it started. */
  sandboxed: number | null;
}

/** A command task's row: its command columns are set. */
export type CommandRow = TaskRow & { kind: 'command'; cmd: string; cmd_digest: string; shell: string; workdir: string; output_path: string };

export const isCommand = (r: TaskRow): r is CommandRow => r.kind === 'command';

export interface CommandSection {
  accepts_input: boolean;
  cmd: string;
  cmd_digest: string;
  exit_status: number | null;
  input_target: string | null;
  login: boolean;
  output_path: string;
  promoted_from_exec_command: boolean;
  result_summary: string | null;
  shell: string;
  terminal_reentry: boolean;
  tty: boolean;
  /** The terminal's size; null for a task without one. */
  terminal_size: { cols: number; rows: number } | null;
  workdir: string;
  /** It may reach the network (its sandbox has no network namespace of its own). */
  network: boolean;
  /** It ran in the command sandbox; null until it started. */
  sandboxed: boolean | null;
}

/** What a child_agent task adds to its snapshot (child-tasks.ts). */
export interface ChildSections {
  child_observability: Record<string, unknown> | null;
  child_supervision: Record<string, unknown> | null;
}

export interface TaskSnapshot {
  task_id: string;
  kind: string;
  status: TaskStatus;
  created_at: string;
  updated_at: string;
  wait_policy: 'background';
  summary: string | null;
  parent_message_id: string | null;
  child_agent_id: string | null;
  child_observability: Record<string, unknown> | null;
  child_supervision: Record<string, unknown> | null;
  command: CommandSection | null;
}

export interface CreateTaskInput {
  kind?: 'command' | undefined;
  summary?: string | null | undefined;
  cmd: string;
  workdir?: string | null | undefined;
  shell?: string | null | undefined;
  login?: boolean | null | undefined;
  accepts_input?: boolean | null | undefined;
  /** Run in a pseudo-terminal; input then always goes to the terminal. */
  tty?: boolean | null | undefined;
  cols?: number | null | undefined;
  rows?: number | null | undefined;
  authority_class?: string | null | undefined;
  /** Reach the network from the sandbox (default false: a network namespace of its own, loopback only). */
  network?: boolean | null | undefined;
  /** Set when a model's tool call creates the task: the message its turn answers. */
  parent_message_id?: string | null | undefined;
  /** Set when a model's tool call creates the task: the trust of its turn. */
  taint?: TrustLevel | null | undefined;
}

export interface OutputOptions {
  block?: boolean | undefined;
  timeoutMs?: number | undefined;
  /** Aborted when the caller goes away: the wait ends early. */
  signal?: AbortSignal | undefined;
}

export function snapshot(r: TaskRow, child: ChildSections | null = null): TaskSnapshot {
  return {
    task_id: r.task_id,
    kind: r.kind,
    status: r.status,
    created_at: r.created_at,
    updated_at: r.updated_at,
    wait_policy: 'background',
    summary: r.summary,
    parent_message_id: r.parent_message_id,
    child_agent_id: r.child_agent_id,
    child_observability: child?.child_observability ?? null,
    child_supervision: child?.child_supervision ?? null,
    command: isCommand(r) ? commandSection(r) : null,
  };
}

/** Where input to a command task goes: its terminal, its stdin pipe, or nowhere. */
export function inputTarget(r: TaskRow): 'tty' | 'stdin' | null {
  return r.tty === 1 ? 'tty' : r.accepts_input === 1 ? 'stdin' : null;
}

function commandSection(r: CommandRow): CommandSection {
  const tty = r.tty === 1;
  return {
    accepts_input: r.accepts_input === 1,
    cmd: r.cmd,
    cmd_digest: r.cmd_digest,
    exit_status: r.exit_status,
    input_target: inputTarget(r),
    login: r.login === 1,
    output_path: r.output_path,
    promoted_from_exec_command: false,
    result_summary: r.result_summary,
    shell: r.shell,
    // A running terminal can be re-attached: its output file is the screen, task input the keyboard.
    terminal_reentry: tty && r.status === 'running',
    tty,
    terminal_size: tty ? { cols: r.tty_cols ?? TERMINAL_SIZE.cols, rows: r.tty_rows ?? TERMINAL_SIZE.rows } : null,
    workdir: r.workdir,
    network: r.network === 1,
    sandboxed: r.sandboxed === null ? null : r.sandboxed === 1,
  };
}

export function failure(
  row: TaskRow,
  category: FailureArtifact['category'],
  kind: string,
  summary: string,
  exitStatus: number | null,
  signal?: string | null,
): FailureArtifact {
  return {
    category,
    kind,
    summary,
    exit_status: exitStatus,
    task_id: row.task_id,
    metadata: signal ? { signal } : {},
  };
}

/** A one-line summary of a command line or an instruction, at most 120 characters. */
export function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}

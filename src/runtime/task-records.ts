/**
 * The records of command tasks: statuses, the stored row, the spec's TaskStatusSnapshot projection
 * and the failure artifact. No behaviour here; src/runtime/tasks.ts runs the processes.
 */
import type { FailureArtifact } from '../core/failure.js';

export const TASK_STATUSES = ['queued', 'running', 'cancelling', 'completed', 'failed', 'cancelled', 'interrupted'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
const ACTIVE: ReadonlySet<TaskStatus> = new Set(['queued', 'running', 'cancelling']);
export const isTerminal = (s: TaskStatus): boolean => !ACTIVE.has(s);

export const DEFAULT_SHELL = '/bin/sh';
/** Server cap on `timeout_ms` of a blocking output read. */
export const MAX_OUTPUT_WAIT_MS = 300_000;
/** Wait of `block=true` without `timeout_ms`. */
export const DEFAULT_OUTPUT_WAIT_MS = 30_000;

export interface TaskRow {
  seq: number;
  task_id: string;
  agent_id: string;
  kind: string;
  status: TaskStatus;
  summary: string | null;
  cmd: string;
  cmd_digest: string;
  shell: string;
  login: number;
  accepts_input: number;
  workdir: string;
  output_path: string;
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
}

export interface TaskSnapshot {
  task_id: string;
  kind: string;
  status: TaskStatus;
  created_at: string;
  updated_at: string;
  wait_policy: 'background';
  summary: string | null;
  parent_message_id: null;
  child_agent_id: null;
  child_observability: null;
  child_supervision: null;
  command: {
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
    workdir: string;
  };
}

export interface CreateTaskInput {
  summary?: string | null | undefined;
  cmd: string;
  workdir?: string | null | undefined;
  shell?: string | null | undefined;
  login?: boolean | null | undefined;
  accepts_input?: boolean | null | undefined;
  authority_class?: string | null | undefined;
}

export interface OutputOptions {
  block?: boolean | undefined;
  timeoutMs?: number | undefined;
  /** Aborted when the caller goes away: the wait ends early. */
  signal?: AbortSignal | undefined;
}

export function snapshot(r: TaskRow): TaskSnapshot {
  return {
    task_id: r.task_id,
    kind: r.kind,
    status: r.status,
    created_at: r.created_at,
    updated_at: r.updated_at,
    wait_policy: 'background',
    summary: r.summary,
    parent_message_id: null,
    child_agent_id: null,
    child_observability: null,
    child_supervision: null,
    command: {
      accepts_input: r.accepts_input === 1,
      cmd: r.cmd,
      cmd_digest: r.cmd_digest,
      exit_status: r.exit_status,
      input_target: r.accepts_input === 1 ? 'stdin' : null,
      login: r.login === 1,
      output_path: r.output_path,
      promoted_from_exec_command: false,
      result_summary: r.result_summary,
      shell: r.shell,
      terminal_reentry: false,
      tty: false,
      workdir: r.workdir,
    },
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

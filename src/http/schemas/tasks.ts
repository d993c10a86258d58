/**
 * Command task request and response shapes (spec "Task status snapshot", TaskInputResult,
 * TaskOutputResult; docs/control-plane-api.md#command-tasks).
 */
import { z } from 'zod';
import { SANDBOX_MODES } from '../../config/index.js';
import { CLEANUP_POLICIES, WORKSPACE_MODES, MAX_OUTPUT_WAIT_MS, TASK_STATUSES, TERMINAL_SIZE } from '../../runtime/tasks/index.js';
import { AuthorityClass, FailureArtifact, QueryBool, QueryInt } from './common.js';

const text = (what: string, max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !s.includes('\0'), `${what} must not contain NUL bytes`);

function terminalDimension(what: string, dflt: number) {
  return z
    .number()
    .int()
    .min(TERMINAL_SIZE.min)
    .max(TERMINAL_SIZE.max)
    .nullable()
    .optional()
    .openapi({ description: `terminal ${what} of a tty task (default ${dflt}); only with tty: true, else 400 invalid_request` });
}

export const TaskParams = z.object({
  id: z.string().min(1).openapi({ example: 'main' }),
  task_id: z.string().min(1).openapi({ example: 'task_01J9ZQ4B7R8F3W2X5Y6Z7A8B9C' }),
});

export const CreateCommandTaskBody = z
  .looseObject({
    kind: z.literal('command').optional().openapi({ description: 'absent or `command`: a command task' }),
    summary: z.string().max(4096).nullable().optional().openapi({ description: 'what the task is for; defaults to the command line' }),
    cmd: text('cmd', 262_144).min(1).openapi({ description: 'run as `<shell> -c <cmd>`', example: 'echo hello' }),
    workdir: text('workdir', 4096).nullable().optional().openapi({
      description: "working directory (relative paths resolve against the agent's active workspace, the default); must exist, else 400 workdir_not_found",
    }),
    shell: text('shell', 4096).nullable().optional().openapi({ description: 'shell path or name on PATH; default /bin/sh; else 400 shell_not_found' }),
    login: z.boolean().nullable().optional().openapi({ description: 'run `<shell> -lc <cmd>` (a login shell)' }),
    accepts_input: z.boolean().nullable().optional().openapi({
      description: 'give the command a stdin pipe that POST …/input writes to; a tty task always accepts input (false with tty: true is 400 invalid_request)',
    }),
    tty: z.boolean().nullable().optional().openapi({
      description:
        'run the command in a pseudo-terminal: it is the session leader with the terminal as its controlling tty and stdin/stdout/stderr; ' +
        'everything the terminal shows (escape sequences and the echo of input included) is appended to command.output_path; POST …/input types into it',
    }),
    cols: terminalDimension('columns', TERMINAL_SIZE.cols),
    rows: terminalDimension('rows', TERMINAL_SIZE.rows),
    network: z.boolean().nullable().optional().openapi({
      description:
        'let the command reach the network (default true for this operator route): in the command sandbox it then shares the host network, loopback and this daemon\'s port included; false gives it a network namespace of its own',
    }),
    authority_class: AuthorityClass,
  })
  .openapi('CreateCommandTaskRequest');

/** Whether command tasks run in the command sandbox (docs/security.md#command-sandbox). */
export const SandboxState = z
  .object({
    mode: z.enum(SANDBOX_MODES).openapi({ description: '[tasks] sandbox' }),
    sandboxed: z.boolean().openapi({ description: 'commands run under bubblewrap' }),
    bubblewrap: z.string().nullable().openapi({ description: 'the version of bwrap found, if any' }),
    reason: z.string().nullable().openapi({ description: 'why commands run unsandboxed (auto) or fail (required); null when sandboxed or off' }),
  })
  .openapi('SandboxState');

export const CreateChildTaskBody = z
  .looseObject({
    kind: z.enum(['child_agent', 'child_agent_task']).openapi({ description: '`child_agent` (or the seed\'s name `child_agent_task`): a supervised private child agent' }),
    initial_message: text('initial_message', 262_144).min(1).openapi({
      description: "the delegated instruction, the child's first message (kind internal_followup, origin task)",
      example: 'Add a --verbose flag to the CLI and answer with the files you changed',
    }),
    summary: z.string().max(4096).nullable().optional().openapi({ description: 'what the task is for; defaults to the first line of initial_message' }),
    workspace_mode: z.enum(WORKSPACE_MODES).nullable().optional().openapi({
      description: "`inherit` (default): the child works in the parent's active workspace; `worktree`: in a new `git worktree` of it on branch `svc/<task_id>` (400 worktree_unavailable outside a repository with a commit)",
    }),
    worktree_cleanup: z.enum(CLEANUP_POLICIES).nullable().optional().openapi({
      description: 'when the task finishes: `auto` (default) removes a worktree without changes and retains a changed one for review; `retain` keeps it; `remove` removes it. Stop and deletion of the child always remove it.',
    }),
    child_agent_id: z.string().max(64).nullable().optional().openapi({ description: 'id of the child agent (default `child_<ulid>`); 409 child_agent_exists if taken' }),
    display_name: z.string().max(256).nullable().optional(),
    template: z.string().max(256).nullable().optional().openapi({ description: 'template of the child agent' }),
    objective: z.string().max(4096).nullable().optional().openapi({ description: 'creates a work item with this objective for the child and picks it' }),
    parent_work_item_id: z.string().max(128).nullable().optional().openapi({ description: "the parent's work item this delegation serves (404 if unknown)" }),
    delegation_id: z.string().max(128).nullable().optional().openapi({ description: 'caller-chosen id grouping delegations (default `dlg_<ulid>`)' }),
    authority_class: AuthorityClass,
  })
  .openapi('CreateChildAgentTaskRequest');

/** Validates by `kind` (absent: command), so an error names the fields of the kind asked for. */
export const CreateTaskBody = z.discriminatedUnion('kind', [CreateCommandTaskBody, CreateChildTaskBody]);
export const CreateTaskBodyDoc = z.union([CreateCommandTaskBody, CreateChildTaskBody]).openapi('CreateTaskRequest');

export const TaskStatus = z.enum(TASK_STATUSES);

const Worktree = z
  .object({
    projection_kind: z.string().nullable(),
    worktree_path: z.string().nullable(),
    worktree_branch: z.string().nullable(),
    actual_branch: z.string().nullable(),
    original_branch: z.string().nullable(),
    original_cwd: z.string().nullable(),
    base_commit: z.string().nullable().openapi({ description: 'the commit the worktree started from' }),
    changed_files: z.array(z.string()).openapi({ description: 'uncommitted changes plus files of commits since base_commit (at most 500)' }),
    retained_for_review: z.boolean().nullable(),
    auto_cleaned_up: z.boolean().nullable(),
    cleanup_status: z.string().nullable().openapi({ description: '`active`, `retained`, `removing`, `removed` or `failed`' }),
    cleanup_reason: z.string().nullable(),
    cleanup_error: z.string().nullable(),
    branch_cleanup_status: z.string().nullable().openapi({ description: '`deleted`, `failed`, `skipped` or null (not cleaned yet)' }),
    branch_cleanup_error: z.string().nullable(),
  })
  .openapi('ChildWorktree');

const ChildSupervision = z
  .object({
    parent_agent_id: z.string(),
    child_agent_id: z.string(),
    supervision_task_id: z.string(),
    cleanup_owner: z.string().openapi({ description: 'always `supervision_task`: the task owns the worktree, not the child' }),
    followup_target: z.string().openapi({ description: 'always `parent_supervisor`' }),
    child_work_item_id: z.string().nullable(),
    parent_work_item_id: z.string().nullable(),
    delegation_id: z.string().nullable(),
    cleanup_status: z.string().nullable(),
    cleanup_policy: z.enum(CLEANUP_POLICIES),
    workspace_mode: z.enum(WORKSPACE_MODES).nullable(),
    worktree: Worktree.nullable(),
    followups: z.number().int().openapi({ description: 'follow-ups delivered through task input' }),
  })
  .openapi('ChildSupervision');

const ChildObservability = z
  .object({
    phase: z.enum(['running', 'blocked', 'waiting', 'terminal']),
    blocked_reason: z.enum(['managed_task_queued', 'managed_task_running', 'managed_task_cancelling', 'awaiting_managed_task']).nullable(),
    waiting_reason: z.enum(['awaiting_operator_input', 'awaiting_external_change', 'awaiting_task_result', 'awaiting_timer']).nullable(),
    current_work_item_id: z.string().nullable(),
    last_progress_brief: z.string().nullable(),
    last_result_brief: z.string().nullable(),
    work_summary: z.string().nullable(),
  })
  .openapi('ChildObservability', { description: "derived on every read from the child's live state" });

export const TaskSnapshot = z
  .object({
    task_id: z.string(),
    kind: z.string(),
    status: TaskStatus,
    created_at: z.string(),
    updated_at: z.string(),
    wait_policy: z.literal('background'),
    summary: z.string().nullable(),
    parent_message_id: z.string().nullable(),
    child_agent_id: z.string().nullable(),
    child_observability: ChildObservability.nullable(),
    child_supervision: ChildSupervision.nullable(),
    command: z
      .object({
        accepts_input: z.boolean().nullable(),
        cmd: z.string().nullable(),
        cmd_digest: z.string().nullable().openapi({ description: 'sha256 of cmd, hex' }),
        exit_status: z.number().int().nullable(),
        input_target: z.string().nullable().openapi({ description: '"tty" for a tty task, "stdin" for a task created with accepts_input, else null' }),
        login: z.boolean().nullable(),
        output_path: z.string().nullable().openapi({ description: 'file holding the combined stdout+stderr' }),
        promoted_from_exec_command: z.boolean().nullable(),
        result_summary: z.string().nullable(),
        shell: z.string().nullable(),
        terminal_reentry: z.boolean().nullable().openapi({
          description: 'true while a tty task runs: a terminal can be re-attached by reading command.output_path (or …/output) and writing task input',
        }),
        tty: z.boolean().nullable().openapi({ description: 'the command runs in a pseudo-terminal' }),
        terminal_size: z
          .object({ cols: z.number().int(), rows: z.number().int() })
          .nullable()
          .openapi({ description: 'the terminal size of a tty task; null without a terminal' }),
        workdir: z.string().nullable(),
        network: z.boolean().openapi({ description: 'the command may reach the network (false: its sandbox has a network namespace of its own)' }),
        sandboxed: z.boolean().nullable().openapi({ description: 'it ran in the command sandbox (bubblewrap); null until it started' }),
      })
      .nullable(),
  })
  .openapi('TaskStatusSnapshot');

export const TaskList = z.object({ ok: z.literal(true), agent_id: z.string(), tasks: z.array(TaskSnapshot) });

export const TaskListQuery = z.object({
  limit: QueryInt.pipe(z.number().int().min(1).max(1000)).optional().openapi({ description: 'at most this many active and this many finished tasks (default 100)' }),
});

export const TaskOutputQuery = z.object({
  block: QueryBool.optional().openapi({ description: 'wait for the task to finish (default false)' }),
  timeout_ms: QueryInt.optional().openapi({
    description: `longest wait when block=true, in ms (default 30000, clamped to ${MAX_OUTPUT_WAIT_MS})`,
  }),
});

export const TaskOutputResult = z
  .object({
    ok: z.literal(true),
    retrieval_status: z.enum(['success', 'timeout', 'not_ready']),
    task: z.object({
      task_id: z.string(),
      kind: z.string(),
      status: TaskStatus,
      output_preview: z.string().openapi({ description: 'the last tasks.output_preview_bytes of the output' }),
      output_truncated: z.boolean(),
      output_bytes: z.number().int().openapi({ description: 'size of the whole output file' }),
      exit_status: z.number().int().nullable(),
      result_summary: z.string().nullable(),
      summary: z.string().nullable(),
      failure_artifact: FailureArtifact.nullable(),
      artifacts: z.array(z.object({ path: z.string() })),
      output_artifact: z.number().int().nullable(),
      child_supervision: ChildSupervision.nullable().optional(),
    }),
  })
  .openapi('TaskOutputResult');

export const TaskInputBody = z
  .looseObject({
    text: z.string().max(1_048_576),
    eof: z.boolean().nullable().optional().openapi({
      description:
        'after writing, signal end of file: a stdin pipe is closed; a tty task gets the EOF character Ctrl-D (twice after a partial line) and its terminal stays open',
    }),
    authority_class: AuthorityClass,
  })
  .openapi('TaskInputRequest');

export const TaskInputResult = z
  .object({
    ok: z.literal(true),
    task: TaskSnapshot,
    accepted_input: z.boolean(),
    bytes_written: z.number().int().min(0).nullable(),
    input_target: z.string().nullable(),
    summary_text: z.string().nullable(),
  })
  .openapi('TaskInputResult');

export const TaskStopBody = z.looseObject({ authority_class: AuthorityClass }).openapi('TaskStopRequest');

export const TaskStopResult = z
  .object({
    ok: z.literal(true),
    task: TaskSnapshot,
    force_stop_requested: z.boolean(),
    previous_status: TaskStatus,
    signal_sent: z.enum(['SIGTERM', 'SIGKILL']).nullable(),
    summary_text: z.string(),
  })
  .openapi('TaskStopResult');

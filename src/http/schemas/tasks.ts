/** Command task request and response shapes (spec "Task status snapshot", TaskInputResult, TaskOutputResult; CONTRACT.md section 8). */
import { z } from 'zod';
import { MAX_OUTPUT_WAIT_MS, TASK_STATUSES } from '../../runtime/task-records.js';
import { AuthorityClass, FailureArtifact, QueryBool, QueryInt } from './common.js';

const text = (what: string, max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !s.includes('\0'), `${what} must not contain NUL bytes`);

export const TaskParams = z.object({
  id: z.string().min(1).openapi({ example: 'main' }),
  task_id: z.string().min(1).openapi({ example: 'task_01J9ZQ4B7R8F3W2X5Y6Z7A8B9C' }),
});

export const CreateTaskBody = z
  .looseObject({
    summary: z.string().max(4096).nullable().optional().openapi({ description: 'what the task is for; defaults to the command line' }),
    cmd: text('cmd', 262_144).min(1).openapi({ description: 'run as `<shell> -c <cmd>`', example: 'echo hello' }),
    workdir: text('workdir', 4096).nullable().optional().openapi({
      description: "working directory (relative paths resolve against the agent's active workspace, the default); must exist, else 400 workdir_not_found",
    }),
    shell: text('shell', 4096).nullable().optional().openapi({ description: 'shell path or name on PATH; default /bin/sh; else 400 shell_not_found' }),
    login: z.boolean().nullable().optional().openapi({ description: 'run `<shell> -lc <cmd>` (a login shell)' }),
    accepts_input: z.boolean().nullable().optional().openapi({ description: 'give the command a stdin pipe that POST …/input writes to' }),
    authority_class: AuthorityClass,
  })
  .openapi('CreateCommandTaskRequest');

export const TaskStatus = z.enum(TASK_STATUSES);

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
    child_observability: z.record(z.string(), z.unknown()).nullable(),
    child_supervision: z.record(z.string(), z.unknown()).nullable(),
    command: z
      .object({
        accepts_input: z.boolean().nullable(),
        cmd: z.string().nullable(),
        cmd_digest: z.string().nullable().openapi({ description: 'sha256 of cmd, hex' }),
        exit_status: z.number().int().nullable(),
        input_target: z.string().nullable().openapi({ description: '"stdin" for a task created with accepts_input, else null' }),
        login: z.boolean().nullable(),
        output_path: z.string().nullable().openapi({ description: 'file holding the combined stdout+stderr' }),
        promoted_from_exec_command: z.boolean().nullable(),
        result_summary: z.string().nullable(),
        shell: z.string().nullable(),
        terminal_reentry: z.boolean().nullable(),
        tty: z.boolean().nullable(),
        workdir: z.string().nullable(),
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
    }),
  })
  .openapi('TaskOutputResult');

export const TaskInputBody = z
  .looseObject({
    text: z.string().max(1_048_576),
    eof: z.boolean().nullable().optional().openapi({ description: 'close the stdin after writing (the command sees end of file)' }),
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

/**
 * Command-task tools: `run_command` creates a task exactly as POST /api/control/agents/:id/tasks
 * does (TaskService.create, so the same `task_create_requested` / `task_status_changed` events and
 * the same `task_result` message when it ends), then waits for it like GET .../output?block=true.
 * The wait is bounded and ends early when the run is aborted (ctx.signal); the task keeps running
 * in the background either way and its result arrives later as a `task_result` message.
 */
import { z } from 'zod';
import type { ToolContext, ToolDeps } from './types.js';
import { CLEANUP_POLICIES, WORKSPACE_MODES, type TaskService } from '../tasks/index.js';
import { defineTool } from './define.js';

/** Default wait of run_command; read_task_output does not wait unless asked. */
export const RUN_COMMAND_WAIT_MS = 30_000;
/** Longest wait a tool may ask for: a turn waits for the tool, so this bounds the turn too. */
export const TOOL_MAX_WAIT_MS = 120_000;

const WaitMs = z
  .number()
  .int()
  .min(0)
  .max(TOOL_MAX_WAIT_MS)
  .optional();

/** The output read the model gets back: status and the tail of the combined output (also wait_for's answer for a finished task). */
export async function readTaskOutput(tasks: TaskService, ctx: ToolContext, taskId: string, waitMs: number) {
  const out = await tasks.output(ctx.agentId, taskId, { block: waitMs > 0, timeoutMs: waitMs, signal: ctx.signal });
  const t = out.task;
  return {
    task_id: t.task_id,
    status: t.status,
    finished: out.retrieval_status === 'success',
    exit_status: t.exit_status,
    result_summary: t.result_summary,
    output_preview: t.output_preview,
    output_truncated: t.output_truncated,
  };
}

export function taskTools(deps: ToolDeps) {
  const { tasks, logger } = deps;
  const readOutput = (ctx: ToolContext, taskId: string, waitMs: number) => readTaskOutput(tasks, ctx, taskId, waitMs);

  return [
    defineTool(
      {
        name: 'run_command',
        class: 'exec',
        // Reaching the network is its own class: the policy decides it for this call.
        extraClasses: (args) => (args.network === true ? ['network'] : []),
        description:
          `Run a shell command (/bin/sh -c) as a background task in the agent's workspace and wait up to wait_ms (default ${RUN_COMMAND_WAIT_MS}, ` +
          `max ${TOOL_MAX_WAIT_MS}) for it to finish. Returns task_id, status, exit_status and the tail of the combined stdout+stderr. ` +
          'If it is still running (finished:false), use read_task_output later; its result also arrives as a task_result message.',
        args: z.strictObject({
          cmd: z.string().trim().min(1).describe('the shell command line'),
          summary: z.string().optional().describe('a short description of what the command is for'),
          workdir: z.string().optional().describe("working directory, relative to the agent's active workspace or absolute"),
          wait_ms: WaitMs.describe('how long to wait for the command to finish, in milliseconds'),
          network: z.boolean().optional().describe('true if the command needs the network (it runs without network otherwise)'),
        }),
        run: async (ctx, a) => {
          const task = tasks.create(ctx.agentId, {
            cmd: a.cmd,
            summary: a.summary ?? null,
            workdir: a.workdir ?? null,
            authority_class: 'runtime_instruction',
            parent_message_id: ctx.messageId,
            taint: ctx.trust,
            network: ctx.network,
          });
          return readOutput(ctx, task.task_id, a.wait_ms ?? RUN_COMMAND_WAIT_MS);
        },
      },
      logger,
    ),
    defineTool(
      {
        name: 'read_task_output',
        class: 'read',
        description:
          'Read the status and the tail of the output of a command task. wait_ms > 0 waits up to that long for it to finish ' +
          `(max ${TOOL_MAX_WAIT_MS}); default 0: answer at once.`,
        args: z.strictObject({
          task_id: z.string().min(1).describe('the task id returned by run_command'),
          wait_ms: WaitMs.describe('how long to wait for the task to finish, in milliseconds'),
        }),
        run: (ctx, a) => readOutput(ctx, a.task_id, a.wait_ms ?? 0),
      },
      logger,
    ),
    defineTool(
      {
        name: 'spawn_agent',
        class: 'agents',
        description:
          'Delegate bounded work to a new private child agent that you supervise. It gets initial_message as its first message and works on its own ' +
          "(its own turns, tools and model); workspace_mode 'inherit' (default) shares your active workspace, 'worktree' gives it a new git worktree and branch " +
          'of your workspace\'s repository (changes stay there for you to review). Returns task_id and child_agent_id at once; the child\'s answer arrives as a ' +
          `task_result message, or wait for it with read_task_output (wait_ms). Send more instructions with followup_agent; stop_task discards the child.`,
        args: z.strictObject({
          initial_message: z.string().trim().min(1).describe('the delegated instruction: what to do and what to answer with'),
          workspace_mode: z.enum(WORKSPACE_MODES).optional().describe("'inherit' (default) or 'worktree'"),
          summary: z.string().optional().describe('a short label for the delegation'),
          objective: z.string().optional().describe('creates a work item with this objective for the child'),
          worktree_cleanup: z.enum(CLEANUP_POLICIES).optional().describe("what happens to a worktree when the child answers: 'auto' (default), 'retain', 'remove'"),
        }),
        run: async (ctx, a) => {
          const task = await tasks.createAny(ctx.agentId, {
            kind: 'child_agent',
            initial_message: a.initial_message,
            workspace_mode: a.workspace_mode ?? null,
            summary: a.summary ?? null,
            objective: a.objective ?? null,
            worktree_cleanup: a.worktree_cleanup ?? null,
            authority_class: 'runtime_instruction',
            parent_message_id: ctx.messageId,
            taint: ctx.trust,
          });
          const sup = task.child_supervision as { worktree?: { worktree_path?: string | null; worktree_branch?: string | null } | null } | null;
          return {
            task_id: task.task_id,
            child_agent_id: task.child_agent_id,
            status: task.status,
            worktree_path: sup?.worktree?.worktree_path ?? null,
            worktree_branch: sup?.worktree?.worktree_branch ?? null,
            result_summary: task.status === 'failed' ? tasks.getRow(ctx.agentId, task.task_id).result_summary : null,
          };
        },
      },
      logger,
    ),
    defineTool(
      {
        name: 'followup_agent',
        class: 'agents',
        description:
          'Send a follow-up instruction to a child agent you spawned (by its task_id). If it had already answered, its task runs again and its next answer ' +
          'arrives as another task_result message.',
        args: z.strictObject({
          task_id: z.string().min(1).describe('the task id returned by spawn_agent'),
          text: z.string().trim().min(1).describe('the follow-up instruction'),
        }),
        run: (ctx, a) => {
          const r = tasks.input(ctx.agentId, a.task_id, { text: a.text, authority_class: 'runtime_instruction' });
          return { accepted: r.accepted_input, status: r.task.status, summary: r.summary_text };
        },
      },
      logger,
    ),
    defineTool(
      {
        name: 'stop_task',
        class: 'exec',
        description:
          'Stop a task: a command gets SIGTERM (a second stop SIGKILL); a child agent is cancelled and deleted, with its worktree and branch.',
        args: z.strictObject({ task_id: z.string().min(1).describe('the task to stop') }),
        run: (ctx, a) => {
          const r = tasks.requestStop(ctx.agentId, a.task_id, { authority_class: 'runtime_instruction' });
          return { status: r.task.status, previous_status: r.previous_status, summary: r.summary_text };
        },
      },
      logger,
    ),
  ];
}

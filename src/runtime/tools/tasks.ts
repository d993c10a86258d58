/**
 * Command-task tools: `run_command` creates a task exactly as POST /api/control/agents/:id/tasks
 * does (TaskService.create, so the same `task_create_requested` / `task_status_changed` events and
 * the same `task_result` message when it ends), then waits for it like GET .../output?block=true.
 * The wait is bounded and ends early when the run is aborted (ctx.signal); the task keeps running
 * in the background either way and its result arrives later as a `task_result` message.
 */
import { z } from 'zod';
import type { ToolContext } from './types.js';
import type { ToolDeps } from './index.js';
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

export function taskTools(deps: ToolDeps) {
  const { tasks, logger } = deps;

  /** The output read the model gets back: status and the tail of the combined output. */
  async function readOutput(ctx: ToolContext, taskId: string, waitMs: number) {
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

  return [
    defineTool(
      {
        name: 'run_command',
        description:
          `Run a shell command (/bin/sh -c) as a background task in the agent's workspace and wait up to wait_ms (default ${RUN_COMMAND_WAIT_MS}, ` +
          `max ${TOOL_MAX_WAIT_MS}) for it to finish. Returns task_id, status, exit_status and the tail of the combined stdout+stderr. ` +
          'If it is still running (finished:false), use read_task_output later; its result also arrives as a task_result message.',
        args: z.strictObject({
          cmd: z.string().trim().min(1).describe('the shell command line'),
          summary: z.string().optional().describe('a short description of what the command is for'),
          workdir: z.string().optional().describe("working directory, relative to the agent's active workspace or absolute"),
          wait_ms: WaitMs.describe('how long to wait for the command to finish, in milliseconds'),
        }),
        run: async (ctx, a) => {
          const task = tasks.create(ctx.agentId, {
            cmd: a.cmd,
            summary: a.summary ?? null,
            workdir: a.workdir ?? null,
            authority_class: 'runtime_instruction',
          });
          return readOutput(ctx, task.task_id, a.wait_ms ?? RUN_COMMAND_WAIT_MS);
        },
      },
      logger,
    ),
    defineTool(
      {
        name: 'read_task_output',
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
  ];
}

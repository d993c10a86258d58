/**
 * Coordination tools (docs/tools.md#coordination): waiting, looking at agents and tasks, and
 * messages to other agents, each through the service its HTTP route calls.
 *
 * `wait_for` is sleep-like: the turn ends after this round and the agent sleeps until what it
 * waits for arrives as a message. The wake is always durable: a task's `task_result` message (the
 * task ledger enqueues it when the task ends, after a restart too: a task the daemon lost becomes
 * `interrupted` and answers), or a timer's tick (a one-shot timer for a duration, created exactly
 * as create_timer creates one). The wait itself is recorded as `wait_registered` in the agent's log.
 *
 * `send_message` enqueues through Ingress.agentMessage: the provenance (origin `agent`, trust,
 * authority) is the runtime's; the arguments cannot carry any of it.
 */
import { z } from 'zod';
import { errors } from '../../core/index.js';
import { AGENT_MESSAGE_MAX_CHARS } from '../agents/index.js';
import { TASK_STATUSES, isTerminal } from '../tasks/index.js';
import { defineTool, endingTurn } from './define.js';
import { readTaskOutput } from './tasks.js';
import { Millis } from './timers.js';
import type { ToolContext, ToolDeps } from './types.js';

/** list_tasks answers at most this many tasks. */
export const LIST_TASKS_MAX = 100;
const LIST_TASKS_DEFAULT = 20;
/** A task input's text (a follow-up to a child, or what a command reads on its stdin). */
const TASK_INPUT_MAX_CHARS = 262_144;
const REASON_MAX_CHARS = 2000;
const Id = z.string().min(1).max(128);

export function coordinationTools(deps: ToolDeps) {
  const { agents, ingress, queue, store, events, tasks, timers, workItems, logger } = deps;

  /** Record the wait in the agent's log and end the turn; the task result or the timer tick is the wake. */
  async function sleep(ctx: ToolContext, target: Record<string, unknown>, reason: string, answer: Record<string, unknown>, wake: string) {
    await store.write(() => events.append(ctx.agentId, 'wait_registered', { ...target, reason, turn_id: ctx.turnId }));
    return endingTurn({ waiting: true, ...answer, note: `This turn ends now. ${wake} starts your next turn.` });
  }

  async function waitForTask(ctx: ToolContext, taskId: string, reason: string) {
    const now = await readTaskOutput(tasks, ctx, taskId, 0);
    // Already finished: the answer now (its task_result message is queued all the same).
    if (now.finished) return { waiting: false, ...now };
    return sleep(ctx, { task_id: taskId }, reason, { task_id: taskId, status: now.status }, 'When the task ends, its result (a task_result message)');
  }

  async function waitForTimer(ctx: ToolContext, timerId: string, reason: string) {
    const timer = timers.get(ctx.agentId, timerId);
    if (timer.status === 'cancelled') throw errors.nothingToWaitFor(`timer ${timerId} is cancelled: it will never fire`, { timer_id: timerId });
    // A completed one-shot timer has fired already: its tick is in the queue or was answered.
    if (timer.status === 'completed') return { waiting: false, timer_id: timerId, status: timer.status, last_fired_at: timer.last_fired_at };
    return sleep(ctx, { timer_id: timerId }, reason, { timer_id: timerId, next_fire_at: timer.next_fire_at }, "The timer's tick");
  }

  async function waitForDuration(ctx: ToolContext, durationMs: number, reason: string) {
    // The same call as create_timer: the timer floor and the per-agent cap apply, ticks carry the turn's trust.
    const timer = await timers.create(ctx.agentId, { duration_ms: durationMs, interval_ms: null, summary: `wait_for: ${reason}`, taint: ctx.trust });
    const answer = { timer_id: timer.timer_id, next_fire_at: timer.next_fire_at };
    return sleep(ctx, { timer_id: timer.timer_id, duration_ms: durationMs }, reason, answer, "The timer's tick (it carries your reason)");
  }

  return [
    defineTool(
      {
        name: 'wait_for',
        // Waiting on a task or a timer changes nothing; waiting for a duration creates a timer,
        // which is what create_timer (write) does.
        class: 'read',
        extraClasses: (args) => (args.duration_ms !== undefined ? ['write'] : []),
        description:
          'Sleep until something arrives: a task finishing (task_id), a timer of yours firing (timer_id), or a duration passing (duration_ms, a one-shot timer). ' +
          'Give exactly one of the three, and a reason. Your turn ends after this call; the task result or the timer tick starts your next turn ' +
          '(this survives a restart of the runtime). A task that has already finished is answered at once.',
        args: z.strictObject({
          task_id: Id.optional().describe('wait for this task (run_command, spawn_agent) to end'),
          timer_id: Id.optional().describe('wait for this active timer of yours to fire'),
          duration_ms: Millis.optional().describe('wait this many milliseconds'),
          reason: z.string().trim().min(1).max(REASON_MAX_CHARS).describe('what you are waiting for and what you will do next'),
        }),
        run: (ctx, a) => {
          const targets = [a.task_id, a.timer_id, a.duration_ms].filter((x) => x !== undefined).length;
          if (targets !== 1) {
            throw errors.invalidToolArguments('wait_for', [{ path: '', message: 'give exactly one of task_id, timer_id or duration_ms' }]);
          }
          if (a.task_id !== undefined) return waitForTask(ctx, a.task_id, a.reason);
          if (a.timer_id !== undefined) return waitForTimer(ctx, a.timer_id, a.reason);
          return waitForDuration(ctx, a.duration_ms!, a.reason);
        },
      },
      logger,
    ),
    defineTool(
      {
        name: 'get_agent',
        class: 'read',
        description:
          'Look at an agent: yourself (default), a public agent, or a private child agent you supervise. Returns its id, display name, status, ' +
          'model, visibility, parent, current work item and how many messages wait in its queue.',
        args: z.strictObject({ agent_id: Id.optional().describe('the agent id; default: yourself') }),
        run: (ctx, a) => {
          const agent = agents.visibleTo(a.agent_id ?? ctx.agentId, ctx.agentId);
          return {
            agent_id: agent.agent_id,
            display_name: agent.display_name,
            status: agent.status,
            model: agents.effectiveModel(agent),
            visibility: agent.visibility,
            parent_agent_id: agent.parent_agent_id,
            is_self: agent.agent_id === ctx.agentId,
            current_work_item_id: workItems.currentFocus(agent.agent_id),
            queue_depth: queue.pending(agent.agent_id),
          };
        },
      },
      logger,
    ),
    defineTool(
      {
        name: 'list_tasks',
        class: 'read',
        description: `List your tasks (commands and child agents), newest first: active ones and recent finished ones. At most limit (default ${LIST_TASKS_DEFAULT}, max ${LIST_TASKS_MAX}).`,
        args: z.strictObject({
          status: z.enum(TASK_STATUSES).optional().describe('only tasks with this status'),
          limit: z.number().int().min(1).max(LIST_TASKS_MAX).optional().describe('how many tasks at most'),
        }),
        run: (ctx, a) => {
          const limit = a.limit ?? LIST_TASKS_DEFAULT;
          const all = tasks.list(ctx.agentId, LIST_TASKS_MAX).filter((t) => a.status === undefined || t.status === a.status);
          const slim = all.slice(0, limit).map((t) => ({
            task_id: t.task_id,
            kind: t.kind,
            status: t.status,
            summary: t.summary,
            child_agent_id: t.child_agent_id,
            exit_status: t.command?.exit_status ?? null,
            created_at: t.created_at,
            updated_at: t.updated_at,
          }));
          return { tasks: slim, truncated: all.length > limit };
        },
      },
      logger,
    ),
    defineTool(
      {
        name: 'task_status',
        class: 'read',
        description: 'The status of one of your tasks: kind, status, whether it finished, exit status and result summary. read_task_output reads its output.',
        args: z.strictObject({ task_id: Id.describe('the task id') }),
        run: (ctx, a) => {
          const row = tasks.getRow(ctx.agentId, a.task_id);
          return {
            task_id: row.task_id,
            kind: row.kind,
            status: row.status,
            finished: isTerminal(row.status),
            summary: row.summary,
            child_agent_id: row.child_agent_id,
            exit_status: row.exit_status,
            result_summary: row.result_summary,
            created_at: row.created_at,
            started_at: row.started_at,
            finished_at: row.finished_at,
          };
        },
      },
      logger,
    ),
    defineTool(
      {
        name: 'task_input',
        // One class per tool, the stricter of what it can do: typing into a running command's
        // stdin or terminal drives that process (exec); a child's follow-up alone is followup_agent (agents).
        class: 'exec',
        description:
          'Send input to one of your tasks: a child agent task gets the text as a follow-up instruction (a finished one runs again); a running command ' +
          "task created with a stdin or terminal reads it there (eof: true closes its stdin). Answers whether the input was accepted and why not.",
        args: z.strictObject({
          task_id: Id.describe('the task id'),
          text: z.string().max(TASK_INPUT_MAX_CHARS).describe('the follow-up, or the bytes for the stdin (UTF-8)'),
          eof: z.boolean().optional().describe('command task: close its stdin after writing (a terminal gets Ctrl-D)'),
        }),
        run: (ctx, a) => {
          const r = tasks.input(ctx.agentId, a.task_id, { text: a.text, eof: a.eof ?? null, authority_class: 'runtime_instruction' });
          return { accepted: r.accepted_input, input_target: r.input_target, status: r.task.status, summary: r.summary_text };
        },
      },
      logger,
    ),
    defineTool(
      {
        name: 'send_message',
        class: 'agents',
        description:
          'Send a text message to another agent: it arrives in that agent\'s queue as a message from you (origin agent, trusted no more than this turn) ' +
          'and starts its turn in its order. You can reach public agents and the private child agents you supervise. ' +
          'priority: normal (default), next (ahead of normal messages) or background.',
        args: z.strictObject({
          agent_id: Id.describe('the receiving agent'),
          text: z.string().trim().min(1).max(AGENT_MESSAGE_MAX_CHARS).describe('the message'),
          priority: z.enum(['next', 'normal', 'background']).optional().describe('default normal'),
        }),
        run: async (ctx, a) => {
          const admitted = await ingress.agentMessage(ctx.agentId, a.agent_id, {
            text: a.text,
            priority: a.priority,
            taint: ctx.trust,
            causation_id: ctx.messageId,
            metadata: { turn_id: ctx.turnId },
          });
          return { sent: true, agent_id: admitted.agent_id, message_id: admitted.message_id };
        },
      },
      logger,
    ),
  ];
}

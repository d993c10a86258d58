/**
 * Command tasks (spec "Task status snapshot", task endpoint rows;
 * docs/control-plane-api.md#command-tasks).
 */
import type { Services } from '../../services.js';
import { defineRoute, type AnyRoute } from '../route.js';
import {
  AgentIdParams,
  CreateTaskBody,
  CreateTaskBodyDoc,
  TaskInputBody,
  TaskInputResult,
  TaskList,
  TaskListQuery,
  TaskOutputQuery,
  TaskOutputResult,
  TaskParams,
  TaskSnapshot,
  TaskStopBody,
  TaskStopResult,
} from '../schemas/index.js';

const tags = ['tasks'];

export function taskRoutes(s: Services): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/agents/:id/tasks',
      auth: 'read',
      tags,
      summary: 'Active and recent tasks with status, kind and timing, newest first',
      params: AgentIdParams,
      query: TaskListQuery,
      responses: { 200: { description: 'Tasks', schema: TaskList } },
      handler: ({ params, query }) => ({ ok: true, agent_id: params.id, tasks: s.tasks.list(params.id, query.limit) }),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/agents/:id/tasks/:task_id',
      auth: 'read',
      tags,
      summary: 'Structured task lifecycle snapshot (TaskStatusSnapshot); 404 task_not_found',
      params: TaskParams,
      responses: { 200: { description: 'Snapshot', schema: TaskSnapshot } },
      handler: ({ params }) => s.tasks.get(params.id, params.task_id),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/agents/:id/tasks/:task_id/output',
      auth: 'read',
      tags,
      summary: 'TaskOutputResult: the tail of the output and the outcome',
      description:
        'block=false (default): `success` for a finished task, `not_ready` for one still queued or running (with the output so far). ' +
        'block=true waits until the task finishes (`success`) or timeout_ms passes (`timeout`); timeout_ms defaults to 30000 and is clamped to 300000.',
      params: TaskParams,
      query: TaskOutputQuery,
      responses: { 200: { description: 'Output', schema: TaskOutputResult } },
      handler: async ({ params, query, request }) => {
        const abort = new AbortController();
        const onClose = () => abort.abort();
        request.raw.once('close', onClose);
        try {
          const out = await s.tasks.output(params.id, params.task_id, { block: query.block, timeoutMs: query.timeout_ms, signal: abort.signal });
          return { ok: true, ...out };
        } finally {
          request.raw.off('close', onClose);
        }
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/control/agents/:id/tasks',
      errors: { 400: ['workdir_not_found', 'workdir_not_allowed', 'shell_not_found', 'worktree_unavailable'], 409: ['child_agent_exists', 'child_limit_reached', 'child_depth_exceeded'], 503: ['shutting_down'] },
      bodyExample: { cmd: 'npm test', workdir: '.', summary: 'run the tests' },
      auth: 'control',
      tags,
      summary: 'Start a task: a background command (`<shell> -c <cmd>` in its own process group) or a supervised child agent (kind child_agent)',
      description:
        'Command (kind absent or `command`): ' +
        "defaults: shell /bin/sh, workdir the agent's active workspace. `login` runs `<shell> -lc <cmd>`; `accepts_input` gives it a stdin pipe. " +
        '`tty: true` runs it in a pseudo-terminal (`cols`x`rows`, default 120x40) whose output goes to the same file and which takes task input. ' +
        'Combined stdout+stderr goes to command.output_path under the agent home. Beyond tasks.max_concurrent_per_agent running tasks a new one is `queued`. ' +
        'With the command sandbox on (tasks.sandbox) it runs under bubblewrap: the workspace writable, the system read-only, the daemon home and home directories hidden, ' +
        '`network` (default true here) or a network namespace of its own; a workdir outside the workspace in a hidden tree is 400 workdir_not_allowed. ' +
        'Exit status 0 -> completed, else failed; a finished task enqueues a task_result message (origin task, trusted_system). ' +
        'Child agent (kind `child_agent`): creates a private child agent (parent = this agent), its workspace (`inherit` or a git `worktree`), optionally a work item, ' +
        'and sends it initial_message; answers 201 once the child is set up (status running, or failed with a failure_artifact if the set-up failed). ' +
        "The task completes with the child's answer (its result brief, when the child waits for nothing of its own), which also reaches this agent as a task_result message; " +
        'task input sends the child a follow-up (a finished task runs again), stop deletes the child. ' +
        'Limits: tasks.max_active_children_per_agent (409 child_limit_reached), tasks.max_child_depth (409 child_depth_exceeded).',
      params: AgentIdParams,
      body: CreateTaskBody,
      bodyDoc: CreateTaskBodyDoc,
      responses: { 201: { description: 'Created', schema: TaskSnapshot } },
      handler: async ({ params, body, reply }) => {
        // The operator's own command reaches the network unless it says otherwise (the service's default is none).
        const input = body.kind === 'child_agent' || body.kind === 'child_agent_task' ? body : { ...body, network: body.network !== false };
        const task = await s.tasks.createAny(params.id, input);
        reply.code(201);
        return task;
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/control/agents/:id/tasks/:task_id/input',
      operationId: 'sendAgentTaskInput',
      bodyExample: { text: 'y\n' },
      auth: 'control',
      tags,
      summary: 'Write text to the stdin of a running command task created with accepts_input, type it into the terminal of a tty task, or send a child agent task a follow-up',
      description:
        'Command task: a task without accepts_input, or not running, answers 200 with accepted_input:false and a summary_text saying why. `eof: true` closes the stdin after writing; for a tty task (input_target `tty`) it sends the EOF character Ctrl-D instead. ' +
        "Child agent task: the text is enqueued to the child (input_target `child_followup`); a finished task goes back to running until the child answers again. Refused (accepted_input:false) when the child is gone or its worktree was removed.",
      params: TaskParams,
      body: TaskInputBody,
      responses: { 200: { description: 'Input result', schema: TaskInputResult } },
      handler: ({ params, body }) => s.tasks.input(params.id, params.task_id, body),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/control/agents/:id/tasks/:task_id/stop',
      bodyExample: { authority_class: 'operator_instruction' },
      auth: 'control',
      tags,
      summary: 'Stop a task: SIGTERM to its process group (cancelling -> cancelled); a second stop SIGKILLs it',
      description:
        'running -> cancelling (SIGTERM to the group), cancelled once it exits; a stop on a cancelling task answers force_stop_requested:true and SIGKILLs the group; ' +
        'a queued task is cancelled at once; a finished command task answers 200 with its unchanged snapshot. ' +
        'A child agent task is cancelled at once and its child deleted (its run aborted, its worktree and branch removed); on a finished child task, stop discards what is left (the child, a retained worktree).',
      params: TaskParams,
      body: TaskStopBody,
      bodyOptional: true,
      responses: { 200: { description: 'Stop receipt', schema: TaskStopResult } },
      handler: ({ params, body }) => s.tasks.requestStop(params.id, params.task_id, body),
    }),
  ];
}

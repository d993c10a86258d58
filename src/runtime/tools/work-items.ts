/**
 * Work-item tools: each is one WorkItemService call, the one the matching route makes
 * (POST .../work-items, PATCH .../work-items/:id, POST .../pick, POST .../complete), with
 * authority `runtime_instruction`. Answers are the records the routes answer with.
 * attach_plan is PATCH `plan_artifact`, after writing the file when it is given text;
 * complete_work_item records `completed_by: agent` in the completion intent.
 */
import { z } from 'zod';
import { PLAN_STATUSES, TODO_STATES } from '../work-items/index.js';
import type { ToolDeps } from './types.js';
import { defineTool } from './define.js';

const AUTHORITY = { authority_class: 'runtime_instruction' } as const;

const WorkItemId = z.string().min(1).describe('the work item id (wi_...)');

export function workItemTools(deps: ToolDeps) {
  const { workItems, logger } = deps;
  return [
    defineTool(
      {
        name: 'create_work_item',
        class: 'write',
        description: 'Create a durable work item (an objective to work on across turns). Returns the work item (state open, plan_status draft).',
        args: z.strictObject({ objective: z.string().describe('what is to be achieved; must not be blank') }),
        run: (ctx, a) => workItems.create(ctx.agentId, { objective: a.objective, ...AUTHORITY }),
      },
      logger,
    ),
    defineTool(
      {
        name: 'update_work_item',
        class: 'write',
        description:
          'Update an open work item: objective, plan_status (draft | ready | needs_input: waiting for the operator), ' +
          'todo_list (replaces the whole list), blocked_by (a blocker description; null clears it). Give at least one field.',
        args: z.strictObject({
          work_item_id: WorkItemId,
          objective: z.string().optional(),
          plan_status: z.enum(PLAN_STATUSES).optional(),
          todo_list: z
            .array(z.strictObject({ text: z.string().trim().min(1), state: z.enum(TODO_STATES) }))
            .optional()
            .describe('the complete todo list'),
          blocked_by: z.string().nullable().optional().describe('what blocks the item; null clears the blocker'),
        }),
        run: (ctx, { work_item_id, ...patch }) => workItems.update(ctx.agentId, work_item_id, { ...patch, ...AUTHORITY }),
      },
      logger,
    ),
    defineTool(
      {
        name: 'pick_work_item',
        class: 'write',
        description: "Make an open work item the agent's current focus. Returns the focus transition (readiness, warnings).",
        args: z.strictObject({ work_item_id: WorkItemId, reason: z.string().optional().describe('why this item now') }),
        run: (ctx, a) => workItems.pick(ctx.agentId, a.work_item_id, { reason: a.reason ?? null, ...AUTHORITY }),
      },
      logger,
    ),
    defineTool(
      {
        name: 'complete_work_item',
        class: 'write',
        description: 'Complete an open work item with a report; the report becomes its result brief to the operator.',
        args: z.strictObject({ work_item_id: WorkItemId, report_text: z.string().describe('what was done and the outcome; must not be blank') }),
        run: (ctx, a) => workItems.complete(ctx.agentId, a.work_item_id, { report_text: a.report_text, completed_by: 'agent', ...AUTHORITY }),
      },
      logger,
    ),
    defineTool(
      {
        name: 'attach_plan',
        class: 'write',
        description:
          "Attach a plan file to an open work item (its plan_artifact: path, hash, size, preview). The path is relative to the workspace " +
          '(workspace_id, default the active workspace) or absolute inside one of your workspaces. With text, the file is written first ' +
          '(created or replaced, parent directories created; only inside the workspace), then attached.',
        args: z.strictObject({
          work_item_id: WorkItemId,
          path: z.string().min(1).describe('the plan file, e.g. plans/release.md'),
          workspace_id: z.string().min(1).optional().describe('agent_home or a ws_... id; default the active workspace'),
          text: z.string().optional().describe('the plan to write to the file before attaching it'),
        }),
        run: (ctx, { work_item_id, ...plan }) => workItems.attachPlan(ctx.agentId, work_item_id, { ...plan, ...AUTHORITY }),
      },
      logger,
    ),
  ];
}

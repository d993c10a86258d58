/**
 * Work item routes (spec "Control plane" work-items rows, "Work item PATCH rules";
 * docs/control-plane-api.md#work-items).
 */
import type { Services } from '../../services.js';
import { defineRoute, type AnyRoute } from '../route.js';
import {
  AgentIdParams,
  CompleteWorkItemBody,
  CreateWorkItemBody,
  PatchWorkItemBody,
  PickWorkItemBody,
  PickWorkItemResponse,
  WorkItem,
  WorkItemListOrArray,
  WorkItemListQuery,
  WorkItemParams,
} from '../schemas/index.js';

const tags = ['work-items'];

export function workItemRoutes(s: Services): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/agents/:id/work-items',
      auth: 'read',
      tags,
      summary: "The agent's work items, oldest first",
      description:
        '`?limit=N` (the real system\'s form, which the Holon web GUI sends) answers a bare array of at most N items, open ones first, newest first; without it `{ok, work_items}` with every item, oldest first.',
      params: AgentIdParams,
      query: WorkItemListQuery,
      responses: { 200: { description: 'Work items', schema: WorkItemListOrArray } },
      handler: ({ params, query }) =>
        query.limit === undefined ? { ok: true, work_items: s.workItems.list(params.id) } : s.workItems.recent(params.id, query.limit),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/agents/:id/work-items/:work_item_id',
      auth: 'read',
      tags,
      summary: 'One work item (404 work_item_not_found)',
      params: WorkItemParams,
      responses: { 200: { description: 'Work item', schema: WorkItem } },
      handler: ({ params }) => s.workItems.get(params.id, params.work_item_id),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/control/agents/:id/work-items',
      errors: { 400: ['empty_objective', 'plan_file_not_found', 'plan_file_not_allowed', 'plan_too_large'] },
      bodyExample: { objective: 'Ship 0.2.0: changelog, version bump, tag' },
      auth: 'control',
      tags,
      summary: 'Create a durable work item (state open, plan_status draft, revision 1)',
      description: 'A legacy_inline_plan is written to a file in the agent home and attached as plan_artifact; 400 plan_too_large when over the limit.',
      params: AgentIdParams,
      body: CreateWorkItemBody,
      responses: { 201: { description: 'Created', schema: WorkItem } },
      handler: ({ params, body, reply }) => {
        const item = s.workItems.create(params.id, body);
        reply.code(201);
        return item;
      },
    }),
    defineRoute({
      method: 'PATCH',
      url: '/api/control/agents/:id/work-items/:work_item_id',
      errors: { 400: ['empty_update', 'recheck_requires_blocker'], 409: ['work_item_not_open'] },
      bodyExample: { plan_status: 'ready', blocked_by: 'waiting for the CI run of PR 88' },
      auth: 'control',
      tags,
      summary: 'Update objective, plan_status, todo_list, blocked_by, recheck_after or plan_artifact; revision + 1',
      description:
        '409 work_item_not_open on a completed item; 400 empty_update, recheck_requires_blocker, empty_objective, plan_file_not_found, plan_file_not_allowed, plan_too_large; 404 workspace_not_found for an unknown plan workspace.',
      params: WorkItemParams,
      body: PatchWorkItemBody,
      responses: { 200: { description: 'Updated work item', schema: WorkItem } },
      handler: ({ params, body }) => s.workItems.update(params.id, params.work_item_id, body),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/control/agents/:id/work-items/:work_item_id/pick',
      errors: { 409: ['work_item_not_open'] },
      bodyExample: { reason: 'the release is due today' },
      auth: 'control',
      tags,
      summary: "Make the work item the agent's current focus",
      description:
        'switch_kind initial_pick | same_work_item | focus_switch; current_focus_mode is inspection when the item is not runnable (blocked or waiting for the operator), with a warning. 409 work_item_not_open on a completed item.',
      params: WorkItemParams,
      body: PickWorkItemBody,
      bodyOptional: true,
      responses: { 200: { description: 'Focus transition', schema: PickWorkItemResponse } },
      handler: ({ params, body }) => s.workItems.pick(params.id, params.work_item_id, body),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/control/agents/:id/work-items/:work_item_id/complete',
      errors: { 400: ['empty_report'], 409: ['work_item_not_open'] },
      bodyExample: { report_text: 'Tagged v0.2.0; the changelog lists 14 changes' },
      auth: 'control',
      tags,
      summary: 'Complete the work item with a report (also the result brief); revision + 1',
      description:
        '400 empty_report for a blank report; 409 work_item_not_open when already completed. A legacy `completing` record is finalised. The completion intent (completed_by operator, the result brief id, the plan hash) is stored as `completion` and carried by work_item_completed.',
      params: WorkItemParams,
      body: CompleteWorkItemBody,
      responses: { 200: { description: 'Completed work item', schema: WorkItem } },
      handler: ({ params, body }) => s.workItems.complete(params.id, params.work_item_id, { ...body, completed_by: 'operator' }),
    }),
  ];
}

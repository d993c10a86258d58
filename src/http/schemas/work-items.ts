/** Work item schemas (spec WorkItem, PlanArtifact, PickWorkItemResponse; CONTRACT.md section 8). */
import { z } from 'zod';
import { PLAN_STATUSES, READINESS, TODO_STATES } from '../../runtime/work-item-records.js';
import { AuthorityClass } from './common.js';

export const WorkItemParams = z.object({
  id: z.string().min(1).openapi({ example: 'main' }),
  work_item_id: z.string().min(1).openapi({ example: 'wi_01J0000000000000000000000' }),
});

const PlanStatus = z.enum(PLAN_STATUSES);
const Readiness = z.enum(READINESS).openapi('WorkItemReadiness');

export const TodoItem = z
  .strictObject({
    text: z.string().trim().min(1, 'todo text must not be empty'),
    state: z.enum(TODO_STATES),
  })
  .openapi('WorkItemTodo');

export const PlanArtifact = z
  .object({
    path: z.string(),
    hash: z.string(),
    bytes: z.number().int().min(0),
    updated_at: z.string(),
    preview: z.string(),
    preview_complete: z.boolean(),
    owner_agent_id: z.string().optional(),
    relative_path: z.string().optional(),
    workspace_alias: z.string().nullable().optional(),
    workspace_id: z.string().optional(),
  })
  .openapi('PlanArtifact');

export const WorkItem = z
  .object({
    id: z.string(),
    agent_id: z.string(),
    objective: z.string(),
    state: z.enum(['open', 'completed', 'completing']).openapi({
      description: '`open` or `completed`; `completing` only in legacy records, which POST complete finalises',
    }),
    plan_status: PlanStatus,
    created_at: z.string(),
    updated_at: z.string(),
    blocked_by: z.string().nullable(),
    plan_artifact: PlanArtifact.nullable(),
    recheck_at: z.string().nullable(),
    recheck_consumed_at: z.string().nullable(),
    result_summary: z.string().nullable(),
    revision: z.number().int().min(0),
    todo_list: z.array(TodoItem),
    workspace_id: z.string(),
  })
  .openapi('WorkItem');

export const WorkItemList = z.object({ ok: z.literal(true), work_items: z.array(WorkItem) }).openapi('WorkItemList');

export const CreateWorkItemBody = z
  .looseObject({ objective: z.string(), authority_class: AuthorityClass })
  .openapi('CreateWorkItemRequest', { description: 'objective must be non-empty after trimming (else 400 empty_objective).' });

/** Upper bound of recheck_after (100 years), so recheck_at stays a valid date. */
export const MAX_RECHECK_AFTER_MS = 100 * 365 * 24 * 3600 * 1000;

export const PatchWorkItemBody = z
  .strictObject({
    objective: z.string().optional(),
    plan_status: PlanStatus.optional(),
    todo_list: z.array(TodoItem).optional(),
    blocked_by: z.string().nullable().optional(),
    recheck_after: z.number().int().min(0).max(MAX_RECHECK_AFTER_MS).optional(),
    authority_class: AuthorityClass,
  })
  .openapi('PatchWorkItemRequest', {
    description:
      'Any of the fields; an update with none of objective, plan_status, todo_list, blocked_by, recheck_after is 400 empty_update. blocked_by: a string sets the blocker, null (or a blank string) clears it and cancels a pending recheck, omitted leaves it unchanged. recheck_after (ms) needs a non-empty blocker (400 recheck_requires_blocker); it sets recheck_at = now + recheck_after and clears recheck_consumed_at.',
  });

export const PickWorkItemBody = z
  .strictObject({ reason: z.string().nullable().optional(), authority_class: AuthorityClass })
  .openapi('PickWorkItemRequest');

export const CompleteWorkItemBody = z
  .strictObject({ report_text: z.string(), authority_class: AuthorityClass })
  .openapi('CompleteWorkItemRequest');

export const PickWorkItemResponse = z
  .object({
    current_work_item: WorkItem,
    current_work_item_id: z.string(),
    previous_work_item: WorkItem.nullable(),
    transition: z.object({
      current_work_item_id: z.string(),
      current_readiness: Readiness,
      switch_kind: z.enum(['initial_pick', 'same_work_item', 'focus_switch']),
      current_focus_mode: z.enum(['runnable', 'inspection']),
      previous_readiness: Readiness.nullable(),
      previous_work_item_id: z.string().nullable(),
      reason: z.string().nullable(),
      warnings: z.array(z.object({ code: z.string(), message: z.string() })),
    }),
  })
  .openapi('PickWorkItemResponse');

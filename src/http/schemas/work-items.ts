/**
 * Work item schemas (spec WorkItem, PlanArtifact, PickWorkItemResponse;
 * docs/control-plane-api.md#work-items).
 */
import { z } from 'zod';
import { PLAN_MAX_BYTES, PLAN_PREVIEW_BYTES, PLAN_TEXT_MAX_BYTES } from '../../runtime/workspaces/index.js';
import { PLAN_STATUSES, READINESS, TODO_STATES } from '../../runtime/work-items/index.js';
import { AuthorityClass, QueryInt } from './common.js';

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
    path: z.string().openapi({ description: 'Absolute real path of the plan file (symlinks resolved), inside the workspace' }),
    hash: z.string().openapi({ description: '`sha256:<hex>` of the content', example: 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08' }),
    bytes: z.number().int().min(0).openapi({ description: 'Size of the content' }),
    updated_at: z.string().openapi({ description: "The file's modification time (mtime) as last read" }),
    preview: z.string().openapi({ description: `The first ${PLAN_PREVIEW_BYTES} bytes of the content, cut back to a UTF-8 character boundary` }),
    preview_complete: z.boolean().openapi({ description: 'Whether the preview is the whole file' }),
    owner_agent_id: z.string().openapi({ description: 'The agent whose workspace holds the file' }),
    relative_path: z.string().openapi({ description: 'Path relative to the workspace root, `/`-separated' }),
    workspace_alias: z.string().nullable().openapi({ description: 'Always null: workspaces have no aliases yet' }),
    workspace_id: z.string().openapi({ description: '`agent_home` or the `ws_` id of an attached workspace' }),
    attached_at: z.string().openapi({ description: 'When the file became the plan' }),
    stale: z.boolean().openapi({
      description: 'True when the file can no longer be read safely (deleted, no longer a regular file inside its workspace, over the size cap, workspace detached); the other fields are then as last read',
    }),
  })
  .openapi('PlanArtifact', {
    description:
      `A plan file inside one of the agent's workspaces, set with PATCH plan_artifact, by the agent's attach_plan tool or from legacy_inline_plan on create (null: no plan). Captured when attached; every read stats the file and, when its size, mtime, ctime or inode changed, reads it again (at most ${PLAN_MAX_BYTES} bytes), so hash, bytes, preview and updated_at describe the current content. Reads never change the record or append events.`,
  });

export const Completion = z
  .object({
    result_summary: z.string().nullable().openapi({ description: 'The report the item was completed with (a finalised legacy record keeps its summary)' }),
    completed_by: z.enum(['operator', 'agent']).openapi({ description: '`operator`: POST complete (control plane, CLI); `agent`: the complete_work_item tool' }),
    completed_at: z.string(),
    authority_class: z.string().nullable(),
    result_brief_id: z.string().nullable().openapi({ description: 'The result brief made from the report; null when a legacy record was finalised without one' }),
    plan_hash: z.string().nullable().openapi({ description: 'Hash of the plan artifact at completion, as last read; null without a plan' }),
  })
  .openapi('WorkItemCompletion', {
    description:
      'The completion intent bound when the item was completed (POST complete or the complete_work_item tool); null while open, and for items completed before completion intents were recorded.',
  });

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
    completion: Completion.nullable(),
  })
  .openapi('WorkItem', { description: '`legacy_inline_plan` is write-only: it never appears in a response or an event.' });

export const WorkItemList = z.object({ ok: z.literal(true), work_items: z.array(WorkItem) }).openapi('WorkItemList');

/** Largest `limit` of the list's array form. */
export const WORK_ITEMS_LIMIT_MAX = 1000;

export const WorkItemListQuery = z.object({
  limit: QueryInt.pipe(z.number().int().min(1).max(WORK_ITEMS_LIMIT_MAX))
    .optional()
    .openapi({
      description: `With limit (1..${WORK_ITEMS_LIMIT_MAX}) the answer is the real system's list form: a bare array of at most limit items, open ones first, newest first. Without it: {ok, work_items}, every item, oldest first.`,
    }),
});

export const WorkItemListOrArray = z
  .union([WorkItemList, z.array(WorkItem)])
  .openapi('WorkItemListResponse', { description: '{ok, work_items} without `limit`; a bare array of work items with `limit`' });

export const CreateWorkItemBody = z
  .looseObject({
    objective: z.string(),
    legacy_inline_plan: z.string().nullable().optional().openapi({
      description: `Write-only. A non-blank plan is written to <agent home>/plans/<work_item_id>.md (mode 0600) and attached as plan_artifact (workspace agent_home); at most ${PLAN_TEXT_MAX_BYTES} bytes (else 400 plan_too_large). Never returned.`,
    }),
    authority_class: AuthorityClass,
  })
  .openapi('CreateWorkItemRequest', { description: 'objective must be non-empty after trimming (else 400 empty_objective).' });

export const PlanLocationBody = z
  .strictObject({
    path: z.string().min(1).openapi({
      description: 'Relative to the workspace (`..` must not leave it), or absolute inside one of the agent\'s workspaces; the real path (symlinks followed) must stay inside',
      example: 'plans/release.md',
    }),
    workspace_id: z.string().min(1).optional().openapi({ description: 'agent_home or a ws_ id (default: the active workspace; unknown: 404 workspace_not_found)' }),
  })
  .openapi('PlanLocation');

/** Upper bound of recheck_after (100 years), so recheck_at stays a valid date. */
export const MAX_RECHECK_AFTER_MS = 100 * 365 * 24 * 3600 * 1000;

export const PatchWorkItemBody = z
  .strictObject({
    objective: z.string().optional(),
    plan_status: PlanStatus.optional(),
    todo_list: z.array(TodoItem).optional(),
    blocked_by: z.string().nullable().optional(),
    recheck_after: z.number().int().min(0).max(MAX_RECHECK_AFTER_MS).optional(),
    plan_artifact: PlanLocationBody.nullable().optional(),
    authority_class: AuthorityClass,
  })
  .openapi('PatchWorkItemRequest', {
    description:
      'Any of the fields; an update with none of objective, plan_status, todo_list, blocked_by, recheck_after, plan_artifact is 400 empty_update. blocked_by: a string sets the blocker, null (or a blank string) clears it and cancels a pending recheck, omitted leaves it unchanged. recheck_after (ms) needs a non-empty blocker (400 recheck_requires_blocker); it sets recheck_at = now + recheck_after and clears recheck_consumed_at. ' +
      `plan_artifact {path, workspace_id?} attaches that file as the plan, null detaches it. Refused with 400 and nothing changed: plan_file_not_found (missing), plan_file_not_allowed (outside every workspace, through .. or a symlink, a directory or special file), plan_too_large (over ${PLAN_MAX_BYTES} bytes).`,
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

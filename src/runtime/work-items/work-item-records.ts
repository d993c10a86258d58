/**
 * The work item record (spec WorkItem, PickWorkItemResponse; docs/control-plane-api.md#work-items):
 * its types, the readiness rule, and the mapping from a `work_items` row to the public record.
 */
import { isoAt, type AuthorityClass } from '../../core/index.js';
import { capturedArtifact, parseStoredPlan, type PlanArtifact, type PlanLocation } from '../workspaces/index.js';

export const WORK_ITEM_STATES = ['open', 'completing', 'completed'] as const;
export type WorkItemState = (typeof WORK_ITEM_STATES)[number];
export const PLAN_STATUSES = ['draft', 'ready', 'needs_input'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];
export const TODO_STATES = ['pending', 'in_progress', 'completed'] as const;
export type TodoState = (typeof TODO_STATES)[number];
export const READINESS = ['runnable', 'waiting_for_operator', 'blocked', 'completed'] as const;
export type Readiness = (typeof READINESS)[number];
export type SwitchKind = 'initial_pick' | 'same_work_item' | 'focus_switch';
export type FocusMode = 'runnable' | 'inspection';

export interface TodoItem {
  text: string;
  state: TodoState;
}

/** Who completed a work item: the operator (control-plane route, CLI) or the agent (its tool). */
export type CompletedBy = 'operator' | 'agent';

/**
 * The completion intent bound when a work item is completed (spec "States and transitions /
 * Work item": complete "binds the completion intent"): what it was completed with, by whom, when.
 */
export interface Completion {
  result_summary: string | null;
  completed_by: CompletedBy;
  completed_at: string;
  authority_class: AuthorityClass | null;
  /** The result brief made from the report; null when a legacy record was finalised without one. */
  result_brief_id: string | null;
  /** Hash of the plan artifact at completion (as last read), null without a plan. */
  plan_hash: string | null;
}

/** The public WorkItem record (spec "WorkItem"; `legacy_inline_plan` is write-only, never shown). */
export interface WorkItem {
  id: string;
  agent_id: string;
  objective: string;
  state: WorkItemState;
  plan_status: PlanStatus;
  created_at: string;
  updated_at: string;
  blocked_by: string | null;
  plan_artifact: PlanArtifact | null;
  recheck_at: string | null;
  recheck_consumed_at: string | null;
  result_summary: string | null;
  revision: number;
  todo_list: TodoItem[];
  workspace_id: string;
  /** Null while open, and for items completed before completion intents were recorded (migration 019). */
  completion: Completion | null;
}

/** The slim entry of the agent state page. */
export interface WorkItemSlim {
  id: string;
  objective: string;
  state: WorkItemState;
  plan_status: PlanStatus;
  readiness: Readiness;
  blocked_by: string | null;
  revision: number;
  updated_at: string;
}

export interface CreateWorkItemInput {
  objective: string;
  /** Write-only: written to `<agent home>/plans/<work_item_id>.md` and attached as the plan artifact. */
  legacy_inline_plan?: string | null | undefined;
  authority_class?: AuthorityClass | null | undefined;
}

export interface WorkItemPatch {
  objective?: string | undefined;
  plan_status?: PlanStatus | undefined;
  todo_list?: TodoItem[] | undefined;
  /** A string sets the blocker, null clears it, undefined leaves it unchanged. */
  blocked_by?: string | null | undefined;
  /** Milliseconds from now; needs a non-empty blocker after this update. */
  recheck_after?: number | undefined;
  /**
   * A location attaches that file as the plan (runtime/workspaces/plan-artifacts.ts), null detaches
   * the plan.
   */
  plan_artifact?: PlanLocation | null | undefined;
  authority_class?: AuthorityClass | null | undefined;
}

export interface AttachPlanInput extends PlanLocation {
  /** When given, written to the file first (inside the workspace only), then attached. */
  text?: string | undefined;
  authority_class?: AuthorityClass | null | undefined;
}

export interface PickInput {
  reason?: string | null | undefined;
  authority_class?: AuthorityClass | null | undefined;
}

export interface CompleteInput {
  report_text: string;
  /** Default `operator`: the routes and the CLI are the operator's; the agent's tool says `agent`. */
  completed_by?: CompletedBy | undefined;
  authority_class?: AuthorityClass | null | undefined;
}

export interface Warning {
  code: string;
  message: string;
}

export interface PickResult {
  current_work_item: WorkItem;
  current_work_item_id: string;
  previous_work_item: WorkItem | null;
  transition: {
    current_work_item_id: string;
    current_readiness: Readiness;
    switch_kind: SwitchKind;
    current_focus_mode: FocusMode;
    previous_readiness: Readiness | null;
    previous_work_item_id: string | null;
    reason: string | null;
    warnings: Warning[];
  };
}

/** A `work_items` row (migrations 002 and 019). */
export interface WorkItemRow {
  work_item_id: string;
  agent_id: string;
  objective: string;
  state: WorkItemState;
  plan_status: PlanStatus;
  blocked_by: string | null;
  plan_artifact: string | null;
  recheck_at: number | null;
  recheck_consumed_at: string | null;
  result_summary: string | null;
  revision: number;
  todo_list: string;
  workspace_id: string;
  created_at: string;
  updated_at: string;
  completion: string | null;
}

/**
 * Readiness (docs/control-plane-api.md#work-items): completed > blocked > waiting_for_operator >
 * runnable.
 */
export function readinessOf(item: Pick<WorkItem, 'state' | 'blocked_by' | 'plan_status'>): Readiness {
  if (item.state !== 'open') return 'completed';
  if (item.blocked_by !== null && item.blocked_by.trim() !== '') return 'blocked';
  if (item.plan_status === 'needs_input') return 'waiting_for_operator';
  return 'runnable';
}

/** The record as stored; its plan artifact as captured (the service refreshes it on reads). */
export function fromRow(row: WorkItemRow): WorkItem {
  const plan = parseStoredPlan(row.plan_artifact);
  return {
    id: row.work_item_id,
    agent_id: row.agent_id,
    objective: row.objective,
    state: row.state,
    plan_status: row.plan_status,
    created_at: row.created_at,
    updated_at: row.updated_at,
    blocked_by: row.blocked_by,
    plan_artifact: plan ? capturedArtifact(plan) : null,
    recheck_at: row.recheck_at === null ? null : isoAt(row.recheck_at),
    recheck_consumed_at: row.recheck_consumed_at,
    result_summary: row.result_summary,
    revision: row.revision,
    todo_list: JSON.parse(row.todo_list) as TodoItem[],
    workspace_id: row.workspace_id,
    completion: row.completion ? (JSON.parse(row.completion) as Completion) : null,
  };
}

/** The slim state-page entry of a record. */
export function slimOf(item: WorkItem): WorkItemSlim {
  return {
    id: item.id,
    objective: item.objective,
    state: item.state,
    plan_status: item.plan_status,
    readiness: readinessOf(item),
    blocked_by: item.blocked_by,
    revision: item.revision,
    updated_at: item.updated_at,
  };
}

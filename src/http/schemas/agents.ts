import { z } from 'zod';
import type { TreeNode } from '../../runtime/views/index.js';
import { ActiveWorkspaceEntry, AgentIdentity, AgentModelState, Closure, LifecycleHint, SchedulingPosture, WaitingReason, WorkspaceView } from './agent-facets.js';
import { AuthorityClass, QueryInt } from './common.js';
import { CurrentTurn } from './conversation.js';
import { PolicyLayerSchema, PolicyRuleSchema } from '../../config/index.js';
import { POLICY_DECISIONS, TOOL_CLASSES, TRUST_LEVELS } from '../../core/index.js';
import { APPROVAL_STATUSES, REMEMBER_SCOPES } from '../../runtime/approvals/index.js';
import { USAGE_GROUPINGS } from '../../runtime/usage/index.js';
import { McpAgentServer } from './runtime.js';
import { SandboxState } from './tasks.js';

export const AgentIdParams = z.object({ id: z.string().min(1).openapi({ example: 'main' }) });

const AgentStatus = z.enum(['idle', 'running', 'stopped', 'deleting']);
const Visibility = z.enum(['public', 'private']);

export const AgentListEntry = z
  .object({
    agent_id: z.string(),
    display_name: z.string(),
    status: AgentStatus,
    visibility: Visibility,
    parent_agent_id: z.string().nullable(),
    is_default: z.boolean(),
    identity: AgentIdentity,
    scheduling_posture: SchedulingPosture,
    lifecycle: LifecycleHint,
    pending: z.number().int().openapi({ description: 'queued messages (as pending_messages elsewhere)' }),
    current_run_id: z.string().nullable().openapi({ description: 'the turn in progress, or null' }),
    waiting_reason: WaitingReason.nullable(),
    model: AgentModelState,
    active_workspace_entry: ActiveWorkspaceEntry.nullable(),
  })
  .openapi('AgentListEntry');

export const AgentList = z
  .array(AgentListEntry)
  .openapi('AgentList', { description: 'a bare array of entries, as the real system answers (docs/holon-gui.md)' });

export const AgentSummary = z
  .object({
    agent_id: z.string(),
    display_name: z.string(),
    status: AgentStatus,
    incarnation: z.number().int(),
    model: z.string(),
    visibility: Visibility,
    parent_agent_id: z.string().nullable(),
    is_default: z.boolean(),
    pending_messages: z.number().int(),
    current_run: CurrentTurn.nullable(),
    last_event_seq: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
    identity: AgentIdentity,
    agent: z.object({
      id: z.string(),
      status: AgentStatus,
      pending: z.number().int(),
      current_run_id: z.string().nullable(),
      current_turn_id: z.string().nullable(),
      current_work_item_id: z.string().nullable().openapi({ description: 'the last picked work item (current focus)' }),
      last_brief_at: z.string().nullable(),
      attached_workspaces: z.array(z.string()),
      active_workspace_entry: ActiveWorkspaceEntry.nullable(),
    }),
    closure: Closure,
    scheduling_posture: SchedulingPosture,
    lifecycle: LifecycleHint,
    active_task_count: z.number().int(),
  })
  .openapi('AgentSummary');

export const AgentDetail = z
  .object({
    agent_id: z.string(),
    display_name: z.string(),
    identity: AgentIdentity,
    status: AgentStatus,
    model: z.string(),
    model_override: z.string().nullable(),
    template: z.string().nullable(),
    parent_agent_id: z.string().nullable(),
    lineage: z.array(z.string()),
    visibility: Visibility,
    is_default: z.boolean(),
    home_dir: z.string(),
    bootstrap: z.object({ complete: z.boolean(), pending_steps: z.array(z.string()) }),
    pending_messages: z.number().int(),
    last_event_seq: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('AgentDetail');

const WaitingIntent = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('task_result'), task_id: z.string(), task_kind: z.string(), status: z.string(), summary: z.string().nullable() }),
    z.object({ kind: z.literal('timer'), timer_id: z.string(), next_fire_at: z.string().nullable(), interval_ms: z.number().int().nullable(), summary: z.string().nullable() }),
    z.object({ kind: z.literal('operator_input'), work_item_id: z.string(), objective: z.string() }),
    z.object({ kind: z.literal('blocked_work_item'), work_item_id: z.string(), objective: z.string(), blocked_by: z.string().nullable() }),
    z.object({ kind: z.literal('approval'), approval_id: z.string(), turn_id: z.string(), tool: z.string(), expires_at: z.string() }),
  ])
  .openapi('WaitingIntent', {
    description:
      'What the agent waits for, derived from live state: a tool call waiting for the operator\'s approval, an active task\'s result, an active timer, operator input on a work item whose plan needs it, a blocked work item.',
  });

// --- usage (docs/context.md#usage-and-cost) ---------------------------------------------------

const count = z.number().int();
const UsageTotals = z
  .object({
    input_tokens: count.openapi({ description: 'the whole prompt, cache reads and writes included' }),
    output_tokens: count.openapi({ description: 'reasoning included' }),
    cache_read_tokens: count,
    cache_write_tokens: count,
    reasoning_tokens: count,
    tokens: count.openapi({ description: 'input + output' }),
    cost_usd: z.number().nullable().openapi({ description: 'USD of the priced rounds; null when none of them has a price (unknown, not free)' }),
    rounds: count,
    turns: count.openapi({ description: 'turns counted in the group of their first recorded round' }),
    unpriced_rounds: count.openapi({ description: 'rounds of a model without a price, left out of cost_usd' }),
    estimated_rounds: count.openapi({ description: 'rounds whose input tokens the run loop estimated (the provider reported none)' }),
  })
  .openapi('UsageTotals');
const UsageRow = UsageTotals.extend({
  key: z.string().nullable().openapi({ description: 'the UTC day (YYYY-MM-DD), the work item id (null: no work item in focus) or the model ref' }),
}).openapi('UsageRow');

/** A UTC calendar day that exists. */
const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'a day YYYY-MM-DD', abort: true })
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'no such day');

export const UsageQuery = z
  .object({
    by: z.enum(USAGE_GROUPINGS).default('day').openapi({ description: 'group by UTC day (default), work item or model' }),
    from: Day.optional().openapi({ description: 'the first UTC day counted (inclusive)' }),
    to: Day.optional().openapi({ description: 'the last UTC day counted (inclusive)' }),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ['to'], message: 'must not be before from' });

export const UsageResponse = z
  .object({
    agent_id: z.string(),
    by: z.enum(USAGE_GROUPINGS),
    currency: z.literal('USD'),
    from: z.string().nullable(),
    to: z.string().nullable(),
    rows: z.array(UsageRow).openapi({ description: 'by day in day order; by work item or model most tokens first' }),
    total: UsageTotals.openapi({ description: 'the sum of the rows' }),
  })
  .openapi('UsageResponse');

const UsageSection = z
  .object({
    today: UsageRow.openapi({ description: "today's UTC day, whole" }),
    total: UsageTotals.openapi({ description: 'every kept day (400)' }),
    budgets: z.object({
      max_tokens_per_turn: count,
      max_tokens_per_day: count,
      max_cost_per_day: z.number(),
      today_tokens: count.openapi({ description: 'what max_tokens_per_day counts now: today since counted_since' }),
      today_cost_usd: z.number().openapi({ description: 'what max_cost_per_day counts now' }),
      counted_since: z.string().nullable().openapi({ description: 'the resume (control start) today\'s count starts at; null: the start of the UTC day' }),
    }),
    warnings: z.array(z.string()).openapi({ description: '[models.pricing] keys that name no model svc knows of' }),
  })
  .openapi('UsageSection');

export const AgentState = z
  .object({
    agent: AgentSummary.extend({
      model: AgentModelState.openapi({ description: 'the model state (the real system\'s state page); the effective model id is effective_model' }),
    }).openapi('AgentStateSummary'),
    session: z.object({
      current_run: CurrentTurn.nullable(),
      current_run_id: z.string().nullable(),
      pending_count: z.number().int(),
      pending_by_priority: z.record(z.string(), z.number().int()),
      last_event_seq: z.number().int(),
    }),
    tasks: z.array(z.unknown()),
    timers: z.array(z.unknown()),
    work_items: z.array(z.unknown()),
    waiting_intents: z.array(WaitingIntent),
    approvals: z
      .array(z.object({ approval_id: z.string(), turn_id: z.string(), tool: z.string(), classes: z.array(z.string()), trust: z.string(), requested_at: z.string(), expires_at: z.string() }))
      .openapi({ description: 'pending approval requests, newest first (at most 20)' }),
    external_triggers: z.array(z.unknown()),
    workspaces: z.object({
      active_workspace_id: z.string(),
      occupancy: z.array(z.object({ workspace_id: z.string(), path: z.string(), active: z.boolean() })),
      registry: z.array(z.unknown()),
    }),
    workspace: z.object({ workspaces: z.array(WorkspaceView) }).openapi({ description: 'the same registry in the real system\'s shape' }),
    sandbox: SandboxState.openapi({ description: "whether this agent's commands run in the command sandbox, and why not" }),
    mcp_servers: z.array(McpAgentServer).openapi({ description: 'the MCP servers this agent gets, with their state and the number of tools they offer' }),
    usage: UsageSection.openapi({ description: 'tokens and cost today and in all, the budgets in force and what they count (docs/context.md#budgets)' }),
  })
  .openapi('AgentState');

export const AgentTreeNode: z.ZodType<TreeNode> = z
  .lazy(() =>
    z.object({
      agent_id: z.string(),
      display_name: z.string(),
      status: z.string(),
      visibility: z.string(),
      parent_agent_id: z.string().nullable(),
      lineage: z.array(z.string()),
      supervision: z
        .object({
          task_id: z.string(),
          status: z.string(),
          workspace_mode: z.string(),
          delegation_id: z.string(),
          worktree_path: z.string().nullable(),
        })
        .nullable()
        .openapi({ description: 'for a supervised child: the parent task supervising it (kind child_agent), else null' }),
      children: z.array(AgentTreeNode),
    }),
  )
  .openapi('AgentTreeNode');

export const AgentTree = z.object({ ok: z.literal(true), agents: z.array(AgentTreeNode) });

export const CreateAgentBody = z
  .looseObject({
    template: z.string().min(1).nullable().optional(),
    display_name: z.string().optional(),
    parent_agent_id: z.string().nullable().optional(),
    visibility: Visibility.optional(),
    authority_class: AuthorityClass,
  })
  .openapi('CreateAgentRequest');

export const CreateAgentResponse = z.object({ ok: z.literal(true), created: z.boolean(), agent: AgentDetail });

export const RenameBody = z.looseObject({ name: z.string().max(256, 'a display name is at most 256 characters'), authority_class: AuthorityClass }).openapi('RenameAgentRequest');

export const RepairResponse = z.object({
  ok: z.literal(true),
  agent_id: z.string(),
  completed: z.array(z.string()),
  pending: z.array(z.string()),
  error: z.string().nullable(),
  agent: AgentDetail,
});

export const Job = z
  .object({
    job_id: z.string(),
    kind: z.string(),
    agent_id: z.string().nullable(),
    status: z.enum(['pending', 'running', 'completed', 'failed']),
    phase: z.string().nullable(),
    progress: z.record(z.string(), z.unknown()).nullable(),
    result: z.record(z.string(), z.unknown()).nullable(),
    error: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    id: z.string().openapi({ description: 'job_id (the real system\'s name)' }),
    last_error: z.string().nullable().openapi({ description: 'error (the real system\'s name)' }),
    completed_at: z.string().nullable().openapi({ description: 'when the job completed or failed' }),
  })
  .openapi('Job');

export const JobResponse = z.object({ ok: z.literal(true), job: Job });

export const DeletionResponse = z
  .object({
    ok: z.literal(true),
    job: Job.extend({ deletion_id: z.string().openapi({ description: 'job_id (the real system\'s name)' }) }),
    created: z.boolean().openapi({ description: 'DELETE: false when the request joined a deletion already in flight' }).optional(),
    identity: z.union([AgentIdentity, z.object({ agent_id: z.string(), status: z.literal('deleted') })]).openapi({
      description: 'the agent\'s identity (status deleting while the job runs), or {agent_id, status: deleted} once it is gone',
    }),
  })
  .openapi('AgentDeletion');

export const DeleteQuery = z.object({
  cascade_private_children: z.enum(['true', 'false']).optional().transform((v) => v === 'true'),
});

/** The real system sends the flag in a JSON body: accepted beside the query. */
export const DeleteBody = z.looseObject({ cascade_private_children: z.boolean().optional() }).openapi('DeleteAgentRequest');

// --- tool policy and approvals (docs/security.md#tool-policy) -----------------------------------

// New instances: schemas made before the OpenAPI extension loaded (in config/) have no .openapi.
const Layer = z.strictObject(PolicyLayerSchema.shape).openapi('PolicyLayer', {
  description:
    '`classes`: trust level -> tool class -> allow|ask|deny; `rules`: tried in order, the first whose `tool`, `trust` and argument patterns match decides ' +
    '(`*` any run of characters except the shell control characters `;&|`$<>()` and newlines, `?` one, `\\` escapes); `limits`: the brake; `approval_timeout_s`.',
});

export const PolicyPatchBody = z
  .strictObject({
    classes: PolicyLayerSchema.shape.classes.unwrap().nullable().optional(),
    rules: z.array(PolicyRuleSchema).max(256).nullable().optional(),
    limits: PolicyLayerSchema.shape.limits.unwrap().nullable().optional(),
    approval_timeout_s: PolicyLayerSchema.shape.approval_timeout_s.unwrap().nullable().optional(),
  })
  .openapi('PolicyPatchRequest', { description: 'Each key present replaces that key of the agent\'s own layer; null removes it; absent keys stay.' });

const Decision = z.enum(POLICY_DECISIONS);
const EffectivePolicy = z
  .object({
    classes: z.record(z.enum(TRUST_LEVELS), z.record(z.enum(TOOL_CLASSES), Decision)),
    rules: z.array(PolicyRuleSchema.extend({ source: z.enum(['config', 'template', 'agent']) })),
    limits: z.object({
      turns_per_hour: z.number().int(),
      runtime_turns_in_a_row: z.number().int(),
      rounds_per_turn: z.number().int(),
      tool_calls_per_turn: z.number().int(),
      max_tokens_per_turn: z.number().int(),
      max_tokens_per_day: z.number().int(),
      max_cost_per_day: z.number(),
    }),
    approval_timeout_s: z.number().int(),
  })
  .openapi('EffectivePolicy');

export const PolicyView = z
  .object({
    ok: z.literal(true),
    agent_id: z.string(),
    effective: EffectivePolicy,
    layers: z.object({ config: Layer, template: z.object({ name: z.string(), layer: Layer }).nullable(), agent: Layer.nullable() }),
  })
  .openapi('AgentPolicy');

export const ApprovalParams = z.object({
  id: z.string().min(1).openapi({ example: 'main' }),
  approval_id: z.string().min(1).openapi({ example: 'apr_01J9ZQ4B7R8F3W2X5Y6Z7A8B9C' }),
});

export const ApprovalListQuery = z.object({
  status: z.enum(APPROVAL_STATUSES).optional().openapi({ description: 'only requests in this status' }),
  limit: QueryInt.pipe(z.number().int().min(1).max(1000)).optional().openapi({ description: 'most records returned (default 100)' }),
});

export const DecideApprovalBody = z
  .strictObject({
    decision: z.enum(['approve', 'deny']),
    remember: z.enum(REMEMBER_SCOPES).optional().openapi({ description: "'once' (default): this call; 'turn': this tool for the rest of the turn; 'always': an allow rule in the agent's policy" }),
    note: z.string().max(2000).nullable().optional().openapi({ description: 'told to the model with a denial; kept with the decision' }),
    // With remember 'always': the rule's argument patterns (default: any arguments).
    arguments: PolicyRuleSchema.shape.arguments,
  })
  .openapi('DecideApprovalRequest');

export const ApprovalRecord = z
  .object({
    approval_id: z.string(),
    agent_id: z.string(),
    turn_id: z.string(),
    tool_call_id: z.string(),
    tool: z.string(),
    arguments: z.record(z.string(), z.unknown()).openapi({ description: 'the call\'s arguments, secrets redacted' }),
    classes: z.array(z.enum(TOOL_CLASSES)),
    trust: z.enum(TRUST_LEVELS),
    tainted_by: z.object({ message_id: z.string(), kind: z.string(), origin: z.record(z.string(), z.unknown()), trust: z.enum(TRUST_LEVELS) }).nullable(),
    status: z.enum(APPROVAL_STATUSES),
    decision: z
      .object({ decision: z.enum(['approve', 'deny']), remember: z.enum(REMEMBER_SCOPES), note: z.string().nullable(), by: z.enum(['operator', 'timeout', 'cancelled']) })
      .nullable(),
    requested_at: z.string(),
    expires_at: z.string(),
    decided_at: z.string().nullable(),
  })
  .openapi('ApprovalRecord');

export const ApprovalList = z.object({ ok: z.literal(true), agent_id: z.string(), approvals: z.array(ApprovalRecord) });

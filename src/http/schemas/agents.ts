import { z } from 'zod';
import type { TreeNode } from '../../runtime/views/index.js';
import { ActiveWorkspaceEntry, AgentIdentity, AgentModelState, Closure, LifecycleHint, SchedulingPosture, WaitingReason, WorkspaceView } from './agent-facets.js';
import { AuthorityClass } from './common.js';
import { CurrentTurn } from './conversation.js';
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
  ])
  .openapi('WaitingIntent', {
    description:
      'What the agent waits for, derived from live state: an active task\'s result, an active timer, operator input on a work item whose plan needs it, a blocked work item.',
  });

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
    external_triggers: z.array(z.unknown()),
    workspaces: z.object({
      active_workspace_id: z.string(),
      occupancy: z.array(z.object({ workspace_id: z.string(), path: z.string(), active: z.boolean() })),
      registry: z.array(z.unknown()),
    }),
    workspace: z.object({ workspaces: z.array(WorkspaceView) }).openapi({ description: 'the same registry in the real system\'s shape' }),
    sandbox: SandboxState.openapi({ description: "whether this agent's commands run in the command sandbox, and why not" }),
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

/**
 * Schemas of the agent facets the real system (Holon) names and nests
 * (runtime/views/agent-facets.ts, runtime/views/agent-posture.ts): identity view, model state,
 * scheduling posture, closure, lifecycle hint, workspace entries.
 */
import { z } from 'zod';
import '../openapi.js';

export const AgentIdentity = z
  .object({
    agent_id: z.string(),
    incarnation: z.number().int(),
    created_at: z.string(),
    kind: z.enum(['default', 'named', 'child']),
    visibility: z.enum(['public', 'private']),
    ownership: z.enum(['self_owned', 'parent_supervised']),
    profile_preset: z.enum(['public_named', 'private_child']),
    is_default_agent: z.boolean(),
    status: z.enum(['active', 'deleting']).openapi({ description: 'the identity: active, or being deleted' }),
    parent_agent_id: z.string().nullable(),
    lineage_parent_agent_id: z.string().nullable(),
    delegated_from_task_id: z.string().nullable().openapi({ description: 'for a supervised child: the parent task supervising it' }),
  })
  .openapi('AgentIdentity');

export const AgentModelState = z
  .object({
    source: z.enum(['runtime_default', 'agent_override']),
    effective_model: z.string(),
    active_model: z.string().nullable(),
    requested_model: z.string().nullable(),
    override_model: z.string().nullable(),
    override_reasoning_effort: z.string().nullable().openapi({ description: 'always null: svc has no reasoning-effort setting' }),
    runtime_default_model: z.string(),
    effective_fallback_models: z.array(z.string()),
    fallback_active: z.boolean(),
  })
  .openapi('AgentModelState');

export const SchedulingPosture = z
  .object({
    posture: z.enum([
      'stopped',
      'active_turn',
      'has_queued_input',
      'has_runnable_work',
      'waiting_for_task',
      'waiting_for_external',
      'waiting_for_operator',
      'blocked',
      'idle',
    ]),
    reason: z.string(),
    run_id: z.string().nullable(),
    task_id: z.string().nullable(),
    work_item_id: z.string().nullable(),
  })
  .openapi('SchedulingPosture', { description: 'what the agent does next, derived from live state on every read' });

export const WaitingReason = z.enum(['awaiting_operator_input', 'awaiting_external_change', 'awaiting_task_result', 'awaiting_timer']);

export const Closure = z
  .object({
    outcome: z.enum(['completed', 'continuable', 'waiting']),
    runtime_posture: z.enum(['awake', 'sleeping']),
    waiting_reason: WaitingReason.nullable(),
  })
  .openapi('AgentClosure');

export const LifecycleHint = z
  .object({ accepts_external_messages: z.boolean(), operator_hint: z.string().nullable() })
  .openapi('AgentLifecycleHint');

const workspaceFields = {
  workspace_id: z.string(),
  workspace_alias: z.string().nullable(),
  workspace_anchor: z.string().openapi({ description: 'the workspace root' }),
  execution_root: z.string(),
  execution_root_id: z.string().openapi({ description: 'the workspace id (as file references use it)' }),
  cwd: z.string(),
  projection_kind: z.literal('canonical_root'),
};

export const ActiveWorkspaceEntry = z.object(workspaceFields).openapi('ActiveWorkspaceEntry');

export const WorkspaceView = z
  .object({ ...workspaceFields, is_active: z.boolean(), repo_name: z.string().nullable(), worktree: z.null() })
  .openapi('WorkspaceView');

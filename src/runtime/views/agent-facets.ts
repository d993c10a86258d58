/**
 * The parts of an agent's projections that the real system (Holon) names and nests: the identity
 * view, the model state, the workspace entries and the summary's `agent` object. Built here once
 * and reused by the list entry, the summary (status), the state page and the detail, so the Holon
 * web GUI reads the same facts wherever it looks (docs/holon-gui.md).
 */
import path from 'node:path';
import type { AgentRecord, AgentService } from '../agents/index.js';
import type { WorkspaceEntry } from '../workspaces/index.js';

export interface FacetDeps {
  agents: AgentService;
  tasks?: { supervisionOf(childId: string): { task_id: string } | null };
}

/**
 * The identity view: svc's `{agent_id, incarnation, created_at}` plus the real system's
 * classification (kind, ownership, profile preset, lifecycle status of the identity).
 */
export function agentIdentity(d: FacetDeps, a: AgentRecord) {
  const isDefault = a.agent_id === d.agents.defaultAgentId;
  const supervised = a.parent_agent_id !== null;
  return {
    agent_id: a.agent_id,
    incarnation: a.incarnation,
    created_at: a.created_at,
    kind: isDefault ? 'default' : supervised ? 'child' : 'named',
    visibility: a.visibility,
    ownership: supervised ? 'parent_supervised' : 'self_owned',
    profile_preset: a.visibility === 'private' ? 'private_child' : 'public_named',
    is_default_agent: isDefault,
    status: a.status === 'deleting' ? 'deleting' : 'active',
    parent_agent_id: a.parent_agent_id,
    lineage_parent_agent_id: a.parent_agent_id,
    delegated_from_task_id: supervised ? (d.tasks?.supervisionOf(a.agent_id)?.task_id ?? null) : null,
  };
}

/**
 * The identity an agent deletion reports: the agent's (status `deleting` while the job runs), or
 * `{agent_id, status: deleted}` once the agent is gone.
 */
export function deletionIdentity(d: FacetDeps, agentId: string) {
  const a = d.agents.find(agentId);
  return a ? agentIdentity(d, a) : { agent_id: agentId, status: 'deleted' as const };
}

/** The model state: which model runs the agent's turns and where that choice comes from. */
export function agentModelState(d: FacetDeps, a: AgentRecord) {
  const effective = d.agents.effectiveModel(a);
  return {
    source: a.model_override ? 'agent_override' : 'runtime_default',
    effective_model: effective,
    active_model: effective,
    requested_model: a.model_override,
    override_model: a.model_override,
    override_reasoning_effort: null,
    runtime_default_model: d.agents.effectiveModel({ ...a, model_override: null }),
    effective_fallback_models: [] as string[],
    fallback_active: false,
  };
}

/**
 * One workspace as the real system describes it. svc runs commands in the directory itself
 * (`canonical_root`); the execution root id is the workspace id, as file references use it.
 */
export function workspaceView(e: WorkspaceEntry) {
  return {
    workspace_id: e.workspace_id,
    workspace_alias: null,
    workspace_anchor: e.root,
    execution_root: e.path,
    execution_root_id: e.workspace_id,
    cwd: e.path,
    projection_kind: 'canonical_root',
    is_active: e.active,
    repo_name: e.kind === 'git' ? path.basename(e.root) : null,
    worktree: null,
  };
}

/** The active workspace entry of the list entry and the summary's `agent` object. */
export function activeWorkspaceEntry(registry: WorkspaceEntry[]) {
  const active = registry.find((e) => e.active);
  if (!active) return null;
  const { is_active: _active, repo_name: _repo, worktree: _worktree, ...entry } = workspaceView(active);
  return entry;
}

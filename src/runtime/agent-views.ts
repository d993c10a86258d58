/**
 * The public projections of an agent: list entry, summary (status), detail, tree node and the
 * bootstrap state page. Built from the services, shared by every route that returns an agent.
 */
import { BOOTSTRAP_STEPS, type AgentRecord, type AgentService } from './agents.js';
import type { EventLog } from '../events/event-log.js';
import type { MessageQueue } from './queue.js';

export interface ViewDeps {
  agents: AgentService;
  queue: MessageQueue;
  events: EventLog;
  /** The run loop's current turn of an agent (null when none runs). */
  runLoop: { scheduler: { currentRun(agentId: string): unknown } };
}

/** The resource services that contribute sections to the state page. */
export interface StateDeps extends ViewDeps {
  tasks: { stateFor(agentId: string): unknown[] };
  timers: { stateFor(agentId: string): unknown[] };
  workItems: { stateFor(agentId: string): unknown[] };
  triggers: { stateFor(agentId: string): unknown[] };
  workspaces: {
    stateSection(agentId: string): { active_workspace_id: string; occupancy: Array<{ workspace_id: string; path: string; active: boolean }>; registry: unknown[] };
  };
}

export function agentListEntry(d: ViewDeps, a: AgentRecord) {
  return {
    agent_id: a.agent_id,
    display_name: a.display_name,
    status: a.status,
    visibility: a.visibility,
    parent_agent_id: a.parent_agent_id,
    is_default: a.agent_id === d.agents.defaultAgentId,
  };
}

export function agentSummary(d: ViewDeps, a: AgentRecord) {
  return {
    agent_id: a.agent_id,
    display_name: a.display_name,
    status: a.status,
    incarnation: a.incarnation,
    model: d.agents.effectiveModel(a),
    visibility: a.visibility,
    parent_agent_id: a.parent_agent_id,
    is_default: a.agent_id === d.agents.defaultAgentId,
    pending_messages: d.queue.pending(a.agent_id),
    current_run: d.runLoop.scheduler.currentRun(a.agent_id),
    last_event_seq: d.events.head(a.agent_id),
    created_at: a.created_at,
    updated_at: a.updated_at,
  };
}

export function agentDetail(d: ViewDeps, a: AgentRecord) {
  return {
    agent_id: a.agent_id,
    display_name: a.display_name,
    identity: { agent_id: a.agent_id, incarnation: a.incarnation, created_at: a.created_at },
    status: a.status,
    model: d.agents.effectiveModel(a),
    model_override: a.model_override,
    template: a.template,
    parent_agent_id: a.parent_agent_id,
    lineage: d.agents.lineage(a),
    visibility: a.visibility,
    is_default: a.agent_id === d.agents.defaultAgentId,
    home_dir: d.agents.homeOf(a.agent_id),
    bootstrap: {
      complete: BOOTSTRAP_STEPS.every((s) => a.bootstrap[s]),
      pending_steps: BOOTSTRAP_STEPS.filter((s) => !a.bootstrap[s]),
    },
    pending_messages: d.queue.pending(a.agent_id),
    last_event_seq: d.events.head(a.agent_id),
    created_at: a.created_at,
    updated_at: a.updated_at,
  };
}

export interface TreeNode {
  agent_id: string;
  display_name: string;
  status: string;
  visibility: string;
  parent_agent_id: string | null;
  lineage: string[];
  children: TreeNode[];
}

/** Public roots with their children (public and private subagents), each with its lineage. */
export function agentTree(d: ViewDeps): TreeNode[] {
  const all = d.agents.list();
  const byParent = new Map<string | null, AgentRecord[]>();
  const ids = new Set(all.map((a) => a.agent_id));
  for (const a of all) {
    const parent = a.parent_agent_id && ids.has(a.parent_agent_id) ? a.parent_agent_id : null;
    byParent.set(parent, [...(byParent.get(parent) ?? []), a]);
  }
  const build = (a: AgentRecord, lineage: string[]): TreeNode => ({
    agent_id: a.agent_id,
    display_name: a.display_name,
    status: a.status,
    visibility: a.visibility,
    parent_agent_id: a.parent_agent_id,
    lineage,
    children: (byParent.get(a.agent_id) ?? []).map((c) => build(c, [a.agent_id, ...lineage])),
  });
  return (byParent.get(null) ?? []).filter((a) => a.visibility === 'public').map((a) => build(a, []));
}

/**
 * GET /api/agents/:id/state: the bounded bootstrap page; each resource service contributes its
 * section (`stateFor`).
 */
export function agentState(d: StateDeps, a: AgentRecord) {
  return {
    agent: agentSummary(d, a),
    session: {
      current_run: d.runLoop.scheduler.currentRun(a.agent_id),
      pending_count: d.queue.pending(a.agent_id),
      pending_by_priority: d.queue.pendingByPriority(a.agent_id),
      last_event_seq: d.events.head(a.agent_id),
    },
    tasks: d.tasks.stateFor(a.agent_id),
    timers: d.timers.stateFor(a.agent_id),
    work_items: d.workItems.stateFor(a.agent_id),
    waiting_intents: [] as unknown[],
    external_triggers: d.triggers.stateFor(a.agent_id),
    workspaces: d.workspaces.stateSection(a.agent_id),
  };
}

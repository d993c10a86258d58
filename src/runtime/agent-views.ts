/**
 * The public projections of an agent: list entry, summary (status), detail, tree node and the
 * bootstrap state page. Built from the services, shared by every route that returns an agent.
 */
import { BOOTSTRAP_STEPS, type AgentRecord, type AgentService } from './agents.js';
import type { EventLog } from '../events/event-log.js';
import type { MessageQueue } from './queue.js';
import type { TaskStateEntry } from './tasks.js';
import type { TimerRecord } from './timers.js';
import type { WorkItemSlim } from './work-item-records.js';

export interface ViewDeps {
  agents: AgentService;
  queue: MessageQueue;
  events: EventLog;
  /** The run loop's current turn of an agent (null when none runs). */
  runLoop: { scheduler: { currentRun(agentId: string): unknown } };
}

/** The resource services that contribute sections to the state page. */
export interface StateDeps extends ViewDeps {
  tasks: { stateFor(agentId: string): TaskStateEntry[] };
  timers: { stateFor(agentId: string): TimerRecord[] };
  workItems: { stateFor(agentId: string): WorkItemSlim[] };
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
  supervision: ChildSupervisionRef | null;
  children: TreeNode[];
}

export interface ChildSupervisionRef {
  task_id: string;
  status: string;
  workspace_mode: string;
  delegation_id: string;
  worktree_path: string | null;
}

/**
 * Public roots with their children (public and private subagents), each with its lineage and, for
 * a supervised child, the task supervising it.
 */
export function agentTree(d: ViewDeps & { tasks: { supervisionOf(childId: string): ChildSupervisionRef | null } }): TreeNode[] {
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
    supervision: a.visibility === 'private' ? d.tasks.supervisionOf(a.agent_id) : null,
    children: (byParent.get(a.agent_id) ?? []).map((c) => build(c, [a.agent_id, ...lineage])),
  });
  return (byParent.get(null) ?? []).filter((a) => a.visibility === 'public').map((a) => build(a, []));
}

/**
 * GET /api/agents/:id/state: the bounded bootstrap page; each resource service contributes its
 * section (`stateFor`).
 */
export function agentState(d: StateDeps, a: AgentRecord) {
  const tasks = d.tasks.stateFor(a.agent_id);
  const timers = d.timers.stateFor(a.agent_id);
  const workItems = d.workItems.stateFor(a.agent_id);
  return {
    agent: agentSummary(d, a),
    session: {
      current_run: d.runLoop.scheduler.currentRun(a.agent_id),
      pending_count: d.queue.pending(a.agent_id),
      pending_by_priority: d.queue.pendingByPriority(a.agent_id),
      last_event_seq: d.events.head(a.agent_id),
    },
    tasks,
    timers,
    work_items: workItems,
    waiting_intents: waitingIntents(tasks, timers, workItems),
    external_triggers: d.triggers.stateFor(a.agent_id),
    workspaces: d.workspaces.stateSection(a.agent_id),
  };
}

export type WaitingIntent =
  | { kind: 'task_result'; task_id: string; task_kind: string; status: string; summary: string | null }
  | { kind: 'timer'; timer_id: string; next_fire_at: string | null; interval_ms: number | null; summary: string | null }
  | { kind: 'operator_input'; work_item_id: string; objective: string }
  | { kind: 'blocked_work_item'; work_item_id: string; objective: string; blocked_by: string | null };

/**
 * What the agent is waiting for, derived from the same rows as the state page's other sections
 * (never stored): the result of each active task, each active timer, operator input on a work item
 * whose plan needs it, and each blocked work item (a recheck, when set, enqueues a tick when due).
 */
export function waitingIntents(tasks: TaskStateEntry[], timers: TimerRecord[], workItems: WorkItemSlim[]): WaitingIntent[] {
  const out: WaitingIntent[] = [];
  for (const t of tasks) out.push({ kind: 'task_result', task_id: t.task_id, task_kind: t.kind, status: t.status, summary: t.summary });
  for (const t of timers.filter((x) => x.status === 'active')) {
    out.push({ kind: 'timer', timer_id: t.timer_id, next_fire_at: t.next_fire_at, interval_ms: t.interval_ms, summary: t.summary });
  }
  for (const w of workItems) {
    if (w.readiness === 'waiting_for_operator') out.push({ kind: 'operator_input', work_item_id: w.id, objective: w.objective });
    else if (w.readiness === 'blocked') out.push({ kind: 'blocked_work_item', work_item_id: w.id, objective: w.objective, blocked_by: w.blocked_by });
  }
  return out;
}

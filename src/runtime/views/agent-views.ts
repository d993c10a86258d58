/**
 * The public projections of an agent: list entry, summary (status), detail, tree node and the
 * bootstrap state page. Built from the services, shared by every route that returns an agent.
 */
import { BOOTSTRAP_STEPS, type AgentRecord, type AgentService, type MessageQueue } from '../agents/index.js';
import type { EventLog } from '../../events/index.js';
import { activeWorkspaceEntry, agentIdentity, agentModelState, workspaceView } from './agent-facets.js';
import { closure, schedulingPosture, type PostureFacts } from './agent-posture.js';
import type { McpAgentServer } from '../mcp/index.js';
import type { SandboxStatus, TaskStateEntry } from '../tasks/index.js';
import type { TimerRecord } from '../timers/index.js';
import type { UsageSection } from '../usage/index.js';
import type { WorkItemSlim } from '../work-items/index.js';
import type { WorkspaceEntry } from '../workspaces/index.js';
import type { ApprovalStateEntry, WaitingIntent } from './types.js';

export interface ViewDeps {
  agents: AgentService;
  queue: MessageQueue;
  events: EventLog;
  /** The run loop's current turn of an agent (null when none runs). */
  runLoop: { scheduler: { currentRun(agentId: string): { turn_id: string; status: string } | null } };
}

/** The resource services that contribute sections to the state page. */
export interface StateDeps extends ViewDeps {
  tasks: { stateFor(agentId: string): TaskStateEntry[]; supervisionOf(childId: string): { task_id: string } | null; sandboxStatus(): SandboxStatus };
  timers: { stateFor(agentId: string): TimerRecord[] };
  workItems: { stateFor(agentId: string): WorkItemSlim[]; currentFocus(agentId: string): string | null };
  triggers: { stateFor(agentId: string): unknown[] };
  workspaces: {
    stateSection(agentId: string): { active_workspace_id: string; occupancy: Array<{ workspace_id: string; path: string; active: boolean }>; registry: WorkspaceEntry[] };
  };
  briefs: { list(agentId: string, opts: { limit?: number }): Array<{ created_at: string }> };
  approvals: { stateFor(agentId: string): ApprovalStateEntry[] };
  mcp: { stateFor(agentId: string): McpAgentServer[] };
  usage: { stateSection(agentId: string): UsageSection };
}

/** The live rows one agent's projections are derived from, read once per view. */
function liveFacts(d: StateDeps, a: AgentRecord) {
  const tasks = d.tasks.stateFor(a.agent_id);
  const timers = d.timers.stateFor(a.agent_id);
  const workItems = d.workItems.stateFor(a.agent_id);
  const workspaces = d.workspaces.stateSection(a.agent_id);
  const run = d.runLoop.scheduler.currentRun(a.agent_id);
  // A turn paused on an approval is not running: no current run id (the real system's clients
  // show such an agent as waiting for the operator); session.current_run still names it.
  const runId = run && run.status !== 'waiting_approval' ? run.turn_id : null;
  const approvals = d.approvals.stateFor(a.agent_id);
  const facts: PostureFacts = {
    status: a.status,
    currentTurnId: runId,
    pending: d.queue.pending(a.agent_id),
    workItems,
    currentWorkItemId: d.workItems.currentFocus(a.agent_id),
    intents: [...approvals.map((x) => ({ kind: 'approval' as const, approval_id: x.approval_id, turn_id: x.turn_id, tool: x.tool, expires_at: x.expires_at })), ...waitingIntents(tasks, timers, workItems)],
  };
  return { tasks, timers, workItems, workspaces, run, runId, approvals, facts };
}

/**
 * GET /api/agents/list entry: svc's fields (agent_id, display_name, status, visibility,
 * parent_agent_id, is_default) and the real system's list entry (identity, scheduling posture,
 * lifecycle, pending, current run, waiting reason, model state, active workspace).
 */
export function agentListEntry(d: StateDeps, a: AgentRecord) {
  const { workspaces, runId, facts } = liveFacts(d, a);
  return {
    agent_id: a.agent_id,
    display_name: a.display_name,
    status: a.status,
    visibility: a.visibility,
    parent_agent_id: a.parent_agent_id,
    is_default: a.agent_id === d.agents.defaultAgentId,
    identity: agentIdentity(d, a),
    scheduling_posture: schedulingPosture(facts),
    lifecycle: lifecycleHint(a),
    pending: facts.pending,
    current_run_id: runId,
    waiting_reason: closure(facts).waiting_reason,
    model: agentModelState(d, a),
    active_workspace_entry: activeWorkspaceEntry(workspaces.registry),
  };
}

/** Whether the agent takes messages from outside now, and what an operator can do about it. */
function lifecycleHint(a: AgentRecord) {
  if (a.status === 'stopped') return { accepts_external_messages: true, operator_hint: 'stopped: messages queue until control start' };
  if (a.status === 'deleting') return { accepts_external_messages: false, operator_hint: 'deletion in progress' };
  return { accepts_external_messages: true, operator_hint: null };
}

/**
 * AgentSummary (GET /api/agents/:id/status, the state page's `agent`): svc's flat fields, and the
 * real system's nesting beside them (identity, the `agent` object, closure, scheduling posture,
 * lifecycle, active task count). `model` stays the effective model id; the list entry carries the
 * model state object.
 */
export function agentSummary(d: StateDeps, a: AgentRecord, live = liveFacts(d, a)) {
  const { tasks, workspaces, runId, facts } = live;
  const lastBrief = d.briefs.list(a.agent_id, { limit: 1 })[0];
  return {
    ...agentSummaryCore(d, a),
    identity: agentIdentity(d, a),
    agent: {
      id: a.agent_id,
      status: a.status,
      pending: facts.pending,
      current_run_id: runId,
      current_turn_id: runId,
      current_work_item_id: facts.currentWorkItemId,
      last_brief_at: lastBrief?.created_at ?? null,
      attached_workspaces: workspaces.registry.filter((e) => e.workspace_id !== 'agent_home').map((e) => e.workspace_id),
      active_workspace_entry: activeWorkspaceEntry(workspaces.registry),
    },
    closure: closure(facts),
    scheduling_posture: schedulingPosture(facts),
    lifecycle: lifecycleHint(a),
    active_task_count: tasks.length,
  };
}

function agentSummaryCore(d: ViewDeps, a: AgentRecord) {
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

export function agentDetail(d: ViewDeps & { tasks?: StateDeps['tasks'] }, a: AgentRecord) {
  return {
    agent_id: a.agent_id,
    display_name: a.display_name,
    identity: agentIdentity(d, a),
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
  const live = liveFacts(d, a);
  const { tasks, timers, workItems, workspaces, run, runId, approvals, facts } = live;
  return {
    // The summary, with `model` as the model state object (the real system's state page; the
    // effective model id is its `effective_model`). GET /status keeps `model` as the id.
    agent: { ...agentSummary(d, a, live), model: agentModelState(d, a) },
    session: {
      current_run: run,
      current_run_id: runId,
      pending_count: facts.pending,
      pending_by_priority: d.queue.pendingByPriority(a.agent_id),
      last_event_seq: d.events.head(a.agent_id),
    },
    // `id` and `agent_id` beside svc's `task_id`: the real system's task entry names them so.
    tasks: tasks.map((t) => ({ ...t, id: t.task_id, agent_id: a.agent_id })),
    timers: timers.map((t) => ({ ...t, id: t.timer_id, repeat: t.interval_ms !== null })),
    work_items: workItems.map((w) => ({ ...w, agent_id: a.agent_id, is_current: w.id === facts.currentWorkItemId, is_runnable: w.readiness === 'runnable' })),
    waiting_intents: facts.intents,
    approvals,
    external_triggers: d.triggers.stateFor(a.agent_id),
    workspaces,
    workspace: { workspaces: workspaces.registry.map(workspaceView) },
    sandbox: sandboxView(d.tasks.sandboxStatus()),
    mcp_servers: d.mcp.stateFor(a.agent_id),
    usage: d.usage.stateSection(a.agent_id),
  };
}

/** Whether this agent's commands run in the command sandbox, and why not (docs/security.md#command-sandbox). */
export function sandboxView(s: SandboxStatus) {
  return { mode: s.mode, sandboxed: s.active, bubblewrap: s.version, reason: s.reason };
}

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

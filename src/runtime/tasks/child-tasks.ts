/**
 * Supervised child agents: tasks of kind `child_agent` (spec "Task status snapshot":
 * child_agent_id, child_observability, child_supervision).
 *
 * Creating one makes a private child agent (lineage recorded, owner = the parent), gives it a
 * workspace (`inherit`: the parent's active workspace; `worktree`: a new `git worktree` on branch
 * `svc/<task_id>` under `<home>/worktrees/<task_id>`), optionally a work item (picked as its focus),
 * and enqueues the delegated instruction to it (kind `internal_followup`, origin task, trusted
 * system). The child's turns run through the same run loop and provider as any agent's.
 *
 * The child's answer: when a turn of the child ends with a result brief while the child is at rest
 * (no active task or timer of its own, no follow-up of the task still queued), or with a failure brief, the task
 * finishes (`completed` / `failed`) with the brief's text as its result, in one transaction with its
 * `task_result` message to the parent. A worktree is inspected first (changed files), then, per the
 * task's `worktree_cleanup` policy, removed with its branch (`remove`; `auto` when nothing changed)
 * or retained for review (`retain`; `auto` when something changed).
 *
 * Follow-ups: task input enqueues another `internal_followup` to the child; a finished task goes
 * back to `running` and finishes again with the child's next answer. Stop cancels the task and
 * deletes the child (its run is aborted by the deletion); a worktree is removed when the child is
 * gone. Deleting the child cancels the task; deleting the parent needs cascade_private_children.
 *
 * Child tasks are not processes: they survive a daemon restart (the child's queue and run loop
 * recover on their own). Only a task whose set-up was cut short (`queued`) is interrupted then.
 */
import path from 'node:path';
import { errors, AGENT_ID_PATTERN, deriveProvenance, type TrustLevel } from '../../core/index.js';
import type { AgentDeletion } from '../agents/index.js';
import type { Brief, BriefService } from '../channels/index.js';
import { createWorktree, inspectWorktree, removeWorktree, repositoryOf, WorktreeError } from './child-worktree.js';
import { ChildTaskViews } from './child-task-views.js';
import { SupervisionStore, type CleanupPolicy, type Supervision, type WorkspaceMode } from './child-supervisions.js';
import type { RuntimeDeps } from '../deps.js';
import type { TaskLedger } from './task-ledger.js';
import { failure, isTerminal, oneLine, type ChildSections, type TaskRow } from './task-records.js';
import type { InputOutcome, StopOutcome } from './command-tasks.js';
import type { TimerService } from '../timers/index.js';
import type { WorkItemService } from '../work-items/index.js';
import type { WorkspaceService } from '../workspaces/index.js';

export { CLEANUP_POLICIES, WORKSPACE_MODES, type CleanupPolicy, type WorkspaceMode } from './child-supervisions.js';

/** Longest result text kept in the task's result_summary (the whole brief stays in the child's briefs). */
const RESULT_SUMMARY_MAX = 16_384;

export interface CreateChildInput {
  initial_message: string;
  summary?: string | null | undefined;
  workspace_mode?: WorkspaceMode | null | undefined;
  worktree_cleanup?: CleanupPolicy | null | undefined;
  child_agent_id?: string | null | undefined;
  display_name?: string | null | undefined;
  template?: string | null | undefined;
  /** Objective of a work item created (and picked) for the child. */
  objective?: string | null | undefined;
  parent_work_item_id?: string | null | undefined;
  delegation_id?: string | null | undefined;
  authority_class?: string | null | undefined;
  parent_message_id?: string | null | undefined;
  /** The trust of the turn that spawned the child: the child's messages and answers carry it. */
  taint?: TrustLevel | null | undefined;
}

export interface ChildTaskDeps extends RuntimeDeps {
  ledger: TaskLedger;
  workspaces: WorkspaceService;
  briefs: BriefService;
  deletion: AgentDeletion;
  workItems: WorkItemService;
  timers: TimerService;
}

export class ChildTasks {
  private readonly records: SupervisionStore;
  private readonly views: ChildTaskViews;
  /** Finalisations and clean-ups in flight (awaited at shutdown). */
  private readonly inflight = new Set<Promise<unknown>>();

  constructor(private readonly deps: ChildTaskDeps) {
    this.records = new SupervisionStore(deps.store.db, () => deps.ledger.now());
    this.views = new ChildTaskViews(deps, this.records);
    deps.ledger.describe('child_agent', (row) => this.views.resultFields(row));
    deps.briefs.onCreated((brief) => this.onBrief(brief));
  }

  // --- create ----------------------------------------------------------------------------------

  async create(parentId: string, input: CreateChildInput): Promise<TaskRow> {
    const { agents, ids, config, workspaces, store, ledger } = this.deps;
    const parent = agents.getWritable(parentId);
    const message = input.initial_message.trim();
    if (!message) throw errors.jsonRejected('initial_message', 'initial_message must not be empty');
    const limits = config.values.tasks;
    if (agents.lineage(parent).length + 1 > limits.max_child_depth) throw errors.childDepthExceeded(parentId, limits.max_child_depth);
    if (this.records.activeChildrenOf(parentId) >= limits.max_active_children_per_agent) {
      throw errors.childLimitReached(parentId, limits.max_active_children_per_agent, 'tasks.max_active_children_per_agent');
    }
    // Children may delegate too: the daemon-wide cap bounds the whole tree, whatever its shape.
    if (this.records.activeChildrenTotal() >= limits.max_active_children) throw errors.childLimitReached(parentId, limits.max_active_children, 'tasks.max_active_children');
    if (input.parent_work_item_id) this.deps.workItems.get(parentId, input.parent_work_item_id);
    if (input.template) agents.assertTemplate(input.template);
    const taskId = ids.make('task');
    const childId = input.child_agent_id ?? ids.make('childAgent');
    if (!AGENT_ID_PATTERN.test(childId)) throw errors.invalidAgentId(childId);
    if (agents.find(childId)) throw errors.childAgentExists(childId);
    const mode: WorkspaceMode = input.workspace_mode ?? 'inherit';
    const cwd = workspaces.activePath(parentId);
    if (mode === 'worktree') {
      try {
        await repositoryOf(cwd);
      } catch (err) {
        throw errors.worktreeUnavailable((err as Error).message);
      }
    }
    const summary = input.summary?.trim() || oneLine(message);
    const delegationId = input.delegation_id?.trim() || ids.make('delegation');
    const row = store.tx(() => {
      agents.assertWritable(parentId);
      if (agents.find(childId)) throw errors.childAgentExists(childId);
      const inserted = ledger.insert(
        { task_id: taskId, agent_id: parentId, kind: 'child_agent', summary, parent_message_id: input.parent_message_id ?? null, child_agent_id: childId, taint: input.taint ?? null },
        { child_agent_id: childId, workspace_mode: mode, delegation_id: delegationId, authority_class: input.authority_class ?? null },
      );
      this.records.insert({
        task_id: taskId,
        parent_agent_id: parentId,
        child_agent_id: childId,
        delegation_id: delegationId,
        initial_message: message,
        parent_work_item_id: input.parent_work_item_id ?? null,
        workspace_mode: mode,
        cleanup_policy: input.worktree_cleanup ?? 'auto',
      });
      return inserted;
    });
    // Tracked: a shutdown waits for a set-up in flight.
    const setUp = this.setUp(row, parent.model_override, input, message).catch((err: Error) => this.failSetUp(row, err));
    this.track(setUp);
    return setUp;
  }

  /** Worktree, child agent, workspace, work item, the delegated message: then `running`. */
  private async setUp(row: TaskRow, modelOverride: string | null, input: CreateChildInput, message: string): Promise<TaskRow> {
    const { agents, workspaces, store, ledger, workItems } = this.deps;
    const sup = this.records.load(row.task_id);
    let workdir = workspaces.activePath(row.agent_id);
    if (sup.workspace_mode === 'worktree') {
      const dir = path.join(this.deps.config.home, 'worktrees', row.task_id);
      const made = await createWorktree(workdir, dir, `svc/${row.task_id}`).catch((err: Error) => {
        throw err instanceof WorktreeError ? err : new WorktreeError(err.message);
      });
      this.records.save({ ...this.records.load(row.task_id), worktree: made.record, cleanup_status: 'active' });
      workdir = made.workdir;
    }
    const child = sup.child_agent_id;
    agents.create(child, { parent_agent_id: row.agent_id, visibility: 'private', display_name: input.display_name ?? undefined, template: input.template ?? null });
    workspaces.attach(child, workdir, 'runtime_instruction');
    if (modelOverride) store.tx(() => agents.setModelOverride(child, modelOverride));
    if (input.objective?.trim()) {
      const item = workItems.create(child, { objective: input.objective, authority_class: 'runtime_instruction' });
      workItems.pick(child, item.id, { reason: `delegated by ${row.agent_id} (task ${row.task_id})`, authority_class: 'runtime_instruction' });
      this.records.save({ ...this.records.load(row.task_id), child_work_item_id: item.id });
    }
    const started = store.tx(() => {
      const current = ledger.find(row.task_id)!;
      if (current.status !== 'queued') return current;
      const sent = this.sendToChild(this.records.load(row.task_id), message, { spawn: true, authority: input.authority_class ?? null });
      return ledger.transition(current, 'running', {
        started_at: ledger.now(),
        event: { child_agent_id: child, workspace_mode: sup.workspace_mode, workdir, message_id: sent },
      });
    });
    // Stopped while it was being set up: what was made goes.
    if (started.status !== 'running') this.discardChild(row.task_id, 'task_stopped');
    return started;
  }

  private failSetUp(row: TaskRow, err: Error): TaskRow {
    const text = `could not start the child agent: ${err.message}`;
    this.deps.logger.warn({ task_id: row.task_id, err: err.message }, 'child agent set-up failed');
    const done = this.deps.store.tx(() => {
      const current = this.deps.ledger.find(row.task_id);
      if (!current || isTerminal(current.status)) return current ?? row;
      return this.deps.ledger.transition(current, 'failed', { result_summary: text, failure: failure(current, 'runtime', 'spawn_failed', text, null) });
    });
    this.discardChild(row.task_id, 'spawn_failed');
    return done;
  }

  /** Enqueue text for the child (the delegation or a follow-up); returns the message id. In a transaction. */
  private sendToChild(sup: Supervision, text: string, how: { spawn: boolean; authority: string | null }): string {
    const taint = this.deps.ledger.find(sup.task_id)?.taint ?? null;
    const provenance = deriveProvenance('task', { kind: 'task', task_id: sup.task_id }, { kind: 'internal_followup', taint });
    return this.deps.ingress.enqueueNow(
      sup.child_agent_id,
      provenance,
      { type: 'text', text },
      {
        metadata: {
          supervision_task_id: sup.task_id,
          delegated_task_id: sup.task_id,
          parent_agent_id: sup.parent_agent_id,
          child_agent_id: sup.child_agent_id,
          delegation_id: sup.delegation_id,
          parent_supervised: true,
          followup_via: how.spawn ? 'spawn' : 'task_input',
          delegated_authority_class: how.authority,
        },
        correlation_id: sup.task_id,
      },
    ).message_id;
  }

  // --- the child's answer ----------------------------------------------------------------------

  /** Inside the transaction that creates the brief (the end of a child's turn). */
  private onBrief(brief: Brief): void {
    if (brief.kind !== 'result' && brief.kind !== 'failure') return;
    const row = this.records.runningTaskOf(brief.agent_id);
    if (!row) return;
    const sup = this.records.load(row.task_id);
    // An answer is already being recorded: later turns (e.g. on a queued task_result) do not replace it.
    if (sup.result_pending) return;
    const ready = brief.kind === 'failure' || this.atRest(sup);
    this.records.save({ ...sup, last_result_brief: brief.brief_id, result_pending: ready ? 1 : sup.result_pending });
    if (ready) this.deps.store.afterCommit(() => this.track(this.finish(row.task_id)));
  }

  /**
   * Whether the child's answer is final: it waits for no task or timer of its own, and no
   * follow-up of this supervision is still queued for it. (Other queued messages, such as the
   * task_result of a command its tool call already waited for, do not hold the answer back.)
   */
  private atRest(sup: Supervision): boolean {
    const childId = sup.child_agent_id;
    if ((this.deps.ledger.stmt.activeOf.all(childId, 1) as TaskRow[]).length > 0) return false;
    if (this.deps.timers.stateFor(childId).some((t) => t.status === 'active')) return false;
    return !this.records.followupQueued(childId, sup.task_id);
  }

  /** Inspect the worktree, then finish the task with the child's answer and apply the cleanup policy. */
  private async finish(taskId: string): Promise<void> {
    const before = this.records.find(taskId);
    if (!before || !before.result_pending) return;
    let worktree = before.worktree;
    if (worktree && worktree.cleanup_status === 'active') {
      const seen = await inspectWorktree(worktree);
      if (seen) worktree = { ...worktree, changed_files: seen.changed, actual_branch: seen.branch };
    }
    const removeIt = worktree !== null && worktree.cleanup_status === 'active' && shouldRemove(before.cleanup_policy, worktree.changed_files);
    const finished = this.deps.store.tx(() => {
      const sup = this.records.find(taskId);
      const row = this.deps.ledger.find(taskId);
      // A follow-up arrived meanwhile (result_pending cleared), or the task was stopped.
      if (!sup || !row || !sup.result_pending || row.status !== 'running') return false;
      const brief = sup.last_result_brief ? this.deps.briefs.get(sup.last_result_brief) : null;
      if (worktree && worktree.cleanup_status === 'active') {
        worktree = removeIt ? { ...worktree, cleanup_status: 'removing' } : { ...worktree, cleanup_status: 'retained', retained_for_review: true };
      }
      this.records.save({ ...sup, worktree, cleanup_status: worktree?.cleanup_status ?? sup.cleanup_status, result_pending: 0 });
      const text = brief?.text ?? '(the child answered without text)';
      const failed = brief?.kind === 'failure';
      this.deps.ledger.transition(row, failed ? 'failed' : 'completed', {
        result_summary: text.length > RESULT_SUMMARY_MAX ? `${text.slice(0, RESULT_SUMMARY_MAX)}…` : text,
        failure: failed ? { ...(brief.failure_artifact ?? failure(row, 'task', 'child_failed', text, null)), task_id: taskId } : null,
        event: { child_agent_id: sup.child_agent_id, brief_id: brief?.brief_id ?? null },
      });
      return true;
    });
    if (finished && removeIt) await this.cleanWorktree(taskId, 'task_finished', true);
  }

  // --- follow-up input and stop ----------------------------------------------------------------

  input(row: TaskRow, body: { text: string; authority_class?: string | null | undefined }): InputOutcome {
    const sup = this.records.load(row.task_id);
    const refuse = (summaryText: string): InputOutcome => ({ accepted_input: false, bytes_written: null, input_target: 'child_followup', summary_text: summaryText });
    const child = this.deps.agents.find(sup.child_agent_id);
    if (!child || child.status === 'deleting') return refuse(`the child agent ${sup.child_agent_id} of task ${row.task_id} no longer exists: input not delivered`);
    if (row.status === 'queued') return refuse(`task ${row.task_id} is still setting up its child: input not delivered`);
    const wt = sup.worktree?.cleanup_status;
    if (wt && wt !== 'active' && wt !== 'retained') return refuse(`the worktree of task ${row.task_id} was removed (${wt}): input not delivered`);
    const text = body.text.trim();
    if (!text) return refuse('empty follow-up: input not delivered');
    const bytes = Buffer.byteLength(text);
    this.deps.store.tx(() => {
      const current = this.deps.ledger.find(row.task_id)!;
      const messageId = this.sendToChild(sup, text, { spawn: false, authority: body.authority_class ?? null });
      this.records.save({ ...this.records.load(row.task_id), followups: sup.followups + 1, result_pending: 0 });
      this.deps.events.append(row.agent_id, 'task_input_delivered', {
        task_id: row.task_id,
        kind: row.kind,
        input_target: 'child_followup',
        child_agent_id: sup.child_agent_id,
        message_id: messageId,
        bytes_written: bytes,
        authority_class: body.authority_class ?? null,
      });
      if (isTerminal(current.status)) this.deps.ledger.transition(current, 'running', { event: { reason: 'followup', message_id: messageId } });
    });
    return {
      accepted_input: true,
      bytes_written: bytes,
      input_target: 'child_followup',
      summary_text: `delivered a follow-up to child ${sup.child_agent_id} via supervision task ${row.task_id}`,
    };
  }

  /**
   * Stop: cancel the task (when active) and delete the child, which aborts its run; its worktree
   * goes when the child is gone. On a finished task this discards what is left (a child kept for
   * follow-ups, a worktree retained for review).
   */
  requestStop(row: TaskRow, authorityClass: string | null): StopOutcome {
    let next = row;
    if (!isTerminal(row.status)) {
      next = this.deps.store.tx(() =>
        this.deps.ledger.transition(row, 'cancelled', {
          result_summary: `cancelled on request: child agent ${row.child_agent_id} stopped and removed`,
          failure: failure(row, 'task', 'cancelled', 'stopped on request', null),
          event: { authority_class: authorityClass },
        }),
      );
    }
    const removed = this.discardChild(row.task_id, 'task_stopped');
    const what = removed ? `child agent ${row.child_agent_id} is being deleted` : 'nothing of the child was left';
    const summary = isTerminal(row.status) ? `task ${row.task_id} already finished (${row.status}); ${what}` : `task ${row.task_id} cancelled; ${what}`;
    return { row: next, force_stop_requested: false, signal_sent: null, summary_text: summary };
  }

  /** Delete the child if it exists (its worktree goes in releaseAgent), else clean the worktree now. */
  private discardChild(taskId: string, reason: string): boolean {
    const sup = this.records.find(taskId);
    if (!sup) return false;
    const child = this.deps.agents.find(sup.child_agent_id);
    if (child && child.status !== 'deleting') {
      this.deps.deletion.request(sup.child_agent_id, { cascadePrivateChildren: true });
      return true;
    }
    if (!child) this.track(this.cleanWorktree(taskId, reason, false));
    return child !== null;
  }

  // --- lifecycle -------------------------------------------------------------------------------

  /** Recovery: a set-up cut short is interrupted (and undone); an answer being recorded is recorded. */
  start(): void {
    for (const row of (this.deps.ledger.stmt.activeAll.all() as TaskRow[]).filter((r) => r.kind === 'child_agent')) {
      if (row.status === 'queued') {
        const text = 'interrupted: the daemon stopped while the child agent was being set up';
        this.deps.store.tx(() =>
          this.deps.ledger.transition(row, 'interrupted', { result_summary: text, failure: failure(row, 'runtime', 'daemon_restart', text, null), event: { reason: 'daemon_restart' } }),
        );
        this.discardChild(row.task_id, 'daemon_restart');
      } else if (this.records.find(row.task_id)?.result_pending) {
        this.track(this.finish(row.task_id));
      }
    }
    for (const sup of this.records.all().filter((s) => s.worktree?.cleanup_status === 'removing')) this.track(this.cleanWorktree(sup.task_id, 'task_finished', true));
  }

  async stop(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  /**
   * An agent's deletion, after its run loop stopped. As a child: its task is cancelled and its
   * worktree removed. As a parent: the worktrees of its children go and its supervision records.
   */
  async releaseAgent(agentId: string): Promise<void> {
    for (const sup of this.records.ofChild(agentId)) {
      const row = this.deps.ledger.find(sup.task_id);
      if (row && !isTerminal(row.status)) {
        const text = `cancelled: the child agent ${agentId} was deleted`;
        this.deps.store.tx(() =>
          this.deps.ledger.transition(row, 'cancelled', { result_summary: text, failure: failure(row, 'runtime', 'child_deleted', text, null), event: { reason: 'child_deleted' } }),
        );
      }
      await this.cleanWorktree(sup.task_id, 'child_deleted', false);
    }
    const own = this.records.ofParent(agentId);
    for (const sup of own) await this.cleanWorktree(sup.task_id, 'parent_deleted', false);
    this.deps.store.tx(() => this.records.purgeParent(agentId));
  }

  // --- views (child-task-views.ts) ----------------------------------------------------

  supervisionOf(childId: string) {
    return this.views.supervisionOf(childId);
  }

  sections(row: TaskRow): ChildSections {
    return this.views.sections(row);
  }

  output(row: TaskRow) {
    return this.views.output(row);
  }

  // --- internals -------------------------------------------------------------------------------

  /** Remove the task's worktree and branch (if still there) and record it, with an event for the parent. */
  private async cleanWorktree(taskId: string, reason: string, automatic: boolean): Promise<void> {
    const sup = this.records.find(taskId);
    const wt = sup?.worktree;
    if (!sup || !wt || wt.cleanup_status === 'removed') return;
    const seen = wt.cleanup_status === 'active' ? await inspectWorktree(wt) : null;
    const before = seen ? { ...wt, changed_files: seen.changed, actual_branch: seen.branch } : wt;
    const done = await removeWorktree(before, reason, automatic);
    this.deps.store.tx(() => {
      const current = this.records.find(taskId);
      if (current) this.records.save({ ...current, worktree: done, cleanup_status: done.cleanup_status });
      if (this.deps.agents.statusOf(sup.parent_agent_id) && this.deps.agents.statusOf(sup.parent_agent_id) !== 'deleting') {
        this.deps.events.append(sup.parent_agent_id, 'child_worktree_cleaned', { task_id: taskId, child_agent_id: sup.child_agent_id, worktree: done });
      }
    });
  }

  private track(p: Promise<unknown>): void {
    const tracked = p.catch((err: unknown) => this.deps.logger.error({ err }, 'child task follow-through failed'));
    this.inflight.add(tracked);
    void tracked.finally(() => this.inflight.delete(tracked));
  }

}

function shouldRemove(policy: CleanupPolicy, changed: string[]): boolean {
  return policy === 'remove' || (policy === 'auto' && changed.length === 0);
}

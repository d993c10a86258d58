/**
 * What a child_agent task shows: child_supervision (the record), child_observability (derived on
 * every read from the child's live state: its tasks, timers, work items, briefs, queue), the
 * output (the child's latest answer) and the parent's task_result fields.
 */
import type { BriefService } from '../channels/index.js';
import type { Supervision, SupervisionStore } from './child-supervisions.js';
import type { RuntimeDeps } from '../deps.js';
import type { TaskLedger } from './task-ledger.js';
import { isTerminal, type ChildSections, type TaskRow } from './task-records.js';
import type { TimerService } from '../timers/index.js';
import type { WorkItemService } from '../work-items/index.js';

const BRIEF_PREVIEW_MAX = 2_000;

export interface ChildViewDeps extends RuntimeDeps {
  ledger: TaskLedger;
  briefs: BriefService;
  workItems: WorkItemService;
  timers: TimerService;
}

export class ChildTaskViews {
  constructor(
    private readonly deps: ChildViewDeps,
    private readonly records: SupervisionStore,
  ) {}

  /** The newest task supervising `childId`, slim (agent tree). */
  supervisionOf(childId: string): { task_id: string; status: string; workspace_mode: string; delegation_id: string; worktree_path: string | null } | null {
    const sup = this.records.ofChild(childId).at(-1);
    const row = sup ? this.deps.ledger.find(sup.task_id) : null;
    if (!sup || !row) return null;
    return { task_id: sup.task_id, status: row.status, workspace_mode: sup.workspace_mode, delegation_id: sup.delegation_id, worktree_path: sup.worktree?.worktree_path ?? null };
  }

  sections(row: TaskRow): ChildSections {
    const sup = this.records.find(row.task_id);
    if (!sup) return { child_supervision: null, child_observability: null };
    return { child_supervision: this.supervisionView(sup), child_observability: this.observe(row, sup) };
  }

  /** Output of a child task: its answer so far (the last result brief). */
  output(row: TaskRow) {
    const sup = this.records.find(row.task_id);
    const brief = sup?.last_result_brief ? this.deps.briefs.get(sup.last_result_brief) : null;
    const text = brief?.text ?? '';
    const max = this.deps.config.values.tasks.output_preview_bytes;
    return {
      output_preview: text.length > max ? text.slice(-max) : text,
      output_truncated: text.length > max,
      output_bytes: Buffer.byteLength(text),
      artifacts: sup?.worktree?.worktree_path && sup.worktree.cleanup_status !== 'removed' ? [{ path: sup.worktree.worktree_path }] : [],
      child_supervision: sup ? this.supervisionView(sup) : null,
    };
  }

  supervisionView(sup: Supervision) {
    return {
      parent_agent_id: sup.parent_agent_id,
      child_agent_id: sup.child_agent_id,
      supervision_task_id: sup.task_id,
      cleanup_owner: sup.cleanup_owner,
      followup_target: sup.followup_target,
      child_work_item_id: sup.child_work_item_id,
      parent_work_item_id: sup.parent_work_item_id,
      delegation_id: sup.delegation_id,
      cleanup_status: sup.cleanup_status,
      cleanup_policy: sup.cleanup_policy,
      workspace_mode: sup.workspace_mode,
      worktree: sup.worktree,
      followups: sup.followups,
    };
  }

  /** child_observability, derived from the child's live state. */
  private observe(row: TaskRow, sup: Supervision) {
    const child = sup.child_agent_id;
    const exists = this.deps.agents.find(child) !== null;
    const focus = exists ? this.deps.workItems.currentFocus(child) : null;
    const brief = (kind: 'progress' | 'result') => (exists ? clip(this.deps.briefs.latest(child, kind)?.text ?? null) : null);
    let workSummary: string | null = row.summary;
    if (focus) {
      try {
        workSummary = this.deps.workItems.get(child, focus).objective;
      } catch {
        /* the focus was deleted: keep the task summary */
      }
    }
    // The answer recorded for the task once there is one (a finished task keeps showing the answer it
    // finished with, not what the child said afterwards), else the child's newest result brief.
    const recorded = sup.last_result_brief ? this.deps.briefs.get(sup.last_result_brief) : null;
    const lastResult = recorded ? clip(recorded.text) : brief('result');
    const base = { current_work_item_id: focus, last_progress_brief: brief('progress'), last_result_brief: lastResult, work_summary: workSummary };
    if (isTerminal(row.status) || !exists) return { phase: 'terminal', blocked_reason: null, waiting_reason: null, ...base };
    // Stopped by the operator (control stop, abort): it takes nothing until started again.
    if (this.deps.agents.statusOf(child) === 'stopped') return { phase: 'waiting', blocked_reason: null, waiting_reason: 'awaiting_operator_input', ...base };
    const tasks = this.deps.ledger.stmt.activeOf.all(child, 100) as TaskRow[];
    const commands = tasks.filter((t) => t.kind === 'command');
    if (commands.length > 0) {
      const reason = commands.some((t) => t.status === 'running')
        ? 'managed_task_running'
        : commands.some((t) => t.status === 'cancelling')
          ? 'managed_task_cancelling'
          : 'managed_task_queued';
      return { phase: 'blocked', blocked_reason: reason, waiting_reason: null, ...base };
    }
    if (tasks.length > 0) return { phase: 'blocked', blocked_reason: 'awaiting_managed_task', waiting_reason: null, ...base };
    const items = this.deps.workItems.stateFor(child);
    const waiting = items.some((w) => w.readiness === 'waiting_for_operator')
      ? 'awaiting_operator_input'
      : this.deps.timers.stateFor(child).some((t) => t.status === 'active')
        ? 'awaiting_timer'
        : items.some((w) => w.readiness === 'blocked')
          ? 'awaiting_external_change'
          : null;
    if (waiting && this.deps.queue.pending(child) === 0) return { phase: 'waiting', blocked_reason: null, waiting_reason: waiting, ...base };
    return { phase: 'running', blocked_reason: null, waiting_reason: null, ...base };
  }

  /** What the parent's task_result message carries for a child task. In the finishing transaction. */
  resultFields(row: TaskRow): Record<string, unknown> {
    const sup = this.records.find(row.task_id);
    if (!sup) return { child_agent_id: row.child_agent_id };
    const wt = sup.worktree;
    return {
      child_agent_id: sup.child_agent_id,
      delegation_id: sup.delegation_id,
      workspace_mode: sup.workspace_mode,
      worktree: wt
        ? {
            worktree_path: wt.worktree_path,
            worktree_branch: wt.worktree_branch,
            original_branch: wt.original_branch,
            changed_files: wt.changed_files,
            retained_for_review: wt.retained_for_review,
            cleanup_status: wt.cleanup_status,
          }
        : null,
      followup: 'POST …/tasks/{task_id}/input (or the followup_agent tool) sends the child a follow-up',
    };
  }
}

function clip(text: string | null): string | null {
  return text !== null && text.length > BRIEF_PREVIEW_MAX ? `${text.slice(0, BRIEF_PREVIEW_MAX)}…` : text;
}

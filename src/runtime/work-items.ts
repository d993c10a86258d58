/**
 * Work items (spec WorkItem, PickWorkItemResponse, "States and transitions / Work item";
 * CONTRACT.md section 8): durable objectives an agent works on, with a plan status, a todo list,
 * an optional blocker with a recheck, a per-agent durable current focus (pick), and completion
 * with a result report.
 *
 * Every change commits with its event in one transaction (work_item_created, work_item_updated,
 * work_item_picked, work_item_completed + brief_created, work_item_recheck_fired). Rechecks: one
 * real setTimeout armed for the earliest pending `recheck_at` (re-armed after every committed
 * change and at start); when it passes, a `system_tick` is enqueued for the agent and
 * `recheck_consumed_at` is set in the same transaction, so each recheck fires exactly once.
 * Time is read only through deps.clock; tests advance a ManualClock and call runDueRechecks().
 */
import type Database from 'better-sqlite3';
import { isoAt } from '../core/clock.js';
import { errors } from '../core/errors.js';
import { deriveProvenance, type AuthorityClass } from '../core/provenance.js';
import type { BriefService } from './briefs.js';
import type { ResourceService, RuntimeDeps } from './deps.js';

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

export interface PlanArtifact {
  path: string;
  hash: string;
  bytes: number;
  updated_at: string;
  preview: string;
  preview_complete: boolean;
  owner_agent_id?: string;
  relative_path?: string;
  workspace_alias?: string | null;
  workspace_id?: string;
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
  authority_class?: AuthorityClass | null | undefined;
}

export interface PickInput {
  reason?: string | null | undefined;
  authority_class?: AuthorityClass | null | undefined;
}

export interface CompleteInput {
  report_text: string;
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

interface Row {
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
}

/** Bound of the state page's work item section. */
export const STATE_PAGE_LIMIT = 50;
/** Due rechecks handled per transaction. */
const RECHECK_BATCH = 100;
/** Wait before retrying rechecks that could not be enqueued (an I/O error: runtime messages are never refused by the queue cap). */
const RECHECK_RETRY_MS = 1000;
/** setTimeout's largest delay; a later recheck simply re-arms when this one passes. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** Readiness (CONTRACT.md section 8): completed > blocked > waiting_for_operator > runnable. */
export function readinessOf(item: Pick<WorkItem, 'state' | 'blocked_by' | 'plan_status'>): Readiness {
  if (item.state !== 'open') return 'completed';
  if (item.blocked_by !== null && item.blocked_by.trim() !== '') return 'blocked';
  if (item.plan_status === 'needs_input') return 'waiting_for_operator';
  return 'runnable';
}

export class WorkItemService implements ResourceService {
  private readonly stmt;
  private timer: NodeJS.Timeout | null = null;
  private started = false;
  private stopped = false;
  /** After a recheck could not be enqueued: do not retry before this time. */
  private backoffUntil = 0;

  constructor(private readonly deps: RuntimeDeps & { briefs: BriefService }) {
    const db: Database.Database = deps.store.db;
    this.stmt = {
      insert: db.prepare(
        `INSERT INTO work_items (work_item_id, agent_id, objective, state, plan_status, revision, todo_list, workspace_id, created_at, updated_at)
         VALUES (?, ?, ?, 'open', 'draft', 1, '[]', 'agent_home', ?, ?)`,
      ),
      get: db.prepare('SELECT * FROM work_items WHERE work_item_id = ? AND agent_id = ?'),
      list: db.prepare('SELECT * FROM work_items WHERE agent_id = ? ORDER BY work_item_id'),
      slim: db.prepare(
        `SELECT * FROM work_items WHERE agent_id = ?
         ORDER BY CASE state WHEN 'open' THEN 0 ELSE 1 END, updated_at DESC, work_item_id DESC LIMIT ?`,
      ),
      update: db.prepare(
        `UPDATE work_items SET objective = @objective, plan_status = @plan_status, todo_list = @todo_list, blocked_by = @blocked_by,
           recheck_at = @recheck_at, recheck_consumed_at = @recheck_consumed_at, revision = revision + 1, updated_at = @updated_at
         WHERE work_item_id = @work_item_id`,
      ),
      complete: db.prepare(
        `UPDATE work_items SET state = 'completed', result_summary = ?, revision = revision + 1, updated_at = ? WHERE work_item_id = ?`,
      ),
      consumeRecheck: db.prepare('UPDATE work_items SET recheck_consumed_at = ?, updated_at = ? WHERE work_item_id = ?'),
      nextRecheck: db
        .prepare(
          "SELECT min(recheck_at) FROM work_items WHERE recheck_at IS NOT NULL AND recheck_consumed_at IS NULL AND state = 'open'",
        )
        .pluck(),
      dueRechecks: db.prepare(
        `SELECT * FROM work_items WHERE recheck_at IS NOT NULL AND recheck_consumed_at IS NULL AND state = 'open' AND recheck_at <= ?
         ORDER BY recheck_at, work_item_id LIMIT ?`,
      ),
      focus: db.prepare('SELECT work_item_id FROM work_item_focus WHERE agent_id = ?').pluck(),
      setFocus: db.prepare(
        `INSERT INTO work_item_focus (agent_id, work_item_id, reason, picked_at) VALUES (?, ?, ?, ?)
         ON CONFLICT(agent_id) DO UPDATE SET work_item_id = excluded.work_item_id, reason = excluded.reason, picked_at = excluded.picked_at`,
      ),
      purgeItems: db.prepare('DELETE FROM work_items WHERE agent_id = ?'),
      purgeFocus: db.prepare('DELETE FROM work_item_focus WHERE agent_id = ?'),
    };
  }

  // --- lifecycle ------------------------------------------------------------------------------

  start(): void {
    this.started = true;
    this.stopped = false;
    // Rechecks that came due while the daemon was down fire now (once), later ones get the timer.
    this.arm();
  }

  stop(): void {
    this.stopped = true;
    this.clearTimer();
  }

  /**
   * The agent is being deleted: drop its work items and focus so a re-created agent (a new
   * incarnation) revives nothing, and forget its pending rechecks.
   */
  stopAgent(agentId: string): void {
    this.deps.store.tx(() => {
      this.stmt.purgeItems.run(agentId);
      this.stmt.purgeFocus.run(agentId);
    });
    this.arm();
  }

  /** Slim work items for GET /api/agents/:id/state: open ones first, newest first, bounded. */
  stateFor(agentId: string): WorkItemSlim[] {
    return (this.stmt.slim.all(agentId, STATE_PAGE_LIMIT) as Row[]).map((row) => {
      const item = fromRow(row);
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
    });
  }

  // --- reads ----------------------------------------------------------------------------------

  /** Every work item of the agent, oldest first (404 agent_not_found for an unknown agent). */
  list(agentId: string): WorkItem[] {
    this.deps.agents.get(agentId);
    return (this.stmt.list.all(agentId) as Row[]).map(fromRow);
  }

  /** One work item (404 agent_not_found, 404 work_item_not_found). */
  get(agentId: string, workItemId: string): WorkItem {
    this.deps.agents.get(agentId);
    return this.load(agentId, workItemId);
  }

  /** The agent's current focus (the last picked work item id), or null. */
  currentFocus(agentId: string): string | null {
    return (this.stmt.focus.get(agentId) as string | undefined) ?? null;
  }

  // --- changes --------------------------------------------------------------------------------

  create(agentId: string, input: CreateWorkItemInput): WorkItem {
    const objective = input.objective.trim();
    if (!objective) throw errors.emptyObjective();
    return this.deps.store.tx(() => {
      this.deps.agents.assertWritable(agentId);
      const id = this.deps.ids.make('workItem');
      const now = this.now();
      this.stmt.insert.run(id, agentId, objective, now, now);
      const item = this.load(agentId, id);
      this.deps.events.append(agentId, 'work_item_created', {
        work_item_id: id,
        objective,
        state: item.state,
        plan_status: item.plan_status,
        revision: item.revision,
        workspace_id: item.workspace_id,
        authority_class: input.authority_class ?? null,
      });
      return item;
    });
  }

  update(agentId: string, workItemId: string, patch: WorkItemPatch): WorkItem {
    const fields = (['objective', 'plan_status', 'todo_list', 'blocked_by', 'recheck_after'] as const).filter(
      (k) => patch[k] !== undefined,
    );
    if (fields.length === 0) throw errors.emptyUpdate();
    let objective: string | undefined;
    if (patch.objective !== undefined) {
      objective = patch.objective.trim();
      if (!objective) throw errors.emptyObjective();
    }
    return this.deps.store.tx(() => {
      this.deps.agents.assertWritable(agentId);
      const item = this.load(agentId, workItemId);
      if (item.state !== 'open') throw errors.workItemNotOpen(item.id, item.state);
      const nowMs = this.deps.clock.now();
      const now = isoAt(nowMs);
      const next = {
        objective: objective ?? item.objective,
        plan_status: patch.plan_status ?? item.plan_status,
        todo_list: patch.todo_list ?? item.todo_list,
        blocked_by: item.blocked_by,
        recheck_at: item.recheck_at === null ? null : Date.parse(item.recheck_at),
        recheck_consumed_at: item.recheck_consumed_at,
      };
      if (patch.blocked_by !== undefined) {
        const blocker = patch.blocked_by === null ? '' : patch.blocked_by.trim();
        next.blocked_by = blocker === '' ? null : blocker;
        // Clearing the blocker cancels a pending recheck: there is nothing left to recheck.
        if (next.blocked_by === null) {
          next.recheck_at = null;
          next.recheck_consumed_at = null;
        }
      }
      if (patch.recheck_after !== undefined) {
        if (next.blocked_by === null) throw errors.recheckRequiresBlocker();
        next.recheck_at = nowMs + patch.recheck_after;
        next.recheck_consumed_at = null;
      }
      this.stmt.update.run({
        work_item_id: item.id,
        objective: next.objective,
        plan_status: next.plan_status,
        todo_list: JSON.stringify(next.todo_list),
        blocked_by: next.blocked_by,
        recheck_at: next.recheck_at,
        recheck_consumed_at: next.recheck_consumed_at,
        updated_at: now,
      });
      const updated = this.load(agentId, item.id);
      const changes: Record<string, unknown> = {};
      for (const k of fields) changes[k] = k === 'recheck_after' ? patch.recheck_after : updated[k];
      this.deps.events.append(agentId, 'work_item_updated', {
        work_item_id: item.id,
        revision: updated.revision,
        fields,
        changes,
        readiness: readinessOf(updated),
        recheck_at: updated.recheck_at,
        authority_class: patch.authority_class ?? null,
      });
      this.rearmAfterCommit();
      return updated;
    });
  }

  /** Make the item the agent's current focus and describe the transition. */
  pick(agentId: string, workItemId: string, input: PickInput = {}): PickResult {
    const reason = input.reason?.trim() ? input.reason.trim() : null;
    return this.deps.store.tx(() => {
      this.deps.agents.assertWritable(agentId);
      const current = this.load(agentId, workItemId);
      if (current.state !== 'open') throw errors.workItemNotOpen(current.id, current.state);
      const previousId = this.currentFocus(agentId);
      const previous = previousId === null ? null : this.find(agentId, previousId);
      const switchKind: SwitchKind = previous === null ? 'initial_pick' : previous.id === current.id ? 'same_work_item' : 'focus_switch';
      const currentReadiness = readinessOf(current);
      const previousReadiness = previous ? readinessOf(previous) : null;
      const warnings: Warning[] = [];
      if (currentReadiness === 'blocked') {
        warnings.push({ code: 'work_item_blocked', message: `work item ${current.id} is blocked by: ${current.blocked_by}; focus is inspection only` });
      } else if (currentReadiness === 'waiting_for_operator') {
        warnings.push({
          code: 'work_item_waiting_for_operator',
          message: `work item ${current.id} has plan_status needs_input and waits for the operator; focus is inspection only`,
        });
      }
      if (switchKind === 'focus_switch' && previous && previous.state !== 'completed') {
        warnings.push({
          code: 'previous_work_item_unfinished',
          message: `focus leaves work item ${previous.id} unfinished (readiness ${previousReadiness})`,
        });
      }
      const transition: PickResult['transition'] = {
        current_work_item_id: current.id,
        current_readiness: currentReadiness,
        switch_kind: switchKind,
        current_focus_mode: currentReadiness === 'runnable' ? 'runnable' : 'inspection',
        previous_readiness: previousReadiness,
        previous_work_item_id: previous?.id ?? null,
        reason,
        warnings,
      };
      this.stmt.setFocus.run(agentId, current.id, reason, this.now());
      this.deps.events.append(agentId, 'work_item_picked', { work_item_id: current.id, ...transition, authority_class: input.authority_class ?? null });
      return { current_work_item: current, current_work_item_id: current.id, previous_work_item: previous, transition };
    });
  }

  /**
   * open -> completed with the report as result_summary and as the result brief; a legacy
   * `completing` record is finalised (its report may be omitted: it keeps its summary).
   */
  complete(agentId: string, workItemId: string, input: CompleteInput): WorkItem {
    return this.deps.store.tx(() => {
      this.deps.agents.assertWritable(agentId);
      const item = this.load(agentId, workItemId);
      if (item.state === 'completed') throw errors.workItemNotOpen(item.id, item.state);
      const hasReport = input.report_text.trim() !== '';
      if (!hasReport && item.state === 'open') throw errors.emptyReport();
      const summary = hasReport ? input.report_text : item.result_summary;
      this.stmt.complete.run(summary, this.now(), item.id);
      const completed = this.load(agentId, item.id);
      if (hasReport) {
        this.deps.briefs.create({ agentId, kind: 'result', title: `Work item completed: ${item.objective}`, text: input.report_text, workItemId: item.id });
      }
      this.deps.events.append(agentId, 'work_item_completed', {
        work_item_id: item.id,
        from_state: item.state,
        revision: completed.revision,
        result_summary: completed.result_summary,
        authority_class: input.authority_class ?? null,
      });
      // A pending recheck of a completed item never fires.
      this.rearmAfterCommit();
      return completed;
    });
  }

  // --- rechecks -------------------------------------------------------------------------------

  /**
   * Fire every recheck whose time has passed: enqueue a `system_tick` for the agent and set
   * `recheck_consumed_at`, each in one transaction (exactly once). Returns how many fired.
   * The timer calls this; tests call it after advancing a ManualClock.
   */
  runDueRechecks(): number {
    let fired = 0;
    let failed = false;
    for (;;) {
      const nowMs = this.deps.clock.now();
      const due = this.stmt.dueRechecks.all(nowMs, RECHECK_BATCH) as Row[];
      if (due.length === 0) break;
      let progressed = 0;
      this.deps.store.tx(() => {
        for (const row of due) {
          try {
            if (this.deps.store.tx(() => this.fireRecheck(row, nowMs))) fired++;
            progressed++;
          } catch (err) {
            failed = true;
            this.deps.logger.warn({ err, agent_id: row.agent_id, work_item_id: row.work_item_id }, 'work item recheck could not be enqueued; will retry');
          }
        }
      });
      if (failed || progressed < RECHECK_BATCH) break;
    }
    this.backoffUntil = failed ? this.deps.clock.now() + RECHECK_RETRY_MS : 0;
    this.arm();
    return fired;
  }

  /** One due recheck, inside a transaction. False when nothing was enqueued (agent gone). */
  private fireRecheck(row: Row, nowMs: number): boolean {
    const now = isoAt(nowMs);
    const agent = this.deps.agents.find(row.agent_id);
    if (!agent || agent.status === 'deleting') {
      // Its agent is going away: consume the recheck without a tick (deletion purges the item).
      this.stmt.consumeRecheck.run(now, now, row.work_item_id);
      return false;
    }
    const provenance = deriveProvenance('runtime', { kind: 'system', subsystem: 'work_items' }, { kind: 'system_tick', priority: 'next' });
    const message = this.deps.ingress.enqueueNow(
      row.agent_id,
      provenance,
      { type: 'text', text: `Recheck work item ${row.work_item_id} (${row.objective}): blocked by ${row.blocked_by ?? 'nothing'}` },
      {
        metadata: {
          reason: 'work_item_recheck',
          work_item_id: row.work_item_id,
          blocked_by: row.blocked_by,
          recheck_at: isoAt(row.recheck_at!),
        },
      },
    );
    this.stmt.consumeRecheck.run(now, now, row.work_item_id);
    this.deps.events.append(row.agent_id, 'work_item_recheck_fired', {
      work_item_id: row.work_item_id,
      message_id: message.message_id,
      recheck_at: isoAt(row.recheck_at!),
      recheck_consumed_at: now,
    });
    return true;
  }

  /** Arm the one timer for the earliest pending recheck (no-op before start or after stop). */
  private arm(): void {
    if (!this.started || this.stopped) return;
    this.clearTimer();
    const next = this.stmt.nextRecheck.get() as number | null;
    if (next === null || next === undefined) return;
    const at = Math.max(next, this.backoffUntil);
    const delay = Math.min(Math.max(0, at - this.deps.clock.now()), MAX_TIMEOUT_MS);
    this.timer = setTimeout(() => {
      this.timer = null;
      try {
        this.runDueRechecks();
      } catch (err) {
        this.deps.logger.error({ err }, 'work item rechecks failed');
      }
    }, delay);
    this.timer.unref();
  }

  private rearmAfterCommit(): void {
    this.deps.store.afterCommit(() => this.arm());
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  // --- helpers --------------------------------------------------------------------------------

  private find(agentId: string, workItemId: string): WorkItem | null {
    const row = this.stmt.get.get(workItemId, agentId) as Row | undefined;
    return row ? fromRow(row) : null;
  }

  private load(agentId: string, workItemId: string): WorkItem {
    const item = this.find(agentId, workItemId);
    if (!item) throw errors.workItemNotFound(workItemId, { agent_id: agentId, work_item_id: workItemId });
    return item;
  }

  private now(): string {
    return isoAt(this.deps.clock.now());
  }
}

function fromRow(row: Row): WorkItem {
  return {
    id: row.work_item_id,
    agent_id: row.agent_id,
    objective: row.objective,
    state: row.state,
    plan_status: row.plan_status,
    created_at: row.created_at,
    updated_at: row.updated_at,
    blocked_by: row.blocked_by,
    plan_artifact: row.plan_artifact ? (JSON.parse(row.plan_artifact) as PlanArtifact) : null,
    recheck_at: row.recheck_at === null ? null : isoAt(row.recheck_at),
    recheck_consumed_at: row.recheck_consumed_at,
    result_summary: row.result_summary,
    revision: row.revision,
    todo_list: JSON.parse(row.todo_list) as TodoItem[],
    workspace_id: row.workspace_id,
  };
}

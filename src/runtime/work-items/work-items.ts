/**
 * Work items (spec WorkItem, PickWorkItemResponse, "States and transitions / Work item";
 * docs/control-plane-api.md#work-items): durable objectives an agent works on, with a plan status,
 * a todo list, an optional blocker with a recheck, a per-agent durable current focus (pick), and
 * completion with a result report.
 *
 * Every change commits with its event in one transaction (work_item_created, work_item_updated,
 * work_item_picked, work_item_completed + brief_created). The record and its projections live in
 * work-item-records.ts; the recheck schedule (work_item_recheck_fired) in work-item-rechecks.ts.
 *
 * Plans (runtime/workspaces/plan-artifacts.ts has the rules): PATCH `plan_artifact` {path,
 * workspace_id?} attaches a file of one of the agent's workspaces and null detaches it; the agent's
 * attach_plan tool may write the file first; `legacy_inline_plan` on create is written to
 * `<agent home>/plans/<work_item_id>.md` and attached, and is never stored or shown as such. Files
 * are read and checked before the transaction; the row and the event (work_item_created or
 * work_item_updated, carrying the artifact as captured) commit together. Reads serve the artifact
 * refreshed from the file (PlanRefresher).
 *
 * Completion binds the completion intent (`completion`: result summary, completed_by, completed_at,
 * authority class, result brief id, plan hash), stored with the state change and carried by
 * work_item_completed.
 */
import fs from 'node:fs';
import type Database from 'better-sqlite3';
import { isoAt, errors } from '../../core/index.js';
import type { BriefService } from '../channels/index.js';
import type { ResourceService, RuntimeDeps } from '../deps.js';
import {
  AGENT_HOME_ID,
  capturePlan,
  parseStoredPlan,
  PlanRefresher,
  PLAN_TEXT_MAX_BYTES,
  writePlanText,
  type ExecutionRoot,
  type PlanRoots,
  type StoredPlan,
  type WorkspaceService,
} from '../workspaces/index.js';
import { WorkItemRechecks } from './work-item-rechecks.js';
import {
  fromRow,
  readinessOf,
  slimOf,
  type AttachPlanInput,
  type CompleteInput,
  type Completion,
  type CreateWorkItemInput,
  type PickInput,
  type PickResult,
  type SwitchKind,
  type Warning,
  type WorkItem,
  type WorkItemPatch,
  type WorkItemRow,
  type WorkItemSlim,
} from './work-item-records.js';

/** Bound of the state page's work item section. */
export const STATE_PAGE_LIMIT = 50;

export class WorkItemService implements ResourceService {
  private readonly stmt;
  private readonly rechecks: WorkItemRechecks;
  private readonly plans = new PlanRefresher();

  constructor(private readonly deps: RuntimeDeps & { briefs: BriefService; workspaces: WorkspaceService }) {
    const db: Database.Database = deps.store.db;
    this.rechecks = new WorkItemRechecks(deps);
    this.stmt = {
      insert: db.prepare(
        `INSERT INTO work_items (work_item_id, agent_id, objective, state, plan_status, plan_artifact, revision, todo_list, workspace_id, created_at, updated_at)
         VALUES (?, ?, ?, 'open', 'draft', ?, 1, '[]', 'agent_home', ?, ?)`,
      ),
      get: db.prepare('SELECT * FROM work_items WHERE work_item_id = ? AND agent_id = ?'),
      list: db.prepare('SELECT * FROM work_items WHERE agent_id = ? ORDER BY work_item_id'),
      slim: db.prepare(
        `SELECT * FROM work_items WHERE agent_id = ?
         ORDER BY CASE state WHEN 'open' THEN 0 ELSE 1 END, updated_at DESC, work_item_id DESC LIMIT ?`,
      ),
      update: db.prepare(
        `UPDATE work_items SET objective = @objective, plan_status = @plan_status, todo_list = @todo_list, blocked_by = @blocked_by,
           recheck_at = @recheck_at, recheck_consumed_at = @recheck_consumed_at, plan_artifact = @plan_artifact, revision = revision + 1,
           updated_at = @updated_at
         WHERE work_item_id = @work_item_id`,
      ),
      complete: db.prepare(
        `UPDATE work_items SET state = 'completed', result_summary = ?, completion = ?, revision = revision + 1, updated_at = ? WHERE work_item_id = ?`,
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
    this.rechecks.start();
  }

  stop(): void {
    this.rechecks.stop();
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
    this.rechecks.arm();
  }

  /** Slim work items for GET /api/agents/:id/state: open ones first, newest first, bounded. */
  stateFor(agentId: string): WorkItemSlim[] {
    return (this.stmt.slim.all(agentId, STATE_PAGE_LIMIT) as WorkItemRow[]).map((row) => slimOf(fromRow(row)));
  }

  // --- reads ----------------------------------------------------------------------------------

  /** Every work item of the agent, oldest first (404 agent_not_found for an unknown agent). */
  list(agentId: string): WorkItem[] {
    this.deps.agents.get(agentId);
    const roots = this.rootsOf(agentId);
    return (this.stmt.list.all(agentId) as WorkItemRow[]).map((row) => this.present(row, roots));
  }

  /** At most `limit` work items, open ones first, newest first (the state page's order, full records). */
  recent(agentId: string, limit: number): WorkItem[] {
    this.deps.agents.get(agentId);
    const roots = this.rootsOf(agentId);
    return (this.stmt.slim.all(agentId, limit) as WorkItemRow[]).map((row) => this.present(row, roots));
  }

  /** One work item (404 agent_not_found, 404 work_item_not_found). */
  get(agentId: string, workItemId: string): WorkItem {
    this.deps.agents.get(agentId);
    return this.present(this.loadRow(agentId, workItemId));
  }

  /** The agent's current focus (the last picked work item id), or null. */
  currentFocus(agentId: string): string | null {
    return (this.stmt.focus.get(agentId) as string | undefined) ?? null;
  }

  // --- changes --------------------------------------------------------------------------------

  /**
   * A new open draft. A non-blank `legacy_inline_plan` is written to
   * `<agent home>/plans/<work_item_id>.md` (0600) and attached as the plan artifact first; the file
   * goes away again when the item cannot be created.
   */
  create(agentId: string, input: CreateWorkItemInput): WorkItem {
    const objective = input.objective.trim();
    if (!objective) throw errors.emptyObjective();
    const legacy = input.legacy_inline_plan?.trim() ? input.legacy_inline_plan : null;
    if (legacy !== null && Buffer.byteLength(legacy, 'utf8') > PLAN_TEXT_MAX_BYTES) {
      throw errors.planTooLarge('text', Buffer.byteLength(legacy, 'utf8'), PLAN_TEXT_MAX_BYTES);
    }
    this.deps.agents.assertWritable(agentId);
    const id = this.deps.ids.make('workItem');
    const plan = legacy === null ? null : this.writeAndCapture(agentId, { path: `plans/${id}.md`, workspace_id: AGENT_HOME_ID }, legacy);
    try {
      return this.deps.store.tx(() => {
        this.deps.agents.assertWritable(agentId);
        const now = this.now();
        this.stmt.insert.run(id, agentId, objective, plan === null ? null : JSON.stringify(plan), now, now);
        const item = this.load(agentId, id);
        this.deps.events.append(agentId, 'work_item_created', {
          work_item_id: id,
          objective,
          state: item.state,
          plan_status: item.plan_status,
          revision: item.revision,
          workspace_id: item.workspace_id,
          plan_artifact: item.plan_artifact,
          authority_class: input.authority_class ?? null,
        });
        return item;
      });
    } catch (err) {
      if (plan !== null) fs.rmSync(plan.path, { force: true });
      throw err;
    }
  }

  update(agentId: string, workItemId: string, patch: WorkItemPatch): WorkItem {
    const fields = (['objective', 'plan_status', 'todo_list', 'blocked_by', 'recheck_after', 'plan_artifact'] as const).filter(
      (k) => patch[k] !== undefined,
    );
    if (fields.length === 0) throw errors.emptyUpdate();
    let objective: string | undefined;
    if (patch.objective !== undefined) {
      objective = patch.objective.trim();
      if (!objective) throw errors.emptyObjective();
    }
    // The file is found, checked and read before the transaction; a refusal changes nothing.
    let plan: StoredPlan | null | undefined;
    if (patch.plan_artifact) {
      this.assertOpen(agentId, workItemId);
      plan = capturePlan(this.planRoots(agentId), agentId, patch.plan_artifact, this.now());
    } else if (patch.plan_artifact === null) plan = null;
    const changed = this.deps.store.tx(() => {
      this.deps.agents.assertWritable(agentId);
      const row = this.loadRow(agentId, workItemId);
      const item = fromRow(row);
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
        plan_artifact: plan === undefined ? row.plan_artifact : plan === null ? null : JSON.stringify(plan),
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
      this.rechecks.rearmAfterCommit();
      return updated;
    });
    return this.presentItem(agentId, changed);
  }

  /**
   * The agent's attach_plan tool: write `text` to the file first when given (inside the
   * workspace only), then attach the file exactly like PATCH `plan_artifact`.
   */
  attachPlan(agentId: string, workItemId: string, input: AttachPlanInput): WorkItem {
    const { text, authority_class, ...loc } = input;
    if (text === undefined) return this.update(agentId, workItemId, { plan_artifact: loc, authority_class });
    this.assertOpen(agentId, workItemId);
    const { root, real } = writePlanText(this.planRoots(agentId), agentId, loc, text);
    return this.update(agentId, workItemId, { plan_artifact: { path: real, workspace_id: root.workspace_id }, authority_class });
  }

  /** Make the item the agent's current focus and describe the transition. */
  pick(agentId: string, workItemId: string, input: PickInput = {}): PickResult {
    const reason = input.reason?.trim() ? input.reason.trim() : null;
    const result = this.deps.store.tx((): PickResult => {
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
    const roots = this.rootsOf(agentId);
    return {
      ...result,
      current_work_item: this.presentItem(agentId, result.current_work_item, roots),
      previous_work_item: result.previous_work_item && this.presentItem(agentId, result.previous_work_item, roots),
    };
  }

  /**
   * open -> completed with the report as result_summary and as the result brief; a legacy
   * `completing` record is finalised (its report may be omitted: it keeps its summary).
   */
  complete(agentId: string, workItemId: string, input: CompleteInput): WorkItem {
    const roots = this.rootsOf(agentId);
    const completed = this.deps.store.tx(() => {
      this.deps.agents.assertWritable(agentId);
      const row = this.loadRow(agentId, workItemId);
      const item = fromRow(row);
      if (item.state === 'completed') throw errors.workItemNotOpen(item.id, item.state);
      const hasReport = input.report_text.trim() !== '';
      if (!hasReport && item.state === 'open') throw errors.emptyReport();
      const summary = hasReport ? input.report_text : item.result_summary;
      const brief = hasReport
        ? this.deps.briefs.create({ agentId, kind: 'result', title: `Work item completed: ${item.objective}`, text: input.report_text, workItemId: item.id })
        : null;
      const stored = parseStoredPlan(row.plan_artifact);
      const now = this.now();
      const completion: Completion = {
        result_summary: summary,
        completed_by: input.completed_by ?? 'operator',
        completed_at: now,
        authority_class: input.authority_class ?? null,
        result_brief_id: brief?.brief_id ?? null,
        plan_hash: stored ? this.plans.current(stored, roots).hash : null,
      };
      this.stmt.complete.run(summary, JSON.stringify(completion), now, item.id);
      const done = this.load(agentId, item.id);
      this.deps.events.append(agentId, 'work_item_completed', {
        work_item_id: item.id,
        from_state: item.state,
        revision: done.revision,
        result_summary: done.result_summary,
        completion,
        authority_class: input.authority_class ?? null,
      });
      // A pending recheck of a completed item never fires.
      this.rechecks.rearmAfterCommit();
      return done;
    });
    return this.presentItem(agentId, completed, roots);
  }

  // --- rechecks -------------------------------------------------------------------------------

  /** Fire every recheck whose time has passed (work-item-rechecks.ts); returns how many fired. */
  runDueRechecks(): number {
    return this.rechecks.runDue();
  }

  // --- helpers --------------------------------------------------------------------------------

  private findRow(agentId: string, workItemId: string): WorkItemRow | null {
    return (this.stmt.get.get(workItemId, agentId) as WorkItemRow | undefined) ?? null;
  }

  private loadRow(agentId: string, workItemId: string): WorkItemRow {
    const row = this.findRow(agentId, workItemId);
    if (!row) throw errors.workItemNotFound(workItemId, { agent_id: agentId, work_item_id: workItemId });
    return row;
  }

  private find(agentId: string, workItemId: string): WorkItem | null {
    const row = this.findRow(agentId, workItemId);
    return row ? fromRow(row) : null;
  }

  private load(agentId: string, workItemId: string): WorkItem {
    return fromRow(this.loadRow(agentId, workItemId));
  }

  /** 404/409 before a file is touched (the transaction checks again). */
  private assertOpen(agentId: string, workItemId: string): void {
    this.deps.agents.assertWritable(agentId);
    const item = this.load(agentId, workItemId);
    if (item.state !== 'open') throw errors.workItemNotOpen(item.id, item.state);
  }

  /** The agent's workspaces, looked up once and only when a plan needs them. */
  private rootsOf(agentId: string): () => ExecutionRoot[] {
    let roots: ExecutionRoot[] | undefined;
    return () => (roots ??= this.deps.workspaces.roots(agentId));
  }

  private planRoots(agentId: string): PlanRoots {
    return { roots: this.deps.workspaces.roots(agentId), activeWorkspaceId: this.deps.workspaces.activeId(agentId) };
  }

  private writeAndCapture(agentId: string, loc: { path: string; workspace_id: string }, text: string): StoredPlan {
    const ctx = this.planRoots(agentId);
    const { root, real } = writePlanText(ctx, agentId, loc, text);
    try {
      return capturePlan(ctx, agentId, { path: real, workspace_id: root.workspace_id }, this.now());
    } catch (err) {
      fs.rmSync(real, { force: true });
      throw err;
    }
  }

  /**
   * The public record of a row: its plan artifact as the file is now
   * (runtime/workspaces/plan-artifacts.ts).
   */
  private present(row: WorkItemRow, roots: () => ExecutionRoot[] = this.rootsOf(row.agent_id)): WorkItem {
    const item = fromRow(row);
    const plan = parseStoredPlan(row.plan_artifact);
    return plan ? { ...item, plan_artifact: this.plans.current(plan, roots) } : item;
  }

  /** `present` for a record read inside a transaction (its plan, if any, is read again). */
  private presentItem(agentId: string, item: WorkItem, roots?: () => ExecutionRoot[]): WorkItem {
    return item.plan_artifact === null ? item : this.present(this.loadRow(agentId, item.id), roots);
  }

  private now(): string {
    return isoAt(this.deps.clock.now());
  }
}

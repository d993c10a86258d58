/**
 * The records of supervised child agents (`child_supervisions`, store/migrations/018): one row per
 * child_agent task. No behaviour here; child-tasks.ts decides, this file reads and writes.
 */
import type Database from 'better-sqlite3';
import type { WorktreeRecord } from './child-worktree.js';
import type { TaskRow } from './task-records.js';

export const WORKSPACE_MODES = ['inherit', 'worktree'] as const;
export type WorkspaceMode = (typeof WORKSPACE_MODES)[number];
export const CLEANUP_POLICIES = ['auto', 'retain', 'remove'] as const;
export type CleanupPolicy = (typeof CLEANUP_POLICIES)[number];

interface SupervisionRow {
  task_id: string;
  parent_agent_id: string;
  child_agent_id: string;
  delegation_id: string;
  cleanup_owner: string;
  followup_target: string;
  initial_message: string;
  child_work_item_id: string | null;
  parent_work_item_id: string | null;
  workspace_mode: WorkspaceMode;
  cleanup_policy: CleanupPolicy;
  cleanup_status: string | null;
  worktree: string | null;
  /** The child's latest result or failure brief while the task ran. */
  last_result_brief: string | null;
  /** 1 while the child's answer is being recorded (worktree inspection, then the task finishes). */
  result_pending: number;
  followups: number;
  created_at: string;
  updated_at: string;
}

export type Supervision = Omit<SupervisionRow, 'worktree'> & { worktree: WorktreeRecord | null };

export type NewSupervision = Pick<
  Supervision,
  'task_id' | 'parent_agent_id' | 'child_agent_id' | 'delegation_id' | 'initial_message' | 'parent_work_item_id' | 'workspace_mode' | 'cleanup_policy'
>;

export class SupervisionStore {
  private readonly stmt;

  constructor(db: Database.Database, private readonly now: () => string) {
    this.stmt = {
      insert: db.prepare(
        `INSERT INTO child_supervisions (task_id, parent_agent_id, child_agent_id, delegation_id, cleanup_owner, followup_target, initial_message,
           parent_work_item_id, workspace_mode, cleanup_policy, created_at, updated_at)
         VALUES (@task_id, @parent_agent_id, @child_agent_id, @delegation_id, 'supervision_task', 'parent_supervisor', @initial_message,
           @parent_work_item_id, @workspace_mode, @cleanup_policy, @now, @now)`,
      ),
      get: db.prepare('SELECT * FROM child_supervisions WHERE task_id = ?'),
      byChild: db.prepare('SELECT * FROM child_supervisions WHERE child_agent_id = ? ORDER BY created_at, task_id'),
      byParent: db.prepare('SELECT * FROM child_supervisions WHERE parent_agent_id = ?'),
      all: db.prepare('SELECT * FROM child_supervisions'),
      update: db.prepare(
        `UPDATE child_supervisions SET child_work_item_id = @child_work_item_id, cleanup_status = @cleanup_status, worktree = @worktree,
           last_result_brief = @last_result_brief, result_pending = @result_pending, followups = @followups, updated_at = @updated_at
         WHERE task_id = @task_id`,
      ),
      purgeParent: db.prepare('DELETE FROM child_supervisions WHERE parent_agent_id = ?'),
      runningOfChild: db.prepare("SELECT * FROM tasks WHERE child_agent_id = ? AND kind = 'child_agent' AND status = 'running' LIMIT 1"),
      followupQueued: db
        .prepare("SELECT 1 FROM messages WHERE agent_id = ? AND status = 'queued' AND correlation_id = ? LIMIT 1")
        .pluck(),
      activeTotal: db.prepare("SELECT count(*) FROM tasks WHERE kind = 'child_agent' AND status IN ('queued', 'running', 'cancelling')").pluck(),
      activeChildren: db
        .prepare("SELECT count(*) FROM tasks WHERE agent_id = ? AND kind = 'child_agent' AND status IN ('queued', 'running', 'cancelling')")
        .pluck(),
    };
  }

  insert(s: NewSupervision): void {
    this.stmt.insert.run({ ...s, now: this.now() });
  }

  find(taskId: string): Supervision | null {
    const row = this.stmt.get.get(taskId) as SupervisionRow | undefined;
    return row ? parse(row) : null;
  }

  load(taskId: string): Supervision {
    const sup = this.find(taskId);
    if (!sup) throw new Error(`no supervision record for task ${taskId}`);
    return sup;
  }

  /** Every task that supervised `childId`, oldest first. */
  ofChild(childId: string): Supervision[] {
    return (this.stmt.byChild.all(childId) as SupervisionRow[]).map(parse);
  }

  ofParent(parentId: string): Supervision[] {
    return (this.stmt.byParent.all(parentId) as SupervisionRow[]).map(parse);
  }

  all(): Supervision[] {
    return (this.stmt.all.all() as SupervisionRow[]).map(parse);
  }

  save(sup: Supervision): void {
    this.stmt.update.run({ ...sup, worktree: sup.worktree ? JSON.stringify(sup.worktree) : null, updated_at: this.now() });
  }

  purgeParent(parentId: string): void {
    this.stmt.purgeParent.run(parentId);
  }

  /** The running task supervising `childId`, if any. */
  runningTaskOf(childId: string): TaskRow | null {
    return (this.stmt.runningOfChild.get(childId) as TaskRow | undefined) ?? null;
  }

  /** Whether a message of this supervision (the delegation or a follow-up) still waits in the child's queue. */
  followupQueued(childId: string, taskId: string): boolean {
    return this.stmt.followupQueued.get(childId, taskId) !== undefined;
  }

  activeChildrenTotal(): number {
    return this.stmt.activeTotal.get() as number;
  }

  activeChildrenOf(parentId: string): number {
    return this.stmt.activeChildren.get(parentId) as number;
  }
}

function parse(row: SupervisionRow): Supervision {
  return { ...row, worktree: row.worktree ? (JSON.parse(row.worktree) as WorktreeRecord) : null };
}

/**
 * Types shared by the projections of this folder (here so that none of them imports another
 * for its type).
 */

/** One thing an agent waits for, as the state page's `waiting_intents` lists it. */
export type WaitingIntent =
  | { kind: 'task_result'; task_id: string; task_kind: string; status: string; summary: string | null }
  | { kind: 'timer'; timer_id: string; next_fire_at: string | null; interval_ms: number | null; summary: string | null }
  | { kind: 'operator_input'; work_item_id: string; objective: string }
  | { kind: 'blocked_work_item'; work_item_id: string; objective: string; blocked_by: string | null }
  | { kind: 'approval'; approval_id: string; turn_id: string; tool: string; expires_at: string };

/** A pending approval request as the state page lists it. */
export interface ApprovalStateEntry {
  approval_id: string;
  turn_id: string;
  tool: string;
  classes: string[];
  trust: string;
  requested_at: string;
  expires_at: string;
}

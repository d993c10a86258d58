/**
 * What an agent is doing or waiting for, said in the real system's vocabulary (Holon's
 * `scheduling_posture`, `closure` and `waiting_reason`), derived on every read from the same live
 * rows as the state page's sections; nothing here is stored. The Holon web GUI reads these on the
 * agent list entry and the state page (docs/holon-gui.md).
 *
 * Precedence follows the real system: a stopped agent, then a turn in progress, then queued
 * input, then the work queue (runnable work, a task to wait for, a timer, operator input, a
 * blocker), else idle.
 */
import type { WorkItemSlim } from '../work-items/index.js';
import type { WaitingIntent } from './types.js';

export type SchedulingPostureKind =
  | 'stopped'
  | 'active_turn'
  | 'has_queued_input'
  | 'has_runnable_work'
  | 'waiting_for_task'
  | 'waiting_for_external'
  | 'waiting_for_operator'
  | 'blocked'
  | 'idle';

export type WaitingReason = 'awaiting_operator_input' | 'awaiting_external_change' | 'awaiting_task_result' | 'awaiting_timer';

export interface SchedulingPosture {
  posture: SchedulingPostureKind;
  reason: string;
  run_id: string | null;
  task_id: string | null;
  work_item_id: string | null;
}

export interface Closure {
  outcome: 'completed' | 'continuable' | 'waiting';
  runtime_posture: 'awake' | 'sleeping';
  waiting_reason: WaitingReason | null;
}

export interface PostureFacts {
  status: string;
  /** The turn in progress (its id is the run id), or null. */
  currentTurnId: string | null;
  pending: number;
  /** The open work items (slim) and the agent's current focus. */
  workItems: WorkItemSlim[];
  currentWorkItemId: string | null;
  /** What the agent waits for (`waitingIntents`). */
  intents: WaitingIntent[];
}

const WAITING_REASON: Record<WaitingIntent['kind'], WaitingReason> = {
  task_result: 'awaiting_task_result',
  operator_input: 'awaiting_operator_input',
  blocked_work_item: 'awaiting_external_change',
  timer: 'awaiting_timer',
  approval: 'awaiting_operator_input',
};

/** Which wait names the agent's waiting reason when there are several (the real system's order). */
const WAIT_ORDER: WaitingIntent['kind'][] = ['approval', 'task_result', 'timer', 'operator_input', 'blocked_work_item'];

function firstIntent<K extends WaitingIntent['kind']>(intents: WaitingIntent[], kind: K): Extract<WaitingIntent, { kind: K }> | undefined {
  return intents.find((i): i is Extract<WaitingIntent, { kind: K }> => i.kind === kind);
}

function posture(kind: SchedulingPostureKind, reason: string, ids: Partial<Pick<SchedulingPosture, 'run_id' | 'task_id' | 'work_item_id'>> = {}): SchedulingPosture {
  return { posture: kind, reason, run_id: ids.run_id ?? null, task_id: ids.task_id ?? null, work_item_id: ids.work_item_id ?? null };
}

export function schedulingPosture(f: PostureFacts): SchedulingPosture {
  if (f.status === 'stopped') return posture('stopped', 'agent lifecycle is stopped');
  // A turn paused on an approval: waiting for the operator (the run id is the paused turn).
  const approval = firstIntent(f.intents, 'approval');
  if (approval) return posture('waiting_for_operator', `waiting for the operator to approve ${approval.tool}`, { run_id: approval.turn_id });
  if (f.currentTurnId) return posture('active_turn', 'agent has an active turn', { run_id: f.currentTurnId });
  if (f.pending > 0) return posture('has_queued_input', 'agent has queued input');
  const runnable = runnableWork(f);
  if (runnable) return posture('has_runnable_work', `work item is runnable: ${runnable.objective}`, { work_item_id: runnable.id });
  const task = firstIntent(f.intents, 'task_result');
  if (task) return posture('waiting_for_task', `waiting for the result of task ${task.task_id}`, { task_id: task.task_id });
  const timer = firstIntent(f.intents, 'timer');
  if (timer) return posture('waiting_for_external', `waiting for timer ${timer.timer_id}`);
  const operator = firstIntent(f.intents, 'operator_input');
  if (operator) return posture('waiting_for_operator', `work item needs operator input: ${operator.objective}`, { work_item_id: operator.work_item_id });
  const blocked = firstIntent(f.intents, 'blocked_work_item');
  if (blocked) return posture('blocked', `work item is blocked: ${blocked.blocked_by ?? blocked.objective}`, { work_item_id: blocked.work_item_id });
  return posture('idle', 'agent is idle');
}

export function waitingReason(intents: WaitingIntent[]): WaitingReason | null {
  for (const kind of WAIT_ORDER) if (intents.some((i) => i.kind === kind)) return WAITING_REASON[kind];
  return null;
}

export function closure(f: PostureFacts): Closure {
  const reason = waitingReason(f.intents);
  const paused = f.intents.some((i) => i.kind === 'approval');
  const awake = f.status !== 'stopped' && !paused && (f.currentTurnId !== null || f.pending > 0);
  const continuable = f.status !== 'stopped' && (f.pending > 0 || runnableWork(f) !== undefined);
  return {
    outcome: reason ? 'waiting' : continuable ? 'continuable' : 'completed',
    runtime_posture: awake ? 'awake' : 'sleeping',
    waiting_reason: reason,
  };
}

/** The current focus when it is runnable, else the first runnable open item. */
function runnableWork(f: PostureFacts): WorkItemSlim | undefined {
  const runnable = f.workItems.filter((w) => w.state === 'open' && w.readiness === 'runnable');
  return runnable.find((w) => w.id === f.currentWorkItemId) ?? runnable[0];
}

/**
 * Event levels (docs/control-plane-api.md#event-log): `max_level=info` returns info only, `verbose`
 * returns info and verbose, `debug` (the default) returns everything.
 */
export const LEVELS = ['info', 'verbose', 'debug'] as const;
export type Level = (typeof LEVELS)[number];
export const LEVEL_RANK: Record<Level, number> = { info: 0, verbose: 1, debug: 2 };

/** The level of each event kind svc emits. A kind not listed here is `verbose`. */
const KIND_LEVELS: Record<string, Level> = {
  agent_created: 'info',
  agent_renamed: 'info',
  agent_repaired: 'info',
  agent_deletion_requested: 'info',
  message_enqueued: 'info',
  message_processing: 'verbose',
  message_completed: 'verbose',
  message_failed: 'info',
  message_retried: 'info',
  turn_entry: 'info',
  turn_completed: 'info',
  turn_failed: 'info',
  turn_interjected: 'info',
  turn_interrupted: 'info',
  brief_created: 'info',
  brief_delivered: 'info',
  brief_delivery_failed: 'info',
  wake_requested: 'info',
  control_applied: 'info',
  run_aborted: 'info',
  model_changed: 'info',
  task_create_requested: 'info',
  task_status_changed: 'info',
  timer_created: 'info',
  timer_fired: 'info',
  timer_cancelled: 'info',
  wait_registered: 'info',
  work_item_created: 'info',
  work_item_updated: 'info',
  work_item_picked: 'info',
  work_item_completed: 'info',
  work_item_recheck_fired: 'info',
  external_trigger_created: 'info',
  external_trigger_revoked: 'info',
  operator_binding_upserted: 'info',
  workspace_attached: 'info',
  workspace_exited: 'info',
  workspace_detached: 'info',
  file_changed: 'info',
  context_compacted: 'info',
  skill_enabled: 'info',
  skill_disabled: 'info',
  skill_opened: 'info',
  task_force_stop_requested: 'info',
  task_input_delivered: 'verbose',
  tool_approval_requested: 'info',
  tool_approval_decided: 'info',
  policy_changed: 'info',
  budget_exceeded: 'info',
  tool_called: 'verbose',
  tool_result: 'verbose',
  model_round: 'debug',
  // The real system's companion kinds (holon-kinds.ts), at the level of the event they mirror.
  turn_started: 'info',
  task_created: 'info',
  task_status_updated: 'info',
  task_result_received: 'info',
  tool_executed: 'verbose',
  tool_execution_failed: 'verbose',
};

/** The kinds with a level of their own (the console subscribes to these by name on EventSource). */
export const LEVELLED_KINDS: readonly string[] = Object.keys(KIND_LEVELS);

export function levelOf(kind: string): Level {
  return KIND_LEVELS[kind] ?? 'verbose';
}

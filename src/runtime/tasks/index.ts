/**
 * Tasks: command tasks and supervised child agents behind one service, their rows and the
 * `task_result` message. The operating-system side is in processes/.
 */
export { CLEANUP_POLICIES, WORKSPACE_MODES } from './child-tasks.js';
export { MAX_OUTPUT_WAIT_MS, TASK_STATUSES, TERMINAL_SIZE, isTerminal, type TaskStatus } from './task-records.js';
export { TaskService, type TaskStateEntry } from './tasks.js';
export type { SandboxStatus } from './processes/index.js';

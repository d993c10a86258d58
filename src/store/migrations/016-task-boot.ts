import type { Migration } from './types.js';

/**
 * The boot a task's leader was started in (`/proc/sys/kernel/random/boot_id`). A start time
 * (`proc_start`) counts clock ticks since boot, so after a reboot the recorded pid + start time
 * may name an unrelated process: recovery then trusts no recorded session or group, only the
 * marker in a process's environment (runtime/tasks/processes/task-reaper.ts). Null for rows written
 * before this column and where /proc is not available.
 */
export const taskBoot: Migration = {
  version: 16,
  name: 'task_boot',
  up: `ALTER TABLE tasks ADD COLUMN proc_boot TEXT;`,
};

import type { Migration } from './types.js';

/**
 * Command tasks that run in a pseudo-terminal (runtime/tasks/processes/task-pty.ts). `tty` is 1 for
 * such a task; `tty_cols`/`tty_rows` are the terminal size it was started with (null for a task
 * without a terminal). Rows written before this migration are pipe tasks: tty 0, no size.
 */
export const taskTty: Migration = {
  version: 20,
  name: 'task_tty',
  up: `
    ALTER TABLE tasks ADD COLUMN tty INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE tasks ADD COLUMN tty_cols INTEGER;
    ALTER TABLE tasks ADD COLUMN tty_rows INTEGER;
  `,
};

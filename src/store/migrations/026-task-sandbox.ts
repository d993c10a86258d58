import type { Migration } from './types.js';

/**
 * The command sandbox (runtime/tasks/processes/sandbox.ts). `network`: 1 when the task may reach
 * the network (no network namespace of its own); `sandbox_root`: the workspace root bound writable
 * in its sandbox, fixed at create; `sandboxed`: whether it ran in bubblewrap, set when it starts
 * (null before, and for child_agent tasks). Command tasks written before this migration ran as the
 * daemon's user with its network: network 1, sandboxed 0 once started.
 */
export const taskSandbox: Migration = {
  version: 26,
  name: 'task_sandbox',
  up: `
    ALTER TABLE tasks ADD COLUMN network INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE tasks ADD COLUMN sandbox_root TEXT;
    ALTER TABLE tasks ADD COLUMN sandboxed INTEGER;
    UPDATE tasks SET network = 1 WHERE kind = 'command';
    UPDATE tasks SET sandboxed = 0 WHERE kind = 'command' AND pid IS NOT NULL;
  `,
};

import type { Migration } from './types.js';

/**
 * Supervised child-agent tasks (runtime/tasks/child-tasks.ts) and task provenance.
 *
 * `tasks` is rebuilt so that the command columns may be null: a `child_agent` task has no command
 * line, shell, workdir or output file. New columns: `parent_message_id` (the message whose turn
 * created the task; null for operator-created tasks) and `child_agent_id`.
 *
 * `child_supervisions` holds one row per child-agent task: who supervises whom, how the child's
 * workspace was made (`inherit` or `worktree`), the worktree record (JSON, the spec's
 * child_supervision.worktree object) and the cleanup policy and state. It outlives the child
 * agent (the parent reads it after the child is gone) and goes with the parent's tasks.
 */
export const childAgents: Migration = {
  version: 18,
  name: 'child_agents',
  up: `
    CREATE TABLE tasks_new (
      seq               INTEGER PRIMARY KEY AUTOINCREMENT,
      task_id           TEXT NOT NULL UNIQUE,
      agent_id          TEXT NOT NULL,
      kind              TEXT NOT NULL DEFAULT 'command',
      status            TEXT NOT NULL,
      summary           TEXT,
      cmd               TEXT,
      cmd_digest        TEXT,
      shell             TEXT,
      login             INTEGER NOT NULL DEFAULT 0,
      accepts_input     INTEGER NOT NULL DEFAULT 0,
      workdir           TEXT,
      output_path       TEXT,
      exit_status       INTEGER,
      term_signal       TEXT,
      result_summary    TEXT,
      failure           TEXT,
      pid               INTEGER,
      pgid              INTEGER,
      proc_start        TEXT,
      stop_requests     INTEGER NOT NULL DEFAULT 0,
      created_at        TEXT NOT NULL,
      updated_at        TEXT NOT NULL,
      started_at        TEXT,
      finished_at       TEXT,
      proc_boot         TEXT,
      parent_message_id TEXT,
      child_agent_id    TEXT
    );
    INSERT INTO tasks_new (seq, task_id, agent_id, kind, status, summary, cmd, cmd_digest, shell, login, accepts_input, workdir, output_path,
        exit_status, term_signal, result_summary, failure, pid, pgid, proc_start, stop_requests, created_at, updated_at, started_at, finished_at, proc_boot)
      SELECT seq, task_id, agent_id, kind, status, summary, cmd, cmd_digest, shell, login, accepts_input, workdir, output_path,
        exit_status, term_signal, result_summary, failure, pid, pgid, proc_start, stop_requests, created_at, updated_at, started_at, finished_at, proc_boot
      FROM tasks;
    DROP TABLE tasks;
    ALTER TABLE tasks_new RENAME TO tasks;
    CREATE INDEX tasks_by_agent ON tasks (agent_id, seq);
    CREATE INDEX tasks_active ON tasks (status, agent_id, seq) WHERE status IN ('queued', 'running', 'cancelling');
    CREATE INDEX tasks_by_child ON tasks (child_agent_id) WHERE child_agent_id IS NOT NULL;

    CREATE TABLE child_supervisions (
      task_id             TEXT PRIMARY KEY,
      parent_agent_id     TEXT NOT NULL,
      child_agent_id      TEXT NOT NULL,
      delegation_id       TEXT NOT NULL,
      cleanup_owner       TEXT NOT NULL,
      followup_target     TEXT NOT NULL,
      initial_message     TEXT NOT NULL,
      child_work_item_id  TEXT,
      parent_work_item_id TEXT,
      workspace_mode      TEXT NOT NULL,
      cleanup_policy      TEXT NOT NULL,
      cleanup_status      TEXT,
      worktree            TEXT,
      last_result_brief   TEXT,
      result_pending      INTEGER NOT NULL DEFAULT 0,
      followups           INTEGER NOT NULL DEFAULT 0,
      created_at          TEXT NOT NULL,
      updated_at          TEXT NOT NULL
    );
    CREATE INDEX child_supervisions_by_parent ON child_supervisions (parent_agent_id);
    CREATE INDEX child_supervisions_by_child ON child_supervisions (child_agent_id);
  `,
};

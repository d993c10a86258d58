import type { Migration } from './types.js';

/**
 * Command tasks (docs/control-plane-api.md#command-tasks). `pid`/`pgid` and `proc_start` (the
 * leader's start time from /proc, when available) are persisted so a daemon that died with tasks
 * running can find and kill their leftover process groups at the next start without hitting a
 * recycled pid.
 */
export const tasks: Migration = {
  version: 4,
  name: 'tasks',
  up: `
    CREATE TABLE tasks (
      seq            INTEGER PRIMARY KEY AUTOINCREMENT,
      task_id        TEXT NOT NULL UNIQUE,
      agent_id       TEXT NOT NULL,
      kind           TEXT NOT NULL DEFAULT 'command',
      status         TEXT NOT NULL,
      summary        TEXT,
      cmd            TEXT NOT NULL,
      cmd_digest     TEXT NOT NULL,
      shell          TEXT NOT NULL,
      login          INTEGER NOT NULL DEFAULT 0,
      accepts_input  INTEGER NOT NULL DEFAULT 0,
      workdir        TEXT NOT NULL,
      output_path    TEXT NOT NULL,
      exit_status    INTEGER,
      term_signal    TEXT,
      result_summary TEXT,
      failure        TEXT,
      pid            INTEGER,
      pgid           INTEGER,
      proc_start     TEXT,
      stop_requests  INTEGER NOT NULL DEFAULT 0,
      created_at     TEXT NOT NULL,
      updated_at     TEXT NOT NULL,
      started_at     TEXT,
      finished_at    TEXT
    );
    CREATE INDEX tasks_by_agent ON tasks (agent_id, seq);
    CREATE INDEX tasks_active ON tasks (status, agent_id, seq) WHERE status IN ('queued', 'running', 'cancelling');
  `,
};

import type { Migration } from './types.js';

/**
 * Tool executions (src/runtime/executions/): one row per tool call a model made, written with the
 * round that asked for it and completed with its results, and the artifacts a call left (a patch's
 * diff, a fetched page, a result too long for the prompt), readable by index.
 */
export const toolExecutions: Migration = {
  version: 28,
  name: 'tool_executions',
  up: `
    CREATE TABLE tool_executions (
      execution_id  TEXT PRIMARY KEY,
      agent_id      TEXT NOT NULL,
      turn_id       TEXT NOT NULL,
      round         INTEGER NOT NULL,
      tool_call_id  TEXT NOT NULL,
      tool_name     TEXT NOT NULL,
      trust         TEXT NOT NULL,
      work_item_id  TEXT,
      status        TEXT NOT NULL,
      classes       TEXT,
      input         TEXT NOT NULL,
      output        TEXT,
      output_bytes  INTEGER,
      error_code    TEXT,
      created_at    TEXT NOT NULL,
      completed_at  TEXT,
      duration_ms   INTEGER
    ) WITHOUT ROWID;
    CREATE INDEX tool_executions_agent ON tool_executions(agent_id, created_at);
    CREATE INDEX tool_executions_turn ON tool_executions(turn_id);
    CREATE INDEX tool_executions_running ON tool_executions(status) WHERE status = 'running';
    CREATE TABLE tool_execution_artifacts (
      execution_id  TEXT NOT NULL,
      idx           INTEGER NOT NULL,
      kind          TEXT NOT NULL,
      name          TEXT NOT NULL,
      media_type    TEXT NOT NULL,
      size          INTEGER NOT NULL,
      truncated     INTEGER NOT NULL,
      content       TEXT NOT NULL,
      PRIMARY KEY (execution_id, idx)
    ) WITHOUT ROWID;
  `,
};

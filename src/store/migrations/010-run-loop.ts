import type { Migration } from './types.js';

/**
 * The run loop: turns (one per processed message), their activities (rounds, tool calls,
 * interjections), the visible conversation history, and briefs. Times are RFC 3339 strings.
 */
export const runLoop: Migration = {
  version: 10,
  name: 'run_loop',
  up: `
CREATE TABLE turns (
  turn_id    TEXT PRIMARY KEY,
  agent_id   TEXT NOT NULL,
  message_id TEXT NOT NULL,
  status     TEXT NOT NULL,
  model_ref  TEXT NOT NULL,
  rounds     INTEGER NOT NULL DEFAULT 0,
  started_at TEXT NOT NULL,
  ended_at   TEXT,
  error      TEXT
);
CREATE INDEX turns_agent ON turns(agent_id, turn_id);
CREATE INDEX turns_running ON turns(status) WHERE status = 'running';

CREATE TABLE turn_activities (
  turn_id    TEXT NOT NULL,
  seq        INTEGER NOT NULL,
  kind       TEXT NOT NULL,
  payload    TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (turn_id, seq)
) WITHOUT ROWID;

CREATE TABLE conversation_history (
  agent_id   TEXT NOT NULL,
  seq        INTEGER NOT NULL,
  role       TEXT NOT NULL,
  content    TEXT NOT NULL,
  turn_id    TEXT,
  message_id TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (agent_id, seq)
) WITHOUT ROWID;
CREATE INDEX conversation_history_turn ON conversation_history(turn_id);

CREATE TABLE briefs (
  brief_id         TEXT PRIMARY KEY,
  agent_id         TEXT NOT NULL,
  kind             TEXT NOT NULL,
  title            TEXT NOT NULL,
  text             TEXT NOT NULL,
  turn_id          TEXT,
  message_id       TEXT,
  work_item_id     TEXT,
  failure_artifact TEXT,
  created_at       TEXT NOT NULL
);
CREATE INDEX briefs_agent ON briefs(agent_id, brief_id);
`,
};

import type { Migration } from './types.js';

/** The spine: agents, their durable event logs, the message queue, background jobs. */
export const v1: Migration = {
  version: 1,
  name: 'initial',
  up: `
CREATE TABLE agents (
  agent_id        TEXT PRIMARY KEY,
  display_name    TEXT NOT NULL,
  incarnation     INTEGER NOT NULL,
  status          TEXT NOT NULL,
  template        TEXT,
  parent_agent_id TEXT,
  visibility      TEXT NOT NULL DEFAULT 'public',
  model_override  TEXT,
  bootstrap       TEXT NOT NULL DEFAULT '{}',
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL
);
CREATE INDEX agents_parent ON agents(parent_agent_id);

-- Remembers the last incarnation of every agent id ever created, so a re-created agent gets a
-- new incarnation even after its row and its log were purged.
CREATE TABLE agent_incarnations (
  agent_id         TEXT PRIMARY KEY,
  last_incarnation INTEGER NOT NULL
);

CREATE TABLE events (
  agent_id   TEXT NOT NULL,
  event_seq  INTEGER NOT NULL,
  id         TEXT NOT NULL,
  ts         TEXT NOT NULL,
  type       TEXT NOT NULL,
  level      INTEGER NOT NULL,
  payload    TEXT NOT NULL,
  PRIMARY KEY (agent_id, event_seq)
) WITHOUT ROWID;

CREATE TABLE messages (
  seq              INTEGER PRIMARY KEY AUTOINCREMENT,
  message_id       TEXT NOT NULL UNIQUE,
  agent_id         TEXT NOT NULL,
  kind             TEXT NOT NULL,
  origin           TEXT NOT NULL,
  trust            TEXT NOT NULL,
  authority_class  TEXT NOT NULL,
  priority         TEXT NOT NULL,
  priority_rank    INTEGER NOT NULL,
  body             TEXT NOT NULL,
  metadata         TEXT NOT NULL,
  correlation_id   TEXT,
  causation_id     TEXT,
  delivery_surface TEXT NOT NULL,
  status           TEXT NOT NULL,
  attempts         INTEGER NOT NULL DEFAULT 0,
  error            TEXT,
  created_at       TEXT NOT NULL,
  updated_at       TEXT NOT NULL
);
CREATE INDEX messages_dequeue ON messages(agent_id, status, priority_rank, seq);

CREATE TABLE jobs (
  job_id     TEXT PRIMARY KEY,
  kind       TEXT NOT NULL,
  agent_id   TEXT,
  status     TEXT NOT NULL,
  phase      TEXT,
  progress   TEXT,
  params     TEXT NOT NULL DEFAULT '{}',
  result     TEXT,
  error      TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX jobs_agent ON jobs(agent_id, kind, created_at);
`,
};

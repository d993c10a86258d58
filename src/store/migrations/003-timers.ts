import type { Migration } from './types.js';

/**
 * Agent timers (docs/control-plane-api.md#timers). Times the scheduler compares are stored as epoch
 * milliseconds (`created_ms`, `next_fire_ms`); the record's RFC 3339 fields are derived from
 * them. `incarnation` ties a timer to the agent incarnation that created it, so a re-created
 * agent id never sees (or revives) the timers of a deleted one.
 */
export const timers: Migration = {
  version: 3,
  name: 'timers',
  up: `
CREATE TABLE timers (
  seq            INTEGER PRIMARY KEY AUTOINCREMENT,
  timer_id       TEXT NOT NULL UNIQUE,
  agent_id       TEXT NOT NULL,
  incarnation    INTEGER NOT NULL,
  status         TEXT NOT NULL,
  duration_ms    INTEGER NOT NULL,
  interval_ms    INTEGER,
  summary        TEXT,
  created_ms     INTEGER NOT NULL,
  next_fire_ms   INTEGER,
  last_fired_ms  INTEGER,
  fire_count     INTEGER NOT NULL DEFAULT 0,
  updated_ms     INTEGER NOT NULL
);
CREATE INDEX timers_agent ON timers(agent_id, incarnation, status, seq);
CREATE INDEX timers_active ON timers(next_fire_ms) WHERE status = 'active';
`,
};

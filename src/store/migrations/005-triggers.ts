import type { Migration } from './types.js';

/**
 * External triggers (callback capability tokens, docs/control-plane-api.md#external-triggers). The
 * token itself is never stored: only its sha256 (ARCHITECTURE.md principle 7), which is what a
 * callback looks up.
 */
export const triggers: Migration = {
  version: 5,
  name: 'triggers',
  up: `
CREATE TABLE external_triggers (
  trigger_id    TEXT PRIMARY KEY,
  agent_id      TEXT NOT NULL,
  delivery_mode TEXT NOT NULL,
  summary       TEXT,
  token_hash    TEXT NOT NULL UNIQUE,
  status        TEXT NOT NULL,
  use_count     INTEGER NOT NULL DEFAULT 0,
  created_at    TEXT NOT NULL,
  revoked_at    TEXT,
  last_used_at  TEXT
);
CREATE INDEX external_triggers_agent ON external_triggers(agent_id, created_at);
`,
};

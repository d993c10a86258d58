import type { Migration } from './types.js';

/**
 * Operator transport bindings. `delivery_auth` holds the delivery credential (JSON); it is needed
 * in clear to deliver replies, so it is stored, but no response or event ever carries it.
 */
export const bindings: Migration = {
  version: 6,
  name: 'bindings',
  up: `
CREATE TABLE operator_bindings (
  binding_id            TEXT PRIMARY KEY,
  agent_id              TEXT NOT NULL,
  transport             TEXT NOT NULL,
  operator_actor_id     TEXT NOT NULL,
  default_route_id      TEXT,
  delivery_callback_url TEXT,
  delivery_auth         TEXT,
  capabilities          TEXT NOT NULL DEFAULT '{}',
  provider              TEXT,
  provider_identity_ref TEXT,
  metadata              TEXT NOT NULL DEFAULT '{}',
  status                TEXT NOT NULL,
  created_at            TEXT NOT NULL,
  updated_at            TEXT NOT NULL
);
CREATE INDEX operator_bindings_agent ON operator_bindings(agent_id, created_at);
`,
};

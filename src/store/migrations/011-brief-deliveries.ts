import type { Migration } from './types.js';

/**
 * Durable deliveries of briefs to operator bindings (src/runtime/channels/brief-delivery.ts): one
 * row per brief to deliver, created in the brief's transaction. `payload` is the JSON body POSTed
 * to the binding's callback (never the credential, which is read from the binding at each attempt).
 * `status`: pending (next_attempt_ms set) -> delivered | failed.
 */
export const briefDeliveries: Migration = {
  version: 11,
  name: 'brief_deliveries',
  up: `
CREATE TABLE brief_deliveries (
  brief_id         TEXT PRIMARY KEY,
  agent_id         TEXT NOT NULL,
  binding_id       TEXT NOT NULL,
  status           TEXT NOT NULL,
  payload          TEXT NOT NULL,
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_ms  INTEGER,
  last_status_code INTEGER,
  last_error       TEXT,
  created_at       TEXT NOT NULL,
  updated_at       TEXT NOT NULL
);
CREATE INDEX brief_deliveries_pending ON brief_deliveries(next_attempt_ms) WHERE status = 'pending';
CREATE INDEX brief_deliveries_agent ON brief_deliveries(agent_id);
`,
};

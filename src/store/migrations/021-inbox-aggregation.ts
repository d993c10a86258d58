import type { Migration } from './types.js';

/**
 * Inbox aggregation policies and digests (src/inbox/delivery/aggregation.ts,
 * src/inbox/delivery/digests.ts).
 *
 * - `inbox_agents.aggregation`, `inbox_targets.aggregation`: the agent's policy and a target's
 *   override, as canonical JSON; NULL is "none of its own" (a target follows its agent, an agent
 *   the default `coalesce {windowMs: 250}`), which is what every existing row gets.
 * - `inbox_digest_schedules`: one row per target whose effective policy is a digest. `policy` is
 *   the policy the row was computed for (a change restarts the schedule), `anchor_ms` where an
 *   `every` grid starts, `next_due_ms` the next period boundary. The digest notification, the
 *   target's cursor and `next_due_ms` change in one transaction, so a period yields one digest,
 *   also across a crash; a boundary that passed while the daemon was down is still in the row.
 * - `inbox_entries_unacked_source`: unacknowledged entries by kind and source, so that a digest
 *   counts per source with index range scans, without reading the entries themselves.
 */
export const inboxAggregation: Migration = {
  version: 21,
  name: 'inbox_aggregation',
  up: `
ALTER TABLE inbox_agents ADD COLUMN aggregation TEXT;
ALTER TABLE inbox_targets ADD COLUMN aggregation TEXT;

CREATE TABLE inbox_digest_schedules (
  target_id       TEXT PRIMARY KEY,
  agent_id        TEXT NOT NULL,
  policy          TEXT NOT NULL,
  anchor_ms       INTEGER NOT NULL,
  next_due_ms     INTEGER,
  last_digest_ms  INTEGER,
  digest_count    INTEGER NOT NULL DEFAULT 0,
  created_ms      INTEGER NOT NULL,
  updated_ms      INTEGER NOT NULL
);
CREATE INDEX inbox_digest_schedules_agent ON inbox_digest_schedules(agent_id);

CREATE INDEX inbox_entries_unacked_source ON inbox_entries(agent_id, kind, source_id, seq) WHERE acked_at IS NULL;
`,
};

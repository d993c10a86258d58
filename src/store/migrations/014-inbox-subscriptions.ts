import type { Migration } from './types.js';

/**
 * Inbox agents, subscriptions and inbox entries (spec/inbox.md Agents, Subscriptions, Inbox).
 * Entries are ordered by `seq` (their cursor is the `ent_` id, resolved to its seq); an event
 * entry is unique per subscription and stream offset, so a replay never duplicates one.
 *
 * The indexes are laid out for fan-out: one append matching N subscriptions inserts N entries
 * into N inboxes, and every index keyed by agent puts each of them on a different page. So the
 * uniqueness index leads with the stream position (all N land together, at its tail), and the
 * per-agent order is split into an unacknowledged and an acknowledged partial index: an insert
 * touches only the first, an ack moves entries to the second.
 */
export const inboxSubscriptions: Migration = {
  version: 14,
  name: 'inbox_subscriptions',
  up: `
CREATE TABLE inbox_agents (
  agent_id TEXT PRIMARY KEY,
  name TEXT,
  delivery_paused INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);

CREATE TABLE inbox_subscriptions (
  subscription_id TEXT PRIMARY KEY,
  agent_id TEXT NOT NULL REFERENCES inbox_agents(agent_id) ON DELETE CASCADE,
  source_id TEXT NOT NULL,
  filter TEXT NOT NULL,
  tracked_resource_ref TEXT,
  cleanup_mode TEXT NOT NULL,
  cleanup_at TEXT,
  grace_period_secs INTEGER,
  start_policy TEXT NOT NULL,
  start_offset INTEGER,
  start_time TEXT,
  consumed_offset INTEGER NOT NULL,
  terminal_at TEXT,
  remove_at_ms INTEGER,
  created_at TEXT NOT NULL
);
CREATE INDEX inbox_subscriptions_source ON inbox_subscriptions(source_id);
CREATE INDEX inbox_subscriptions_agent ON inbox_subscriptions(agent_id);

CREATE TABLE inbox_entries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  entry_id TEXT NOT NULL UNIQUE,
  agent_id TEXT NOT NULL REFERENCES inbox_agents(agent_id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  subscription_id TEXT,
  source_id TEXT,
  stream_offset INTEGER,
  event TEXT,
  sender TEXT,
  message TEXT,
  schedule_id TEXT,
  created_at TEXT NOT NULL,
  acked_at TEXT
);
CREATE UNIQUE INDEX inbox_entries_source_offset ON inbox_entries(source_id, stream_offset, subscription_id) WHERE subscription_id IS NOT NULL;
CREATE INDEX inbox_entries_unacked ON inbox_entries(agent_id, seq) WHERE acked_at IS NULL;
CREATE INDEX inbox_entries_acked ON inbox_entries(agent_id, seq) WHERE acked_at IS NOT NULL;
`,
};

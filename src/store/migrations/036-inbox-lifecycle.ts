import type { Migration } from './types.js';

/**
 * Inbox lifecycle (docs/inbox-api.md#agent-lifecycle):
 * - `inbox_notifications.target_kind`: the kind of the target a notification was for, so a sent
 *   webhook activation stays in the history (`GET /status` `recentActivations`) after its target
 *   is removed, as AgentInbox keeps it. Filled from the targets that exist.
 * - `inbox_agents.last_seen_ms`: when the agent last read, watched or acknowledged its inbox, or
 *   changed its targets; an agent offline and unseen for `inbox.offline_agent_ttl_ms` is removed.
 *   Existing agents count as seen now, so no agent is removed for a time before this migration.
 * - `inbox_opened_inboxes`: inboxes a read opened for an id no agent holds (AgentInbox creates the
 *   inbox of any agent id it is asked about); an agent registering with that id takes it over.
 */
export const inboxLifecycle: Migration = {
  version: 36,
  name: 'inbox_lifecycle',
  up: `
    ALTER TABLE inbox_notifications ADD COLUMN target_kind TEXT;
    UPDATE inbox_notifications SET target_kind = (SELECT kind FROM inbox_targets t WHERE t.target_id = inbox_notifications.target_id);
    CREATE INDEX inbox_notifications_activations ON inbox_notifications(seq) WHERE target_kind = 'webhook' AND status = 'sent';
    ALTER TABLE inbox_agents ADD COLUMN last_seen_ms INTEGER;
    UPDATE inbox_agents SET last_seen_ms = CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER);
    CREATE TABLE inbox_opened_inboxes (
      agent_id     TEXT PRIMARY KEY,
      created_at   TEXT NOT NULL,
      last_seen_ms INTEGER NOT NULL
    );
  `,
};

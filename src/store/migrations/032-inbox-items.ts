import type { Migration } from './types.js';

/**
 * AgentInbox's inbox model (src/inbox/entries/, docs/agentinbox.md#inbox-items-and-entries): one
 * item per stream event per agent, read as entries (an item, or a digest snapshot of a thread).
 *
 * - A row of `inbox_entries` is one item (kind event, direct, timer); its item id is its entry id
 *   with `itm_` for `ent_`. An item outside a thread is also an entry. `subscription_ids` lists the
 *   agent's subscriptions that matched its event (JSON; NULL: none), `match_reason` why the first
 *   one did, `summary` AgentInbox's one-line summary of the item.
 * - Existing entries of one event for several subscriptions of one agent become one item: the
 *   first keeps the others' subscriptions, and stays unacknowledged while any of them was.
 * - `inbox_materialized` remembers every (agent, source, offset) that became an item (and its entry
 *   id), also after the item is compacted away, so a reset or a new subscription never materialises
 *   it again; it replaces the per-subscription unique index and, like it, leads with the stream
 *   position, so the rows of one event for N agents land together at its tail. Entries compacted
 *   before this version are not in it.
 * - Threads (`inbox_threads`, open ones only) group related items of an agent whose inbox policy
 *   (`inbox_agents.inbox_policy`, JSON of the fields set) is enabled: their items carry `thread_id`
 *   and are read through rows of kind `digest_snapshot` (`thread_id`, `revision`, `snapshot`: JSON of
 *   the item ids and times), each superseding (`superseded_at`) the thread's previous one.
 */
export const inboxItems: Migration = {
  version: 32,
  name: 'inbox_items',
  up: `
ALTER TABLE inbox_entries ADD COLUMN subscription_ids TEXT;
ALTER TABLE inbox_entries ADD COLUMN match_reason TEXT;
ALTER TABLE inbox_entries ADD COLUMN summary TEXT;
ALTER TABLE inbox_entries ADD COLUMN thread_id TEXT;
ALTER TABLE inbox_entries ADD COLUMN revision INTEGER;
ALTER TABLE inbox_entries ADD COLUMN superseded_at TEXT;
ALTER TABLE inbox_entries ADD COLUMN snapshot TEXT;
ALTER TABLE inbox_agents ADD COLUMN inbox_policy TEXT;

UPDATE inbox_entries SET
  subscription_ids = (
    SELECT json_group_array(subscription_id) FROM (
      SELECT DISTINCT d.subscription_id FROM inbox_entries d
      WHERE d.source_id = inbox_entries.source_id AND d.stream_offset = inbox_entries.stream_offset AND d.agent_id = inbox_entries.agent_id
      ORDER BY d.subscription_id)),
  acked_at = CASE WHEN EXISTS (
      SELECT 1 FROM inbox_entries d
      WHERE d.source_id = inbox_entries.source_id AND d.stream_offset = inbox_entries.stream_offset AND d.agent_id = inbox_entries.agent_id
        AND d.acked_at IS NULL) THEN NULL ELSE acked_at END,
  match_reason = CASE WHEN (SELECT json_extract(s.filter, '$.expr') FROM inbox_subscriptions s WHERE s.subscription_id = inbox_entries.subscription_id) IS NOT NULL
    THEN 'filter shortcuts and expr matched' ELSE 'filter shortcuts matched' END
WHERE kind = 'event';

DELETE FROM inbox_entries WHERE kind = 'event' AND EXISTS (
  SELECT 1 FROM inbox_entries d
  WHERE d.source_id = inbox_entries.source_id AND d.stream_offset = inbox_entries.stream_offset AND d.agent_id = inbox_entries.agent_id
    AND d.seq < inbox_entries.seq);

UPDATE inbox_entries SET summary = CASE kind
  WHEN 'event' THEN coalesce(
      (SELECT h.host_type || ':' || s.stream_key FROM inbox_sources s JOIN inbox_hosts h ON h.host_id = s.host_id WHERE s.source_id = inbox_entries.source_id),
      source_id) || ':' || coalesce(json_extract(event, '$.type'), '')
  WHEN 'direct' THEN 'direct_text_message' || coalesce(':' || sender, '')
  ELSE 'timer:' || coalesce(schedule_id, '') END;

CREATE TABLE inbox_materialized (
  source_id TEXT NOT NULL,
  stream_offset INTEGER NOT NULL,
  agent_id TEXT NOT NULL,
  entry_id TEXT NOT NULL,
  PRIMARY KEY (source_id, stream_offset, agent_id)
) WITHOUT ROWID;
INSERT INTO inbox_materialized (source_id, stream_offset, agent_id, entry_id)
  SELECT source_id, stream_offset, agent_id, entry_id FROM inbox_entries WHERE kind = 'event';
DROP INDEX inbox_entries_source_offset;

CREATE TABLE inbox_threads (
  thread_id TEXT PRIMARY KEY,
  agent_id TEXT NOT NULL REFERENCES inbox_agents(agent_id) ON DELETE CASCADE,
  source_id TEXT NOT NULL,
  group_key TEXT NOT NULL,
  resource_ref TEXT NOT NULL,
  event_family TEXT NOT NULL,
  summary TEXT NOT NULL,
  revision INTEGER NOT NULL DEFAULT 0,
  head_seq INTEGER,
  flush_at_ms INTEGER,
  created_ms INTEGER NOT NULL
);
CREATE UNIQUE INDEX inbox_threads_group ON inbox_threads(agent_id, group_key);
CREATE INDEX inbox_threads_flush ON inbox_threads(flush_at_ms) WHERE flush_at_ms IS NOT NULL;
CREATE INDEX inbox_entries_thread ON inbox_entries(thread_id, seq) WHERE thread_id IS NOT NULL;
`,
};

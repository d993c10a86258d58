import type { Migration } from './types.js';

/**
 * Work items (spec WorkItem; docs/control-plane-api.md#work-items) and each agent's durable current
 * focus. `state` is `open` or `completed`; `completing` only appears in legacy records, which
 * POST complete finalises. `recheck_at` is epoch milliseconds (the scheduler compares it with the
 * clock); every other time is an RFC 3339 string like the rest of the schema.
 */
export const workItems: Migration = {
  version: 2,
  name: 'work-items',
  up: `
CREATE TABLE work_items (
  work_item_id        TEXT PRIMARY KEY,
  agent_id            TEXT NOT NULL,
  objective           TEXT NOT NULL,
  state               TEXT NOT NULL,
  plan_status         TEXT NOT NULL DEFAULT 'draft',
  blocked_by          TEXT,
  legacy_inline_plan  TEXT,
  plan_artifact       TEXT,
  recheck_at          INTEGER,
  recheck_consumed_at TEXT,
  result_summary      TEXT,
  revision            INTEGER NOT NULL DEFAULT 1,
  todo_list           TEXT NOT NULL DEFAULT '[]',
  workspace_id        TEXT NOT NULL DEFAULT 'agent_home',
  created_at          TEXT NOT NULL,
  updated_at          TEXT NOT NULL
);
CREATE INDEX work_items_agent ON work_items(agent_id, work_item_id);
-- The scheduler's question: the earliest recheck still to fire.
CREATE INDEX work_items_recheck_pending ON work_items(recheck_at)
  WHERE recheck_at IS NOT NULL AND recheck_consumed_at IS NULL AND state = 'open';

CREATE TABLE work_item_focus (
  agent_id     TEXT PRIMARY KEY,
  work_item_id TEXT NOT NULL,
  reason       TEXT,
  picked_at    TEXT NOT NULL
);
`,
};

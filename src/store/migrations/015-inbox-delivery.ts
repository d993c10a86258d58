import type { Migration } from './types.js';

/**
 * Inbox delivery (spec/inbox.md Targets, agent delivery pause/resume, Timers;
 * docs/inbox-api.md#delivery).
 *
 * - `inbox_targets`: activation targets of an inbox agent. `queued_through` is the highest entry
 *   id already listed in a notification row (new rows list only later entries), `notified_through`
 *   the highest entry id of a notification that was delivered: together they make catch-up never
 *   replay a backlog that was already notified, across restarts. The webhook signing secret is
 *   not here: it lives in the secret store (src/store/secrets.ts).
 * - `inbox_notifications`: durable notification rows (pending -> sent | failed) with their
 *   attempts and next attempt time, so retries and catch-up survive restarts. `payload` is the
 *   body sent (the listed entries), fixed when the row is created.
 * - `inbox_schedules`: inbox timers (at | every | cron in an IANA time zone). `next_fire_ms` and
 *   `fire_count` change in the transaction that creates the occurrence's entry: exactly once.
 */
export const inboxDelivery: Migration = {
  version: 15,
  name: 'inbox_delivery',
  up: `
CREATE TABLE inbox_targets (
  seq                  INTEGER PRIMARY KEY AUTOINCREMENT,
  target_id            TEXT NOT NULL UNIQUE,
  agent_id             TEXT NOT NULL,
  kind                 TEXT NOT NULL,
  config               TEXT NOT NULL,
  status               TEXT NOT NULL DEFAULT 'active',
  offline_reason       TEXT,
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
  last_error           TEXT,
  queued_through       TEXT,
  notified_through     TEXT,
  last_attempt_ms      INTEGER,
  last_success_ms      INTEGER,
  created_ms           INTEGER NOT NULL,
  updated_ms           INTEGER NOT NULL
);
CREATE INDEX inbox_targets_agent ON inbox_targets(agent_id, seq);

CREATE TABLE inbox_notifications (
  seq              INTEGER PRIMARY KEY AUTOINCREMENT,
  notification_id  TEXT NOT NULL UNIQUE,
  target_id        TEXT NOT NULL,
  agent_id         TEXT NOT NULL,
  reason           TEXT NOT NULL,
  entry_count      INTEGER NOT NULL,
  first_entry_id   TEXT NOT NULL,
  last_entry_id    TEXT NOT NULL,
  payload          TEXT NOT NULL,
  status           TEXT NOT NULL,
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_ms  INTEGER NOT NULL,
  last_error       TEXT,
  created_ms       INTEGER NOT NULL,
  updated_ms       INTEGER NOT NULL,
  sent_ms          INTEGER
);
CREATE INDEX inbox_notifications_pending ON inbox_notifications(target_id, seq) WHERE status = 'pending';
CREATE INDEX inbox_notifications_done ON inbox_notifications(updated_ms) WHERE status <> 'pending';
CREATE INDEX inbox_notifications_agent ON inbox_notifications(agent_id);

CREATE TABLE inbox_schedules (
  seq            INTEGER PRIMARY KEY AUTOINCREMENT,
  schedule_id    TEXT NOT NULL UNIQUE,
  agent_id       TEXT NOT NULL,
  kind           TEXT NOT NULL,
  at_ms          INTEGER,
  every_ms       INTEGER,
  cron           TEXT,
  timezone       TEXT NOT NULL,
  message        TEXT NOT NULL,
  sender         TEXT,
  status         TEXT NOT NULL,
  next_fire_ms   INTEGER,
  last_fired_ms  INTEGER,
  fire_count     INTEGER NOT NULL DEFAULT 0,
  created_ms     INTEGER NOT NULL,
  updated_ms     INTEGER NOT NULL
);
CREATE INDEX inbox_schedules_agent ON inbox_schedules(agent_id, seq);
CREATE INDEX inbox_schedules_active ON inbox_schedules(next_fire_ms) WHERE status = 'active';
`,
};

import type { Migration } from './types.js';

/**
 * Inbox hosts, sources and the SQLite stream backend (docs/inbox-api.md#hosts-and-sources).
 *
 * - `inbox_streams` has one row per initialised stream (created on its first append), keyed by a
 *   small integer `stream_no` so event rows and their indexes stay narrow; it holds the high
 *   watermark (last offset) and the compaction counters, so stats never count rows.
 * - `inbox_events` is keyed by (stream_no, offset): an append is an insert at the right edge of
 *   that B-tree plus one entry in the idempotency index (stream_no, event_id). Nothing rewrites
 *   existing rows except compaction, which replaces `data_json`/`metadata_json` by NULL
 *   (identity stub) and sets `pruned`. There is no time index (it cost a quarter of an insert):
 *   while a stream's event times never decrease (`time_ordered`, the usual case) the first
 *   offset at or after a time is found by binary search over offsets; otherwise by a scan.
 * - Times the service compares are epoch milliseconds; records derive RFC 3339 from them.
 */
export const inboxStreams: Migration = {
  version: 13,
  name: 'inbox_streams',
  up: `
CREATE TABLE inbox_hosts (
  seq          INTEGER PRIMARY KEY AUTOINCREMENT,
  host_id      TEXT NOT NULL UNIQUE,
  host_type    TEXT NOT NULL,
  host_key     TEXT NOT NULL,
  config_json  TEXT NOT NULL,
  created_ms   INTEGER NOT NULL,
  UNIQUE (host_type, host_key)
);

CREATE TABLE inbox_sources (
  seq            INTEGER PRIMARY KEY AUTOINCREMENT,
  source_id      TEXT NOT NULL UNIQUE,
  host_id        TEXT NOT NULL REFERENCES inbox_hosts(host_id),
  stream_kind    TEXT NOT NULL,
  stream_key     TEXT NOT NULL,
  config_json    TEXT NOT NULL,
  config_ref     TEXT,
  state          TEXT NOT NULL,
  error          TEXT,
  paused_by      TEXT,
  idle_since_ms  INTEGER,
  cursor_json    TEXT,
  last_poll_ms   INTEGER,
  created_ms     INTEGER NOT NULL,
  updated_ms     INTEGER NOT NULL,
  UNIQUE (host_id, stream_kind, stream_key)
);

CREATE TABLE inbox_streams (
  stream_no        INTEGER PRIMARY KEY AUTOINCREMENT,
  stream_id        TEXT NOT NULL UNIQUE,
  high_watermark   INTEGER NOT NULL DEFAULT 0,
  pruned_count     INTEGER NOT NULL DEFAULT 0,
  pruned_through   INTEGER NOT NULL DEFAULT 0,
  pruned_bytes     INTEGER NOT NULL DEFAULT 0,
  last_time_ms     INTEGER,
  time_ordered     INTEGER NOT NULL DEFAULT 1,
  created_ms       INTEGER NOT NULL
);

CREATE TABLE inbox_events (
  stream_no      INTEGER NOT NULL,
  offset         INTEGER NOT NULL,
  event_id       TEXT NOT NULL,
  type           TEXT NOT NULL,
  subject        TEXT,
  time_ms        INTEGER NOT NULL,
  appended_ms    INTEGER NOT NULL,
  data_json      TEXT,
  metadata_json  TEXT,
  payload_bytes  INTEGER NOT NULL,
  pruned         INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (stream_no, offset)
) WITHOUT ROWID;
CREATE UNIQUE INDEX inbox_events_id ON inbox_events(stream_no, event_id);
`,
};

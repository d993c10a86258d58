import type { Migration } from './types.js';

/**
 * The local diagnostics store: selected completed traces (slow, failed, cancelled or sampled),
 * written off the request path in batches and bounded to the newest N rows. `spans` is the
 * trace's span list as JSON; `reason` says why it was kept.
 */
export const diagnostics: Migration = {
  version: 8,
  name: 'diagnostics',
  up: `
CREATE TABLE diagnostic_traces (
  seq          INTEGER PRIMARY KEY AUTOINCREMENT,
  trace_id     TEXT NOT NULL UNIQUE,
  root_name    TEXT NOT NULL,
  started_at   TEXT NOT NULL,
  duration_ms  REAL NOT NULL,
  status       TEXT NOT NULL,
  reason       TEXT NOT NULL,
  span_count   INTEGER NOT NULL,
  spans        TEXT NOT NULL,
  recorded_at  TEXT NOT NULL
);
`,
};

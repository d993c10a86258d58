import type { Migration } from './types.js';

/**
 * The model catalog's discovery cache (src/runtime/models/models.ts): one row per configured
 * provider with the model names its last successful discovery listed and when, and the outcome of
 * the last attempt. `base_url` and `kind` tell a cache written for another endpoint (the config
 * changed), which is then ignored. Survives restarts, so GET /api/models never needs to contact a
 * provider.
 */
export const models: Migration = {
  version: 12,
  name: 'models',
  up: `
CREATE TABLE model_discovery (
  provider        TEXT PRIMARY KEY,
  kind            TEXT NOT NULL,
  base_url        TEXT NOT NULL,
  models          TEXT NOT NULL DEFAULT '[]',
  discovered_at   INTEGER,
  attempted_at    INTEGER NOT NULL,
  error_kind      TEXT,
  error_message   TEXT
);
`,
};

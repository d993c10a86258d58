import type { Migration } from './types.js';

/**
 * Per-agent workspace registry. The built-in workspace `agent_home` (the agent home directory) is
 * implicit and never stored; `workspaces` holds the attached ones (`ws_` ids), unique per agent by
 * real path, and `workspace_active` the agent's active workspace (no row = `agent_home`).
 */
export const workspaces: Migration = {
  version: 7,
  name: 'workspaces',
  up: `
CREATE TABLE workspaces (
  workspace_id TEXT PRIMARY KEY,
  agent_id     TEXT NOT NULL,
  path         TEXT NOT NULL,
  root         TEXT NOT NULL,
  kind         TEXT NOT NULL,
  attached_at  TEXT NOT NULL,
  UNIQUE (agent_id, root)
);

CREATE TABLE workspace_active (
  agent_id     TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL
);
`,
};

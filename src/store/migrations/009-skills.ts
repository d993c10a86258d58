import type { Migration } from './types.js';

/**
 * Per-agent skill enablement (docs/control-plane-api.md#skills). One row per agent and skill name:
 * the scope it was enabled from (`agent`: a private copy in the agent home, `workspace`, `user`),
 * the source it resolved to and the directory it points at. Rows go away when the agent is deleted.
 */
export const skills: Migration = {
  version: 9,
  name: 'skills',
  up: `
CREATE TABLE agent_skills (
  agent_id    TEXT NOT NULL,
  name        TEXT NOT NULL,
  scope       TEXT NOT NULL,
  source      TEXT NOT NULL,
  path        TEXT NOT NULL,
  enabled_at  TEXT NOT NULL,
  PRIMARY KEY (agent_id, name)
);
`,
};

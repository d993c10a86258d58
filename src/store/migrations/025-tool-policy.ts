import type { Migration } from './types.js';

/**
 * Tool policy (src/runtime/policy/, src/runtime/approvals/): the trust a turn runs under and the
 * message that set it; the taint a task or timer carries from the turn that made it (its result or
 * tick is trusted no more); the operator's policy layer per agent; and approval requests, each with
 * what the paused turn needs to continue (`resume`), so a decision taken after a restart resumes it.
 */
export const toolPolicy: Migration = {
  version: 25,
  name: 'tool_policy',
  up: `
    ALTER TABLE turns ADD COLUMN trust TEXT;
    ALTER TABLE turns ADD COLUMN tainted_by TEXT;
    ALTER TABLE tasks ADD COLUMN taint TEXT;
    ALTER TABLE timers ADD COLUMN taint TEXT;
    CREATE TABLE agent_policies (
      agent_id   TEXT PRIMARY KEY,
      policy     TEXT NOT NULL,
      updated_at TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE approvals (
      approval_id  TEXT PRIMARY KEY,
      agent_id     TEXT NOT NULL,
      turn_id      TEXT NOT NULL,
      tool_call_id TEXT NOT NULL,
      tool         TEXT NOT NULL,
      arguments    TEXT NOT NULL,
      classes      TEXT NOT NULL,
      trust        TEXT NOT NULL,
      tainted_by   TEXT,
      status       TEXT NOT NULL,
      decision     TEXT,
      requested_at TEXT NOT NULL,
      expires_at   TEXT NOT NULL,
      decided_at   TEXT,
      resume       TEXT
    ) WITHOUT ROWID;
    CREATE INDEX approvals_agent ON approvals(agent_id, approval_id);
    CREATE INDEX approvals_pending ON approvals(status) WHERE status = 'pending';
    CREATE INDEX approvals_resumable ON approvals(requested_at) WHERE resume IS NOT NULL;
  `,
};

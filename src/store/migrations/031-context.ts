import type { Migration } from './types.js';

/**
 * Prompts within the model's window (src/runtime/context/, docs/context.md): each history entry's
 * tokens (counted when written; NULL for entries written before, counted when first read), the
 * compactions of an agent's history (a summary of the entries through `through_seq`, or their
 * dropping when the summary could not be made), and per agent where its history starts for the
 * prompt and how many tokens lie after that point.
 */
export const context: Migration = {
  version: 31,
  name: 'context',
  up: `
    ALTER TABLE conversation_history ADD COLUMN tokens INTEGER;

    CREATE TABLE context_compactions (
      compaction_id  TEXT PRIMARY KEY,
      agent_id       TEXT NOT NULL,
      method         TEXT NOT NULL,
      from_seq       INTEGER NOT NULL,
      through_seq    INTEGER NOT NULL,
      entries        INTEGER NOT NULL,
      summary        TEXT NOT NULL,
      tokens_before  INTEGER NOT NULL,
      tokens_after   INTEGER NOT NULL,
      model_ref      TEXT,
      turn_id        TEXT,
      reason         TEXT,
      created_at     TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX context_compactions_agent ON context_compactions(agent_id, through_seq);

    CREATE TABLE context_state (
      agent_id        TEXT PRIMARY KEY,
      through_seq     INTEGER NOT NULL,
      pending_tokens  INTEGER NOT NULL
    ) WITHOUT ROWID;
  `,
};

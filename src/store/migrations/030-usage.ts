import type { Migration } from './types.js';

/**
 * The usage ledger (src/runtime/usage/): one row per model round with its five kinds of tokens
 * and its cost, a running total per agent and UTC day kept in the same transaction (what the
 * budgets read before every turn), and where each agent's daily count restarts after an operator
 * resumed it. Kept for 400 days, not with the event log; gone with the agent.
 */
export const usage: Migration = {
  version: 30,
  name: 'usage',
  up: `
    CREATE TABLE usage_rounds (
      turn_id             TEXT NOT NULL,
      round               INTEGER NOT NULL,
      agent_id            TEXT NOT NULL,
      model_ref           TEXT NOT NULL,
      work_item_id        TEXT,
      day                 TEXT NOT NULL,
      input_tokens        INTEGER NOT NULL,
      output_tokens       INTEGER NOT NULL,
      cache_read_tokens   INTEGER NOT NULL,
      cache_write_tokens  INTEGER NOT NULL,
      reasoning_tokens    INTEGER NOT NULL,
      cost_usd            REAL,
      estimated           INTEGER NOT NULL,
      first_of_turn       INTEGER NOT NULL,
      created_at          TEXT NOT NULL,
      PRIMARY KEY (turn_id, round)
    ) WITHOUT ROWID;
    CREATE INDEX usage_rounds_agent_day ON usage_rounds(agent_id, day);
    CREATE INDEX usage_rounds_day ON usage_rounds(day);
    CREATE TABLE usage_days (
      agent_id            TEXT NOT NULL,
      day                 TEXT NOT NULL,
      input_tokens        INTEGER NOT NULL DEFAULT 0,
      output_tokens       INTEGER NOT NULL DEFAULT 0,
      cache_read_tokens   INTEGER NOT NULL DEFAULT 0,
      cache_write_tokens  INTEGER NOT NULL DEFAULT 0,
      reasoning_tokens    INTEGER NOT NULL DEFAULT 0,
      cost_usd            REAL NOT NULL DEFAULT 0,
      rounds              INTEGER NOT NULL DEFAULT 0,
      turns               INTEGER NOT NULL DEFAULT 0,
      unpriced_rounds     INTEGER NOT NULL DEFAULT 0,
      estimated_rounds    INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (agent_id, day)
    ) WITHOUT ROWID;
    CREATE TABLE usage_resumes (
      agent_id    TEXT PRIMARY KEY,
      day         TEXT NOT NULL,
      resumed_at  TEXT NOT NULL,
      tokens      INTEGER NOT NULL,
      cost_usd    REAL NOT NULL
    ) WITHOUT ROWID;
  `,
};

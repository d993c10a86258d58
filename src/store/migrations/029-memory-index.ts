import type { Migration } from './types.js';

/**
 * The memory index (src/runtime/memory/): the text a person reads in an agent's events, searchable.
 *
 * - `memory_fts`: an FTS5 table without content of its own (the text stays where it is stored
 *   once, in `events` and `texts`), words stemmed (porter) after unicode61 folded case and removed
 *   diacritics. `contentless_delete` lets retention and purges delete rows.
 * - `memory_docs`: one row per indexed event, the same rowid (`doc_id`): its agent, event_seq,
 *   kind, time, the ids it carries and its source's trust.
 * - `doc_id` = the agent's number (`memory_agents`) * 2^40 + event_seq, so one agent's rows are one
 *   rowid range, newest last: a search of one agent is a range of the index, not a filter after it.
 * - `memory_backfill`: the events stored before this migration still to be indexed, per agent
 *   from `next_seq` through `through_seq`; the memory index works it off after start, oldest first
 *   (rows in rowid order fill their pages).
 */
export const memoryIndex: Migration = {
  version: 29,
  name: 'memory_index',
  up: `
    CREATE TABLE memory_agents (
      agent_id  TEXT PRIMARY KEY,
      n         INTEGER NOT NULL UNIQUE
    );
    CREATE TABLE memory_docs (
      doc_id        INTEGER PRIMARY KEY,
      agent_id      TEXT NOT NULL,
      event_seq     INTEGER NOT NULL,
      kind          TEXT NOT NULL,
      ts            TEXT NOT NULL,
      message_id    TEXT,
      turn_id       TEXT,
      task_id       TEXT,
      work_item_id  TEXT,
      trust         TEXT,
      authority     TEXT
    );
    CREATE VIRTUAL TABLE memory_fts USING fts5(
      text, content = '', contentless_delete = 1, tokenize = 'porter unicode61 remove_diacritics 2'
    );
    CREATE TABLE memory_backfill (
      agent_id     TEXT PRIMARY KEY,
      next_seq     INTEGER NOT NULL,
      through_seq  INTEGER NOT NULL
    );
    INSERT INTO memory_backfill (agent_id, next_seq, through_seq)
      SELECT agent_id, min(event_seq), max(event_seq) FROM events GROUP BY agent_id;
  `,
};

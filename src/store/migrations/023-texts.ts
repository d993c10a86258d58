import type { Migration } from './types.js';

/** The tables whose long strings are stored in `texts` (store/texts.ts), each with a `text_ids` column. */
const OWNERS = ['events', 'messages', 'conversation_history', 'turn_activities', 'briefs'] as const;

/** One reference more (+) or fewer (-) for each chunk in `ids`, a JSON array (a chunk named twice counts once). */
const count = (ids: string, delta: '+' | '-') => `UPDATE texts SET refs = refs ${delta} 1 WHERE text_id IN (SELECT value FROM json_each(${ids}));`;
const dropUnreferenced = (ids: string) => `DELETE FROM texts WHERE refs <= 0 AND text_id IN (SELECT value FROM json_each(${ids}));`;

const triggers = (table: string) => `
ALTER TABLE ${table} ADD COLUMN text_ids TEXT;
CREATE TRIGGER ${table}_texts_insert AFTER INSERT ON ${table} WHEN new.text_ids IS NOT NULL BEGIN
  ${count('new.text_ids', '+')}
END;
CREATE TRIGGER ${table}_texts_delete AFTER DELETE ON ${table} WHEN old.text_ids IS NOT NULL BEGIN
  ${count('old.text_ids', '-')}
  ${dropUnreferenced('old.text_ids')}
END;
CREATE TRIGGER ${table}_texts_update AFTER UPDATE OF text_ids ON ${table} BEGIN
  ${count('new.text_ids', '+')}
  ${count('old.text_ids', '-')}
  ${dropUnreferenced('old.text_ids')}
END;
`;

/**
 * Large texts stored once (store/texts.ts): chunks of long strings by their sha256, with a count
 * of the rows referencing each. Every owning table gets `text_ids` (the chunk ids its row
 * references; NULL for a row stored as it is, as every existing row is) and triggers that keep
 * the counts and delete a chunk nothing references any more, whatever deletes its owners.
 * (`json_each` of NULL is empty, so the update trigger needs no condition.)
 */
export const texts: Migration = {
  version: 23,
  name: 'texts',
  up: `
CREATE TABLE texts (
  text_id  INTEGER PRIMARY KEY,
  hash     BLOB NOT NULL UNIQUE,
  refs     INTEGER NOT NULL DEFAULT 0,
  content  TEXT NOT NULL
);
${OWNERS.map(triggers).join('')}`,
};

import type { Migration } from './types.js';

/**
 * A direct inbox item may carry a JSON object of machine-readable fields beside its text (an
 * approval request's id, agent and tool), shown as the entry's `metadata`; NULL for other entries.
 */
export const inboxItemMetadata: Migration = {
  version: 27,
  name: 'inbox_item_metadata',
  up: `
    ALTER TABLE inbox_entries ADD COLUMN metadata TEXT;
  `,
};

import type { Migration } from './types.js';

/**
 * Streams shared by several daemons (inbox/streams/jetstream): a source registered on another
 * daemon is mirrored here with that daemon's id in `origin` (NULL: registered here); only the
 * daemon that registered a managed source polls it. `daemon_meta` keeps this daemon's own id.
 */
export const sharedSources: Migration = {
  version: 24,
  name: 'shared_sources',
  up: `
    ALTER TABLE inbox_sources ADD COLUMN origin TEXT;
    CREATE TABLE daemon_meta (
      key    TEXT PRIMARY KEY,
      value  TEXT NOT NULL
    ) WITHOUT ROWID;
  `,
};

import type { Migration } from './types.js';

/**
 * The last event_seq of an agent log that deletion purged (events/event-log.ts). A re-created agent
 * (a new incarnation) continues after it, so no cursor of the old log points into the new one.
 */
export const eventLogHeads: Migration = {
  version: 22,
  name: 'event_log_heads',
  up: `
    CREATE TABLE event_log_heads (
      agent_id  TEXT PRIMARY KEY,
      last_seq  INTEGER NOT NULL
    ) WITHOUT ROWID;
  `,
};

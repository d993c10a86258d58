import type { Migration } from './types.js';

/**
 * A subscription's consumer start (docs/inbox-api.md#subscriptions): a reset moves the consumer,
 * whose start policy, offset, time and update time are kept here, while the subscription keeps
 * the start it was created with (AgentInbox's consumer and subscription records). Null until the
 * first reset. A reset before this migration overwrote the subscription's own start.
 */
export const inboxConsumerStart: Migration = {
  version: 35,
  name: 'inbox_consumer_start',
  up: `
    ALTER TABLE inbox_subscriptions ADD COLUMN consumer_start_policy TEXT;
    ALTER TABLE inbox_subscriptions ADD COLUMN consumer_start_offset INTEGER;
    ALTER TABLE inbox_subscriptions ADD COLUMN consumer_start_time TEXT;
    ALTER TABLE inbox_subscriptions ADD COLUMN consumer_updated_at TEXT;
  `,
};

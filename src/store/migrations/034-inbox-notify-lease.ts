import type { Migration } from './types.js';

/**
 * AgentInbox's notify lease (docs/inbox-api.md#notify-lease): a webhook or terminal target that was
 * notified is not notified again until its agent acknowledges or the lease ends. The target's
 * dispatch state exists while `lease_expires_ms` is set.
 */
export const inboxNotifyLease: Migration = {
  version: 34,
  name: 'inbox_notify_lease',
  up: `
    ALTER TABLE inbox_targets ADD COLUMN lease_expires_ms INTEGER;
  `,
};

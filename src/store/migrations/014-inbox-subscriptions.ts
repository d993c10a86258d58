import type { Migration } from './index.js';

/** Placeholder: filled in by the change that owns these tables. */
export const inboxSubscriptions: Migration = {
  version: 14,
  name: 'inbox_subscriptions',
  up: '',
};

import type { Migration } from './index.js';

/** Placeholder: filled in by the change that owns these tables. */
export const inboxDelivery: Migration = {
  version: 15,
  name: 'inbox_delivery',
  up: '',
};

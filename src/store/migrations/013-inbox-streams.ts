import type { Migration } from './index.js';

/** Placeholder: filled in by the change that owns these tables. */
export const inboxStreams: Migration = {
  version: 13,
  name: 'inbox_streams',
  up: '',
};

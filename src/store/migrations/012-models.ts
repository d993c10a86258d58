import type { Migration } from './index.js';

/** Placeholder: filled in by the change that owns these tables. */
export const models: Migration = {
  version: 12,
  name: 'models',
  up: '',
};

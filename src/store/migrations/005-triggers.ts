import type { Migration } from './index.js';

export const triggers: Migration = {
  version: 5,
  name: 'triggers',
  up: '',
};

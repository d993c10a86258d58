import type { Migration } from './index.js';

export const workItems: Migration = {
  version: 2,
  name: 'work-items',
  up: '',
};

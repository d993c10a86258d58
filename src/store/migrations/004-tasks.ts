import type { Migration } from './index.js';

export const tasks: Migration = {
  version: 4,
  name: 'tasks',
  up: '',
};

import type { Migration } from './index.js';

export const timers: Migration = {
  version: 3,
  name: 'timers',
  up: '',
};

import type { Migration } from './index.js';

export const workspaces: Migration = {
  version: 7,
  name: 'workspaces',
  up: '',
};

import type { Migration } from './index.js';

export const bindings: Migration = {
  version: 6,
  name: 'bindings',
  up: '',
};

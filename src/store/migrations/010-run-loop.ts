import type { Migration } from './index.js';

/** Placeholder: filled in by the change that owns these tables. */
export const runLoop: Migration = {
  version: 10,
  name: 'run_loop',
  up: '',
};

import type { Migration } from './index.js';

/** Placeholder: filled in by the change that owns these tables. */
export const briefDeliveries: Migration = {
  version: 11,
  name: 'brief_deliveries',
  up: '',
};

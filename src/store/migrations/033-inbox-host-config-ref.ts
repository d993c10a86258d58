import type { Migration } from './types.js';

/**
 * A host may name a configuration reference (AgentInbox's `configRef`, e.g. `credential:<profile>`):
 * the default `configRef` of the sources created on it (docs/inbox-api.md#hosts-and-sources).
 */
export const inboxHostConfigRef: Migration = {
  version: 33,
  name: 'inbox_host_config_ref',
  up: `
    ALTER TABLE inbox_hosts ADD COLUMN config_ref TEXT;
  `,
};

/**
 * The SQLite store and the files svc keeps beside it (see README.md). The chunked long texts,
 * the checkpointer and the WAL sync are reached through `Store`.
 */
export * from './credentials.js';
export * from './faults.js';
export * from './secrets.js';
export * from './store.js';
export * from './tx-cache.js';
export { migrate, SCHEMA_VERSION, SchemaTooNewError, type Migration } from './migrations/index.js';

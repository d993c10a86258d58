/**
 * Streams: per-source append-only event logs over a backend (SQLite here, JetStream shared by
 * several daemons), and their compaction.
 */
export {
  EventInputSchema,
  fromNativeEvent,
  MAX_APPEND_EVENTS,
  nativeEventId,
  StreamService,
  type AppendResult,
  type EventInput,
  type NativeEventInput,
} from './streams.js';
export type { RemoteStreams, SharedSource, StoredEvent, StreamBackend, StreamOwners, StreamStats } from './types.js';
export { SqliteStreamBackend } from './sqlite-backend.js';
export { JetStreamBackend } from './jetstream/index.js';
export {
  COMPACTION_LIMITS,
  CompactionService,
  DEFAULT_SCAN_LIMIT,
  type CompactionApplyOptions,
  type CompactionPreview,
  type CompactionResult,
} from './compaction.js';

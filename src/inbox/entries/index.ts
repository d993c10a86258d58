/** Entries: inbox agents and their entries (matched events, direct items, timer reminders), acks, watch, timers. */
export { InboxAgents, readPolicy, writePolicy, type CreateInboxAgentInput, type InboxAgent } from './agents.js';
export {
  ACKED_RETENTION_MS,
  InboxEntries,
  type AckForm,
  type EntryDigest,
  type EntryKind,
  type EntryPage,
  type EventMatch,
  type InboxEntry,
  type InboxSummary,
} from './entries.js';
export { InboxWatch, type WatchConnection } from './watch.js';
export { InboxTimers, MIN_EVERY_MS, SCHEDULE_KINDS, SCHEDULE_STATUSES, type CreateInboxTimerInput, type InboxTimer } from './timers.js';
export { checkTimezone, hostTimezone, nextRecurrence, parseCron } from './recurrence.js';
export { runGc, type GcHook, type GcReport } from './gc.js';

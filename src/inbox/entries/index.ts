/** Entries: inbox agents and their entries (matched events, direct items, timer reminders), acks, watch, timers. */
export { InboxAgents, inboxIdOf, readPolicy, writePolicy, type CreateInboxAgentInput, type InboxAgent } from './agents.js';
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
export {
  DEFAULT_TIMER_SENDER,
  InboxTimers,
  MIN_EVERY_MS,
  SCHEDULE_KINDS,
  SCHEDULE_STATUSES,
  type CreateInboxTimerInput,
  type InboxTimer,
  type TimerUpdate,
} from './timers.js';
export { checkTimezone, hostTimezone, nextRecurrence, parseCron } from './recurrence.js';
export { GC_INTERVAL_MS, Housekeeping, runGc, type GcHook, type GcReport } from './gc.js';

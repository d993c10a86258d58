/** Entries: inbox agents and their items read as entries (matched events, direct items, timer reminders), threads, acks, watch, timers. */
export { InboxAgents, inboxIdOf, readPolicy, writePolicy, type CreateInboxAgentInput, type InboxAgent, type InboxRecord } from './agents.js';
export {
  ACKED_RETENTION_MS,
  InboxEntries,
  type CompactResult,
  type EntryDigest,
  type EntryPage,
  type EventMatch,
  type InboxSummary,
  type ItemCounts,
} from './entries.js';
export type { AckForm } from './acks.js';
export {
  DIRECT_SOURCE_ID,
  TIMER_SOURCE_ID,
  type DeliveryHandle,
  type EntryKind,
  type InboxEntry,
  type InboxItem,
  type ItemKind,
  type SourceInfo,
} from './records.js';
export { DEFAULT_INBOX_POLICY, INBOX_POLICY_LIMITS, effectivePolicy, mergePolicy, type InboxPolicy, type InboxPolicyInput } from './policy.js';
export { groupingOf, InboxThreads, type Grouping } from './threads.js';
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

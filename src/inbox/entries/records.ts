/**
 * What an inbox holds, as AgentInbox's daemon (v1.0.3, src/model.ts) answers it, and the rows it
 * is read from (docs/agentinbox.md#inbox-items-and-entries).
 *
 * An **item** is one thing that reached the agent: a stream event (one per event per agent however
 * many of its subscriptions matched: `subscriptionIds` names the one that made it, as AgentInbox's does,
 * svc's `matchedSubscriptionIds` all of them), a direct text item or a timer
 * reminder. An **entry** is what the agent reads and acknowledges: `kind: "item"` (one item) or
 * `kind: "digest_snapshot"` (the items of a thread at one revision, threads.ts). Each row of
 * `inbox_entries` is an item; its item id is its entry id with `itm_` for `ent_`. Direct items and
 * reminders get AgentInbox's pseudo sources and variants. svc's own fields stay beside
 * AgentInbox's: `agentId`, `createdAt`, and on item entries `itemKind` (svc's former `kind`),
 * `subscriptionId` (the first matching subscription), `offset`, `event` (the stored event),
 * `sender`, `message`, `scheduleId`.
 */
import { ID_PREFIX } from '../../core/index.js';
import { nativeEventId, type StoredEvent } from '../streams/index.js';
import { inboxIdOf } from './agents.js';
import { deliveryHandleOf as githubHandleOf, type DeliveryHandle } from '../outbound/index.js';

export type ItemKind = 'event' | 'direct' | 'timer';
export type EntryKind = 'item' | 'digest_snapshot';

/** Where a reply to an item goes (AgentInbox's DeliveryHandle), when its event names one. */
export type { DeliveryHandle } from '../outbound/index.js';

/** AgentInbox's ActivationItem: one item as entries nest it. */
export interface InboxItem {
  itemId: string;
  sourceId: string;
  sourceNativeId: string;
  eventVariant: string;
  inboxId: string;
  occurredAt: string;
  metadata: Record<string, unknown>;
  rawPayload: Record<string, unknown>;
  deliveryHandle: DeliveryHandle | null;
}

export interface InboxEntry {
  entryId: string;
  inboxId: string;
  sequence: number;
  itemId: string;
  summary: string;
  count: number;
  itemIds: string[];
  sourceIds: string[];
  subscriptionIds: string[];
  firstItemAt: string;
  lastItemAt: string;
  deliveryHandle: DeliveryHandle | null;
  ackedAt: string | null;
  supersededAt: string | null;
  kind: EntryKind;
  // kind item
  sourceId?: string;
  sourceNativeId?: string;
  eventVariant?: string;
  occurredAt?: string;
  metadata?: Record<string, unknown>;
  rawPayload?: Record<string, unknown>;
  item?: InboxItem;
  // kind digest_snapshot
  threadId?: string;
  revision?: number;
  groupKey?: string;
  resourceRef?: string | null;
  eventFamily?: string | null;
  // svc's own
  agentId: string;
  createdAt: string;
  itemKind?: ItemKind;
  subscriptionId?: string | null;
  /** svc's: every subscription of the agent that matched the item's event (AgentInbox lists the first only). */
  matchedSubscriptionIds?: string[];
  offset?: number | null;
  event?: StoredEvent | null;
  sender?: string | null;
  message?: string | null;
  scheduleId?: string | null;
}

/** A source as items describe it (AgentInbox's sourceType and sourceKey; its summary and grouping use them). */
export interface SourceInfo {
  sourceType: string;
  sourceKey: string;
}

/** AgentInbox's pseudo sources and variants of items that do not come from a stream. */
export const DIRECT_SOURCE_ID = '__agentinbox_direct_text__';
export const DIRECT_VARIANT = 'agentinbox.direct_text_message';
export const TIMER_SOURCE_ID = '__agentinbox_timer__';
export const TIMER_VARIANT = 'agentinbox.timer_fired';
const DEFAULT_TIMER_SENDER = 'timer';

export interface EntryRow {
  seq: number;
  entry_id: string;
  agent_id: string;
  kind: ItemKind | 'digest_snapshot';
  subscription_id: string | null;
  source_id: string | null;
  stream_offset: number | null;
  event: string | null;
  sender: string | null;
  message: string | null;
  schedule_id: string | null;
  created_at: string;
  acked_at: string | null;
  metadata: string | null;
  subscription_ids: string | null;
  match_reason: string | null;
  summary: string | null;
  thread_id: string | null;
  revision: number | null;
  superseded_at: string | null;
  snapshot: string | null;
}

/** What a digest snapshot row keeps besides its columns (JSON in `snapshot`). */
export interface SnapshotFields {
  itemIds: string[];
  sourceIds: string[];
  firstItemAt: string;
  lastItemAt: string;
  groupKey: string;
  resourceRef: string | null;
  eventFamily: string | null;
  deliveryHandle: DeliveryHandle | null;
}

const ENTRY_PREFIX = `${ID_PREFIX.entry}_`;
const ITEM_PREFIX = `${ID_PREFIX.item}_`;

export const itemIdOf = (entryId: string): string => ITEM_PREFIX + entryId.slice(ENTRY_PREFIX.length);
/** The entry id of an item id (`itm_X` -> `ent_X`); null for anything else. */
export const entryIdOfItem = (itemId: string): string | null => (itemId.startsWith(ITEM_PREFIX) ? ENTRY_PREFIX + itemId.slice(ITEM_PREFIX.length) : null);

/** The producer's own id of an event: what AgentInbox's `sourceNativeId` was (streams.ts nativeEventId), else svc's event id. */
export function nativeIdOf(event: Pick<StoredEvent, 'id' | 'type'>): string {
  const prefix = nativeEventId('', event.type);
  return event.id.startsWith(prefix) && event.id.length > prefix.length ? event.id.slice(prefix.length) : event.id;
}

/** AgentInbox's summary of an item of a stream source (its summarizeSourceEvent). */
export function eventSummary(source: SourceInfo | null, sourceId: string, variant: string): string {
  return `${source ? `${source.sourceType}:${source.sourceKey}` : sourceId}:${variant}`;
}

export const directSummary = (sender: string | null): string => (sender ? `direct_text_message:${sender}` : 'direct_text_message');
export const timerSummary = (scheduleId: string | null): string => `timer:${scheduleId ?? ''}`;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * An event's delivery handle: a GitHub event's is derived from the event itself (outbound/handles.ts),
 * whatever it carries; another provider's is the one the event carries (a `deliveryHandle` beside or
 * inside its metadata), shown but never used by svc's deliveries, which serve GitHub only.
 */
function deliveryHandleOfEvent(event: StoredEvent): DeliveryHandle | null {
  const derived = githubHandleOf(event);
  if (derived) return derived;
  const h = (event as { deliveryHandle?: unknown }).deliveryHandle ?? event.metadata.deliveryHandle;
  if (!isObject(h) || typeof h.provider !== 'string' || h.provider === 'github' || typeof h.surface !== 'string' || typeof h.targetRef !== 'string') return null;
  return h as unknown as DeliveryHandle;
}

/** AgentInbox's raw payload is an object: svc's event data that is not one is wrapped as `{data}` (none: `{}`). */
const payloadOf = (data: unknown): Record<string, unknown> => (isObject(data) ? data : data === null || data === undefined ? {} : { data });

const parseList = (json: string | null): string[] => (json === null ? [] : (JSON.parse(json) as string[]));

/** The nested item of an item row (AgentInbox's fields only). */
export function itemOf(r: EntryRow, event: StoredEvent | null = r.event === null ? null : (JSON.parse(r.event) as StoredEvent)): InboxItem {
  const itemId = itemIdOf(r.entry_id);
  const inboxId = inboxIdOf(r.agent_id);
  if (r.kind === 'event' && event) {
    return {
      itemId,
      sourceId: event.sourceId,
      sourceNativeId: nativeIdOf(event),
      eventVariant: event.type,
      inboxId,
      occurredAt: event.time,
      metadata: { ...event.metadata, matchReason: r.match_reason ?? 'filter shortcuts matched', agentId: r.agent_id, subscriptionId: r.subscription_id },
      rawPayload: payloadOf(event.data),
      deliveryHandle: deliveryHandleOfEvent(event),
    };
  }
  if (r.kind === 'timer') {
    return {
      itemId,
      sourceId: TIMER_SOURCE_ID,
      sourceNativeId: `${r.schedule_id ?? ''}:${r.created_at}`,
      eventVariant: TIMER_VARIANT,
      inboxId,
      occurredAt: r.created_at,
      metadata: {},
      rawPayload: { type: 'timer_fired', scheduleId: r.schedule_id, message: r.message, sender: r.sender ?? DEFAULT_TIMER_SENDER },
      deliveryHandle: null,
    };
  }
  return {
    itemId,
    sourceId: DIRECT_SOURCE_ID,
    sourceNativeId: `direct_${r.entry_id.slice(ENTRY_PREFIX.length)}`,
    eventVariant: DIRECT_VARIANT,
    inboxId,
    occurredAt: r.created_at,
    metadata: r.metadata === null ? {} : (JSON.parse(r.metadata) as Record<string, unknown>),
    rawPayload: { type: 'direct_text_message', message: r.message, sender: r.sender },
    deliveryHandle: null,
  };
}

/** The rows that are entries: items outside threads, and digest snapshots (SQL, over inbox_entries). */
export const IS_ENTRY = "(thread_id IS NULL OR kind = 'digest_snapshot')";

/** A row as AgentInbox's entry, with svc's fields beside (`event`: the row's event, when the caller has it parsed). */
export function toEntry(r: EntryRow, event?: StoredEvent | null): InboxEntry {
  return r.kind === 'digest_snapshot' ? snapshotEntry(r) : itemEntry(r, event === undefined ? (r.event === null ? null : (JSON.parse(r.event) as StoredEvent)) : event);
}

function itemEntry(r: EntryRow, event: StoredEvent | null): InboxEntry {
  const item = itemOf(r, event);
  return {
    entryId: r.entry_id,
    inboxId: item.inboxId,
    sequence: r.seq,
    itemId: item.itemId,
    summary: r.summary ?? item.eventVariant,
    count: 1,
    itemIds: [item.itemId],
    sourceIds: [item.sourceId],
    subscriptionIds: r.subscription_id === null ? [] : [r.subscription_id],
    firstItemAt: item.occurredAt,
    lastItemAt: item.occurredAt,
    deliveryHandle: item.deliveryHandle,
    ackedAt: r.acked_at,
    supersededAt: null,
    kind: 'item',
    sourceId: item.sourceId,
    sourceNativeId: item.sourceNativeId,
    eventVariant: item.eventVariant,
    occurredAt: item.occurredAt,
    metadata: item.metadata,
    rawPayload: item.rawPayload,
    item,
    agentId: r.agent_id,
    createdAt: r.created_at,
    itemKind: r.kind as ItemKind,
    subscriptionId: r.subscription_id,
    matchedSubscriptionIds: parseList(r.subscription_ids),
    offset: r.stream_offset,
    event,
    sender: r.sender,
    message: r.message,
    scheduleId: r.schedule_id,
  };
}

function snapshotEntry(r: EntryRow): InboxEntry {
  const s = JSON.parse(r.snapshot!) as SnapshotFields;
  return {
    entryId: r.entry_id,
    inboxId: inboxIdOf(r.agent_id),
    sequence: r.seq,
    itemId: s.itemIds[0] ?? r.entry_id,
    summary: r.summary ?? '',
    count: s.itemIds.length,
    itemIds: s.itemIds,
    sourceIds: s.sourceIds,
    subscriptionIds: parseList(r.subscription_ids),
    firstItemAt: s.firstItemAt,
    lastItemAt: s.lastItemAt,
    deliveryHandle: s.deliveryHandle,
    ackedAt: r.acked_at,
    supersededAt: r.superseded_at,
    kind: 'digest_snapshot',
    threadId: r.thread_id!,
    revision: r.revision!,
    groupKey: s.groupKey,
    resourceRef: s.resourceRef,
    eventFamily: s.eventFamily,
    agentId: r.agent_id,
    createdAt: r.created_at,
  };
}

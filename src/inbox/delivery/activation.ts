/**
 * AgentInbox's activation (v1.0.3: `Activation` in its src/model.ts, built in `dispatchActivationTarget`
 * of its src/service.ts and POSTed as it is by its ActivationDispatcher): the fields every svc
 * notification body carries beside svc's own (docs/agentinbox.md#notifications). This file is the ONE
 * place that knows how svc's inbox entries map onto AgentInbox's vocabulary (summaries, items,
 * pseudo-sources, inbox ids); notifications.ts and digests.ts build their payloads through
 * `activationOf`, the terminal text (terminal.ts) reads `entryPreview`.
 *
 * What the fields mean, as AgentInbox sends them (measured against its daemon) and as svc computes
 * them from what the notification covers:
 * - `newItemCount`: items new since the previous notification of the target = the entries this
 *   notification covers (svc has one entry per item);
 * - `newEntryCount`: despite its name, every unacknowledged entry of the inbox (AgentInbox counts its
 *   unacked entries when it sends; svc when the notification is made, so a retry sends the same
 *   signed bytes);
 * - `subscriptionIds`, `sourceIds`: sorted, distinct, of the covered entries only (a direct item
 *   counts as source `__agentinbox_direct_text__`, a timer reminder as `__agentinbox_timer__`, as
 *   AgentInbox's pseudo-sources; neither has a subscription);
 * - `summary`: `<n> new item(s) for agent <agentId>[ from <summary of the newest covered entry>]`;
 *   an entry's summary is `<sourceType>:<sourceKey>:<eventVariant>`, `direct_text_message[:<sender>]`
 *   or `timer:<scheduleId>`;
 * - `latestEntryId`: the newest covered entry; `activationId`: `act_` + the notification's ULID, the
 *   same on every retry; `deliveredAt`: always null, as AgentInbox sends it.
 * Nothing here reads another agent's data: every input is the notification's own agent's.
 */
import { createHash } from 'node:crypto';
import type { EntryDigest, InboxEntry } from '../entries/index.js';
import { nativeEventId, type StoredEvent } from '../streams/index.js';
import type { Activation, ActivationItem, TargetKind } from './types.js';

/** AgentInbox's pseudo-source ids and event variants of direct items and timer reminders (its src/service.ts). */
export const DIRECT_SOURCE_ID = '__agentinbox_direct_text__';
export const TIMER_SOURCE_ID = '__agentinbox_timer__';
const DIRECT_VARIANT = 'agentinbox.direct_text_message';
const TIMER_VARIANT = 'agentinbox.timer_fired';
const DEFAULT_TIMER_SENDER = 'timer';

/** AgentInbox's id alphabet and token length (its src/util.ts): inbox ids look like its own. */
const ID_ALPHABET = '23456789abcdefghjkmnpqrstvwxyz';
const ID_TOKEN_LENGTH = 12;

/** What an entry's summary names of its source: AgentInbox's `sourceType` and `sourceKey` (svc's `streamKey`). */
export interface SourceLabel {
  sourceType: string;
  sourceKey: string;
}
/** The label of a source, null when it is gone. */
export type DescribeSource = (sourceId: string) => SourceLabel | null;

/**
 * The inbox id of an agent: svc keeps no inbox records, so it is derived from the agent id, stable,
 * in AgentInbox's form (`inb_` + 12 characters of its alphabet).
 */
export function inboxIdOf(agentId: string): string {
  const digest = createHash('sha256').update(`inbox:${agentId}`).digest();
  let token = '';
  for (let i = 0; i < ID_TOKEN_LENGTH; i++) token += ID_ALPHABET[digest[i]! % ID_ALPHABET.length];
  return `inb_${token}`;
}

/** The source id AgentInbox would list for an entry (its pseudo-sources for direct items and reminders). */
export function entrySourceId(e: Pick<InboxEntry, 'kind' | 'sourceId'>): string | null {
  if (e.kind === 'direct') return DIRECT_SOURCE_ID;
  if (e.kind === 'timer') return TIMER_SOURCE_ID;
  return e.sourceId;
}

/** An entry's summary in AgentInbox's words (its summarizeSourceEvent, summarizeDirectInboxMessage, summarizeTimerMessage). */
export function entrySummary(e: InboxEntry, describe: DescribeSource): string {
  if (e.kind === 'direct') return e.sender ? `direct_text_message:${e.sender}` : 'direct_text_message';
  if (e.kind === 'timer') return `timer:${e.scheduleId ?? ''}`;
  const variant = e.event?.type ?? '';
  const label = e.sourceId === null ? null : describe(e.sourceId);
  return label ? `${label.sourceType}:${label.sourceKey}:${variant}` : variant;
}

/** The native id of an event appended in AgentInbox's form (`<variant>:<native id>`), else the event id. */
function nativeIdOf(event: StoredEvent): string {
  const prefix = nativeEventId('', event.type);
  return event.id.startsWith(prefix) && event.id.length > prefix.length ? event.id.slice(prefix.length) : event.id;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** What AgentInbox stores as an item's metadata and raw payload, for each kind of entry. */
function itemContent(e: InboxEntry): Pick<ActivationItem, 'metadata' | 'rawPayload'> {
  if (e.kind === 'event' && e.event) {
    const data = e.event.data;
    // AgentInbox's raw payload is an object: any other JSON value is wrapped as {data}.
    return { metadata: e.event.metadata, rawPayload: isRecord(data) ? data : data === null || data === undefined ? {} : { data } };
  }
  if (e.kind === 'timer') {
    return { metadata: e.metadata ?? {}, rawPayload: { type: 'timer_fired', scheduleId: e.scheduleId, message: e.message, sender: e.sender ?? DEFAULT_TIMER_SENDER } };
  }
  return { metadata: e.metadata ?? {}, rawPayload: { type: 'direct_text_message', message: e.message, sender: e.sender } };
}

/** An entry as AgentInbox's ActivationItem (`itm_` + the entry's ULID: one item per entry, the same on every retry). */
export function activationItem(e: InboxEntry, inboxId: string): ActivationItem {
  const ulid = e.entryId.slice(e.entryId.indexOf('_') + 1);
  const base = { itemId: `itm_${ulid}`, inboxId, ...itemContent(e), deliveryHandle: null };
  if (e.kind === 'event' && e.event) {
    return { ...base, sourceId: e.event.sourceId, sourceNativeId: nativeIdOf(e.event), eventVariant: e.event.type, occurredAt: e.event.time };
  }
  if (e.kind === 'timer') {
    return { ...base, sourceId: TIMER_SOURCE_ID, sourceNativeId: `${e.scheduleId ?? ''}:${e.createdAt}`, eventVariant: TIMER_VARIANT, occurredAt: e.createdAt };
  }
  return { ...base, sourceId: DIRECT_SOURCE_ID, sourceNativeId: `direct_${ulid}`, eventVariant: DIRECT_VARIANT, occurredAt: e.createdAt };
}

/** The texts AgentInbox previews a single item by (its deriveInlineItemPreview): payload, then metadata, per key. */
const PREVIEW_KEYS = ['message', 'text', 'body', 'title'] as const;

/**
 * The candidate texts of an entry's inline preview, in AgentInbox's order (the terminal text
 * normalises and picks the first usable one).
 */
export function entryPreview(e: InboxEntry): string[] {
  const item = itemContent(e);
  const out: string[] = [];
  for (const key of PREVIEW_KEYS) {
    const fromPayload = item.rawPayload[key];
    if (typeof fromPayload === 'string') out.push(fromPayload);
    const fromMetadata = item.metadata[key];
    if (typeof fromMetadata === 'string') out.push(fromMetadata);
  }
  return out;
}

/**
 * What an activation says about the entries a notification covers, collected entry by entry (a
 * notification may cover up to 10,000 entries while listing 50: the scan feeds every one here).
 */
export class ActivationTally {
  private readonly subscriptions = new Set<string>();
  private readonly sources = new Set<string>();
  private latest: InboxEntry | null = null;

  constructor(private readonly describe: DescribeSource) {}

  /** One covered entry, in entry order. */
  add(e: InboxEntry): void {
    if (e.subscriptionId) this.subscriptions.add(e.subscriptionId);
    const sourceId = entrySourceId(e);
    if (sourceId) this.sources.add(sourceId);
    this.latest = e;
  }

  /** A digest's counts per kind and source (they cover every entry of the digest, listed or not). */
  addSources(sources: EntryDigest['sources']): void {
    for (const s of sources) {
      const sourceId = entrySourceId(s);
      if (sourceId) this.sources.add(sourceId);
    }
  }

  get subscriptionIds(): string[] {
    return [...this.subscriptions].sort();
  }

  get sourceIds(): string[] {
    return [...this.sources].sort();
  }

  /** The summary of the newest entry added (null before any). */
  get latestSummary(): string | null {
    return this.latest ? entrySummary(this.latest, this.describe) : null;
  }
}

export interface ActivationInput {
  notificationId: string;
  agentId: string;
  targetId: string;
  targetKind: TargetKind;
  createdAt: string;
  tally: ActivationTally;
  /** Entries the notification covers. */
  newItemCount: number;
  /** The agent's unacknowledged entries now (AgentInbox's newEntryCount). */
  unackedCount: number;
  latestEntryId: string | null;
  /** The listed entries, for webhook targets (AgentInbox's `items`); absent for the others. */
  listed?: InboxEntry[] | undefined;
}

/** AgentInbox's activation fields of one notification (see the top of this file for each field's meaning). */
export function activationOf(input: ActivationInput): Activation {
  const { agentId, newItemCount, tally } = input;
  const inboxId = inboxIdOf(agentId);
  const latestSummary = tally.latestSummary;
  const counted = `${newItemCount} new ${newItemCount === 1 ? 'item' : 'items'} for agent ${agentId}`;
  return {
    kind: 'agentinbox.activation',
    activationId: `act_${input.notificationId.slice(input.notificationId.indexOf('_') + 1)}`,
    agentId,
    inboxId,
    targetId: input.targetId,
    targetKind: input.targetKind,
    subscriptionIds: tally.subscriptionIds,
    sourceIds: tally.sourceIds,
    latestEntryId: input.latestEntryId,
    newEntryCount: input.unackedCount,
    newItemCount,
    summary: latestSummary ? `${counted} from ${latestSummary}` : counted,
    ...(input.listed ? { items: input.listed.map((e) => activationItem(e, inboxId)) } : {}),
    createdAt: input.createdAt,
    deliveredAt: null,
    latestSummary,
  };
}

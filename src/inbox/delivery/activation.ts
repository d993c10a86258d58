/**
 * AgentInbox's activation (v1.0.3: `Activation` in its src/model.ts, built in `dispatchActivationTarget`
 * of its src/service.ts and POSTed as it is by its ActivationDispatcher): the fields every svc
 * notification body carries beside svc's own (docs/agentinbox.md#notifications). The entries and their
 * items are AgentInbox's already (entries/records.ts); this file gathers what a notification covers
 * into the activation's fields. notifications.ts and digests.ts build their payloads through
 * `activationOf`, the terminal text (terminal.ts) reads `entryPreview`.
 *
 * What the fields mean, as AgentInbox sends them (measured against its daemon) and as svc computes
 * them from what the notification covers:
 * - `newItemCount`: entries new since the previous notification of the target (an item outside a
 *   thread, or a digest snapshot);
 * - `newEntryCount`: despite its name, every unacknowledged entry of the inbox (AgentInbox counts its
 *   unacked entries when it sends; svc when the notification is made, so a retry sends the same
 *   signed bytes);
 * - `subscriptionIds`, `sourceIds`: sorted, distinct, of the covered entries only (a direct item's
 *   source is AgentInbox's pseudo-source `__agentinbox_direct_text__`, a timer reminder's
 *   `__agentinbox_timer__`; neither has a subscription);
 * - `summary`: `<n> new item(s) for agent <agentId>[ from <summary of the newest covered entry>]`;
 * - `latestEntryId`: the newest covered entry; `activationId`: `act_` + the notification's ULID, the
 *   same on every retry; `deliveredAt`: always null, as AgentInbox sends it.
 * Nothing here reads another agent's data: every input is the notification's own agent's.
 */
import { DIRECT_SOURCE_ID, inboxIdOf, TIMER_SOURCE_ID, type EntryDigest, type InboxEntry, type InboxItem, type ItemKind } from '../entries/index.js';
import type { Activation, TargetKind } from './types.js';

/** The source id AgentInbox lists for items of a kind (its pseudo-sources for direct items and reminders). */
function kindSourceId(kind: ItemKind, sourceId: string | null): string | null {
  if (kind === 'direct') return DIRECT_SOURCE_ID;
  if (kind === 'timer') return TIMER_SOURCE_ID;
  return sourceId;
}

/** The texts AgentInbox previews a single item by (its deriveInlineItemPreview): payload, then metadata, per key. */
const PREVIEW_KEYS = ['message', 'text', 'body', 'title'] as const;

/**
 * The candidate texts of an entry's inline preview, in AgentInbox's order (the terminal text
 * normalises and picks the first usable one). A digest snapshot has none.
 */
export function entryPreview(e: InboxEntry): string[] {
  const item = e.item;
  if (!item) return [];
  const payload = item.rawPayload;
  const out: string[] = [];
  for (const key of PREVIEW_KEYS) {
    const fromPayload = payload[key];
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

  /** One covered entry, in entry order. */
  add(e: InboxEntry): void {
    for (const id of e.subscriptionIds) this.subscriptions.add(id);
    for (const id of e.sourceIds) this.sources.add(id);
    this.latest = e;
  }

  /** A digest's counts per kind and source (they cover every entry of the digest, listed or not). */
  addSources(sources: EntryDigest['sources']): void {
    for (const s of sources) {
      const sourceId = kindSourceId(s.kind, s.sourceId);
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
    return this.latest ? this.latest.summary : null;
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
  /** The listed entries, for webhook targets (their items are AgentInbox's `items`); absent for the others. */
  listed?: InboxEntry[] | undefined;
}

/** The items of listed entries (a digest snapshot lists its item ids only, so it adds none). */
const itemsOf = (listed: InboxEntry[]): InboxItem[] => listed.flatMap((e) => (e.item ? [e.item] : []));

/** AgentInbox's activation fields of one notification (see the top of this file for each field's meaning). */
export function activationOf(input: ActivationInput): Activation {
  const { agentId, newItemCount, tally } = input;
  const latestSummary = tally.latestSummary;
  const counted = `${newItemCount} new ${newItemCount === 1 ? 'item' : 'items'} for agent ${agentId}`;
  return {
    kind: 'agentinbox.activation',
    activationId: `act_${input.notificationId.slice(input.notificationId.indexOf('_') + 1)}`,
    agentId,
    inboxId: inboxIdOf(agentId),
    targetId: input.targetId,
    targetKind: input.targetKind,
    subscriptionIds: tally.subscriptionIds,
    sourceIds: tally.sourceIds,
    latestEntryId: input.latestEntryId,
    newEntryCount: input.unackedCount,
    newItemCount,
    summary: latestSummary ? `${counted} from ${latestSummary}` : counted,
    ...(input.listed ? { items: itemsOf(input.listed) } : {}),
    createdAt: input.createdAt,
    deliveredAt: null,
    latestSummary,
  };
}

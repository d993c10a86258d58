/**
 * An agent's inbox (spec/inbox.md Inbox; docs/inbox-api.md#inbox), as AgentInbox's daemon keeps
 * it (records.ts): items (stream events, direct items, timer reminders) read as entries, in one
 * per-agent order (`sequence`, the row's seq). The public cursor is the `ent_` id.
 *
 * - One item per stream event per agent: however many of the agent's subscriptions match an event,
 *   it becomes one item listing them; a subscription that matches it later (a reset, a new
 *   subscription from `earliest`) adds itself to the item. `inbox_materialized` remembers every
 *   (agent, source, offset) that became an item, also once the item is compacted away, so nothing
 *   materialised once is materialised again.
 * - With the agent's inbox policy enabled, items of a grouping source join digest threads and are
 *   read through their snapshots (threads.ts); acks are in acks.ts.
 * - Compaction removes items acknowledged more than `retentionMs` ago (AgentInbox: 24 h); nothing
 *   unacknowledged is ever removed.
 *
 * Items are created inside the caller's transaction; `onCreated` listeners (watchers, delivery)
 * hear about the new entries only after that transaction commits. An agent that does not exist
 * has an empty inbox to the readers (AgentInbox answers so); writes to it are 404 agent_not_found.
 */
import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import { isoAt, type Clock, type IdGenerator } from '../../core/index.js';
import type { Store } from '../../store/index.js';
import type { InboxAgents } from './agents.js';
import { InboxAcks, type AckForm } from './acks.js';
import { effectivePolicy } from './policy.js';
import { directSummary, eventSummary, IS_ENTRY, timerSummary, toEntry, type EntryRow, type InboxEntry, type ItemKind, type SourceInfo } from './records.js';
import { groupingOf, InboxThreads } from './threads.js';
import type { StoredEvent } from '../streams/index.js';

/** Acknowledged items are kept this long before compaction and POST /gc remove them (AgentInbox's default). */
export const ACKED_RETENTION_MS = 24 * 60 * 60 * 1000;

/** One event one subscription matched (the matcher's input). */
export interface EventMatch {
  agentId: string;
  subscriptionId: string;
  event: StoredEvent;
  /** JSON of `event`, serialised once however many subscriptions matched it. */
  eventJson: string;
  /** AgentInbox's `metadata.matchReason` of the item. */
  matchReason: string;
}

export interface EntryPage {
  entries: InboxEntry[];
  /** Pass as `after` for the next page; null when this page reached the end. */
  nextCursor: string | null;
}

/** AgentInbox's `itemCounts` of an inbox. */
export interface ItemCounts {
  total: number;
  unacked: number;
  acked: number;
}

export interface InboxSummary {
  agentId: string;
  /** Unacknowledged items. */
  unackedCount: number;
  latestEntryId: string | null;
  deliveryPaused: boolean;
}

/** Unacknowledged items after a cursor, summarised (a digest notification's content). */
export interface EntryDigest {
  entryCount: number;
  /** How many per kind and source (a source for `event` items; null for direct items and timer reminders), most first. */
  sources: Array<{ kind: ItemKind; sourceId: string | null; count: number }>;
  /** The first entries, in entry order. */
  entries: InboxEntry[];
  firstEntryId: string;
  lastEntryId: string;
}

export interface CompactResult {
  deleted: number;
  retentionMs: number;
}

export interface InboxEntriesDeps {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  agents: InboxAgents;
  /** A source's type and key (summaries, grouping); null for a source that is gone. */
  describeSource?: (sourceId: string) => SourceInfo | null;
}

type Listener = (entries: InboxEntry[]) => void;

const ITEMS_ONLY = "kind <> 'digest_snapshot'";
/** A cutoff after every acknowledgement (compaction with retentionMs 0). */
const END_OF_TIME = '9999-12-31T23:59:59.999Z';

export class InboxEntries {
  readonly threads: InboxThreads;
  private readonly acks: InboxAcks;
  private readonly createdListeners: Listener[] = [];
  private readonly ackedListeners: Array<(agentId: string) => void> = [];
  private readonly stmt: Record<
    | 'insert'
    | 'insertEvent'
    | 'materialized'
    | 'remember'
    | 'forgetAgent'
    | 'subscriptionsOf'
    | 'setSubscriptions'
    | 'seqOf'
    | 'headSeq'
    | 'seqAtOrBefore'
    | 'pageAcked'
    | 'pageUnacked'
    | 'pageUnackedAll'
    | 'removeAgent'
    | 'unackedItems'
    | 'ackedItems'
    | 'latestUnacked'
    | 'latestAcked'
    | 'compactItems'
    | 'compactSnapshots'
    | 'gcItems'
    | 'gcSnapshots'
    | 'gcLedger'
    | 'lastUnackedAfter'
    | 'nextKind'
    | 'nextSource'
    | 'countNoSource'
    | 'countSource',
    Database.Statement
  >;

  constructor(private readonly deps: InboxEntriesDeps) {
    const db = deps.store.db;
    const entries = `${IS_ENTRY} AND superseded_at IS NULL`;
    this.stmt = {
      insert: db.prepare(
        'INSERT INTO inbox_entries (entry_id, agent_id, kind, sender, message, schedule_id, created_at, metadata, summary) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      insertEvent: db.prepare(
        `INSERT INTO inbox_entries (entry_id, agent_id, kind, subscription_id, source_id, stream_offset, event, created_at, subscription_ids, match_reason, summary, thread_id)
         VALUES (?, ?, 'event', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      // The memory of materialised events is written first: a conflict means the agent had the event.
      remember: db.prepare('INSERT OR IGNORE INTO inbox_materialized (source_id, stream_offset, agent_id, entry_id) VALUES (?, ?, ?, ?)'),
      materialized: db.prepare('SELECT entry_id FROM inbox_materialized WHERE source_id = ? AND stream_offset = ? AND agent_id = ?').pluck(),
      // Keyed by stream position (fan-out writes land together): an agent's rows are found by a scan, on its deletion only.
      forgetAgent: db.prepare('DELETE FROM inbox_materialized WHERE agent_id = ?'),
      subscriptionsOf: db.prepare('SELECT seq, subscription_ids FROM inbox_entries WHERE entry_id = ?'),
      setSubscriptions: db.prepare('UPDATE inbox_entries SET subscription_ids = ? WHERE seq = ?'),
      seqOf: db.prepare('SELECT seq FROM inbox_entries WHERE agent_id = ? AND entry_id = ?').pluck(),
      // Every row is in one of the two partial indexes: the larger of their two maxima.
      headSeq: db
        .prepare(
          `SELECT max(coalesce((SELECT max(seq) FROM inbox_entries INDEXED BY inbox_entries_unacked WHERE agent_id = ? AND acked_at IS NULL), 0),
                      coalesce((SELECT max(seq) FROM inbox_entries INDEXED BY inbox_entries_acked WHERE agent_id = ? AND acked_at IS NOT NULL), 0))`,
        )
        .pluck(),
      // A cursor whose entry was compacted away: ids and seqs grow together, so the last entry at or before it.
      seqAtOrBefore: db.prepare('SELECT seq FROM inbox_entries WHERE entry_id <= ? ORDER BY entry_id DESC LIMIT 1').pluck(),
      // Per-agent reads name `acked_at IS [NOT] NULL` and the index, so that they walk one of the two partial indexes.
      pageUnacked: db.prepare(`SELECT * FROM inbox_entries INDEXED BY inbox_entries_unacked WHERE agent_id = ? AND seq > ? AND acked_at IS NULL AND ${entries} ORDER BY seq LIMIT ?`),
      pageUnackedAll: db.prepare(`SELECT * FROM inbox_entries INDEXED BY inbox_entries_unacked WHERE agent_id = ? AND seq > ? AND acked_at IS NULL AND ${IS_ENTRY} ORDER BY seq LIMIT ?`),
      pageAcked: db.prepare(`SELECT * FROM inbox_entries INDEXED BY inbox_entries_acked WHERE agent_id = ? AND seq > ? AND acked_at IS NOT NULL AND ${IS_ENTRY} ORDER BY seq LIMIT ?`),
      removeAgent: db.prepare('DELETE FROM inbox_entries WHERE agent_id = ?'),
      unackedItems: db.prepare(`SELECT count(*) FROM inbox_entries WHERE agent_id = ? AND acked_at IS NULL AND ${ITEMS_ONLY}`).pluck(),
      ackedItems: db.prepare(`SELECT count(*) FROM inbox_entries WHERE agent_id = ? AND acked_at IS NOT NULL AND ${ITEMS_ONLY}`).pluck(),
      latestUnacked: db.prepare(`SELECT seq, entry_id FROM inbox_entries INDEXED BY inbox_entries_unacked WHERE agent_id = ? AND acked_at IS NULL AND ${IS_ENTRY} ORDER BY seq DESC LIMIT 1`),
      latestAcked: db.prepare(`SELECT seq, entry_id FROM inbox_entries INDEXED BY inbox_entries_acked WHERE agent_id = ? AND acked_at IS NOT NULL AND ${IS_ENTRY} ORDER BY seq DESC LIMIT 1`),
      compactItems: db.prepare(`DELETE FROM inbox_entries WHERE agent_id = ? AND acked_at IS NOT NULL AND acked_at < ? AND ${ITEMS_ONLY}`),
      compactSnapshots: db.prepare("DELETE FROM inbox_entries WHERE agent_id = ? AND acked_at IS NOT NULL AND acked_at < ? AND kind = 'digest_snapshot'"),
      // Old acknowledged items, and acknowledged event items none of whose subscriptions exists any more.
      gcItems: db.prepare(`DELETE FROM inbox_entries WHERE acked_at IS NOT NULL AND acked_at < ? AND ${ITEMS_ONLY}`),
      gcSnapshots: db.prepare("DELETE FROM inbox_entries WHERE acked_at IS NOT NULL AND acked_at < ? AND kind = 'digest_snapshot'"),
      gcLedger: db.prepare('DELETE FROM inbox_materialized WHERE source_id NOT IN (SELECT source_id FROM inbox_sources)'),
      lastUnackedAfter: db.prepare(`SELECT seq, entry_id FROM inbox_entries INDEXED BY inbox_entries_unacked WHERE agent_id = ? AND seq > ? AND acked_at IS NULL AND ${entries} ORDER BY seq DESC LIMIT 1`),
      // Digest counts walk inbox_entries_unacked_source group by group (kind, then source) with
      // seeks and count each group's range, so no entry row is read and no sort is needed.
      nextKind: db.prepare(`SELECT kind FROM inbox_entries INDEXED BY inbox_entries_unacked_source WHERE agent_id = ? AND acked_at IS NULL AND kind > ? ORDER BY kind LIMIT 1`).pluck(),
      nextSource: db
        .prepare(`SELECT source_id FROM inbox_entries INDEXED BY inbox_entries_unacked_source WHERE agent_id = ? AND acked_at IS NULL AND kind = ? AND source_id > ? ORDER BY source_id LIMIT 1`)
        .pluck(),
      countNoSource: db
        .prepare(`SELECT count(*) FROM inbox_entries INDEXED BY inbox_entries_unacked_source WHERE agent_id = ? AND acked_at IS NULL AND kind = ? AND source_id IS NULL AND seq > ? AND seq <= ?`)
        .pluck(),
      countSource: db
        .prepare(`SELECT count(*) FROM inbox_entries INDEXED BY inbox_entries_unacked_source WHERE agent_id = ? AND acked_at IS NULL AND kind = ? AND source_id = ? AND seq > ? AND seq <= ?`)
        .pluck(),
    };
    this.acks = new InboxAcks(deps.store);
    this.threads = new InboxThreads({ store: deps.store, clock: deps.clock, ids: deps.ids, logger: deps.logger, announce: (e) => this.announce(e) });
    // inbox_threads go with the agent row (ON DELETE CASCADE).
    deps.agents.onDeleted((agentId) => {
      this.stmt.removeAgent.run(agentId);
      this.stmt.forgetAgent.run(agentId);
    });
  }

  /** A direct item or a timer reminder, inside the caller's transaction (or its own). Throws 404 agent_not_found. */
  create(agentId: string, input: { kind: 'direct' | 'timer'; sender?: string | null; message: string; scheduleId?: string; metadata?: Record<string, unknown> | undefined }): InboxEntry {
    return this.deps.store.tx(() => {
      this.deps.agents.get(agentId);
      const entryId = this.deps.ids.make('entry');
      const sender = input.sender ?? null;
      const summary = input.kind === 'direct' ? directSummary(sender) : timerSummary(input.scheduleId ?? null);
      const metadata = input.metadata ? JSON.stringify(input.metadata) : null;
      const createdAt = isoAt(this.deps.clock.now());
      const { lastInsertRowid } = this.stmt.insert.run(entryId, agentId, input.kind, sender, input.message, input.scheduleId ?? null, createdAt, metadata, summary);
      const entry = toEntry(row({ seq: Number(lastInsertRowid), entry_id: entryId, agent_id: agentId, kind: input.kind, sender, message: input.message, schedule_id: input.scheduleId ?? null, created_at: createdAt, metadata, summary }));
      this.announce([entry]);
      return entry;
    });
  }

  /**
   * Items for matched events, inside the caller's transaction: one per event per agent, listing
   * every subscription of the agent that matched it. An event that is (or was) an item of the
   * agent adds the subscriptions to it if it still exists and creates nothing. Returns how many
   * items were created (an item that joined a thread is read once its thread is snapshotted).
   */
  materialize(matches: EventMatch[]): number {
    if (matches.length === 0) return 0;
    let items = 0;
    const createdAt = isoAt(this.deps.clock.now());
    const created: InboxEntry[] = [];
    const sources = new Map<string, SourceInfo | null>();
    for (const group of byAgentEvent(matches)) {
      const m = group[0]!;
      const subscriptionIds = [...new Set(group.map((g) => g.subscriptionId))].sort();
      const entryId = this.deps.ids.make('entry');
      if (this.stmt.remember.run(m.event.sourceId, m.event.offset, m.agentId, entryId).changes === 0) {
        this.addSubscriptions(this.stmt.materialized.get(m.event.sourceId, m.event.offset, m.agentId) as string, subscriptionIds);
        continue;
      }
      let source = sources.get(m.event.sourceId);
      if (source === undefined) sources.set(m.event.sourceId, (source = this.deps.describeSource?.(m.event.sourceId) ?? null));
      // Only an event of a grouping source reads the agent's policy.
      const groupable = groupingOf(source, m.event);
      const policy = groupable ? effectivePolicy(this.deps.agents.inboxPolicyOf(m.agentId)) : null;
      const grouping = policy?.enabled ? groupable : null;
      const threadId = grouping ? this.threads.join(m.agentId, m.event.sourceId, grouping, policy!, created) : null;
      const r = row({
        entry_id: entryId,
        agent_id: m.agentId,
        kind: 'event',
        // The earliest subscription that matched made it (AgentInbox's item names the one whose poll came first).
        subscription_id: subscriptionIds[0]!,
        source_id: m.event.sourceId,
        stream_offset: m.event.offset,
        event: m.eventJson,
        created_at: createdAt,
        subscription_ids: JSON.stringify(subscriptionIds),
        match_reason: m.matchReason,
        summary: eventSummary(source, m.event.sourceId, m.event.type),
        thread_id: threadId,
      });
      r.seq = Number(
        this.stmt.insertEvent.run(entryId, r.agent_id, r.subscription_id, r.source_id, r.stream_offset, r.event, createdAt, r.subscription_ids, r.match_reason, r.summary, threadId).lastInsertRowid,
      );
      items++;
      if (grouping && threadId) this.threads.joined(threadId, grouping.immediate, policy!, created);
      else created.push(toEntry(r, m.event));
    }
    if (created.length > 0) this.announce(created);
    return items;
  }

  /** A later matching subscription lists itself on the item (if it is still there). */
  private addSubscriptions(entryId: string, subscriptionIds: string[]): void {
    const item = this.stmt.subscriptionsOf.get(entryId) as { seq: number; subscription_ids: string | null } | undefined;
    if (!item) return;
    const have = item.subscription_ids === null ? [] : (JSON.parse(item.subscription_ids) as string[]);
    const next = [...new Set([...have, ...subscriptionIds])].sort();
    if (next.length !== have.length) this.stmt.setSubscriptions.run(JSON.stringify(next), item.seq);
  }

  /** Listeners hear of an acknowledgement of the agent's entries after it commits (the notify lease). */
  onAcked(listener: (agentId: string) => void): void {
    this.ackedListeners.push(listener);
  }

  /** Listeners hear about new entries after their transaction commits (watchers, notifications). */
  onCreated(listener: Listener): void {
    this.createdListeners.push(listener);
  }

  private announce(entries: InboxEntry[]): void {
    this.deps.store.afterCommit(() => {
      for (const listener of this.createdListeners) listener(entries);
    });
  }

  /** Unacknowledged entries after the cursor, in entry order. */
  unacked(agentId: string, opts: { afterEntryId?: string; limit: number }): InboxEntry[] {
    return this.list(agentId, opts);
  }

  /**
   * The unacknowledged items after the cursor as a digest: counts per kind and source, the first
   * `list` entries, the first and last entry ids; null when there are none. Counting reads only
   * the index, so 100,000 entries cost a few milliseconds (bench/scenarios/digest.js).
   */
  digest(agentId: string, opts: { afterEntryId?: string | undefined; list: number }): EntryDigest | null {
    const after = opts.afterEntryId ? this.cursorSeq(agentId, opts.afterEntryId) : 0;
    const last = this.stmt.lastUnackedAfter.get(agentId, after) as { seq: number; entry_id: string } | undefined;
    if (!last) return null;
    const sources: EntryDigest['sources'] = [];
    const add = (kind: ItemKind, sourceId: string | null, count: number) => {
      if (count > 0) sources.push({ kind, sourceId, count });
    };
    for (let kind = this.stmt.nextKind.get(agentId, '') as string | undefined; kind !== undefined; kind = this.stmt.nextKind.get(agentId, kind) as string | undefined) {
      if (kind === 'digest_snapshot') continue;
      const k = kind as ItemKind;
      add(k, null, this.stmt.countNoSource.get(agentId, k, after, last.seq) as number);
      for (let src = this.stmt.nextSource.get(agentId, k, '') as string | undefined; src !== undefined; src = this.stmt.nextSource.get(agentId, k, src) as string | undefined) {
        add(k, src, this.stmt.countSource.get(agentId, k, src, after, last.seq) as number);
      }
    }
    sources.sort((a, b) => b.count - a.count || (a.sourceId ?? a.kind).localeCompare(b.sourceId ?? b.kind));
    const entries = this.list(agentId, { afterEntryId: opts.afterEntryId, limit: opts.list });
    return {
      entryCount: sources.reduce((n, s) => n + s.count, 0),
      sources,
      entries,
      firstEntryId: entries[0]!.entryId,
      lastEntryId: last.entry_id,
    };
  }

  /** GET /agents/{id}/inbox/entries: a page in entry order; unacknowledged, unsuperseded ones unless includeAcked. Empty for an unknown agent (whose inbox it opens). Marks the agent seen. */
  page(agentId: string, opts: { after?: string | undefined; limit: number; includeAcked?: boolean }): EntryPage {
    const rows = this.list(agentId, { afterEntryId: opts.after, limit: opts.limit + 1, includeAcked: opts.includeAcked });
    // After the read: a refused cursor opens no inbox.
    this.deps.agents.seen(agentId);
    const more = rows.length > opts.limit;
    const entries = rows.slice(0, opts.limit);
    return { entries, nextCursor: more ? entries[entries.length - 1]!.entryId : null };
  }

  /** Entries after the cursor in entry order: unacknowledged and unsuperseded, or with includeAcked every one (no agent check). */
  list(agentId: string, opts: { afterEntryId?: string | undefined; afterSeq?: number; limit: number; includeAcked?: boolean | undefined }): InboxEntry[] {
    const after = opts.afterSeq ?? (opts.afterEntryId ? this.cursorSeq(agentId, opts.afterEntryId) : 0);
    if (!opts.includeAcked) return (this.stmt.pageUnacked.all(agentId, after, opts.limit) as EntryRow[]).map((r) => toEntry(r));
    const unacked = this.stmt.pageUnackedAll.all(agentId, after, opts.limit) as EntryRow[];
    const acked = this.stmt.pageAcked.all(agentId, after, opts.limit) as EntryRow[];
    return [...unacked, ...acked]
      .sort((a, b) => a.seq - b.seq)
      .slice(0, opts.limit)
      .map((r) => toEntry(r));
  }

  /** The `sequence` of the agent's newest row, listed or not (0 when it has none): every later row is newer than this read. */
  headSeq(agentId: string): number {
    return this.stmt.headSeq.get(agentId, agentId) as number;
  }

  /** svc's summary of an inbox (GET /agents/{id}/inbox). Throws 404 agent_not_found. */
  summary(agentId: string): InboxSummary {
    const agent = this.deps.agents.get(agentId);
    return { agentId, unackedCount: this.stmt.unackedItems.get(agentId) as number, latestEntryId: this.latest(agentId), deliveryPaused: agent.deliveryPaused };
  }

  /** AgentInbox's itemCounts (zero for an unknown agent). */
  counts(agentId: string): ItemCounts {
    const unacked = this.stmt.unackedItems.get(agentId) as number;
    const acked = this.stmt.ackedItems.get(agentId) as number;
    return { total: unacked + acked, unacked, acked };
  }

  /**
   * Acknowledge by one of the three forms (acks.ts); returns how many entries were newly
   * acknowledged. Unknown ids answer 404 entry_not_found and acknowledge nothing; `all` on an
   * unknown agent acknowledges nothing. Durable before it resolves.
   */
  async ack(agentId: string, form: AckForm): Promise<number> {
    const acked = await this.deps.store.write(() => {
      const { acked } = this.acks.ack(agentId, form, isoAt(this.deps.clock.now()));
      const made: InboxEntry[] = [];
      this.threads.reconcile(agentId, made);
      if (made.length > 0) this.announce(made);
      if (acked > 0) this.deps.store.afterCommit(() => this.ackedListeners.forEach((listener) => listener(agentId)));
      return acked;
    });
    // After the ack: a refused one (unknown entry ids) opens no inbox.
    this.deps.agents.seen(agentId);
    return acked;
  }

  /**
   * POST /gc: items (and snapshots) acknowledged more than ACKED_RETENTION_MS ago, as AgentInbox's
   * gc removes them, and the memory of materialised events of sources that are gone. Unacknowledged
   * items are never removed here.
   */
  gc(): Record<string, number> {
    const cutoff = isoAt(this.deps.clock.now() - ACKED_RETENTION_MS);
    return this.deps.store.tx(() => {
      const removed = this.stmt.gcItems.run(cutoff).changes;
      this.stmt.gcSnapshots.run(cutoff);
      this.stmt.gcLedger.run();
      return { ackedEntriesRemoved: removed };
    });
  }

  /**
   * POST /agents/{id}/inbox/compact (AgentInbox's compactInbox): delete the agent's items
   * acknowledged more than `retentionMs` ago (0: every acknowledged one), with the snapshots
   * acknowledged as long ago. `deleted` counts items; unknown agents have nothing to delete.
   */
  compact(agentId: string, retentionMs = ACKED_RETENTION_MS): CompactResult {
    const cutoff = retentionMs === 0 ? END_OF_TIME : isoAt(this.deps.clock.now() - retentionMs);
    return this.deps.store.tx(() => {
      const deleted = this.stmt.compactItems.run(agentId, cutoff).changes;
      this.stmt.compactSnapshots.run(agentId, cutoff);
      return { deleted, retentionMs };
    });
  }

  private latest(agentId: string): string | null {
    type Row = { seq: number; entry_id: string } | undefined;
    const a = this.stmt.latestUnacked.get(agentId) as Row;
    const b = this.stmt.latestAcked.get(agentId) as Row;
    const last = a && b ? (a.seq > b.seq ? a : b) : (a ?? b);
    return last?.entry_id ?? null;
  }

  /** The seq a cursor stands for: its own (an item id: its entry's), or (compacted away) the last entry at or before it. */
  private cursorSeq(agentId: string, cursor: string): number {
    const entryId = cursor.startsWith('itm_') ? `ent_${cursor.slice(4)}` : cursor;
    const seq = this.stmt.seqOf.get(agentId, entryId) as number | undefined;
    if (seq !== undefined) return seq;
    return (this.stmt.seqAtOrBefore.get(entryId) as number | undefined) ?? 0;
  }
}

/** A row with its defaults (the columns a kind does not use are NULL). */
function row(r: Partial<EntryRow> & Pick<EntryRow, 'entry_id' | 'agent_id' | 'kind' | 'created_at'>): EntryRow {
  return {
    seq: 0,
    subscription_id: null,
    source_id: null,
    stream_offset: null,
    event: null,
    sender: null,
    message: null,
    schedule_id: null,
    acked_at: null,
    metadata: null,
    subscription_ids: null,
    match_reason: null,
    summary: null,
    thread_id: null,
    revision: null,
    superseded_at: null,
    snapshot: null,
    ...r,
  };
}

/** The matches grouped by agent and event, in the order each group first appears. */
function byAgentEvent(matches: EventMatch[]): EventMatch[][] {
  const groups = new Map<string, EventMatch[]>();
  for (const m of matches) {
    const key = `${m.agentId}\u0000${m.event.sourceId}\u0000${m.event.offset}`;
    const g = groups.get(key);
    if (g) g.push(m);
    else groups.set(key, [m]);
  }
  return [...groups.values()];
}

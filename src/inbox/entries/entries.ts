/**
 * Inbox entries (spec/inbox.md Inbox; docs/inbox-api.md#inbox): matched events, direct items and
 * timer reminders, in one per-agent order (`seq`). The public cursor is the `ent_` id.
 *
 * An event entry is unique per subscription and stream offset (a unique index; inserts of an
 * existing pair are ignored), so replays after a reset or a catch-up never duplicate an entry.
 * Entries are created inside the caller's transaction; `onCreated` listeners (watchers, delivery)
 * hear about them only after that transaction commits.
 */
import type Database from 'better-sqlite3';
import { isoAt, type Clock, errors, type IdGenerator } from '../../core/index.js';
import type { Store } from '../../store/index.js';
import type { InboxAgents } from './agents.js';
import type { StoredEvent } from '../streams/index.js';
import { withDeliveryHandle } from '../outbound/index.js';

/** POST /gc removes entries acknowledged longer ago than this (AgentInbox keeps them a day too). */
export const ACKED_RETENTION_MS = 24 * 60 * 60 * 1000;

export type EntryKind = 'event' | 'direct' | 'timer';

export interface InboxEntry {
  entryId: string;
  agentId: string;
  kind: EntryKind;
  subscriptionId: string | null;
  sourceId: string | null;
  offset: number | null;
  event: StoredEvent | null;
  sender: string | null;
  message: string | null;
  /** The inbox timer that fired (kind `timer`). */
  scheduleId: string | null;
  createdAt: string;
  ackedAt: string | null;
  /** A direct item's machine-readable fields, when it was given some (absent otherwise). */
  metadata?: Record<string, unknown>;
}

/** One matched event for one subscription (the matcher's input). */
export interface EventMatch {
  agentId: string;
  subscriptionId: string;
  event: StoredEvent;
  /** JSON of `event`, serialised once however many subscriptions matched it. */
  eventJson: string;
}

export type AckForm = { throughEntryId: string } | { entryIds: string[] } | { all: true };

export interface EntryPage {
  entries: InboxEntry[];
  /** Pass as `after` for the next page; null when this page reached the end. */
  nextCursor: string | null;
}

export interface InboxSummary {
  agentId: string;
  unackedCount: number;
  latestEntryId: string | null;
  deliveryPaused: boolean;
}

/** Unacknowledged entries after a cursor, summarised (a digest's content). */
export interface EntryDigest {
  entryCount: number;
  /** How many per kind and source (a source for `event` entries; null for direct items and timer reminders), most first. */
  sources: Array<{ kind: EntryKind; sourceId: string | null; count: number }>;
  /** The first ones, in entry order. */
  entries: InboxEntry[];
  firstEntryId: string;
  lastEntryId: string;
}

export interface InboxEntriesDeps {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  agents: InboxAgents;
}

interface EntryRow {
  seq: number;
  entry_id: string;
  agent_id: string;
  kind: EntryKind;
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
}

const toEntry = (r: EntryRow): InboxEntry => withDeliveryHandle({
  entryId: r.entry_id,
  agentId: r.agent_id,
  kind: r.kind,
  subscriptionId: r.subscription_id,
  sourceId: r.source_id,
  offset: r.stream_offset,
  event: r.event === null ? null : (JSON.parse(r.event) as StoredEvent),
  sender: r.sender,
  message: r.message,
  scheduleId: r.schedule_id,
  createdAt: r.created_at,
  ackedAt: r.acked_at,
  ...(r.metadata === null ? {} : { metadata: JSON.parse(r.metadata) as Record<string, unknown> }),
});

type Listener = (entries: InboxEntry[]) => void;

export class InboxEntries {
  private readonly createdListeners: Listener[] = [];
  private readonly stmt: Record<
    | 'insert'
    | 'insertEvent'
    | 'seqOf'
    | 'seqAtOrBefore'
    | 'pageAcked'
    | 'pageUnacked'
    | 'ackThrough'
    | 'ackOne'
    | 'ackAll'
    | 'compact'
    | 'removeUnacked'
    | 'unackedCount'
    | 'latestUnacked'
    | 'latestAcked'
    | 'gc'
    | 'lastUnackedAfter'
    | 'nextKind'
    | 'nextSource'
    | 'countNoSource'
    | 'countSource',
    Database.Statement
  >;

  constructor(private readonly deps: InboxEntriesDeps) {
    const db = deps.store.db;
    const cols = '(entry_id, agent_id, kind, subscription_id, source_id, stream_offset, event, sender, message, schedule_id, created_at)';
    this.stmt = {
      insert: db.prepare(
        'INSERT INTO inbox_entries (entry_id, agent_id, kind, subscription_id, source_id, stream_offset, event, sender, message, schedule_id, created_at, metadata) ' +
          'VALUES (?, ?, ?, NULL, NULL, NULL, NULL, ?, ?, ?, ?, ?)',
      ),
      insertEvent: db.prepare(`INSERT OR IGNORE INTO inbox_entries ${cols} VALUES (?, ?, 'event', ?, ?, ?, ?, NULL, NULL, NULL, ?)`),
      seqOf: db.prepare('SELECT seq FROM inbox_entries WHERE agent_id = ? AND entry_id = ?').pluck(),
      // A cursor whose entry was compacted away: ids and seqs grow together, so the last entry at or before it.
      seqAtOrBefore: db.prepare('SELECT seq FROM inbox_entries WHERE entry_id <= ? ORDER BY entry_id DESC LIMIT 1').pluck(),
      // Every per-agent statement names `acked_at IS [NOT] NULL` so that it uses one of the two partial indexes.
      pageUnacked: db.prepare('SELECT * FROM inbox_entries WHERE agent_id = ? AND seq > ? AND acked_at IS NULL ORDER BY seq LIMIT ?'),
      pageAcked: db.prepare('SELECT * FROM inbox_entries WHERE agent_id = ? AND seq > ? AND acked_at IS NOT NULL ORDER BY seq LIMIT ?'),
      ackThrough: db.prepare('UPDATE inbox_entries SET acked_at = ? WHERE agent_id = ? AND seq <= ? AND acked_at IS NULL'),
      ackOne: db.prepare('UPDATE inbox_entries SET acked_at = ? WHERE agent_id = ? AND entry_id = ? AND acked_at IS NULL'),
      ackAll: db.prepare('UPDATE inbox_entries SET acked_at = ? WHERE agent_id = ? AND acked_at IS NULL'),
      compact: db.prepare('DELETE FROM inbox_entries WHERE agent_id = ? AND acked_at IS NOT NULL'),
      removeUnacked: db.prepare('DELETE FROM inbox_entries WHERE agent_id = ? AND acked_at IS NULL'),
      unackedCount: db.prepare('SELECT count(*) FROM inbox_entries WHERE agent_id = ? AND acked_at IS NULL').pluck(),
      latestUnacked: db.prepare('SELECT seq, entry_id FROM inbox_entries WHERE agent_id = ? AND acked_at IS NULL ORDER BY seq DESC LIMIT 1'),
      latestAcked: db.prepare('SELECT seq, entry_id FROM inbox_entries WHERE agent_id = ? AND acked_at IS NOT NULL ORDER BY seq DESC LIMIT 1'),
      gc: db.prepare(
        `DELETE FROM inbox_entries WHERE acked_at IS NOT NULL AND (acked_at < ?
           OR (subscription_id IS NOT NULL AND subscription_id NOT IN (SELECT subscription_id FROM inbox_subscriptions)))`,
      ),
      lastUnackedAfter: db.prepare('SELECT seq, entry_id FROM inbox_entries WHERE agent_id = ? AND seq > ? AND acked_at IS NULL ORDER BY seq DESC LIMIT 1'),
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
    deps.agents.onDeleted((agentId) => {
      this.stmt.removeUnacked.run(agentId);
      this.stmt.compact.run(agentId);
    });
  }

  /** A direct item or a timer reminder, inside the caller's transaction (or its own). */
  create(agentId: string, input: { kind: 'direct' | 'timer'; sender?: string | null; message: string; scheduleId?: string; metadata?: Record<string, unknown> | undefined }): InboxEntry {
    return this.deps.store.tx(() => {
      this.deps.agents.get(agentId);
      const entry: InboxEntry = {
        entryId: this.deps.ids.make('entry'),
        agentId,
        kind: input.kind,
        subscriptionId: null,
        sourceId: null,
        offset: null,
        event: null,
        sender: input.sender ?? null,
        message: input.message,
        scheduleId: input.scheduleId ?? null,
        createdAt: isoAt(this.deps.clock.now()),
        ackedAt: null,
        ...(input.metadata ? { metadata: input.metadata } : {}),
      };
      const metadata = input.metadata ? JSON.stringify(input.metadata) : null;
      this.stmt.insert.run(entry.entryId, agentId, entry.kind, entry.sender, entry.message, entry.scheduleId, entry.createdAt, metadata);
      this.announce([entry]);
      return entry;
    });
  }

  /**
   * Event entries for matched events, inside the caller's transaction. A (subscription, offset)
   * pair that already has an entry is skipped. Returns the entries actually created.
   */
  addEventEntries(matches: EventMatch[]): InboxEntry[] {
    if (matches.length === 0) return [];
    const createdAt = isoAt(this.deps.clock.now());
    const created: InboxEntry[] = [];
    for (const m of matches) {
      const entryId = this.deps.ids.make('entry');
      const { changes } = this.stmt.insertEvent.run(entryId, m.agentId, m.subscriptionId, m.event.sourceId, m.event.offset, m.eventJson, createdAt);
      if (changes === 0) continue;
      created.push(withDeliveryHandle({
        entryId,
        agentId: m.agentId,
        kind: 'event',
        subscriptionId: m.subscriptionId,
        sourceId: m.event.sourceId,
        offset: m.event.offset,
        event: m.event,
        sender: null,
        message: null,
        scheduleId: null,
        createdAt,
        ackedAt: null,
      }));
    }
    if (created.length > 0) this.announce(created);
    return created;
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
   * The unacknowledged entries after the cursor as a digest: counts per kind and source, the
   * first `list` entries, the first and last ids; null when there are none. Counting reads only
   * the index, so 100,000 entries cost a few milliseconds (bench/scenarios/digest.js).
   */
  digest(agentId: string, opts: { afterEntryId?: string | undefined; list: number }): EntryDigest | null {
    const after = opts.afterEntryId ? this.cursorSeq(agentId, opts.afterEntryId) : 0;
    const last = this.stmt.lastUnackedAfter.get(agentId, after) as { seq: number; entry_id: string } | undefined;
    if (!last) return null;
    const sources: EntryDigest['sources'] = [];
    const add = (kind: EntryKind, sourceId: string | null, count: number) => {
      if (count > 0) sources.push({ kind, sourceId, count });
    };
    for (let kind = this.stmt.nextKind.get(agentId, '') as EntryKind | undefined; kind !== undefined; kind = this.stmt.nextKind.get(agentId, kind) as EntryKind | undefined) {
      add(kind, null, this.stmt.countNoSource.get(agentId, kind, after, last.seq) as number);
      for (let src = this.stmt.nextSource.get(agentId, kind, '') as string | undefined; src !== undefined; src = this.stmt.nextSource.get(agentId, kind, src) as string | undefined) {
        add(kind, src, this.stmt.countSource.get(agentId, kind, src, after, last.seq) as number);
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

  /** GET /agents/{id}/inbox/items: a page in entry order; unacknowledged only unless includeAcked. */
  page(agentId: string, opts: { after?: string | undefined; limit: number; includeAcked?: boolean }): EntryPage {
    this.deps.agents.get(agentId);
    const rows = this.list(agentId, { afterEntryId: opts.after, limit: opts.limit + 1, includeAcked: opts.includeAcked });
    const more = rows.length > opts.limit;
    const entries = rows.slice(0, opts.limit);
    return { entries, nextCursor: more ? entries[entries.length - 1]!.entryId : null };
  }

  /** Entries after the cursor in entry order, unacknowledged only unless includeAcked (no agent check). */
  list(agentId: string, opts: { afterEntryId?: string | undefined; limit: number; includeAcked?: boolean | undefined }): InboxEntry[] {
    const after = opts.afterEntryId ? this.cursorSeq(agentId, opts.afterEntryId) : 0;
    let rows = this.stmt.pageUnacked.all(agentId, after, opts.limit) as EntryRow[];
    if (opts.includeAcked) {
      const acked = this.stmt.pageAcked.all(agentId, after, opts.limit) as EntryRow[];
      rows = [...rows, ...acked].sort((a, b) => a.seq - b.seq).slice(0, opts.limit);
    }
    return rows.map(toEntry);
  }

  summary(agentId: string): InboxSummary {
    const agent = this.deps.agents.get(agentId);
    return {
      agentId,
      unackedCount: this.stmt.unackedCount.get(agentId) as number,
      latestEntryId: this.latest(agentId),
      deliveryPaused: agent.deliveryPaused,
    };
  }

  /**
   * Acknowledge by one of the three forms; returns how many entries were newly acknowledged.
   * Unknown entry ids answer 404 entry_not_found and acknowledge nothing. Durable before it resolves.
   */
  async ack(agentId: string, form: AckForm): Promise<number> {
    return this.deps.store.write(() => {
      this.deps.agents.get(agentId);
      const now = isoAt(this.deps.clock.now());
      if ('all' in form) return this.stmt.ackAll.run(now, agentId).changes;
      if ('throughEntryId' in form) {
        const seq = this.stmt.seqOf.get(agentId, form.throughEntryId) as number | undefined;
        if (seq === undefined) throw errors.entryNotFound(form.throughEntryId, agentId);
        return this.stmt.ackThrough.run(now, agentId, seq).changes;
      }
      for (const id of form.entryIds) {
        if (this.stmt.seqOf.get(agentId, id) === undefined) throw errors.entryNotFound(id, agentId);
      }
      let acked = 0;
      for (const id of new Set(form.entryIds)) acked += this.stmt.ackOne.run(now, agentId, id).changes;
      return acked;
    });
  }

  /**
   * POST /gc: acknowledged entries acknowledged more than ACKED_RETENTION_MS ago, and acknowledged
   * leftovers of subscriptions that are gone. Unacknowledged entries are never removed here.
   */
  gc(): Record<string, number> {
    const cutoff = isoAt(this.deps.clock.now() - ACKED_RETENTION_MS);
    return { ackedEntriesRemoved: this.deps.store.tx(() => this.stmt.gc.run(cutoff).changes) };
  }

  /** Drop the agent's acknowledged entries (POST /agents/{id}/inbox/compact); unacknowledged ones stay. */
  compact(agentId: string): number {
    return this.deps.store.tx(() => {
      this.deps.agents.get(agentId);
      return this.stmt.compact.run(agentId).changes;
    });
  }

  private latest(agentId: string): string | null {
    type Row = { seq: number; entry_id: string } | undefined;
    const a = this.stmt.latestUnacked.get(agentId) as Row;
    const b = this.stmt.latestAcked.get(agentId) as Row;
    const last = a && b ? (a.seq > b.seq ? a : b) : (a ?? b);
    return last?.entry_id ?? null;
  }

  /** The seq a cursor stands for: its own, or (compacted away) the last entry at or before it. */
  private cursorSeq(agentId: string, entryId: string): number {
    const seq = this.stmt.seqOf.get(agentId, entryId) as number | undefined;
    if (seq !== undefined) return seq;
    return (this.stmt.seqAtOrBefore.get(entryId) as number | undefined) ?? 0;
  }
}

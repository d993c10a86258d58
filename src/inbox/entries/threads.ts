/**
 * Digest threads (AgentInbox's RFC "Inbox digests and threaded notification entries";
 * docs/agentinbox.md#inbox-items-and-entries): with the agent's inbox policy enabled, related
 * items of a grouping source are read as one `digest_snapshot` entry instead of one entry each.
 *
 * - Grouping comes from the source's edge (`groupingOf`): GitHub comments, review comments and
 *   reviews of one issue or pull request, a pull request's close, and the updates of one workflow
 *   run each form a group (resource + family). Other sources, and local events, never group.
 * - An item of a group joins the agent's open thread of that group, or opens one. A thread older
 *   than `maxThreadAgeMs` takes no more items: its pending items are snapshotted, it is closed, and
 *   the item opens a new thread.
 * - A thread is flushed into a new snapshot of all its unacknowledged items (revision + 1, the
 *   previous snapshot superseded: hidden from reads, still a valid ack) when no item joined it for
 *   `windowMs`, when it holds `maxItems` unacknowledged items, or at once for an immediate item
 *   (a close, a completed run).
 * - After an ack, a thread whose items are all acknowledged is closed (the next item opens a new
 *   one); one whose unacknowledged items differ from its last snapshot gets a new snapshot.
 *
 * Threads and their flush times are rows (`inbox_threads`, open threads only); the flush times are
 * scheduled on the injected clock and rebuilt at start, so a window that closes while the daemon is
 * down is flushed when it starts. Every change runs in the caller's transaction (or its own).
 */
import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import { isoAt, type Clock, type IdGenerator } from '../../core/index.js';
import type { Lifecycle } from '../../runtime/index.js';
import { TimerSchedule } from '../../runtime/timers/index.js';
import type { Store } from '../../store/index.js';
import type { StoredEvent } from '../streams/index.js';
import type { InboxPolicy } from './policy.js';
import { itemIdOf, itemOf, toEntry, type DeliveryHandle, type EntryRow, type InboxEntry, type SnapshotFields, type SourceInfo } from './records.js';

export interface Grouping {
  resourceRef: string;
  eventFamily: string;
  summaryHint: string;
  immediate: boolean;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * How an event groups (AgentInbox's GitHub modules' deriveNotificationGrouping, over its variants
 * and over svc's `github.*` types), or null: not groupable. Only GitHub sources group.
 */
export function groupingOf(source: SourceInfo | null, event: StoredEvent): Grouping | null {
  if (!source || !source.sourceType.startsWith('github')) return null;
  const m = event.metadata;
  const t = event.type;
  const runId = num(m.workflowRunId) ?? (t === 'github.workflow_run' ? num(m.runId) : null);
  if (runId !== null) {
    const done = typeof m.conclusion === 'string' || m.status === 'completed';
    return { resourceRef: `workflow_run:${runId}`, eventFamily: 'ci_updates', summaryHint: `CI updates for run #${runId}`, immediate: done };
  }
  const n = num(m.number);
  if (!n) return null;
  const pr = m.isPullRequest === true;
  if (t.startsWith('PullRequestReviewCommentEvent.') || t === 'github.pull_request_review_comment') {
    return { resourceRef: `pr:${n}`, eventFamily: 'review_comments', summaryHint: `review comments on PR #${n}`, immediate: false };
  }
  if (t.startsWith('PullRequestReviewEvent.') || t === 'github.pull_request_review') {
    return { resourceRef: `pr:${n}`, eventFamily: 'reviews', summaryHint: `reviews on PR #${n}`, immediate: false };
  }
  if (t.startsWith('IssueCommentEvent.') || t === 'github.issue_comment') {
    return { resourceRef: `${pr ? 'pr' : 'issue'}:${n}`, eventFamily: 'comments', summaryHint: `comments on ${pr ? 'PR' : 'issue'} #${n}`, immediate: false };
  }
  if (t.startsWith('PullRequestEvent.closed') || (t === 'github.pull_request' && (m.action === 'closed' || m.action === 'merged'))) {
    return { resourceRef: `pr:${n}`, eventFamily: 'lifecycle', summaryHint: `PR #${n} lifecycle updates`, immediate: true };
  }
  return null;
}

interface ThreadRow {
  thread_id: string;
  agent_id: string;
  source_id: string;
  group_key: string;
  resource_ref: string;
  event_family: string;
  summary: string;
  revision: number;
  head_seq: number | null;
  flush_at_ms: number | null;
  created_ms: number;
}

export interface InboxThreadsDeps {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  /** Announce entries made outside a materialising pass (a window closing), after their commit. */
  announce: (entries: InboxEntry[]) => void;
}

const FLUSH_BATCH = 256;

export class InboxThreads implements Lifecycle {
  private readonly schedule: TimerSchedule;
  private readonly stmt: Record<
    'open' | 'get' | 'byAgent' | 'insert' | 'close' | 'setFlush' | 'setHead' | 'scheduled' | 'pending' | 'row' | 'supersede' | 'insertSnapshot',
    Database.Statement
  >;

  constructor(private readonly deps: InboxThreadsDeps) {
    const db = deps.store.db;
    this.stmt = {
      open: db.prepare('SELECT * FROM inbox_threads WHERE agent_id = ? AND group_key = ?'),
      get: db.prepare('SELECT * FROM inbox_threads WHERE thread_id = ?'),
      byAgent: db.prepare('SELECT * FROM inbox_threads WHERE agent_id = ? ORDER BY created_ms, thread_id'),
      insert: db.prepare(
        `INSERT INTO inbox_threads (thread_id, agent_id, source_id, group_key, resource_ref, event_family, summary, revision, head_seq, flush_at_ms, created_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, 0, NULL, NULL, ?)`,
      ),
      close: db.prepare('DELETE FROM inbox_threads WHERE thread_id = ?'),
      setFlush: db.prepare('UPDATE inbox_threads SET flush_at_ms = ? WHERE thread_id = ?'),
      setHead: db.prepare('UPDATE inbox_threads SET revision = ?, head_seq = ?, flush_at_ms = NULL WHERE thread_id = ?'),
      scheduled: db.prepare('SELECT thread_id, flush_at_ms FROM inbox_threads WHERE flush_at_ms IS NOT NULL'),
      pending: db.prepare("SELECT * FROM inbox_entries WHERE thread_id = ? AND kind <> 'digest_snapshot' AND acked_at IS NULL ORDER BY seq"),
      row: db.prepare('SELECT * FROM inbox_entries WHERE seq = ?'),
      supersede: db.prepare('UPDATE inbox_entries SET superseded_at = ? WHERE seq = ? AND superseded_at IS NULL'),
      insertSnapshot: db.prepare(
        `INSERT INTO inbox_entries (entry_id, agent_id, kind, source_id, created_at, subscription_ids, summary, thread_id, revision, snapshot)
         VALUES (?, ?, 'digest_snapshot', ?, ?, ?, ?, ?, ?, ?)`,
      ),
    };
    this.schedule = new TimerSchedule(deps.clock, () => this.runDue());
  }

  start(): void {
    for (const r of this.stmt.scheduled.all() as Array<{ thread_id: string; flush_at_ms: number }>) this.schedule.set(r.thread_id, r.flush_at_ms);
    this.runDue();
  }

  stop(): void {
    this.schedule.stop();
  }

  /**
   * Inside the materialising transaction, before the item is stored: the thread the item joins
   * (opened when needed). Snapshots made while rolling an old thread over go to `out`.
   */
  join(agentId: string, sourceId: string, g: Grouping, policy: InboxPolicy, out: InboxEntry[]): string {
    const groupKey = `${sourceId}::${g.resourceRef}::${g.eventFamily}`;
    const now = this.deps.clock.now();
    const open = this.stmt.open.get(agentId, groupKey) as ThreadRow | undefined;
    if (open && open.created_ms + policy.maxThreadAgeMs > now) return open.thread_id;
    if (open) this.close(open, out);
    const threadId = this.deps.ids.make('thread');
    this.stmt.insert.run(threadId, agentId, sourceId, groupKey, g.resourceRef, g.eventFamily, g.summaryHint, now);
    return threadId;
  }

  /** Inside the materialising transaction, after the item joined: flush now, or (re)start the window. */
  joined(threadId: string, immediate: boolean, policy: InboxPolicy, out: InboxEntry[]): void {
    const row = this.stmt.get.get(threadId) as ThreadRow;
    const pending = this.stmt.pending.all(threadId) as EntryRow[];
    if (immediate || pending.length >= policy.maxItems) {
      this.flush(row, pending, out);
      return;
    }
    const due = this.deps.clock.now() + policy.windowMs;
    this.stmt.setFlush.run(due, threadId);
    this.deps.store.afterCommit(() => this.schedule.set(threadId, due));
  }

  /** Inside an ack's transaction: close the agent's threads with nothing unacknowledged, re-snapshot the others that changed. */
  reconcile(agentId: string, out: InboxEntry[]): void {
    for (const row of this.stmt.byAgent.all(agentId) as ThreadRow[]) {
      const pending = this.stmt.pending.all(row.thread_id) as EntryRow[];
      if (pending.length === 0) this.drop(row);
      else if (!sameItems(pending, this.head(row))) this.flush(row, pending, out);
    }
  }

  /** The schedule's wake-up: flush every thread whose window has closed (tests call it after moving the clock). */
  runDue(): void {
    const now = this.deps.clock.now();
    for (;;) {
      const due = this.schedule.takeDue(now, FLUSH_BATCH);
      if (due.length === 0) break;
      try {
        this.deps.store.tx(() => {
          const made: InboxEntry[] = [];
          for (const { timerId } of due) {
            const row = this.stmt.get.get(timerId) as ThreadRow | undefined;
            if (!row || row.flush_at_ms === null) continue;
            if (row.flush_at_ms > now) {
              this.deps.store.afterCommit(() => this.schedule.set(row.thread_id, row.flush_at_ms!));
              continue;
            }
            this.flush(row, this.stmt.pending.all(row.thread_id) as EntryRow[], made);
          }
          if (made.length > 0) this.deps.announce(made);
        });
      } catch (err) {
        this.deps.logger.error({ err }, 'inbox thread flush failed; retried in a second');
        for (const { timerId } of due) this.schedule.set(timerId, now + 1000);
        break;
      }
    }
    this.schedule.arm();
  }

  /** The items of the thread's last snapshot (none before its first). */
  private head(row: ThreadRow): string[] {
    if (row.head_seq === null) return [];
    const head = this.stmt.row.get(row.head_seq) as EntryRow | undefined;
    return head?.snapshot ? (JSON.parse(head.snapshot) as SnapshotFields).itemIds : [];
  }

  /** Snapshot what is pending and not yet in a snapshot, then close the thread. */
  private close(row: ThreadRow, out: InboxEntry[]): void {
    const pending = this.stmt.pending.all(row.thread_id) as EntryRow[];
    if (pending.length > 0 && !sameItems(pending, this.head(row))) this.flush(row, pending, out);
    this.drop(row);
  }

  private drop(row: ThreadRow): void {
    this.stmt.close.run(row.thread_id);
    this.deps.store.afterCommit(() => this.schedule.remove(row.thread_id));
  }

  /** A new snapshot of the pending items, superseding the thread's last one. */
  private flush(row: ThreadRow, pending: EntryRow[], out: InboxEntry[]): void {
    if (pending.length === 0) {
      this.drop(row);
      return;
    }
    const items = pending.map((r) => itemOf(r));
    const now = isoAt(this.deps.clock.now());
    const fields: SnapshotFields = {
      itemIds: items.map((i) => i.itemId),
      sourceIds: [...new Set(items.map((i) => i.sourceId))].sort(),
      firstItemAt: items[0]!.occurredAt,
      lastItemAt: items.at(-1)!.occurredAt,
      groupKey: row.group_key,
      resourceRef: row.resource_ref,
      eventFamily: row.event_family,
      deliveryHandle: sharedHandle(items.map((i) => i.deliveryHandle)),
    };
    const subscriptionIds = [...new Set(pending.flatMap((r) => (r.subscription_ids ? (JSON.parse(r.subscription_ids) as string[]) : [])))].sort();
    if (row.head_seq !== null) this.stmt.supersede.run(now, row.head_seq);
    const revision = row.revision + 1;
    const entryId = this.deps.ids.make('entry');
    const summary = `${items.length} ${row.summary}`;
    const { lastInsertRowid } = this.stmt.insertSnapshot.run(entryId, row.agent_id, row.source_id, now, JSON.stringify(subscriptionIds), summary, row.thread_id, revision, JSON.stringify(fields));
    const seq = Number(lastInsertRowid);
    this.stmt.setHead.run(revision, seq, row.thread_id);
    this.deps.store.afterCommit(() => this.schedule.remove(row.thread_id));
    out.push(toEntry(this.stmt.row.get(seq) as EntryRow));
  }
}

function sameItems(pending: EntryRow[], head: string[]): boolean {
  return pending.length === head.length && pending.every((r, i) => itemIdOf(r.entry_id) === head[i]);
}

function sharedHandle(handles: Array<DeliveryHandle | null>): DeliveryHandle | null {
  const first = handles[0] ?? null;
  if (!first) return null;
  const key = JSON.stringify(first);
  return handles.every((h) => h !== null && JSON.stringify(h) === key) ? first : null;
}

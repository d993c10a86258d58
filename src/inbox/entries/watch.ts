/**
 * Inbox watch (GET /agents/{agentId}/inbox/watch). The frames are AgentInbox's (spec/inbox.md
 * shows no watch body, so the real system's shape is the one served): `event: items` with data
 * `{event:"items", agentId, entries:[…]}`, and each frame with entries carries `id:` = its last
 * entry id, so a reconnect with Last-Event-ID resumes after it. Heartbeats are `event: heartbeat`
 * frames `{event:"heartbeat", agentId, timestamp}` without an id, every `heartbeatMs` (AgentInbox's
 * default 15 s; any positive value is taken, and kept within MIN/MAX_HEARTBEAT_MS). An agent
 * that does not exist has an empty backlog, as on AgentInbox; its entries come live once it exists.
 *
 * A watcher first gets the backlog after its cursor (all entries without one; unacknowledged only
 * unless includeAcked) in chunks that wait for the socket to drain, as one `items` frame per
 * chunk, the first one sent even when empty; when a read comes back short it joins the live set
 * in the same synchronous step, so no entry committed in between can be missed. Live entries
 * arrive from `entries.onCreated` (after commit): one frame per agent per commit (per 256 entries),
 * serialised once whatever the number of watchers. Connections are the shared SseConnection
 * (backpressure, lagging disconnect), counted and closed at shutdown by the SSE hub.
 */
import { isoAt, type Clock } from '../../core/index.js';
import { sseFrame, type SseConnection } from '../../events/index.js';
import type { Store } from '../../store/index.js';
import type { InboxAgents } from './agents.js';
import type { InboxEntries } from './entries.js';
import type { InboxEntry } from './records.js';

const BACKLOG_CHUNK = 256;
/** AgentInbox's heartbeat period when the watcher names none. */
export const DEFAULT_HEARTBEAT_MS = 15_000;
/** Heartbeats asked for more often than this are sent this often. */
export const MIN_HEARTBEAT_MS = 100;
/** ... and less often than setInterval can wait (it would fire at once instead): this often. */
export const MAX_HEARTBEAT_MS = 2 ** 31 - 1;

export type WatchConnection = Pick<SseConnection, 'deliver' | 'writable' | 'onClose' | 'close' | 'closed'>;

export interface WatchOptions {
  /** Start after this entry. */
  after?: string | undefined;
  /** The backlog also lists acknowledged entries. */
  includeAcked?: boolean | undefined;
  /** Send a heartbeat frame this often (default DEFAULT_HEARTBEAT_MS). */
  heartbeatMs?: number | undefined;
}

export function itemsFrame(agentId: string, entries: InboxEntry[]): string {
  const data = JSON.stringify({ event: 'items', agentId, entries });
  const last = entries.at(-1);
  return last ? sseFrame(last.entryId, 'items', data) : `event: items\ndata: ${data}\n\n`;
}

export class InboxWatch {
  private readonly byAgent = new Map<string, Set<WatchConnection>>();
  /** Per watcher that joined while entries it read were not yet published: their ids (see join). */
  private readonly seen = new Map<WatchConnection, Set<string>>();

  constructor(private readonly deps: { store: Store; clock: Clock; entries: InboxEntries; agents: InboxAgents }) {
    deps.entries.onCreated((entries) => this.publish(entries));
    deps.agents.onDeleted((agentId) => deps.store.afterCommit(() => this.closeAgent(agentId)));
  }

  /** Watchers currently following an agent's inbox. */
  watchers(agentId: string): number {
    return this.byAgent.get(agentId)?.size ?? 0;
  }

  /** Backlog after `opts.after` (from the start when absent), then live. */
  async stream(conn: WatchConnection, agentId: string, opts: WatchOptions = {}): Promise<void> {
    this.heartbeat(conn, agentId, Math.min(MAX_HEARTBEAT_MS, Math.max(MIN_HEARTBEAT_MS, opts.heartbeatMs ?? DEFAULT_HEARTBEAT_MS)));
    let last = opts.after;
    for (let first = true; !conn.closed; first = false) {
      const backlog = this.deps.entries.list(agentId, { afterEntryId: last, limit: BACKLOG_CHUNK, includeAcked: opts.includeAcked });
      // After the first read: a refused cursor opens no inbox.
      if (first) this.deps.agents.seen(agentId);
      if (first || backlog.length > 0) conn.deliver(itemsFrame(agentId, backlog));
      if (backlog.length < BACKLOG_CHUNK) {
        this.join(agentId, conn, backlog);
        return;
      }
      last = backlog[backlog.length - 1]!.entryId;
      await conn.writable();
    }
  }

  closeAgent(agentId: string): void {
    for (const conn of [...(this.byAgent.get(agentId) ?? [])]) conn.close('agent_deleted');
  }

  private heartbeat(conn: WatchConnection, agentId: string, everyMs: number): void {
    const timer = setInterval(() => {
      const data = JSON.stringify({ event: 'heartbeat', agentId, timestamp: isoAt(this.deps.clock.now()) });
      conn.deliver(`event: heartbeat\ndata: ${data}\n\n`);
      // A watched inbox is read: its agent stays seen while the watch lasts.
      try {
        this.deps.agents.seen(agentId);
      } catch {
        // the store is closing; the next heartbeat (or the watch's end) follows
      }
    }, everyMs);
    timer.unref();
    conn.onClose(() => clearInterval(timer));
  }

  /**
   * `lastRead`: the backlog's last read. A commit is visible to reads before its hooks run (they
   * wait for the fsync), so its entries can be in that read and still come live after: those are
   * skipped for this watcher, until a live entry it has not seen shows that every commit before
   * it was published (hooks run in commit order).
   */
  private join(agentId: string, conn: WatchConnection, lastRead: InboxEntry[]): void {
    let set = this.byAgent.get(agentId);
    if (!set) this.byAgent.set(agentId, (set = new Set()));
    set.add(conn);
    if (lastRead.length > 0) this.seen.set(conn, new Set(lastRead.map((e) => e.entryId)));
    conn.onClose(() => {
      set.delete(conn);
      this.seen.delete(conn);
      if (set.size === 0 && this.byAgent.get(agentId) === set) this.byAgent.delete(agentId);
    });
  }

  /** The frame for one watcher that may have read some of `list` in its backlog. */
  private unseen(conn: WatchConnection, list: InboxEntry[]): InboxEntry[] {
    const seen = this.seen.get(conn);
    if (!seen) return list;
    const fresh = list.filter((e) => !seen.has(e.entryId));
    if (fresh.length > 0) this.seen.delete(conn);
    return fresh;
  }

  private publish(entries: InboxEntry[]): void {
    if (this.byAgent.size === 0) return;
    const byAgent = new Map<string, InboxEntry[]>();
    for (const entry of entries) {
      if (!this.byAgent.has(entry.agentId)) continue;
      const list = byAgent.get(entry.agentId);
      if (list) list.push(entry);
      else byAgent.set(entry.agentId, [entry]);
    }
    for (const [agentId, list] of byAgent) {
      for (let i = 0; i < list.length; i += BACKLOG_CHUNK) {
        const chunk = list.slice(i, i + BACKLOG_CHUNK);
        const frame = itemsFrame(agentId, chunk);
        for (const conn of [...this.byAgent.get(agentId)!]) {
          if (!this.seen.has(conn)) conn.deliver(frame);
          else {
            const fresh = this.unseen(conn, chunk);
            if (fresh.length > 0) conn.deliver(fresh.length === chunk.length ? frame : itemsFrame(agentId, fresh));
          }
        }
      }
    }
  }
}

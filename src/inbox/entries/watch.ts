/**
 * Inbox watch (GET /agents/{agentId}/inbox/watch). The frames are AgentInbox's (spec/inbox.md
 * shows no watch body, so the real system's shape is the one served): `event: items` with data
 * `{event:"items", agentId, entries:[…]}`, and each frame with entries carries `id:` = its last
 * entry id, so a reconnect with Last-Event-ID resumes after it. Heartbeats are `event: heartbeat`
 * frames `{event:"heartbeat", agentId, timestamp}` without an id, every `heartbeatMs` (AgentInbox's
 * default 15 s; any positive value is taken, and kept within MIN/MAX_HEARTBEAT_MS). An agent
 * that does not exist has an empty backlog, as on AgentInbox; its entries come live once it exists.
 *
 * A watcher reads its backlog after its cursor (all entries without one; unacknowledged only
 * unless includeAcked) in chunks that wait for the socket to drain, as one `items` frame per
 * chunk, the first one sent even when empty; when a read comes back short it goes live in the
 * same synchronous step, so no entry committed in between can be missed. Live entries arrive from
 * `entries.onCreated` (after commit): one frame per agent per commit (per 256 entries), serialised
 * once whatever the number of watchers.
 *
 * The database is the buffer, not the socket: a watcher whose socket pushes back takes no more
 * live frames; once the socket drains it reads what it missed from the inbox, as its backlog, and
 * goes live again. So a burst (a catch-up of thousands of events in one commit) costs a watcher at
 * most one frame of memory and never its connection, and a reader that stops reading altogether
 * is left to the shared SseConnection's budget (only heartbeats queue). A watcher's `through` is
 * the sequence it has read up to: live entries at or below it (a commit is visible to reads before
 * its hooks run) are not sent twice. Connections are counted and closed at shutdown by the SSE hub.
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

export type WatchConnection = Pick<SseConnection, 'deliver' | 'writable' | 'onClose' | 'close' | 'closed' | 'backedUp'>;

/** One open watch: its connection, and how far into the agent's inbox it has read. */
interface Watcher {
  conn: WatchConnection;
  agentId: string;
  includeAcked: boolean;
  /** The sequence of the last entry read (live entries at or below it were sent). */
  through: number;
  /** Reading from the inbox (its backlog, or what it missed while its socket pushed back): takes no live frames. */
  reading: boolean;
}

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
  private readonly byAgent = new Map<string, Set<Watcher>>();

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
    const watcher: Watcher = { conn, agentId, includeAcked: opts.includeAcked ?? false, through: 0, reading: true };
    const first = this.deps.entries.list(agentId, { afterEntryId: opts.after, limit: BACKLOG_CHUNK, includeAcked: watcher.includeAcked });
    // After the first read: a refused cursor opens no inbox.
    this.deps.agents.seen(agentId);
    this.add(watcher);
    conn.deliver(itemsFrame(agentId, first));
    await this.readOn(watcher, first);
  }

  closeAgent(agentId: string): void {
    for (const w of [...(this.byAgent.get(agentId) ?? [])]) w.conn.close('agent_deleted');
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

  private add(w: Watcher): void {
    let set = this.byAgent.get(w.agentId);
    if (!set) this.byAgent.set(w.agentId, (set = new Set()));
    set.add(w);
    w.conn.onClose(() => {
      set.delete(w);
      if (set.size === 0 && this.byAgent.get(w.agentId) === set) this.byAgent.delete(w.agentId);
    });
  }

  /**
   * Read on from the inbox after `read` (the chunk just sent), a chunk per drained socket, until a
   * read comes back short: then live, in the same synchronous step as that read. Every row up to
   * the inbox's head at that moment was read or is not listed (acknowledged, before the cursor).
   */
  private async readOn(w: Watcher, read: InboxEntry[] | null): Promise<void> {
    for (; read !== null; read = await this.nextChunk(w)) {
      if (read.length > 0) w.through = read.at(-1)!.sequence;
      if (read.length < BACKLOG_CHUNK) {
        w.through = Math.max(w.through, this.deps.entries.headSeq(w.agentId));
        w.reading = false;
        return;
      }
    }
  }

  /** Once the socket has drained: the next chunk after what the watcher read, sent (null when it closed). */
  private async nextChunk(w: Watcher): Promise<InboxEntry[] | null> {
    await w.conn.writable();
    if (w.conn.closed) return null;
    const read = this.deps.entries.list(w.agentId, { afterSeq: w.through, limit: BACKLOG_CHUNK, includeAcked: w.includeAcked });
    if (read.length > 0) w.conn.deliver(itemsFrame(w.agentId, read));
    return read;
  }

  /** The socket pushed back: no more live frames; what follows is read from the inbox once it drains. */
  private fallBehind(w: Watcher): void {
    w.reading = true;
    // A read that fails (the store closing at shutdown) ends the watch; the client resumes with Last-Event-ID.
    this.nextChunk(w)
      .then((read) => this.readOn(w, read))
      .catch(() => w.conn.close());
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
        let frame: string | null = null;
        // A watch may have closed since the last chunk (its set is then gone with its last watcher).
        for (const w of [...(this.byAgent.get(agentId) ?? [])]) {
          if (w.reading) continue;
          const fresh = chunk[0]!.sequence > w.through ? chunk : chunk.filter((e) => e.sequence > w.through);
          if (fresh.length === 0) continue;
          if (w.conn.backedUp) {
            this.fallBehind(w);
            continue;
          }
          w.conn.deliver(fresh === chunk ? (frame ??= itemsFrame(agentId, chunk)) : itemsFrame(agentId, fresh));
          w.through = fresh.at(-1)!.sequence;
        }
      }
    }
  }
}

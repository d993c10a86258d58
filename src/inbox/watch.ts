/**
 * Inbox watch (GET /agents/{agentId}/inbox/watch; CONTRACT.md section 9): SSE frames with
 * `id:` = entry id, `event: entry`, data = the entry JSON.
 *
 * A watcher first gets the backlog of unacknowledged entries after its Last-Event-ID (all of
 * them without one), in entry order and in chunks that wait for the socket to drain; when a read
 * finds nothing more it joins the live set in the same synchronous step, so no entry committed in
 * between can be missed. Live entries arrive from `entries.onCreated` (after commit), each
 * serialised once whatever the number of watchers. Connections are the shared SseConnection
 * (backpressure, lagging disconnect), counted and closed at shutdown by the SSE hub.
 */
import { sseFrame } from '../events/broadcaster.js';
import type { SseConnection } from '../events/sse.js';
import type { Store } from '../store/store.js';
import type { InboxAgents } from './agents.js';
import type { InboxEntries, InboxEntry } from './entries.js';

const BACKLOG_CHUNK = 256;

export type WatchConnection = Pick<SseConnection, 'deliver' | 'writable' | 'onClose' | 'close' | 'closed'>;

export function entryFrame(entry: InboxEntry): string {
  return sseFrame(entry.entryId, 'entry', JSON.stringify(entry));
}

export class InboxWatch {
  private readonly byAgent = new Map<string, Set<WatchConnection>>();

  constructor(private readonly deps: { store: Store; entries: InboxEntries; agents: InboxAgents }) {
    deps.entries.onCreated((entries) => this.publish(entries));
    deps.agents.onDeleted((agentId) => deps.store.afterCommit(() => this.closeAgent(agentId)));
  }

  /** Watchers currently following an agent's inbox. */
  watchers(agentId: string): number {
    return this.byAgent.get(agentId)?.size ?? 0;
  }

  /** Backlog of unacknowledged entries after `afterEntryId` (all when absent), then live. */
  async stream(conn: WatchConnection, agentId: string, afterEntryId?: string): Promise<void> {
    let last = afterEntryId;
    while (!conn.closed) {
      const backlog = this.deps.entries.unacked(agentId, { afterEntryId: last, limit: BACKLOG_CHUNK });
      if (backlog.length === 0) {
        this.join(agentId, conn);
        return;
      }
      for (const entry of backlog) conn.deliver(entryFrame(entry));
      last = backlog[backlog.length - 1]!.entryId;
      await conn.writable();
    }
  }

  closeAgent(agentId: string): void {
    for (const conn of [...(this.byAgent.get(agentId) ?? [])]) conn.close('agent_deleted');
  }

  private join(agentId: string, conn: WatchConnection): void {
    let set = this.byAgent.get(agentId);
    if (!set) this.byAgent.set(agentId, (set = new Set()));
    set.add(conn);
    conn.onClose(() => {
      set.delete(conn);
      if (set.size === 0 && this.byAgent.get(agentId) === set) this.byAgent.delete(agentId);
    });
  }

  private publish(entries: InboxEntry[]): void {
    if (this.byAgent.size === 0) return;
    for (const entry of entries) {
      const set = this.byAgent.get(entry.agentId);
      if (!set) continue;
      const frame = entryFrame(entry);
      for (const conn of [...set]) conn.deliver(frame);
    }
  }
}

/**
 * The inbox agents' lifecycle (docs/inbox-api.md#agent-lifecycle), a housekeeping hook
 * (entries/gc.ts): AgentInbox removes an agent that has been offline for 7 days; svc removes an
 * agent, with everything it owns, when all of these hold for `inbox.offline_agent_ttl_ms`:
 * - it has no active target, and none of its targets changed (a delivery, a failure, a resume);
 * - nobody read, watched or acknowledged its inbox, and it lost no target (its `last_seen_ms`).
 * So an agent read by pull or kept by a watch stays, whether or not it has targets, and a dead
 * terminal session's agent (its pane gone, nobody reading) goes instead of gathering entries for
 * ever. An inbox a read opened for an id no agent holds closes after as long unread. The agent
 * `[policy] notify_inbox` names is never removed; `0` turns the removal off.
 */
import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import type { Clock } from '../core/index.js';
import type { Store } from '../store/index.js';
import type { InboxAgents } from './entries/index.js';

export interface AgentLifecycleDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  agents: InboxAgents;
  /** `inbox.offline_agent_ttl_ms`, read at each run (0: never). */
  ttlMs: () => number;
  /** Agents the configuration names, never removed. */
  kept: () => string[];
}

export class AgentLifecycle {
  private readonly stmt: Record<'offline', Database.Statement>;

  constructor(private readonly deps: AgentLifecycleDeps) {
    const db = deps.store.db;
    this.stmt = {
      // ? the cutoff, twice
      offline: db
        .prepare(
          `SELECT a.agent_id FROM inbox_agents a
            WHERE coalesce(a.last_seen_ms, 0) < ?
              AND NOT EXISTS (SELECT 1 FROM inbox_targets t WHERE t.agent_id = a.agent_id AND (t.status = 'active' OR t.updated_ms >= ?))
            ORDER BY a.agent_id`,
        )
        .pluck(),
    };
  }

  /** The configured time to live, or null when agents are never removed. */
  get ttlMs(): number | null {
    const ttl = this.deps.ttlMs();
    return ttl > 0 ? ttl : null;
  }

  gc(): Record<string, number> {
    const ttl = this.ttlMs;
    if (ttl === null) return { agentsRemoved: 0, openedInboxesClosed: 0 };
    const cutoff = this.deps.clock.now() - ttl;
    const kept = new Set(this.deps.kept());
    const removed = (this.stmt.offline.all(cutoff, cutoff) as string[]).filter((agentId) => !kept.has(agentId));
    // One transaction per agent: a large backlog never holds the writer for long.
    for (const agentId of removed) this.deps.agents.delete(agentId);
    if (removed.length > 0) this.deps.logger.info({ agentIds: removed, ttlMs: ttl }, 'inbox agents offline and unseen past their time to live were removed');
    return { agentsRemoved: removed.length, openedInboxesClosed: this.deps.agents.closeOpened(cutoff) };
  }
}

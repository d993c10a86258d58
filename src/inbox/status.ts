/**
 * The counts of inbox `GET /status`: read straight from the tables in one snapshot, so the answer
 * costs a few indexed aggregates whatever the size of the inbox (no rows are loaded).
 */
import type Database from 'better-sqlite3';
import { isoAt } from '../core/index.js';
import type { Store } from '../store/index.js';

export interface InboxCounts {
  sources: { total: number; active: number; error: number; paused: number; autoPaused: number };
  /** Sources whose last module call failed, with that error (a source that recovered is not listed). */
  sourceErrors: Array<{ sourceId: string; error: string; at: string }>;
  subscriptions: number;
  agents: { total: number; deliveryPaused: number };
  targets: { total: number; active: number; offline: number };
  notifications: { pending: number };
  entries: { unacked: number };
  timers: { active: number };
}

export class InboxStatus {
  private readonly stmt: Record<'sources' | 'errors' | 'scalars' | 'targets', Database.Statement>;

  constructor(store: Store) {
    const db = store.db;
    this.stmt = {
      sources: db.prepare('SELECT state, paused_by, count(*) AS n FROM inbox_sources GROUP BY state, paused_by'),
      errors: db.prepare("SELECT source_id, error, updated_ms FROM inbox_sources WHERE state = 'error' AND error IS NOT NULL ORDER BY seq"),
      scalars: db.prepare(
        `SELECT (SELECT count(*) FROM inbox_subscriptions) AS subscriptions,
                (SELECT count(*) FROM inbox_agents) AS agents,
                (SELECT count(*) FROM inbox_agents WHERE delivery_paused = 1) AS paused_agents,
                (SELECT count(*) FROM inbox_notifications WHERE status = 'pending') AS pending,
                (SELECT count(*) FROM inbox_entries WHERE acked_at IS NULL AND kind <> 'digest_snapshot') AS unacked,
                (SELECT count(*) FROM inbox_schedules WHERE status = 'active') AS timers`,
      ),
      targets: db.prepare('SELECT status, count(*) AS n FROM inbox_targets GROUP BY status'),
    };
  }

  counts(): InboxCounts {
    const sources = { total: 0, active: 0, error: 0, paused: 0, autoPaused: 0 };
    for (const r of this.stmt.sources.all() as Array<{ state: string; paused_by: string | null; n: number }>) {
      sources.total += r.n;
      if (r.state === 'active') sources.active += r.n;
      else if (r.state === 'error') sources.error += r.n;
      else if (r.state === 'paused' && r.paused_by === 'idle') sources.autoPaused += r.n;
      else if (r.state === 'paused') sources.paused += r.n;
    }
    const targets = { total: 0, active: 0, offline: 0 };
    for (const r of this.stmt.targets.all() as Array<{ status: string; n: number }>) {
      targets.total += r.n;
      if (r.status === 'active') targets.active += r.n;
      else if (r.status === 'offline') targets.offline += r.n;
    }
    const s = this.stmt.scalars.get() as { subscriptions: number; agents: number; paused_agents: number; pending: number; unacked: number; timers: number };
    return {
      sources,
      sourceErrors: (this.stmt.errors.all() as Array<{ source_id: string; error: string; updated_ms: number }>).map((r) => ({
        sourceId: r.source_id,
        error: r.error,
        at: isoAt(r.updated_ms),
      })),
      subscriptions: s.subscriptions,
      agents: { total: s.agents, deliveryPaused: s.paused_agents },
      targets,
      notifications: { pending: s.pending },
      entries: { unacked: s.unacked },
      timers: { active: s.timers },
    };
  }
}

/**
 * Inbox `GET /status` as AgentInbox's daemon answers it (docs/agentinbox.md#agents-targets-subscriptions-and-timers):
 * its retention and lifecycle settings, its counts (one number per kind) beside svc's own
 * (sources by state and their errors, targets, pending notifications, unacknowledged entries,
 * active timers), and the records themselves: agents, sources, subscriptions, inboxes, targets,
 * dispatch states, streams, consumers, remote adapters, the last 10 activations. The counts are
 * read straight from the tables in one snapshot; the lists (and the activations, with their count:
 * delivery/notifications.ts) through each part's views.
 */
import type Database from 'better-sqlite3';
import { isoAt } from '../core/index.js';
import type { Store } from '../store/index.js';
import type { AgentViews, NotificationHistory, TargetService } from './delivery/index.js';
import type { InboxAgents } from './entries/index.js';
import { streamRecord, type SourceService } from './sources/index.js';
import type { SubscriptionService } from './subscriptions/index.js';
import type { StreamService } from './streams/index.js';

/** svc's own counts, kept beside AgentInbox's in `counts`. */
export interface InboxCounts {
  /** svc's sources by state (AgentInbox's `counts.sources` is their total). */
  sourceStates: { total: number; active: number; error: number; paused: number; autoPaused: number };
  /** Sources whose last module call failed, with that error (a source that recovered is not listed). */
  sourceErrors: Array<{ sourceId: string; error: string; at: string }>;
  subscriptions: number;
  deliveryPausedAgents: number;
  targets: { total: number; active: number; offline: number };
  notifications: { pending: number };
  entries: { unacked: number };
  timers: { active: number };
}

export interface InboxStatusDeps {
  store: Store;
  agents: InboxAgents;
  sources: SourceService;
  streams: StreamService;
  subscriptions: SubscriptionService;
  targets: TargetService;
  views: AgentViews;
  /** The last activations and notifications (delivery/notifications.ts). */
  notifications: { history(limit: number): NotificationHistory };
  /** How long acknowledged entries and offline agents are kept (null: for ever), and when housekeeping last ran (null: not yet). */
  retention: () => { ackedEntriesMs: number; gcIntervalMs: number; lastGcAt: number | null; offlineAgentTtlMs: number | null };
}

const RECENT_ACTIVATIONS = 10;

interface Scalars {
  subscriptions: number;
  retiring: number;
  agents: number;
  opened: number;
  offline_agents: number;
  paused_agents: number;
  pending: number;
  entries: number;
  unacked: number;
  timers: number;
}

export class InboxStatus {
  private readonly stmt: Record<'sources' | 'errors' | 'scalars' | 'targets', Database.Statement>;

  constructor(private readonly deps: InboxStatusDeps) {
    const db = deps.store.db;
    this.stmt = {
      sources: db.prepare('SELECT state, paused_by, count(*) AS n FROM inbox_sources GROUP BY state, paused_by'),
      errors: db.prepare("SELECT source_id, error, updated_ms FROM inbox_sources WHERE state = 'error' AND error IS NOT NULL ORDER BY seq"),
      scalars: db.prepare(
        `SELECT (SELECT count(*) FROM inbox_subscriptions) AS subscriptions,
                (SELECT count(*) FROM inbox_subscriptions WHERE terminal_at IS NOT NULL) AS retiring,
                (SELECT count(*) FROM inbox_agents) AS agents,
                (SELECT count(*) FROM inbox_opened_inboxes) AS opened,
                (SELECT count(*) FROM inbox_agents a WHERE NOT EXISTS
                   (SELECT 1 FROM inbox_targets t WHERE t.agent_id = a.agent_id AND t.status = 'active')) AS offline_agents,
                (SELECT count(*) FROM inbox_agents WHERE delivery_paused = 1) AS paused_agents,
                (SELECT count(*) FROM inbox_notifications WHERE status = 'pending') AS pending,
                (SELECT count(*) FROM inbox_entries WHERE kind <> 'digest_snapshot') AS entries,
                (SELECT count(*) FROM inbox_entries WHERE acked_at IS NULL AND kind <> 'digest_snapshot') AS unacked,
                (SELECT count(*) FROM inbox_schedules WHERE status = 'active') AS timers`,
      ),
      targets: db.prepare('SELECT status, count(*) AS n FROM inbox_targets GROUP BY status'),
    };
  }

  counts(): InboxCounts & { scalars: Scalars } {
    const sourceStates = { total: 0, active: 0, error: 0, paused: 0, autoPaused: 0 };
    for (const r of this.stmt.sources.all() as Array<{ state: string; paused_by: string | null; n: number }>) {
      sourceStates.total += r.n;
      if (r.state === 'active') sourceStates.active += r.n;
      else if (r.state === 'error') sourceStates.error += r.n;
      else if (r.state === 'paused' && r.paused_by === 'idle') sourceStates.autoPaused += r.n;
      else if (r.state === 'paused') sourceStates.paused += r.n;
    }
    const targets = { total: 0, active: 0, offline: 0 };
    for (const r of this.stmt.targets.all() as Array<{ status: string; n: number }>) {
      targets.total += r.n;
      if (r.status === 'active') targets.active += r.n;
      else if (r.status === 'offline') targets.offline += r.n;
    }
    const s = this.stmt.scalars.get() as Scalars;
    return {
      sourceStates,
      sourceErrors: (this.stmt.errors.all() as Array<{ source_id: string; error: string; updated_ms: number }>).map((r) => ({
        sourceId: r.source_id,
        error: r.error,
        at: isoAt(r.updated_ms),
      })),
      subscriptions: s.subscriptions,
      deliveryPausedAgents: s.paused_agents,
      targets,
      notifications: { pending: s.pending },
      entries: { unacked: s.unacked },
      timers: { active: s.timers },
      scalars: s,
    };
  }

  /** AgentInbox's status body, svc's counts beside its own in `counts`. */
  view() {
    const { agents, sources, streams, subscriptions, targets, views } = this.deps;
    const { scalars: s, ...svcCounts } = this.counts();
    const sourceList = sources.list();
    const subscriptionList = subscriptions.list();
    const dispatchStates = views.dispatchStates();
    const remote = sourceList.filter((src) => src.sourceType === 'remote_source');
    const retention = this.deps.retention();
    const lastGcAt = retention.lastGcAt === null ? null : isoAt(retention.lastGcAt);
    const history = this.deps.notifications.history(RECENT_ACTIVATIONS);
    return {
      retention: { ackedInboxItemsMs: retention.ackedEntriesMs, gcIntervalMs: retention.gcIntervalMs, lastAckedInboxGcAt: lastGcAt },
      counts: {
        ...svcCounts,
        sources: svcCounts.sourceStates.total,
        agents: s.agents,
        offlineAgents: s.offline_agents,
        subscriptions: s.subscriptions,
        subscriptionLifecycleRetirements: s.retiring,
        sourceIdleStates: sourceList.filter((src) => src.idleState !== null).length,
        inboxes: s.agents + s.opened,
        activationTargets: svcCounts.targets.total,
        offlineActivationTargets: svcCounts.targets.offline,
        activationDispatchStates: dispatchStates.length,
        streamEvents: sourceList.reduce((n, src) => n + (streams.stats(src.sourceId)?.eventCount ?? 0), 0),
        consumers: s.subscriptions,
        inboxItems: s.entries,
        pendingInboxItems: s.unacked,
        activations: history.activationCount,
        deliveries: 0,
      },
      agents: views.list(),
      sources: sourceList.map((src) => ({ ...src, runtime: null })),
      subscriptions: subscriptionList,
      inboxes: [...agents.list().map((a) => views.inbox(a)), ...agents.openedInboxes()].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0)),
      activationTargets: targets.all(),
      activationDispatchStates: dispatchStates,
      streams: sourceList.map((src) => streamRecord(src, { name: streams.backend.name, compaction: streams.backend.compaction !== undefined }, null)),
      consumers: subscriptions.consumers(),
      adapters: {
        remote: {
          activeSourceIds: remote.filter((src) => src.state === 'active').map((src) => src.sourceId),
          erroredSourceIds: remote.filter((src) => src.state === 'error').map((src) => src.sourceId),
        },
      },
      recentActivations: history.activations,
      recentNotifications: history.notifications,
      recentDeliveries: [],
      lifecycle: {
        offlineAgentTtlMs: retention.offlineAgentTtlMs,
        gcIntervalMs: retention.gcIntervalMs,
        lastOfflineAgentGcAt: retention.offlineAgentTtlMs === null ? null : lastGcAt,
      },
    };
  }
}

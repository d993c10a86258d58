/**
 * Inbox agents as AgentInbox's daemon answers them (docs/agentinbox.md#agents-targets-subscriptions-and-timers):
 * its Agent record (`status`, `offlineSince`, `runtimeKind`, …) beside svc's agent fields, the
 * agent's Inbox record, `agent show`'s details, activation dispatch states and the resume answers.
 *
 * svc keeps no agent status of its own: AgentInbox's agent is `active` while it has an active
 * activation target, else `offline`, so that is what svc derives from the targets, with
 * `updatedAt` (and `offlineSince` while offline) the latest change of the agent or its targets, and
 * `lastSeenAt` that or the agent's last read, watch or ack, whichever is later. An agent offline and
 * unseen for `inbox.offline_agent_ttl_ms` is removed with its inbox, as AgentInbox removes it
 * (inbox/lifecycle.ts).
 */
import type { InboxAgent, InboxAgents, InboxRecord, ItemCounts } from '../entries/index.js';
import type { Source, SourceService } from '../sources/index.js';
import type { ConsumerRecord, Subscription, SubscriptionLag, SubscriptionService } from '../subscriptions/index.js';
import { isSessionBound } from './terminal-sessions.js';
import type { TargetService } from './targets.js';
import type { ResumeResult, TargetResumeResult } from './pause.js';
import type { DispatchState, NotifyLease } from './lease.js';
import type { Target } from './types.js';

/** AgentInbox's Agent record, beside svc's agent fields. */
export interface AgentRecord extends InboxAgent {
  status: 'active' | 'offline';
  offlineSince: string | null;
  /** Runtime of the terminal session the agent is bound to (codex, claude_code), else unknown. */
  runtimeKind: string;
  runtimeSessionId: string | null;
  updatedAt: string;
  lastSeenAt: string;
}

/** `GET /agents/{id}`: AgentInbox's details with svc's agent fields beside. */
export type AgentDetails = AgentRecord & {
  agent: AgentRecord;
  inbox: InboxRecord;
  subscriptions: Subscription[];
  activationTargets: Target[];
  activationDispatchStates: DispatchState[];
  itemCounts: ItemCounts;
};

export type SubscriptionDetails = Subscription & {
  subscription: Subscription;
  source: Source;
  inbox: InboxRecord;
  activationTargets: Target[];
  consumer: ConsumerRecord;
  lag: SubscriptionLag;
};

/** One target in a resume answer (AgentInbox's ResumeActivationTargetResult). */
export interface TargetResumeOutcome {
  targetId: string;
  resumed: boolean;
  status: Target['status'];
  /**
   * `already_active`; `webhook_resumed`, `terminal_resumed` or `runtime_resumed` (recovered,
   * unprobed: the next attempt tells); `delivery_only` (offline, kept so by `deliveryOnly`).
   */
  reason: string;
}

export interface AgentViewsDeps {
  agents: InboxAgents;
  targets: TargetService;
  subscriptions: SubscriptionService;
  sources: SourceService;
  /** The agent's entries by acknowledgement (status.ts counts them). */
  itemCounts: (agentId: string) => ItemCounts;
  lease: NotifyLease;
}

export class AgentViews {
  constructor(private readonly deps: AgentViewsDeps) {}

  record(agent: InboxAgent, targets: Target[] = this.deps.targets.list(agent.agentId)): AgentRecord {
    const session = targets.find((t) => t.status === 'active' && isSessionBound(t));
    const updatedAt = targets.reduce((latest, t) => (t.updatedAt > latest ? t.updatedAt : latest), agent.createdAt);
    const active = targets.some((t) => t.status === 'active');
    return {
      ...agent,
      status: active ? 'active' : 'offline',
      offlineSince: active ? null : updatedAt,
      runtimeKind: session?.runtimeKind ?? 'unknown',
      runtimeSessionId: session?.runtimeSessionId ?? null,
      updatedAt,
      lastSeenAt: agent.lastSeenAt > updatedAt ? agent.lastSeenAt : updatedAt,
    };
  }

  /** Throws 404 agent_not_found. */
  recordOf(agentId: string): AgentRecord {
    return this.record(this.deps.agents.get(agentId));
  }

  list(): AgentRecord[] {
    const byAgent = new Map<string, Target[]>();
    for (const t of this.deps.targets.all()) byAgent.set(t.agentId, [...(byAgent.get(t.agentId) ?? []), t]);
    return this.deps.agents.list().map((a) => this.record(a, byAgent.get(a.agentId) ?? []));
  }

  /** `GET /agents?include_targets=true`: each agent also as {agent, activationTargets}. */
  withTargets(agent: InboxAgent): { agent: AgentRecord; activationTargets: Target[] } {
    const activationTargets = this.deps.targets.list(agent.agentId);
    return { agent: this.record(agent, activationTargets), activationTargets };
  }

  inbox(agent: InboxAgent): InboxRecord {
    return this.deps.agents.inbox(agent.agentId);
  }

  details(agentId: string): AgentDetails {
    const agent = this.deps.agents.get(agentId);
    const activationTargets = this.deps.targets.list(agentId);
    const record = this.record(agent, activationTargets);
    return {
      ...record,
      agent: record,
      inbox: this.inbox(agent),
      subscriptions: this.deps.subscriptions.list({ agentId }),
      activationTargets,
      activationDispatchStates: this.dispatchStates(agentId),
      itemCounts: this.deps.itemCounts(agentId),
    };
  }

  /** `GET /subscriptions/{id}`: AgentInbox's details with svc's subscription fields beside. */
  subscriptionDetails(subscriptionId: string): SubscriptionDetails {
    const { subscriptions } = this.deps;
    const subscription = subscriptions.get(subscriptionId);
    return {
      ...subscription,
      subscription,
      source: this.deps.sources.get(subscription.sourceId),
      inbox: this.inbox(this.deps.agents.get(subscription.agentId)),
      activationTargets: this.deps.targets.list(subscription.agentId),
      consumer: subscriptions.consumer(subscriptionId),
      lag: subscriptions.lag(subscriptionId),
    };
  }

  /** The dispatch states of the agent's (or every) target under a notify lease (lease.ts). */
  dispatchStates(agentId?: string): DispatchState[] {
    const rows = agentId === undefined ? this.deps.targets.allRows() : this.deps.targets.rowsOf(agentId);
    return rows.flatMap((r) => this.deps.lease.stateOf(r) ?? []);
  }

  /** An agent resume with AgentInbox's {resumed, agent, targets} beside svc's answer. */
  resumeAnswer(r: ResumeResult) {
    const { recoveredTargets, catchUp, ...agent } = r;
    const targets = this.deps.targets.list(agent.agentId);
    const record = this.record(agent, targets);
    // Outcomes from the targets as they are after the resume (a full resume leaves none offline).
    const outcomes: TargetResumeOutcome[] = targets.map((t) => {
      if (recoveredTargets.includes(t.targetId)) return { targetId: t.targetId, resumed: true, status: t.status, reason: resumedReason(t) };
      return { targetId: t.targetId, resumed: false, status: t.status, reason: t.status === 'active' ? 'already_active' : 'delivery_only' };
    });
    return { ...record, recoveredTargets, catchUp, resumed: recoveredTargets.length > 0, agent: record, targets: outcomes };
  }

  /** A target resume with AgentInbox's {resumed, reason} beside svc's answer. */
  targetResumeAnswer(r: TargetResumeResult): TargetResumeResult & { resumed: boolean; reason: string } {
    return { ...r, resumed: r.recovered, reason: r.recovered ? resumedReason(r) : 'already_active' };
  }
}

/** svc recovers a target without probing it (the next attempt tells): `<kind>_resumed`. */
function resumedReason(t: Target): string {
  return `${t.kind}_resumed`;
}

/**
 * Aggregation policy: how an inbox agent's new entries become notifications of its targets. The
 * spec leaves it open ("Definition of ... aggregation policy: not shown"); svc has three modes:
 *
 * - `immediate`: each commit of new entries is notified at once (one notification per commit);
 * - `coalesce {windowMs, maxEntries?}`: the first new entry opens a window of `windowMs`; when it
 *   closes every entry that arrived meanwhile is one notification; with `maxEntries` the window
 *   closes early once that many entries wait. The default is `coalesce {windowMs: 250}`;
 * - `digest {every | cron, timezone, maxEntries}`: no notification per entry; once per period one
 *   digest summarising the unacknowledged entries since the last digest (digests.ts).
 *
 * A policy belongs to the agent and may be overridden per target; a target's effective policy is
 * its own, else its agent's, else the default. Policies are stored as canonical JSON (the record
 * shape, AggregationPolicy in ../types.ts; readPolicy and writePolicy in entries/agents.ts), with
 * defaults filled in and the time zone resolved when they are set.
 */
import { type Clock, errors } from '../../core/index.js';
import type { Store } from '../../store/index.js';
import type { AggregationPolicy } from '../types.js';
import {
  checkTimezone,
  effectivePolicy,
  hostTimezone,
  mergePolicy,
  parseCron,
  readPolicy,
  writePolicy,
  type InboxAgents,
  type InboxPolicy,
  type InboxPolicyInput,
} from '../entries/index.js';
import type { TargetService } from './targets.js';
import type { TargetKind, TargetRow } from './types.js';

export const AGGREGATION_MODES = ['immediate', 'coalesce', 'digest'] as const;
export type AggregationMode = (typeof AGGREGATION_MODES)[number];

/** Bounds of the policy fields (validated by the HTTP schema, relied on here). */
export const MAX_WINDOW_MS = 3_600_000;
export const MIN_DIGEST_EVERY_MS = 60_000;
export const MAX_DIGEST_EVERY_MS = 30 * 24 * 3_600_000;
export const MAX_POLICY_ENTRIES = 1000;
/** Entries a digest lists when `maxEntries` is not given (the rest are counted). */
export const DEFAULT_DIGEST_ENTRIES = 50;
/** Today's behaviour, kept as the default: entries arriving within 250 ms are one notification. */
export const DEFAULT_COALESCE_MS = 250;

export type DigestPolicy = Extract<AggregationPolicy, { mode: 'digest' }>;

/** What callers send: record fields may be omitted where a default exists. */
export type AggregationPolicyInput =
  | { mode: 'immediate' }
  | { mode: 'coalesce'; windowMs: number; maxEntries?: number | null | undefined }
  | { mode: 'digest'; every?: number | null | undefined; cron?: string | null | undefined; timezone?: string | undefined; maxEntries?: number | undefined };

export const DEFAULT_POLICY: AggregationPolicy = { mode: 'coalesce', windowMs: DEFAULT_COALESCE_MS, maxEntries: null };

/**
 * The stored record of a policy: defaults filled in, the time zone resolved, the cron expression
 * checked with croner. Throws 400 invalid_request (neither or both of every/cron),
 * invalid_timezone or invalid_cron; nothing has been written when it throws.
 */
export function normalizePolicy(input: AggregationPolicyInput, nowMs: number): AggregationPolicy {
  if (input.mode === 'immediate') return { mode: 'immediate' };
  if (input.mode === 'coalesce') return { mode: 'coalesce', windowMs: input.windowMs, maxEntries: input.maxEntries ?? null };
  if ((input.every == null) === (input.cron == null)) {
    throw errors.invalidRequest([{ path: 'body.aggregation', message: 'a digest takes exactly one of every, cron' }]);
  }
  const timezone = checkTimezone(input.timezone ?? hostTimezone());
  const cron = input.cron == null ? null : input.cron.trim();
  if (cron !== null && parseCron(cron, timezone).nextRun(new Date(nowMs)) === null) throw errors.invalidCron(cron, 'the expression never matches a future time');
  return { mode: 'digest', every: input.every ?? null, cron, timezone, maxEntries: input.maxEntries ?? DEFAULT_DIGEST_ENTRIES };
}

/**
 * GET/POST /agents/{id}/inbox/policy answer AgentInbox's inbox policy (entries/policy.ts: what the
 * agent reads, digest threads) first, and svc's aggregation policies (when targets are notified)
 * beside it.
 */
export interface PolicyView extends InboxPolicy {
  agentId: string;
  aggregation: AggregationPolicy;
  isDefault: boolean;
  targets: Array<{ targetId: string; kind: TargetKind; aggregation: AggregationPolicy | null; effective: AggregationPolicy; digest: DigestScheduleView | null }>;
}

export interface DigestScheduleView {
  nextDigestAt: string | null;
  lastDigestAt: string | null;
  digestCount: number;
}

export interface AggregationDeps {
  store: Store;
  clock: Clock;
  agents: InboxAgents;
  targets: TargetService;
}

/** Reads and changes the policies of agents and targets; listeners (digest schedules) hear which targets' effective policy may have changed. */
export class AggregationPolicies {
  private readonly changedListeners: Array<(targetId: string) => void> = [];

  constructor(private readonly deps: AggregationDeps) {}

  /** The agent's own policy, else the default. Throws 404 agent_not_found. */
  ofAgent(agentId: string): AggregationPolicy {
    return this.deps.agents.get(agentId).aggregation ?? DEFAULT_POLICY;
  }

  /** The policy a target works by: its own, else its agent's, else the default. */
  effective(row: TargetRow): AggregationPolicy {
    return readPolicy(row.aggregation) ?? this.deps.agents.aggregationOf(row.agent_id) ?? DEFAULT_POLICY;
  }

  /**
   * The policy view of an agent; `digestOf` reads a target's digest schedule (digests.ts). An
   * agent that does not exist has AgentInbox's defaults and svc's default, as AgentInbox answers.
   */
  view(agentId: string, digestOf: (targetId: string) => DigestScheduleView | null): PolicyView {
    const inbox = effectivePolicy(this.deps.agents.inboxPolicyOf(agentId));
    if (!this.deps.agents.exists(agentId)) return { ...inbox, agentId, aggregation: DEFAULT_POLICY, isDefault: true, targets: [] };
    const own = this.deps.agents.get(agentId).aggregation ?? null;
    return {
      ...inbox,
      agentId,
      aggregation: own ?? DEFAULT_POLICY,
      isDefault: own === null,
      targets: this.deps.targets.rowsOf(agentId).map((row) => ({
        targetId: row.target_id,
        kind: row.kind,
        aggregation: readPolicy(row.aggregation),
        effective: this.effective(row),
        digest: digestOf(row.target_id),
      })),
    };
  }

  /** AgentInbox's `inbox policy set` (entries/policy.ts mergePolicy). Throws 404 agent_not_found. */
  setInboxPolicy(agentId: string, change: InboxPolicyInput): void {
    this.deps.store.tx(() => {
      this.deps.agents.get(agentId);
      this.deps.agents.setInboxPolicy(agentId, mergePolicy(this.deps.agents.inboxPolicyOf(agentId), change));
    });
  }

  /** Set (null: clear back to the default) the agent's policy, in one transaction with its targets' digest schedules. */
  setAgent(agentId: string, input: AggregationPolicyInput | null): void {
    const policy = this.normalize(input);
    this.deps.store.tx(() => {
      this.deps.agents.setAggregation(agentId, writePolicy(policy));
      for (const row of this.deps.targets.rowsOf(agentId)) this.changed(row.target_id);
    });
  }

  /** Set (null: follow the agent's) a target's own policy. Throws 404 agent_not_found / target_not_found. */
  setTarget(agentId: string, targetId: string, input: AggregationPolicyInput | null): void {
    const policy = this.normalize(input);
    this.deps.store.tx(() => {
      this.deps.targets.rowOf(agentId, targetId);
      this.deps.targets.setAggregation(targetId, writePolicy(policy));
      this.changed(targetId);
    });
  }

  /** The stored form of a policy sent by a caller (null stays null: no own policy). Throws 400 before anything is written. */
  normalize(input: AggregationPolicyInput | null | undefined): AggregationPolicy | null {
    return input === null || input === undefined ? null : normalizePolicy(input, this.deps.clock.now());
  }

  /** Runs inside the transaction that changed the policy (and when a target is created). */
  onChanged(listener: (targetId: string) => void): void {
    this.changedListeners.push(listener);
  }

  changed(targetId: string): void {
    for (const l of this.changedListeners) l(targetId);
  }
}

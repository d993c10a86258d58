/**
 * `POST /follow` (AgentInbox's `follow <providerOrKind> <template>`; docs/agentinbox.md#follow):
 * a template's plan (../sources/follow-templates.ts) carried out idempotently.
 *
 * 1. The agent must exist (404 agent_not_found) and the plan must be valid (400) before anything
 *    is created.
 * 2. Each planned stream is reused when a github source of the same kind (`github_repo`,
 *    `github_repo_ci`) and streamKey exists on any github host (AgentInbox reuses shared streams
 *    by kind and key), preferring one on the host the plan's config names; otherwise it is created
 *    on a github host whose config has the same `credentialRef` and `apiBaseUrl`, or on a new one
 *    keyed `default` (or `credential:<profile>`, `…@<apiBaseUrl>` for another API root). A source
 *    it creates gets the follow's `configRef`.
 * 3. Each planned subscription is reused when the agent already has one on that source with the
 *    same filter, trackedResourceRef, cleanup mode and start position; the rest are created in one
 *    transaction, so a refused one creates none of them (sources created in step 2 stay, as on
 *    AgentInbox).
 * The answer is AgentInbox's `{templateId, agentId, sources: [{sourceId, streamKind, created}],
 * subscriptions: [{subscriptionId, sourceId, created}]}` with svc's `host: {hostId, created}`.
 */
import type { Store } from '../../store/index.js';
import { expandFollow, type FollowPlan, type HostService, type PlannedSubscription, type Source, type SourceService } from '../sources/index.js';
import type { Subscription, SubscriptionService } from '../subscriptions/index.js';

type StartPolicy = 'latest' | 'earliest' | 'at_offset' | 'at_time';

export interface FollowInput {
  agentId: string;
  providerOrKind: string;
  template: string;
  templateArgs?: Record<string, unknown>;
  configRef?: string | null;
  config?: Record<string, unknown>;
  startPolicy?: StartPolicy;
  startOffset?: number;
  startTime?: string;
}

export interface FollowResult {
  templateId: string;
  agentId: string;
  sources: Array<{ sourceId: string; streamKind: string; created: boolean }>;
  subscriptions: Array<{ subscriptionId: string; sourceId: string; created: boolean }>;
  /** The host of the first source. */
  host: { hostId: string; created: boolean };
}

export interface FollowDeps {
  store: Store;
  hosts: HostService;
  sources: SourceService;
  subscriptions: SubscriptionService;
  /** Throws 404 agent_not_found for an unknown inbox agent. */
  agentExists: (agentId: string) => void;
}

const DEFAULT_API_BASE_URL = 'https://api.github.com';

export class FollowService {
  constructor(private readonly deps: FollowDeps) {}

  async follow(input: FollowInput): Promise<FollowResult> {
    const plan = expandFollow({ providerOrKind: input.providerOrKind, template: input.template, templateArgs: input.templateArgs ?? {}, config: input.config ?? {} });
    this.deps.agentExists(input.agentId);
    const host = { id: null as string | null, created: false };
    const sources: FollowResult['sources'] = [];
    const byKind = new Map<string, string>();
    for (const planned of plan.sources) {
      let source = this.existingSource(plan, planned);
      let created = false;
      if (!source) {
        const hostId = host.id ?? this.ensureHost(plan, host);
        ({ source, created } = await this.deps.sources.create({ hostId, ...planned, configRef: input.configRef ?? null }));
      }
      host.id ??= source.hostId;
      byKind.set(planned.streamKind, source.sourceId);
      sources.push({ sourceId: source.sourceId, streamKind: source.streamKind, created });
    }
    const subscriptions = this.deps.store.tx(() => plan.subscriptions.map((planned) => this.ensureSubscription(input, byKind.get(planned.streamKind)!, planned)));
    return { templateId: plan.templateId, agentId: input.agentId, sources, subscriptions, host: { hostId: host.id!, created: host.created } };
  }

  /** A github source of the planned kind and key, on the host the plan names if there is one there. */
  private existingSource(plan: FollowPlan, planned: FollowPlan['sources'][number]): Source | undefined {
    const kind = planned.streamKind === 'ci_runs' ? 'github_repo_ci' : 'github_repo';
    const matches = this.githubHosts()
      .flatMap((h) => this.deps.sources.list({ hostId: h.hostId }))
      .filter((s) => s.sourceType === kind && s.streamKey === planned.streamKey);
    const preferred = this.matchingHost(plan);
    return matches.find((s) => s.hostId === preferred?.hostId) ?? matches[0];
  }

  private githubHosts() {
    return this.deps.hosts.list().filter((h) => h.hostType === 'github');
  }

  /** A github host whose config names the same credential and API root as the plan's. */
  private matchingHost(plan: FollowPlan) {
    const want = hostIdentity(plan.host.config);
    return this.githubHosts().find((h) => hostIdentity(h.config) === want);
  }

  private ensureHost(plan: FollowPlan, host: { id: string | null; created: boolean }): string {
    const existing = this.matchingHost(plan);
    if (existing) return (host.id = existing.hostId);
    const { credentialRef, apiBaseUrl } = plan.host.config as { credentialRef?: string; apiBaseUrl?: string };
    let hostKey = typeof credentialRef === 'string' ? `credential:${credentialRef}` : 'default';
    if (typeof apiBaseUrl === 'string' && apiBaseUrl !== DEFAULT_API_BASE_URL) hostKey += `@${apiBaseUrl}`;
    const made = this.deps.hosts.create({ hostType: 'github', hostKey, config: plan.host.config });
    host.created = made.created;
    return (host.id = made.host.hostId);
  }

  private ensureSubscription(input: FollowInput, sourceId: string, planned: PlannedSubscription): FollowResult['subscriptions'][number] {
    const start = { startPolicy: input.startPolicy ?? 'latest', startOffset: input.startOffset ?? null, startTime: input.startTime ?? null };
    const existing = this.deps.subscriptions
      .list({ agentId: input.agentId, sourceId })
      .find((sub) => sameSubscription(sub, planned, start));
    if (existing) return { subscriptionId: existing.subscriptionId, sourceId, created: false };
    const [made] = this.deps.subscriptions.create({
      agentId: input.agentId,
      sourceId,
      filter: planned.filter,
      trackedResourceRef: planned.trackedResourceRef,
      cleanupPolicy: planned.cleanupPolicy,
      startPolicy: input.startPolicy,
      startOffset: input.startOffset,
      startTime: input.startTime,
    });
    return { subscriptionId: made!.subscriptionId, sourceId, created: true };
  }
}

/** What makes two github hosts the same for follow: the credential and the API root. */
function hostIdentity(config: Record<string, unknown>): string {
  const apiBaseUrl = typeof config.apiBaseUrl === 'string' ? config.apiBaseUrl : DEFAULT_API_BASE_URL;
  const credentialRef = typeof config.credentialRef === 'string' ? config.credentialRef : '';
  return JSON.stringify([credentialRef, apiBaseUrl]);
}

function sameSubscription(sub: Subscription, planned: PlannedSubscription, start: { startPolicy: StartPolicy; startOffset: number | null; startTime: string | null }): boolean {
  return (
    sub.startPolicy === start.startPolicy &&
    (sub.startOffset ?? null) === start.startOffset &&
    (sub.startTime ?? null) === start.startTime &&
    stableJson(sub.filter) === stableJson(planned.filter) &&
    (sub.trackedResourceRef ?? null) === planned.trackedResourceRef &&
    sub.cleanupPolicy.mode === planned.cleanupPolicy.mode &&
    (sub.cleanupPolicy.at ?? null) === null &&
    (sub.cleanupPolicy.gracePeriodSecs ?? 0) === 0
  );
}

/** JSON with object keys sorted, so two equal filters compare equal whatever their key order. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

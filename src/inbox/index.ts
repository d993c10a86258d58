/**
 * The inbox and event-source service (spec/inbox.md, docs/inbox-api.md): composition of its
 * domain services over the shared store. No Fastify here; src/http/inbox/ mounts the routes.
 * Each part is a folder whose index.ts is its public face (README.md says which does what):
 * - streams/: the stream backend (append with per-stream offsets, stats), compaction;
 * - sources/: hosts, sources, remote-source modules in worker threads, the GitHub provider;
 * - entries/: inbox agents, their entries, acks and watch, inbox timers;
 * - subscriptions/: subscriptions with filters, matching pushed on append;
 * - delivery/: activation targets (webhook, terminal, runtime), aggregation policies,
 *   notifications and digests, the delivery pause, AgentInbox-style registration;
 * - follow/: AgentInbox's follow templates carried out (host, sources, subscriptions);
 * - outbound/: delivery handles and the operations run through them on GitHub (answering, not notifying).
 */
import type { Logger } from 'pino';
import type { ResolvedConfig } from '../config/index.js';
import type { Clock, IdGenerator } from '../core/index.js';
import type { Lifecycle } from '../runtime/index.js';
import type { Ingress } from '../runtime/agents/index.js';
import type { CredentialStore, SecretStore, Store } from '../store/index.js';
import type { Tracer } from '../telemetry/index.js';
import { InboxStatus } from './status.js';
import { CompactionService, JetStreamBackend, SqliteStreamBackend, StreamService, type StreamBackend } from './streams/index.js';
import { GithubWebhooks, HostService, RemoteModules, SourceCredentials, SourceService } from './sources/index.js';
import { EntryReplies, Outbound } from './outbound/index.js';
import { ACKED_RETENTION_MS, GC_INTERVAL_MS, Housekeeping, InboxAgents, InboxEntries, InboxTimers, InboxWatch, type GcReport, type SourceInfo } from './entries/index.js';
import { Matcher, SubscriptionService } from './subscriptions/index.js';
import { FollowService } from './follow/index.js';
import { AgentLifecycle } from './lifecycle.js';
import {
  AgentRegistration,
  AgentViews,
  AggregationPolicies,
  DeliveryPause,
  Digests,
  NOTIFICATION_RETENTION_MS,
  Notifier,
  RuntimeDelivery,
  TargetService,
  TerminalDelivery,
  WebhookDelivery,
} from './delivery/index.js';

export interface InboxDeps {
  config: ResolvedConfig;
  clock: Clock;
  logger: Logger;
  ids: IdGenerator;
  store: Store;
  /** The control plane's ingress: the `runtime` target enqueues into an agent's queue through it. */
  ingress: Ingress;
  /** Whether a control-plane agent exists (runtime targets name one). */
  /** Whether a control-plane agent can take runtime-target notifications (private child agents cannot). */
  runtimeAgentStatus: (agentId: string) => 'ok' | 'missing' | 'private';
  /** Usable secrets out of the database (webhook signing secrets). */
  secrets: SecretStore;
  /** Credential profiles (<home>/credentials.json): hosts and sources name them; modules get their secrets. */
  credentials: CredentialStore;
  tracer?: Tracer;
}

export interface Inbox {
  /** Start order; stopped in reverse. */
  lifecycles: Lifecycle[];
  // streams
  streams: StreamService;
  hosts: HostService;
  sources: SourceService;
  compaction: CompactionService;
  /** GitHub webhooks pushed to github sources (served on the control plane's TCP port). */
  githubWebhooks: GithubWebhooks;
  // subscriptions
  agents: InboxAgents;
  entries: InboxEntries;
  subscriptions: SubscriptionService;
  watch: InboxWatch;
  /** AgentInbox-style registration (an agent with its webhook target, or bound to a terminal). */
  registration: AgentRegistration;
  /** Agents, their inboxes and details as AgentInbox answers them. */
  agentViews: AgentViews;
  /** AgentInbox's follow: a template's host, sources and subscriptions ensured in one call. */
  follow: FollowService;
  // delivery
  targets: TargetService;
  /** Aggregation policies of agents and targets (immediate, coalesce, digest). */
  aggregation: AggregationPolicies;
  notifier: Notifier;
  digests: Digests;
  delivery: DeliveryPause;
  timers: InboxTimers;
  /** GET /status: counts and records. */
  status: InboxStatus;
  /** POST /deliveries/send|actions|invoke: operations through delivery handles (GitHub). */
  outbound: Outbound;
  /** The model tool reply_to_entry: an agent answers on the conversation of an entry it received. */
  replies: EntryReplies;
  /** POST /gc: every service's housekeeping, now. */
  gc(): GcReport & { retention: { ackedEntriesMs: number; notificationsMs: number } };
}

export function createInbox(deps: InboxDeps): Inbox {
  const { store, clock } = deps;
  // streams
  const streams = new StreamService({ store, clock, ids: deps.ids, backend: streamBackend(deps) });
  const hosts = new HostService({ store, clock, ids: deps.ids });
  const modules = new RemoteModules({ home: deps.config.home, moduleDirs: deps.config.values.inbox.module_dirs });
  modules.locations.ensureDefaultDir();
  const credentials = new SourceCredentials(deps.credentials);
  const sources = new SourceService({ store, clock, ids: deps.ids, logger: deps.logger, hosts, streams, modules, credentials });
  const compaction = new CompactionService({ store, clock, sources, streams });
  const outbound = new Outbound({ clock, ids: deps.ids, logger: deps.logger, sources, hosts, credentials });
  // subscriptions
  const agents = new InboxAgents({ store, clock, ids: deps.ids });
  const entries = new InboxEntries({ store, clock, ids: deps.ids, logger: deps.logger, agents, describeSource: (sourceId) => describeSource(sources, sourceId) });
  const matcher = new Matcher({ store, clock, logger: deps.logger, streams, entries, sourceFacts: (sourceId) => sources.get(sourceId) });
  const hostExists = (hostId: string) => void hosts.get(hostId);
  const subscriptions = new SubscriptionService({ store, clock, ids: deps.ids, logger: deps.logger, streams, sources, agents, matcher, hostExists });
  sources.listSubscriptionsWith((sourceId) => subscriptions.list({ sourceId }));
  const watch = new InboxWatch({ store, clock, entries, agents });
  // delivery
  const delivery = deps.config.values.delivery;
  const targets = new TargetService({ store, clock, ids: deps.ids, agents, runtimeAgentStatus: deps.runtimeAgentStatus, secrets: deps.secrets, notifyLeaseMs: () => delivery.notify_lease_ms });
  const timeoutMs = () => delivery.timeout_ms;
  const aggregation = new AggregationPolicies({ store, clock, agents, targets });
  const notifier = new Notifier({
    store,
    clock,
    ids: deps.ids,
    logger: deps.logger,
    settings: () => delivery,
    agents,
    entries,
    targets,
    deliverers: {
      webhook: new WebhookDelivery({ clock, timeoutMs }),
      terminal: new TerminalDelivery({ timeoutMs }),
      runtime: new RuntimeDelivery({ ingress: deps.ingress }),
    },
    policyOf: (row) => aggregation.effective(row),
    tracer: deps.tracer,
  });
  const digests = new Digests({ store, clock, logger: deps.logger, agents, entries, targets, notifier, policies: aggregation });
  const deliveryPause = new DeliveryPause({ store, agents, targets, notifier, digests });
  const timers = new InboxTimers({ store, clock, ids: deps.ids, logger: deps.logger, agents, entries });
  const lifecycle = new AgentLifecycle({
    store,
    clock,
    logger: deps.logger,
    agents,
    ttlMs: () => deps.config.values.inbox.offline_agent_ttl_ms,
    kept: () => [deps.config.values.policy.notify_inbox].filter((agentId) => agentId !== ''),
  });
  // Subscriptions first: the entries they leave behind are trimmed in the same run.
  const housekeeping = new Housekeeping({ hooks: [subscriptions, lifecycle, entries, notifier], clock, logger: deps.logger });
  const agentViews = new AgentViews({ agents, targets, subscriptions, sources, itemCounts: (agentId) => entries.counts(agentId), lease: notifier.lease });
  const retention = () => ({ ackedEntriesMs: ACKED_RETENTION_MS, gcIntervalMs: GC_INTERVAL_MS, lastGcAt: housekeeping.lastRunAt, offlineAgentTtlMs: lifecycle.ttlMs });
  return {
    // Subscriptions load before sources start polling: matching must be ready for the first append.
    lifecycles: [subscriptions, sources, remoteStreams(streams, sources), notifier, digests, timers, entries.threads, housekeeping],
    streams,
    hosts,
    sources,
    compaction,
    githubWebhooks: new GithubWebhooks({ sources, streams, credentials, logger: deps.logger, clock }),
    agents,
    entries,
    subscriptions,
    watch,
    registration: new AgentRegistration({ store, agents, targets, delivery: deliveryPause, views: agentViews }),
    agentViews,
    follow: new FollowService({ store, hosts, sources, subscriptions, agentExists: (agentId) => void agents.get(agentId) }),
    targets,
    aggregation,
    notifier,
    digests,
    delivery: deliveryPause,
    timers,
    status: new InboxStatus({ store, agents, sources, streams, subscriptions, targets, views: agentViews, notifications: notifier, retention }),
    outbound,
    replies: new EntryReplies({ store, outbound }),
    gc: () => ({ ...housekeeping.run(), retention: { ackedEntriesMs: ACKED_RETENTION_MS, notificationsMs: NOTIFICATION_RETENTION_MS } }),
  };
}

/** A source as items name it (AgentInbox's sourceType and sourceKey: svc's stream key where it has no sourceKey), or null once it is gone. */
function describeSource(sources: SourceService, sourceId: string): SourceInfo | null {
  if (!sources.has(sourceId)) return null;
  const s = sources.get(sourceId) as { sourceType: string; sourceKey?: string; streamKey: string };
  return { sourceType: s.sourceType, sourceKey: s.sourceKey ?? s.streamKey };
}

/** `[inbox.streams] backend`: this daemon's SQLite file, or a JetStream cluster (opened by `openStreams`). */
function streamBackend(deps: InboxDeps): StreamBackend {
  const settings = deps.config.values.inbox.streams;
  if (settings.backend === 'sqlite') return new SqliteStreamBackend(deps.store);
  const profile = settings.credential_profile;
  return new JetStreamBackend({
    store: deps.store,
    logger: deps.logger,
    settings,
    credential: () => (profile ? deps.credentials.required(profile, 'inbox.streams.credential_profile') : null),
    origin: daemonId(deps.store, deps.ids),
  });
}

/** This daemon's id, made once and kept in the database. */
function daemonId(store: Store, ids: IdGenerator): string {
  const row = store.db.prepare<[], { value: string }>("SELECT value FROM daemon_meta WHERE key = 'daemon_id'").get();
  if (row) return row.value;
  const id = ids.make('daemon');
  store.tx(() => store.db.prepare("INSERT INTO daemon_meta (key, value) VALUES ('daemon_id', ?)").run(id));
  return id;
}

/** Connect a remote stream log before the start: a daemon that cannot reach it does not start. */
export async function openStreams(inbox: Inbox): Promise<void> {
  await inbox.streams.backend.remote?.open();
}

/** A remote log mirrors every source once subscriptions are loaded, and follows the shared catalogue. */
function remoteStreams(streams: StreamService, sources: SourceService): Lifecycle {
  const remote = streams.backend.remote;
  if (!remote) return {};
  return {
    start: () =>
      remote.start({
        deliver: (sourceId, stored) => streams.deliver(sourceId, stored),
        importSource: (shared) => sources.importShared(shared),
        forgetSource: (sourceId) => void sources.delete(sourceId),
        sourceIds: () => sources.ids(),
        hasSource: (sourceId) => sources.has(sourceId),
      }),
    stop: () => remote.close(),
  };
}

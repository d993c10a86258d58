/**
 * Composition of the domain services over one store. No Fastify here: the daemon mounts HTTP on
 * top, tests and the CLI call these directly.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { createBrowserAuth, type BrowserAuth, TokenSessions } from './auth/index.js';
import { type ResolvedConfig, RuntimeConfig } from './config/index.js';
import { type Clock, IdGenerator } from './core/index.js';
import { Broadcaster, EventLog, EventRetention, SseHub } from './events/index.js';
import { AgentDeletion, AgentService, Ingress, MessageQueue } from './runtime/agents/index.js';
import { BindingService, BriefService, BriefDelivery, TriggerService } from './runtime/channels/index.js';
import { createTools, Toolbox, type Tool } from './runtime/tools/index.js';
import { ToolExecutionService } from './runtime/executions/index.js';
import { McpService } from './runtime/mcp/index.js';
import { MemoryIndex, MemorySearch } from './runtime/memory/index.js';
import { SkillService, SkillUse } from './runtime/skills/index.js';
import { JobStore, type ResourceService, type RuntimeDeps } from './runtime/index.js';
import { isTerminal, TaskService, type TaskStatus } from './runtime/tasks/index.js';
import { TimerService } from './runtime/timers/index.js';
import { WorkItemService } from './runtime/work-items/index.js';
import { WorkspaceService } from './runtime/workspaces/index.js';
import { CredentialStore, SecretStore, Store, storageFaultOf } from './store/index.js';
import { Metrics, DiagnosticsStore, OtlpExporter, Tracer } from './telemetry/index.js';
import { createInbox, type Inbox } from './inbox/index.js';
import { ProviderRegistry, ModelCatalog, ModelSpecs } from './runtime/models/index.js';
import { pinnedSection, ProjectInstructions, TokenCounter } from './runtime/context/index.js';
import { UsageService } from './runtime/usage/index.js';
import { createRunLoop, type RunLoop } from './runtime/run-loop/index.js';
import { PolicyService } from './runtime/policy/index.js';
import { ApprovalService } from './runtime/approvals/index.js';
import { ApprovalNotices } from './approval-notices.js';

/** The pinned context's share of the system prompt, in characters. */
const PINNED_MAX_CHARS = 4000;


export interface Services {
  config: ResolvedConfig;
  clock: Clock;
  logger: Logger;
  ids: IdGenerator;
  metrics: Metrics;
  /** Spans -> recent ring; ended spans -> OTLP queue; completed traces -> diagnostics store. */
  tracer: Tracer;
  otlp: OtlpExporter;
  diagnostics: DiagnosticsStore;
  store: Store;
  /** Usable secrets kept out of the database (<home>/secrets.json, 0600). */
  secrets: SecretStore;
  /** Named credential profiles (<home>/credentials.json, 0600): provider keys, the OTLP token. */
  credentials: CredentialStore;
  broadcaster: Broadcaster;
  events: EventLog;
  /** Prunes the event logs to `events.retain_days` / `retain_max_events` (the replay window). */
  retention: EventRetention;
  sse: SseHub;
  queue: MessageQueue;
  agents: AgentService;
  jobs: JobStore;
  deletion: AgentDeletion;
  ingress: Ingress;
  /** Briefs (acknowledgements, results, failures) with their `brief_created` events. */
  briefs: BriefService;
  /** The tools offered to models (run_command, work items, timers, send_brief). */
  tools: Tool[];
  /** Every tool call a model made, with its artifacts (GET /api/agents/:id/tool-executions/:id). */
  executions: ToolExecutionService;
  /** The memory index, kept by the event log's appends and prunes; backfills older events after start. */
  memoryIndex: MemoryIndex;
  /** Search over it: POST /api/search, /api/memory/get and the model's memory tools. */
  memory: MemorySearch;
  /** The configured MCP servers: their tools for the agents they are assigned to. */
  mcp: McpService;
  /** Result and failure briefs POSTed to the operator binding's callback, durable with retries. */
  briefDelivery: BriefDelivery;
  workItems: WorkItemService;
  timers: TimerService;
  tasks: TaskService;
  triggers: TriggerService;
  bindings: BindingService;
  skills: SkillService;
  /** The agent's effective skills as the model meets them (prompt section, open_skill). */
  skillUse: SkillUse;
  workspaces: WorkspaceService;
  /** Model providers by name (builtin/echo and the configured ones). */
  providers: ProviderRegistry;
  /** The models catalog (discovery cache) and per-agent model overrides. */
  models: ModelCatalog;
  /** Context windows and prices per model (the built-in catalog, `[models]`). */
  specs: ModelSpecs;
  /** Tokens and cost per model round, their totals, and the budgets over them. */
  usage: UsageService;
  /** The tool policy: what a call may do at the trust of its turn (config, template, agent layers). */
  policy: PolicyService;
  /** Tool calls waiting for the operator's decision. */
  approvals: ApprovalService;
  /** The agent run loop: scheduler, run control, conversation reads and stream. */
  runLoop: RunLoop;
  /** The inbox and event-source service (spec/inbox.md). */
  inbox: Inbox;
  /** The resource services above, in start order (stopped in reverse). */
  lifecycles: ResourceService[];
  runtimeConfig: RuntimeConfig;
  /** OIDC sign-in and browser sessions; null when `[auth.oidc]` has no issuer. */
  browserAuth: BrowserAuth | null;
  /** The console's sign-in with the control token; null in local mode. */
  tokenSessions: TokenSessions | null;
  startedAt: number;
  /** Filled in by the daemon once its listeners are up. */
  endpoints: { listen: string; socket: string; inboxPort: number | null };
  /** Set by the daemon: begin a graceful shutdown. */
  requestShutdown: () => void;
}

export function databasePath(home: string): string {
  return path.join(home, 'svc.db');
}

/** What the composition root may inject besides config, clock and logger (tests). */
export interface ServiceOptions {
  /** Where bwrap is for the command sandbox; default `bwrap` on PATH (a missing path: no bubblewrap). */
  bwrap?: string | undefined;
}

export function createServices(config: ResolvedConfig, clock: Clock, logger: Logger, opts: ServiceOptions = {}): Services {
  const startedAt = clock.now();
  fs.mkdirSync(config.home, { recursive: true, mode: 0o700 });
  const store = Store.open(databasePath(config.home), {
    synchronous: config.values.store.synchronous,
    checkpointer: { onError: (err) => logger.error({ err }, 'WAL checkpoints are back on the main connection') },
    onHookError: (err) => logger.error({ err }, 'an after-commit listener failed; the commit stands and its other listeners ran'),
  });
  const secrets = new SecretStore(config.home, store);
  const credentials = new CredentialStore(config.home, () => clock.now());
  const ids = new IdGenerator(clock);
  const metrics = new Metrics(startedAt, () => clock.now());
  const broadcaster = new Broadcaster();
  const events = new EventLog({ store, clock, ids, broadcaster, onAppend: () => metrics.eventsAppended.inc() });
  // Before anything appends: every event of a kind holding text is indexed in its own transaction.
  const memoryIndex = new MemoryIndex({ store, events, logger });
  const { events: ev } = config.values;
  store.onCommit = () => metrics.storeCommits.inc();
  const retention = new EventRetention(
    { store, events, clock, logger, onPruned: (n) => metrics.eventsPruned.inc(n) },
    { retainDays: ev.retain_days, maxEvents: ev.retain_max_events },
  );
  events.onAppended((event) => retention.noteAppend(event));
  const sse = new SseHub(events, broadcaster, {
    maxBufferedBytes: ev.sse_max_buffer_bytes,
    maxClients: ev.sse_max_clients,
    onLagging: () => metrics.sseDisconnectedLagging.inc(),
  });
  const queue = new MessageQueue({
    store,
    clock,
    ids,
    events,
    maxPending: config.values.queue.max_pending,
    maxPendingOperator: config.values.queue.max_pending_operator,
    onEnqueued: () => metrics.messagesEnqueued.inc(),
  });
  const agents = new AgentService({
    store,
    clock,
    events,
    queue,
    homeDir: config.home,
    defaultAgentId: config.values.default_agent,
    defaultModel: () => config.values.model.default,
  });
  const jobs = new JobStore({ store, clock, ids });
  const deletion = new AgentDeletion({ store, agents, queue, events, jobs, logger });
  deletion.onStop((agentId) => sse.closeAgent(agentId));
  const ingress = new Ingress({ store, agents, queue });
  const memory = new MemorySearch({ store, agents, index: memoryIndex });
  metrics.bind({ queueDepth: () => queue.pendingTotal(), sseClients: () => sse.size, agents: () => agents.count() });
  const tracer = new Tracer();
  const otlp = new OtlpExporter({ config: config.values.runtime.observability.otlp, home: config.home, metrics, logger });
  const diagnostics = new DiagnosticsStore({ store, metrics, logger });
  tracer.onSpanEnd((span) => otlp.enqueue(span));
  tracer.onTraceComplete((trace) => diagnostics.offer(trace));
  const deps: RuntimeDeps = { config, clock, logger, ids, store, events, queue, agents, ingress, tracer };
  const workspaces = new WorkspaceService(deps);
  const briefs = new BriefService({ store, clock, ids, events });
  const workItems = new WorkItemService({ ...deps, briefs, workspaces });
  const timers = new TimerService(deps);
  const tasks = new TaskService({ ...deps, workspaces, briefs, deletion, workItems, timers, bwrap: opts.bwrap });
  const triggers = new TriggerService(deps);
  const bindings = new BindingService({ ...deps, secrets });
  const skills = new SkillService({ ...deps, jobs, workspaces });
  const providers = new ProviderRegistry(config, {
    credentials,
    onRetry: ({ provider, attempt, delayMs, error }) =>
      logger.warn({ provider, attempt, delay_ms: delayMs, kind: error.kind, status: error.status }, 'model request failed; retrying'),
  });
  const models = new ModelCatalog({ config, clock, logger, store, events, agents, providers });
  const skillUse = new SkillUse({ skills, store, events });
  const executions = new ToolExecutionService({ store, clock, retainDays: () => config.values.events.retain_days });
  const inbox = createInbox({ config, clock, logger, ids, store, ingress, tracer, runtimeAgentStatus: (id) => (agents.find(id) === null ? 'missing' : agents.isPrivate(id) ? 'private' : 'ok'), secrets, credentials });
  const tools = createTools({ config, clock, ids, events, store, logger, agents, ingress, queue, tasks, workItems, timers, briefs, skillUse, workspaces, executions, memory, inboxReplies: inbox.replies });
  const briefDelivery = new BriefDelivery({ config, clock, logger, store, events, queue, bindings, briefs, tracer });
  const policy = new PolicyService({ config, clock, store, events, agents });
  const approvals = new ApprovalService({ store, clock, ids, logger, events, agents, policy });
  const mcp = new McpService({ config, clock, logger, agents, credentials });
  const specs = new ModelSpecs(config);
  const usage = new UsageService({
    store,
    clock,
    costOf: (modelRef, u) => specs.costOf(modelRef, u),
    focus: (agentId) => workItems.currentFocus(agentId),
    limits: (agentId) => policy.effective(agentId).limits,
    pricingWarnings: () =>
      specs.unknownPricing(models.list().available_models.map((m) => m.id)).map((key) => `[models.pricing] ${JSON.stringify(key)} names no model svc knows of (its provider or model is not configured or in the catalog); accepted, but no round may match it`),
    onRecorded: (counts, cost) => metrics.modelUsage(counts, cost),
  });
  const tokens = new TokenCounter({ onLoadError: (family, err) => logger.warn({ err, family }, 'a tokenizer could not be loaded; its models are counted by the estimate') });
  // Loading an encoding holds the event loop for about half a second: at start, not in a turn.
  tokens.warm(config.values.model.default);
  const instructions = new ProjectInstructions({ config, workspaces, logger });
  const pinned = (agentId: string): string => {
    const focus = workItems.currentFocus(agentId);
    const w = focus ? workItems.get(agentId, focus) : null;
    return pinnedSection(
      {
        workItem: w && { id: w.id, objective: w.objective, state: w.state, plan_status: w.plan_status, plan: w.plan_artifact && { path: w.plan_artifact.path, preview: w.plan_artifact.preview }, todo: w.todo_list },
        tasks: tasks.stateFor(agentId).filter((t) => !isTerminal(t.status as TaskStatus)),
        approvals: approvals.stateFor(agentId),
      },
      PINNED_MAX_CHARS,
    );
  };
  const runLoop = createRunLoop({
    ...deps,
    briefs,
    providers,
    tools: new Toolbox(tools, [mcp]),
    executions,
    policy,
    approvals,
    specs,
    usage,
    tokens,
    instructions: (agentId) => instructions.for(agentId).text,
    pinned,
    skillPrompt: (agentId) => skillUse.promptSection(agentId),
  });
  // The scheduler starts last (recovery runs once every other service is up) and stops first.
  const lifecycles: ResourceService[] = [workspaces, workItems, timers, tasks, triggers, bindings, skills, briefDelivery, policy, approvals, executions, memoryIndex, mcp, usage, runLoop.scheduler];
  // Approval requests announced in the inbox `[policy] notify_inbox` names (the runtime never imports the inbox).
  new ApprovalNotices({ clock, logger, approvals, inbox, target: () => config.values.policy.notify_inbox });
  for (const l of lifecycles) if (l.stopAgent) deletion.onStop((agentId) => l.stopAgent!(agentId));
  // After the run loop let go of the agent: its processes, the task supervising it, its worktrees.
  deletion.onStop((agentId) => tasks.releaseAgent(agentId));
  // After the run loop recorded its last round for the agent.
  deletion.onStop((agentId) => usage.purge(agentId));
  return {
    config,
    clock,
    logger,
    ids,
    metrics,
    tracer,
    otlp,
    diagnostics,
    store,
    secrets,
    credentials,
    broadcaster,
    events,
    retention,
    sse,
    queue,
    agents,
    jobs,
    deletion,
    ingress,
    briefs,
    tools,
    executions,
    memoryIndex,
    memory,
    mcp,
    briefDelivery,
    workItems,
    timers,
    tasks,
    triggers,
    bindings,
    skills,
    skillUse,
    workspaces,
    providers,
    models,
    specs,
    usage,
    policy,
    approvals,
    runLoop,
    inbox,
    lifecycles,
    runtimeConfig: new RuntimeConfig(config),
    browserAuth: createBrowserAuth(config, clock, logger, store),
    tokenSessions: TokenSessions.start({ store, clock, token: config.controlToken, ttlMs: config.values.auth.token_session_ttl_s * 1000 }),
    startedAt,
    endpoints: { listen: config.values.listen, socket: config.socketPath, inboxPort: null },
    requestShutdown: () => logger.warn('shutdown requested but no daemon is attached'),
  };
}

/** Start-up work on the store: the default agent, unfinished deletions. */
export function startServices(s: Services): void {
  // First: a bad exporter configuration (credential store) refuses the start before any work.
  s.otlp.start();
  s.diagnostics.start();
  s.retention.start();
  s.agents.ensureDefault();
  const defaultAgent = s.agents.get(s.agents.defaultAgentId);
  if (defaultAgent.bootstrap && Object.values(defaultAgent.bootstrap).some((done) => !done)) s.agents.bootstrap(defaultAgent.agent_id);
  s.deletion.resumeUnfinished();
  for (const l of s.lifecycles) l.start?.();
  for (const l of s.inbox.lifecycles) l.start?.();
}

export async function stopServices(s: Services): Promise<void> {
  await s.retention.stop();
  for (const l of [...s.inbox.lifecycles].reverse()) await l.stop?.();
  for (const l of [...s.lifecycles].reverse()) await l.stop?.();
  s.models.stop();
  s.sse.closeAll();
  await s.deletion.idle();
  // Spans of the work stopped above: a short flush to the collector, the last diagnostics write.
  await s.otlp.stop();
  s.diagnostics.stop();
  try {
    s.store.close();
  } catch (err) {
    // The database is closed all the same; only a refused disk write is not a failed shutdown.
    if (storageFaultOf(err) === null) throw err;
    s.logger.error({ err }, 'the final checkpoint was refused by the disk: committed writes stay in the WAL and the next start replays them');
  }
}

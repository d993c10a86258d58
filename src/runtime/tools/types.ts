/**
 * Tools offered to models. Each executes through the same domain services the HTTP routes use,
 * so a tool call leaves exactly the events and provenance the matching route would.
 */
import type { Logger } from 'pino';
import type { ResolvedConfig } from '../../config/index.js';
import type { Clock, IdGenerator } from '../../core/index.js';
import type { EventLog } from '../../events/index.js';
import type { Store } from '../../store/index.js';
import type { AgentService, Ingress, MessageQueue } from '../agents/index.js';
import type { BriefService } from '../channels/index.js';
import type { ToolClass, TrustLevel } from '../../core/index.js';
import type { ToolSpec } from '../providers/index.js';
import type { SkillUse } from '../skills/index.js';
import type { TaskService } from '../tasks/index.js';
import type { TimerService } from '../timers/index.js';
import type { WorkItemService } from '../work-items/index.js';
import type { ToolExecutionService } from '../executions/index.js';
import type { MemorySearch } from '../memory/index.js';
import type { WorkspaceService } from '../workspaces/index.js';

/** The domain services a tool calls: the ones the matching HTTP routes call. */
export interface ToolDeps {
  config: ResolvedConfig;
  clock: Clock;
  ids: IdGenerator;
  events: EventLog;
  store: Store;
  logger: Logger;
  agents: AgentService;
  /** send_message: the runtime's path into another agent's queue. */
  ingress: Ingress;
  queue: MessageQueue;
  tasks: TaskService;
  workItems: WorkItemService;
  timers: TimerService;
  briefs: BriefService;
  skillUse: SkillUse;
  workspaces: WorkspaceService;
  executions: ToolExecutionService;
  /** memory_search, memory_get: the calling agent's own memory only. */
  memory: MemorySearch;
  /** reply_to_entry: the inbox's side (src/inbox/outbound/replies.ts), passed in: the runtime never imports the inbox. */
  inboxReplies: InboxReplies;
}

/** Answering an inbox entry on the conversation it came from (reply_to_entry). */
export interface InboxReplies {
  /** `agentId`: the calling agent, whose own entries (its runtime targets') only are found; 404 entry_not_found otherwise. */
  reply(input: { agentId: string; entryId: string; text: string; signal: AbortSignal }): Promise<{ url: string | null }>;
}

export interface ToolContext {
  agentId: string;
  turnId: string;
  /** The message the turn answers. */
  messageId: string;
  /** Aborted when the run is aborted or the agent stopped. */
  signal: AbortSignal;
  /** The turn's trust: what the call leaves behind (a task, a timer, a child) carries it as taint. */
  trust: TrustLevel;
  /** The policy allowed this call the `network` class (a command it starts may reach the network). */
  network: boolean;
  /** This call's tool execution record (GET /api/agents/:id/tool-executions/:id); '' outside a turn. */
  executionId?: string;
}

/** What a call leaves beside its result: a patch's diff, a fetched page, a long output (UTF-8 text). */
export interface ToolArtifact {
  /** What it is: `diff`, `page`, `output`, `result`, … */
  kind: string;
  /** A label for people (a path, a URL). */
  name: string;
  media_type: string;
  content: string;
}

/** What a tool call produced: `content` goes back to the model; `data` is recorded in the turn activity. */
export interface ToolOutcome {
  ok: boolean;
  content: string;
  data?: unknown;
  /** Kept with the tool execution record, readable by index. */
  artifacts?: ToolArtifact[];
  /** The turn ends after this round's calls (wait_for: the agent sleeps until what it waits for arrives). */
  endTurn?: boolean;
}

export interface Tool extends ToolSpec {
  /** What the tool can do (docs/security.md#tool-policy); every tool declares one. */
  class: ToolClass;
  /** Classes a call adds by its arguments (run_command with `network: true` adds `network`). */
  extraClasses?(args: Record<string, unknown>): ToolClass[];
  /** Never throws for bad arguments or refused operations: those are `ok:false` outcomes the model reads. */
  execute(ctx: ToolContext, args: Record<string, unknown>): Promise<ToolOutcome>;
}

/** One resource group's tools, built over the shared deps (the table in index.ts lists them). */
export type ToolFactory = (deps: ToolDeps) => Tool[];

/** Tools that differ per agent (an MCP server's, offered to the agents it is assigned to). */
export interface ToolSource {
  /** The agent's tools from this source; never throws (a source that cannot answer offers none). */
  toolsFor(agentId: string): Promise<Tool[]>;
}

/** What the run loop asks once per turn: every tool the agent is offered, names unique. */
export interface ToolSet {
  toolsFor(agentId: string): Promise<Tool[]>;
}

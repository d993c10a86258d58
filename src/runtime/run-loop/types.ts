/**
 * What the run loop is built from: one deps object shared by the scheduler, the turn runner, run
 * control and the conversation reads (here so that none of them imports another for its type).
 */
import type { Logger } from 'pino';
import type { ResolvedConfig } from '../../config/index.js';
import type { Clock, IdGenerator } from '../../core/index.js';
import type { EventLog } from '../../events/index.js';
import type { Store } from '../../store/index.js';
import type { Tracer } from '../../telemetry/index.js';
import type { AgentService, MessageQueue } from '../agents/index.js';
import type { ApprovalService } from '../approvals/index.js';
import type { ToolExecutionService } from '../executions/index.js';
import type { BriefService } from '../channels/index.js';
import type { TokenCounting } from '../context/index.js';
import type { ModelSpecs } from '../models/index.js';
import type { PolicyService } from '../policy/index.js';
import type { ModelProvider } from '../providers/index.js';
import type { ToolSet } from '../tools/index.js';
import type { ContextRecords } from './context-records.js';
import type { UsageService } from '../usage/index.js';
import type { RunLoopRecords } from './records.js';
import type { ConversationHub } from './stream.js';

/** A brake limit the agent met (docs/security.md#the-brake): the agent pauses. */
export interface BrakeTrip {
  limit: 'turns_per_hour' | 'runtime_turns_in_a_row' | 'rounds_per_turn' | 'tool_calls_per_turn' | 'max_tokens_per_turn' | 'max_tokens_per_day' | 'max_cost_per_day';
  /** What was counted when the limit was met, and the limit. */
  value: number;
  max: number;
}

export interface RunLoopDeps {
  config: ResolvedConfig;
  store: Store;
  clock: Clock;
  logger: Logger;
  ids: IdGenerator;
  events: EventLog;
  queue: MessageQueue;
  agents: AgentService;
  briefs: BriefService;
  providers: { resolve(modelRef: string): { provider: ModelProvider; model: string } | null };
  /** The tools offered to the agent's model: asked once per turn. */
  tools: ToolSet;
  /** Where each tool call is recorded (GET /api/agents/:id/tool-executions/:id). */
  executions: ToolExecutionService;
  /** The system prompt's section naming the agent's effective skills ('' for none). */
  skillPrompt?: (agentId: string) => string;
  /** The tool policy; absent: every call is allowed and the brake has its defaults (unit tests). */
  policy?: PolicyService | undefined;
  /** Where calls the policy answers `ask` wait; needed whenever `policy` is given. */
  approvals?: ApprovalService | undefined;
  /** Each model's window and prices. */
  specs: ModelSpecs;
  /** Token counting for the prompt's budget. */
  tokens: TokenCounting;
  /** The system prompt's project instructions ('' for none). */
  instructions?: (agentId: string) => string;
  /** The system prompt's pinned context: current work item, open tasks, pending approvals ('' for none). */
  pinned?: (agentId: string) => string;
  /** The usage ledger and budgets; absent: rounds are not accounted and no budget applies (unit tests). */
  usage?: UsageService | undefined;
  records: RunLoopRecords;
  /** Where the prompt's history starts, and the compactions. */
  context: ContextRecords;
  hub: ConversationHub;
  tracer?: Tracer | undefined;
}

/**
 * What the run loop is built from: one deps object shared by the scheduler, the turn runner, run
 * control and the conversation reads (here so that none of them imports another for its type).
 */
import type { Logger } from 'pino';
import type { Clock, IdGenerator } from '../../core/index.js';
import type { EventLog } from '../../events/index.js';
import type { Store } from '../../store/index.js';
import type { Tracer } from '../../telemetry/index.js';
import type { AgentService, MessageQueue } from '../agents/index.js';
import type { BriefService } from '../channels/index.js';
import type { ModelProvider } from '../providers/index.js';
import type { Tool } from '../tools/index.js';
import type { RunLoopRecords } from './records.js';
import type { ConversationHub } from './stream.js';

export interface RunLoopDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  ids: IdGenerator;
  events: EventLog;
  queue: MessageQueue;
  agents: AgentService;
  briefs: BriefService;
  providers: { resolve(modelRef: string): { provider: ModelProvider; model: string } | null };
  /** Tools offered to the model in every round. */
  tools: Tool[];
  /** The system prompt's section naming the agent's effective skills ('' for none). */
  skillPrompt?: (agentId: string) => string;
  records: RunLoopRecords;
  hub: ConversationHub;
  tracer?: Tracer | undefined;
}

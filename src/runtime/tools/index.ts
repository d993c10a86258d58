/**
 * The tools offered to models (issue 4 item 3). Each tool calls the domain service the matching
 * HTTP route calls, with authority `runtime_instruction` where the service takes one, so a tool
 * call leaves the same events and provenance as the route. Argument validation and outcome
 * shaping live in define.ts; one file per resource group.
 */
import type { Logger } from 'pino';
import type { Store } from '../../store/store.js';
import type { AgentService } from '../agents/index.js';
import type { BriefService } from '../channels/index.js';
import type { SkillUse } from '../skills/index.js';
import type { TaskService } from '../tasks/index.js';
import type { TimerService } from '../timers/index.js';
import type { WorkItemService } from '../work-items/index.js';
import { briefTools } from './briefs.js';
import { skillTools } from './skills.js';
import { taskTools } from './tasks.js';
import { timerTools } from './timers.js';
import type { Tool } from './types.js';
import { workItemTools } from './work-items.js';

export interface ToolDeps {
  store: Store;
  logger: Logger;
  agents: AgentService;
  tasks: TaskService;
  workItems: WorkItemService;
  timers: TimerService;
  briefs: BriefService;
  skillUse: SkillUse;
}

export type { Tool, ToolContext, ToolOutcome } from './types.js';

/** Every tool, in the order they are offered. Names are unique. */
export function createTools(deps: ToolDeps): Tool[] {
  return [...taskTools(deps), ...workItemTools(deps), ...timerTools(deps), ...briefTools(deps), ...skillTools(deps)];
}

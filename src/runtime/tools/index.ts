/**
 * The tools offered to models (issue 4 item 3). Each tool calls the domain service the matching
 * HTTP route calls, with authority `runtime_instruction` where the service takes one, so a tool
 * call leaves the same events and provenance as the route. Argument validation and outcome
 * shaping live in define.ts; one file per resource group, each a factory over ToolDeps
 * (types.ts) that this file lists in its table; no tool file imports this one.
 */
import { briefTools } from './briefs.js';
import { coordinationTools } from './coordination.js';
import { executionTools } from './executions.js';
import { fileTools } from './files.js';
import { inboxTools } from './inbox.js';
import { memoryTools } from './memory.js';
import { skillTools } from './skills.js';
import { taskTools } from './tasks.js';
import { timerTools } from './timers.js';
import type { Tool, ToolDeps, ToolFactory, ToolSet, ToolSource } from './types.js';
import { webTools } from './web.js';
import { workItemTools } from './work-items.js';
import { workspaceTools } from './workspaces.js';

export { refused } from './define.js';
export type { InboxReplies, Tool, ToolArtifact, ToolContext, ToolDeps, ToolOutcome, ToolSet, ToolSource } from './types.js';

/** The resource groups, in the order their tools are offered. */
const TOOL_FACTORIES: readonly ToolFactory[] = [taskTools, fileTools, workItemTools, timerTools, briefTools, skillTools, coordinationTools, workspaceTools, webTools, executionTools, memoryTools, inboxTools];

/** Every tool, in the order they are offered. Names are unique. */
export function createTools(deps: ToolDeps): Tool[] {
  return TOOL_FACTORIES.flatMap((factory) => factory(deps));
}

/**
 * The built-in tools (the same for every agent; `builtins` is read live) followed by each
 * source's tools for the agent. A source's name that a tool already took is skipped.
 */
export class Toolbox implements ToolSet {
  constructor(
    private readonly builtins: Tool[],
    private readonly sources: readonly ToolSource[] = [],
  ) {}

  async toolsFor(agentId: string): Promise<Tool[]> {
    const out = [...this.builtins];
    const names = new Set(out.map((t) => t.name));
    for (const source of this.sources) {
      for (const tool of await source.toolsFor(agentId)) {
        if (names.has(tool.name)) continue;
        names.add(tool.name);
        out.push(tool);
      }
    }
    return out;
  }
}

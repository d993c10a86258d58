/**
 * Tools offered to models. Each executes through the same domain services the HTTP routes use,
 * so a tool call leaves exactly the events and provenance the matching route would.
 */
import type { ToolSpec } from '../providers/index.js';

export interface ToolContext {
  agentId: string;
  turnId: string;
  /** The message the turn answers. */
  messageId: string;
  /** Aborted when the run is aborted or the agent stopped. */
  signal: AbortSignal;
}

/** What a tool call produced: `content` goes back to the model; `data` is recorded in the turn activity. */
export interface ToolOutcome {
  ok: boolean;
  content: string;
  data?: unknown;
}

export interface Tool extends ToolSpec {
  /** Never throws for bad arguments or refused operations: those are `ok:false` outcomes the model reads. */
  execute(ctx: ToolContext, args: Record<string, unknown>): Promise<ToolOutcome>;
}

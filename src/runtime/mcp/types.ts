/** What the files of runtime/mcp/ share: a server's states, what it lists and answers, its views. */
import type { ToolClass } from '../../core/index.js';

/**
 * idle: never used; starting: spawned or connecting, initialising, listing its tools; ready;
 * backoff: it crashed and restarts after a delay (1 s, 2 s, 4 s … 60 s); failed: the last start
 * failed, retried at the next use once the delay has passed; stopped: disabled, or shut down.
 */
export const MCP_STATES = ['idle', 'starting', 'ready', 'backoff', 'failed', 'stopped'] as const;
export type McpState = (typeof MCP_STATES)[number];

/** One tool as `tools/list` describes it (the fields svc reads). */
export interface ListedTool {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  inputSchema?: unknown;
}

/** A `tools/call` answer (the fields svc reads). */
export interface CallResult {
  content?: unknown[];
  structuredContent?: unknown;
  isError?: boolean;
  /** The 2024-10-07 protocol's result shape. */
  toolResult?: unknown;
}

export interface McpToolView {
  /** The server's name for it. */
  name: string;
  /** What models call it: NAME__tool. */
  model_name: string;
  class: ToolClass;
  description: string;
}

/** GET /api/control/runtime/mcp: one server. */
export interface McpServerView {
  name: string;
  transport: 'stdio' | 'http';
  enabled: boolean;
  state: McpState;
  /** The stdio server's leader (its process group); null for HTTP or when not running. */
  pid: number | null;
  /** The command (stdio) or the URL (HTTP); the arguments are shown, the environment is not. */
  command: string | null;
  args: string[];
  url: string | null;
  agents: string[];
  templates: string[];
  class: ToolClass;
  tools: McpToolView[];
  /** Tools skipped (names that do not map, schemas too large, tools past the limit). */
  warnings: string[];
  last_error: string | null;
  last_error_at: string | null;
  /** Starts after the first: after crashes, and asked for (restart). */
  restarts: number;
  started_at: string | null;
  /** When a server in backoff restarts, or a failed one may be tried again. */
  retry_at: string | null;
}

/**
 * The agent state page's entry (GET /api/agents/:id/state `mcp_servers`). No `last_error`: a
 * server's stderr may say more than a reader of the state page should see; the control route has it.
 */
export interface McpAgentServer {
  name: string;
  transport: 'stdio' | 'http';
  state: McpState;
  tool_count: number;
}

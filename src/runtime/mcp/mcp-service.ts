/**
 * The configured MCP servers as a tool source (docs/tools.md#mcp-servers): each agent is offered
 * the tools of the servers assigned to it (`agents`, `templates`), asked once per turn by the run
 * loop; the servers themselves are shared by the agents that get them. Also what the routes, the
 * CLI and the agent state page read (list, one server, restart), and the lifecycle: at start,
 * what a daemon that died left running is ended before any server starts; at shutdown every
 * server is stopped (its process group ended); an agent's deletion ends its calls in flight.
 */
import path from 'node:path';
import type { Logger } from 'pino';
import type { McpServerConfig, ResolvedConfig } from '../../config/index.js';
import { type Clock, errors } from '../../core/index.js';
import type { ResourceService } from '../deps.js';
import { passedEnvironment, TaskReaper } from '../tasks/processes/index.js';
import type { Tool, ToolSource } from '../tools/index.js';
import { LiveServers } from './live-servers.js';
import { ServerConnection } from './server-connection.js';
import type { CredentialLookup } from './transports.js';
import type { McpAgentServer, McpServerView } from './types.js';

/** How long a stdio server has to go after SIGTERM before SIGKILL. */
const KILL_GRACE_MS = 2000;

export interface McpDeps {
  config: ResolvedConfig;
  clock: Clock;
  logger: Logger;
  /** The agent's template decides `templates` assignments. */
  agents: { find(agentId: string): { template: string | null } | null };
  credentials: CredentialLookup;
  /** The environment the allowlist is taken from (default: the daemon's). */
  env?: NodeJS.ProcessEnv;
  /** A timer for restart delays (tests). */
  setTimer?: (fn: () => void, ms: number) => () => void;
}

/** Whether an agent gets a server: listed by id or `*`, or made from a listed template. */
export function assigned(config: McpServerConfig, agentId: string, template: string | null): boolean {
  return config.agents.includes('*') || config.agents.includes(agentId) || (template !== null && config.templates.includes(template));
}

export class McpService implements ToolSource, ResourceService {
  private readonly servers = new Map<string, ServerConnection>();
  private readonly live: LiveServers;
  private recovery: Promise<void> | null = null;

  constructor(private readonly deps: McpDeps) {
    const { config, logger } = deps;
    // An owner of its own: the command tasks' sweeps never end a server, nor this one a task.
    const reaper = new TaskReaper(`mcp-${TaskReaper.ownerOf(config.home)}`, { graceMs: KILL_GRACE_MS, logger });
    this.live = new LiveServers(path.resolve(config.home), reaper, logger);
    const secretNames = Object.values(config.values.providers).map((p) => p.api_key_env);
    const baseEnv = passedEnvironment(deps.env ?? process.env, secretNames);
    for (const [name, server] of Object.entries(config.values.mcp.servers)) {
      this.servers.set(
        name,
        new ServerConnection(name, server, {
          clock: deps.clock,
          logger: logger.child({ component: 'mcp' }),
          credentials: deps.credentials,
          reaper,
          live: this.live,
          baseEnv,
          recovered: () => this.recovered(),
          ...(deps.setTimer ? { setTimer: deps.setTimer } : {}),
        }),
      );
    }
  }

  /** At start: end what a daemon that died left running (before any server starts). */
  start(): void {
    void this.recovered();
  }

  async stop(): Promise<void> {
    await Promise.all([...this.servers.values()].map((s) => s.stop()));
  }

  stopAgent(agentId: string): void {
    for (const s of this.servers.values()) s.abortCalls(agentId);
  }

  /** The agent's MCP tools: servers start on first use; one that cannot start offers nothing this turn. */
  async toolsFor(agentId: string): Promise<Tool[]> {
    const mine = this.serversOf(agentId);
    if (mine.length === 0) return [];
    const lists = await Promise.all(
      mine.map((s) =>
        s.offered().catch((err) => {
          this.deps.logger.error({ err, server: s.name }, 'MCP server tools could not be offered');
          return [];
        }),
      ),
    );
    return lists.flat();
  }

  list(): McpServerView[] {
    return [...this.servers.values()].map((s) => s.view());
  }

  get(name: string): McpServerView {
    return this.server(name).view();
  }

  /** Stop the server and start it again now (the restart delay reset); answers once it is decided. */
  async restart(name: string): Promise<McpServerView> {
    const server = this.server(name);
    await server.restart();
    return server.view();
  }

  /** The state page's section: the servers this agent gets. */
  stateFor(agentId: string): McpAgentServer[] {
    return this.serversOf(agentId).map((s) => ({ name: s.name, transport: s.transportKind, state: s.state, tool_count: s.toolCount }));
  }

  private serversOf(agentId: string): ServerConnection[] {
    const agent = this.deps.agents.find(agentId);
    if (!agent) return [];
    return [...this.servers.values()].filter((s) => s.config.enabled && assigned(s.config, agentId, agent.template));
  }

  private server(name: string): ServerConnection {
    const server = this.servers.get(name);
    if (!server) throw errors.mcpServerNotFound(name);
    return server;
  }

  private recovered(): Promise<void> {
    this.recovery ??= this.live.recover().catch((err) => this.deps.logger.error({ err }, 'ending the MCP servers a previous daemon left running failed'));
    return this.recovery;
  }
}

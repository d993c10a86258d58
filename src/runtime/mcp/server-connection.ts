/**
 * One configured MCP server and its life (docs/tools.md#mcp-servers): started on first use,
 * initialised and its tools listed within `startup_timeout_ms`; restarted after a crash with a
 * growing delay (1 s, 2 s, 4 s … 60 s; back to 1 s once it stayed up for a minute); a failed start
 * is tried again at the next use once its delay has passed; stopped at shutdown, by `restart`, or
 * never started when disabled. A stdio server is its own process group, ended with the reaper
 * (SIGTERM, then SIGKILL for what is left, including children that left the group) and recorded
 * while it runs (live-servers.ts). Every event of an old connection is ignored once a newer one
 * was begun (`generation`), so a late exit or answer never touches the current one.
 */
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError, type StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { McpServerConfig } from '../../config/index.js';
import { type Clock, errors, isoAt } from '../../core/index.js';
import { VERSION } from '../../version.js';
import { signalGroup, type TaskReaper } from '../tasks/processes/index.js';
import type { Tool, ToolContext } from '../tools/index.js';
import type { LiveServers } from './live-servers.js';
import { ProcessTransport } from './stdio-transport.js';
import { adaptTools, MAX_TOOLS_PER_SERVER } from './tool-adapter.js';
import { callFailure, httpTransport, stdioSpec, type CredentialLookup } from './transports.js';
import type { CallResult, ListedTool, McpServerView, McpState } from './types.js';

export const BACKOFF_BASE_MS = 1000;
export const BACKOFF_MAX_MS = 60_000;
/** `tools/list` pages read at most (a server whose cursor never ends is cut there). */
const MAX_LIST_PAGES = 32;
/** How long an ended server's pipes may take to close after its group was signalled. */
const STOP_GRACE_MS = 2000;
const LAST_ERROR_CHARS = 1000;
/** Why a call was given up: the turn was aborted, or the agent deleted. */
const GIVEN_UP = new Error('the call was given up');

/** The delay before the n-th restart in a row (n >= 1): 1 s, 2 s, 4 s … at most 60 s. */
export function backoffDelay(failures: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, failures - 1));
}

export interface ConnectionDeps {
  clock: Clock;
  logger: Logger;
  credentials: CredentialLookup;
  /** Ends a stdio server's processes (its own owner: never a command task's). */
  reaper: TaskReaper;
  live: LiveServers;
  /** The allowlisted daemon environment a stdio server starts from. */
  baseEnv: Record<string, string>;
  /** Resolves once what a daemon that died left running is ended: no server starts before. */
  recovered: () => Promise<void>;
  /** A timer for the restart delay; returns its cancel (tests inject one). */
  setTimer?: (fn: () => void, ms: number) => () => void;
}

export class ServerConnection {
  state: McpState;
  private tools: Tool[] = [];
  private warnings: string[] = [];
  private lastError: string | null = null;
  private lastErrorAt: number | null = null;
  private restarts = 0;
  private launches = 0;
  private failures = 0;
  private retryAt: number | null = null;
  private startedAt: number | null = null;
  private client: Client | null = null;
  private transport: ProcessTransport | StreamableHTTPClientTransport | null = null;
  private marker: string | null = null;
  private starting: Promise<void> | null = null;
  private cancelTimer: (() => void) | null = null;
  private generation = 0;
  private refreshing = false;
  private refreshAgain = false;
  /** In-flight calls by agent, aborted when the agent is deleted. */
  private readonly inflight = new Map<string, Set<() => void>>();

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly deps: ConnectionDeps,
  ) {
    this.state = config.enabled ? 'idle' : 'stopped';
  }

  get transportKind(): 'stdio' | 'http' {
    return this.config.command !== undefined ? 'stdio' : 'http';
  }

  /**
   * The tools to offer a turn, starting the server on its first use (bounded by
   * startup_timeout_ms). A server restarting after a crash offers the tools it had; one that
   * cannot start offers none (its last_error says why).
   */
  async offered(): Promise<Tool[]> {
    await this.ensure();
    return this.state === 'ready' || this.state === 'backoff' ? this.tools : [];
  }

  /** Whether it is ready, starting it first when it was never used or its retry is due. */
  async ensure(): Promise<boolean> {
    if (this.state === 'idle' || (this.state === 'failed' && this.deps.clock.now() >= (this.retryAt ?? 0))) this.launch();
    while (this.starting) await this.starting;
    return this.state === 'ready';
  }

  /**
   * `tools/call` within call_timeout_ms, given up when the turn is aborted or the agent deleted;
   * throws the AppError the model reads. The SDK is given no AbortSignal: creating one costs about
   * 17 µs on Node 20, most of what svc adds to a call; a call given up is left to the server, which
   * answers into nothing or meets the time limit (then the SDK tells it `notifications/cancelled`).
   */
  async call(tool: string, args: Record<string, unknown>, ctx: ToolContext): Promise<CallResult> {
    const modelName = `${this.name}__${tool}`;
    if (!(await this.ensure()) || !this.client) throw errors.mcpServerUnavailable(modelName, this.name, this.unavailableWhy());
    const { client, generation } = this;
    let giveUp!: () => void;
    const givenUp = new Promise<never>((_, reject) => (giveUp = () => reject(GIVEN_UP)));
    givenUp.catch(() => undefined); // given up after the call settled: nobody waits for it
    if (ctx.signal.aborted) giveUp();
    ctx.signal.addEventListener('abort', giveUp, { once: true });
    const calls = this.inflight.get(ctx.agentId) ?? new Set();
    this.inflight.set(ctx.agentId, calls.add(giveUp));
    try {
      return (await Promise.race([client.callTool({ name: tool, arguments: args }, undefined, { timeout: this.config.call_timeout_ms }), givenUp])) as CallResult;
    } catch (err) {
      const failure = callFailure(err, { tool: modelName, timeoutMs: this.config.call_timeout_ms, aborted: err === GIVEN_UP });
      if (failure.error) throw failure.error;
      // A stdio server's exit was seen first (onClosed): its state already says what happened.
      if (generation === this.generation && this.state === 'ready') this.lost(failure.lost);
      throw errors.mcpServerUnavailable(modelName, this.name, this.unavailableWhy());
    } finally {
      ctx.signal.removeEventListener('abort', giveUp);
      calls.delete(giveUp);
      if (calls.size === 0) this.inflight.delete(ctx.agentId);
    }
  }

  /** Give up the agent's calls in flight (it is being deleted); the server goes on for the others. */
  abortCalls(agentId: string): void {
    for (const giveUp of this.inflight.get(agentId) ?? []) giveUp();
  }

  /** Stop what runs and start again now, the delay reset; resolves once the start is decided. */
  async restart(): Promise<void> {
    if (!this.config.enabled) throw errors.mcpServerDisabled(this.name);
    this.cancelTimer?.();
    this.generation++;
    await this.halt();
    this.failures = 0;
    this.launch();
    await this.ensure();
  }

  /** Shutdown: no more starts; the process group is ended. */
  async stop(): Promise<void> {
    this.cancelTimer?.();
    this.generation++;
    this.state = 'stopped';
    await this.halt();
  }

  view(): McpServerView {
    const c = this.config;
    return {
      name: this.name,
      transport: this.transportKind,
      enabled: c.enabled,
      state: this.state,
      pid: this.transport instanceof ProcessTransport ? this.transport.pid : null,
      command: c.command ?? null,
      args: c.args,
      url: c.url || null,
      agents: c.agents,
      templates: c.templates,
      class: c.class,
      tools: this.tools.map((t) => ({ name: t.name.slice(this.name.length + 2), model_name: t.name, class: t.class, description: t.description })),
      warnings: this.warnings,
      last_error: this.lastError,
      last_error_at: this.lastErrorAt === null ? null : isoAt(this.lastErrorAt),
      restarts: this.restarts,
      started_at: this.startedAt === null || this.state !== 'ready' ? null : isoAt(this.startedAt),
      retry_at: this.retryAt === null ? null : isoAt(this.retryAt),
    };
  }

  get toolCount(): number {
    return this.state === 'ready' || this.state === 'backoff' ? this.tools.length : 0;
  }

  private unavailableWhy(): string {
    const until = this.retryAt === null ? '' : ` in ${Math.max(0, Math.ceil((this.retryAt - this.deps.clock.now()) / 1000))} s`;
    if (this.state === 'backoff') return `it stopped (${this.lastError ?? 'unknown'}) and restarts${until}`;
    if (this.state === 'failed') return `it could not start (${this.lastError ?? 'unknown'}); tried again at a use${until}`;
    if (this.state === 'stopped') return this.config.enabled ? 'svc is shutting down' : 'it is disabled';
    return `it is ${this.state}`;
  }

  private launch(): void {
    this.cancelTimer?.();
    this.cancelTimer = null;
    const gen = ++this.generation;
    this.state = 'starting';
    this.retryAt = null;
    if (this.launches++ > 0) this.restarts++;
    const starting: Promise<void> = this.start(gen).finally(() => {
      if (this.starting === starting) this.starting = null;
    });
    this.starting = starting;
  }

  private async start(gen: number): Promise<void> {
    const timeoutMs = this.config.startup_timeout_ms;
    let timer: NodeJS.Timeout | undefined;
    try {
      await this.deps.recovered();
      if (gen !== this.generation) return;
      const client = this.connectClient(gen);
      const ready = (async () => {
        await client.connect(this.transport!, { timeout: timeoutMs });
        return this.listAll(client, timeoutMs);
      })();
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms (startup_timeout_ms)`)), timeoutMs);
      });
      ready.catch(() => undefined); // settled after a timeout: already handled
      const listed = await Promise.race([ready, timedOut]);
      if (gen !== this.generation) return;
      this.setTools(listed);
      this.state = 'ready';
      this.startedAt = this.deps.clock.now();
      this.deps.logger.info({ server: this.name, tools: this.tools.length, pid: this.view().pid }, 'MCP server ready');
    } catch (err) {
      if (gen !== this.generation) return;
      const detail = this.describe(err);
      await this.halt();
      if (gen !== this.generation) return;
      this.failures++;
      this.state = 'failed';
      this.retryAt = this.deps.clock.now() + backoffDelay(this.failures);
      this.setError(`could not start: ${detail}`);
      this.deps.logger.warn({ server: this.name, error: this.lastError, retry_in_ms: backoffDelay(this.failures) }, 'MCP server could not start');
    } finally {
      clearTimeout(timer);
    }
  }

  /** A client over a new transport, published at once (so halt() can end it). */
  private connectClient(gen: number): Client {
    const c = this.config;
    if (c.command !== undefined) {
      // Unique per start: the reaper ends exactly this start's processes by it.
      const marker = `mcp-${this.name}-${randomBytes(6).toString('hex')}`;
      const spec = stdioSpec(c, this.deps.baseEnv, this.deps.reaper.env(marker), this.deps.credentials);
      this.marker = marker;
      this.transport = new ProcessTransport(spec, (t) => {
        this.deps.live.add({ server: this.name, marker, pid: t.pid!, proc_start: t.procStart, boot_id: this.deps.reaper.currentBoot });
      });
    } else {
      this.transport = httpTransport(c, this.deps.credentials, (err) => {
        if (gen === this.generation && this.state === 'ready') this.lost(`the connection broke during a call: ${err.message}`);
      });
    }
    const client = new Client({ name: 'svc', version: VERSION }, { capabilities: {} });
    this.client = client;
    client.onclose = () => this.onClosed(gen);
    client.onerror = (err) => this.deps.logger.debug({ err, server: this.name }, 'MCP transport error');
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.refresh(gen, client));
    return client;
  }

  private async listAll(client: Client, timeoutMs: number): Promise<ListedTool[]> {
    const out: ListedTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const res = await client.listTools(cursor === undefined ? undefined : { cursor }, { timeout: timeoutMs });
      out.push(...res.tools);
      cursor = res.nextCursor;
      if (cursor === undefined || out.length > MAX_TOOLS_PER_SERVER) break;
    }
    return out;
  }

  private setTools(listed: ListedTool[]): void {
    const { tools, warnings } = adaptTools(this.name, this.config, listed, (tool, args, ctx) => this.call(tool, args, ctx), this.deps.logger);
    this.tools = tools;
    this.warnings = warnings;
  }

  /** `notifications/tools/list_changed`: list again (one listing at a time, the last change wins). */
  private refresh(gen: number, client: Client): void {
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    this.refreshing = true;
    void (async () => {
      do {
        this.refreshAgain = false;
        try {
          const listed = await this.listAll(client, this.config.call_timeout_ms);
          if (gen === this.generation) this.setTools(listed);
        } catch (err) {
          if (gen === this.generation) this.setError(`could not list its tools again: ${this.describe(err)}`);
        }
      } while (this.refreshAgain && gen === this.generation);
      this.refreshing = false;
    })();
  }

  private onClosed(gen: number): void {
    if (gen !== this.generation || this.state !== 'ready') return;
    this.lost(this.transport instanceof ProcessTransport ? `the server exited (${this.describe(null)})` : 'the connection closed');
  }

  /** It crashed, or its connection is gone: end what is left, restart after the delay. */
  private lost(why: string): void {
    const now = this.deps.clock.now();
    if (this.startedAt !== null && now - this.startedAt >= BACKOFF_MAX_MS) this.failures = 0;
    this.failures++;
    const delay = backoffDelay(this.failures);
    const gen = ++this.generation;
    this.state = 'backoff';
    this.retryAt = now + delay;
    this.setError(why);
    this.deps.logger.warn({ server: this.name, error: this.lastError, restart_in_ms: delay }, 'MCP server lost; restarting');
    void this.halt();
    const fire = () => {
      if (this.generation === gen && this.state === 'backoff') this.launch();
    };
    const set = this.deps.setTimer ?? realTimer;
    this.cancelTimer = set(fire, delay);
  }

  /** End the current connection and, for stdio, the server's process group and what left it. */
  private async halt(): Promise<void> {
    const { client, transport, marker } = this;
    this.client = null;
    this.transport = null;
    this.marker = null;
    if (client) client.onclose = undefined;
    if (transport instanceof ProcessTransport) {
      await transport.close(0); // end of input first: a server may exit on its own
      const pid = transport.pid;
      if (pid !== null && marker !== null) {
        signalGroup(pid, 'SIGTERM');
        await this.deps.reaper.end([{ taskId: marker, pgid: pid, procStart: transport.procStart, bootId: this.deps.reaper.currentBoot }]);
        if (!(await settles(transport.closed(), STOP_GRACE_MS))) signalGroup(pid, 'SIGKILL');
        this.deps.live.remove(marker);
      }
    } else if (transport) {
      await settles(transport.terminateSession().catch(() => undefined), STOP_GRACE_MS);
    }
    await client?.close().catch(() => undefined);
  }

  private describe(err: unknown): string {
    const status = err instanceof StreamableHTTPError && err.code !== undefined ? `HTTP ${err.code}: ` : '';
    const parts = err ? [`${status}${err instanceof Error ? err.message : String(err)}`] : [];
    if (this.transport instanceof ProcessTransport) {
      if (this.transport.problem) parts.push(this.transport.problem);
      if (this.transport.exit) parts.push(this.transport.exit);
      const tail = this.transport.stderrTail();
      if (tail) parts.push(`stderr: ${tail.slice(-400)}`);
    }
    return parts.join('; ') || 'unknown';
  }

  private setError(message: string): void {
    this.lastError = message.slice(0, LAST_ERROR_CHARS);
    this.lastErrorAt = this.deps.clock.now();
  }
}

function realTimer(fn: () => void, ms: number): () => void {
  const t = setTimeout(fn, ms);
  t.unref();
  return () => clearTimeout(t);
}

/** Whether `p` settles within `ms`. */
async function settles(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const done = await Promise.race([p.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)))]);
  clearTimeout(timer);
  return done;
}

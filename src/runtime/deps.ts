/**
 * What every runtime resource service is built from, and the lifecycle hooks the composition
 * root calls. One deps object (never positional arguments, never a late-bound cycle).
 */
import type { Logger } from 'pino';
import type { ResolvedConfig } from '../config/index.js';
import type { Clock, IdGenerator } from '../core/index.js';
import type { EventLog } from '../events/index.js';
import type { Store } from '../store/index.js';
import type { Tracer } from '../telemetry/index.js';
import type { AgentService, Ingress, MessageQueue } from './agents/index.js';

export interface RuntimeDeps {
  config: ResolvedConfig;
  clock: Clock;
  logger: Logger;
  ids: IdGenerator;
  store: Store;
  events: EventLog;
  queue: MessageQueue;
  agents: AgentService;
  ingress: Ingress;
  /** Spans for task runs, timer firings and (later) turns, tool calls, deliveries (absent: not traced). */
  tracer?: Tracer;
}

/** Hooks a resource service may implement; the composition root calls them in order. */
export interface Lifecycle {
  /** After the store is open and the default agent exists: recover and schedule. */
  start?(): void;
  /** Graceful shutdown: stop timers, terminate processes. */
  stop?(): Promise<void> | void;
  /** The agent is being deleted: let go of everything it holds. */
  stopAgent?(agentId: string): Promise<void> | void;
}

/** A control-plane resource service: lifecycle hooks plus its section of the agent state page. */
export interface ResourceService extends Lifecycle {
  /** The agent's entries for GET /api/agents/:id/state (bounded, slim). */
  stateFor(agentId: string): unknown[];
}

/** A pass (an age rule's pruning) run at start and every `ms` after, on a timer that keeps no process alive. */
export class Repeating {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly pass: () => void,
    private readonly ms: number,
  ) {}

  start(): void {
    this.stop();
    this.pass();
    this.timer = setInterval(this.pass, this.ms);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

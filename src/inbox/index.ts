/**
 * The inbox and event-source service (spec/inbox.md, CONTRACT.md section 9): composition of its
 * domain services over the shared store. No Fastify here; src/http/inbox/ mounts the routes.
 *
 * Parts:
 * - streams: hosts, sources, the stream backend (append with per-stream offsets, stats,
 *   compaction), remote-source modules in worker threads;
 * - subscriptions: inbox agents, subscriptions with filters, matching pushed on append, inbox
 *   entries, acks and watch;
 * - delivery: activation targets (webhook, terminal, runtime), notifications, the delivery pause,
 *   inbox timers.
 */
import type { Logger } from 'pino';
import type { ResolvedConfig } from '../config/load.js';
import type { Clock } from '../core/clock.js';
import type { IdGenerator } from '../core/ids.js';
import type { Lifecycle } from '../runtime/deps.js';
import type { Ingress } from '../runtime/ingress.js';
import type { Store } from '../store/store.js';
import type { Tracer } from '../telemetry/tracing.js';
import { InboxAgents } from './agents.js';
import { InboxEntries } from './entries.js';
import { SourceService } from './sources.js';
import { SqliteStreamBackend } from './sqlite-stream-backend.js';
import { StreamService } from './streams.js';

export interface InboxDeps {
  config: ResolvedConfig;
  clock: Clock;
  logger: Logger;
  ids: IdGenerator;
  store: Store;
  /** The control plane's ingress: the `runtime` target enqueues into an agent's queue through it. */
  ingress: Ingress;
  tracer?: Tracer;
}

export interface Inbox {
  /** Start order; stopped in reverse. */
  lifecycles: Lifecycle[];
  // streams
  streams: StreamService;
  sources: SourceService;
  // subscriptions
  agents: InboxAgents;
  entries: InboxEntries;
}

export function createInbox(deps: InboxDeps): Inbox {
  const { store, clock } = deps;
  // streams
  const streams = new StreamService({ store, clock, backend: new SqliteStreamBackend(store.db) });
  const sources = new SourceService();
  // subscriptions
  const agents = new InboxAgents({ store, clock, ids: deps.ids });
  const entries = new InboxEntries({ store, clock, ids: deps.ids, agents });
  return { lifecycles: [], streams, sources, agents, entries };
}

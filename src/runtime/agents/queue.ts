/**
 * The durable per-agent message queue (docs/control-plane-api.md#queue). Messages wait in SQLite
 * with their provenance. Dequeue order: interject > next > normal > background, FIFO inside a
 * priority (the autoincrement `seq` is the arrival order).
 *
 * Depth per agent is capped per budget (core/provenance.ts QUEUE_BUDGETS, from the admitting
 * surface): messages from external senders past `queue.max_pending`, and operator messages past
 * `queue.max_pending_operator`, answer 429 overloaded; each budget counts only its own messages,
 * so external senders cannot lock the operator out. Runtime-owned messages (task results, timer
 * ticks, rechecks, wake ticks) are never refused: nothing the daemon produces is lost to a full queue.
 *
 * Every method that writes must run inside a store transaction; the enqueue event is appended by
 * the caller's transaction too, so the message and its `message_enqueued` commit together.
 */
import type Database from 'better-sqlite3';
import {
  isoAt,
  type Clock,
  errors,
  type IdGenerator,
  PRIORITIES,
  PRIORITY_RANK,
  SURFACE_RULES,
  surfacesOfBudget,
  type DeliverySurface,
  type Priority,
  type Provenance,
  type QueueBudget,
} from '../../core/index.js';
import type { EventLog } from '../../events/index.js';
import { type Store, TxCache } from '../../store/index.js';

export type MessageBody =
  | { type: 'text'; text: string }
  | { type: 'json'; value: Record<string, unknown> }
  | { type: 'brief'; title: string; text: string; attachments: unknown[] };

/** The text a person (or a model) reads in a message body. */
export function bodyText(body: MessageBody): string {
  switch (body.type) {
    case 'text':
      return body.text;
    case 'json':
      return JSON.stringify(body.value);
    case 'brief':
      return body.text ? `${body.title}\n\n${body.text}` : body.title;
  }
}

export type MessageStatus = 'queued' | 'processing' | 'completed' | 'failed';

export interface Message extends Provenance {
  message_id: string;
  agent_id: string;
  body: MessageBody;
  metadata: Record<string, unknown>;
  correlation_id: string | null;
  causation_id: string | null;
  status: MessageStatus;
  attempts: number;
  error: string | null;
  created_at: string;
  updated_at: string;
}

export interface EnqueueInput {
  agentId: string;
  provenance: Provenance;
  body: MessageBody;
  metadata?: Record<string, unknown> | undefined;
  correlationId?: string | undefined;
  causationId?: string | undefined;
}

interface MessageRow {
  message_id: string;
  agent_id: string;
  kind: string;
  origin: string;
  trust: string;
  authority_class: string;
  priority: string;
  body: string;
  metadata: string;
  text_ids: string | null;
  correlation_id: string | null;
  causation_id: string | null;
  delivery_surface: string;
  status: string;
  attempts: number;
  error: string | null;
  created_at: string;
  updated_at: string;
}

export interface QueueDeps {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  events: EventLog;
  /** Queued messages from external senders per agent (`queue.max_pending`). */
  maxPending: number;
  /** Queued operator messages per agent (`queue.max_pending_operator`). */
  maxPendingOperator: number;
  /** Called once per message after its transaction commits (metrics). */
  onEnqueued?: () => void;
}

export class MessageQueue {
  private readonly stmt;
  /** Queued-message count per agent, loaded lazily and kept in step with every change. */
  private readonly pendingCache: TxCache<number>;
  /** The same per capped budget, keyed `budget:agent`. */
  private readonly budgetCache: TxCache<number>;
  private readonly budgetLimits: Readonly<Record<Exclude<QueueBudget, 'runtime'>, { max: number; key: string }>>;
  private readonly queuedListeners: Array<(agentId: string, priority: Priority) => void> = [];

  constructor(private readonly deps: QueueDeps) {
    const db: Database.Database = deps.store.db;
    this.pendingCache = new TxCache(deps.store);
    this.budgetCache = new TxCache(deps.store);
    this.budgetLimits = {
      public: { max: deps.maxPending, key: 'queue.max_pending' },
      operator: { max: deps.maxPendingOperator, key: 'queue.max_pending_operator' },
    };
    const queuedIn = (budget: QueueBudget) => {
      const surfaces = surfacesOfBudget(budget);
      const stmt = db
        .prepare(`SELECT count(*) FROM messages WHERE agent_id = ? AND status = 'queued' AND delivery_surface IN (${surfaces.map(() => '?').join(', ')})`)
        .pluck();
      return (agentId: string) => stmt.get(agentId, ...surfaces) as number;
    };
    this.stmt = {
      insert: db.prepare(
        `INSERT INTO messages (message_id, agent_id, kind, origin, trust, authority_class, priority, priority_rank, body, metadata,
           text_ids, correlation_id, causation_id, delivery_surface, status, attempts, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', 0, ?, ?)`,
      ),
      get: db.prepare('SELECT * FROM messages WHERE message_id = ?'),
      status: db.prepare('SELECT status FROM messages WHERE message_id = ?').pluck(),
      allQueuedFrom: db.prepare("SELECT * FROM messages WHERE status = 'queued' AND delivery_surface = ? ORDER BY seq"),
      next: db.prepare(
        "SELECT * FROM messages WHERE agent_id = ? AND status = 'queued' ORDER BY priority_rank, seq LIMIT 1",
      ),
      nextAtRank: db.prepare(
        "SELECT * FROM messages WHERE agent_id = ? AND status = 'queued' AND priority_rank = ? ORDER BY seq LIMIT 1",
      ),
      queuedFrom: db.prepare(
        "SELECT 1 FROM messages WHERE agent_id = ? AND status = 'queued' AND delivery_surface = ? LIMIT 1",
      ).pluck(),
      agentsWithQueued: db.prepare("SELECT DISTINCT agent_id FROM messages WHERE status = 'queued'").pluck(),
      setStatus: db.prepare('UPDATE messages SET status = ?, attempts = attempts + ?, error = ?, updated_at = ? WHERE message_id = ?'),
      countQueued: db.prepare("SELECT count(*) AS n FROM messages WHERE agent_id = ? AND status = 'queued'"),
      countQueuedIn: { public: queuedIn('public'), operator: queuedIn('operator') },
      countByPriority: db.prepare(
        "SELECT priority, count(*) AS n FROM messages WHERE agent_id = ? AND status = 'queued' GROUP BY priority",
      ),
      countAll: db.prepare("SELECT count(*) AS n FROM messages WHERE status = 'queued'"),
      processing: db.prepare("SELECT * FROM messages WHERE status = 'processing' ORDER BY seq"),
      purge: db.prepare('DELETE FROM messages WHERE agent_id = ?'),
    };
  }

  /** Insert a queued message and its `message_enqueued` event. Inside a transaction. */
  enqueue(input: EnqueueInput): Message {
    const { agentId, provenance } = input;
    const budget = SURFACE_RULES[provenance.delivery_surface].budget;
    if (budget !== 'runtime') {
      const pending = this.pendingIn(agentId, budget);
      const limit = this.budgetLimits[budget];
      if (pending >= limit.max) {
        throw errors.overloaded(`agent ${JSON.stringify(agentId)} has ${pending} queued ${budget} messages (${limit.key}); retry later`);
      }
    }
    const now = isoAt(this.deps.clock.now());
    const message: Message = {
      message_id: this.deps.ids.make('message'),
      agent_id: agentId,
      ...provenance,
      body: input.body,
      metadata: input.metadata ?? {},
      correlation_id: input.correlationId ?? null,
      causation_id: input.causationId ?? null,
      status: 'queued',
      attempts: 0,
      error: null,
      created_at: now,
      updated_at: now,
    };
    const texts = this.deps.store.texts.row();
    this.stmt.insert.run(
      message.message_id,
      agentId,
      provenance.kind,
      JSON.stringify(provenance.origin),
      provenance.trust,
      provenance.authority_class,
      provenance.priority,
      PRIORITY_RANK[provenance.priority],
      texts.json(message.body),
      texts.json(message.metadata),
      texts.textIds(),
      message.correlation_id,
      message.causation_id,
      provenance.delivery_surface,
      now,
      now,
    );
    this.adjust(agentId, provenance.delivery_surface, +1);
    if (this.deps.onEnqueued) this.deps.store.afterCommit(this.deps.onEnqueued);
    this.notifyQueued(agentId, provenance.priority);
    this.deps.events.append(agentId, 'message_enqueued', {
      message_id: message.message_id,
      kind: provenance.kind,
      priority: provenance.priority,
      correlation_id: message.correlation_id,
      causation_id: message.causation_id,
      body: message.body,
      metadata: message.metadata,
      provenance: provenanceOf(message),
    });
    return message;
  }

  /**
   * Take the next message for an agent (highest priority, oldest first) and mark it
   * `processing`. Inside a transaction. The run loop calls this.
   */
  claimNext(agentId: string, onlyPriority?: Priority): Message | null {
    const row = (
      onlyPriority === undefined ? this.stmt.next.get(agentId) : this.stmt.nextAtRank.get(agentId, PRIORITY_RANK[onlyPriority])
    ) as MessageRow | undefined;
    if (!row) return null;
    this.stmt.setStatus.run('processing', 1, null, isoAt(this.deps.clock.now()), row.message_id);
    this.adjust(agentId, row.delivery_surface as DeliverySurface, -1);
    return { ...this.fromRow(row), status: 'processing', attempts: row.attempts + 1 };
  }

  /** The message claimNext would take, left queued (the brake looks before a turn starts). */
  peekNext(agentId: string): Message | null {
    const row = this.stmt.next.get(agentId) as MessageRow | undefined;
    return row ? this.fromRow(row) : null;
  }

  /** Mark a claimed message finished. Inside a transaction. */
  finish(messageId: string, status: 'completed' | 'failed', error: string | null = null): void {
    this.stmt.setStatus.run(status, 0, error, isoAt(this.deps.clock.now()), messageId);
  }

  /** Put a claimed message back in the queue (crash recovery retries it once). */
  requeue(messageId: string, agentId: string, priority: Priority): void {
    const row = this.stmt.get.get(messageId) as MessageRow | undefined;
    if (!row) return;
    this.stmt.setStatus.run('queued', 0, null, isoAt(this.deps.clock.now()), messageId);
    this.adjust(agentId, row.delivery_surface as DeliverySurface, +1);
    this.notifyQueued(agentId, priority);
  }

  /**
   * Called after the commit of every transaction that queued a message for an agent (enqueue,
   * requeue): the run loop's scheduler wakes the agent's worker from here, without polling.
   */
  onQueued(listener: (agentId: string, priority: Priority) => void): void {
    this.queuedListeners.push(listener);
  }

  /** Whether a message admitted by `surface` is still queued for the agent (wake coalescing). */
  hasQueuedFrom(agentId: string, surface: string): boolean {
    return this.stmt.queuedFrom.get(agentId, surface) !== undefined;
  }

  /** Whether the message is still waiting in the queue (not claimed, not purged). */
  isQueued(messageId: string): boolean {
    return this.stmt.status.get(messageId) === 'queued';
  }

  /** Every queued message admitted by `surface`, all agents, oldest first (start-up). */
  queuedFrom(surface: DeliverySurface): Message[] {
    return (this.stmt.allQueuedFrom.all(surface) as MessageRow[]).map((r) => this.fromRow(r));
  }

  /** Agents with at least one queued message (scheduler start). */
  agentsWithQueued(): string[] {
    return this.stmt.agentsWithQueued.all() as string[];
  }

  private notifyQueued(agentId: string, priority: Priority): void {
    if (this.queuedListeners.length === 0) return;
    this.deps.store.afterCommit(() => {
      for (const listener of this.queuedListeners) listener(agentId, priority);
    });
  }

  /** Messages that were being processed when the daemon stopped. */
  interrupted(): Message[] {
    return (this.stmt.processing.all() as MessageRow[]).map((r) => this.fromRow(r));
  }

  get(messageId: string): Message | null {
    const row = this.stmt.get.get(messageId) as MessageRow | undefined;
    return row ? this.fromRow(row) : null;
  }

  pending(agentId: string): number {
    return this.pendingCache.get(agentId, () => (this.stmt.countQueued.get(agentId) as { n: number }).n);
  }

  /** Queued messages of the agent that count against a capped budget. */
  pendingIn(agentId: string, budget: Exclude<QueueBudget, 'runtime'>): number {
    return this.budgetCache.get(`${budget}:${agentId}`, () => this.stmt.countQueuedIn[budget](agentId));
  }

  pendingByPriority(agentId: string): Record<Priority, number> {
    const out = Object.fromEntries(PRIORITIES.map((p) => [p, 0])) as Record<Priority, number>;
    for (const row of this.stmt.countByPriority.all(agentId) as Array<{ priority: Priority; n: number }>) out[row.priority] = row.n;
    return out;
  }

  pendingTotal(): number {
    return (this.stmt.countAll.get() as { n: number }).n;
  }

  /** Drop every message of an agent (deletion). Inside a transaction. */
  purge(agentId: string): number {
    const n = this.stmt.purge.run(agentId).changes;
    this.pendingCache.delete(agentId);
    for (const budget of Object.keys(this.budgetLimits)) this.budgetCache.delete(`${budget}:${agentId}`);
    return n;
  }

  /**
   * Keep a loaded count in step with a change just written. An agent whose count is not loaded
   * yet needs nothing: its first read counts the rows, this change included.
   */
  private adjust(agentId: string, surface: DeliverySurface, delta: number): void {
    const n = this.pendingCache.peek(agentId);
    if (n !== undefined) this.pendingCache.set(agentId, n + delta);
    const budget = SURFACE_RULES[surface].budget;
    if (budget === 'runtime') return;
    const key = `${budget}:${agentId}`;
    const m = this.budgetCache.peek(key);
    if (m !== undefined) this.budgetCache.set(key, m + delta);
  }

  private fromRow(row: MessageRow): Message {
    const texts = this.deps.store.texts.read(row.text_ids);
    return {
      message_id: row.message_id,
      agent_id: row.agent_id,
      kind: row.kind as Message['kind'],
      origin: JSON.parse(row.origin),
      trust: row.trust as Message['trust'],
      authority_class: row.authority_class as Message['authority_class'],
      priority: row.priority as Priority,
      delivery_surface: row.delivery_surface as Message['delivery_surface'],
      body: texts.json(row.body),
      metadata: texts.json(row.metadata),
      correlation_id: row.correlation_id,
      causation_id: row.causation_id,
      status: row.status as MessageStatus,
      attempts: row.attempts,
      error: row.error,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }
}
export function provenanceOf(m: Pick<Message, keyof Provenance | 'message_id'>) {
  return {
    origin: m.origin,
    trust: m.trust,
    authority_class: m.authority_class,
    priority: m.priority,
    kind: m.kind,
    delivery_surface: m.delivery_surface,
    message_id: m.message_id,
  };
}

/**
 * Inbox agents (spec/inbox.md Agents; docs/inbox-api.md#routes): the recipients of subscriptions,
 * inbox entries, targets and timers. Separate from the control plane's agents; ids are generated
 * `agt_` ids, or chosen by the caller (AgentInbox's clients name their agents, e.g. `agent-alpha`)
 * within the control plane's agent id pattern.
 * Deleting one runs the `onDeleted` listeners inside the delete transaction, so subscriptions,
 * entries, targets and timers go with it atomically.
 */
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { isoAt, type Clock, errors, AGENT_ID_PATTERN, type IdGenerator } from '../../core/index.js';
import type { Store } from '../../store/index.js';
import type { AggregationPolicy } from '../types.js';

export interface InboxAgent {
  agentId: string;
  name: string | null;
  deliveryPaused: boolean;
  createdAt: string;
  /** The agent's own aggregation policy; absent while it has none (the default applies). */
  aggregation?: AggregationPolicy;
}

export interface CreateInboxAgentInput {
  name?: string | null | undefined;
  /** A normalized policy (delivery/aggregation.ts); absent or null: the default. */
  aggregation?: AggregationPolicy | null | undefined;
}

/**
 * An aggregation policy as the agents' and targets' `aggregation` columns keep it (canonical JSON;
 * delivery/aggregation.ts normalizes it): stored JSON -> policy, parsed once per distinct string
 * (policies are read on every new entry).
 */
const parsed = new Map<string, AggregationPolicy>();
export function readPolicy(json: string | null): AggregationPolicy | null {
  if (json === null) return null;
  let p = parsed.get(json);
  if (!p) {
    if (parsed.size > 1000) parsed.clear();
    p = JSON.parse(json) as AggregationPolicy;
    parsed.set(json, p);
  }
  return p;
}

/**
 * The id of an agent's inbox in AgentInbox's records (`inbox.inboxId`, `ownerAgentId`). svc keeps
 * one inbox per agent and no inbox row: the id is derived from the agent id, so it is stable and
 * needs no storage. `agt_X` has inbox `inb_X`; a chosen id (`agent-alpha`) has `inb_` and the
 * first 16 hex digits of its SHA-256, id-shaped as AgentInbox's are.
 */
export function inboxIdOf(agentId: string): string {
  if (/^agt_[0-9A-Z]{26}$/.test(agentId)) return `inb_${agentId.slice(4)}`;
  return `inb_${createHash('sha256').update(agentId).digest('hex').slice(0, 16)}`;
}

export const writePolicy = (p: AggregationPolicy | null): string | null => (p === null ? null : JSON.stringify(p));

export interface InboxAgentsDeps {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
}

interface AgentRow {
  agent_id: string;
  name: string | null;
  delivery_paused: number;
  created_at: string;
  aggregation: string | null;
}

function toAgent(r: AgentRow): InboxAgent {
  const agent: InboxAgent = { agentId: r.agent_id, name: r.name, deliveryPaused: r.delivery_paused === 1, createdAt: r.created_at };
  const aggregation = readPolicy(r.aggregation);
  if (aggregation) agent.aggregation = aggregation;
  return agent;
}

export class InboxAgents {
  private readonly deletedListeners: Array<(agentId: string) => void> = [];
  private readonly stmt: Record<'insert' | 'get' | 'list' | 'remove' | 'setPaused' | 'setAggregation' | 'aggregation', Database.Statement>;

  constructor(private readonly deps: InboxAgentsDeps) {
    const db = deps.store.db;
    this.stmt = {
      insert: db.prepare('INSERT INTO inbox_agents (agent_id, name, delivery_paused, created_at, aggregation) VALUES (?, ?, 0, ?, ?)'),
      get: db.prepare('SELECT * FROM inbox_agents WHERE agent_id = ?'),
      list: db.prepare('SELECT * FROM inbox_agents ORDER BY agent_id'),
      remove: db.prepare('DELETE FROM inbox_agents WHERE agent_id = ?'),
      setPaused: db.prepare('UPDATE inbox_agents SET delivery_paused = ? WHERE agent_id = ?'),
      setAggregation: db.prepare('UPDATE inbox_agents SET aggregation = ? WHERE agent_id = ?'),
      aggregation: db.prepare('SELECT aggregation FROM inbox_agents WHERE agent_id = ?').pluck(),
    };
  }

  create(input: CreateInboxAgentInput): InboxAgent {
    const agentId = this.deps.ids.make('inboxAgent');
    return this.deps.store.tx(() => this.insert(agentId, input));
  }

  /**
   * The agent with a caller-chosen id, created when it does not exist (an existing one is returned
   * unchanged, whatever `name` says). 400 invalid_agent_id for an id outside the pattern.
   */
  ensure(agentId: string, input: CreateInboxAgentInput = {}): { agent: InboxAgent; created: boolean } {
    if (!AGENT_ID_PATTERN.test(agentId)) throw errors.invalidAgentId(agentId);
    return this.deps.store.tx(() => {
      if (this.exists(agentId)) return { agent: this.get(agentId), created: false };
      return { agent: this.insert(agentId, input), created: true };
    });
  }

  private insert(agentId: string, input: CreateInboxAgentInput): InboxAgent {
    const createdAt = isoAt(this.deps.clock.now());
    this.stmt.insert.run(agentId, input.name ?? null, createdAt, writePolicy(input.aggregation ?? null));
    return toAgent(this.stmt.get.get(agentId) as AgentRow);
  }

  /** Throws 404 agent_not_found. */
  get(agentId: string): InboxAgent {
    const row = this.stmt.get.get(agentId) as AgentRow | undefined;
    if (!row) throw errors.inboxAgentNotFound(agentId);
    return toAgent(row);
  }

  exists(agentId: string): boolean {
    return this.stmt.get.get(agentId) !== undefined;
  }

  list(): InboxAgent[] {
    return (this.stmt.list.all() as AgentRow[]).map(toAgent);
  }

  /** Removes the agent and, through the listeners (same transaction), everything it owns. */
  delete(agentId: string): void {
    this.deps.store.tx(() => {
      this.get(agentId);
      for (const listener of this.deletedListeners) listener(agentId);
      this.stmt.remove.run(agentId);
    });
  }

  /** Runs inside the caller's transaction (the delivery pause/resume state change). */
  setDeliveryPaused(agentId: string, paused: boolean): void {
    const changed = this.stmt.setPaused.run(paused ? 1 : 0, agentId).changes;
    if (changed === 0) throw errors.inboxAgentNotFound(agentId);
  }

  /** The agent's own aggregation policy (null: none, or no such agent); read on every new entry. */
  aggregationOf(agentId: string): AggregationPolicy | null {
    return readPolicy((this.stmt.aggregation.get(agentId) as string | null | undefined) ?? null);
  }

  /** Set or clear (null) the agent's own policy, stored as given (delivery/aggregation.ts normalizes it). Throws 404 agent_not_found. */
  setAggregation(agentId: string, policyJson: string | null): void {
    if (this.stmt.setAggregation.run(policyJson, agentId).changes === 0) throw errors.inboxAgentNotFound(agentId);
  }

  /** Called inside the delete transaction, before the agent row goes. */
  onDeleted(listener: (agentId: string) => void): void {
    this.deletedListeners.push(listener);
  }
}

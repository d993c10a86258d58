/**
 * Inbox agents (spec/inbox.md Agents; docs/inbox-api.md#routes): the recipients of subscriptions,
 * inbox entries, targets and timers. Separate from the control plane's agents; ids are generated
 * `agt_` ids, or chosen by the caller (AgentInbox's clients name their agents, e.g. `agent-alpha`)
 * within the control plane's agent id pattern.
 * Deleting one runs the `onDeleted` listeners inside the delete transaction, so subscriptions,
 * entries, targets and timers go with it atomically.
 *
 * Reading, watching or acknowledging an inbox marks its agent seen (`last_seen_ms`, written at most
 * once a minute), which keeps an offline agent from the lifecycle's removal (inbox/lifecycle.ts). As
 * on AgentInbox, a read of an id no agent holds opens that inbox: it is listed by `GET /status`
 * until an agent registers with the id (and takes it over) or the lifecycle closes it.
 */
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { isoAt, type Clock, errors, AGENT_ID_PATTERN, type IdGenerator } from '../../core/index.js';
import type { Store } from '../../store/index.js';
import type { AggregationPolicy } from '../types.js';
import { jsonReader, readInboxPolicy, type InboxPolicyInput } from './policy.js';

export interface InboxAgent {
  agentId: string;
  name: string | null;
  deliveryPaused: boolean;
  createdAt: string;
  /** When the agent last read, watched or acknowledged its inbox, or lost a target (at most a minute stale). */
  lastSeenAt: string;
  /** The agent's own aggregation policy; absent while it has none (the default applies). */
  aggregation?: AggregationPolicy;
}

/**
 * AgentInbox's inbox record of an agent (GET /agents/{id}/inbox `inbox`): every agent has one inbox,
 * named after it; the aggregation fields are its inbox policy as set (null, or false, when not set).
 */
export interface InboxRecord {
  inboxId: string;
  ownerAgentId: string;
  aggregationEnabled: boolean;
  aggregationWindowMs: number | null;
  aggregationMaxItems: number | null;
  aggregationMaxThreadAgeMs: number | null;
  createdAt: string;
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
export const readPolicy = jsonReader((raw) => raw as AggregationPolicy);

/** AgentInbox's id alphabet and token length (its src/util.ts). */
const ID_ALPHABET = '23456789abcdefghjkmnpqrstvwxyz';
const ID_TOKEN_LENGTH = 12;

/**
 * The id of an agent's inbox in AgentInbox's records (`inbox.inboxId`, `ownerAgentId`). svc keeps
 * one inbox per agent and no inbox row: the id is derived from the agent id (its SHA-256), so it is
 * stable and needs no storage, and it has AgentInbox's form: `inb_` + 12 characters of its alphabet.
 */
export function inboxIdOf(agentId: string): string {
  const digest = createHash('sha256').update(`inbox:${agentId}`).digest();
  let token = '';
  for (let i = 0; i < ID_TOKEN_LENGTH; i++) token += ID_ALPHABET[digest[i]! % ID_ALPHABET.length];
  return `inb_${token}`;
}

export const writePolicy = (p: AggregationPolicy | null): string | null => (p === null ? null : JSON.stringify(p));

/** How often a read writes the agent's last-seen time (reads in between leave it). */
const SEEN_RESOLUTION_MS = 60_000;
/** Ids whose last write `seen` remembers before it starts again. */
const SEEN_MEMORY_MAX = 10_000;

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
  inbox_policy: string | null;
  last_seen_ms: number | null;
}

interface OpenedRow {
  agent_id: string;
  created_at: string;
}

function toAgent(r: AgentRow): InboxAgent {
  const lastSeenAt = r.last_seen_ms === null ? r.created_at : isoAt(r.last_seen_ms);
  const agent: InboxAgent = { agentId: r.agent_id, name: r.name, deliveryPaused: r.delivery_paused === 1, createdAt: r.created_at, lastSeenAt };
  const aggregation = readPolicy(r.aggregation);
  if (aggregation) agent.aggregation = aggregation;
  return agent;
}

export class InboxAgents {
  private readonly deletedListeners: Array<(agentId: string) => void> = [];
  /** When this process last wrote each id's last-seen time: a read within the resolution writes nothing, and needs no transaction. */
  private readonly seenWritten = new Map<string, number>();
  private readonly stmt: Record<
    | 'insert'
    | 'get'
    | 'list'
    | 'remove'
    | 'setPaused'
    | 'setAggregation'
    | 'aggregation'
    | 'inboxPolicy'
    | 'setInboxPolicy'
    | 'seen'
    | 'open'
    | 'opened'
    | 'takeOver'
    | 'closeOpened',
    Database.Statement
  >;

  constructor(private readonly deps: InboxAgentsDeps) {
    const db = deps.store.db;
    this.stmt = {
      insert: db.prepare('INSERT INTO inbox_agents (agent_id, name, delivery_paused, created_at, aggregation, last_seen_ms) VALUES (?, ?, 0, ?, ?, ?)'),
      get: db.prepare('SELECT * FROM inbox_agents WHERE agent_id = ?'),
      list: db.prepare('SELECT * FROM inbox_agents ORDER BY created_at, rowid'),
      remove: db.prepare('DELETE FROM inbox_agents WHERE agent_id = ?'),
      setPaused: db.prepare('UPDATE inbox_agents SET delivery_paused = ? WHERE agent_id = ?'),
      setAggregation: db.prepare('UPDATE inbox_agents SET aggregation = ? WHERE agent_id = ?'),
      aggregation: db.prepare('SELECT aggregation FROM inbox_agents WHERE agent_id = ?').pluck(),
      inboxPolicy: db.prepare('SELECT inbox_policy FROM inbox_agents WHERE agent_id = ?').pluck(),
      setInboxPolicy: db.prepare('UPDATE inbox_agents SET inbox_policy = ? WHERE agent_id = ?'),
      // ? now, ? agent, ? a time before which the stored value is stale
      seen: db.prepare('UPDATE inbox_agents SET last_seen_ms = ? WHERE agent_id = ? AND (last_seen_ms IS NULL OR last_seen_ms <= ?)'),
      open: db.prepare(
        'INSERT INTO inbox_opened_inboxes (agent_id, created_at, last_seen_ms) VALUES (?, ?, ?) ON CONFLICT (agent_id) DO UPDATE SET last_seen_ms = excluded.last_seen_ms WHERE last_seen_ms <= ?',
      ),
      opened: db.prepare('SELECT agent_id, created_at FROM inbox_opened_inboxes ORDER BY created_at, agent_id'),
      takeOver: db.prepare('DELETE FROM inbox_opened_inboxes WHERE agent_id = ?'),
      closeOpened: db.prepare('DELETE FROM inbox_opened_inboxes WHERE last_seen_ms < ?'),
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
    const now = this.deps.clock.now();
    const createdAt = isoAt(now);
    this.stmt.takeOver.run(agentId);
    this.stmt.insert.run(agentId, input.name ?? null, createdAt, writePolicy(input.aggregation ?? null), now);
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
    // A read of the id now opens its inbox again.
    this.seenWritten.delete(agentId);
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

  /** The inbox policy fields the agent has set (null: none, or no such agent); read for every item of a grouping source. */
  inboxPolicyOf(agentId: string): InboxPolicyInput | null {
    return readInboxPolicy((this.stmt.inboxPolicy.get(agentId) as string | null | undefined) ?? null);
  }

  /** Store the agent's inbox policy fields (policy.ts merges them). Throws 404 agent_not_found. */
  setInboxPolicy(agentId: string, fields: InboxPolicyInput): void {
    if (this.stmt.setInboxPolicy.run(JSON.stringify(fields), agentId).changes === 0) throw errors.inboxAgentNotFound(agentId);
  }

  /** AgentInbox's inbox record of the agent. Throws 404 agent_not_found. */
  inbox(agentId: string): InboxRecord {
    const agent = this.get(agentId);
    return inboxRecord(agentId, this.inboxPolicyOf(agentId), agent.createdAt);
  }

  /**
   * The agent read, watched or acknowledged its inbox (or changed its targets: `force`, written at
   * once). An id no agent holds opens its inbox, if it is a valid agent id. Its own transaction.
   */
  seen(agentId: string, opts: { force?: boolean } = {}): void {
    const now = this.deps.clock.now();
    const stale = opts.force ? now : now - SEEN_RESOLUTION_MS;
    if ((this.seenWritten.get(agentId) ?? -Infinity) > stale) return;
    this.deps.store.tx(() => {
      if (this.stmt.seen.run(now, agentId, stale).changes > 0 || this.exists(agentId) || !AGENT_ID_PATTERN.test(agentId)) return;
      this.stmt.open.run(agentId, isoAt(now), now, stale);
    });
    // Bounded by the ids read within the resolution: older ones are dropped once it is large.
    if (this.seenWritten.size >= SEEN_MEMORY_MAX) this.seenWritten.clear();
    this.seenWritten.set(agentId, now);
  }

  /** Close the inboxes reads opened that nobody has read since `cutoff`; how many. Its own transaction. */
  closeOpened(cutoff: number): number {
    const closed = this.deps.store.tx(() => this.stmt.closeOpened.run(cutoff).changes);
    // A read of a closed one opens it again.
    if (closed > 0) this.seenWritten.clear();
    return closed;
  }

  /** The inboxes reads opened for ids no agent holds, as AgentInbox's inbox records. */
  openedInboxes(): InboxRecord[] {
    return (this.stmt.opened.all() as OpenedRow[]).map((r) => inboxRecord(r.agent_id, null, r.created_at));
  }

  /** Called inside the delete transaction, before the agent row goes. */
  onDeleted(listener: (agentId: string) => void): void {
    this.deletedListeners.push(listener);
  }
}

function inboxRecord(agentId: string, p: InboxPolicyInput | null, createdAt: string): InboxRecord {
  return {
    inboxId: inboxIdOf(agentId),
    ownerAgentId: agentId,
    aggregationEnabled: p?.enabled ?? false,
    aggregationWindowMs: p?.windowMs ?? null,
    aggregationMaxItems: p?.maxItems ?? null,
    aggregationMaxThreadAgeMs: p?.maxThreadAgeMs ?? null,
    createdAt,
  };
}

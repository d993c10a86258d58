/**
 * Agents (docs/control-plane-api.md#agents): identity with incarnations, display name, lineage,
 * visibility, status, model override, and the post-create bootstrap (agent home, template files,
 * workspace binding, the template's initial message) that `repair` can retry without touching
 * identity (spec "Control plane", repair row).
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { isoAt, type Clock, errors, AGENT_ID_PATTERN, deriveProvenance } from '../../core/index.js';
import type { EventLog } from '../../events/index.js';
import { type Store, TxCache } from '../../store/index.js';
import { applyTemplate, initialMessageOf, templateExists } from './agent-templates.js';
import type { MessageQueue } from './queue.js';

export type AgentStatus = 'idle' | 'running' | 'stopped' | 'deleting';
export type Visibility = 'public' | 'private';

export interface AgentRecord {
  agent_id: string;
  display_name: string;
  incarnation: number;
  status: AgentStatus;
  template: string | null;
  parent_agent_id: string | null;
  visibility: Visibility;
  model_override: string | null;
  bootstrap: Record<BootstrapStep, boolean>;
  created_at: string;
  updated_at: string;
}

/** Post-create bootstrap steps, in order. */
export const BOOTSTRAP_STEPS = ['home_dir', 'template', 'workspace', 'initial_message'] as const;
export type BootstrapStep = (typeof BOOTSTRAP_STEPS)[number];

/**
 * Steps added after agents already existed. A stored bootstrap record without such a step's key
 * belongs to an agent created before the step existed, so the step counts as done for it: an
 * upgrade never enqueues a surprise initial message into an existing agent, even on repair.
 */
const STEPS_ADDED_LATER: ReadonlySet<BootstrapStep> = new Set(['initial_message']);

export interface CreateAgentInput {
  template?: string | null | undefined;
  display_name?: string | undefined;
  parent_agent_id?: string | null | undefined;
  visibility?: Visibility | undefined;
}

export interface AgentsDeps {
  store: Store;
  clock: Clock;
  events: EventLog;
  queue: MessageQueue;
  homeDir: string;
  defaultAgentId: string;
  defaultModel: () => string;
}

interface AgentRow extends Omit<AgentRecord, 'bootstrap'> {
  bootstrap: string;
}

export class AgentService {
  private readonly stmt;
  /** Status per agent id (null: no such agent), read by every enqueue. */
  private readonly statuses: TxCache<AgentStatus | null>;
  /** Visibility per agent id (null: no such agent); it never changes while the agent exists. */
  private readonly visibilities: TxCache<Visibility | null>;

  constructor(private readonly deps: AgentsDeps) {
    const db: Database.Database = deps.store.db;
    this.statuses = new TxCache(deps.store);
    this.visibilities = new TxCache(deps.store);
    this.stmt = {
      get: db.prepare('SELECT * FROM agents WHERE agent_id = ?'),
      all: db.prepare('SELECT * FROM agents ORDER BY created_at, agent_id'),
      insert: db.prepare(
        `INSERT INTO agents (agent_id, display_name, incarnation, status, template, parent_agent_id, visibility, model_override, bootstrap, created_at, updated_at)
         VALUES (@agent_id, @display_name, @incarnation, @status, @template, @parent_agent_id, @visibility, @model_override, @bootstrap, @created_at, @updated_at)`,
      ),
      lastIncarnation: db.prepare('SELECT last_incarnation FROM agent_incarnations WHERE agent_id = ?'),
      upsertIncarnation: db.prepare(
        'INSERT INTO agent_incarnations (agent_id, last_incarnation) VALUES (?, ?) ON CONFLICT(agent_id) DO UPDATE SET last_incarnation = excluded.last_incarnation',
      ),
      setName: db.prepare('UPDATE agents SET display_name = ?, updated_at = ? WHERE agent_id = ?'),
      setStatus: db.prepare('UPDATE agents SET status = ?, updated_at = ? WHERE agent_id = ?'),
      setBootstrap: db.prepare('UPDATE agents SET bootstrap = ?, updated_at = ? WHERE agent_id = ?'),
      setModel: db.prepare('UPDATE agents SET model_override = ?, updated_at = ? WHERE agent_id = ?'),
      remove: db.prepare('DELETE FROM agents WHERE agent_id = ?'),
      children: db.prepare('SELECT agent_id, visibility FROM agents WHERE parent_agent_id = ?'),
      count: db.prepare('SELECT count(*) AS n FROM agents'),
      status: db.prepare('SELECT status FROM agents WHERE agent_id = ?').pluck(),
      visibility: db.prepare('SELECT visibility FROM agents WHERE agent_id = ?').pluck(),
    };
  }

  get defaultAgentId(): string {
    return this.deps.defaultAgentId;
  }

  find(agentId: string): AgentRecord | null {
    const row = this.stmt.get.get(agentId) as AgentRow | undefined;
    return row ? fromRow(row) : null;
  }

  /** The agent, or 404 agent_not_found. */
  get(agentId: string): AgentRecord {
    const agent = this.find(agentId);
    if (!agent) throw errors.agentNotFound(agentId);
    return agent;
  }

  /** The agent, refusing one that is being deleted (409 agent_deleting): for every mutation. */
  getWritable(agentId: string): AgentRecord {
    const agent = this.get(agentId);
    if (agent.status === 'deleting') throw errors.agentDeleting(agentId);
    return agent;
  }

  /** Throws unless the agent exists and is not being deleted; cheap (no row read). */
  assertWritable(agentId: string): void {
    const status = this.statuses.get(agentId, () => (this.stmt.status.get(agentId) as AgentStatus | undefined) ?? null);
    if (status === null) throw errors.agentNotFound(agentId);
    if (status === 'deleting') throw errors.agentDeleting(agentId);
  }

  list(): AgentRecord[] {
    return (this.stmt.all.all() as AgentRow[]).map(fromRow);
  }

  count(): number {
    return (this.stmt.count.get() as { n: number }).n;
  }

  homeOf(agentId: string): string {
    return path.join(this.deps.homeDir, 'agents', agentId);
  }

  effectiveModel(agent: AgentRecord): string {
    return agent.model_override ?? this.deps.defaultModel();
  }

  /** Create the default agent on first start (and re-bootstrap it if that was interrupted). */
  ensureDefault(): AgentRecord {
    const existing = this.find(this.deps.defaultAgentId);
    if (existing) return existing;
    return this.create(this.deps.defaultAgentId, {}).agent;
  }

  /**
   * Create an agent (idempotent for an active agent). A completed deletion means a new
   * incarnation; a deletion in flight or failed refuses with 409 deletion_incomplete.
   */
  create(agentId: string, input: CreateAgentInput, deletionJobOf?: (id: string) => string | null): { created: boolean; agent: AgentRecord } {
    if (!AGENT_ID_PATTERN.test(agentId)) throw errors.invalidAgentId(agentId);
    const template = input.template ?? null;
    if (template !== null && !templateExists(this.deps.homeDir, template)) throw errors.templateNotFound(template);
    const outcome = this.deps.store.tx(() => {
      const existing = this.find(agentId);
      if (existing) {
        if (existing.status === 'deleting') throw errors.deletionIncomplete(agentId, deletionJobOf?.(agentId) ?? null);
        return { created: false, agent: existing };
      }
      const parent = input.parent_agent_id ?? null;
      if (parent !== null && !this.find(parent)) throw errors.parentNotFound(parent);
      const last = (this.stmt.lastIncarnation.get(agentId) as { last_incarnation: number } | undefined)?.last_incarnation ?? 0;
      const now = isoAt(this.deps.clock.now());
      const agent: AgentRecord = {
        agent_id: agentId,
        display_name: input.display_name?.trim() || agentId,
        incarnation: last + 1,
        status: 'idle',
        template,
        parent_agent_id: parent,
        visibility: input.visibility ?? 'public',
        model_override: null,
        bootstrap: { home_dir: false, template: false, workspace: false, initial_message: false },
        created_at: now,
        updated_at: now,
      };
      this.stmt.insert.run({ ...agent, bootstrap: JSON.stringify(agent.bootstrap) });
      this.statuses.set(agentId, agent.status);
      this.stmt.upsertIncarnation.run(agentId, agent.incarnation);
      this.deps.events.append(agentId, 'agent_created', {
        agent_id: agentId,
        incarnation: agent.incarnation,
        display_name: agent.display_name,
        template,
        parent_agent_id: parent,
        visibility: agent.visibility,
      });
      return { created: true, agent };
    });
    if (!outcome.created) return outcome;
    return { created: true, agent: this.bootstrap(agentId).agent };
  }

  /**
   * Run the bootstrap steps that have not completed yet; each step is idempotent, so `repair`
   * simply calls this again. A failing step stops the run and stays pending. A step with a
   * database effect (the initial message) commits it together with the bootstrap record that
   * marks it done, so a crash can never apply it twice.
   */
  bootstrap(agentId: string): { agent: AgentRecord; completed: BootstrapStep[]; pending: BootstrapStep[]; error: string | null } {
    const agent = this.getWritable(agentId);
    let state = { ...agent.bootstrap };
    let unsaved = false;
    const save = (next: Record<BootstrapStep, boolean>) => this.stmt.setBootstrap.run(JSON.stringify(next), isoAt(this.deps.clock.now()), agentId);
    const completed: BootstrapStep[] = [];
    let error: string | null = null;
    for (const step of BOOTSTRAP_STEPS) {
      if (state[step]) continue;
      try {
        const effect = this.runStep(agent, step);
        const next = { ...state, [step]: true };
        if (effect) {
          this.deps.store.tx(() => {
            // Read again inside the transaction: the step's effect happens at most once.
            if (!this.get(agentId).bootstrap[step]) effect();
            save(next);
          });
          unsaved = false;
        } else {
          unsaved = true;
        }
        state = next;
        completed.push(step);
      } catch (err) {
        error = `${step}: ${(err as Error).message}`;
        break;
      }
    }
    if (unsaved) save(state);
    const pending = BOOTSTRAP_STEPS.filter((s) => !state[s]);
    return { agent: { ...agent, bootstrap: state }, completed, pending, error };
  }

  repair(agentId: string) {
    const result = this.bootstrap(agentId);
    if (result.completed.length > 0) {
      this.deps.store.tx(() =>
        this.deps.events.append(agentId, 'agent_repaired', { agent_id: agentId, completed: result.completed, pending: result.pending }),
      );
    }
    return result;
  }

  rename(agentId: string, name: string): AgentRecord {
    const trimmed = name.trim();
    if (!trimmed) throw errors.emptyName();
    return this.deps.store.tx(() => {
      const agent = this.getWritable(agentId);
      // spec "Control plane": renames the display name of a public self-owned agent.
      if (agent.visibility !== 'public' || agent.parent_agent_id !== null) throw errors.agentNotRenamable(agentId);
      this.stmt.setName.run(trimmed, isoAt(this.deps.clock.now()), agentId);
      this.deps.events.append(agentId, 'agent_renamed', { agent_id: agentId, from: agent.display_name, to: trimmed });
      return { ...agent, display_name: trimmed };
    });
  }

  /** The agent's status from the transaction-safe cache (null: no such agent). */
  statusOf(agentId: string): AgentStatus | null {
    return this.statuses.get(agentId, () => (this.stmt.status.get(agentId) as AgentStatus | undefined) ?? null);
  }

  /** Whether the agent is private (a supervised child); cheap, cached. */
  isPrivate(agentId: string): boolean {
    return this.visibilities.get(agentId, () => (this.stmt.visibility.get(agentId) as Visibility | undefined) ?? null) === 'private';
  }

  /**
   * The agent as `viewerId` sees it: a public agent, the viewer itself, or a private agent the
   * viewer supervises (its parent). Any other private agent answers 404 agent_not_found, exactly
   * as an unknown id does, so another owner's private child is not revealed.
   */
  visibleTo(agentId: string, viewerId: string): AgentRecord {
    const agent = this.find(agentId);
    const hidden = agent?.visibility === 'private' && agent.agent_id !== viewerId && agent.parent_agent_id !== viewerId;
    if (!agent || hidden) throw errors.agentNotFound(agentId);
    return agent;
  }

  /** Set status; inside a transaction (the caller appends the event that explains it). */
  setStatus(agentId: string, status: AgentStatus): void {
    this.stmt.setStatus.run(status, isoAt(this.deps.clock.now()), agentId);
    this.statuses.set(agentId, status);
  }

  setModelOverride(agentId: string, model: string | null): void {
    this.stmt.setModel.run(model, isoAt(this.deps.clock.now()), agentId);
  }

  /** Remove the agent row (last step of deletion); the incarnation counter stays. */
  remove(agentId: string): void {
    this.stmt.remove.run(agentId);
    this.statuses.set(agentId, null);
    this.visibilities.delete(agentId);
  }

  children(agentId: string): Array<{ agent_id: string; visibility: Visibility }> {
    return this.stmt.children.all(agentId) as Array<{ agent_id: string; visibility: Visibility }>;
  }

  /** Ancestor ids, nearest parent first. */
  lineage(agent: AgentRecord): string[] {
    const out: string[] = [];
    let parent = agent.parent_agent_id;
    while (parent && !out.includes(parent)) {
      out.push(parent);
      parent = this.find(parent)?.parent_agent_id ?? null;
    }
    return out;
  }

  /** 404 template_not_found unless `name` is a template create would accept. */
  assertTemplate(name: string): void {
    if (!templateExists(this.deps.homeDir, name)) throw errors.templateNotFound(name);
  }

  /**
   * Do a step's file-system work; a step with a database effect returns it, to be run in the
   * transaction that records the step as done.
   */
  private runStep(agent: AgentRecord, step: BootstrapStep): (() => void) | null {
    const home = this.homeOf(agent.agent_id);
    switch (step) {
      case 'home_dir':
        fs.mkdirSync(home, { recursive: true, mode: 0o700 });
        return null;
      case 'template':
        if (agent.template) applyTemplate(this.deps.homeDir, agent.template, home);
        return null;
      case 'workspace':
        // The agent's home is its first workspace (`agent_home`); it must exist and be a directory.
        if (!fs.statSync(home).isDirectory()) throw new Error(`${home} is not a directory`);
        return null;
      case 'initial_message': {
        const template = agent.template;
        const text = template ? initialMessageOf(this.deps.homeDir, template) : null;
        if (text === null) return null;
        // A runtime-owned message, like the other messages the daemon produces for an agent.
        const provenance = deriveProvenance('runtime', { kind: 'system', subsystem: 'bootstrap' }, { kind: 'internal_followup' });
        return () => {
          this.deps.queue.enqueue({ agentId: agent.agent_id, provenance, body: { type: 'text', text }, metadata: { bootstrap: true, template } });
        };
      }
    }
  }
}

function fromRow(row: AgentRow): AgentRecord {
  const stored = JSON.parse(row.bootstrap) as Partial<Record<BootstrapStep, boolean>>;
  const bootstrap = {} as Record<BootstrapStep, boolean>;
  for (const step of BOOTSTRAP_STEPS) bootstrap[step] = stored[step] ?? STEPS_ADDED_LATER.has(step);
  return { ...row, bootstrap };
}

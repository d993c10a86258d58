/**
 * Approval requests: a tool call the policy answered `ask` waits here for the operator. A request
 * is a durable row written in the turn's own transaction, with a `tool_approval_requested` event;
 * the turn waits (its row `waiting_approval`) until POST /api/control/agents/:id/approvals/:id
 * decides, the request's timeout denies it, or the turn ends otherwise (cancelled). The row keeps
 * what the turn needs to continue (`resume`), so a request pending at a restart is waited on again
 * by the resumed turn, and a decision taken meanwhile is found on the row.
 *
 * Deciding is the operator's alone: the routes are control-authorized and no tool reaches them.
 * `remember: always` puts an allow rule for the tool, at the turn's trust, first in the agent's
 * policy layer (or the argument patterns the operator gives).
 */
import type { Logger } from 'pino';
import { errors, isoAt, redactSecrets, type Clock, type IdGenerator, type TrustLevel } from '../../core/index.js';
import type { PolicyRule } from '../../config/index.js';
import type { EventLog } from '../../events/index.js';
import type { Store } from '../../store/index.js';
import type { AgentService } from '../agents/index.js';
import type { ResourceService } from '../deps.js';
import type { PolicyService } from '../policy/index.js';
import type { ApprovalDecision, ApprovalOutcome, ApprovalRecord, ApprovalRequest, ApprovalStatus, RememberScope, WaitingTurn } from './types.js';

export interface ApprovalDeps {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  events: EventLog;
  agents: AgentService;
  policy: PolicyService;
}

export interface DecideInput {
  decision: 'approve' | 'deny';
  remember?: RememberScope | undefined;
  note?: string | null | undefined;
  /** With remember `always`: the argument patterns of the rule (default: any arguments). */
  arguments?: Record<string, string> | undefined;
}

/** Pending approvals on the state page, newest first. */
const STATE_LIMIT = 20;
/** setTimeout's largest delay; a longer wait re-arms on wake-up. */
const MAX_DELAY_MS = 2_147_483_647;

interface Row {
  approval_id: string;
  agent_id: string;
  turn_id: string;
  tool_call_id: string;
  tool: string;
  arguments: string;
  classes: string;
  trust: string;
  tainted_by: string | null;
  status: ApprovalStatus;
  decision: string | null;
  requested_at: string;
  expires_at: string;
  decided_at: string | null;
}

const COLUMNS = 'approval_id, agent_id, turn_id, tool_call_id, tool, arguments, classes, trust, tainted_by, status, decision, requested_at, expires_at, decided_at';

export class ApprovalService implements ResourceService {
  private readonly stmt;
  private readonly waiters = new Map<string, Set<(o: ApprovalOutcome) => void>>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly listeners: Array<(a: ApprovalRecord) => void> = [];
  private readonly decidedListeners: Array<(a: ApprovalRecord) => void> = [];

  constructor(private readonly deps: ApprovalDeps) {
    const db = deps.store.db;
    this.stmt = {
      insert: db.prepare(
        `INSERT INTO approvals (${COLUMNS}, resume) VALUES (@approval_id, @agent_id, @turn_id, @tool_call_id, @tool, @arguments, @classes, @trust, @tainted_by, 'pending', NULL, @requested_at, @expires_at, NULL, @resume)`,
      ),
      get: db.prepare(`SELECT ${COLUMNS} FROM approvals WHERE approval_id = ?`),
      list: db.prepare(`SELECT ${COLUMNS} FROM approvals WHERE agent_id = ? ORDER BY requested_at DESC, approval_id DESC LIMIT ?`),
      listStatus: db.prepare(`SELECT ${COLUMNS} FROM approvals WHERE agent_id = ? AND status = ? ORDER BY requested_at DESC, approval_id DESC LIMIT ?`),
      pendingAll: db.prepare(`SELECT approval_id, expires_at FROM approvals WHERE status = 'pending'`),
      pendingOfTurn: db.prepare(`SELECT approval_id FROM approvals WHERE turn_id = ? AND status = 'pending'`),
      countPending: db.prepare(`SELECT count(*) FROM approvals WHERE agent_id = ? AND status = 'pending'`).pluck(),
      decide: db.prepare('UPDATE approvals SET status = ?, decision = ?, decided_at = ? WHERE approval_id = ? AND status = ?'),
      waiting: db.prepare(
        `SELECT a.approval_id, a.agent_id, a.turn_id, a.resume FROM approvals a JOIN turns t ON t.turn_id = a.turn_id
         WHERE t.status = 'waiting_approval' AND a.resume IS NOT NULL ORDER BY a.requested_at`,
      ),
      clearResume: db.prepare('UPDATE approvals SET resume = NULL WHERE approval_id = ?'),
      purge: db.prepare('DELETE FROM approvals WHERE agent_id = ?'),
    };
  }

  // --- the run loop's side ------------------------------------------------------------------------

  /** Inside the turn's transaction: a pending request and its event. */
  request(r: ApprovalRequest): ApprovalRecord {
    const now = this.deps.clock.now();
    const row: Row = {
      approval_id: this.deps.ids.make('approval'),
      agent_id: r.agentId,
      turn_id: r.turnId,
      tool_call_id: r.call.id,
      tool: r.call.name,
      arguments: JSON.stringify(redactSecrets(r.call.arguments)),
      classes: JSON.stringify(r.classes),
      trust: r.trust,
      tainted_by: r.taintedBy ? JSON.stringify(r.taintedBy) : null,
      status: 'pending',
      decision: null,
      requested_at: isoAt(now),
      expires_at: isoAt(now + r.timeoutS * 1000),
      decided_at: null,
    };
    this.stmt.insert.run({ ...row, resume: JSON.stringify(r.resume) });
    const record = toRecord(row);
    const { agent_id: _a, status: _s, decision: _d, decided_at: _t, ...shown } = record;
    this.deps.events.append(r.agentId, 'tool_approval_requested', shown);
    this.deps.store.afterCommit(() => {
      this.arm(row.approval_id, Date.parse(row.expires_at));
      for (const l of this.listeners) l(record);
    });
    return record;
  }

  /** The outcome of a request: at once when it is decided, else when it is (rejects when `signal` aborts). */
  wait(approvalId: string, signal: AbortSignal): Promise<ApprovalOutcome> {
    const row = this.stmt.get.get(approvalId) as Row | undefined;
    if (!row) return Promise.resolve({ approved: false, status: 'cancelled', remember: 'once', note: 'the approval request no longer exists' });
    if (row.status !== 'pending') return Promise.resolve(outcomeOf(toRecord(row)));
    return new Promise((resolve, reject) => {
      let set = this.waiters.get(approvalId);
      if (!set) this.waiters.set(approvalId, (set = new Set()));
      const settle = (o: ApprovalOutcome) => {
        signal.removeEventListener('abort', onAbort);
        resolve(o);
      };
      const onAbort = () => {
        set.delete(settle);
        const err = new Error('the run was aborted');
        err.name = 'AbortError';
        reject(err);
      };
      set.add(settle);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Inside a transaction: the turn has what it waited for; the request is no longer resumable. */
  consumed(approvalId: string): void {
    this.stmt.clearResume.run(approvalId);
  }

  /** Inside a transaction: the turn ended (stopped, failed): its pending requests are cancelled. */
  cancelTurn(agentId: string, turnId: string): void {
    for (const { approval_id } of this.stmt.pendingOfTurn.all(turnId) as Array<{ approval_id: string }>) {
      this.settle(agentId, approval_id, 'cancelled', { decision: 'deny', remember: 'once', note: 'the turn ended before a decision', by: 'cancelled' });
    }
  }

  /** Turns paused on an approval when the daemon stopped, oldest request first. */
  waitingTurns(): WaitingTurn[] {
    return (this.stmt.waiting.all() as Array<Omit<WaitingTurn, 'resume'> & { resume: string }>).map((r) => ({ ...r, resume: JSON.parse(r.resume) as unknown }));
  }

  /** Called after the commit of every new request (an inbox notification, the console). */
  onRequested(listener: (a: ApprovalRecord) => void): void {
    this.listeners.push(listener);
  }

  /** Called after the commit of every decision (approved, denied, expired, cancelled) with the decided record. */
  onDecided(listener: (a: ApprovalRecord) => void): void {
    this.decidedListeners.push(listener);
  }

  // --- the operator's side ------------------------------------------------------------------------

  list(agentId: string, opts: { status?: ApprovalStatus | undefined; limit?: number | undefined } = {}): ApprovalRecord[] {
    this.deps.agents.get(agentId);
    const limit = opts.limit ?? 100;
    const rows = (opts.status ? this.stmt.listStatus.all(agentId, opts.status, limit) : this.stmt.list.all(agentId, limit)) as Row[];
    return rows.map(toRecord);
  }

  get(agentId: string, approvalId: string): ApprovalRecord {
    const row = this.stmt.get.get(approvalId) as Row | undefined;
    if (!row || row.agent_id !== agentId) throw errors.approvalNotFound(approvalId, { agent_id: agentId });
    return toRecord(row);
  }

  pendingCount(agentId: string): number {
    return this.stmt.countPending.get(agentId) as number;
  }

  /** Decide a pending request (404 unknown, 409 decided); durable before it answers. */
  async decide(agentId: string, approvalId: string, input: DecideInput): Promise<ApprovalRecord> {
    return this.deps.store.write(() => {
      const current = this.get(agentId, approvalId);
      if (current.status !== 'pending') throw errors.approvalDecided(approvalId, current.status);
      const remember = input.remember ?? 'once';
      const decision: ApprovalDecision = { decision: input.decision, remember, note: input.note ?? null, by: 'operator' };
      if (input.decision === 'approve' && remember === 'always') {
        const rule: PolicyRule = { tool: current.tool, trust: [current.trust as TrustLevel], decision: 'allow', ...(input.arguments ? { arguments: input.arguments } : {}) };
        this.deps.policy.prependAgentRule(agentId, rule);
      }
      return this.settle(agentId, approvalId, input.decision === 'approve' ? 'approved' : 'denied', decision);
    });
  }

  /** Deny every pending request whose time has passed on the clock (the timers call it; tests may). */
  async expireDue(): Promise<number> {
    const now = this.deps.clock.now();
    const due = (this.stmt.pendingAll.all() as Array<{ approval_id: string; expires_at: string }>).filter((r) => Date.parse(r.expires_at) <= now);
    if (due.length === 0) return 0;
    return this.deps.store.write(() => {
      let n = 0;
      for (const { approval_id } of due) {
        const row = this.stmt.get.get(approval_id) as Row | undefined;
        if (row?.status !== 'pending') continue;
        this.settle(row.agent_id, approval_id, 'expired', { decision: 'deny', remember: 'once', note: 'no decision before the request expired', by: 'timeout' });
        n++;
      }
      return n;
    });
  }

  // --- lifecycle ----------------------------------------------------------------------------------

  start(): void {
    for (const r of this.stmt.pendingAll.all() as Array<{ approval_id: string; expires_at: string }>) this.arm(r.approval_id, Date.parse(r.expires_at));
  }

  stop(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  stopAgent(agentId: string): void {
    this.deps.store.tx(() => this.stmt.purge.run(agentId));
  }

  stateFor(agentId: string): Array<Pick<ApprovalRecord, 'approval_id' | 'turn_id' | 'tool' | 'classes' | 'trust' | 'requested_at' | 'expires_at'>> {
    return (this.stmt.listStatus.all(agentId, 'pending', STATE_LIMIT) as Row[]).map((r) => {
      const { approval_id, turn_id, tool, classes, trust, requested_at, expires_at } = toRecord(r);
      return { approval_id, turn_id, tool, classes, trust, requested_at, expires_at };
    });
  }

  // --- inside ------------------------------------------------------------------------------------

  /** Inside a transaction: record the decision and its event; waiters learn it after the commit. */
  private settle(agentId: string, approvalId: string, status: ApprovalStatus, decision: ApprovalDecision): ApprovalRecord {
    const decidedAt = isoAt(this.deps.clock.now());
    this.stmt.decide.run(status, JSON.stringify(decision), decidedAt, approvalId, 'pending');
    const record = toRecord(this.stmt.get.get(approvalId) as Row);
    this.deps.events.append(agentId, 'tool_approval_decided', {
      approval_id: approvalId,
      turn_id: record.turn_id,
      tool_call_id: record.tool_call_id,
      tool: record.tool,
      status,
      ...decision,
    });
    this.deps.store.afterCommit(() => {
      const t = this.timers.get(approvalId);
      if (t) clearTimeout(t);
      this.timers.delete(approvalId);
      const set = this.waiters.get(approvalId);
      this.waiters.delete(approvalId);
      for (const w of set ?? []) w(outcomeOf(record));
      for (const l of this.decidedListeners) l(record);
    });
    return record;
  }

  private arm(approvalId: string, at: number): void {
    const previous = this.timers.get(approvalId);
    if (previous) clearTimeout(previous);
    const delay = Math.max(0, Math.min(MAX_DELAY_MS, at - this.deps.clock.now()));
    const t = setTimeout(() => {
      this.timers.delete(approvalId);
      if (at - this.deps.clock.now() > 0) return this.arm(approvalId, at);
      this.expireDue().catch((err: unknown) => this.deps.logger.warn({ err, approval_id: approvalId }, 'an approval could not be expired; it is tried again at the next start'));
    }, delay);
    t.unref();
    this.timers.set(approvalId, t);
  }
}

function outcomeOf(r: ApprovalRecord): ApprovalOutcome {
  return { approved: r.status === 'approved', status: r.status, remember: r.decision?.remember ?? 'once', note: r.decision?.note ?? null };
}

function toRecord(row: Row): ApprovalRecord {
  return {
    ...row,
    arguments: JSON.parse(row.arguments) as Record<string, unknown>,
    classes: JSON.parse(row.classes) as ApprovalRecord['classes'],
    trust: row.trust as TrustLevel,
    tainted_by: row.tainted_by ? (JSON.parse(row.tainted_by) as ApprovalRecord['tainted_by']) : null,
    decision: row.decision ? (JSON.parse(row.decision) as ApprovalDecision) : null,
  };
}

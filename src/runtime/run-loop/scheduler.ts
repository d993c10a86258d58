/**
 * The scheduler: one worker per agent, one turn at a time, woken by the queue's after-commit
 * listener (no polling). A worker claims the next message in priority order (interject > next >
 * normal > background, FIFO inside) and runs its turn; the transaction that records a turn's end
 * (reply, brief, message outcome, events) also claims the next message, so a busy agent costs one
 * commit per message. Stopped (or deleting) agents take nothing. The agent status idle/running is
 * written in the transaction that claims (running) or finds the queue empty (idle).
 *
 * Start-up recovery: messages left `processing` by a daemon that died are requeued once
 * (`message_retried`) or, when that retry was already spent, failed with a reason
 * (`message_failed`); turns left `running` become `interrupted`. A completed message is never
 * claimed again: completion commits together with the turn's end.
 *
 * Shutdown aborts running turns without recording them: their messages stay `processing` and
 * are retried at the next start like a crash.
 *
 * A write the disk refuses (full, an I/O error) does not stop the worker: the same write is tried
 * again with backoff until it succeeds (write-retry.ts), so the agent answers its pending messages
 * once space is back, without a restart. Shutdown and deletion end that wait.
 */
import { errors, isoAt, type Priority } from '../../core/index.js';
import { provenanceOf, type Message } from '../agents/index.js';
import type { ResourceService } from '../deps.js';
import { Brake, limitsOf } from './brake.js';
import type { Compaction, CountedEntry } from './context-records.js';
import { specsOf } from './prompt.js';
import { currentTurnView, freshProgress, keepOnRollback, taintOf, TurnRunner, type AbortMode, type ActiveTurn, type TurnOutcome, type TurnResume } from './turn.js';
import type { BrakeTrip, RunLoopDeps } from './types.js';
import { WriteRetry } from './write-retry.js';

interface Worker {
  agentId: string;
  active: boolean;
  /** Something was queued while the worker was active: look again before going idle. */
  kicked: boolean;
  current: ActiveTurn | null;
  /** Compactions the operator asked for, run by the worker between turns. */
  compactions: Array<() => Promise<void>>;
  drive: Promise<void> | null;
  /** Aborted at shutdown or deletion: ends a write's retries (the worker's `signal`). */
  halt: AbortController;
  /** A turn paused on an approval when the daemon stopped, to continue before claiming anything. */
  resume: ActiveTurn | null;
}

export class Scheduler implements ResourceService {
  private readonly workers = new Map<string, Worker>();
  private readonly runner: TurnRunner;
  private readonly writes: WriteRetry;
  private readonly brake = new Brake();
  private stopping = false;

  /**
   * Take no messages from now on (tests of other services that inspect queued messages; the
   * daemon never calls it). Recovery at start still runs.
   */
  disable(): void {
    this.stopping = true;
  }

  /** Take messages again after disable(), starting with the agents that have some queued. */
  enable(): void {
    this.stopping = false;
    for (const agentId of this.deps.queue.agentsWithQueued()) this.kick(this.worker(agentId));
  }

  constructor(private readonly deps: RunLoopDeps) {
    this.writes = new WriteRetry(deps);
    this.runner = new TurnRunner(deps, this.writes);
    deps.queue.onQueued((agentId, priority) => this.onQueued(agentId, priority));
  }

  // --- lifecycle ---------------------------------------------------------------------------------

  start(): void {
    const { store, queue, agents, events, records, clock } = this.deps;
    const waiting = this.waitingTurns();
    const held = new Set(waiting.flatMap((t) => [t.message.message_id, ...t.interjected.map((m) => m.message_id)]));
    const busy = new Set(waiting.map((t) => t.agentId));
    store.tx(() => {
      const now = isoAt(clock.now());
      for (const t of records.interruptRunning(now)) {
        if (agents.statusOf(t.agent_id) === null) continue;
        events.append(t.agent_id, 'turn_interrupted', { turn_id: t.turn_id, message_id: t.message_id, reason: 'the daemon stopped during the turn' });
      }
      for (const m of queue.interrupted()) {
        if (held.has(m.message_id)) continue;
        const status = agents.statusOf(m.agent_id);
        if (status === null || status === 'deleting') continue;
        if (m.attempts <= 1) {
          queue.requeue(m.message_id, m.agent_id, m.priority);
          events.append(m.agent_id, 'message_retried', {
            message_id: m.message_id,
            attempts: m.attempts,
            reason: 'the daemon stopped while the message was being processed; retried once',
          });
        } else {
          const reason = `interrupted: the daemon stopped while processing it ${m.attempts} times; not retried again`;
          queue.finish(m.message_id, 'failed', reason);
          events.append(m.agent_id, 'message_failed', { message_id: m.message_id, attempts: m.attempts, reason });
        }
      }
      for (const a of agents.list()) if (a.status === 'running' && !busy.has(a.agent_id)) agents.setStatus(a.agent_id, 'idle');
    });
    for (const turn of waiting) {
      const w = this.worker(turn.agentId);
      w.resume = turn;
      w.current = turn;
      this.kick(w);
    }
    for (const agentId of queue.agentsWithQueued()) this.kick(this.worker(agentId));
  }

  /** Turns that waited for an approval when the daemon stopped, rebuilt to continue where they were. */
  private waitingTurns(): ActiveTurn[] {
    const { approvals, agents, queue, records, logger } = this.deps;
    const turns: ActiveTurn[] = [];
    for (const waiting of approvals?.waitingTurns() ?? []) {
      const record = records.getTurn(waiting.agent_id, waiting.turn_id);
      const message = record ? queue.get(record.message_id) : null;
      const agent = agents.find(waiting.agent_id);
      if (!record || !message || !agent || agent.status === 'deleting') {
        logger.warn({ agent_id: waiting.agent_id, turn_id: waiting.turn_id }, 'a turn waiting for an approval cannot be resumed; it is interrupted');
        this.deps.store.tx(() => records.setStatus(waiting.turn_id, 'running'));
        continue;
      }
      const r = waiting.resume as TurnResume;
      const turn = newTurn({
        turnId: record.turn_id,
        agentId: agent.agent_id,
        displayName: agent.display_name,
        supervisor: agent.visibility === 'private' ? agent.parent_agent_id : null,
        message,
        modelRef: record.model_ref,
        startedAt: record.started_at,
        trust: record.trust ?? message.trust,
        taintedBy: r.tainted_by,
      });
      // A request stored before a progress field existed resumes with that field fresh.
      turn.progress = { ...freshProgress(), ...r.progress, approvalId: waiting.approval_id };
      turn.round = r.progress.round;
      turn.entries = r.entries;
      turn.activitySeq = r.activity_seq;
      turn.interjected = r.interjected_ids.map((id) => queue.get(id)).filter((m): m is Message => m !== null);
      turns.push(turn);
    }
    return turns;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const drives: Promise<void>[] = [];
    for (const w of this.workers.values()) {
      w.halt.abort();
      if (w.current) this.abortTurn(w.current, 'shutdown', 'shutdown');
      if (w.drive) drives.push(w.drive);
    }
    await Promise.all(drives);
  }

  /** The agent is being deleted: drop its turn unrecorded, then its turns, history and briefs. */
  async stopAgent(agentId: string): Promise<void> {
    const w = this.workers.get(agentId);
    if (w) {
      w.halt.abort();
      if (w.current) this.abortTurn(w.current, 'deleted', 'deleted');
      if (w.drive) await w.drive;
      this.workers.delete(agentId);
    }
    this.deps.store.tx(() => {
      this.deps.records.purge(agentId);
      this.deps.context.purge(agentId);
      this.deps.briefs.deleteAgent(agentId);
    });
  }

  /** Prompt assembly (the benchmark times it). */
  get prompts() {
    return this.runner.prompts;
  }

  /** The run loop shows on the state page through `currentRun`, not as a list section. */
  stateFor(): unknown[] {
    return [];
  }

  // --- what control and the views use -------------------------------------------------------------

  current(agentId: string): ActiveTurn | null {
    return this.workers.get(agentId)?.current ?? null;
  }

  currentRun(agentId: string) {
    const t = this.current(agentId);
    return t ? currentTurnView(t) : null;
  }

  /** Writes of the run loop waiting to be tried again (the disk refused them). */
  get retryingWrites(): number {
    return this.writes.waiting;
  }

  /** Try again now every refused write whose backoff has passed on the clock (the timer does this; tests call it). */
  retryDue(): void {
    this.writes.retryDue();
  }

  /** Look for work now (control start: the operator resumed the agent, so the brake's counts start again). */
  kickAgent(agentId: string): void {
    this.brake.reset(agentId);
    this.deps.usage?.resume(agentId, this.deps.clock.now());
    if (!this.stopping) this.kick(this.worker(agentId));
  }

  /**
   * Compact the agent's history now (the operator asked: it keeps at most the last two entries).
   * Run by the agent's worker, so no turn starts meanwhile; an agent in a turn answers 409
   * `agent_in_turn`. Null when there was nothing to compact.
   */
  compact(agentId: string): Promise<Compaction | null> {
    const agent = this.deps.agents.get(agentId);
    const w = this.worker(agentId);
    if (w.current) throw errors.agentInTurn(agentId, w.current.turnId);
    return new Promise((resolve, reject) => {
      w.compactions.push(async () => {
        const modelRef = this.deps.agents.effectiveModel(agent);
        const subject = { agentId, displayName: agent.display_name, supervisor: agent.visibility === 'private' ? agent.parent_agent_id : null, modelRef };
        try {
          const specs = specsOf(await this.deps.tools.toolsFor(agentId));
          const tp = this.runner.prompts.prepare(subject, specs);
          const who = { agentId, signal: w.halt.signal };
          const request = { agentId, modelRef, historyBudget: this.runner.prompts.historyBudget(tp, []), requestBudget: tp.budget.prompt, force: true, turnId: null, signal: w.halt.signal };
          resolve(await this.runner.compactor.compact({ ...request, write: (fn) => this.writes.write(fn, who) }));
        } catch (err) {
          reject(err);
        }
      });
      this.kick(w);
    });
  }

  /** Abort the turn: the provider request and tool waits see the signal; resolves once its end is committed. */
  abortTurn(turn: ActiveTurn, mode: AbortMode, requested: string): Promise<void> {
    if (!turn.abortMode) {
      turn.abortMode = mode;
      turn.requestedMode = requested;
      turn.controller.abort();
    }
    return turn.done;
  }

  // --- the worker ---------------------------------------------------------------------------------

  private worker(agentId: string): Worker {
    let w = this.workers.get(agentId);
    if (!w) this.workers.set(agentId, (w = { agentId, active: false, kicked: false, current: null, compactions: [], drive: null, halt: new AbortController(), resume: null }));
    return w;
  }

  private onQueued(agentId: string, priority: Priority): void {
    if (this.stopping) return;
    const w = this.worker(agentId);
    if (priority === 'interject' && w.current) w.current.interjectPending = true;
    this.kick(w);
  }

  private kick(w: Worker): void {
    if (w.active) {
      w.kicked = true;
      return;
    }
    w.active = true;
    w.drive = this.drive(w).finally(() => {
      w.active = false;
      w.drive = null;
    });
  }

  private async drive(w: Worker): Promise<void> {
    const who = { agentId: w.agentId, signal: w.halt.signal };
    try {
      do {
        w.kicked = false;
        for (let job = w.compactions.shift(); job; job = w.compactions.shift()) await job();
        let turn = w.resume ?? (await this.writes.write(() => this.claim(w), who));
        w.resume = null;
        while (turn) {
          const outcome = await this.runner.run(turn);
          const t: ActiveTurn = turn;
          if (outcome.kind === 'aborted' && (t.abortMode === 'shutdown' || t.abortMode === 'deleted')) {
            // Not recorded: the message stays `processing` (retried at the next start) or is purged.
            w.current = null;
            t.settle();
            return;
          }
          turn = await this.writes.write(() => {
            this.finish(w, t, outcome);
            return this.claim(w);
          }, who);
        }
      } while (w.kicked && !this.stopping);
    } catch (err) {
      // Halted (shutdown, deletion) while a write waited: nothing recorded, as for a running turn.
      if (!w.halt.signal.aborted) this.deps.logger.error({ err, agent_id: w.agentId }, 'run loop worker failed; the agent resumes on its next message');
      w.current?.settle();
      w.current = null;
    }
  }

  /** Inside a transaction: claim the next message and open its turn, or go idle. */
  private claim(w: Worker): ActiveTurn | null {
    const { agents, queue, records, events, ids, clock, store, hub } = this.deps;
    if (this.stopping) return null;
    const status = agents.statusOf(w.agentId);
    if (status === null || status === 'deleting' || status === 'stopped') return null;
    const next = queue.peekNext(w.agentId);
    const limits = limitsOf(this.deps, w.agentId);
    const trip = next ? (this.brake.check(w.agentId, next, limits, clock.now()) ?? this.deps.usage?.budgetTrip(w.agentId, limits, clock.now()) ?? null) : null;
    if (trip) {
      this.pause(w.agentId, trip, { message_id: next!.message_id });
      return null;
    }
    const message = next ? queue.claimNext(w.agentId) : null;
    if (!message) {
      if (status === 'running') agents.setStatus(w.agentId, 'idle');
      return null;
    }
    const startedMs = clock.now();
    store.afterCommit(() => this.brake.started(w.agentId, message, startedMs));
    if (status !== 'running') agents.setStatus(w.agentId, 'running');
    const agent = agents.get(w.agentId);
    const turn = newTurn({
      turnId: ids.make('turn'),
      agentId: w.agentId,
      displayName: agent.display_name,
      supervisor: agent.visibility === 'private' ? agent.parent_agent_id : null,
      message,
      modelRef: agents.effectiveModel(agent),
      startedAt: isoAt(startedMs),
      trust: message.trust,
      taintedBy: taintOf(message),
    });
    records.insertTurn({ turn_id: turn.turnId, agent_id: w.agentId, message_id: message.message_id, model_ref: turn.modelRef, trust: turn.trust, tainted_by: message.message_id, started_at: turn.startedAt });
    events.append(w.agentId, 'turn_entry', {
      turn_id: turn.turnId,
      message_id: message.message_id,
      kind: message.kind,
      priority: message.priority,
      provenance: provenanceOf(message),
      trust: turn.trust,
      model_ref: turn.modelRef,
      attempt: message.attempts,
    });
    // Current from inside the transaction: a control stop group-committed in the same batch, right
    // after this claim, must see (and abort) the turn it opened, not miss it until the commit.
    // Rolled back, the turn being finished in the same transaction (if any) is current again.
    const previous = w.current;
    w.current = turn;
    store.onRollback(() => {
      if (w.current === turn) w.current = previous;
    });
    store.afterCommit(() => {
      if (hub.watched(w.agentId)) hub.publish(w.agentId, 'turn_started', { turn: currentTurnView(turn), kind: message.kind, priority: message.priority, model_ref: turn.modelRef, trust: turn.trust });
    });
    return turn;
  }

  /** Inside a transaction: record the turn's end, its brief, history and the messages' outcome. */
  private finish(w: Worker, turn: ActiveTurn, outcome: TurnOutcome): void {
    const { agents, queue, records, events, briefs, clock, store, hub } = this.deps;
    const now = isoAt(clock.now());
    keepOnRollback(store, turn);
    const messages: Message[] = [turn.message, ...turn.interjected];
    const base = { turn_id: turn.turnId, message_id: turn.message.message_id, trust: turn.trust };
    this.deps.approvals?.cancelTurn(turn.agentId, turn.turnId);
    this.deps.executions.interruptTurn(turn.turnId, now);
    const visible: CountedEntry[] = [];
    for (const e of turn.entries) {
      const tokens = this.deps.tokens.count(e.content, turn.modelRef);
      const messageId = e.message_id ?? turn.message.message_id;
      const seq = records.appendHistory(turn.agentId, e.role, e.content, turn.turnId, messageId, e.created_at, tokens);
      if (e.role !== 'tool') visible.push({ seq, role: e.role, content: e.content, turn_id: turn.turnId, message_id: messageId, created_at: e.created_at, tokens });
    }
    this.deps.context.added(turn.agentId, visible);
    let frame: 'turn_completed' | 'turn_failed' | 'turn_aborted';
    let frameData: Record<string, unknown>;
    if (outcome.kind === 'completed') {
      if (outcome.final) this.runner.roundRecords(turn, outcome.final, [], now);
      records.endTurn(turn.turnId, 'completed', outcome.rounds, now, null);
      const brief = briefs.create({ agentId: turn.agentId, kind: 'result', title: `Reply to ${turn.message.kind}`, text: outcome.text, turnId: turn.turnId, messageId: turn.message.message_id });
      for (const m of messages) {
        queue.finish(m.message_id, 'completed');
        events.append(turn.agentId, 'message_completed', { message_id: m.message_id, turn_id: turn.turnId });
      }
      const spent = this.deps.usage?.turnTokens(turn.turnId);
      events.append(turn.agentId, 'turn_completed', { ...base, rounds: outcome.rounds, brief_id: brief.brief_id, model_ref: turn.modelRef, interjected_message_ids: turn.interjected.map((m) => m.message_id), tokens: spent?.tokens ?? null, cost_usd: spent?.cost_usd ?? null });
      frame = 'turn_completed';
      frameData = { ...base, rounds: outcome.rounds, text: outcome.text, brief_id: brief.brief_id };
    } else if (outcome.kind === 'failed') {
      records.addActivity(turn.turnId, ++turn.activitySeq, 'failed', { reason: outcome.reason, failure_artifact: outcome.artifact }, now);
      records.endTurn(turn.turnId, 'failed', outcome.rounds, now, { reason: outcome.reason, failure_artifact: outcome.artifact });
      const brief = briefs.create({ agentId: turn.agentId, kind: 'failure', title: `Turn failed: ${outcome.artifact.kind}`, text: `The turn failed: ${outcome.artifact.summary}`, turnId: turn.turnId, messageId: turn.message.message_id, failureArtifact: outcome.artifact });
      for (const m of messages) {
        queue.finish(m.message_id, 'failed', outcome.reason);
        events.append(turn.agentId, 'message_failed', { message_id: m.message_id, turn_id: turn.turnId, reason: outcome.reason });
      }
      events.append(turn.agentId, 'turn_failed', { ...base, rounds: outcome.rounds, reason: outcome.reason, failure_artifact: outcome.artifact, brief_id: brief.brief_id, model_ref: turn.modelRef });
      frame = 'turn_failed';
      frameData = { ...base, reason: outcome.reason, failure_artifact: outcome.artifact, brief_id: brief.brief_id };
    } else {
      records.addActivity(turn.turnId, ++turn.activitySeq, 'aborted', { mode: outcome.mode, requested_mode: turn.requestedMode }, now);
      records.endTurn(turn.turnId, 'aborted', outcome.rounds, now, { reason: 'aborted' });
      for (const m of messages) {
        queue.finish(m.message_id, 'failed', 'aborted');
        events.append(turn.agentId, 'message_failed', { message_id: m.message_id, turn_id: turn.turnId, reason: 'aborted' });
      }
      frame = 'turn_aborted';
      frameData = { ...base, mode: outcome.mode };
    }
    if (outcome.kind === 'completed' && outcome.brake) this.pause(turn.agentId, outcome.brake, { turn_id: turn.turnId });
    if (turn.abortMode === 'stop_after_abort' || turn.abortMode === 'control_stop') {
      if (agents.statusOf(turn.agentId) !== 'stopped') agents.setStatus(turn.agentId, 'stopped');
      events.append(turn.agentId, 'run_aborted', {
        ...base,
        mode: turn.abortMode === 'control_stop' ? 'control_stop' : 'stop_after_abort',
        requested_mode: turn.requestedMode,
        outcome: outcome.kind,
      });
    }
    store.afterCommit(() => {
      if (w.current === turn) w.current = null;
      if (hub.watched(turn.agentId)) hub.publish(turn.agentId, frame, frameData);
      turn.settle();
    });
  }

  /** Inside a transaction: a brake limit was met: the agent stops, with a brief and `budget_exceeded`. */
  private pause(agentId: string, trip: BrakeTrip, at: Record<string, string>): void {
    const { agents, events, briefs } = this.deps;
    if (agents.statusOf(agentId) !== 'stopped') agents.setStatus(agentId, 'stopped');
    const what = BRAKE_WORDS[trip.limit];
    const text = `Paused: ${what} reached its limit (${trip.value} of ${trip.max}). Nothing more runs until an operator resumes the agent (control start); the limit is ${trip.limit} in the agent's policy.`;
    const brief = briefs.create({ agentId, kind: 'failure', title: `Paused: ${trip.limit}`, text, turnId: at.turn_id ?? null, messageId: at.message_id ?? null });
    events.append(agentId, 'budget_exceeded', { ...trip, ...at, status: 'stopped', brief_id: brief.brief_id });
  }
}

const BRAKE_WORDS: Record<BrakeTrip['limit'], string> = {
  turns_per_hour: 'the number of turns in the last hour',
  runtime_turns_in_a_row: 'the number of turns in a row answering only the runtime\'s own messages (task results, timers, follow-ups)',
  rounds_per_turn: 'the number of model rounds in one turn',
  tool_calls_per_turn: 'the number of tool calls in one turn',
  max_tokens_per_turn: 'the tokens used by one turn',
  max_tokens_per_day: 'the tokens used today (UTC)',
  max_cost_per_day: 'the cost of today\'s model rounds (USD, UTC day)',
};

function newTurn(t: Pick<ActiveTurn, 'turnId' | 'agentId' | 'displayName' | 'supervisor' | 'message' | 'modelRef' | 'startedAt' | 'trust' | 'taintedBy'>): ActiveTurn {
  let settle!: () => void;
  const done = new Promise<void>((resolve) => (settle = resolve));
  return {
    ...t,
    round: 0,
    controller: new AbortController(),
    abortMode: null,
    requestedMode: null,
    interjectPending: false,
    interjected: [],
    tools: [],
    progress: freshProgress(),
    entries: [],
    activitySeq: 0,
    streamed: '',
    done,
    settle,
  };
}

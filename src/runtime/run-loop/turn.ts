/**
 * One turn: the answer to one queued message. Model input = system prompt naming the agent +
 * the visible history (earlier user messages and final replies) + this message. Rounds call
 * `provider.complete` with the offered tools; each tool call is executed and its result fed back,
 * until the model answers without tool calls or the agent's `rounds_per_turn` is reached.
 *
 * Every tool call passes the policy (runtime/policy) at the turn's trust: the lowest trust among
 * the messages it answers, lowered further when an interjected message of lower trust joins it.
 * A denied call is a tool error the model reads; an `ask` writes an approval request
 * (runtime/approvals) with what the turn needs to continue, and the turn waits for the decision,
 * also across a restart (the scheduler resumes it). The brake's per-turn limits (rounds, tool
 * calls) end the turn with a `brake` the scheduler turns into a pause.
 *
 * Between rounds (after the tool results, before the next model call) is the safe point: an
 * `interject` message queued meanwhile is claimed there and joins this turn's input.
 *
 * Durable writes inside a turn happen only around tool calls (the round with its `tool_called`
 * events, then the results with any interjection); the final round, the reply, the brief and the
 * message outcome are written by the scheduler in the transaction that also claims the next
 * message. A write the disk refuses is tried again until it succeeds or the turn is aborted
 * (write-retry.ts). The runner never throws: every failure becomes an outcome.
 */
import { LIMIT_DEFAULTS, type PolicyLimits } from '../../config/index.js';
import { errors, isoAt, lowerTrust, type ToolClass, type TrustLevel } from '../../core/index.js';
import type { FailureArtifact } from '../channels/index.js';
import { ProviderError, type ChatMessage, type CompletionResult, type ToolCall } from '../providers/index.js';
import { provenanceOf, type Message } from '../agents/index.js';
import type { TaintSource } from '../approvals/index.js';
import type { PolicyVerdict } from '../policy/index.js';
import { refused, type Tool, type ToolOutcome } from '../tools/index.js';
import type { Store } from '../../store/index.js';
import { limitsOf } from './brake.js';
import { renderMessage, systemPrompt } from './render.js';
import type { BrakeTrip, RunLoopDeps } from './types.js';
import type { WriteRetry } from './write-retry.js';

/** Model rounds per turn at most by default; the last round's text is the reply even if it asked for tools. */
export const MAX_ROUNDS = LIMIT_DEFAULTS.rounds_per_turn;
/** Tool result text kept in events (the activity keeps it whole). */
const EVENT_TEXT_MAX = 2000;

export type AbortMode = 'stop_after_abort' | 'control_stop' | 'shutdown' | 'deleted';

export interface TranscriptEntry {
  role: 'user' | 'assistant' | 'tool';
  content: string;
  message_id: string | null;
  created_at: string;
}

/**
 * Where a turn is between model rounds and tool calls: enough to continue it, kept in the
 * approval request while the turn waits (JSON).
 */
export interface TurnProgress {
  /** This turn's part of the model input after the history: its message, rounds, tool results, interjections. */
  messages: ChatMessage[];
  /** The last round that asked for tools (0 before the first). */
  round: number;
  /** That round's calls while they run, and their results so far; null between rounds. */
  calls: ToolCall[] | null;
  results: ToolOutcome[];
  /** The approval request the current call waits for. */
  approvalId: string | null;
  /** Tools the operator approved for the rest of the turn (`remember: turn`). */
  approvedTools: string[];
  /** Tool calls the model asked for in this turn (the brake's `tool_calls_per_turn`). */
  toolCalls: number;
}

/** What a turn paused on an approval keeps in the request's row (the scheduler rebuilds the turn from it). */
export interface TurnResume {
  progress: TurnProgress;
  entries: TranscriptEntry[];
  activity_seq: number;
  interjected_ids: string[];
  tainted_by: TaintSource;
}

/** A turn in progress (in memory; its durable row is `turns`). */
export interface ActiveTurn {
  turnId: string;
  agentId: string;
  displayName: string;
  /** The parent supervising this agent (a private child), else null. */
  supervisor: string | null;
  message: Message;
  modelRef: string;
  startedAt: string;
  /** The lowest trust among the messages the turn answers: its tool calls are decided at it. */
  trust: TrustLevel;
  /** The message that set `trust`. */
  taintedBy: TaintSource;
  /** The tools offered to the model in this turn (asked once, when its rounds start). */
  tools: Tool[];
  progress: TurnProgress;
  round: number;
  controller: AbortController;
  abortMode: AbortMode | null;
  /** The abort mode as the caller spelled it (pause_after_abort is kept for the event). */
  requestedMode: string | null;
  /** Set when an interject message was queued during the turn (checked at the safe point). */
  interjectPending: boolean;
  interjected: Message[];
  entries: TranscriptEntry[];
  activitySeq: number;
  /** Text streamed in the current round. */
  streamed: string;
  /** Resolves once the turn's outcome is committed. */
  done: Promise<void>;
  settle: () => void;
}

export interface FinalRound {
  round: number;
  text: string;
  stopReason: string;
  usage: CompletionResult['usage'] | null;
}

export type TurnOutcome =
  | { kind: 'completed'; rounds: number; text: string; final: FinalRound; brake?: BrakeTrip }
  | { kind: 'failed'; rounds: number; reason: string; artifact: FailureArtifact }
  | { kind: 'aborted'; rounds: number; mode: AbortMode };

export function currentTurnView(t: ActiveTurn) {
  return { turn_id: t.turnId, message_id: t.message.message_id, status: t.progress.approvalId ? ('waiting_approval' as const) : ('running' as const), round: t.round, trust: t.trust, started_at: t.startedAt };
}

export function taintOf(m: Message): TaintSource {
  return { message_id: m.message_id, kind: m.kind, origin: m.origin as unknown as Record<string, unknown>, trust: m.trust };
}

export function freshProgress(): TurnProgress {
  return { messages: [], round: 0, calls: null, results: [], approvalId: null, approvedTools: [], toolCalls: 0 };
}

/** Inside a turn's write: a message of lower trust joined the turn, so the turn's trust goes down. */
export function lowerTurnTrust(turn: ActiveTurn, m: Message, setTrust: (turnId: string, trust: TrustLevel, by: string) => void): void {
  const trust = lowerTrust(turn.trust, m.trust);
  if (trust === turn.trust) return;
  turn.trust = trust;
  turn.taintedBy = taintOf(m);
  setTrust(turn.turnId, trust, m.message_id);
}

/**
 * Inside a turn's write: if it rolls back (to be tried again), the turn's counters are as before
 * it, so a retried write numbers its activities as the first attempt would have.
 */
export function keepOnRollback(store: Store, turn: ActiveTurn): void {
  const { activitySeq, interjectPending, trust, taintedBy } = turn;
  store.onRollback(() => {
    turn.activitySeq = activitySeq;
    turn.interjectPending = interjectPending;
    turn.trust = trust;
    turn.taintedBy = taintedBy;
  });
}

export class TurnRunner {
  constructor(
    private readonly deps: RunLoopDeps,
    private readonly writes: WriteRetry,
  ) {}

  /** A write of this turn, tried again while the disk refuses it, until the turn is aborted. */
  private write<T>(turn: ActiveTurn, fn: () => T): Promise<T> {
    return this.writes.write(() => {
      keepOnRollback(this.deps.store, turn);
      return fn();
    }, { agentId: turn.agentId, signal: turn.controller.signal });
  }

  /** The skills section of the system prompt; a library that cannot be read costs the turn nothing. */
  private skillSection(agentId: string): string {
    try {
      return this.deps.skillPrompt?.(agentId) ?? '';
    } catch (err) {
      this.deps.logger.warn({ err, agent_id: agentId }, 'skills could not be listed for the system prompt');
      return '';
    }
  }

  /** Run the turn to its outcome (never throws). `history` is the visible history, oldest first. */
  async run(turn: ActiveTurn, history: ChatMessage[]): Promise<TurnOutcome> {
    const { tracer } = this.deps;
    const attrs = { 'svc.agent_id': turn.agentId, 'svc.turn_id': turn.turnId, 'svc.model_ref': turn.modelRef };
    const body = () => this.rounds(turn, history);
    try {
      return tracer ? await tracer.trace('turn', attrs, body, null) : await body();
    } catch (err) {
      return this.outcomeOf(turn, err);
    }
  }

  private async rounds(turn: ActiveTurn, history: ChatMessage[]): Promise<TurnOutcome> {
    const { providers, hub } = this.deps;
    const resolved = providers.resolve(turn.modelRef);
    if (!resolved) {
      throw new ProviderError('runtime', 'unknown_provider', `no provider for model ${JSON.stringify(turn.modelRef)}`);
    }
    const { provider, model } = resolved;
    const signal = turn.controller.signal;
    const p = turn.progress;
    const limits = limitsOf(this.deps, turn.agentId);
    if (p.messages.length === 0) {
      const input = renderMessage(turn.message);
      p.messages.push({ role: 'user', content: input });
      this.entry(turn, 'user', input, turn.message.message_id);
    }
    const tools = (turn.tools = await this.deps.tools.toolsFor(turn.agentId));
    const specs = tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
    const system = systemPrompt({ agent_id: turn.agentId, display_name: turn.displayName, supervisor: turn.supervisor }, this.skillSection(turn.agentId));
    // Resumed while a round's calls were running (a decision awaited across a restart).
    if (p.calls) await this.runCalls(turn);
    for (let round = p.round + 1; ; round++) {
      turn.round = round;
      turn.streamed = '';
      const result = await this.span('provider.round', { 'svc.round': round, 'svc.model_ref': turn.modelRef }, () =>
        abortable(
          provider.complete({
            model,
            system,
            messages: [...history, ...p.messages],
            tools: specs,
            signal,
            onDelta: (d) => {
              if (d.type === 'text') turn.streamed += d.text;
              hub.publish(turn.agentId, d.type === 'text' ? 'text_delta' : 'thought_delta', { turn_id: turn.turnId, round, text: d.text });
            },
          }),
          signal,
        ),
      );
      const brake = result.toolCalls.length === 0 ? undefined : brakeOf(round, p.toolCalls + result.toolCalls.length, limits);
      if (result.toolCalls.length === 0 || brake) {
        this.entry(turn, 'assistant', result.text, null);
        const final = { round, text: result.text, stopReason: result.stopReason, usage: result.usage ?? null };
        return { kind: 'completed', rounds: round, text: result.text, final, ...(brake ? { brake } : {}) };
      }
      p.messages.push({ role: 'assistant', content: result.text, tool_calls: result.toolCalls });
      await this.recordRound(turn, round, result);
      p.round = round;
      p.calls = result.toolCalls;
      p.results = [];
      p.toolCalls += result.toolCalls.length;
      await this.runCalls(turn);
    }
  }

  /** The current round's calls from the first without a result, then the results' write and the safe point. */
  private async runCalls(turn: ActiveTurn): Promise<void> {
    const { hub } = this.deps;
    const p = turn.progress;
    const calls = p.calls!;
    const round = p.round;
    for (let i = p.results.length; i < calls.length; i++) {
      const call = calls[i]!;
      if (!p.approvalId) hub.publish(turn.agentId, 'tool_call', { turn_id: turn.turnId, round, tool_call_id: call.id, name: call.name, arguments: call.arguments });
      const outcome = await this.gatedCall(turn, call);
      p.results.push(outcome);
      p.messages.push({ role: 'tool', tool_call_id: call.id, name: call.name, content: outcome.content });
      this.entry(turn, 'tool', JSON.stringify({ tool_call_id: call.id, name: call.name, arguments: call.arguments, ok: outcome.ok, content: outcome.content }), null);
      hub.publish(turn.agentId, 'tool_result', { turn_id: turn.turnId, round, tool_call_id: call.id, name: call.name, ok: outcome.ok, content: outcome.content });
    }
    const admitted = await this.recordResultsAndSafePoint(turn, round, calls, p.results);
    p.calls = null;
    p.results = [];
    for (const m of admitted) {
      const content = renderMessage(m);
      p.messages.push({ role: 'user', content });
      this.entry(turn, 'user', content, m.message_id);
      hub.publish(turn.agentId, 'turn_interjected', { turn_id: turn.turnId, round, message_id: m.message_id, kind: m.kind, priority: m.priority, turn_trust: turn.trust });
    }
  }

  /** One call through the policy: run it, refuse it, or ask the operator and wait for the decision. */
  private async gatedCall(turn: ActiveTurn, call: ToolCall): Promise<ToolOutcome> {
    const { policy, approvals } = this.deps;
    const tool: Tool | undefined = turn.tools.find((t) => t.name === call.name);
    if (!tool) return { ok: false, content: `unknown tool ${JSON.stringify(call.name)}` };
    const classes: ToolClass[] = [tool.class, ...(tool.extraClasses?.(call.arguments) ?? [])];
    const p = turn.progress;
    if (!policy || !approvals) return this.callTool(turn, tool, call, classes);
    if (!p.approvalId) {
      const verdict = policy.decide(turn.agentId, { tool: call.name, classes, arguments: call.arguments }, turn.trust);
      if (verdict.decision === 'allow' || (verdict.decision === 'ask' && p.approvedTools.includes(call.name))) return this.callTool(turn, tool, call, verdict.classes);
      if (verdict.decision === 'deny') return refusal(call.name, `the policy denies ${verdict.classes.join('+')} calls at trust ${turn.trust}`, verdict);
      await this.write(turn, () => {
        const seq = ++turn.activitySeq;
        const request = approvals.request({
          agentId: turn.agentId,
          turnId: turn.turnId,
          call,
          classes: verdict.classes,
          trust: turn.trust,
          taintedBy: turn.taintedBy,
          timeoutS: verdict.timeoutS,
          resume: resumeOf(turn),
        });
        this.deps.records.setStatus(turn.turnId, 'waiting_approval');
        // Nothing runs while the operator decides: the agent is idle until the turn goes on.
        if (this.deps.agents.statusOf(turn.agentId) === 'running') this.deps.agents.setStatus(turn.agentId, 'idle');
        this.deps.records.addActivity(turn.turnId, seq, 'approval_requested', { approval_id: request.approval_id, tool_call_id: call.id, tool: call.name }, isoAt(this.deps.clock.now()));
        p.approvalId = request.approval_id;
        this.deps.store.onRollback(() => (p.approvalId = null));
      });
    }
    const approvalId = p.approvalId!;
    const outcome = await approvals.wait(approvalId, turn.controller.signal);
    await this.write(turn, () => {
      approvals.consumed(approvalId);
      this.deps.records.setStatus(turn.turnId, 'running');
      if (this.deps.agents.statusOf(turn.agentId) === 'idle') this.deps.agents.setStatus(turn.agentId, 'running');
    });
    p.approvalId = null;
    if (!outcome.approved) {
      const why = outcome.status === 'expired' ? 'no decision came before the approval request expired' : `the operator denied it${outcome.note ? `: ${outcome.note}` : ''}`;
      return refusal(call.name, why, { approval_id: approvalId, status: outcome.status });
    }
    if (outcome.remember === 'turn') p.approvedTools.push(call.name);
    return this.callTool(turn, tool, call, classes);
  }

  private async callTool(turn: ActiveTurn, tool: Tool, call: ToolCall, classes: readonly ToolClass[]): Promise<ToolOutcome> {
    const signal = turn.controller.signal;
    const ctx = { agentId: turn.agentId, turnId: turn.turnId, messageId: turn.message.message_id, signal, trust: turn.trust, network: classes.includes('network') };
    try {
      return await this.span('tool.call', { 'svc.tool': call.name, 'svc.turn_id': turn.turnId }, () => abortable(tool.execute(ctx, call.arguments), signal));
    } catch (err) {
      if (signal.aborted) throw err;
      return { ok: false, content: `tool ${call.name} failed: ${(err as Error).message ?? String(err)}` };
    }
  }

  /** The round that asked for tools: its activity, `model_round`, and a `tool_called` per call. */
  private recordRound(turn: ActiveTurn, round: number, result: CompletionResult): Promise<void> {
    const { events, records } = this.deps;
    return this.write(turn, () => {
      const now = this.now();
      records.setRounds(turn.turnId, round);
      this.roundRecords(turn, { round, text: result.text, stopReason: result.stopReason, usage: result.usage ?? null }, result.toolCalls, now);
      for (const call of result.toolCalls) {
        const payload = { turn_id: turn.turnId, round, tool_call_id: call.id, name: call.name, arguments: call.arguments };
        records.addActivity(turn.turnId, ++turn.activitySeq, 'tool_call', payload, now);
        events.append(turn.agentId, 'tool_called', payload);
      }
    });
  }

  /** The round activity and `model_round` event (also written for the final round by the scheduler). */
  roundRecords(turn: ActiveTurn, r: FinalRound, calls: ToolCall[], now: string): void {
    const payload = {
      turn_id: turn.turnId,
      round: r.round,
      stop_reason: r.stopReason,
      text: r.text,
      tool_calls: calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })),
      usage: r.usage,
    };
    this.deps.records.addActivity(turn.turnId, ++turn.activitySeq, 'model_round', payload, now);
    this.deps.events.append(turn.agentId, 'model_round', {
      turn_id: turn.turnId,
      round: r.round,
      stop_reason: r.stopReason,
      text_chars: r.text.length,
      tool_calls: calls.length,
      usage: r.usage,
    });
  }

  /**
   * Tool results (activities + `tool_result`), then the safe point: every `interject` message
   * queued for the agent is claimed into this turn (`turn_interjected`), in the same transaction.
   */
  private recordResultsAndSafePoint(turn: ActiveTurn, round: number, calls: ToolCall[], results: ToolOutcome[]): Promise<Message[]> {
    const { store, events, records, queue } = this.deps;
    return this.write(turn, () => {
      const now = this.now();
      calls.forEach((call, i) => {
        const r = results[i]!;
        records.addActivity(turn.turnId, ++turn.activitySeq, 'tool_result', { turn_id: turn.turnId, round, tool_call_id: call.id, name: call.name, ok: r.ok, content: r.content, data: r.data ?? null }, now);
        events.append(turn.agentId, 'tool_result', { turn_id: turn.turnId, round, tool_call_id: call.id, name: call.name, arguments: call.arguments, ok: r.ok, content: clip(r.content) });
      });
      const admitted: Message[] = [];
      if (!turn.interjectPending || turn.controller.signal.aborted) return admitted;
      turn.interjectPending = false;
      for (let m = queue.claimNext(turn.agentId, 'interject'); m; m = queue.claimNext(turn.agentId, 'interject')) {
        admitted.push(m);
        lowerTurnTrust(turn, m, (id, trust, by) => records.setTrust(id, trust, by));
        const payload = { turn_id: turn.turnId, round, message_id: m.message_id, kind: m.kind, priority: m.priority, provenance: provenanceOf(m), turn_trust: turn.trust };
        records.addActivity(turn.turnId, ++turn.activitySeq, 'interjected', payload, now);
        events.append(turn.agentId, 'turn_interjected', payload);
      }
      store.afterCommit(() => turn.interjected.push(...admitted));
      return admitted;
    });
  }

  private outcomeOf(turn: ActiveTurn, err: unknown): TurnOutcome {
    const rounds = turn.round;
    if (turn.controller.signal.aborted) return { kind: 'aborted', rounds, mode: turn.abortMode ?? 'stop_after_abort' };
    if (err instanceof ProviderError) {
      const resolved = this.deps.providers.resolve(turn.modelRef);
      return {
        kind: 'failed',
        rounds,
        reason: `${err.kind}: ${err.message}`,
        artifact: { category: err.category, kind: err.kind, summary: err.message, provider: resolved?.provider.name ?? providerOf(turn.modelRef), model_ref: turn.modelRef, status: err.status },
      };
    }
    const message = err instanceof Error ? err.message : String(err);
    this.deps.logger.warn({ agent_id: turn.agentId, turn_id: turn.turnId, err }, 'turn failed with an unexpected error');
    return {
      kind: 'failed',
      rounds,
      reason: `runtime_error: ${message}`,
      artifact: { category: 'runtime', kind: 'runtime_error', summary: message, provider: providerOf(turn.modelRef), model_ref: turn.modelRef, status: null },
    };
  }

  private entry(turn: ActiveTurn, role: TranscriptEntry['role'], content: string, messageId: string | null): void {
    turn.entries.push({ role, content, message_id: messageId, created_at: this.now() });
  }

  private span<T>(name: string, attrs: Record<string, string | number>, fn: () => Promise<T>): Promise<T> {
    return this.deps.tracer ? this.deps.tracer.trace(name, attrs, fn) : fn();
  }

  private now(): string {
    return isoAt(this.deps.clock.now());
  }
}

/** The brake's per-turn limits, checked when a round asks for tools. */
function brakeOf(round: number, toolCalls: number, limits: PolicyLimits): BrakeTrip | undefined {
  if (round >= limits.rounds_per_turn) return { limit: 'rounds_per_turn', value: round, max: limits.rounds_per_turn };
  if (toolCalls > limits.tool_calls_per_turn) return { limit: 'tool_calls_per_turn', value: toolCalls, max: limits.tool_calls_per_turn };
  return undefined;
}

/** A call the policy or the operator refused: a tool error the model reads and can react to. */
function refusal(tool: string, why: string, extra: Record<string, unknown> | PolicyVerdict): ToolOutcome {
  return refused(errors.toolDenied(tool, why, { ...extra }));
}

function resumeOf(turn: ActiveTurn): TurnResume {
  return {
    progress: { ...turn.progress, approvalId: null },
    entries: turn.entries,
    activity_seq: turn.activitySeq,
    interjected_ids: turn.interjected.map((m) => m.message_id),
    tainted_by: turn.taintedBy,
  };
}

function providerOf(modelRef: string): string | null {
  const slash = modelRef.indexOf('/');
  return slash > 0 ? modelRef.slice(0, slash) : null;
}

function clip(text: string): string {
  return text.length > EVENT_TEXT_MAX ? `${text.slice(0, EVENT_TEXT_MAX)}…` : text;
}

/** Settle with `p`, or reject as soon as `signal` aborts (a provider or tool that ignores it cannot hold the turn). */
export function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    p.catch(() => {});
    return Promise.reject(abortError());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError());
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

function abortError(): Error {
  const err = new Error('the run was aborted');
  err.name = 'AbortError';
  return err;
}

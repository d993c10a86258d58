/**
 * One turn: the answer to one queued message. Model input = the system prompt (the agent, its
 * skills, project instructions, pinned context, the summary of compacted history) + the newest
 * visible history that fits the model's budget (earlier user messages and final replies) + this
 * turn's messages (prompt.ts; compaction before the first round: compactor.ts). Rounds call
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
import { errors, isoAt, type ToolClass } from '../../core/index.js';
import { ProviderError, type CompletionResult, type ToolCall, type ToolSpec } from '../providers/index.js';
import { provenanceOf, type Message } from '../agents/index.js';
import type { PolicyVerdict } from '../policy/index.js';
import { refused, type Tool, type ToolOutcome } from '../tools/index.js';
import { limitsOf } from './brake.js';
import { capResult, classesOf } from './tool-results.js';
import { Compactor } from './compactor.js';
import { PromptBuilder, specsOf, type TurnPrompt } from './prompt.js';
import { renderMessage } from './render.js';
import type { BrakeTrip, RunLoopDeps } from './types.js';
import type { WriteRetry } from './write-retry.js';
import { keepOnRollback, lowerTurnTrust, type ActiveTurn, type FinalRound, type TranscriptEntry, type TurnOutcome, type TurnResume } from './active-turn.js';

export * from './active-turn.js';

/** Model rounds per turn at most by default; the last round's text is the reply even if it asked for tools. */
export const MAX_ROUNDS = LIMIT_DEFAULTS.rounds_per_turn;
/** Tool result text kept in events (the activity keeps it whole). */
const EVENT_TEXT_MAX = 2000;

export class TurnRunner {
  readonly prompts: PromptBuilder;
  readonly compactor: Compactor;

  constructor(
    private readonly deps: RunLoopDeps,
    private readonly writes: WriteRetry,
  ) {
    this.prompts = new PromptBuilder(deps);
    this.compactor = new Compactor(deps);
  }

  /** A write of this turn, tried again while the disk refuses it, until the turn is aborted. */
  private write<T>(turn: ActiveTurn, fn: () => T): Promise<T> {
    return this.writes.write(() => {
      keepOnRollback(this.deps.store, turn);
      return fn();
    }, { agentId: turn.agentId, signal: turn.controller.signal });
  }

  /** Run the turn to its outcome (never throws). */
  async run(turn: ActiveTurn): Promise<TurnOutcome> {
    const { tracer } = this.deps;
    const attrs = { 'svc.agent_id': turn.agentId, 'svc.turn_id': turn.turnId, 'svc.model_ref': turn.modelRef };
    const body = () => this.rounds(turn);
    try {
      return tracer ? await tracer.trace('turn', attrs, body, null) : await body();
    } catch (err) {
      return this.outcomeOf(turn, err);
    }
  }

  private async rounds(turn: ActiveTurn): Promise<TurnOutcome> {
    const { providers, hub } = this.deps;
    const resolved = providers.resolve(turn.modelRef);
    if (!resolved) {
      throw new ProviderError('runtime', 'unknown_provider', `no provider for model ${JSON.stringify(turn.modelRef)}`);
    }
    const { provider, model } = resolved;
    const signal = turn.controller.signal;
    const p = turn.progress;
    const limits = limitsOf(this.deps, turn.agentId);
    const fresh = p.messages.length === 0;
    if (fresh) {
      const input = renderMessage(turn.message);
      p.messages.push({ role: 'user', content: input });
      this.entry(turn, 'user', input, turn.message.message_id);
    }
    const tools = (turn.tools = await this.deps.tools.toolsFor(turn.agentId));
    const specs = specsOf(tools);
    const tp = fresh ? await this.compacted(turn, specs) : this.prompts.prepare(subjectOf(turn), specs);
    // Resumed while a round's calls were running (a decision awaited across a restart).
    if (p.calls) {
      const ending = await this.runCalls(turn, tp);
      if (ending) return { kind: 'completed', rounds: p.round, text: `Waiting: ${ending.content}`, final: null };
    }
    for (let round = p.round + 1; ; round++) {
      turn.round = round;
      turn.streamed = '';
      const prompt = this.prompts.messages(turn, tp, p.messages);
      const result = await this.span('provider.round', { 'svc.round': round, 'svc.model_ref': turn.modelRef }, () =>
        abortable(
          provider.complete({
            model,
            system: tp.system,
            messages: prompt.messages,
            tools: tp.tools,
            signal,
            onDelta: (d) => {
              if (d.type === 'text') turn.streamed += d.text;
              hub.publish(turn.agentId, d.type === 'text' ? 'text_delta' : 'thought_delta', { turn_id: turn.turnId, round, text: d.text });
            },
          }),
          signal,
        ),
      );
      const reported = result.usage?.input_tokens;
      if (reported) this.deps.tokens.observe(turn.modelRef, prompt.tokens / this.deps.tokens.factor(turn.modelRef), reported);
            // A round that asks for tools is where a runaway turn stops: the brake's per-turn limits, the
      // turn's token budget, and the day's budgets spent meanwhile (by this turn or another).
      const usage = this.deps.usage;
      const brake =
        result.toolCalls.length === 0
          ? undefined
          : (brakeOf(round, p.toolCalls + result.toolCalls.length, limits) ?? usage?.turnTrip(turn.turnId, limits, result.usage ?? null) ?? usage?.budgetTrip(turn.agentId, limits, this.deps.clock.now()) ?? undefined);
      if (result.toolCalls.length === 0 || brake) {
        this.entry(turn, 'assistant', result.text, null);
        const final = { round, text: result.text, stopReason: result.stopReason, usage: result.usage ?? null, promptTokens: prompt.tokens };
        return { kind: 'completed', rounds: round, text: result.text, final, ...(brake ? { brake } : {}) };
      }
      p.messages.push({ role: 'assistant', content: result.text, tool_calls: result.toolCalls });
      p.executionIds = await this.recordRound(turn, round, result, prompt.tokens);
      p.round = round;
      p.calls = result.toolCalls;
      p.results = [];
      p.durations = [];
      p.toolCalls += result.toolCalls.length;
      const ending = await this.runCalls(turn, tp);
      if (ending) {
        // A call ended the turn (wait_for): no further round; what the model said is the reply.
        const text = result.text.trim() !== '' ? result.text : `Waiting: ${ending.content}`;
        this.entry(turn, 'assistant', text, null);
        return { kind: 'completed', rounds: round, text, final: null };
      }
    }
  }

  /** A fresh turn's prompt, after compacting the history when it is due (compactor.ts). */
  private async compacted(turn: ActiveTurn, specs: ToolSpec[]): Promise<TurnPrompt> {
    const tp = this.prompts.prepare(subjectOf(turn), specs);
    const historyBudget = this.prompts.historyBudget(tp, turn.progress.messages);
    if (!this.compactor.due(turn.agentId, turn.modelRef, historyBudget)) return tp;
    const request = { agentId: turn.agentId, modelRef: turn.modelRef, historyBudget, requestBudget: tp.budget.prompt, force: false, turnId: turn.turnId, signal: turn.controller.signal };
    const done = await this.compactor.compact({ ...request, write: (fn) => this.write(turn, fn) });
    return done ? this.prompts.prepare(subjectOf(turn), specs) : tp;
  }

  /**
   * The current round's calls from the first without a result, then the results' write and the
   * safe point. Returns the outcome of a call that ends the turn (wait_for), if one did.
   */
  private async runCalls(turn: ActiveTurn, tp: TurnPrompt): Promise<ToolOutcome | undefined> {
    const { hub } = this.deps;
    const p = turn.progress;
    const calls = p.calls!;
    const round = p.round;
    for (let i = p.results.length; i < calls.length; i++) {
      const call = calls[i]!;
      const executionId = p.executionIds[i] ?? '';
      const ids = { turn_id: turn.turnId, round, tool_call_id: call.id, tool_execution_id: executionId, name: call.name };
      if (!p.approvalId) hub.publish(turn.agentId, 'tool_call', { ...ids, arguments: call.arguments });
      const startedAt = performance.now();
      const outcome = capResult(await this.gatedCall(turn, call, executionId), executionId, tp.resultMaxBytes);
      p.durations.push(performance.now() - startedAt);
      p.results.push(outcome);
      p.messages.push({ role: 'tool', tool_call_id: call.id, name: call.name, content: outcome.content });
      this.entry(turn, 'tool', JSON.stringify({ tool_call_id: call.id, name: call.name, arguments: call.arguments, ok: outcome.ok, content: outcome.content }), null);
      hub.publish(turn.agentId, 'tool_result', { ...ids, ok: outcome.ok, content: outcome.content });
    }
    const admitted = await this.recordResultsAndSafePoint(turn, round, calls, p.results);
    const ending = p.results.find((r) => r.endTurn);
    p.calls = null;
    p.results = [];
    p.executionIds = [];
    p.durations = [];
    for (const m of admitted) {
      const content = renderMessage(m);
      p.messages.push({ role: 'user', content });
      this.entry(turn, 'user', content, m.message_id);
      hub.publish(turn.agentId, 'turn_interjected', { turn_id: turn.turnId, round, message_id: m.message_id, kind: m.kind, priority: m.priority, turn_trust: turn.trust });
    }
    return ending;
  }

  /** One call through the policy: run it, refuse it, or ask the operator and wait for the decision. */
  private async gatedCall(turn: ActiveTurn, call: ToolCall, executionId: string): Promise<ToolOutcome> {
    const { policy, approvals } = this.deps;
    const tool: Tool | undefined = turn.tools.find((t) => t.name === call.name);
    if (!tool) return { ok: false, content: `unknown tool ${JSON.stringify(call.name)}` };
    const classes: ToolClass[] = classesOf(tool, call);
    const p = turn.progress;
    if (!policy || !approvals) return this.callTool(turn, tool, call, classes, executionId);
    if (!p.approvalId) {
      const verdict = policy.decide(turn.agentId, { tool: call.name, classes, arguments: call.arguments }, turn.trust);
      if (verdict.decision === 'allow' || (verdict.decision === 'ask' && p.approvedTools.includes(call.name))) return this.callTool(turn, tool, call, verdict.classes, executionId);
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
    return this.callTool(turn, tool, call, classes, executionId);
  }

  private async callTool(turn: ActiveTurn, tool: Tool, call: ToolCall, classes: readonly ToolClass[], executionId: string): Promise<ToolOutcome> {
    const signal = turn.controller.signal;
    const ctx = { agentId: turn.agentId, turnId: turn.turnId, messageId: turn.message.message_id, signal, trust: turn.trust, network: classes.includes('network'), executionId };
    try {
      return await this.span('tool.call', { 'svc.tool': call.name, 'svc.turn_id': turn.turnId }, () => abortable(tool.execute(ctx, call.arguments), signal));
    } catch (err) {
      if (signal.aborted) throw err;
      return { ok: false, content: `tool ${call.name} failed: ${(err as Error).message ?? String(err)}` };
    }
  }

  /**
   * The round that asked for tools: its activity, `model_round`, and per call a `tool_called` and
   * a tool execution record (`running`). Returns the execution ids, one per call.
   */
  private recordRound(turn: ActiveTurn, round: number, result: CompletionResult, promptTokens: number): Promise<string[]> {
    const { events, records, executions, ids } = this.deps;
    return this.write(turn, () => {
      const now = this.now();
      records.setRounds(turn.turnId, round);
      this.roundRecords(turn, { round, text: result.text, stopReason: result.stopReason, usage: result.usage ?? null, promptTokens }, result.toolCalls, now);
      return result.toolCalls.map((call) => {
        const executionId = ids.make('toolExecution');
        executions.begin({ execution_id: executionId, agent_id: turn.agentId, turn_id: turn.turnId, round, tool_call_id: call.id, tool_name: call.name, trust: turn.trust, arguments: call.arguments, created_at: now });
        const payload = { turn_id: turn.turnId, round, tool_call_id: call.id, tool_execution_id: executionId, name: call.name, arguments: call.arguments };
        records.addActivity(turn.turnId, ++turn.activitySeq, 'tool_call', payload, now);
        events.append(turn.agentId, 'tool_called', payload);
        return executionId;
      });
    });
  }

  /** The round activity and `model_round` event (also written for the final round by the scheduler). */
  roundRecords(turn: ActiveTurn, r: FinalRound, calls: ToolCall[], now: string): void {
    const spent = this.deps.usage?.record({ agentId: turn.agentId, turnId: turn.turnId, round: r.round, modelRef: turn.modelRef, usage: r.usage ?? null, estimatedInput: r.promptTokens, at: Date.parse(now) });
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
      cost_usd: spent?.cost_usd ?? null,
    });
  }

  /**
   * Tool results (activities + `tool_result`), then the safe point: every `interject` message
   * queued for the agent is claimed into this turn (`turn_interjected`), in the same transaction.
   */
  private recordResultsAndSafePoint(turn: ActiveTurn, round: number, calls: ToolCall[], results: ToolOutcome[]): Promise<Message[]> {
    const { store, events, records, queue, executions } = this.deps;
    const p = turn.progress;
    return this.write(turn, () => {
      const now = this.now();
      calls.forEach((call, i) => {
        const r = results[i]!;
        const executionId = p.executionIds[i] ?? null;
        const ids = { turn_id: turn.turnId, round, tool_call_id: call.id, tool_execution_id: executionId, name: call.name };
        if (executionId) executions.complete(executionId, { ok: r.ok, classes: classesOf(turn.tools.find((t) => t.name === call.name), call), content: r.content, duration_ms: p.durations[i] ?? 0, completed_at: now, artifacts: r.artifacts ?? [] });
        records.addActivity(turn.turnId, ++turn.activitySeq, 'tool_result', { ...ids, ok: r.ok, content: r.content, data: r.data ?? null }, now);
        events.append(turn.agentId, 'tool_result', { ...ids, arguments: call.arguments, ok: r.ok, content: clip(r.content), artifacts: (r.artifacts ?? []).length });
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

function subjectOf(turn: ActiveTurn) {
  return { agentId: turn.agentId, displayName: turn.displayName, supervisor: turn.supervisor, modelRef: turn.modelRef };
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

/**
 * One turn: the answer to one queued message. Model input = system prompt naming the agent +
 * the visible history (earlier user messages and final replies) + this message. Rounds call
 * `provider.complete` with the offered tools; each tool call is executed and its result fed back,
 * until the model answers without tool calls or MAX_ROUNDS is reached.
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
import { isoAt } from '../../core/index.js';
import type { FailureArtifact } from '../channels/index.js';
import { ProviderError, type ChatMessage, type CompletionResult, type ToolCall } from '../providers/index.js';
import { provenanceOf, type Message } from '../agents/index.js';
import type { Tool, ToolOutcome } from '../tools/index.js';
import type { Store } from '../../store/index.js';
import { renderMessage, systemPrompt } from './render.js';
import type { RunLoopDeps } from './types.js';
import type { WriteRetry } from './write-retry.js';

/** Model rounds per turn at most; the last round's text is the reply even if it asked for tools. */
export const MAX_ROUNDS = 16;
/** Tool result text kept in events (the activity keeps it whole). */
const EVENT_TEXT_MAX = 2000;

export type AbortMode = 'stop_after_abort' | 'control_stop' | 'shutdown' | 'deleted';

export interface TranscriptEntry {
  role: 'user' | 'assistant' | 'tool';
  content: string;
  message_id: string | null;
  created_at: string;
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
  | { kind: 'completed'; rounds: number; text: string; final: FinalRound }
  | { kind: 'failed'; rounds: number; reason: string; artifact: FailureArtifact }
  | { kind: 'aborted'; rounds: number; mode: AbortMode };

export function currentTurnView(t: ActiveTurn) {
  return { turn_id: t.turnId, message_id: t.message.message_id, status: 'running' as const, round: t.round, started_at: t.startedAt };
}

/**
 * Inside a turn's write: if it rolls back (to be tried again), the turn's counters are as before
 * it, so a retried write numbers its activities as the first attempt would have.
 */
export function keepOnRollback(store: Store, turn: ActiveTurn): void {
  const { activitySeq, interjectPending } = turn;
  store.onRollback(() => {
    turn.activitySeq = activitySeq;
    turn.interjectPending = interjectPending;
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
    const { providers, tools, hub } = this.deps;
    const resolved = providers.resolve(turn.modelRef);
    if (!resolved) {
      throw new ProviderError('runtime', 'unknown_provider', `no provider for model ${JSON.stringify(turn.modelRef)}`);
    }
    const { provider, model } = resolved;
    const signal = turn.controller.signal;
    const input = renderMessage(turn.message);
    const messages: ChatMessage[] = [...history, { role: 'user', content: input }];
    this.entry(turn, 'user', input, turn.message.message_id);
    const specs = tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
    const system = systemPrompt({ agent_id: turn.agentId, display_name: turn.displayName, supervisor: turn.supervisor }, this.skillSection(turn.agentId));
    for (let round = 1; ; round++) {
      turn.round = round;
      turn.streamed = '';
      const result = await this.span('provider.round', { 'svc.round': round, 'svc.model_ref': turn.modelRef }, () =>
        abortable(
          provider.complete({
            model,
            system,
            messages,
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
      if (result.toolCalls.length === 0 || round >= MAX_ROUNDS) {
        this.entry(turn, 'assistant', result.text, null);
        return { kind: 'completed', rounds: round, text: result.text, final: { round, text: result.text, stopReason: result.stopReason, usage: result.usage ?? null } };
      }
      messages.push({ role: 'assistant', content: result.text, tool_calls: result.toolCalls });
      await this.recordRound(turn, round, result);
      const results: ToolOutcome[] = [];
      for (const call of result.toolCalls) {
        hub.publish(turn.agentId, 'tool_call', { turn_id: turn.turnId, round, tool_call_id: call.id, name: call.name, arguments: call.arguments });
        const outcome = await this.callTool(turn, call);
        results.push(outcome);
        messages.push({ role: 'tool', tool_call_id: call.id, name: call.name, content: outcome.content });
        this.entry(turn, 'tool', JSON.stringify({ tool_call_id: call.id, name: call.name, arguments: call.arguments, ok: outcome.ok, content: outcome.content }), null);
        hub.publish(turn.agentId, 'tool_result', { turn_id: turn.turnId, round, tool_call_id: call.id, name: call.name, ok: outcome.ok, content: outcome.content });
      }
      const admitted = await this.recordResultsAndSafePoint(turn, round, result.toolCalls, results);
      for (const m of admitted) {
        const content = renderMessage(m);
        messages.push({ role: 'user', content });
        this.entry(turn, 'user', content, m.message_id);
        hub.publish(turn.agentId, 'turn_interjected', { turn_id: turn.turnId, round, message_id: m.message_id, kind: m.kind, priority: m.priority });
      }
    }
  }

  private async callTool(turn: ActiveTurn, call: ToolCall): Promise<ToolOutcome> {
    const tool: Tool | undefined = this.deps.tools.find((t) => t.name === call.name);
    if (!tool) return { ok: false, content: `unknown tool ${JSON.stringify(call.name)}` };
    const signal = turn.controller.signal;
    const ctx = { agentId: turn.agentId, turnId: turn.turnId, messageId: turn.message.message_id, signal };
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
        const payload = { turn_id: turn.turnId, round, message_id: m.message_id, kind: m.kind, priority: m.priority, provenance: provenanceOf(m) };
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

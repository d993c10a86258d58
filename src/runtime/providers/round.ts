/**
 * One model round being assembled from a provider's answer, streamed or not: text and thought
 * deltas go to the caller as they arrive; tool calls are accumulated by their key (the stream's
 * tool-call index or content-block index), their argument fragments joined and parsed as JSON at
 * the end (bad JSON → protocol/bad_tool_arguments). All of it together may not pass `maxBytes`
 * (model.max_reply_bytes): a stream of small deltas cannot grow the round without end either.
 */
import { tooLarge } from './reply-body.js';
import type { CompletionRequest, CompletionResult, RoundUsage, ToolCall } from './types.js';
import { ProviderError } from './types.js';

interface PendingCall {
  id: string;
  name: string;
  args: string;
}

export class RoundBuilder {
  private text = '';
  private readonly calls = new Map<number, PendingCall>();
  stopReason: string | null = null;
  usage: CompletionResult['usage'];
  /** Bytes of text, thoughts and arguments received so far. */
  private bytes = 0;

  constructor(
    private readonly provider: string,
    private readonly onDelta: CompletionRequest['onDelta'],
    /** Called when something reaches the caller (the transport stops retrying then). */
    private readonly progress: () => void = () => {},
    private readonly maxBytes = Infinity,
  ) {}

  private take(piece: string): void {
    this.bytes += Buffer.byteLength(piece);
    if (this.bytes > this.maxBytes) throw tooLarge(this.provider, `the answer carries more than ${this.maxBytes} bytes of content (model.max_reply_bytes)`);
  }

  addText(text: string): void {
    if (!text) return;
    this.take(text);
    this.text += text;
    this.progress();
    this.onDelta?.({ type: 'text', text });
  }

  addThought(text: string): void {
    if (!text) return;
    this.take(text);
    this.progress();
    this.onDelta?.({ type: 'thought', text });
  }

  /** A tool call's first piece (id and name may arrive later, or never for the id). */
  startCall(key: number, id?: unknown, name?: unknown): void {
    const call = this.calls.get(key) ?? { id: '', name: '', args: '' };
    if (typeof id === 'string' && id && !call.id) call.id = id;
    if (typeof name === 'string' && name && !call.name) call.name = name;
    this.calls.set(key, call);
  }

  addArgs(key: number, fragment: unknown): void {
    if (typeof fragment !== 'string') return;
    this.take(fragment);
    this.startCall(key);
    this.calls.get(key)!.args += fragment;
  }

  /** Arguments that arrived whole, as an object (non-streamed answers, Anthropic `input`). */
  setArgs(key: number, args: unknown): void {
    this.startCall(key);
    const text = typeof args === 'string' ? args : JSON.stringify(args ?? {});
    this.take(text);
    this.calls.get(key)!.args = text;
  }

  get hasContent(): boolean {
    return this.text.length > 0 || this.calls.size > 0;
  }

  /** The round; tool calls in key order. */
  result(): CompletionResult {
    const toolCalls: ToolCall[] = [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([key, c]) => ({ id: c.id || `call_${key}`, name: c.name, arguments: this.parseArgs(c) }));
    for (const c of toolCalls) {
      if (!c.name) throw new ProviderError('protocol', 'bad_response', `provider ${this.provider}: a tool call has no name`);
    }
    let stopReason = this.stopReason ?? 'stop';
    // Some servers say `stop` while asking for tools; the run loop keys on `tool_calls`.
    if (toolCalls.length > 0 && stopReason === 'stop') stopReason = 'tool_calls';
    return { text: this.text, toolCalls, stopReason, ...(this.usage ? { usage: this.usage } : {}) };
  }

  private parseArgs(c: PendingCall): Record<string, unknown> {
    if (c.args.trim() === '') return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(c.args);
    } catch {
      throw new ProviderError('protocol', 'bad_tool_arguments', `provider ${this.provider}: arguments of tool call ${c.name || c.id} are not valid JSON: ${c.args.slice(0, 200)}`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new ProviderError('protocol', 'bad_tool_arguments', `provider ${this.provider}: arguments of tool call ${c.name || c.id} are not a JSON object`);
    }
    return parsed as Record<string, unknown>;
  }
}

/** A finite non-negative number, else undefined (usage fields). */
export function count(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
}

/** What a wire format reported for a round, each as it came (a count, or anything else when absent or malformed). */
export interface ReportedCounts {
  input?: unknown;
  output?: unknown;
  cacheRead?: unknown;
  cacheWrite?: unknown;
  reasoning?: unknown;
}

/**
 * A round's RoundUsage from the counts its wire format reported: a member only for a count that
 * is a finite non-negative number (a missing or malformed one is not reported, never 0);
 * undefined when none is.
 */
export function usageOf(c: ReportedCounts): RoundUsage | undefined {
  const u: RoundUsage = {};
  const set = (key: keyof RoundUsage, v: unknown) => {
    const n = count(v);
    if (n !== undefined) u[key] = n;
  };
  set('input_tokens', c.input);
  set('output_tokens', c.output);
  set('cache_read_tokens', c.cacheRead);
  set('cache_write_tokens', c.cacheWrite);
  set('reasoning_tokens', c.reasoning);
  return Object.keys(u).length === 0 ? undefined : u;
}

/**
 * `kind = "anthropic"`: the Messages API. POST `{base_url}/messages` (base_url includes the
 * version, e.g. https://api.anthropic.com/v1) with `x-api-key`, `anthropic-version: 2023-06-01`,
 * `max_tokens` and `stream: true`. The system prompt is the `system` field; assistant tool calls
 * are `tool_use` blocks; tool results are `tool_result` blocks in a user message (consecutive
 * results, and user text right after them, share one user message). Streamed events:
 * message_start, content_block_start (text | tool_use | thinking), content_block_delta
 * (text_delta, input_json_delta, thinking_delta), content_block_stop, message_delta (stop_reason,
 * usage), message_stop, ping, error. Discovery: GET `{base_url}/models`.
 */
import { HttpProvider } from './http-provider.js';
import { count, usageOf, type RoundBuilder } from './round.js';
import type { SseMessage } from './sse-parser.js';
import { badResponse, parseData } from './transport.js';
import { ProviderError, type ChatMessage, type CompletionRequest, type CompletionResult } from './types.js';

type Json = Record<string, unknown>;

export const ANTHROPIC_VERSION = '2023-06-01';
/** `max_tokens` of every request (the API requires one). */
export const ANTHROPIC_MAX_TOKENS = 4096;

const STOP_REASONS: Record<string, string> = { end_turn: 'stop', stop_sequence: 'stop', tool_use: 'tool_calls', max_tokens: 'length' };

export class AnthropicProvider extends HttpProvider {
  readonly kind = 'anthropic';
  // Anthropic pages its model listing (default 20); one page of the maximum size covers it.
  protected readonly paths = { completion: '/messages', models: '/models?limit=1000' };

  protected headers(key: string | null): Record<string, string> {
    return { 'anthropic-version': ANTHROPIC_VERSION, ...(key ? { 'x-api-key': key } : {}) };
  }

  protected requestBody(req: CompletionRequest): Json {
    return {
      model: req.model,
      max_tokens: ANTHROPIC_MAX_TOKENS,
      ...(req.system ? { system: req.system } : {}),
      messages: toAnthropicMessages(req.messages),
      stream: true,
      ...(req.tools.length > 0 ? { tools: req.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters })) } : {}),
    };
  }

  protected async readStream(messages: AsyncIterable<SseMessage>, round: RoundBuilder): Promise<CompletionResult> {
    // Usage comes in message_start and is brought up to date by message_delta (cumulative counts).
    let counts: AnthropicCounts = {};
    let stopped = false;
    for await (const msg of messages) {
      const ev = parseData(this.name, msg.data);
      const type = typeof ev.type === 'string' ? ev.type : msg.event;
      const index = typeof ev.index === 'number' ? ev.index : 0;
      switch (type) {
        case 'message_start': {
          counts = moreCounts(counts, (ev.message as Json | undefined)?.usage);
          break;
        }
        case 'content_block_start': {
          const block = (ev.content_block ?? {}) as Json;
          if (block.type === 'tool_use') {
            round.startCall(index, block.id, block.name);
            // The input arrives as input_json_delta fragments; a non-empty `input` here is the whole of it.
            if (block.input && typeof block.input === 'object' && Object.keys(block.input).length > 0) round.setArgs(index, block.input);
          } else if (block.type === 'text' && typeof block.text === 'string') round.addText(block.text);
          else if (block.type === 'thinking' && typeof block.thinking === 'string') round.addThought(block.thinking);
          break;
        }
        case 'content_block_delta': {
          const delta = (ev.delta ?? {}) as Json;
          if (delta.type === 'text_delta') round.addText(String(delta.text ?? ''));
          else if (delta.type === 'thinking_delta') round.addThought(String(delta.thinking ?? ''));
          else if (delta.type === 'input_json_delta') round.addArgs(index, delta.partial_json);
          break;
        }
        case 'message_delta': {
          const reason = (ev.delta as Json | undefined)?.stop_reason;
          if (typeof reason === 'string') round.stopReason = STOP_REASONS[reason] ?? reason;
          counts = moreCounts(counts, ev.usage);
          break;
        }
        case 'message_stop':
          stopped = true;
          break;
        case 'error':
          throw streamError(this.name, ev.error);
        default:
          // ping, content_block_stop, and event types added later: nothing to do.
          break;
      }
      if (stopped) break;
    }
    if (!stopped) throw badResponse(this.name, 'the event stream ended before message_stop');
    round.usage = anthropicUsage(counts);
    return round.result();
  }

  protected readDocument(body: unknown, round: RoundBuilder): CompletionResult {
    const doc = (body ?? {}) as Json;
    if (doc.type === 'error') throw streamError(this.name, doc.error);
    if (!Array.isArray(doc.content)) throw badResponse(this.name, 'message has no content array');
    (doc.content as Json[]).forEach((block, index) => {
      if (block.type === 'text' && typeof block.text === 'string') round.addText(block.text);
      else if (block.type === 'thinking' && typeof block.thinking === 'string') round.addThought(block.thinking);
      else if (block.type === 'tool_use') {
        round.startCall(index, block.id, block.name);
        round.setArgs(index, block.input);
      }
    });
    if (typeof doc.stop_reason === 'string') round.stopReason = STOP_REASONS[doc.stop_reason] ?? doc.stop_reason;
    round.usage = anthropicUsage(moreCounts({}, doc.usage));
    return round.result();
  }
}

/** The Messages API's usage counts of a round, as far as they have arrived. */
interface AnthropicCounts {
  input?: number;
  cacheRead?: number;
  cacheWrite?: number;
  output?: number;
}

/** `counts` with what a `usage` object reports (a later count replaces an earlier one). */
function moreCounts(counts: AnthropicCounts, usage: unknown): AnthropicCounts {
  const u = (usage ?? {}) as Json;
  return {
    input: count(u.input_tokens) ?? counts.input,
    cacheRead: count(u.cache_read_input_tokens) ?? counts.cacheRead,
    cacheWrite: count(u.cache_creation_input_tokens) ?? counts.cacheWrite,
    output: count(u.output_tokens) ?? counts.output,
  };
}

/**
 * The Messages API counts the prompt in three parts: `input_tokens` (after the last cache
 * breakpoint), `cache_read_input_tokens` and `cache_creation_input_tokens`. RoundUsage's
 * `input_tokens` is the whole prompt: their sum, with the cached parts also reported on their own.
 */
function anthropicUsage(c: AnthropicCounts) {
  const parts = [c.input, c.cacheRead, c.cacheWrite].filter((n): n is number => n !== undefined);
  const input = parts.length > 0 ? parts.reduce((a, b) => a + b, 0) : undefined;
  return usageOf({ input, output: c.output, cacheRead: c.cacheRead, cacheWrite: c.cacheWrite });
}

/** The neutral conversation as Messages API turns (the system prompt travels separately). */
export function toAnthropicMessages(messages: ChatMessage[]): Json[] {
  const out: Array<{ role: 'user' | 'assistant'; content: string | Json[] }> = [];
  // The user message that holds tool results, while the next entries may still join it.
  let results: Json[] | null = null;
  for (const m of messages) {
    if (m.role === 'tool') {
      const block = { type: 'tool_result', tool_use_id: m.tool_call_id, content: m.content };
      if (results) results.push(block);
      else {
        results = [block];
        out.push({ role: 'user', content: results });
      }
      continue;
    }
    if (m.role === 'user') {
      if (results) results.push({ type: 'text', text: m.content });
      else out.push({ role: 'user', content: m.content });
      results = null;
      continue;
    }
    results = null;
    const blocks: Json[] = [];
    if (m.content) blocks.push({ type: 'text', text: m.content });
    for (const c of m.tool_calls ?? []) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: c.arguments });
    // The API refuses an empty assistant turn; an empty round carries nothing worth sending.
    if (blocks.length > 0) out.push({ role: 'assistant', content: blocks.length === 1 && blocks[0]!.type === 'text' ? m.content : blocks });
  }
  return out;
}

/** An `error` event (or error document): overloaded/api errors are the server's, worth a retry before any output. */
function streamError(provider: string, error: unknown): ProviderError {
  const e = (error ?? {}) as { type?: unknown; message?: unknown };
  const type = typeof e.type === 'string' ? e.type : 'error';
  const text = typeof e.message === 'string' ? e.message : JSON.stringify(error);
  const serverSide = type === 'overloaded_error' || type === 'api_error';
  return new ProviderError(serverSide ? 'transport' : 'protocol', 'stream_error', `provider ${provider}: the server reported ${type}: ${text}`, null, serverSide);
}

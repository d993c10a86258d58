/**
 * `kind = "openai"`: any OpenAI-compatible chat-completions server (OpenAI, Ollama, vLLM,
 * llama.cpp). POST `{base_url}/chat/completions` with `stream: true`; the system prompt is the
 * first message, tools use the `function` format, tool results are `role: tool` messages. The
 * answer is read as an event stream (`data: {chunk}` lines ending with `[DONE]`) or, when the
 * server answers application/json, as one completion. Discovery: GET `{base_url}/models`.
 */
import { HttpProvider } from './http-provider.js';
import { usageOf, type RoundBuilder } from './round.js';
import type { SseMessage } from './sse-parser.js';
import { badResponse, parseData } from './transport.js';
import { ProviderError, type ChatMessage, type CompletionRequest, type CompletionResult, type ToolSpec } from './types.js';

type Json = Record<string, unknown>;

export class OpenAIProvider extends HttpProvider {
  readonly kind = 'openai';
  protected readonly paths = { completion: '/chat/completions', models: '/models' };

  protected headers(key: string | null): Record<string, string> {
    return key ? { authorization: `Bearer ${key}` } : {};
  }

  protected requestBody(req: CompletionRequest): Json {
    return {
      model: req.model,
      messages: toOpenAIMessages(req.system, req.messages),
      stream: true,
      stream_options: { include_usage: true },
      ...(req.tools.length > 0 ? { tools: req.tools.map(toOpenAITool) } : {}),
    };
  }

  protected async readStream(messages: AsyncIterable<SseMessage>, round: RoundBuilder): Promise<CompletionResult> {
    let done = false;
    for await (const msg of messages) {
      if (msg.data.trim() === '[DONE]') {
        done = true;
        break;
      }
      const chunk = parseData(this.name, msg.data);
      if (chunk.error) throw streamError(this.name, chunk.error);
      if (chunk.usage) round.usage = openAIUsage(chunk.usage);
      const choices = Array.isArray(chunk.choices) ? (chunk.choices as Json[]) : [];
      for (const choice of choices) {
        const delta = (choice.delta ?? {}) as Json;
        if (typeof delta.reasoning_content === 'string') round.addThought(delta.reasoning_content);
        else if (typeof delta.reasoning === 'string') round.addThought(delta.reasoning);
        if (typeof delta.content === 'string') round.addText(delta.content);
        const calls = Array.isArray(delta.tool_calls) ? (delta.tool_calls as Json[]) : [];
        calls.forEach((call, position) => {
          const key = typeof call.index === 'number' ? call.index : position;
          const fn = (call.function ?? {}) as Json;
          round.startCall(key, call.id, fn.name);
          round.addArgs(key, fn.arguments);
        });
        if (typeof choice.finish_reason === 'string') round.stopReason = choice.finish_reason;
      }
    }
    // A stream cut short (no [DONE], no finish_reason) is not an answer.
    if (!done && round.stopReason === null) throw badResponse(this.name, 'the event stream ended before the completion finished');
    return round.result();
  }

  protected readDocument(body: unknown, round: RoundBuilder): CompletionResult {
    const doc = (body ?? {}) as Json;
    if (doc.error) throw streamError(this.name, doc.error);
    const choice = Array.isArray(doc.choices) ? (doc.choices[0] as Json | undefined) : undefined;
    const message = choice?.message as Json | undefined;
    if (!message || typeof message !== 'object') throw badResponse(this.name, 'completion has no choices[0].message');
    const thought = message.reasoning_content ?? message.reasoning;
    if (typeof thought === 'string') round.addThought(thought);
    if (typeof message.content === 'string') round.addText(message.content);
    const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as Json[]) : [];
    calls.forEach((call, key) => {
      const fn = (call.function ?? {}) as Json;
      round.startCall(key, call.id, fn.name);
      round.setArgs(key, fn.arguments);
    });
    if (typeof choice?.finish_reason === 'string') round.stopReason = choice.finish_reason;
    if (doc.usage) round.usage = openAIUsage(doc.usage);
    return round.result();
  }
}

/**
 * Chat completions' `usage`: `prompt_tokens` is the whole prompt, `prompt_tokens_details.cached_tokens`
 * the part read from the prompt cache; `completion_tokens` includes
 * `completion_tokens_details.reasoning_tokens`. (No cache writes are reported by this format.)
 */
function openAIUsage(usage: unknown) {
  const u = (usage ?? {}) as Json;
  const prompt = (u.prompt_tokens_details ?? {}) as Json;
  const completion = (u.completion_tokens_details ?? {}) as Json;
  return usageOf({ input: u.prompt_tokens, output: u.completion_tokens, cacheRead: prompt.cached_tokens, reasoning: completion.reasoning_tokens });
}

/** The neutral conversation in chat-completions form. */
export function toOpenAIMessages(system: string, messages: ChatMessage[]): Json[] {
  const out: Json[] = [];
  if (system) out.push({ role: 'system', content: system });
  for (const m of messages) {
    if (m.role === 'user') out.push({ role: 'user', content: m.content });
    else if (m.role === 'tool') out.push({ role: 'tool', tool_call_id: m.tool_call_id, content: m.content });
    else if (m.tool_calls && m.tool_calls.length > 0) {
      out.push({
        role: 'assistant',
        content: m.content || null,
        tool_calls: m.tool_calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } })),
      });
    } else out.push({ role: 'assistant', content: m.content });
  }
  return out;
}

function toOpenAITool(t: ToolSpec): Json {
  return { type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } };
}

/** An `error` object inside a 200 answer (vLLM and others report mid-stream failures so). */
function streamError(provider: string, error: unknown) {
  const e = error as { message?: unknown } | string;
  const text = typeof e === 'string' ? e : typeof e?.message === 'string' ? e.message : JSON.stringify(error);
  return new ProviderError('protocol', 'stream_error', `provider ${provider}: the server reported an error: ${text}`);
}

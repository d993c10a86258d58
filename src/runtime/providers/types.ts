/**
 * The one interface every model provider implements (builtin/echo, openai, anthropic). The run
 * loop speaks only this: a provider-neutral conversation in, one model round out. Providers never
 * touch the store or the event log; streaming text reaches the caller through `onDelta`.
 */
import type { FailureCategory } from '../../core/index.js';

/** A tool offered to the model: name, description and a JSON Schema for its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema (type object) of the arguments. */
  parameters: Record<string, unknown>;
}

/** A tool call the model asked for in one round. `id` is the provider's call id (echoed back in the result). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** Provider-neutral conversation entries. */
export type ChatMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; name: string; content: string };

export interface CompletionRequest {
  /** The model name inside the provider (the part after `provider/`). */
  model: string;
  system: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  /** Aborts the HTTP request (current-run/abort, control stop, shutdown). */
  signal: AbortSignal;
  /** Streamed pieces as they arrive: answer text or model thoughts (reasoning). */
  onDelta?: (delta: { type: 'text' | 'thought'; text: string }) => void;
}

export interface CompletionResult {
  /** The assistant's text for this round (may be empty when it only calls tools). */
  text: string;
  toolCalls: ToolCall[];
  /** `stop` (final answer), `tool_calls` (wants tool results), `length`, or the provider's own word. */
  stopReason: string;
  usage?: RoundUsage;
}

/**
 * Tokens of one round as the provider reported them, normalised across wire formats:
 * `input_tokens` counts the whole prompt, cached parts included (`cache_read_tokens` read from and
 * `cache_write_tokens` written to the provider's prompt cache are parts of it);
 * `reasoning_tokens` are part of `output_tokens`. A member the provider did not report is absent.
 */
export interface RoundUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_tokens?: number;
  cache_write_tokens?: number;
  reasoning_tokens?: number;
}

/** The `failure_artifact` categories of the spec (TaskOutputResult.failure_artifact). */
export type { FailureCategory };

/**
 * A provider failure after its retries: ends the turn with a failure brief carrying these fields.
 * `kind` is a short machine word (`http_status`, `connection_refused`, `timeout`, `bad_response`,
 * `missing_api_key`, `aborted`, ...); `status` the HTTP status when there was one.
 */
export class ProviderError extends Error {
  constructor(
    readonly category: FailureCategory,
    readonly kind: string,
    message: string,
    readonly status: number | null = null,
    /** Worth retrying (429, 5xx, connection errors); the retry helper reads it. */
    readonly retryable = false,
    /** Seconds from a Retry-After header, when the server sent one. */
    readonly retryAfterSec: number | null = null,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

export interface ModelProvider {
  /** The provider's name in model refs (`builtin`, or the `[providers.NAME]` key). */
  readonly name: string;
  /** `builtin`, `openai` or `anthropic`. */
  readonly kind: string;
  /** One model round. Throws ProviderError (after retries) on failure. */
  complete(req: CompletionRequest): Promise<CompletionResult>;
  /** Discovery: the provider's model names (no prefix). Throws ProviderError on failure. */
  listModels(signal: AbortSignal): Promise<string[]>;
}

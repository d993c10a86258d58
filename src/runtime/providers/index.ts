/**
 * Model providers: the neutral interface, builtin/echo, and the OpenAI-compatible and Anthropic
 * wire formats over one HTTP transport with its limits and retries.
 */
export { AnthropicProvider } from './anthropic.js';
export { ECHO_MODELS, EchoProvider } from './echo.js';
export { OpenAIProvider } from './openai.js';
export { DEFAULT_LIMITS } from './reply-body.js';
export type { TransportOptions } from './transport.js';
export { ProviderError, type ChatMessage, type CompletionResult, type RoundUsage, type ModelProvider, type ToolCall, type ToolSpec } from './types.js';

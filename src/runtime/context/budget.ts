/**
 * A prompt's budget (docs/context.md#prompt-assembly): the model's window less its output limit,
 * and the head-and-tail excerpt that makes a text fit a number of tokens.
 */
import type { ModelSpec } from '../models/index.js';
import type { ChatMessage, ToolSpec } from '../providers/index.js';

/** What prompt assembly needs from token counting (TokenCounter implements it). */
export interface TokenCounting {
  /** Raw tokens of a text for the model. */
  count(text: string, modelRef: string): number;
  /** Tokens of a whole request (system, messages with their tool calls, tool specs). */
  countMessages(system: string, messages: ChatMessage[], tools: ToolSpec[], modelRef: string): number;
  /** The correction learnt from the provider's reports: multiply raw counts by it. */
  factor(modelRef: string): number;
  /** The provider reported `reported` input tokens for a prompt counted as `counted`. */
  observe(modelRef: string, counted: number, reported: number): void;
}

export interface Budget {
  window: number;
  /** Kept free for the model's answer. */
  output: number;
  /** What the prompt may take: system, tools, history and the turn's messages. */
  prompt: number;
}

export function budgetOf(spec: Pick<ModelSpec, 'context_window' | 'max_output_tokens'>): Budget {
  return { window: spec.context_window, output: spec.max_output_tokens, prompt: spec.context_window - spec.max_output_tokens };
}

/**
 * The head (two thirds) and tail of `text` within about `maxTokens`, around `marker(omitted)`
 * naming how many characters were left out; the text itself when it fits.
 */
export function excerpt(text: string, tokens: number, maxTokens: number, marker: (omittedChars: number) => string): string {
  if (tokens <= maxTokens) return text;
  const charsPerToken = text.length / Math.max(1, tokens);
  const mark = marker(0);
  const keep = Math.max(0, Math.floor(maxTokens * charsPerToken) - mark.length - 16);
  const head = Math.floor((keep * 2) / 3);
  const tail = keep - head;
  const omitted = text.length - head - tail;
  return `${text.slice(0, head)}\n${marker(omitted)}\n${tail > 0 ? text.slice(text.length - tail) : ''}`;
}

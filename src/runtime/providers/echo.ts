/**
 * `builtin/echo`: the offline, deterministic provider. Its reply quotes the last user message, so
 * `svc serve` with no config answers a prompt and tests can assert on the text. It never calls tools.
 */
import type { CompletionRequest, CompletionResult, ModelProvider } from './types.js';

export const ECHO_MODELS = ['echo'] as const;

export class EchoProvider implements ModelProvider {
  readonly name = 'builtin';
  readonly kind = 'builtin';

  async complete(req: CompletionRequest): Promise<CompletionResult> {
    let last = '';
    for (let i = req.messages.length - 1; i >= 0; i--) {
      const m = req.messages[i]!;
      if (m.role === 'user') {
        last = m.content;
        break;
      }
    }
    const text = `echo: ${last}`;
    req.onDelta?.({ type: 'text', text });
    return { text, toolCalls: [], stopReason: 'stop' };
  }

  async listModels(): Promise<string[]> {
    return [...ECHO_MODELS];
  }
}

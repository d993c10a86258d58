/**
 * What the HTTP providers (openai.ts, anthropic.ts) share: one round is a POST whose answer is
 * read either as an event stream or as one JSON document into a RoundBuilder, and discovery is
 * a GET of `data[].id`. Each provider says only how its wire format looks.
 */
import { RoundBuilder } from './round.js';
import type { SseMessage } from './sse-parser.js';
import { modelIds, ProviderTransport, type ProviderSettings, type TransportOptions } from './transport.js';
import type { CompletionRequest, CompletionResult, ModelProvider } from './types.js';

export abstract class HttpProvider implements ModelProvider {
  abstract readonly kind: string;
  protected readonly http: ProviderTransport;

  constructor(
    readonly name: string,
    settings: ProviderSettings,
    opts: TransportOptions = {},
  ) {
    this.http = new ProviderTransport(name, settings, opts);
  }

  /** Paths under base_url of a completion and of the model listing. */
  protected abstract readonly paths: { completion: string; models: string };
  /** Auth and version headers for `key` (null: no key configured). */
  protected abstract headers(key: string | null): Record<string, string>;
  protected abstract requestBody(req: CompletionRequest): Record<string, unknown>;
  protected abstract readStream(messages: AsyncIterable<SseMessage>, round: RoundBuilder): Promise<CompletionResult>;
  protected abstract readDocument(body: unknown, round: RoundBuilder): CompletionResult;

  complete(req: CompletionRequest): Promise<CompletionResult> {
    return this.http.post(this.paths.completion, (key) => this.headers(key), this.requestBody(req), req.signal, (answer, progress) => {
      const round = new RoundBuilder(this.name, req.onDelta, progress, this.http.limits.maxReplyBytes);
      return answer.type === 'json' ? this.readDocument(answer.body, round) : this.readStream(answer.messages, round);
    });
  }

  async listModels(signal: AbortSignal): Promise<string[]> {
    return modelIds(this.name, await this.http.getJson(this.paths.models, (key) => this.headers(key), signal));
  }
}

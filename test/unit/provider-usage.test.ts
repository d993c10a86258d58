/**
 * Every kind of token each wire format reports, normalised into RoundUsage (providers/types.ts):
 * `input_tokens` is the whole prompt with the cache's parts reported beside it, reasoning is part
 * of the output. Each format streamed and as one document, against the fake servers on loopback;
 * malformed counts from a server are not reported (never 0, never a string).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicProvider } from '../../src/runtime/providers/anthropic.js';
import { OpenAIProvider } from '../../src/runtime/providers/openai.js';
import { sseFrame, type FakeModelServer } from '../helpers/fake-model-server.js';
import { startFakeAnthropic } from '../helpers/fake-anthropic.js';
import { startFakeOpenAI } from '../helpers/fake-openai.js';
import { request } from '../helpers/provider-calls.js';

let fake: FakeModelServer;
afterEach(() => fake.close());

const provider = (Kind: typeof OpenAIProvider | typeof AnthropicProvider) => new Kind('p', { base_url: fake.url, api_key_env: '' }, { env: {}, sleep: async () => {}, random: () => 0.5 });

describe.each([false, true])('chat completions (json: %s)', (json) => {
  it('reads prompt, completion, cached and reasoning tokens', async () => {
    fake = await startFakeOpenAI();
    fake.enqueue({ json, text: ['hi'], usage: { input: 1200, output: 300, cache_read: 1000, reasoning: 120 } });
    const r = await provider(OpenAIProvider).complete(request());
    expect(r.usage).toEqual({ input_tokens: 1200, output_tokens: 300, cache_read_tokens: 1000, reasoning_tokens: 120 });
  });

  it('reports only what the server counted', async () => {
    fake = await startFakeOpenAI();
    fake.enqueue({ json, text: ['hi'], usage: { input: 7, output: 2 } });
    expect((await provider(OpenAIProvider).complete(request())).usage).toEqual({ input_tokens: 7, output_tokens: 2 });
  });
});

describe.each([false, true])('Messages API (json: %s)', (json) => {
  it('sums input, cache read and cache creation into input_tokens and keeps the parts', async () => {
    fake = await startFakeAnthropic();
    fake.enqueue({ json, text: ['hi'], usage: { input: 50, output: 40, cache_read: 900, cache_write: 100 } });
    const r = await provider(AnthropicProvider).complete(request());
    expect(r.usage).toEqual({ input_tokens: 1050, output_tokens: 40, cache_read_tokens: 900, cache_write_tokens: 100 });
  });

  it('without a cache, input_tokens is the prompt as sent', async () => {
    fake = await startFakeAnthropic();
    fake.enqueue({ json, text: ['hi'], usage: { input: 12, output: 3 } });
    expect((await provider(AnthropicProvider).complete(request())).usage).toEqual({ input_tokens: 12, output_tokens: 3 });
  });
});

describe('counts a hostile server sends', () => {
  it('chat completions: strings, negatives, infinities and prototype keys are not reported', async () => {
    fake = await startFakeOpenAI();
    const chunk = (o: Record<string, unknown>) => sseFrame({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', ...o });
    const body = [
      chunk({ choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: 'stop' }] }),
      // 1e999 parses as Infinity; a "__proto__" key is an own property of the parsed object, nothing more.
      'data: {"choices":[],"usage":{"prompt_tokens":"5","completion_tokens":-1,"prompt_tokens_details":"x",' +
        '"completion_tokens_details":{"reasoning_tokens":1e999,"__proto__":{"reasoning_tokens":3}}}}\n\n',
      sseFrame('[DONE]'),
    ].join('');
    fake.enqueue({ type: 'raw', contentType: 'text/event-stream', body });
    const r = await provider(OpenAIProvider).complete(request());
    expect(r.text).toBe('hi');
    expect(r.usage).toBeUndefined();
  });

  it('Messages API: a later message_delta brings the counts up to date; a bad count keeps the earlier one', async () => {
    fake = await startFakeAnthropic();
    const ev = (type: string, data: Record<string, unknown>) => sseFrame({ type, ...data }, type);
    const body = [
      ev('message_start', { message: { id: 'm', type: 'message', role: 'assistant', model: 'm', content: [], usage: { input_tokens: 10, cache_read_input_tokens: 30, output_tokens: 1 } } }),
      ev('content_block_start', { index: 0, content_block: { type: 'text', text: 'hi' } }),
      ev('content_block_stop', { index: 0 }),
      ev('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 25, cache_read_input_tokens: 'lots' } }),
      ev('message_stop', {}),
    ].join('');
    fake.enqueue({ type: 'raw', contentType: 'text/event-stream', body });
    const r = await provider(AnthropicProvider).complete(request());
    expect(r.usage).toEqual({ input_tokens: 40, output_tokens: 25, cache_read_tokens: 30 });
  });
});

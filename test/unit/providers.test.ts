/**
 * The OpenAI-compatible and Anthropic providers against real fake servers on loopback
 * (test/helpers/fake-openai.ts, fake-anthropic.ts): streamed and plain JSON answers, thoughts,
 * tool calls with fragmented arguments, the neutral conversation mapped both ways, retries (429
 * with Retry-After, 5xx exhausted, connection refused) with an injected sleep, abort, the
 * inactivity timeout, keys from the environment and never in messages.
 */
import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicProvider } from '../../src/runtime/providers/anthropic.js';
import { OpenAIProvider } from '../../src/runtime/providers/openai.js';
import type { TransportOptions } from '../../src/runtime/providers/transport.js';
import type { ChatMessage, ModelProvider } from '../../src/runtime/providers/types.js';
import { startFakeAnthropic } from '../helpers/fake-anthropic.js';
import type { FakeModelServer } from '../helpers/fake-model-server.js';
import { startFakeOpenAI } from '../helpers/fake-openai.js';
import { failure, request, waitUntil } from '../helpers/provider-calls.js';

const KEY = 'sk-test-0123456789abcdef';

interface Harness {
  fake: FakeModelServer;
  sleeps: number[];
  make: (opts?: Partial<TransportOptions> & { apiKeyEnv?: string; baseUrl?: string }) => ModelProvider;
}

const kinds = [
  { kind: 'openai', start: startFakeOpenAI, Provider: OpenAIProvider },
  { kind: 'anthropic', start: startFakeAnthropic, Provider: AnthropicProvider },
] as const;

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe.each(kinds)('$kind provider', ({ kind, start, Provider }) => {
  let h: Harness;
  beforeEach(async () => {
    const fake = await start();
    const sleeps: number[] = [];
    h = {
      fake,
      sleeps,
      make: (opts = {}) =>
        new Provider('p', { base_url: opts.baseUrl ?? fake.url, api_key_env: opts.apiKeyEnv ?? 'TEST_KEY' }, {
          env: { TEST_KEY: KEY },
          sleep: async (ms, signal) => {
            sleeps.push(ms);
            if (signal.aborted) throw signal.reason;
          },
          random: () => 0.5,
          ...opts,
        }),
    };
  });
  afterEach(() => h.fake.close());

  it('streams text deltas and returns the whole text with the stop reason and usage', async () => {
    h.fake.enqueue({ text: ['Hel', 'lo', ' world'], usage: { input: 12, output: 3 } });
    const deltas: Array<{ type: string; text: string }> = [];
    const result = await h.make().complete(request({ onDelta: (d) => deltas.push(d) }));
    expect(result).toEqual({ text: 'Hello world', toolCalls: [], stopReason: 'stop', usage: { input_tokens: 12, output_tokens: 3 } });
    expect(deltas).toEqual([
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo' },
      { type: 'text', text: ' world' },
    ]);
    expect(h.fake.completions()[0]!.body.stream).toBe(true);
  });

  it('passes thoughts as thought deltas, not as answer text', async () => {
    h.fake.enqueue({ thoughts: ['let me ', 'think'], text: ['42'] });
    const deltas: Array<{ type: string; text: string }> = [];
    const result = await h.make().complete(request({ onDelta: (d) => deltas.push(d) }));
    expect(result.text).toBe('42');
    expect(deltas).toEqual([
      { type: 'thought', text: 'let me ' },
      { type: 'thought', text: 'think' },
      { type: 'text', text: '42' },
    ]);
  });

  it('accumulates tool calls whose arguments arrive in fragments', async () => {
    h.fake.enqueue({
      text: ['Looking.'],
      toolCalls: [
        { id: 'call_a', name: 'read_file', args: ['{"pa', 'th": "src/', 'a.ts"', '}'] },
        { id: 'call_b', name: 'list', args: [] },
      ],
    });
    const result = await h.make().complete(request());
    expect(result.stopReason).toBe('tool_calls');
    expect(result.text).toBe('Looking.');
    expect(result.toolCalls).toEqual([
      { id: 'call_a', name: 'read_file', arguments: { path: 'src/a.ts' } },
      { id: 'call_b', name: 'list', arguments: {} },
    ]);
  });

  it('refuses tool arguments that are not JSON with protocol/bad_tool_arguments', async () => {
    h.fake.enqueue({ toolCalls: [{ name: 'x', args: ['{"a": ', 'tru'] }] });
    const err = await failure(h.make().complete(request()));
    expect(err).toMatchObject({ category: 'protocol', kind: 'bad_tool_arguments' });
  });

  it('reads a plain JSON answer when the server does not stream', async () => {
    h.fake.enqueue({ json: true, thoughts: ['hm'], text: ['plain'], toolCalls: [{ id: 'c1', name: 'ls', args: ['{"dir":"."}'] }], usage: { input: 5, output: 2 } });
    const deltas: Array<{ type: string; text: string }> = [];
    const result = await h.make().complete(request({ onDelta: (d) => deltas.push(d) }));
    expect(result).toEqual({
      text: 'plain',
      toolCalls: [{ id: 'c1', name: 'ls', arguments: { dir: '.' } }],
      stopReason: 'tool_calls',
      usage: { input_tokens: 5, output_tokens: 2 },
    });
    expect(deltas).toEqual([
      { type: 'thought', text: 'hm' },
      { type: 'text', text: 'plain' },
    ]);
  });

  it('retries a 429 after the Retry-After the server asked for, then succeeds', async () => {
    h.fake.enqueue({ type: 'error', status: 429, retryAfter: '3' }, { text: ['after wait'] });
    const result = await h.make().complete(request());
    expect(result.text).toBe('after wait');
    expect(h.sleeps).toEqual([3000]);
    expect(h.fake.completions()).toHaveLength(2);
  });

  it('gives up on a 5xx after 4 attempts with transport/http_status and the status', async () => {
    for (let i = 0; i < 4; i++) h.fake.enqueue({ type: 'error', status: 503, message: 'upstream sleeping' });
    const err = await failure(h.make().complete(request()));
    expect(err).toMatchObject({ category: 'transport', kind: 'http_status', status: 503 });
    expect(err.message).toContain('upstream sleeping');
    expect(h.fake.completions()).toHaveLength(4);
    // Full jitter with random() = 0.5: half of 500, 1000, 2000 ms.
    expect(h.sleeps).toEqual([250, 500, 1000]);
  });

  it('does not retry another 4xx: protocol/http_status with the status and the server text', async () => {
    h.fake.enqueue({ type: 'error', status: 400, message: 'model m1 does not exist' });
    const err = await failure(h.make().complete(request()));
    expect(err).toMatchObject({ category: 'protocol', kind: 'http_status', status: 400, retryable: false });
    expect(err.message).toContain('model m1 does not exist');
    expect(h.fake.completions()).toHaveLength(1);
    expect(h.sleeps).toEqual([]);
  });

  it('maps a refused connection to transport/connection_refused after its retries', async () => {
    const port = await closedPort();
    const err = await failure(h.make({ baseUrl: `http://127.0.0.1:${port}/v1` }).complete(request()));
    expect(err).toMatchObject({ category: 'transport', kind: 'connection_refused', status: null });
    expect(h.sleeps).toHaveLength(3);
  });

  it('answers an abort during the request with runtime/aborted', async () => {
    h.fake.enqueue({ type: 'hang' });
    const ctl = new AbortController();
    const pending = h.make().complete(request({ signal: ctl.signal }));
    await waitUntil(() => h.fake.completions().length === 1);
    ctl.abort();
    expect(await failure(pending)).toMatchObject({ category: 'runtime', kind: 'aborted' });
  });

  it('answers an abort in the middle of a stream with runtime/aborted, after the deltas so far', async () => {
    h.fake.enqueue({ text: ['partial'], hangAfter: true });
    const ctl = new AbortController();
    const deltas: string[] = [];
    const pending = h.make().complete(request({ signal: ctl.signal, onDelta: (d) => deltas.push(d.text) }));
    await waitUntil(() => deltas.length === 1);
    ctl.abort();
    expect(await failure(pending)).toMatchObject({ category: 'runtime', kind: 'aborted' });
    expect(deltas).toEqual(['partial']);
  });

  it('cancels a retry wait when aborted', async () => {
    h.fake.enqueue({ type: 'error', status: 500 });
    const ctl = new AbortController();
    const p = h.make({ sleep: (_ms, signal) => new Promise((_r, reject) => (ctl.abort(), reject(signal.reason))) }).complete(request({ signal: ctl.signal }));
    expect(await failure(p)).toMatchObject({ category: 'runtime', kind: 'aborted' });
    expect(h.fake.completions()).toHaveLength(1);
  });

  it('fails with transport/timeout when the server sends nothing for the request timeout', async () => {
    h.fake.enqueue({ type: 'hang' });
    const err = await failure(h.make({ limits: { idleTimeoutMs: 150 } }).complete(request()));
    expect(err).toMatchObject({ category: 'transport', kind: 'timeout' });
    expect(h.fake.completions()).toHaveLength(1);
  });

  it('refuses to call without the key when api_key_env names an unset variable', async () => {
    const err = await failure(h.make({ env: {} }).complete(request()));
    expect(err).toMatchObject({ category: 'runtime', kind: 'missing_api_key' });
    expect(err.message).toContain('TEST_KEY');
    expect(h.fake.requests).toHaveLength(0);
    await expect(h.make({ env: {} }).listModels(new AbortController().signal)).rejects.toMatchObject({ kind: 'missing_api_key' });
    expect(h.fake.requests).toHaveLength(0);
  });

  it('sends no auth header when api_key_env is empty', async () => {
    await h.make({ apiKeyEnv: '' }).complete(request());
    const headers = h.fake.completions()[0]!.headers;
    expect(headers.authorization).toBeUndefined();
    expect(headers['x-api-key']).toBeUndefined();
  });

  it('never puts the key into an error message, even when the server echoes it', async () => {
    h.fake.enqueue({ type: 'error', status: 401, message: `invalid key ${KEY}` });
    const err = await failure(h.make().complete(request()));
    expect(err.status).toBe(401);
    expect(err.message).not.toContain(KEY);
    expect(err.message).toContain('[redacted]');
  });

  it('answers protocol/bad_response for a body that is neither JSON nor a stream', async () => {
    h.fake.enqueue({ type: 'raw', contentType: 'text/html', body: '<html>proxy error</html>' });
    expect(await failure(h.make().complete(request()))).toMatchObject({ category: 'protocol', kind: 'bad_response' });
  });

  it('answers protocol/bad_response for a stream cut short', async () => {
    const cut = kind === 'openai' ? 'data: {"choices":[{"index":0,"delta":{"content":"a"}}]}\n\n' : 'event: ping\ndata: {"type":"ping"}\n\n';
    h.fake.enqueue({ type: 'raw', contentType: 'text/event-stream', body: cut });
    expect(await failure(h.make().complete(request()))).toMatchObject({ category: 'protocol', kind: 'bad_response' });
  });

  it('lists models from GET {base_url}/models', async () => {
    h.fake.models = ['alpha', 'beta'];
    expect(await h.make().listModels(new AbortController().signal)).toEqual(['alpha', 'beta']);
    const listing = h.fake.requests.find((r) => r.path === '/v1/models')!;
    if (kind === 'openai') expect(listing.headers.authorization).toBe(`Bearer ${KEY}`);
    else expect(listing.headers['x-api-key']).toBe(KEY);
  });

  it('reports a failed listing as a ProviderError without retrying', async () => {
    h.fake.enqueueModels({ type: 'error', status: 500 });
    const err = await failure(h.make().listModels(new AbortController().signal));
    expect(err).toMatchObject({ kind: 'http_status', status: 500 });
    expect(h.fake.requests).toHaveLength(1);
  });
});

/** A conversation with every kind of entry, including two tool results in a row. */
const conversation: ChatMessage[] = [
  { role: 'user', content: 'list and read' },
  {
    role: 'assistant',
    content: 'On it.',
    tool_calls: [
      { id: 'c1', name: 'list', arguments: { dir: '.' } },
      { id: 'c2', name: 'read', arguments: { path: 'a' } },
    ],
  },
  { role: 'tool', tool_call_id: 'c1', name: 'list', content: 'a b' },
  { role: 'tool', tool_call_id: 'c2', name: 'read', content: 'hello' },
  { role: 'assistant', content: '', tool_calls: [{ id: 'c3', name: 'list', arguments: {} }] },
  { role: 'tool', tool_call_id: 'c3', name: 'list', content: 'x' },
  { role: 'assistant', content: 'Done: a holds hello.' },
  { role: 'user', content: 'thanks' },
];
const tools = [{ name: 'list', description: 'list files', parameters: { type: 'object', properties: { dir: { type: 'string' } } } }];

describe('conversation mapping', () => {
  let fake: FakeModelServer;
  afterEach(() => fake.close());

  it('openai: system message first, function tools, tool_calls and role tool results', async () => {
    fake = await startFakeOpenAI();
    await new OpenAIProvider('p', { base_url: fake.url, api_key_env: 'K' }, { env: { K: KEY } }).complete(request({ messages: conversation, tools }));
    const { body, headers } = fake.completions()[0]!;
    expect(headers.authorization).toBe(`Bearer ${KEY}`);
    expect(body.model).toBe('m1');
    expect(body.tools).toEqual([{ type: 'function', function: tools[0] }]);
    expect(body.messages).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'list and read' },
      {
        role: 'assistant',
        content: 'On it.',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'list', arguments: '{"dir":"."}' } },
          { id: 'c2', type: 'function', function: { name: 'read', arguments: '{"path":"a"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'a b' },
      { role: 'tool', tool_call_id: 'c2', content: 'hello' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c3', type: 'function', function: { name: 'list', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c3', content: 'x' },
      { role: 'assistant', content: 'Done: a holds hello.' },
      { role: 'user', content: 'thanks' },
    ]);
  });

  it('openai: no tools field when no tools are offered', async () => {
    fake = await startFakeOpenAI();
    await new OpenAIProvider('p', { base_url: fake.url, api_key_env: '' }).complete(request());
    expect(fake.completions()[0]!.body).not.toHaveProperty('tools');
  });

  it('anthropic: system field, tool_use blocks, consecutive tool results in one user message', async () => {
    fake = await startFakeAnthropic();
    await new AnthropicProvider('p', { base_url: fake.url, api_key_env: 'K' }, { env: { K: KEY } }).complete(request({ messages: conversation, tools }));
    const { body, headers } = fake.completions()[0]!;
    expect(headers['x-api-key']).toBe(KEY);
    expect(headers['anthropic-version']).toBe('2023-06-01');
    expect(headers.authorization).toBeUndefined();
    expect(body).toMatchObject({ model: 'm1', system: 'be brief', stream: true, max_tokens: 4096 });
    expect(body.tools).toEqual([{ name: 'list', description: 'list files', input_schema: tools[0]!.parameters }]);
    expect(body.messages).toEqual([
      { role: 'user', content: 'list and read' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'On it.' },
          { type: 'tool_use', id: 'c1', name: 'list', input: { dir: '.' } },
          { type: 'tool_use', id: 'c2', name: 'read', input: { path: 'a' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'c1', content: 'a b' },
          { type: 'tool_result', tool_use_id: 'c2', content: 'hello' },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'c3', name: 'list', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c3', content: 'x' }] },
      { role: 'assistant', content: 'Done: a holds hello.' },
      { role: 'user', content: 'thanks' },
    ]);
  });

  it('anthropic: user text right after tool results joins their user message', async () => {
    fake = await startFakeAnthropic();
    const messages: ChatMessage[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: '', tool_calls: [{ id: 't1', name: 'list', arguments: {} }] },
      { role: 'tool', tool_call_id: 't1', name: 'list', content: 'r' },
      { role: 'user', content: 'and stop' },
    ];
    await new AnthropicProvider('p', { base_url: fake.url, api_key_env: '' }).complete(request({ messages, system: '' }));
    const { body } = fake.completions()[0]!;
    expect(body).not.toHaveProperty('system');
    expect(body.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't1', content: 'r' },
        { type: 'text', text: 'and stop' },
      ],
    });
  });

  it('anthropic: an overloaded error event before any output is retried', async () => {
    fake = await startFakeAnthropic();
    fake.enqueue(
      { type: 'raw', contentType: 'text/event-stream', body: 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n' },
      { text: ['fine'] },
    );
    const sleeps: number[] = [];
    const p = new AnthropicProvider('p', { base_url: fake.url, api_key_env: '' }, { sleep: async (ms) => void sleeps.push(ms), random: () => 0 });
    expect((await p.complete(request())).text).toBe('fine');
    expect(sleeps).toEqual([0]);
  });

  it('anthropic: maps stop reasons (max_tokens → length)', async () => {
    fake = await startFakeAnthropic();
    fake.enqueue({ text: ['cut'], finish: 'max_tokens' });
    const result = await new AnthropicProvider('p', { base_url: fake.url, api_key_env: '' }).complete(request());
    expect(result.stopReason).toBe('length');
  });
});

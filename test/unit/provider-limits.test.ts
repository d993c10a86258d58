/**
 * The limits of a model round (src/runtime/providers/reply-body.ts, transport.ts) against fake
 * servers on loopback that misbehave: keep-alives and nothing else, a trickle that never ends, a
 * line or a body with no end, more content than any answer holds. Timers are injected and fired
 * by hand, so no test waits for a timeout to pass.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicProvider } from '../../src/runtime/providers/anthropic.js';
import { OpenAIProvider } from '../../src/runtime/providers/openai.js';
import type { SetTimer, StreamLimits } from '../../src/runtime/providers/reply-body.js';
import type { TransportOptions } from '../../src/runtime/providers/transport.js';
import type { ModelProvider, ProviderError } from '../../src/runtime/providers/types.js';
import { startFakeAnthropic } from '../helpers/fake-anthropic.js';
import type { FakeModelServer, Reply } from '../helpers/fake-model-server.js';
import { startFakeOpenAI } from '../helpers/fake-openai.js';
import { failure, request, waitUntil } from '../helpers/provider-calls.js';

const IDLE = 1111;
const DEADLINE = 2222;

/** Timers that only fire when the test says so. */
function manualTimers() {
  const timers: Array<{ fn: () => void; ms: number; live: boolean }> = [];
  const setTimer: SetTimer = (fn, ms) => {
    const t = { fn, ms, live: true };
    timers.push(t);
    return () => void (t.live = false);
  };
  return {
    setTimer,
    /** Timers ever set with this duration. */
    count: (ms: number) => timers.filter((t) => t.ms === ms).length,
    live: () => timers.filter((t) => t.live),
    fire(ms: number): void {
      const due = timers.filter((t) => t.live && t.ms === ms);
      expect(due).toHaveLength(1);
      due[0]!.live = false;
      due[0]!.fn();
    },
  };
}

let fake: FakeModelServer | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

function provider(kind: 'openai' | 'anthropic', server: FakeModelServer, opts: Partial<TransportOptions> & { limits?: Partial<StreamLimits> } = {}): ModelProvider {
  const Provider = kind === 'openai' ? OpenAIProvider : AnthropicProvider;
  return new Provider('p', { base_url: server.url, api_key_env: '' }, { sleep: async () => {}, random: () => 0, ...opts, limits: { idleTimeoutMs: IDLE, roundDeadlineMs: DEADLINE, ...opts.limits } });
}

/** The flood the fake sent was cut short: the client dropped the connection instead of reading on. */
async function floodCutShort(): Promise<void> {
  await waitUntil(() => fake!.floods[0]!.done, 10_000);
  expect(fake!.floods[0]!.cutShort).toBe(true);
}

const openaiDelta = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;

describe('idle timeout', () => {
  it('SSE comments do not count as content: a stream of keep-alives fails with timeout when the idle timer fires', async () => {
    fake = await startFakeOpenAI();
    fake.enqueue({ type: 'drip', everyMs: 2 });
    const t = manualTimers();
    const p = provider('openai', fake, { setTimer: t.setTimer }).complete(request());
    await waitUntil(() => fake!.dripped >= 50 && t.count(IDLE) >= 2, 10_000);
    // Set at the start and again when the headers came; fifty keep-alives later, never again.
    expect(t.count(IDLE)).toBe(2);
    t.fire(IDLE);
    const err = await failure(p);
    expect(err).toMatchObject({ category: 'transport', kind: 'timeout' });
    expect(err.message).toContain('model.stream_idle_timeout_ms');
    expect(t.live()).toEqual([]);
  });

  it("Anthropic's ping events are keep-alives too; a data event is content and restarts the timer", async () => {
    fake = await startFakeAnthropic();
    fake.enqueue({ type: 'drip', everyMs: 2, frame: 'event: ping\ndata: {"type": "ping"}\n\n' });
    const t = manualTimers();
    const p = provider('anthropic', fake, { setTimer: t.setTimer }).complete(request());
    await waitUntil(() => fake!.dripped >= 50 && t.count(IDLE) >= 2, 10_000);
    expect(t.count(IDLE)).toBe(2);
    t.fire(IDLE);
    expect(await failure(p)).toMatchObject({ kind: 'timeout' });

    await fake.close();
    fake = await startFakeOpenAI();
    fake.enqueue({ type: 'drip', everyMs: 2, frame: openaiDelta('.') });
    const t2 = manualTimers();
    const p2 = provider('openai', fake, { setTimer: t2.setTimer }).complete(request());
    await waitUntil(() => t2.count(IDLE) >= 10, 10_000);
    t2.fire(IDLE);
    expect(await failure(p2)).toMatchObject({ kind: 'timeout' });
  });
});

describe('round deadline', () => {
  it('a trickle of real content that never ends fails with round_deadline', async () => {
    fake = await startFakeOpenAI();
    fake.enqueue({ type: 'drip', everyMs: 2, frame: openaiDelta('.') });
    const t = manualTimers();
    const deltas: string[] = [];
    const p = provider('openai', fake, { setTimer: t.setTimer }).complete(request({ onDelta: (d) => deltas.push(d.text) }));
    await waitUntil(() => deltas.length >= 10, 10_000);
    t.fire(DEADLINE);
    const err = await failure(p);
    expect(err).toMatchObject({ category: 'transport', kind: 'round_deadline', retryable: false });
    expect(err.message).toContain('model.round_deadline_ms');
    expect(t.live()).toEqual([]);
  });

  it('covers the retries and the waits between them', async () => {
    fake = await startFakeOpenAI();
    fake.enqueue({ type: 'error', status: 503 }, { type: 'error', status: 503 });
    const t = manualTimers();
    let waiting = false;
    const sleep = (_ms: number, signal: AbortSignal) =>
      new Promise<void>((_resolve, reject) => {
        waiting = true;
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    const p = provider('openai', fake, { setTimer: t.setTimer, sleep }).complete(request());
    await waitUntil(() => waiting, 10_000);
    t.fire(DEADLINE);
    expect(await failure(p)).toMatchObject({ kind: 'round_deadline' });
    expect(fake.completions()).toHaveLength(1);
  });

  it('a caller abort stays an abort, and every timer is cleared once a round ends', async () => {
    fake = await startFakeOpenAI();
    fake.enqueue({ text: ['fine'] }, { type: 'error', status: 400 }, { type: 'hang' });
    const t = manualTimers();
    const p = provider('openai', fake, { setTimer: t.setTimer });
    expect((await p.complete(request())).text).toBe('fine');
    expect(t.live()).toEqual([]);
    expect(await failure(p.complete(request()))).toMatchObject({ kind: 'http_status' });
    expect(t.live()).toEqual([]);
    const ctl = new AbortController();
    const hanging = p.complete(request({ signal: ctl.signal }));
    await waitUntil(() => fake!.completions().length === 3, 10_000);
    ctl.abort();
    expect(await failure(hanging)).toMatchObject({ kind: 'aborted' });
    expect(t.live()).toEqual([]);
  });
});

describe('caps', () => {
  const FLOOD = 64 * 1024 * 1024;

  /** `reply` (a flood) under `limits`: the failure it ends with, once the fake saw the connection dropped. */
  async function flooded(reply: Reply, limits: Partial<StreamLimits>): Promise<ProviderError> {
    fake = await startFakeOpenAI();
    fake.enqueue(reply);
    const err = await failure(provider('openai', fake, { limits }).complete(request()));
    expect(err).toMatchObject({ category: 'protocol', kind: 'reply_too_large' });
    await floodCutShort();
    expect(fake.floods[0]!.written).toBeLessThan(FLOOD);
    return err;
  }

  it('a line with no end fails with reply_too_large and the connection is dropped', async () => {
    const err = await flooded({ type: 'flood', contentType: 'text/event-stream', prefix: 'data: ', bytes: FLOOD, suffix: '\n\n' }, { maxLineBytes: 256 * 1024 });
    expect(err.message).toBe('provider p: an event-stream line is longer than 262144 bytes (model.stream_max_line_bytes)');
  });

  it('a non-streamed answer over max_reply_bytes fails with reply_too_large without being read whole', async () => {
    const err = await flooded({ type: 'flood', contentType: 'application/json', prefix: '{"choices":[{"message":{"content":"', bytes: FLOOD, suffix: '"}}]}' }, { maxReplyBytes: 256 * 1024 });
    expect(err.message).toBe('provider p: the answer is larger than 262144 bytes (model.max_reply_bytes)');
  });

  it('an answer under the caps is read as before', async () => {
    fake = await startFakeOpenAI();
    fake.enqueue({ type: 'flood', contentType: 'application/json', prefix: '{"choices":[{"finish_reason":"stop","message":{"content":"', bytes: 200 * 1024, suffix: '"}}]}' });
    const result = await provider('openai', fake, { limits: { maxReplyBytes: 256 * 1024 } }).complete(request());
    expect(result.text).toHaveLength(200 * 1024);
  });

  it('many small deltas that together pass max_reply_bytes fail with reply_too_large', async () => {
    fake = await startFakeAnthropic();
    fake.enqueue({ text: Array.from({ length: 100 }, () => 'x'.repeat(1000)) });
    const err = await failure(provider('anthropic', fake, { limits: { maxReplyBytes: 10_000 } }).complete(request()));
    expect(err).toMatchObject({ kind: 'reply_too_large' });
    expect(err.message).toBe('provider p: the answer carries more than 10000 bytes of content (model.max_reply_bytes)');
  });

  it('an error body is read to 64 KiB at most: the status still answers, the rest is never read', async () => {
    fake = await startFakeOpenAI();
    fake.enqueue({ type: 'flood', status: 400, contentType: 'text/plain', prefix: 'bad: ', bytes: 64 * 1024 * 1024 });
    const err = await failure(provider('openai', fake).complete(request()));
    expect(err).toMatchObject({ kind: 'http_status', status: 400 });
    expect(err.message.length).toBeLessThan(600);
    await floodCutShort();
  });
});

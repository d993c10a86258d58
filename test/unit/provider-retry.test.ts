/**
 * The providers' retry policy (retry.ts): full-jitter backoff bounds, Retry-After (seconds and
 * HTTP dates, capped), which failures are retried and how often, abort during a wait; and the
 * event-stream parser (sse-parser.ts) under arbitrary chunking.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, backoffMs, parseRetryAfter, withRetry, type RetryOptions } from '../../src/runtime/providers/retry.js';
import { SseParser } from '../../src/runtime/providers/sse-parser.js';
import { ProviderError } from '../../src/runtime/providers/types.js';

const NOW = Date.UTC(2030, 0, 1);

function options(sleeps: number[], over: Partial<RetryOptions> = {}): RetryOptions {
  return {
    policy: DEFAULT_RETRY,
    sleep: async (ms) => void sleeps.push(ms),
    random: () => 0.999,
    signal: new AbortController().signal,
    ...over,
  };
}

const retryable = (retryAfterSec: number | null = null) => new ProviderError('transport', 'http_status', 'HTTP 503', 503, true, retryAfterSec);

describe('backoff', () => {
  it('stays within [0, min(8 s, 500 ms * 2^n)) for every random value', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (n, r) => {
        const ms = backoffMs(n, DEFAULT_RETRY, () => r);
        expect(ms).toBeGreaterThanOrEqual(0);
        expect(ms).toBeLessThan(Math.min(8000, 500 * 2 ** n));
      }),
    );
  });

  it('grows exponentially up to the cap', () => {
    const top = (n: number) => backoffMs(n, DEFAULT_RETRY, () => 0.999999);
    expect([0, 1, 2, 3, 4, 5].map(top)).toEqual([499, 999, 1999, 3999, 7999, 7999]);
  });
});

describe('Retry-After', () => {
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('7', NOW)).toBe(7);
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0);
    expect(parseRetryAfter('1.5', NOW)).toBe(1.5);
  });

  it('reads an HTTP date relative to now, never negative', () => {
    expect(parseRetryAfter(new Date(NOW + 12_000).toUTCString(), NOW)).toBe(12);
    expect(parseRetryAfter(new Date(NOW - 60_000).toUTCString(), NOW)).toBe(0);
  });

  it('ignores absent and unreadable values', () => {
    expect(parseRetryAfter(null, NOW)).toBeNull();
    expect(parseRetryAfter('soon', NOW)).toBeNull();
    expect(parseRetryAfter('-3', NOW)).toBeNull();
  });
});

describe('withRetry', () => {
  it('makes at most 4 attempts and rethrows the last failure', async () => {
    const sleeps: number[] = [];
    let calls = 0;
    const err = await withRetry(async () => {
      calls++;
      throw retryable();
    }, options(sleeps)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(calls).toBe(4);
    expect(sleeps).toEqual([499, 999, 1998]);
  });

  it("waits the server's Retry-After instead of the backoff, capped at 30 s", async () => {
    const sleeps: number[] = [];
    const answers = [retryable(2), retryable(3600)];
    const result = await withRetry(async () => {
      const next = answers.shift();
      if (next) throw next;
      return 'ok';
    }, options(sleeps));
    expect(result).toBe('ok');
    expect(sleeps).toEqual([2000, 30_000]);
  });

  it('does not retry a failure that is not retryable, nor a foreign error', async () => {
    const sleeps: number[] = [];
    let calls = 0;
    const fatal = new ProviderError('protocol', 'http_status', 'HTTP 400', 400);
    await expect(withRetry(async () => (calls++, Promise.reject(fatal)), options(sleeps))).rejects.toBe(fatal);
    const bug = new TypeError('bug');
    await expect(withRetry(async () => (calls++, Promise.reject(bug)), options(sleeps))).rejects.toBe(bug);
    expect(calls).toBe(2);
    expect(sleeps).toEqual([]);
  });

  it('turns an abort during the wait into runtime/aborted and stops', async () => {
    const ctl = new AbortController();
    let calls = 0;
    const err = await withRetry(
      async () => {
        calls++;
        throw retryable();
      },
      options([], {
        signal: ctl.signal,
        sleep: () => {
          ctl.abort();
          return Promise.reject(new Error('aborted'));
        },
      }),
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ category: 'runtime', kind: 'aborted' });
    expect(calls).toBe(1);
  });
});

describe('SseParser', () => {
  const stream =
    ': comment\r\n' +
    'event: message_start\r\n' +
    'data: {"a":1}\r\n' +
    '\r\n' +
    'data: line one\n' +
    'data: line two\n' +
    'id: 7\n' +
    '\n' +
    'data:no-space\r' +
    '\r' +
    'data: {"emoji":"héllo ✓"}\n\n' +
    'data: [DONE]';
  const expected = [
    { event: 'message_start', data: '{"a":1}' },
    { event: 'message', data: 'line one\nline two' },
    { event: 'message', data: 'no-space' },
    { event: 'message', data: '{"emoji":"héllo ✓"}' },
    { event: 'message', data: '[DONE]' },
  ];

  it('yields the same events however the bytes are split into chunks', () => {
    const bytes = new TextEncoder().encode(stream);
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 12 }), (cuts) => {
        const points = [0, ...cuts.sort((a, b) => a - b), bytes.length];
        const parser = new SseParser();
        const out = [];
        for (let i = 0; i + 1 < points.length; i++) out.push(...parser.push(bytes.subarray(points[i], points[i + 1])));
        out.push(...parser.end());
        expect(out).toEqual(expected);
      }),
    );
  });
});

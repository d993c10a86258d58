/**
 * The one retry policy of the model providers: a failed attempt is retried when its ProviderError
 * is `retryable` (429, 5xx, connection refused/reset/DNS), with exponential backoff and full
 * jitter (delay = random() * min(cap, initial * 2^n)), or the server's Retry-After when it sent
 * one (capped). The wait ends early when the caller's signal aborts (→ runtime/aborted). The
 * sleep function and the random source are injected, so tests never wait real seconds.
 */
import { ProviderError } from './types.js';

export interface RetryPolicy {
  /** Attempts in all (the first one included). */
  attempts: number;
  /** Upper bound of the first backoff delay. */
  initialMs: number;
  /** Cap of one backoff delay. */
  maxMs: number;
  /** Cap of a server's Retry-After. */
  retryAfterCapMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, initialMs: 500, maxMs: 8_000, retryAfterCapMs: 30_000 };

/** Waits `ms`; rejects (with anything) when `signal` aborts first. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

export interface RetryOptions {
  policy: RetryPolicy;
  sleep: Sleep;
  random: () => number;
  signal: AbortSignal;
  /** Called before each wait (logging, tests). */
  onRetry?: (info: { attempt: number; delayMs: number; error: ProviderError }) => void;
}

/** Full-jitter exponential backoff before retry number `retry` (0 = the first retry). */
export function backoffMs(retry: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxMs, policy.initialMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}

/** Retry-After as seconds: delta-seconds or an HTTP date (relative to `nowMs`); null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  if (value === null || value === undefined) return null;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Number(v);
  // An HTTP date names its weekday and month; Date.parse alone would read "-3" as a year.
  if (!/[A-Za-z]/.test(v)) return null;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, (at - nowMs) / 1000);
}

export function abortedError(): ProviderError {
  return new ProviderError('runtime', 'aborted', 'the model request was aborted');
}

/** Run `attempt` until it succeeds, fails with a non-retryable error, or the attempts run out. */
export async function withRetry<T>(attempt: (n: number) => Promise<T>, opts: RetryOptions): Promise<T> {
  const { policy, signal } = opts;
  for (let n = 0; ; n++) {
    if (signal.aborted) throw abortedError();
    try {
      return await attempt(n);
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      if (!err.retryable || n + 1 >= policy.attempts || signal.aborted) throw err;
      const delayMs =
        err.retryAfterSec !== null ? Math.min(policy.retryAfterCapMs, Math.ceil(err.retryAfterSec * 1000)) : backoffMs(n, policy, opts.random);
      opts.onRetry?.({ attempt: n + 1, delayMs, error: err });
      try {
        await opts.sleep(delayMs, signal);
      } catch {
        throw abortedError();
      }
    }
  }
}

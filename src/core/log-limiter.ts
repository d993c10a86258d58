/**
 * Log lines that anyone who can reach a route can cause at will (a refused webhook delivery) are
 * written at most once per key and window on the injected clock: the first line of a window says
 * how many were suppressed since the last one written, the others are only counted. At most
 * `maxKeys` keys are remembered (the oldest is forgotten first), so callers key by something they
 * bound (a source that exists, a reason), never by what the caller sent.
 */
import type { Clock } from './clock.js';

export class LogLimiter {
  private readonly keys = new Map<string, { until: number; suppressed: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly windowMs = 60_000,
    private readonly maxKeys = 1024,
  ) {}

  /** `write(suppressed)` when `key` may log now; otherwise the line is counted as suppressed. */
  limit(key: string, write: (suppressed: number) => void): void {
    const now = this.clock.now();
    const seen = this.keys.get(key);
    if (seen && now < seen.until) {
      seen.suppressed += 1;
      return;
    }
    this.keys.delete(key);
    if (this.keys.size >= this.maxKeys) this.keys.delete(this.keys.keys().next().value!);
    this.keys.set(key, { until: now + this.windowMs, suppressed: 0 });
    write(seen?.suppressed ?? 0);
  }
}

/**
 * The one source of time for svc. Services take a Clock in their deps instead of calling
 * Date.now(), so tests drive time with a ManualClock and never sleep.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to (tests). */
export class ManualClock implements Clock {
  constructor(private current: number = Date.UTC(2030, 0, 1)) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(ms: number): void {
    this.current = ms;
  }
}

let lastMs = Number.NaN;
let lastIso = '';

/** RFC 3339 timestamp (UTC, milliseconds) for a clock reading; the last one is memoised (hot path). */
export function isoAt(ms: number): string {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}

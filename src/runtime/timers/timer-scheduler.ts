/**
 * The in-memory schedule of active timers: a binary min-heap ordered by due time, with lazy
 * removal (a timer's live entry is the one whose generation matches `live`), and one real
 * `setTimeout` armed for the earliest due entry. Time is read only through the injected clock;
 * the timeout just wakes the owner up, which then asks the clock what is due. Insert, remove and
 * pop are O(log n), so 10,000 active timers cost nothing noticeable.
 */
import type { Clock } from '../../core/index.js';

export interface ScheduleEntry {
  due: number;
  timerId: string;
  gen: number;
}

/** setTimeout's largest delay (about 24.8 days); longer waits re-arm on wake-up. */
const MAX_DELAY_MS = 2 ** 31 - 1;

export class TimerSchedule {
  private heap: ScheduleEntry[] = [];
  /** timer_id -> generation of its live entry. */
  private readonly live = new Map<string, number>();
  private nextGen = 1;
  private handle: NodeJS.Timeout | null = null;
  private armedFor = Number.POSITIVE_INFINITY;
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly onWake: () => void,
  ) {}

  get size(): number {
    return this.live.size;
  }

  has(timerId: string): boolean {
    return this.live.has(timerId);
  }

  /** Schedule (or reschedule) a timer at `due` (epoch ms) and re-arm if it is now the earliest. */
  set(timerId: string, due: number): void {
    const gen = this.nextGen++;
    this.live.set(timerId, gen);
    this.push({ due, timerId, gen });
    this.arm();
  }

  remove(timerId: string): void {
    this.live.delete(timerId);
    // The stale heap entry is dropped when it surfaces; an early wake-up just re-arms.
    if (this.live.size === 0) this.disarm();
    // Many removals of far-future timers: rebuild rather than let stale entries pile up.
    if (this.heap.length > 2 * this.live.size + 1024) this.compact();
  }

  private compact(): void {
    const keep = this.heap.filter((e) => this.live.get(e.timerId) === e.gen);
    this.heap = [];
    for (const e of keep) this.push(e);
  }

  /** Remove and return the live entries due at or before `now`, earliest first, at most `max`. */
  takeDue(now: number, max: number): ScheduleEntry[] {
    const out: ScheduleEntry[] = [];
    while (out.length < max) {
      const top = this.peekLive();
      if (!top || top.due > now) break;
      this.pop();
      this.live.delete(top.timerId);
      out.push(top);
    }
    return out;
  }

  /** Due time of the earliest live entry, or null. */
  nextDue(): number | null {
    return this.peekLive()?.due ?? null;
  }

  /** Arm the one real timeout for the earliest live entry (no-op if already armed as early). */
  arm(): void {
    if (this.stopped) return;
    const due = this.nextDue();
    if (due === null) return this.disarm();
    if (this.handle && this.armedFor <= due) return;
    this.disarm();
    const delay = Math.min(MAX_DELAY_MS, Math.max(0, due - this.clock.now()));
    this.armedFor = due;
    this.handle = setTimeout(() => {
      this.handle = null;
      this.armedFor = Number.POSITIVE_INFINITY;
      this.onWake();
    }, delay);
    this.handle.unref();
  }

  disarm(): void {
    if (this.handle) clearTimeout(this.handle);
    this.handle = null;
    this.armedFor = Number.POSITIVE_INFINITY;
  }

  /** Forget everything and never arm again (shutdown). */
  stop(): void {
    this.stopped = true;
    this.disarm();
    this.heap = [];
    this.live.clear();
  }

  private peekLive(): ScheduleEntry | undefined {
    for (;;) {
      const top = this.heap[0];
      if (!top) return undefined;
      if (this.live.get(top.timerId) === top.gen) return top;
      this.pop();
    }
  }

  private push(e: ScheduleEntry): void {
    const h = this.heap;
    h.push(e);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!less(h[i]!, h[parent]!)) break;
      [h[i], h[parent]] = [h[parent]!, h[i]!];
      i = parent;
    }
  }

  private pop(): ScheduleEntry | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && less(h[l]!, h[m]!)) m = l;
        if (r < h.length && less(h[r]!, h[m]!)) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m]!, h[i]!];
        i = m;
      }
    }
    return top;
  }
}

/** Earlier due first; equal due in scheduling order. */
function less(a: ScheduleEntry, b: ScheduleEntry): boolean {
  return a.due < b.due || (a.due === b.due && a.gen < b.gen);
}

/**
 * Inbox housekeeping: every service that keeps something worth trimming exposes
 * `gc(): Record<string, number>`; the composition (index.ts) hands them here. It runs every
 * GC_INTERVAL_MS on the injected clock, as AgentInbox's daemon does (so acknowledged entries go
 * once their retention has passed, whether or not anyone calls POST /gc), and on POST /gc. Counts
 * with the same name are added up.
 */
import type { Logger } from 'pino';
import type { Clock } from '../../core/index.js';
import { TimerSchedule } from '../../runtime/timers/index.js';

export interface GcHook {
  gc(): Record<string, number>;
}

export interface GcReport {
  /** What was removed, by kind (e.g. `notificationsRemoved`). */
  removed: Record<string, number>;
  durationMs: number;
}

/** How often housekeeping runs by itself (AgentInbox's DEFAULT_GC_INTERVAL_MS). */
export const GC_INTERVAL_MS = 60_000;

export function runGc(hooks: GcHook[], now: () => number): GcReport {
  const started = now();
  const removed: Record<string, number> = {};
  for (const hook of hooks) {
    for (const [name, n] of Object.entries(hook.gc())) removed[name] = (removed[name] ?? 0) + n;
  }
  return { removed, durationMs: now() - started };
}

export class Housekeeping {
  private readonly schedule: TimerSchedule;
  private last: number | null = null;

  constructor(private readonly deps: { hooks: GcHook[]; clock: Clock; logger: Logger }) {
    this.schedule = new TimerSchedule(deps.clock, () => this.runDue());
  }

  /** When housekeeping last ran (epoch ms), or null. */
  get lastRunAt(): number | null {
    return this.last;
  }

  run(): GcReport {
    const report = runGc(this.deps.hooks, () => this.deps.clock.now());
    this.last = this.deps.clock.now();
    return report;
  }

  start(): void {
    this.schedule.set('gc', this.deps.clock.now() + GC_INTERVAL_MS);
  }

  stop(): void {
    this.schedule.stop();
  }

  /** The schedule's wake-up (tests call it after moving a ManualClock). */
  runDue(): void {
    if (this.schedule.takeDue(this.deps.clock.now(), 1).length > 0) {
      try {
        const { removed } = this.run();
        if (Object.values(removed).some((n) => n > 0)) this.deps.logger.info({ removed }, 'inbox housekeeping');
      } catch (err) {
        this.deps.logger.warn({ err }, 'inbox housekeeping failed; trying again at the next interval');
      }
      this.schedule.set('gc', this.deps.clock.now() + GC_INTERVAL_MS);
    }
    this.schedule.arm();
  }
}

/**
 * POST /gc: run the inbox services' housekeeping now and report what each removed. Each service
 * that keeps something worth trimming exposes `gc(): Record<string, number>`; the composition
 * (index.ts) hands them here. Counts with the same name are added up.
 */
export interface GcHook {
  gc(): Record<string, number>;
}

export interface GcReport {
  /** What was removed, by kind (e.g. `notificationsRemoved`). */
  removed: Record<string, number>;
  durationMs: number;
}

export function runGc(hooks: GcHook[], now: () => number): GcReport {
  const started = now();
  const removed: Record<string, number> = {};
  for (const hook of hooks) {
    for (const [name, n] of Object.entries(hook.gc())) removed[name] = (removed[name] ?? 0) + n;
  }
  return { removed, durationMs: now() - started };
}

/**
 * Per-key serialisation: `run(key, fn)` starts fn once every earlier call with the same key has
 * settled (a failure does not break the chain), and forgets the key when its chain is idle.
 * Used where concurrent requests on one resource must not interleave (delivery resumes of an
 * inbox agent, polls of a remote source).
 */
export class KeyedSerial {
  private readonly chains = new Map<string, Promise<unknown>>();

  run<T>(key: string, fn: () => T | Promise<T>): Promise<T> {
    const previous = this.chains.get(key) ?? Promise.resolve();
    const next = previous.then(fn, fn);
    const settled = next.catch(() => undefined);
    this.chains.set(key, settled);
    void settled.then(() => {
      if (this.chains.get(key) === settled) this.chains.delete(key);
    });
    return next;
  }

  /** Resolves once every chain running now has settled. */
  async idle(): Promise<void> {
    await Promise.all([...this.chains.values()]);
  }
}

/** Whether `p` settles within `ms` (it goes on either way; only the wait is bounded). */
export async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([p.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

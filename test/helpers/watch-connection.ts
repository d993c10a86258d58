/** A watch connection held in memory: the frames an inbox watch delivered, parsed (src/inbox/entries/watch.ts). */
import type { WatchConnection } from '../../src/inbox/entries/watch.js';

export interface WatchFrame {
  id: string | undefined;
  event: string;
  data: { event: string; agentId: string; entries: Array<Record<string, unknown>> };
}

export class FakeConnection implements WatchConnection {
  frames: WatchFrame[] = [];
  closed = false;
  /** Set by a test to stand for a socket that pushes back; `drain()` lets it go. */
  backedUp = false;
  private hooks: Array<() => void> = [];
  private drained: Array<() => void> = [];
  deliver(frame: string): void {
    const field = (name: string) => new RegExp(`^${name}: (.*)$`, 'm').exec(frame)?.[1];
    this.frames.push({ id: field('id'), event: field('event')!, data: JSON.parse(field('data')!) });
  }
  entries(): Array<Record<string, unknown>> {
    return this.frames.flatMap((f) => f.data.entries ?? []);
  }
  get heartbeats(): number {
    return this.frames.filter((f) => f.event === 'heartbeat').length;
  }
  writable(): Promise<void> {
    if (!this.backedUp || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.drained.push(resolve));
  }
  drain(): void {
    this.backedUp = false;
    for (const resolve of this.drained.splice(0)) resolve();
  }
  onClose(hook: () => void): void {
    this.hooks.push(hook);
  }
  close(): void {
    this.closed = true;
    for (const h of this.hooks.splice(0)) h();
  }
}

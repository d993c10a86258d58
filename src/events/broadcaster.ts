/**
 * Fans committed events out to live SSE subscribers. The event log publishes here only after
 * the transaction that appended the event has committed, in commit order, so a subscriber sees
 * exactly the durable sequence. Each event is serialised to an SSE frame once, whatever the
 * number of subscribers.
 */
import type { EventEnvelope } from './wire/index.js';

export interface Subscriber {
  deliver(frame: string, event: EventEnvelope): void;
}

export class Broadcaster {
  private readonly byAgent = new Map<string, Set<Subscriber>>();
  private readonly global = new Set<Subscriber>();
  private count = 0;

  subscribe(agentId: string, sub: Subscriber): () => void {
    let set = this.byAgent.get(agentId);
    if (!set) this.byAgent.set(agentId, (set = new Set()));
    set.add(sub);
    this.count++;
    return () => {
      if (set!.delete(sub)) this.count--;
      if (set!.size === 0 && this.byAgent.get(agentId) === set) this.byAgent.delete(agentId);
    };
  }

  subscribeAll(sub: Subscriber): () => void {
    this.global.add(sub);
    this.count++;
    return () => {
      if (this.global.delete(sub)) this.count--;
    };
  }

  get subscriberCount(): number {
    return this.count;
  }

  /** `isPublic` is asked only when someone follows the global stream. */
  publish(event: EventEnvelope, isPublic: () => boolean): void {
    const set = this.byAgent.get(event.agent_id);
    const toGlobal = this.global.size > 0 && isPublic();
    if (!set && !toGlobal) return;
    const frame = frameOf(event);
    if (set) for (const sub of [...set]) sub.deliver(frame, event);
    if (toGlobal) for (const sub of [...this.global]) sub.deliver(frame, event);
  }
}

/**
 * The SSE frame of an event (docs/control-plane-api.md#event-log): id = event_seq, event = type,
 * data = envelope.
 */
export function frameOf(event: EventEnvelope): string {
  return sseFrame(String(event.event_seq), event.type, JSON.stringify(event));
}

/** One SSE frame; `data` must already be a single line (JSON.stringify output is). */
export function sseFrame(id: string, event: string, data: string): string {
  return `id: ${id}\nevent: ${event}\ndata: ${data}\n\n`;
}

import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { IdGenerator } from '../../src/core/ids.js';
import { Broadcaster } from '../../src/events/broadcaster.js';
import { EventLog } from '../../src/events/event-log.js';
import { END_GRACE_MS, SseHub } from '../../src/events/sse.js';
import { Store } from '../../src/store/store.js';
import { testServices, type TestServices } from '../helpers/services.js';

/**
 * A response whose socket accepts `capacity` bytes before pushing back, and drains on demand.
 * `flushesOnEnd: false` is a client that has stopped reading: an ended response never closes.
 */
class FakeResponse extends EventEmitter {
  frames: string[] = [];
  buffered = 0;
  ended = false;
  destroyed = false;
  constructor(
    private readonly capacity: number,
    private readonly flushesOnEnd = true,
  ) {
    super();
  }
  write(chunk: string): boolean {
    this.frames.push(chunk);
    this.buffered += chunk.length;
    return this.buffered < this.capacity;
  }
  drain(): void {
    this.buffered = 0;
    this.emit('drain');
  }
  end(): void {
    this.ended = true;
    if (this.flushesOnEnd) this.emit('close');
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('close');
  }
  seqs(): number[] {
    return this.frames.map((f) => Number(/^id: (\d+)/.exec(f)![1]));
  }
}

let t: TestServices;
beforeEach(() => {
  t = testServices();
});
afterEach(() => t.close());

function append(n: number) {
  t.s.store.tx(() => {
    for (let i = 0; i < n; i++) t.s.events.append('main', 'tool_call', { i });
  });
}

describe('SSE delivery', () => {
  it('sends the backlog then live events, in order, with nothing skipped while the client drains', async () => {
    append(1500); // seq 2..1501 after agent_created
    const hub = new SseHub(t.s.events, t.s.broadcaster, { maxBufferedBytes: 10_000_000, maxClients: 10 });
    const res = new FakeResponse(50_000);
    const conn = hub.attach(res as unknown as ServerResponse);
    let done = false;
    const streaming = hub.streamAgent(conn, 'main', 0).then(() => (done = true));
    // While the backlog is pushed back, more events commit.
    for (let round = 0; !done; round++) {
      await new Promise((r) => setImmediate(r));
      if (round < 5) append(100);
      res.drain();
    }
    await streaming;
    append(10);
    res.drain();
    const head = t.s.events.head('main');
    expect(res.seqs()).toEqual(Array.from({ length: head }, (_, i) => i + 1));
  });

  it('disconnects a client that falls too far behind instead of skipping events', async () => {
    const lagging: string[] = [];
    const hub = new SseHub(t.s.events, t.s.broadcaster, { maxBufferedBytes: 20_000, maxClients: 10, onLagging: () => lagging.push('x') });
    const res = new FakeResponse(1_000); // never drained
    const conn = hub.attach(res as unknown as ServerResponse);
    await hub.streamAgent(conn, 'main', undefined);
    append(500);
    expect(conn.closed).toBe(true);
    expect(conn.closeReason).toBe('lagging');
    // Its socket is destroyed, not ended: an end would wait for a flush that never comes.
    expect(res.destroyed).toBe(true);
    expect(lagging).toHaveLength(1);
    // What it did get is a gap-free prefix.
    const seqs = res.seqs();
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 2));
    expect(hub.size).toBe(0);
  });

  it('counts a connection until its socket has closed, not until it stops taking frames', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      append(10);
      const hub = new SseHub(t.s.events, t.s.broadcaster, { maxBufferedBytes: 1_000_000, maxClients: 2 });
      const reader = new FakeResponse(1_000_000);
      const stalled = new FakeResponse(1_000_000, false); // has stopped reading: its end never flushes
      const a = hub.attach(reader as unknown as ServerResponse);
      const b = hub.attach(stalled as unknown as ServerResponse);
      await hub.streamAgent(a, 'main', 3, 2);
      await hub.streamAgent(b, 'main', 3, 2);
      expect([a.closeReason, b.closeReason]).toEqual(['limit_reached', 'limit_reached']);
      // The reader's socket closed with the end; the stalled one is still open and still counted.
      expect(reader.destroyed).toBe(false);
      expect(stalled.ended).toBe(true);
      expect(hub.size).toBe(1);
      vi.advanceTimersByTime(END_GRACE_MS - 1);
      expect(stalled.destroyed).toBe(false);
      expect(hub.full).toBe(false);
      hub.attach(new FakeResponse(1_000_000) as unknown as ServerResponse);
      expect(hub.full).toBe(true);
      vi.advanceTimersByTime(1);
      expect(stalled.destroyed).toBe(true);
      expect(hub.size).toBe(1);
      expect(hub.full).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('destroys every socket at shutdown that has not closed after the grace period', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const hub = new SseHub(t.s.events, t.s.broadcaster, { maxBufferedBytes: 1_000_000, maxClients: 10 });
      const stalled = Array.from({ length: 3 }, () => new FakeResponse(1_000_000, false));
      for (const res of stalled) hub.streamAll(hub.attach(res as unknown as ServerResponse));
      hub.closeAll();
      expect(hub.size).toBe(3);
      vi.advanceTimersByTime(END_GRACE_MS);
      expect(stalled.map((r) => r.destroyed)).toEqual([true, true, true]);
      expect(hub.size).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('closes after `limit` backlog events', async () => {
    append(10);
    const hub = new SseHub(t.s.events, t.s.broadcaster, { maxBufferedBytes: 1_000_000, maxClients: 10 });
    const res = new FakeResponse(1_000_000);
    const conn = hub.attach(res as unknown as ServerResponse);
    await hub.streamAgent(conn, 'main', 3, 4);
    expect(res.seqs()).toEqual([4, 5, 6, 7]);
    expect(conn.closeReason).toBe('limit_reached');
  });

  it('the global stream carries public agents only', async () => {
    t.s.agents.create('hidden', { visibility: 'private' });
    t.s.agents.create('shown', {});
    const hub = new SseHub(t.s.events, t.s.broadcaster, { maxBufferedBytes: 1_000_000, maxClients: 10 });
    const res = new FakeResponse(1_000_000);
    hub.streamAll(hub.attach(res as unknown as ServerResponse));
    t.s.store.tx(() => {
      t.s.events.append('hidden', 'tool_call', {});
      t.s.events.append('shown', 'tool_call', {});
    });
    expect(res.frames).toHaveLength(1);
    expect(res.frames[0]).toContain('"agent_id":"shown"');
  });
});

describe('SSE and the disk', () => {
  it('a stream replays only events whose commit is on the disk, and sends an event seen early in a page once', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-sse-sync-'));
    const syncs: Array<(err: Error | null) => void> = [];
    const store = Store.open(path.join(dir, 'svc.db'), { syncWal: (done) => syncs.push(done) });
    const broadcaster = new Broadcaster();
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
    const log = new EventLog({ store, clock, ids: new IdGenerator(clock), broadcaster });
    try {
      store.tx(() => log.append('a', 'tool_call', { n: 1 })); // durable at once (synchronous tx)
      const pending = store.write(() => log.append('a', 'tool_call', { n: 2 }));
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setImmediate(r));
      expect(syncs).toHaveLength(1);
      // Committed (a page sees it) but not on the disk: no stream replays it yet.
      expect(log.head('a')).toBe(2);
      expect(log.publishedHead('a')).toBe(1);
      expect(log.readAfter('a', 0, 10).map((e) => e.event_seq)).toEqual([1]);
      const hub = new SseHub(log, broadcaster, { maxBufferedBytes: 1_000_000, maxClients: 10 });
      const fromStart = new FakeResponse(1_000_000);
      await hub.streamAgent(hub.attach(fromStart as unknown as ServerResponse), 'a', 0);
      // A client that read event 2 in a page opens its stream after it.
      const afterPage = new FakeResponse(1_000_000);
      await hub.streamAgent(hub.attach(afterPage as unknown as ServerResponse), 'a', 2);
      const live = new FakeResponse(1_000_000);
      await hub.streamAgent(hub.attach(live as unknown as ServerResponse), 'a', undefined);
      expect(fromStart.seqs()).toEqual([1]);
      syncs.shift()!(null);
      await pending;
      store.tx(() => log.append('a', 'tool_call', { n: 3 }));
      expect(fromStart.seqs()).toEqual([1, 2, 3]);
      expect(afterPage.seqs()).toEqual([3]);
      expect(live.seqs()).toEqual([2, 3]);
      hub.closeAll();
    } finally {
      store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SSE and the replay window (retention)', () => {
  const hub = () => new SseHub(t.s.events, t.s.broadcaster, { maxBufferedBytes: 10_000_000, maxClients: 10 });
  const prune = (through: number) => t.s.store.tx(() => t.s.events.prune('main', through));
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

  /** A stream of main's log after `after` into a fresh response that never pushes back. */
  async function streamFrom(h: SseHub, after: number | undefined) {
    const res = new FakeResponse(1_000_000);
    const conn = h.attach(res as unknown as ServerResponse);
    await h.streamAgent(conn, 'main', after);
    return { res, conn };
  }

  /** A response that runs `hook` once, right after its `n`th frame (between two backlog reads). */
  function responseThatPrunes(n: number, hook: () => void): FakeResponse {
    const res = new FakeResponse(1_000_000_000);
    const write = res.write.bind(res);
    res.write = (chunk: string) => {
      const ok = write(chunk);
      if (res.frames.length === n) hook();
      return ok;
    };
    return res;
  }

  it('closes a stream whose unsent backlog was pruned (behind_window) instead of skipping it', async () => {
    append(1500); // head 1501
    const h = hub();
    const res = responseThatPrunes(512, () => prune(1000)); // after the first backlog chunk
    const conn = h.attach(res as unknown as ServerResponse);
    await h.streamAgent(conn, 'main', 0);
    expect(conn.closeReason).toBe('behind_window');
    expect(res.ended).toBe(true);
    expect(res.seqs()).toEqual(range(1, 512));
    append(1);
    expect(res.frames).toHaveLength(512);
  });

  it('closes it too when everything it had not sent was pruned (the read finds nothing, the head is further on)', async () => {
    append(600); // head 601
    const h = hub();
    const res = responseThatPrunes(512, () => prune(601));
    const conn = h.attach(res as unknown as ServerResponse);
    await h.streamAgent(conn, 'main', 0);
    expect(conn.closeReason).toBe('behind_window');
    append(1);
    expect(res.seqs()).toEqual(range(1, 512));
  });

  it('a cursor below the window handed to the hub closes the stream before any frame', async () => {
    append(99); // head 100
    prune(50);
    const { res, conn } = await streamFrom(hub(), 10);
    expect(conn.closeReason).toBe('behind_window');
    expect(res.frames).toEqual([]);
  });

  it('after_seq=0 starts at the oldest retained event and goes live', async () => {
    append(99); // head 100
    prune(50);
    const { res, conn } = await streamFrom(hub(), 0);
    append(1);
    expect(conn.closed).toBe(false);
    expect(res.seqs()).toEqual(range(51, 101));
  });

  it('a log that starts after an old head (everything pruned, or the agent re-created) streams from there', async () => {
    append(9); // head 10
    prune(10); // the whole log; the head is kept
    const h = hub();
    const live = await streamFrom(h, undefined);
    const fromZero = await streamFrom(h, 0);
    append(2);
    const atHead = await streamFrom(h, 10);
    append(1);
    for (const { res, conn } of [live, fromZero, atHead]) {
      expect(conn.closed).toBe(false);
      expect(res.seqs()).toEqual([11, 12, 13]);
    }
  });
});

/**
 * Property: whatever sequence of appends, acks (three forms, by entry or item id), compactions,
 * resets, polls and direct items runs, no unacknowledged entry is ever lost, each event is one
 * item of the agent listing every subscription that matched it, nothing compacted away ever comes
 * back, and a watcher following from the start sees every entry exactly once. Runs on both stream
 * backends (SQLite, and JetStream on a real nats-server).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { InboxEntry } from '../../src/inbox/entries/index.js';
import type { WatchConnection } from '../../src/inbox/entries/watch.js';
import { BACKENDS, useBackend, type BackendEnv } from '../helpers/stream-backends.js';

type Cmd =
  | { kind: 'append'; types: Array<'a' | 'b'> }
  | { kind: 'ackAll' }
  | { kind: 'ackThrough'; pick: number }
  | { kind: 'ackIds'; picks: number[] }
  | { kind: 'compact' }
  | { kind: 'reset'; sub: number; offset: number | 'earliest' }
  | { kind: 'poll'; sub: number }
  | { kind: 'direct' }
  | { kind: 'press' }
  | { kind: 'drain' };

const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('append' as const), types: fc.array(fc.constantFrom('a' as const, 'b' as const), { minLength: 1, maxLength: 4 }) }) },
  fc.record({ kind: fc.constant('ackAll' as const) }),
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('ackThrough' as const), pick: fc.nat(50) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('ackIds' as const), picks: fc.array(fc.nat(50), { minLength: 1, maxLength: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('compact' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('reset' as const), sub: fc.nat(1), offset: fc.oneof(fc.constant('earliest' as const), fc.integer({ min: 1, max: 30 })) }) },
  fc.record({ kind: fc.constant('poll' as const), sub: fc.nat(1) }),
  fc.record({ kind: fc.constant('direct' as const) }),
  // The watcher's socket pushes back, then drains.
  fc.record({ kind: fc.constant('press' as const) }),
  fc.record({ kind: fc.constant('drain' as const) }),
);

class Recorder implements WatchConnection {
  ids: string[] = [];
  sequences: number[] = [];
  closed = false;
  backedUp = false;
  private drained: Array<() => void> = [];
  deliver(frame: string): void {
    // Heartbeats (every 15 s by default) carry no entries.
    if (frame.startsWith('event: heartbeat')) return;
    const { entries } = JSON.parse(/^data: (.*)$/m.exec(frame)![1]!) as { entries: InboxEntry[] };
    // A frame's id is its last entry's (the Last-Event-ID a reconnect resumes after).
    if (entries.length > 0) expect(/^id: (\S+)/.exec(frame)?.[1]).toBe(entries.at(-1)!.entryId);
    this.ids.push(...entries.map((e) => e.entryId));
    this.sequences.push(...entries.map((e) => e.sequence));
  }
  writable(): Promise<void> {
    if (!this.backedUp) return Promise.resolve();
    return new Promise((resolve) => this.drained.push(resolve));
  }
  async drain(): Promise<void> {
    this.backedUp = false;
    for (const resolve of this.drained.splice(0)) resolve();
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  }
  onClose(): void {}
  close(): void {
    this.closed = true;
  }
}

async function run(cmds: Cmd[], env: BackendEnv): Promise<void> {
  const t = await env.services();
  try {
    const { inbox } = t.s;
    const { host } = inbox.hosts.create({ hostType: 'local_event', hostKey: 'prop' });
    const { source } = await inbox.sources.create({ hostId: host.hostId, streamKind: 'k', streamKey: 'k' });
    const { agentId } = inbox.agents.create({});
    const subs = [
      inbox.subscriptions.create({ agentId, sourceId: source.sourceId })[0]!,
      inbox.subscriptions.create({ agentId, sourceId: source.sourceId, filter: { match: { type: 'a' } } })[0]!,
    ];
    const watcher = new Recorder();
    await inbox.watch.stream(watcher, agentId);
    const all = (): InboxEntry[] => inbox.entries.page(agentId, { limit: 10_000, includeAcked: true }).entries;
    const types: Array<'a' | 'b'> = [];
    /** Keys (event:offset, or direct:n) acknowledged and then compacted away: never back. */
    const gone = new Set<string>();
    let directs = 0;
    const keyOf = (e: InboxEntry) => (e.itemKind === 'event' ? `event:${e.offset}` : `direct:${e.message}`);

    for (const c of cmds) {
      const before = all();
      const unackedBefore = before.filter((e) => e.ackedAt === null);
      let acked = new Set<string>();
      switch (c.kind) {
        case 'append':
          await inbox.streams.append(source.sourceId, c.types.map((type) => ({ type })));
          types.push(...c.types);
          break;
        case 'ackAll':
          expect(await inbox.entries.ack(agentId, { all: true })).toBe(unackedBefore.length);
          acked = new Set(unackedBefore.map((e) => e.entryId));
          break;
        case 'ackThrough': {
          if (before.length === 0) break;
          const through = before[c.pick % before.length]!;
          const expected = before.slice(0, before.indexOf(through) + 1).filter((e) => e.ackedAt === null);
          expect(await inbox.entries.ack(agentId, { throughEntryId: through.entryId })).toBe(expected.length);
          acked = new Set(expected.map((e) => e.entryId));
          break;
        }
        case 'ackIds': {
          if (before.length === 0) break;
          const chosen = [...new Set(c.picks.map((p) => before[p % before.length]!))];
          const expected = chosen.filter((e) => e.ackedAt === null);
          // An item id names its entry as well as the entry id does.
          const ids = chosen.map((e, i) => (i % 2 === 0 ? e.entryId : e.itemId));
          expect(await inbox.entries.ack(agentId, { entryIds: ids })).toBe(expected.length);
          acked = new Set(expected.map((e) => e.entryId));
          break;
        }
        case 'compact':
          expect(inbox.entries.compact(agentId, 0)).toEqual({ deleted: before.length - unackedBefore.length, retentionMs: 0 });
          for (const e of before) if (e.ackedAt !== null) gone.add(keyOf(e));
          break;
        case 'reset': {
          // A reset moves the offset: what the agent had, compacted or not, never comes back.
          const from = c.offset === 'earliest' ? 1 : Math.min(c.offset, types.length + 1);
          expect(inbox.subscriptions.reset(subs[c.sub]!.subscriptionId, { offset: from })).toMatchObject({ nextOffset: from, consumer: { nextOffset: from } });
          inbox.subscriptions.runCatchUps();
          expect(all()).toHaveLength(before.length);
          break;
        }
        case 'poll':
          inbox.subscriptions.poll(subs[c.sub]!.subscriptionId);
          break;
        case 'direct':
          inbox.entries.create(agentId, { kind: 'direct', message: `d${directs++}` });
          break;
        case 'press':
          watcher.backedUp = true;
          break;
        case 'drain':
          await watcher.drain();
          break;
      }
      const after = all();
      const byId = new Map(after.map((e) => [e.entryId, e]));
      // Never lose an unacknowledged entry: each one is still there, unacked unless this step acked it.
      for (const e of unackedBefore) {
        const now = byId.get(e.entryId);
        expect(now, `entry ${e.entryId} lost after ${c.kind}`).toBeDefined();
        expect(now!.ackedAt === null).toBe(!acked.has(e.entryId));
      }
      // Every event and direct item has exactly one entry, unless it was acknowledged and compacted away.
      const expected = [...types.map((_, i) => `event:${i + 1}`), ...Array.from({ length: directs }, (_, i) => `direct:d${i}`)];
      // An event's item lists every subscription that matched it: both for type a.
      for (const e of after.filter((x) => x.itemKind === 'event')) {
        const matched = types[e.offset! - 1] === 'a' ? [subs[0]!.subscriptionId, subs[1]!.subscriptionId].sort() : [subs[0]!.subscriptionId];
        expect(e.matchedSubscriptionIds).toEqual(matched);
      }
      const present = new Set(after.map(keyOf));
      for (const k of expected) expect(present.has(k) !== gone.has(k), `${k} after ${c.kind}`).toBe(true);
      expect(present.size).toBe(after.length);
      expect(after.length).toBe(expected.length - gone.size);
    }
    // The watcher saw each entry exactly once, in entry order, and every unacknowledged entry among
    // them (once its socket drained: what was acknowledged meanwhile it may never see).
    await watcher.drain();
    expect(new Set(watcher.ids).size).toBe(watcher.ids.length);
    expect(watcher.sequences).toEqual([...watcher.sequences].sort((a, b) => a - b));
    const seen = new Set(watcher.ids);
    for (const e of all()) if (e.ackedAt === null) expect(seen.has(e.entryId)).toBe(true);
  } finally {
    await t.close();
  }
}

describe.each(BACKENDS)('inbox entries under random operation sequences (%s backend)', (backend) => {
  const env = useBackend(backend);
  it('never lose an unacknowledged entry and never duplicate one', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(cmd, { minLength: 1, maxLength: 30 }), (cmds) => run(cmds, env)),
      { numRuns: 40, interruptAfterTimeLimit: 15_000 },
    );
  }, 60_000);
});

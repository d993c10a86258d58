/**
 * Hosts, sources, append and compaction (docs/inbox-api.md#hosts-and-sources; spec/inbox.md
 * Compaction), in process with a ManualClock, once per stream backend (SQLite, and JetStream on a
 * real nats-server). Remote-source modules are in inbox-streams-remote.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CompactionService } from '../../src/inbox/streams/compaction.js';
import type { StoredEvent, StreamBackend } from '../../src/inbox/streams/types.js';
import { StreamService } from '../../src/inbox/streams/streams.js';
import type { TestServices } from '../helpers/services.js';
import { BACKENDS, useBackend } from '../helpers/stream-backends.js';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import type { JetStreamBackend } from '../../src/inbox/streams/jetstream/backend.js';

describe.each(BACKENDS)('%s backend', (backend) => {
  const env = useBackend(backend);
  let t: TestServices;
  beforeEach(async () => {
    t = await env.services();
  });
  afterEach(() => t.close());

  const inbox = () => t.s.inbox;

  async function localSource(key = 'a') {
    const { host } = inbox().hosts.create({ hostType: 'local_event', hostKey: 'local' });
    const { source } = await inbox().sources.create({ hostId: host.hostId, streamKind: 'events', streamKey: key });
    return source.sourceId;
  }

  describe('hosts', () => {
    it('creates a host once per hostType + hostKey and returns the existing record after', () => {
      const a = inbox().hosts.create({ hostType: 'local_event', hostKey: 'k', config: { token: 'ref:x' } });
      expect(a.created).toBe(true);
      expect(a.host).toEqual({
        hostId: expect.stringMatching(/^hst_[0-9A-Z]{26}$/),
        hostType: 'local_event',
        hostKey: 'k',
        configRef: null,
        config: { token: 'ref:x' },
        status: 'active',
        createdAt: expect.any(String),
        updatedAt: a.host.createdAt,
      });
      const b = inbox().hosts.create({ hostType: 'local_event', hostKey: 'k', config: { other: 1 } });
      expect(b).toEqual({ host: a.host, created: false });
      const c = inbox().hosts.create({ hostType: 'remote_source', hostKey: 'k' });
      expect(c.created).toBe(true);
      expect(inbox().hosts.list().map((h) => h.hostId)).toEqual([a.host.hostId, c.host.hostId]);
    });

    it('answers 404 host_not_found for an unknown host, also when creating a source on it', async () => {
      expect(() => inbox().hosts.get('hst_nope')).toThrow(expect.objectContaining({ status: 404, code: 'host_not_found' }));
      await expect(inbox().sources.create({ hostId: 'hst_nope', streamKind: 'k', streamKey: 'x' })).rejects.toMatchObject({ code: 'host_not_found' });
      expect(inbox().sources.list()).toEqual([]);
    });

    it('describes the config shapes as JSON Schemas', () => {
      const { host } = inbox().hosts.create({ hostType: 'remote_source', hostKey: 'r' });
      const schema = inbox().hosts.schema(host.hostId);
      expect(schema.sourceConfigSchema).toMatchObject({ type: 'object', required: ['modulePath'], properties: { modulePath: { type: 'string' }, pollIntervalMs: { minimum: 1000 } } });
      expect(schema.hostConfigSchema).toMatchObject({ type: 'object' });
    });
  });

  describe('sources', () => {
    it('creates a source once per hostId + streamKind + streamKey, with the host type and no stream yet', async () => {
      const { host } = inbox().hosts.create({ hostType: 'local_event', hostKey: 'local' });
      const first = await inbox().sources.create({ hostId: host.hostId, streamKind: 'k', streamKey: 'x', config: { a: 1 } });
      expect(first.created).toBe(true);
      expect(first.source).toMatchObject({ sourceId: expect.stringMatching(/^src_/), sourceType: 'local_event', state: 'active', error: null, idleState: null, config: { a: 1 }, configRef: null });
      expect(first.source).not.toHaveProperty('cursor');
      const again = await inbox().sources.create({ hostId: host.hostId, streamKind: 'k', streamKey: 'x', config: { a: 2 } });
      expect(again).toEqual({ source: first.source, created: false });
      expect((await inbox().sources.detail(first.source.sourceId)).stream.streamStats).toBeNull();
      expect(inbox().sources.list({ hostId: host.hostId })).toHaveLength(1);
      expect(inbox().sources.list({ hostId: 'hst_other' })).toEqual([]);
    });

    it('PATCH replaces config and/or configRef and keeps the lifecycle', async () => {
      const id = await localSource();
      t.clock.advance(1000);
      const updated = await inbox().sources.update(id, { configRef: 'cred:one' });
      expect(updated).toMatchObject({ config: {}, configRef: 'cred:one', state: 'active' });
      expect(updated.updatedAt > updated.createdAt).toBe(true);
      expect(await inbox().sources.update(id, { config: { b: true } })).toMatchObject({ config: { b: true }, configRef: 'cred:one' });
      await expect(inbox().sources.update('src_missing', { config: {} })).rejects.toMatchObject({ code: 'source_not_found' });
    });

    it('pause and resume apply only to managed remote sources; a poll of a local source answers that nothing polls it', async () => {
      const id = await localSource();
      expect(() => inbox().sources.pause(id)).toThrow(expect.objectContaining({ status: 409, code: 'source_not_managed' }));
      expect(() => inbox().sources.resume(id)).toThrow(expect.objectContaining({ status: 409, code: 'source_not_managed' }));
      expect(await inbox().sources.poll(id)).toEqual({
        sourceId: id,
        sourceType: 'local_event',
        appended: 0,
        deduped: 0,
        eventsRead: 0,
        note: 'local_event source has no background poller',
        state: 'active',
      });
    });

    it('delete removes the source and its stream inside one transaction that runs the onDeleted listeners', async () => {
      const id = await localSource();
      await inbox().sources.appendEvents(id, [{ type: 't' }]);
      const seen: Array<[string, boolean]> = [];
      inbox().sources.onDeleted((sid) => seen.push([sid, t.s.store.inTransaction]));
      expect(inbox().sources.delete(id)).toEqual({ sourceId: id, deleted: true });
      expect(seen).toEqual([[id, true]]);
      expect(() => inbox().sources.get(id)).toThrow(expect.objectContaining({ code: 'source_not_found' }));
      expect(inbox().streams.stats(id)).toBeNull();
      expect(inbox().streams.read(id, 0, 10)).toEqual([]);
      await expect(inbox().streams.append(id, [{ type: 't' }])).rejects.toMatchObject({ code: 'source_not_found' });
      expect(() => inbox().sources.delete(id)).toThrow(expect.objectContaining({ code: 'source_not_found' }));
    });
  });

  describe('append', () => {
    it('assigns contiguous offsets from 1 per stream and stores a repeated id once', async () => {
      const a = await localSource('a');
      const b = await localSource('b');
      expect(await inbox().sources.appendEvents(a, [{ id: 'e1', type: 't' }])).toEqual({ appended: 1, deduped: 0, firstOffset: 1, lastOffset: 1 });
      expect(await inbox().sources.appendEvents(a, [{ id: 'e1', type: 't' }, { id: 'e2', type: 't' }, { id: 'e2', type: 't' }, { type: 'u' }])).toEqual({
        appended: 2,
        deduped: 2,
        firstOffset: 2,
        lastOffset: 3,
      });
      expect(await inbox().sources.appendEvents(a, [{ id: 'e2', type: 't' }])).toEqual({ appended: 0, deduped: 1, firstOffset: null, lastOffset: null });
      expect(await inbox().sources.appendEvents(b, [{ id: 'e1', type: 't' }])).toMatchObject({ appended: 1, firstOffset: 1 });
      expect(inbox().streams.read(a, 0, 10).map((e) => [e.offset, e.id])).toEqual([
        [1, 'e1'],
        [2, 'e2'],
        [3, expect.stringMatching(/^evt_/)],
      ]);
      expect(inbox().streams.stats(a)).toEqual(env.stats({ eventCount: 3, retainedFromOffset: 1, highWatermarkOffset: 3 }));
    });

    it('stores the CloudEvents fields, defaults time to the append time and reads times back in UTC', async () => {
      const id = await localSource();
      await inbox().sources.appendEvents(id, [
        { id: 'x', type: 'pr.opened', subject: 'repo#1', time: '2030-01-01T02:00:00+02:00', data: { n: [1, 2] }, metadata: { lifecycle: 'open' } },
        { type: 'bare' },
      ]);
      const [first, second] = inbox().streams.read(id, 0, 10) as [StoredEvent, StoredEvent];
      expect(first).toEqual({
        sourceId: id,
        offset: 1,
        id: 'x',
        type: 'pr.opened',
        subject: 'repo#1',
        time: '2030-01-01T00:00:00.000Z',
        data: { n: [1, 2] },
        metadata: { lifecycle: 'open' },
        appendedAt: new Date(t.clock.now()).toISOString(),
        pruned: false,
      });
      expect(second).toMatchObject({ subject: null, time: new Date(t.clock.now()).toISOString(), data: null, metadata: {} });
    });

    it('rejects an invalid event with 400 invalid_request and stores nothing of the batch', async () => {
      const id = await localSource();
      await expect(inbox().sources.appendEvents(id, [{ type: 'ok' }, { type: '' }])).rejects.toMatchObject({
        status: 400,
        code: 'invalid_request',
        extra: { issues: [expect.objectContaining({ path: 'events.1.type' })] },
      });
      await expect(inbox().sources.appendEvents(id, [{ type: 't', time: 'yesterday' }])).rejects.toMatchObject({ code: 'invalid_request' });
      expect(inbox().streams.stats(id)).toBeNull();
    });

    it('calls onAppended inside the append transaction with only the newly stored events', async () => {
      const id = await localSource();
      const calls: Array<{ offsets: number[]; inTx: boolean }> = [];
      inbox().streams.onAppended((sid, events) => {
        if (sid === id) calls.push({ offsets: events.map((e) => e.offset), inTx: t.s.store.inTransaction });
      });
      await inbox().sources.appendEvents(id, [{ id: 'a', type: 't' }, { id: 'b', type: 't' }]);
      await inbox().sources.appendEvents(id, [{ id: 'a', type: 't' }]);
      await inbox().sources.appendEvents(id, [{ id: 'a', type: 't' }, { id: 'c', type: 't' }]);
      // SQLite: one call per append. JetStream: per mirrored batch, inside the mirror's transaction.
      expect(calls.every((c) => c.inTx)).toBe(true);
      expect(calls.flatMap((c) => c.offsets)).toEqual([1, 2, 3]);
      if (backend === 'sqlite') expect(calls.map((c) => c.offsets)).toEqual([[1, 2], [3]]);
    });

    it.runIf(backend === 'sqlite')('a listener that throws rolls the append back: nothing stored, no offset used', async () => {
      const id = await localSource();
      let fail = true;
      inbox().streams.onAppended(() => {
        if (fail) throw new Error('matcher broke');
      });
      await expect(inbox().sources.appendEvents(id, [{ id: 'a', type: 't' }])).rejects.toThrow('matcher broke');
      fail = false;
      expect(await inbox().sources.appendEvents(id, [{ id: 'a', type: 't' }])).toEqual({ appended: 1, deduped: 0, firstOffset: 1, lastOffset: 1 });
    });

    it('keeps offsets contiguous under many concurrent appends (one group commit)', async () => {
      const id = await localSource();
      const results = await Promise.all(Array.from({ length: 200 }, (_, i) => inbox().sources.appendEvents(id, [{ type: 't', id: `e${i}` }, { type: 't', id: `f${i}` }])));
      const offsets = results.flatMap((r) => [r.firstOffset!, r.lastOffset!]).sort((x, y) => x - y);
      expect(offsets).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
      expect(inbox().streams.bounds(id)).toEqual({ retainedFromOffset: 1, highWatermarkOffset: 400 });
    });

    it('answers offsetAtTime with the first offset whose event time is at or after t', async () => {
      const id = await localSource();
      expect(inbox().streams.offsetAtTime(id, '2030-01-01T00:00:00Z')).toBe(1);
      await inbox().sources.appendEvents(id, [
        { type: 't', time: '2030-01-01T00:00:00Z' },
        { type: 't', time: '2030-01-02T00:00:00Z' },
        { type: 't', time: '2030-01-03T00:00:00Z' },
      ]);
      expect(inbox().streams.offsetAtTime(id, '2029-12-31T00:00:00Z')).toBe(1);
      expect(inbox().streams.offsetAtTime(id, '2030-01-01T12:00:00Z')).toBe(2);
      expect(inbox().streams.offsetAtTime(id, '2030-01-05T00:00:00Z')).toBe(4);
      // An event older than the latest makes the stream unordered: still exact (by scan).
      await inbox().sources.appendEvents(id, [{ type: 't', time: '2029-06-01T00:00:00Z' }, { type: 't', time: '2030-02-01T00:00:00Z' }]);
      expect(inbox().streams.offsetAtTime(id, '2030-01-01T12:00:00Z')).toBe(2);
      expect(inbox().streams.offsetAtTime(id, '2030-01-05T00:00:00Z')).toBe(5);
      expect(inbox().streams.offsetAtTime(id, '2029-01-01T00:00:00Z')).toBe(1);
      expect(inbox().streams.offsetAtTime(id, '2031-01-01T00:00:00Z')).toBe(6);
    });

    it('finds offsets by time with a binary search on a long time-ordered stream', async () => {
      const id = await localSource();
      const base = Date.UTC(2030, 0, 1);
      await inbox().sources.appendEvents(id, Array.from({ length: 1000 }, (_, i) => ({ type: 't', time: new Date(base + Math.floor(i / 3) * 1000).toISOString() })));
      for (const k of [0, 1, 17, 200, 332, 333]) expect(inbox().streams.offsetAtTime(id, new Date(base + k * 1000).toISOString())).toBe(Math.min(3 * k + 1, 1000));
      expect(inbox().streams.offsetAtTime(id, new Date(base + 334 * 1000).toISOString())).toBe(1001);
    });
  });

  describe.runIf(backend === 'sqlite')('compaction', () => {
    const HOUR = 3600_000;
    /** n events of `bytes` payload bytes each (data is a string of bytes-4 chars: '"..."' + '{}'). */
    async function fill(id: string, n: number, bytes = 20) {
      const data = 'x'.repeat(bytes - 4);
      await inbox().sources.appendEvents(id, Array.from({ length: n }, (_, i) => ({ id: `${id}-${inbox().streams.bounds(id).highWatermarkOffset + i}`, type: 't', data })));
    }
    const withConsumers = (n = 1) => inbox().streams.setConsumerCounter(() => n);

    it('preview and apply answer 404 stream_not_found for an unknown id and for a stream never initialised, creating nothing', async () => {
      const id = await localSource();
      expect(() => inbox().compaction.preview('src_nope', { retentionMs: 1 })).toThrow(expect.objectContaining({ status: 404, code: 'stream_not_found' }));
      expect(() => inbox().compaction.preview(id, { retentionMs: 1 })).toThrow(expect.objectContaining({ status: 404, code: 'stream_not_found' }));
      await expect(inbox().compaction.apply(id, { retentionMs: 1 })).rejects.toMatchObject({ status: 404, code: 'stream_not_found' });
      expect(inbox().streams.stats(id)).toBeNull();
    });

    it('previews within scanLimit without changing anything', async () => {
      const id = await localSource();
      await fill(id, 5);
      t.clock.advance(2 * HOUR);
      await fill(id, 3);
      withConsumers();
      const p = inbox().compaction.preview(id, { retentionMs: HOUR });
      expect(p).toMatchObject({ eligibleEvents: 5, eligibleBytes: 100, firstEligibleOffset: 1, lastEligibleOffset: 5, scanned: 6, scanComplete: true, consumers: 1, skipReason: null });
      const bounded = inbox().compaction.preview(id, { retentionMs: HOUR, scanLimit: 2 });
      expect(bounded).toMatchObject({ scanned: 2, eligibleEvents: 2, scanComplete: false });
      withConsumers(0);
      expect(inbox().compaction.preview(id, { retentionMs: HOUR }).skipReason).toBe('no_consumers');
      expect(inbox().streams.stats(id)).toMatchObject({ prunedEventCount: 0, retainedFromOffset: 1 });
    });

    it('prunes eligible payloads to identity stubs, keeps offsets, and a retry prunes nothing more', async () => {
      const id = await localSource();
      await inbox().sources.appendEvents(id, [{ id: 'old', type: 'pr', subject: 's1', data: { big: 'x' }, metadata: { m: 1 } }]);
      await fill(id, 4);
      t.clock.advance(2 * HOUR);
      await fill(id, 2);
      withConsumers();
      const r = await inbox().compaction.apply(id, { retentionMs: HOUR });
      expect(r).toMatchObject({ streamId: id, committedBatches: 1, prunedEvents: 5, retainedFromOffset: 6, highWatermarkOffset: 7, nextOffset: 6, hasMore: false, stopReason: 'completed' });
      expect(r.prunedBytes).toBe(JSON.stringify({ big: 'x' }).length + JSON.stringify({ m: 1 }).length + 4 * 20);
      const [stub] = inbox().streams.read(id, 0, 1);
      expect(stub).toEqual({ sourceId: id, offset: 1, id: 'old', type: 'pr', subject: 's1', time: expect.any(String), appendedAt: expect.any(String), data: null, metadata: {}, pruned: true });
      expect(inbox().streams.read(id, 5, 1)[0]).toMatchObject({ offset: 6, pruned: false, data: expect.any(String) });
      expect(inbox().streams.stats(id)).toEqual({ eventCount: 7, replayableEventCount: 2, prunedEventCount: 5, prunedThroughOffset: 5, retainedFromOffset: 6, highWatermarkOffset: 7 });
      const again = await inbox().compaction.apply(id, { retentionMs: HOUR });
      expect(again).toMatchObject({ committedBatches: 0, prunedEvents: 0, prunedBytes: 0, retainedFromOffset: 6, stopReason: 'completed', hasMore: false });
      // Identity stays: a pruned id is still deduplicated and offsets go on.
      expect(await inbox().sources.appendEvents(id, [{ id: 'old', type: 'pr' }, { type: 'new' }])).toMatchObject({ appended: 1, deduped: 1, firstOffset: 8 });
    });

    it('skips a stream without consumers (no_consumers)', async () => {
      const id = await localSource();
      await fill(id, 3);
      t.clock.advance(2 * HOUR);
      withConsumers(0);
      expect(await inbox().compaction.apply(id, { retentionMs: HOUR })).toMatchObject({ committedBatches: 0, prunedEvents: 0, stopReason: 'no_consumers', hasMore: true, retainedFromOffset: 1 });
    });

    it('stops at maxEvents with hasMore, and a retry continues where it stopped', async () => {
      const id = await localSource();
      await fill(id, 10);
      t.clock.advance(2 * HOUR);
      withConsumers();
      const first = await inbox().compaction.apply(id, { retentionMs: HOUR, maxEvents: 4, batchSize: 3 });
      expect(first).toMatchObject({ committedBatches: 2, prunedEvents: 4, nextOffset: 5, hasMore: true, stopReason: 'max_events' });
      const second = await inbox().compaction.apply(id, { retentionMs: HOUR, maxEvents: 100 });
      expect(second).toMatchObject({ committedBatches: 1, prunedEvents: 6, nextOffset: 11, hasMore: false, stopReason: 'completed' });
    });

    it('splits batches by maxPayloadBytes and stops with oversized at an event over the budget', async () => {
      const id = await localSource();
      await fill(id, 4, 20);
      await inbox().sources.appendEvents(id, [{ id: 'huge', type: 't', data: 'y'.repeat(200) }]);
      await fill(id, 2, 20);
      t.clock.advance(2 * HOUR);
      withConsumers();
      const r = await inbox().compaction.apply(id, { retentionMs: HOUR, maxPayloadBytes: 40 });
      expect(r).toMatchObject({ committedBatches: 2, prunedEvents: 4, prunedBytes: 80, nextOffset: 5, hasMore: true, stopReason: 'oversized' });
      // Retrying with the same budget makes no progress; a larger one goes past it.
      expect(await inbox().compaction.apply(id, { retentionMs: HOUR, maxPayloadBytes: 40 })).toMatchObject({ committedBatches: 0, stopReason: 'oversized', nextOffset: 5 });
      expect(await inbox().compaction.apply(id, { retentionMs: HOUR, maxPayloadBytes: 1000 })).toMatchObject({ prunedEvents: 3, stopReason: 'completed', nextOffset: 8 });
    });

    it('rechecks eligibility per batch: a consumer leaving stops the run at the next batch', async () => {
      const id = await localSource();
      await fill(id, 6);
      t.clock.advance(2 * HOUR);
      let calls = 0;
      // One consumer check per batch: the last consumer goes away after the first batch.
      inbox().streams.setConsumerCounter(() => (++calls <= 1 ? 1 : 0));
      const r = await inbox().compaction.apply(id, { retentionMs: HOUR, batchSize: 2 });
      expect(r).toMatchObject({ committedBatches: 1, prunedEvents: 2, stopReason: 'no_consumers', hasMore: true, nextOffset: 3 });
    });

    it('rechecks eligibility per batch: the cutoff moves with the clock between batches', async () => {
      const id = await localSource();
      await fill(id, 3);
      t.clock.advance(50 * 60_000);
      await fill(id, 3);
      t.clock.advance(11 * 60_000); // the first three are older than an hour, the others not yet
      let calls = 0;
      inbox().streams.setConsumerCounter(() => {
        if (++calls === 2) t.clock.advance(HOUR); // time passes before the second batch
        return 1;
      });
      const r = await inbox().compaction.apply(id, { retentionMs: HOUR, batchSize: 3 });
      expect(r).toMatchObject({ committedBatches: 2, prunedEvents: 6, stopReason: 'completed', nextOffset: 7 });
    });

    it('history_unavailable carries streamId, requested and the replay bounds', async () => {
      const id = await localSource();
      await fill(id, 3);
      t.clock.advance(2 * HOUR);
      withConsumers();
      await inbox().compaction.apply(id, { retentionMs: HOUR });
      expect(() => inbox().streams.assertReplayable(id, 4, { startOffset: 4 })).not.toThrow();
      expect(() => inbox().streams.assertReplayable(id, 2, { startOffset: 2 })).toThrow(
        expect.objectContaining({ status: 409, code: 'history_unavailable', extra: { streamId: id, requested: { startOffset: 2 }, retainedFromOffset: 4, highWatermarkOffset: 3 } }),
      );
    });

    it('answers 501 compaction_unsupported on a backend without compaction support', async () => {
      const id = await localSource();
      const sqlite = inbox().streams.backend;
      const fake: StreamBackend = {
        name: 'memory',
        ensure: () => {},
        exists: () => true,
        append: (sid, events) => sqlite.append(sid, events, 0),
        read: () => [],
        offsetAtTime: () => 1,
        bounds: () => ({ retainedFromOffset: 1, highWatermarkOffset: 0 }),
        stats: () => ({ eventCount: 0, replayableEventCount: 0, retainedFromOffset: 1, highWatermarkOffset: 0 }),
        drop: () => {},
      };
      const streams = new StreamService({ store: t.s.store, clock: t.clock, ids: t.s.ids, backend: fake });
      const compaction = new CompactionService({ store: t.s.store, clock: t.clock, sources: inbox().sources, streams });
      expect(() => compaction.preview(id, { retentionMs: 1 })).toThrow(expect.objectContaining({ status: 501, code: 'compaction_unsupported', extra: { streamId: id, backend: 'memory' } }));
      await expect(compaction.apply(id, { retentionMs: 1 })).rejects.toMatchObject({ status: 501, code: 'compaction_unsupported' });
      // Unknown streams are still 404 first.
      expect(() => compaction.preview('src_nope', { retentionMs: 1 })).toThrow(expect.objectContaining({ status: 404 }));
    });
  });
});

describe('jetstream backend', () => {
  const env = useBackend('jetstream');
  let t: TestServices;
  beforeEach(async () => {
    t = await env.services({ configToml: '' });
  });
  afterEach(() => t.close());

  async function source(s: TestServices) {
    const { host } = s.s.inbox.hosts.create({ hostType: 'local_event', hostKey: 'local' });
    return (await s.s.inbox.sources.create({ hostId: host.hostId, streamKind: 'events', streamKey: 'k' })).source.sourceId;
  }

  it('answers 501 compaction_unsupported for preview and apply, and reports no compaction fields', async () => {
    const id = await source(t);
    await t.s.inbox.sources.appendEvents(id, [{ type: 't' }]);
    expect(() => t.s.inbox.compaction.preview(id, { retentionMs: 1 })).toThrow(expect.objectContaining({ status: 501, code: 'compaction_unsupported', extra: { streamId: id, backend: 'jetstream' } }));
    await expect(t.s.inbox.compaction.apply(id, { retentionMs: 1 })).rejects.toMatchObject({ status: 501, code: 'compaction_unsupported' });
    expect(t.s.inbox.streams.stats(id)).toEqual({ eventCount: 1, replayableEventCount: 1, retainedFromOffset: 1, highWatermarkOffset: 1 });
  });

  it('a mirror write that fails (a listener throws) is retried from the last commit: the events are matched once, none skipped', async () => {
    const id = await source(t);
    const committed: number[] = [];
    let failures = 1;
    t.s.inbox.streams.onAppended((sid, events) => {
      if (sid !== id) return;
      if (failures-- > 0) throw new Error('matcher broke');
      t.s.store.afterCommit(() => committed.push(...events.map((e) => e.offset)));
    });
    expect(await t.s.inbox.sources.appendEvents(id, [{ id: 'a', type: 't' }, { id: 'b', type: 't' }])).toMatchObject({ appended: 2, firstOffset: 1, lastOffset: 2 });
    expect(await t.s.inbox.sources.appendEvents(id, [{ id: 'c', type: 't' }])).toMatchObject({ appended: 1, firstOffset: 3 });
    expect(committed).toEqual([1, 2, 3]);
    expect(t.s.inbox.streams.read(id, 0, 10).map((e) => e.offset)).toEqual([1, 2, 3]);
  });

  it('an event larger than the servers accept refuses the whole append with 413, storing nothing', async () => {
    const id = await source(t);
    const huge = 'x'.repeat(2 * 1024 * 1024);
    await expect(t.s.inbox.sources.appendEvents(id, [{ id: 'small', type: 't' }, { id: 'big', type: 't', data: huge }])).rejects.toMatchObject({
      status: 413,
      code: 'payload_too_large',
      extra: { streamId: id, eventId: 'big' },
    });
    expect(await t.s.inbox.sources.appendEvents(id, [{ id: 'after', type: 't' }])).toMatchObject({ appended: 1, firstOffset: 1, lastOffset: 1 });
    expect(t.s.inbox.streams.read(id, 0, 10).map((e) => e.id)).toEqual(['after']);
  });

  it('offsets are the JetStream sequences, and a copy stored beyond the duplicate window is skipped by the mirror', async () => {
    const id = await source(t);
    expect(await t.s.inbox.sources.appendEvents(id, [{ id: 'a', type: 't' }, { id: 'b', type: 't' }])).toMatchObject({ appended: 2, firstOffset: 1, lastOffset: 2 });
    // Another client publishes a copy of "a" without the dedupe header (as a daemon whose mirror had not seen it would after the window).
    const backend = t.s.inbox.streams.backend as JetStreamBackend;
    const nc = await connect({ servers: env.nats().urls });
    const js = jetstream(nc);
    const ack = await js.publish(`${backend.streamName(id).replace('_', '.')}`, JSON.stringify({ id: 'a', type: 't', subject: null, timeMs: 1, appendedMs: 1, data: 'copy', metadata: {} }));
    expect(ack.seq).toBe(3);
    await nc.close();
    expect(await t.s.inbox.sources.appendEvents(id, [{ id: 'c', type: 't' }])).toMatchObject({ appended: 1, firstOffset: 4, lastOffset: 4 });
    expect(t.s.inbox.streams.read(id, 0, 10).map((e) => [e.offset, e.id])).toEqual([
      [1, 'a'],
      [2, 'b'],
      [4, 'c'],
    ]);
    expect(t.s.inbox.streams.bounds(id)).toEqual({ retainedFromOffset: 1, highWatermarkOffset: 4 });
  });
});

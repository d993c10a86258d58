/**
 * Hosts, sources, streams, append and compaction against the real daemon over its Unix socket
 * (spec/inbox.md Endpoints and Errors; docs/control-plane-api.md#errors,
 * docs/inbox-api.md#hosts-and-sources, docs/cli.md#inbox-commands), once per stream backend
 * (SQLite, and JetStream on a real nats-server). Needs `npm run build` first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonPool, request, ROOT, runSvc, waitFor, type RunningDaemon } from '../helpers/daemon.js';
import { BACKENDS, useBackend } from '../helpers/stream-backends.js';

describe.each(BACKENDS)('%s backend', (backend) => {
  const env = useBackend(backend);
  const pool = daemonPool();
  let d: RunningDaemon;
  beforeAll(async () => {
    d = await pool.start({ configToml: env.configToml() });
  });
  afterAll(() => pool.cleanup());

  const sock = (method: string, url: string, body?: unknown) => request({ socketPath: d.socket }, method, url, body === undefined ? {} : { body });
  const svc = (args: string[]) => runSvc(['inbox', ...args, '--socket', d.socket]);

  async function expectError(method: string, url: string, body: unknown, status: number, code: string) {
    const r = await sock(method, url, body);
    expect(r.status, r.text).toBe(status);
    expect(r.json).toMatchObject({ ok: false, code, error: expect.any(String) });
    return r.json;
  }

  let seq = 0;
  async function host(hostType = 'local_event') {
    const r = await sock('POST', '/hosts', { hostType, hostKey: `h${++seq}` });
    expect(r.status, r.text).toBe(201);
    return r.json.hostId as string;
  }
  async function localSource() {
    const r = await sock('POST', '/sources', { hostId: await host(), streamKind: 'events', streamKey: `s${++seq}` });
    expect(r.status, r.text).toBe(201);
    return r.json.sourceId as string;
  }
  async function consumer(sourceId: string) {
    const agent = await sock('POST', '/agents', { name: `a${++seq}` });
    expect(agent.status, agent.text).toBe(201);
    const sub = await sock('POST', '/subscriptions', { agentId: agent.json.agentId, sourceId });
    expect(sub.status, sub.text).toBeLessThan(300);
    return agent.json.agentId as string;
  }

  describe('hosts', () => {
    it('POST is idempotent by hostType + hostKey (201, then 200 with the same record); GET one, list and schema', async () => {
      const created = await sock('POST', '/hosts', { hostType: 'remote_source', hostKey: 'gh', config: { credentials: 'ref:gh' } });
      expect(created.status).toBe(201);
      expect(created.json).toEqual({
        hostId: expect.stringMatching(/^hst_[0-9A-HJKMNP-TV-Z]{26}$/),
        hostType: 'remote_source',
        hostKey: 'gh',
        configRef: null,
        config: { credentials: 'ref:gh' },
        status: 'active',
        createdAt: expect.any(String),
        updatedAt: created.json.createdAt,
      });
      const again = await sock('POST', '/hosts', { hostType: 'remote_source', hostKey: 'gh' });
      expect(again.status).toBe(200);
      expect(again.json).toEqual(created.json);
      // AgentInbox's host show: the host, its schema and its streams.
      const schema = await sock('GET', `/hosts/${created.json.hostId}/schema`);
      expect(schema.json).toMatchObject({
        hostType: 'remote_source',
        configFields: [{ name: 'credentialRef', type: 'string', required: false }],
        streamKinds: ['default'],
        hostId: created.json.hostId,
        sourceConfigSchema: { required: ['modulePath'] },
      });
      expect((await sock('GET', `/hosts/${created.json.hostId}`)).json).toEqual({ host: created.json, schema: schema.json, streams: [] });
      expect((await sock('GET', '/hosts')).json.hosts).toContainEqual(created.json);
    });

    it('answers 404 host_not_found and 400 invalid_request for bad bodies', async () => {
      await expectError('GET', '/hosts/hst_nope', undefined, 404, 'host_not_found');
      await expectError('GET', '/hosts/hst_nope/schema', undefined, 404, 'host_not_found');
      await expectError('POST', '/hosts', { hostType: 'no_such_type', hostKey: 'x' }, 400, 'invalid_request');
      await expectError('POST', '/hosts', { hostType: 'local_event' }, 400, 'invalid_request');
      await expectError('POST', '/hosts', { hostType: 'local_event', hostKey: 'x', extra: 1 }, 400, 'invalid_request');
    });
  });

  describe('sources', () => {
    it('POST is idempotent by hostId + streamKind + streamKey; GET has streamStats (null before the first event)', async () => {
      const hostId = await host();
      const body = { hostId, streamKind: 'pr', streamKey: 'repo/a', config: { x: 1 } };
      const created = await sock('POST', '/sources', body);
      expect(created.status).toBe(201);
      expect(created.json).toMatchObject({ sourceId: expect.stringMatching(/^src_/), hostId, sourceType: 'local_event', streamKind: 'pr', streamKey: 'repo/a', config: { x: 1 }, configRef: null, state: 'active', error: null, idleState: null });
      // AgentInbox's SourceStream fields beside svc's.
      expect(created.json).toMatchObject({ streamId: created.json.sourceId, sourceKey: 'repo/a', status: 'active', checkpoint: null, hostType: 'local_event' });
      const again = await sock('POST', '/sources', { ...body, config: { x: 2 } });
      expect(again.status).toBe(200);
      expect(again.json).toEqual(created.json);
      const id = created.json.sourceId;
      const schema = (await sock('GET', `/sources/${id}/schema`)).json;
      expect(schema).toMatchObject({
        sourceId: id,
        sourceType: 'local_event',
        metadataFields: [{ name: 'channel' }, { name: 'subject' }],
        configFields: [],
        hostType: 'local_event',
        sourceKind: 'local_event',
        implementationId: 'builtin.local_event',
        configSchema: { type: 'object' },
        eventSchema: { required: ['type'] },
      });
      expect(schema).not.toHaveProperty('subscriptionSchema');
      const detail = (await sock('GET', `/sources/${id}`)).json;
      expect(detail).toEqual({
        source: created.json,
        runtime: null,
        host: (await sock('GET', `/hosts/${hostId}`)).json.host,
        resolvedIdentity: { hostType: 'local_event', sourceKind: 'local_event', implementationId: 'builtin.local_event' },
        schema,
        stream: { streamId: id.replace(/^src_/, 'str_'), sourceId: id, streamKey: `source:${id}`, backend, createdAt: created.json.createdAt, compaction: backend === 'sqlite', streamStats: null },
        subscriptions: [],
        idleState: null,
      });
      expect((await sock('GET', `/streams/${id}`)).json).toEqual(detail);
      expect((await sock('GET', `/sources?hostId=${hostId}`)).json.sources).toEqual([{ ...created.json, runtime: null }]);
    });

    it('PATCH replaces config and/or configRef; an empty PATCH is 400', async () => {
      const id = await localSource();
      expect((await sock('PATCH', `/sources/${id}`, { configRef: 'cred:1' })).json).toMatchObject({ updated: true, source: { configRef: 'cred:1', config: {} } });
      expect((await sock('PATCH', `/sources/${id}`, { config: { y: 2 } })).json).toMatchObject({ updated: true, source: { configRef: 'cred:1', config: { y: 2 }, state: 'active' } });
      expect((await sock('PATCH', `/streams/${id}`, { configRef: null })).json).toMatchObject({ updated: true, source: { configRef: null, config: { y: 2 } } });
      await expectError('PATCH', '/streams/src_nope', { config: {} }, 404, 'stream_not_found');
      await expectError('PATCH', `/sources/${id}`, {}, 400, 'invalid_request');
      await expectError('PATCH', '/sources/src_nope', { config: {} }, 404, 'source_not_found');
    });

    it('DELETE removes the source and its stream', async () => {
      const id = await localSource();
      await sock('POST', `/sources/${id}/events`, { type: 't' });
      expect((await sock('DELETE', `/sources/${id}`)).json).toEqual({ sourceId: id, deleted: true, removed: true, removedSubscriptions: 0, pausedSource: false });
      await expectError('GET', `/sources/${id}`, undefined, 404, 'source_not_found');
      await expectError('GET', `/streams/${id}`, undefined, 404, 'stream_not_found');
      await expectError('DELETE', `/sources/${id}`, undefined, 404, 'source_not_found');
    });

    it('DELETE keeps a source with subscriptions (409) unless with_subscriptions, which removes them with it', async () => {
      const id = await localSource();
      const agents = [await consumer(id), await consumer(id)];
      const refused = await expectError('DELETE', `/sources/${id}`, undefined, 409, 'source_has_subscriptions');
      expect(refused).toMatchObject({ sourceId: id, subscriptionCount: 2 });
      await expectError('DELETE', `/sources/${id}?with_subscriptions=false`, undefined, 409, 'source_has_subscriptions');
      await expectError('DELETE', `/sources/${id}?with_subscriptions=yes`, undefined, 400, 'invalid_request');
      expect((await sock('GET', `/sources/${id}`)).status).toBe(200);
      expect((await sock('GET', `/subscriptions?sourceId=${id}`)).json.subscriptions).toHaveLength(2);

      const removed = await sock('DELETE', `/sources/${id}?with_subscriptions=true`);
      expect(removed.status, removed.text).toBe(200);
      expect(removed.json).toEqual({ sourceId: id, deleted: true, removed: true, removedSubscriptions: 2, pausedSource: false });
      await expectError('GET', `/sources/${id}`, undefined, 404, 'source_not_found');
      for (const agentId of agents) expect((await sock('GET', `/subscriptions?agentId=${agentId}`)).json.subscriptions).toEqual([]);
      // svc's own spelling of the flag.
      const other = await localSource();
      await consumer(other);
      expect((await sock('DELETE', `/sources/${other}?withSubscriptions=1`)).json).toMatchObject({ removed: true, removedSubscriptions: 1 });
    });

    it('answers 404 host_not_found / source_not_found, 409 source_not_managed for pausing local sources, and a note for polling them', async () => {
      await expectError('POST', '/sources', { hostId: 'hst_nope', streamKind: 'k', streamKey: 'x' }, 404, 'host_not_found');
      await expectError('GET', '/sources/src_nope', undefined, 404, 'source_not_found');
      await expectError('GET', '/sources/src_nope/schema', undefined, 404, 'source_not_found');
      await expectError('GET', '/streams/src_nope/schema', undefined, 404, 'stream_not_found');
      await expectError('POST', '/streams/src_nope/poll', undefined, 404, 'stream_not_found');
      const id = await localSource();
      for (const verb of ['pause', 'resume']) {
        await expectError('POST', `/sources/${id}/${verb}`, undefined, 409, 'source_not_managed');
        await expectError('POST', `/streams/${id}/${verb}`, undefined, 409, 'source_not_managed');
      }
      const note = { sourceId: id, sourceType: 'local_event', appended: 0, deduped: 0, eventsRead: 0, note: 'local_event source has no background poller', state: 'active' };
      expect((await sock('POST', `/sources/${id}/poll`)).json).toEqual(note);
      expect((await sock('POST', `/streams/${id}/poll`)).json).toEqual(note);
    });

    it('a source without a configRef takes its host\'s', async () => {
      const created = await sock('POST', '/hosts', { hostType: 'local_event', hostKey: 'with-ref', configRef: 'credential:ci' });
      expect(created.json).toMatchObject({ configRef: 'credential:ci' });
      const hostId = created.json.hostId;
      expect((await sock('POST', '/sources', { hostId, streamKind: 'k', streamKey: 'inherits' })).json).toMatchObject({ configRef: 'credential:ci' });
      expect((await sock('POST', '/sources', { hostId, streamKind: 'k', streamKey: 'own', configRef: 'credential:other' })).json).toMatchObject({ configRef: 'credential:other' });
    });
  });

  describe('append', () => {
    it('appends one event or a batch with contiguous offsets from 1, idempotent by id', async () => {
      const id = await localSource();
      expect((await sock('POST', `/sources/${id}/events`, { id: 'a', type: 't', data: { n: 1 } })).json).toEqual({ appended: 1, deduped: 0, firstOffset: 1, lastOffset: 1 });
      const batch = await sock('POST', `/sources/${id}/events`, { events: [{ id: 'a', type: 't' }, { id: 'b', type: 't' }, { type: 'u', subject: 's', time: '2030-01-01T00:00:00+01:00', metadata: { lifecycle: 'terminal' } }] });
      expect(batch.status).toBe(200);
      expect(batch.json).toEqual({ appended: 2, deduped: 1, firstOffset: 2, lastOffset: 3 });
      expect((await sock('GET', `/streams/${id}`)).json.stream).toEqual({
        streamId: id.replace(/^src_/, 'str_'),
        sourceId: id,
        streamKey: `source:${id}`,
        backend,
        createdAt: expect.any(String),
        compaction: backend === 'sqlite',
        streamStats: env.stats({ eventCount: 3, retainedFromOffset: 1, highWatermarkOffset: 3 }),
      });
    });

    it('keeps offsets contiguous under 100 concurrent appends', async () => {
      const id = await localSource();
      const results = await Promise.all(Array.from({ length: 100 }, (_, i) => sock('POST', `/sources/${id}/events`, { events: [{ type: 't', id: `x${i}` }, { type: 't', id: `y${i}` }] })));
      const offsets = results.flatMap((r) => [r.json.firstOffset, r.json.lastOffset]).sort((a, b) => a - b);
      expect(offsets).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    });

    it('rejects bad events with 400 (nothing stored), unknown sources with 404, remote sources with 409', async () => {
      const id = await localSource();
      const missingType = await expectError('POST', `/sources/${id}/events`, { id: 'x' }, 400, 'invalid_request');
      expect(missingType.error).toMatch(/type/);
      const inBatch = await expectError('POST', `/sources/${id}/events`, { events: [{ type: 't' }, { type: 't', time: 'tomorrow' }] }, 400, 'invalid_request');
      expect(inBatch.error).toMatch(/events\.1\.time/);
      await expectError('POST', `/sources/${id}/events`, { events: [] }, 400, 'invalid_request');
      await expectError('POST', `/sources/${id}/events`, { type: 't', extra: true }, 400, 'invalid_request');
      await expectError('POST', `/sources/${id}/events`, undefined, 400, 'invalid_request');
      const raw = await request({ socketPath: d.socket }, 'POST', `/sources/${id}/events`, { raw: '{"type":', headers: { 'content-type': 'application/json' } });
      expect(raw.json).toMatchObject({ code: 'invalid_json' });
      expect((await sock('GET', `/sources/${id}`)).json.stream.streamStats).toBeNull();
      await expectError('POST', '/sources/src_nope/events', { type: 't' }, 404, 'source_not_found');
      const remoteHost = await host('remote_source');
      const modulePath = path.join(d.home, 'source-modules', 'ok.mjs');
      fs.writeFileSync(modulePath, 'export default { poll: async () => ({ events: [], cursor: null }) };');
      const remote = await sock('POST', '/sources', { hostId: remoteHost, streamKind: 'k', streamKey: 'r', config: { modulePath } });
      expect(remote.status, remote.text).toBe(201);
      await expectError('POST', `/sources/${remote.json.sourceId}/events`, { type: 't' }, 409, 'manual_append_unsupported');
    });

    it("takes AgentInbox's form: eventVariant + sourceNativeId identify the event, rawPayload is its data", async () => {
      const id = await localSource();
      const agentId = await consumer(id);
      const body = { sourceNativeId: 'pr:87', eventVariant: 'review:submitted', occurredAt: '2030-01-01T00:00:00+01:00', metadata: { channel: 'eng' }, rawPayload: { text: 'hi' } };
      expect((await sock('POST', `/sources/${id}/events`, body)).json).toEqual({ appended: 1, deduped: 0, firstOffset: 1, lastOffset: 1 });
      expect((await sock('POST', `/sources/${id}/events`, body)).json).toEqual({ appended: 0, deduped: 1, firstOffset: null, lastOffset: null });
      // Another variant of the native id is another event, and ':' in a variant cannot make two identities one.
      expect((await sock('POST', `/sources/${id}/events`, { sourceNativeId: 'pr:87', eventVariant: 'review' })).json).toMatchObject({ appended: 1 });
      expect((await sock('POST', `/sources/${id}/events`, { sourceNativeId: 'submitted:pr:87', eventVariant: 'review' })).json).toMatchObject({ appended: 1 });
      const events = (await sock('GET', `/agents/${agentId}/inbox/items`)).json.entries.map((e: { event: unknown }) => e.event);
      expect(events[0]).toMatchObject({ id: 'review%3Asubmitted:pr:87', type: 'review:submitted', subject: null, time: '2029-12-31T23:00:00.000Z', data: { text: 'hi' }, metadata: { channel: 'eng' } });
      expect(events.slice(1)).toMatchObject([{ id: 'review:pr:87', data: null, metadata: {} }, { id: 'review:submitted:pr:87' }]);

      const noVariant = await expectError('POST', `/sources/${id}/events`, { sourceNativeId: 'x' }, 400, 'invalid_request');
      expect(noVariant.error).toMatch(/eventVariant/);
      await expectError('POST', `/sources/${id}/events`, { sourceNativeId: 'x', eventVariant: 'v', type: 't' }, 400, 'invalid_request');
      await expectError('POST', `/sources/${id}/events`, { sourceNativeId: 'x', eventVariant: 'v', rawPayload: [1] }, 400, 'invalid_request');
      await expectError('POST', `/sources/${id}/events`, { sourceNativeId: 'x', eventVariant: 'v', occurredAt: 'yesterday' }, 400, 'invalid_request');
      const tooLong = await expectError('POST', `/sources/${id}/events`, { sourceNativeId: 'n'.repeat(500), eventVariant: 'v'.repeat(20) }, 400, 'invalid_request');
      expect(tooLong.error).toMatch(/together/);
      expect((await sock('GET', `/sources/${id}`)).json.stream.streamStats).toMatchObject({ highWatermarkOffset: 3 });
    });
  });

  describe('remote sources', () => {
    const write = (name: string, text: string) => {
      const dir = path.join(d.home, 'source-modules');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
      return name;
    };

    it('polls the module on request, passes moduleConfig and the cursor, and appends idempotently', async () => {
      const modulePath = write(
        'count.mjs',
        "export default { validate(c) { if (!c || !c.prefix) throw new Error('prefix required'); }, async poll({ moduleConfig, cursor }) { const n = cursor ?? 0; return { events: [{ id: moduleConfig.prefix + n, type: 'tick', data: { n } }, { id: moduleConfig.prefix + '0', type: 'tick' }], cursor: n + 1 }; } };",
      );
      const hostId = await host('remote_source');
      await expectError('POST', '/sources', { hostId, streamKind: 'k', streamKey: 'c', config: { modulePath, moduleConfig: {} } }, 400, 'invalid_source_config');
      const created = await sock('POST', '/sources', { hostId, streamKind: 'k', streamKey: 'c', config: { modulePath, moduleConfig: { prefix: 'p' } } });
      expect(created.status, created.text).toBe(201);
      const id = created.json.sourceId;
      const polled = { sourceId: id, sourceType: 'remote_source', appended: 1, deduped: 1, eventsRead: 2, note: 'polled once', state: 'active' };
      expect((await sock('POST', `/sources/${id}/poll`)).json).toEqual(polled);
      expect((await sock('POST', `/streams/${id}/poll`)).json).toEqual(polled);
      const detail = (await sock('GET', `/sources/${id}`)).json;
      expect(detail).toMatchObject({
        source: { cursor: 2, checkpoint: '2', sourceType: 'remote_source' },
        runtime: { backend: 'svc', status: 'running', streamId: id, lastError: null },
        resolvedIdentity: { hostType: 'remote_source', sourceKind: 'remote:count', implementationId: 'count' },
        stream: { streamStats: { highWatermarkOffset: 2 } },
      });
      expect(detail).not.toHaveProperty('resolutionError');
      // Pause keeps it paused through PATCH and poll; resume is the ensure path.
      expect((await sock('POST', `/sources/${id}/pause`)).json).toMatchObject({ paused: true, source: { state: 'paused', status: 'paused' } });
      expect((await sock('PATCH', `/sources/${id}`, { configRef: 'cred:x' })).json).toMatchObject({ updated: true, source: { state: 'paused', configRef: 'cred:x' } });
      expect((await sock('POST', `/sources/${id}/poll`)).json).toMatchObject({ appended: 1, note: 'polled once; the source stays paused', state: 'paused' });
      expect((await sock('POST', `/streams/${id}/resume`)).json).toMatchObject({ resumed: true, source: { state: 'active', error: null } });
      // Removed with its subscriptions, a managed source reports that its polling was stopped.
      await consumer(id);
      expect((await sock('DELETE', `/sources/${id}?with_subscriptions=true`)).json).toMatchObject({ removed: true, removedSubscriptions: 1, pausedSource: true });
    });

    it('polls every pollIntervalMs while active (the example JSON Lines module), not while paused', async () => {
      const file = path.join(d.home, 'feed.jsonl');
      fs.writeFileSync(file, '{"type":"a"}\n');
      const modulePath = path.join(d.home, 'source-modules', 'jsonl-file.mjs');
      fs.copyFileSync(path.join(ROOT, 'examples', 'source-modules', 'jsonl-file.mjs'), modulePath);
      const created = await sock('POST', '/sources', { hostId: await host('remote_source'), streamKind: 'jsonl', streamKey: 'feed', config: { modulePath, moduleConfig: { path: file }, pollIntervalMs: 1000 } });
      expect(created.status, created.text).toBe(201);
      const id = created.json.sourceId;
      const hw = async () => (await sock('GET', `/sources/${id}`)).json.stream.streamStats?.highWatermarkOffset ?? 0;
      await waitFor(async () => (await hw()) === 1, 15_000, 200);
      fs.appendFileSync(file, '{"type":"b"}\n');
      await waitFor(async () => (await hw()) === 2, 15_000, 200);
      expect((await sock('POST', `/sources/${id}/pause`)).json.source.state).toBe('paused');
      fs.appendFileSync(file, '{"type":"c"}\n');
      await new Promise((r) => setTimeout(r, 2500));
      expect(await hw()).toBe(2);
      await sock('POST', `/sources/${id}/resume`);
      await waitFor(async () => (await hw()) === 3, 15_000, 200);
    });

    it('a broken module never crashes the daemon: refused at creation, or marks its source error', async () => {
      const hostId = await host('remote_source');
      const syntax = write('syntax.mjs', 'export default { poll( };');
      const bad = await expectError('POST', '/sources', { hostId, streamKind: 'k', streamKey: 'syntax', config: { modulePath: syntax } }, 400, 'invalid_source_module');
      expect(bad.modulePath).toBe(syntax);
      await expectError('POST', '/sources', { hostId, streamKind: 'k', streamKey: 'none', config: { modulePath: 'none.mjs' } }, 400, 'invalid_source_module');
      await expectError('POST', '/sources', { hostId, streamKind: 'k', streamKey: 'outside', config: { modulePath: '/nonexistent/m.mjs' } }, 400, 'source_module_not_allowed');
      await expectError('POST', '/sources', { hostId, streamKind: 'k', streamKey: 'nopath', config: {} }, 400, 'invalid_source_config');
      const cases: Array<[string, string, RegExp]> = [
        ['throws', "export default { async poll() { throw new Error('remote said no'); } };", /remote said no/],
        ['hangs', 'export default { poll() { for (;;) {} } };', /within 500 ms/],
        ['exits', 'export default { poll() { process.exit(1); } };', /exited/],
        ['leaks', 'export default { poll() { const a = []; for (;;) a.push(new Array(1e6).fill(1)); } };', /worker|memory|within/i],
      ];
      for (const [name, text, message] of cases) {
        const modulePath = write(`${name}.mjs`, text);
        const created = await sock('POST', '/sources', { hostId, streamKind: 'k', streamKey: name, config: { modulePath, pollTimeoutMs: 500 } });
        expect(created.status, created.text).toBe(201);
        const failed = await expectError('POST', `/sources/${created.json.sourceId}/poll`, undefined, 502, 'source_poll_failed');
        expect(failed.error, name).toMatch(message);
        expect((await sock('GET', `/sources/${created.json.sourceId}`)).json).toMatchObject({ source: { state: 'error', status: 'error', error: expect.stringMatching(message) }, runtime: { status: 'error' } });
      }
      expect((await sock('GET', '/healthz')).status).toBe(200);
      expect(d.proc.exitCode).toBeNull();
    });
  });

  describe.runIf(backend === 'sqlite')('compaction', () => {
    it('answers 404 for unknown or uninitialised streams, 400 for bad options, without creating anything', async () => {
      await expectError('POST', '/streams/src_nope/compaction-preview', { retentionMs: 1000 }, 404, 'stream_not_found');
      await expectError('POST', '/streams/src_nope/compaction-apply', { apply: true, retentionMs: 1000 }, 404, 'stream_not_found');
      const id = await localSource();
      await expectError('POST', `/streams/${id}/compaction-preview`, { retentionMs: 1000, scanLimit: 10 }, 404, 'stream_not_found');
      expect((await sock('GET', `/streams/${id}`)).json.stream.streamStats).toBeNull();
      await sock('POST', `/sources/${id}/events`, { type: 't' });
      for (const body of [{}, { retentionMs: 0 }, { retentionMs: -5 }, { retentionMs: 1.5 }, { retentionMs: '1000' }, { retentionMs: 1000, scanLimit: 0 }, { retentionMs: 1000, scanLimit: 1e9 }, { retentionMs: 1000, apply: true }]) {
        await expectError('POST', `/streams/${id}/compaction-preview`, body, 400, 'invalid_request');
      }
      for (const body of [
        { retentionMs: 1000 },
        { apply: false, retentionMs: 1000 },
        { apply: 'yes', retentionMs: 1000 },
        { apply: true },
        { apply: true, retentionMs: 0 },
        { apply: true, retentionMs: 1000, scanLimit: 10 },
        { apply: true, retentionMs: 1000, dryRun: true },
        { apply: true, retentionMs: 1000, batchSize: 1_000_000 },
        { apply: true, retentionMs: 1000, maxEvents: 0 },
        { apply: true, retentionMs: 1000, maxPayloadBytes: 1e12 },
      ]) {
        await expectError('POST', `/streams/${id}/compaction-apply`, body, 400, 'invalid_request');
      }
      expect((await sock('GET', `/streams/${id}`)).json.stream.streamStats).toMatchObject({ prunedEventCount: 0, retainedFromOffset: 1 });
    });

    it('previews, skips a stream without consumers, applies, retries idempotently; replay below the range is 409 history_unavailable', async () => {
      const id = await localSource();
      await sock('POST', `/sources/${id}/events`, { events: Array.from({ length: 20 }, (_, i) => ({ id: `e${i}`, type: 't', data: { i } })) });
      await new Promise((r) => setTimeout(r, 30));
      const preview = await sock('POST', `/streams/${id}/compaction-preview`, { retentionMs: 1, scanLimit: 5 });
      expect(preview.json).toMatchObject({ streamId: id, scanned: 5, eligibleEvents: 5, scanComplete: false, consumers: 0, skipReason: 'no_consumers' });
      expect((await sock('POST', `/streams/${id}/compaction-apply`, { apply: true, retentionMs: 1 })).json).toMatchObject({ committedBatches: 0, prunedEvents: 0, stopReason: 'no_consumers', hasMore: true });
      await consumer(id);
      const first = await sock('POST', `/streams/${id}/compaction-apply`, { apply: true, retentionMs: 1, maxEvents: 8, batchSize: 5 });
      expect(first.json).toMatchObject({ committedBatches: 2, prunedEvents: 8, retainedFromOffset: 9, highWatermarkOffset: 20, nextOffset: 9, hasMore: true, stopReason: 'max_events' });
      const rest = await sock('POST', `/streams/${id}/compaction-apply`, { apply: true, retentionMs: 1 });
      expect(rest.json).toMatchObject({ prunedEvents: 12, retainedFromOffset: 21, nextOffset: 21, hasMore: false, stopReason: 'completed' });
      expect((await sock('POST', `/streams/${id}/compaction-apply`, { apply: true, retentionMs: 1 })).json).toMatchObject({ committedBatches: 0, prunedEvents: 0, prunedBytes: 0, stopReason: 'completed' });
      expect((await sock('GET', `/sources/${id}`)).json.stream.streamStats).toEqual({ eventCount: 20, replayableEventCount: 0, prunedEventCount: 20, prunedThroughOffset: 20, retainedFromOffset: 21, highWatermarkOffset: 20 });
      // Offsets go on after compaction; a pruned id is still known.
      expect((await sock('POST', `/sources/${id}/events`, { events: [{ id: 'e0', type: 't' }, { type: 't' }] })).json).toMatchObject({ appended: 1, deduped: 1, firstOffset: 21 });
      const agent = await sock('POST', '/agents', {});
      const replay = await expectError('POST', '/subscriptions', { agentId: agent.json.agentId, sourceId: id, startPolicy: 'at_offset', startOffset: 3 }, 409, 'history_unavailable');
      expect(replay).toMatchObject({ streamId: id, requested: expect.anything(), retainedFromOffset: 21, highWatermarkOffset: 21 });
    });

    it('an event over maxPayloadBytes stops the run with oversized', async () => {
      const id = await localSource();
      await consumer(id);
      await sock('POST', `/sources/${id}/events`, { events: [{ type: 't', data: 'small' }, { type: 't', data: 'x'.repeat(5000) }, { type: 't' }] });
      await new Promise((r) => setTimeout(r, 30));
      const r = await sock('POST', `/streams/${id}/compaction-apply`, { apply: true, retentionMs: 1, maxPayloadBytes: 1000 });
      expect(r.json).toMatchObject({ prunedEvents: 1, nextOffset: 2, hasMore: true, stopReason: 'oversized' });
    });
  });

  describe('svc inbox (CLI over the socket)', () => {
    it.runIf(backend === 'sqlite')('creates hosts and sources, appends, shows a stream, and compacts with progress', async () => {
      const created = await svc(['hosts', 'create', '--type', 'local_event', '--key', 'cli', '--config', '{"a":1}', '--json']);
      expect(created.code, created.stderr).toBe(0);
      const hostId = JSON.parse(created.stdout).hostId;
      const listed = await svc(['hosts', 'list']);
      expect(listed.stdout).toMatch(new RegExp(`^${hostId}\\s+local_event\\s+cli`, 'm'));
      const src = await svc(['sources', 'create', '--host', hostId, '--kind', 'k', '--key', 'cli', '--json']);
      expect(src.code, src.stderr).toBe(0);
      const sourceId = JSON.parse(src.stdout).sourceId;
      const appended = await svc(['append', sourceId, '--type', 'note', '--data', '{"text":"hi"}', '--id', 'n1', '--subject', 'doc', '--json']);
      expect(JSON.parse(appended.stdout)).toEqual({ appended: 1, deduped: 0, firstOffset: 1, lastOffset: 1 });
      expect(JSON.parse((await svc(['append', sourceId, '--type', 'note', '--id', 'n1', '--json'])).stdout)).toMatchObject({ deduped: 1 });
      const stream = await svc(['streams', 'get', sourceId]);
      expect(stream.stdout).toMatch(/^highWatermarkOffset\s+1$/m);
      expect((await svc(['sources', 'list', '--host', hostId])).stdout).toContain(sourceId);
      await consumer(sourceId);
      await new Promise((r) => setTimeout(r, 30));
      const preview = await svc(['compaction', 'preview', sourceId, '--retention-ms', '1', '--json']);
      expect(JSON.parse(preview.stdout)).toMatchObject({ eligibleEvents: 1 });
      const applied = await svc(['compaction', 'apply', sourceId, '--retention-ms', '1']);
      expect(applied.code, applied.stderr).toBe(0);
      expect(applied.stderr).toMatch(/^pruned 1 events \(\d+ bytes\); retained 2\.\.1; completed$/m);
      expect(applied.stdout).toMatch(/^stopReason\s+completed$/m);
    });

    it.runIf(backend === 'sqlite')('prints the server code and the history_unavailable fields on failure', async () => {
      const bad = await svc(['append', 'src_nope', '--type', 't']);
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toMatch(/^svc: source_not_found: /m);
      const id = await localSource();
      await consumer(id);
      await sock('POST', `/sources/${id}/events`, { events: [{ type: 't' }, { type: 't' }] });
      await new Promise((r) => setTimeout(r, 30));
      await sock('POST', `/streams/${id}/compaction-apply`, { apply: true, retentionMs: 1 });
      const agent = await sock('POST', '/agents', {});
      const r = await svc(['subscriptions', 'create', '--agent', agent.json.agentId, '--source', id, '--start-policy', 'at_offset', '--start-offset', '1']);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/^svc: history_unavailable: /m);
      expect(r.stderr).toMatch(new RegExp(`^  streamId: ${id}$`, 'm'));
      expect(r.stderr).toMatch(/^ {2}retainedFromOffset: 3$/m);
      expect(r.stderr).toMatch(/^ {2}highWatermarkOffset: 2$/m);
      expect(r.stderr).toMatch(/^ {2}requested: /m);
      const unmanaged = await svc(['sources', 'pause', id]);
      expect(unmanaged.stderr).toMatch(/^svc: source_not_managed: /m);
      // --json: one JSON document on stdout with the envelope's fields, nothing on stderr, exit 1.
      const asJson = await svc(['subscriptions', 'create', '--agent', agent.json.agentId, '--source', id, '--start-policy', 'at_offset', '--start-offset', '1', '--json']);
      expect(asJson.code).toBe(1);
      expect(asJson.stderr).toBe('');
      expect(JSON.parse(asJson.stdout)).toMatchObject({ ok: false, code: 'history_unavailable', status: 409, error: expect.any(String), streamId: id, retainedFromOffset: 3, highWatermarkOffset: 2 });
      const notFound = await svc(['append', 'src_nope', '--type', 't', '--json']);
      expect([notFound.code, JSON.parse(notFound.stdout)]).toEqual([1, expect.objectContaining({ ok: false, code: 'source_not_found', status: 404 })]);
      const kept = await svc(['sources', 'delete', id]);
      expect(kept.code).not.toBe(0);
      expect(kept.stderr).toMatch(/^svc: source_has_subscriptions: /m);
      const deleted = await svc(['sources', 'delete', id, '--with-subscriptions', '--json']);
      expect(deleted.code, deleted.stderr).toBe(0);
      expect(JSON.parse(deleted.stdout)).toMatchObject({ sourceId: id, removed: true, removedSubscriptions: 1 });
    });
  });

  describe('durability', () => {
    it('every acknowledged append survives SIGKILL, with offsets 1..N and no gap after restart', async () => {
      const home = pool.home();
      const configToml = env.configToml();
      let daemon = await pool.start({ home, configToml });
      const target = { socketPath: daemon.socket };
      const h = await request(target, 'POST', '/hosts', { body: { hostType: 'local_event', hostKey: 'k' } });
      const s = await request(target, 'POST', '/sources', { body: { hostId: h.json.hostId, streamKind: 'k', streamKey: 'k' } });
      const id = s.json.sourceId as string;
      const acked = new Map<string, number>();
      let stop = false;
      const writers = Array.from({ length: 8 }, async (_, w) => {
        for (let i = 0; !stop; i++) {
          const eventId = `w${w}-${i}`;
          try {
            const r = await request(target, 'POST', `/sources/${id}/events`, { body: { id: eventId, type: 't' } });
            if (r.status === 200 && r.json.firstOffset) acked.set(eventId, r.json.firstOffset);
          } catch {
            return;
          }
        }
      });
      await waitFor(() => acked.size >= 300, 20_000);
      await new Promise<void>((resolve) => {
        daemon.proc.once('exit', () => resolve());
        daemon.proc.kill('SIGKILL');
      });
      stop = true;
      await Promise.race([Promise.all(writers), new Promise((r) => setTimeout(r, 5000))]);
      daemon = await pool.start({ home, configToml });
      // JetStream: the restarted daemon's mirror catches up from where its last commit stopped.
      const detail = await waitFor(async () => {
        const r = await request({ socketPath: daemon.socket }, 'GET', `/sources/${id}`);
        return r.json.stream.streamStats?.highWatermarkOffset >= acked.size ? r : null;
      }, 20_000);
      const hw = detail.json.stream.streamStats.highWatermarkOffset as number;
      expect(detail.json.stream.streamStats.eventCount).toBe(hw);
      // Every acknowledged id is stored once, at the offset it was acknowledged with: re-appending it is a dedupe.
      const again = await request({ socketPath: daemon.socket }, 'POST', `/sources/${id}/events`, { body: { events: [...acked.keys()].slice(0, 5000).map((eid) => ({ id: eid, type: 't' })) } });
      expect(again.json).toEqual({ appended: 0, deduped: Math.min(acked.size, 5000), firstOffset: null, lastOffset: null });
      const next = await request({ socketPath: daemon.socket }, 'POST', `/sources/${id}/events`, { body: { type: 't' } });
      expect(next.json.firstOffset).toBe(hw + 1);
      expect(new Set(acked.values()).size).toBe(acked.size);
      expect(Math.max(...acked.values())).toBeLessThanOrEqual(hw);
    });
  });
});

describe('jetstream backend over HTTP', () => {
  const env = useBackend('jetstream');
  const pool = daemonPool();
  afterAll(() => pool.cleanup());

  it('compaction answers 501 compaction_unsupported; streamStats has no compaction fields; backend and compaction are reported', async () => {
    const daemon = await pool.start({ configToml: env.configToml() });
    const at = { socketPath: daemon.socket };
    const h = await request(at, 'POST', '/hosts', { body: { hostType: 'local_event', hostKey: 'k' } });
    const s = await request(at, 'POST', '/sources', { body: { hostId: h.json.hostId, streamKind: 'k', streamKey: 'k' } });
    const id = s.json.sourceId as string;
    await request(at, 'POST', `/sources/${id}/events`, { body: { type: 't' } });
    for (const [url, body] of [[`/streams/${id}/compaction-preview`, { retentionMs: 1 }], [`/streams/${id}/compaction-apply`, { apply: true, retentionMs: 1 }]] as const) {
      const r = await request(at, 'POST', url, { body });
      expect(r.status, r.text).toBe(501);
      expect(r.json).toMatchObject({ ok: false, code: 'compaction_unsupported', backend: 'jetstream', streamId: id });
    }
    const stream = await request(at, 'GET', `/streams/${id}`);
    expect(stream.json.stream).toMatchObject({ backend: 'jetstream', compaction: false, streamStats: { eventCount: 1, replayableEventCount: 1, retainedFromOffset: 1, highWatermarkOffset: 1 } });
    expect(stream.json.stream.streamStats).not.toHaveProperty('prunedEventCount');
  });

  it('events dropped by JetStream retention (max_age_s) move the retained range: a replay below it is 409 history_unavailable', async () => {
    const daemon = await pool.start({ configToml: `${env.configToml()}max_age_s = 1\n` });
    const at = { socketPath: daemon.socket };
    const h = await request(at, 'POST', '/hosts', { body: { hostType: 'local_event', hostKey: 'k' } });
    const s = await request(at, 'POST', '/sources', { body: { hostId: h.json.hostId, streamKind: 'k', streamKey: 'k' } });
    const id = s.json.sourceId as string;
    await request(at, 'POST', `/sources/${id}/events`, { body: { events: [{ type: 't' }, { type: 't' }] } });
    // JetStream expires them after a second; the daemon reads the stream's first sequence every 5 s.
    await waitFor(async () => (await request(at, 'GET', `/streams/${id}`)).json.stream.streamStats.retainedFromOffset === 3, 15_000);
    const agent = await request(at, 'POST', '/agents', { body: {} });
    const r = await request(at, 'POST', '/subscriptions', { body: { agentId: agent.json.agentId, sourceId: id, startPolicy: 'at_offset', startOffset: 1 } });
    expect(r.status, r.text).toBe(409);
    expect(r.json).toMatchObject({ code: 'history_unavailable', streamId: id, retainedFromOffset: 3, highWatermarkOffset: 2 });
  }, 30_000);
});

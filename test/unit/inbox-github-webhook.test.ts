/**
 * GitHub webhooks into github sources (`POST /api/inbox/github/webhook/:source_id`, control
 * plane) through inject: signatures computed here from GitHub's documented scheme (HMAC-SHA256 of
 * the raw body, `sha256=<hex>`), replays, wrong sources, wrong repositories, limits.
 */
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { githubWebhookRoutes } from '../../src/http/control/github-webhooks.js';
import { routeApp } from '../helpers/app.js';
import { testServices, type TestServices } from '../helpers/services.js';

const SECRET = 'whsec-github-unit-6f1e';

let t: TestServices;
let app: FastifyInstance;
let sourceId: string;
beforeEach(async () => {
  t = testServices();
  app = await routeApp(t.s, githubWebhookRoutes(t.s));
  t.s.credentials.put('hook', 'api_key', SECRET);
  const { host } = t.s.inbox.hosts.create({ hostType: 'github', hostKey: 'gh' });
  sourceId = (await t.s.inbox.sources.create({ hostId: host.hostId, streamKind: 'repo_events', streamKey: 'octo/hello', config: { webhookSecretRef: 'hook' } })).source.sourceId;
});
afterEach(async () => {
  await app.close();
  await t.close();
});

const sign = (body: string | Buffer, secret = SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
const repository = { full_name: 'octo/hello', name: 'hello', owner: { login: 'octo' } };
const issue = { id: 77, number: 12, title: 'Crash on start', state: 'open', user: { login: 'octocat' }, labels: [], body: 'see @hubot', created_at: '2030-01-01T10:00:00Z', updated_at: '2030-01-01T10:00:00Z', html_url: 'https://github.com/octo/hello/issues/12' };

let deliveries = 0;
function deliver(
  event: string,
  payload: unknown,
  opts: { id?: string; source?: string; signature?: string | null; body?: string | Buffer; contentType?: string; headers?: Record<string, string> } = {},
) {
  const body = opts.body ?? JSON.stringify(payload);
  const headers: Record<string, string> = {
    'content-type': opts.contentType ?? 'application/json',
    'x-github-event': event,
    'x-github-delivery': opts.id ?? `0b5c6f3e-0000-11f0-8000-${String(++deliveries).padStart(12, '0')}`,
    'user-agent': 'GitHub-Hookshot/abc123',
    ...opts.headers,
  };
  if (opts.signature !== null) headers['x-hub-signature-256'] = opts.signature ?? sign(body);
  return app.inject({ method: 'POST', url: `/api/inbox/github/webhook/${opts.source ?? sourceId}`, headers, payload: body });
}

const stored = () => t.s.inbox.streams.read(sourceId, 0, 100);

describe('signed deliveries', () => {
  it('an issues delivery becomes the event polling gives for that state; a replay or redelivery is deduplicated', async () => {
    const payload = { action: 'opened', issue, repository, sender: { login: 'octocat' } };
    const first = await deliver('issues', payload, { id: 'd-1' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ ok: true, sourceId, event: 'issues', deliveryId: 'd-1', eventId: 'issues:12:2030-01-01T10:00:00Z', appended: 1, deduped: 0 });
    expect(stored()).toEqual([
      expect.objectContaining({
        id: 'issues:12:2030-01-01T10:00:00Z',
        type: 'github.issue',
        subject: 'repo:octo/hello:issue:12',
        time: '2030-01-01T10:00:00.000Z',
        data: issue,
        metadata: expect.objectContaining({ origin: 'webhook', eventType: 'issues', action: 'opened', deliveryId: 'd-1', sender: 'octocat', number: 12, mentions: ['hubot'], lifecycle: 'active' }),
      }),
    ]);
    const replay = await deliver('issues', payload, { id: 'd-1' });
    expect(replay.json()).toMatchObject({ appended: 0, deduped: 1 });
    // Another action on the same state (GitHub sends opened and labeled together): one event per state.
    const labeled = await deliver('issues', { ...payload, action: 'labeled' }, { id: 'd-2' });
    expect(labeled.json()).toMatchObject({ appended: 0, deduped: 1 });
    expect(stored()).toHaveLength(1);
  });

  it('a merged pull request is terminal: a subscription tracking it is cleaned up', async () => {
    const agent = t.s.inbox.agents.create({});
    const [sub] = t.s.inbox.subscriptions.create({
      agentId: agent.agentId,
      sourceId,
      filter: { match: { type: 'github.pull_request' } },
      trackedResourceRef: 'repo:octo/hello:pr:7',
      cleanupPolicy: { mode: 'on_terminal_or_at', at: '2031-01-01T00:00:00Z', gracePeriodSecs: 60 },
    });
    const pr = { id: 9, number: 7, title: 'Fix', state: 'closed', merged: true, merged_at: '2030-01-02T00:00:00Z', user: { login: 'octocat' }, labels: [], created_at: '2030-01-01T00:00:00Z', updated_at: '2030-01-02T00:00:00Z' };
    const res = await deliver('pull_request', { action: 'closed', number: 7, pull_request: pr, repository, sender: { login: 'monalisa' } });
    expect(res.json()).toMatchObject({ eventId: 'pulls:7:2030-01-02T00:00:00Z', appended: 1 });
    expect(stored()[0]!.metadata).toMatchObject({ action: 'merged', merged: true, lifecycle: 'terminal', isPullRequest: true });
    expect(t.s.inbox.subscriptions.get(sub!.subscriptionId)).toMatchObject({ terminalAt: expect.any(String) });
    expect(t.s.inbox.entries.list(agent.agentId, { limit: 10 })).toHaveLength(1);
  });

  it('ping appends nothing; a push is keyed by what it moved; another event is kept whole, keyed by its payload', async () => {
    const ping = await deliver('ping', { zen: 'Keep it logically awesome.', hook_id: 1, repository });
    expect(ping.json()).toMatchObject({ event: 'ping', eventId: null, appended: 0, deduped: 0 });
    const push = { ref: 'refs/heads/main', before: 'a'.repeat(40), after: 'b'.repeat(40), commits: [{ id: 'b'.repeat(40) }], repository };
    const first = await deliver('push', push, { id: 'push-1' });
    expect(first.json()).toMatchObject({ eventId: `pushes:refs/heads/main:${'a'.repeat(40)}..${'b'.repeat(40)}`, appended: 1 });
    expect(stored()[0]).toMatchObject({ type: 'github.push', data: push, metadata: { eventType: 'push', deliveryId: 'push-1', ref: 'refs/heads/main' } });
    expect((await deliver('push', push, { id: 'push-1' })).json()).toMatchObject({ appended: 0, deduped: 1 });
    const release = { action: 'published', release: { id: 5, tag_name: 'v1.0.0' }, repository };
    const published = await deliver('release', release, { id: 'release-1' });
    expect(published.json()).toMatchObject({ eventId: expect.stringMatching(/^payloads:[0-9a-f]{64}$/), appended: 1 });
    expect(stored()[1]).toMatchObject({ type: 'github.release', data: release, metadata: { eventType: 'release', deliveryId: 'release-1' } });
  });

  it("accepts GitHub's form encoding (payload=…), signed over the encoded bytes", async () => {
    const body = new URLSearchParams({ payload: JSON.stringify({ action: 'opened', issue, repository }) }).toString();
    const res = await deliver('issues', null, { body, contentType: 'application/x-www-form-urlencoded' });
    expect(res.json()).toMatchObject({ appended: 1 });
  });
});

describe('refusals (nothing is appended)', () => {
  const payload = { action: 'opened', issue, repository };

  it('401 without a signature, 403 for one that does not verify (other secret, changed body, malformed)', async () => {
    const body = JSON.stringify(payload);
    const cases: Array<[string | null, number, string]> = [
      [null, 401, 'webhook_signature_required'],
      [sign(body, 'another-secret'), 403, 'webhook_signature_invalid'],
      [sign(`${body} `), 403, 'webhook_signature_invalid'],
      ['sha256=zz', 403, 'webhook_signature_invalid'],
      [sign(body).replace('sha256=', 'sha1='), 403, 'webhook_signature_invalid'],
      [sign(body).toUpperCase(), 403, 'webhook_signature_invalid'],
    ];
    for (const [signature, status, code] of cases) {
      const res = await deliver('issues', payload, { signature, body });
      expect([res.statusCode, res.json().code], String(signature)).toEqual([status, code]);
      expect(res.body).not.toContain(SECRET);
    }
    expect(t.s.inbox.streams.stats(sourceId)).toBeNull();
  });

  it('the same 404 for an unknown source, another type, no webhookSecretRef, or a secret that is not stored', async () => {
    const { host: local } = t.s.inbox.hosts.create({ hostType: 'local_event', hostKey: 'l' });
    const localId = (await t.s.inbox.sources.create({ hostId: local.hostId, streamKind: 'k', streamKey: 'k', config: { webhookSecretRef: 'hook' } })).source.sourceId;
    const { host } = t.s.inbox.hosts.create({ hostType: 'github', hostKey: 'gh2' });
    const plainId = (await t.s.inbox.sources.create({ hostId: host.hostId, streamKind: 'repo_events', streamKey: 'octo/hello' })).source.sourceId;
    const lostId = (await t.s.inbox.sources.create({ hostId: host.hostId, streamKind: 'repo_events', streamKey: 'octo/other', config: { webhookSecretRef: 'gone' } })).source.sourceId;
    const bodies = new Set<string>();
    for (const id of ['src_01J0000000000000000000000', localId, plainId, lostId]) {
      const res = await deliver('issues', payload, { source: id });
      expect([res.statusCode, res.json().code], id).toEqual([404, 'source_not_found']);
      bodies.add(res.body.replaceAll(id, 'ID'));
    }
    expect([...bodies]).toHaveLength(1);
    expect(t.s.inbox.streams.stats(localId)).toBeNull();
  });

  it("400 for another repository's delivery (a shared secret), missing GitHub headers or a body that is not JSON; 415 for another content type", async () => {
    const other = await deliver('issues', { ...payload, repository: { full_name: 'octo/other' } });
    expect([other.statusCode, other.json()]).toEqual([400, expect.objectContaining({ code: 'webhook_repository_mismatch', repository: 'octo/other' })]);
    const none = await deliver('issues', { action: 'opened', issue });
    expect(none.json().code).toBe('webhook_repository_mismatch');
    const noEvent = await deliver('issues', payload, { headers: { 'x-github-event': '' } });
    expect([noEvent.statusCode, noEvent.json().issues[0].path]).toEqual([400, 'headers.x-github-event']);
    const badDelivery = await deliver('issues', payload, { id: 'not a guid' });
    expect(badDelivery.json().issues[0].path).toBe('headers.x-github-delivery');
    const notJson = await deliver('issues', null, { body: '{"action":' });
    expect([notJson.statusCode, notJson.json().code]).toEqual([400, 'invalid_json']);
    const text = await deliver('issues', payload, { contentType: 'text/plain' });
    expect([text.statusCode, text.json().code]).toEqual([415, 'unsupported_media_type']);
    expect(t.s.inbox.streams.stats(sourceId)).toBeNull();
  });

  it('a signed body nested too deep or carrying __proto__ is 400; a web page of another origin is 403 before anything', async () => {
    const deep = `{"repository":${JSON.stringify(repository)},"x":${'['.repeat(100)}${']'.repeat(100)}}`;
    const nested = await deliver('issues', null, { body: deep });
    expect([nested.statusCode, nested.json().code]).toEqual([400, 'invalid_request']);
    const proto = await deliver('issues', null, { body: `{"__proto__":{"polluted":1},"repository":${JSON.stringify(repository)}}` });
    expect([proto.statusCode, proto.json().code]).toEqual([400, 'invalid_request']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const page = await deliver('issues', payload, { headers: { origin: 'https://evil.example' } });
    expect([page.statusCode, page.json().code]).toEqual([403, 'cross_origin_rejected']);
    expect(t.s.inbox.streams.stats(sourceId)).toBeNull();
  });

  it('413 for a body over the limit', async () => {
    const body = JSON.stringify({ ...payload, padding: 'x'.repeat(4 * 1024 * 1024) });
    const res = await deliver('issues', null, { body });
    expect([res.statusCode, res.json().code]).toEqual([413, 'payload_too_large']);
    expect(t.s.inbox.streams.stats(sourceId)).toBeNull();
  });
});

describe('fuzzed deliveries', () => {
  it('never answer 5xx, signed or not, whatever the payload and headers', async () => {
    const anything = fc.oneof(fc.string({ maxLength: 40 }), fc.integer(), fc.constant(null), fc.boolean(), fc.object({ maxDepth: 2 }), fc.array(fc.string(), { maxLength: 3 }));
    const payload = fc.record(
      {
        action: anything,
        issue: anything,
        pull_request: anything,
        comment: anything,
        workflow_run: anything,
        repository: fc.oneof(fc.constant(repository), anything),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('issues', 'pull_request', 'issue_comment', 'workflow_run', 'push', 'ping', 'x', ''),
        payload,
        fc.boolean(),
        fc.string({ maxLength: 20 }),
        async (event, body, signed, deliveryId) => {
          const text = JSON.stringify(body);
          const res = await deliver(event, null, { body: text, id: deliveryId, signature: signed ? sign(text) : `sha256=${'0'.repeat(64)}` });
          expect(res.statusCode, res.body).toBeLessThan(500);
          expect(res.json()).toHaveProperty('ok');
        },
      ),
      { numRuns: 300, interruptAfterTimeLimit: 10_000 },
    );
  });
});

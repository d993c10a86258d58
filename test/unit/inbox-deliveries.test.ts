/**
 * `POST /deliveries/actions|send|invoke` (docs/agentinbox.md#deliveries) through inject, against a
 * fake GitHub API on loopback: AgentInbox's answers for each operation, the GitHub REST call each
 * one makes with the source's token, and the requests that must send nothing (another repository,
 * a handle naming a URL, huge texts, unknown operations, stray keys, a missing credential), each
 * checked against the fake's record of writes.
 */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inboxOutboundRoutes } from '../../src/http/inbox/deliveries.js';
import { routeApp } from '../helpers/app.js';
import { issue, pullRequest, startFakeGithub, type FakeGithub } from '../helpers/fake-github.js';
import { testServices, type TestServices } from '../helpers/services.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const TOKEN = 'ghp_unit-deliveries-3c9e1f';
let gh: FakeGithub;
let t: TestServices;
let app: FastifyInstance;
let hostId: string;
let sourceId: string;

beforeAll(async () => {
  gh = await startFakeGithub();
  gh.token = TOKEN;
});
afterAll(() => gh.close());

beforeEach(async () => {
  const repo = gh.repo('octo/hello');
  repo.issues.splice(0, Infinity, issue(3, '2030-01-01T10:00:00Z'), pullRequest(7, '2030-01-01T11:00:00Z'));
  repo.comments.splice(0);
  gh.writes.splice(0);
  gh.script.splice(0);
  t = testServices();
  app = await routeApp(t.s, inboxOutboundRoutes(t.s));
  t.s.credentials.put('github', 'api_key', TOKEN);
  hostId = t.s.inbox.hosts.create({ hostType: 'github', hostKey: 'octo', config: { apiBaseUrl: gh.url, credentialRef: 'github' } }).host.hostId;
  sourceId = (await t.s.inbox.sources.create({ hostId, streamKind: 'repo_events', streamKey: 'octo/hello', config: { resources: ['issues'], since: '2030-01-01T00:00:00Z' } })).source.sourceId;
});
afterEach(async () => {
  await app.close();
  await t.close();
});

const post = async (url: string, payload: unknown) => {
  const res = await app.inject({ method: 'POST', url, payload: payload as Json });
  return { status: res.statusCode, json: res.json() as Json, text: res.body };
};
const handle = (targetRef = 'octo/hello#3', extra: Json = {}) => ({ provider: 'github', surface: 'issue_comment', targetRef, threadRef: null, replyMode: 'comment', ...extra });
const reviewHandle = { provider: 'github', surface: 'review_comment', targetRef: 'octo/hello#7', threadRef: 'review_comment:4242', replyMode: 'reply' };

/** A refusal with `status` and `code` that sent nothing to GitHub. */
async function refused(url: string, body: unknown, status: number, code: string): Promise<Json> {
  const before = gh.writes.length;
  const res = await post(url, body);
  expect([res.status, res.json.code], res.text).toEqual([status, code]);
  expect(res.json.ok).toBe(false);
  expect(gh.writes.length, 'nothing sent').toBe(before);
  expect(res.text).not.toContain(TOKEN);
  return res.json;
}

describe('POST /deliveries/actions', () => {
  it("answers AgentInbox's operations for each GitHub surface, with the source that would deliver", async () => {
    const body = { type: 'object', additionalProperties: false, required: ['body'], properties: { body: { type: 'string', minLength: 1 } } };
    const empty = { type: 'object', additionalProperties: false, properties: {} };
    const issueOps = await post('/deliveries/actions', { provider: 'github', surface: 'issue_comment', targetRef: 'octo/hello#3' });
    expect(issueOps.json).toEqual({
      sourceId: null,
      deliveringSourceId: sourceId,
      handle: { provider: 'github', surface: 'issue_comment', targetRef: 'octo/hello#3', threadRef: null, replyMode: null },
      operations: [
        { name: 'add_comment', title: 'Add Comment', inputSchema: body, canonicalTextAlias: true },
        { name: 'close_issue', title: 'Close Issue', inputSchema: empty },
        { name: 'reopen_issue', title: 'Reopen Issue', inputSchema: empty },
      ],
    });
    const pr = await post('/deliveries/actions', { deliveryHandle: handle('octo/hello#7', { surface: 'pull_request_comment' }) });
    expect(pr.json.operations.map((o: Json) => [o.name, o.title])).toEqual([
      ['add_comment', 'Add Comment'],
      ['close_issue', 'Close Pull Request'],
      ['reopen_issue', 'Reopen Pull Request'],
      ['merge_pull_request', 'Merge Pull Request'],
    ]);
    expect(pr.json.operations[3].inputSchema.properties.mergeMethod).toEqual({ type: 'string', enum: ['merge', 'squash', 'rebase'] });
    const review = await post('/deliveries/actions', { deliveryHandle: reviewHandle });
    expect(review.json.operations).toEqual([{ name: 'reply_in_review_thread', title: 'Reply In Review Thread', inputSchema: body, canonicalTextAlias: true }]);
  });

  it('a provider or surface svc has no adapter for has no operations; a repository no source follows has no source', async () => {
    expect((await post('/deliveries/actions', { provider: 'feishu', surface: 'chat', targetRef: 'oc_1' })).json).toMatchObject({ sourceId: null, deliveringSourceId: null, operations: [] });
    expect((await post('/deliveries/actions', { deliveryHandle: handle('octo/hello#3', { surface: 'discussion' }) })).json).toMatchObject({ deliveringSourceId: sourceId, operations: [] });
    expect((await post('/deliveries/actions', { deliveryHandle: handle('octo/other#1') })).json).toMatchObject({ deliveringSourceId: null, operations: [{ name: 'add_comment' }, {}, {}] });
    expect((await post('/deliveries/actions', { sourceId, deliveryHandle: handle() })).json).toMatchObject({ sourceId, deliveringSourceId: sourceId });
    expect(gh.writes).toEqual([]);
  });
});

describe('POST /deliveries/send and /deliveries/invoke', () => {
  it('send posts the text as a comment on the issue with the source token, and answers an AgentInbox attempt', async () => {
    const res = await post('/deliveries/send', { deliveryHandle: handle(), kind: 'reply', payload: { text: 'Thanks, **looking** into it.' } });
    expect(res.status, res.text).toBe(200);
    expect(gh.writes).toHaveLength(1);
    const w = gh.writes[0]!;
    expect([w.method, w.path, w.body, w.headers.authorization, w.headers['x-github-api-version']]).toEqual([
      'POST', '/repos/octo/hello/issues/3/comments', { body: 'Thanks, **looking** into it.' }, `Bearer ${TOKEN}`, '2022-11-28',
    ]); // prettier-ignore
    const posted = gh.repo('octo/hello').comments.at(-1)!;
    expect(res.json).toEqual({
      deliveryId: expect.stringMatching(/^dlv_[0-9A-Z]{26}$/),
      provider: 'github',
      surface: 'issue_comment',
      targetRef: 'octo/hello#3',
      threadRef: null,
      replyMode: 'comment',
      kind: 'reply',
      payload: { text: 'Thanks, **looking** into it.' },
      status: 'sent',
      createdAt: expect.any(String),
      note: 'sent GitHub issue comment',
      operation: 'add_comment',
      sourceId,
      result: { url: posted.html_url, commentId: posted.id },
    });
  });

  it('send on a review thread replies in it; the top-level fields form of a handle works as deliveryHandle does', async () => {
    const res = await post('/deliveries/send', { ...reviewHandle, sourceId, payload: { text: 'Fixed in the next push.' } });
    expect(res.json).toMatchObject({ operation: 'reply_in_review_thread', note: 'sent GitHub review comment reply', kind: 'reply', threadRef: 'review_comment:4242' });
    expect(gh.writes.map((w) => [w.method, w.path, w.body])).toEqual([['POST', '/repos/octo/hello/pulls/7/comments/4242/replies', { body: 'Fixed in the next push.' }]]);
    expect(res.json.result.url).toMatch(/^https:\/\/github\.com\/octo\/hello\/pull\/7#discussion_r\d+$/);
  });

  it('invoke closes and reopens an issue and merges a pull request with the method asked for', async () => {
    const close = await post('/deliveries/invoke', { deliveryHandle: handle(), operation: 'close_issue', input: {} });
    expect(close.json).toMatchObject({ operation: 'close_issue', kind: 'close_issue', payload: {}, note: 'closed GitHub issue', result: { url: 'https://github.com/octo/hello/issues/3', state: 'closed' } });
    const reopen = await post('/deliveries/invoke', { deliveryHandle: handle(), operation: 'reopen_issue', input: {} });
    expect(reopen.json).toMatchObject({ note: 'reopened GitHub issue', result: { state: 'open' } });
    const merge = await post('/deliveries/invoke', {
      deliveryHandle: handle('octo/hello#7', { surface: 'pull_request_comment' }),
      operation: 'merge_pull_request',
      input: { mergeMethod: 'squash', commitTitle: 'Ship it (#7)' },
    });
    expect(merge.json).toMatchObject({ operation: 'merge_pull_request', note: 'merged GitHub pull request', result: { url: null, sha: 'f00dfeed' } });
    expect(gh.writes.map((w) => [w.method, w.path, w.body])).toEqual([
      ['PATCH', '/repos/octo/hello/issues/3', { state: 'closed' }],
      ['PATCH', '/repos/octo/hello/issues/3', { state: 'open' }],
      ['PUT', '/repos/octo/hello/pulls/7/merge', { merge_method: 'squash', commit_title: 'Ship it (#7)' }],
    ]);
    expect(gh.writes.every((w) => w.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  it("GitHub's refusals and silences are 502 delivery_failed with its status and message, never the token", async () => {
    await post('/deliveries/invoke', { deliveryHandle: handle('octo/hello#7', { surface: 'pull_request_comment' }), operation: 'close_issue', input: {} });
    const notMergeable = await post('/deliveries/invoke', { deliveryHandle: handle('octo/hello#7', { surface: 'pull_request_comment' }), operation: 'merge_pull_request', input: {} });
    expect([notMergeable.status, notMergeable.json.code, notMergeable.json.upstreamStatus]).toEqual([502, 'delivery_failed', 405]);
    expect(notMergeable.json.error).toBe('GitHub answered 405 for PUT /repos/octo/hello/pulls/7/merge (Pull Request is not mergeable)');
    gh.script.push({ status: 500, body: { message: 'Server Error' }, path: '/comments' });
    const failed = await post('/deliveries/send', { deliveryHandle: handle(), payload: { text: 'hi' } });
    expect([failed.status, failed.json.upstreamStatus, failed.json.operation]).toEqual([502, 500, 'add_comment']);
    // A redirect is not followed: the token stays with the API root.
    const other = await startFakeGithub();
    gh.script.push({ status: 307, headers: { location: `${other.url}/repos/octo/hello/issues/3/comments` }, body: {}, path: '/comments' });
    const redirected = await post('/deliveries/send', { deliveryHandle: handle(), payload: { text: 'hi' } });
    expect([redirected.status, redirected.json.upstreamStatus]).toEqual([502, 307]);
    expect(redirected.json.error).toContain('a redirect, not followed');
    expect(other.requests).toEqual([]);
    await other.close();
    // A host that answers nothing.
    t.s.credentials.put('gone', 'api_key', TOKEN);
    const goneHost = t.s.inbox.hosts.create({ hostType: 'github', hostKey: 'gone', config: { apiBaseUrl: 'http://127.0.0.1:9', credentialRef: 'gone' } }).host.hostId;
    const goneSource = (await t.s.inbox.sources.create({ hostId: goneHost, streamKind: 'repo_events', streamKey: 'octo/gone' })).source.sourceId;
    const unreachable = await post('/deliveries/send', { sourceId: goneSource, deliveryHandle: handle('octo/gone#1'), payload: { text: 'hi' } });
    expect([unreachable.status, unreachable.json.code, unreachable.json.upstreamStatus]).toEqual([502, 'delivery_failed', null]);
    for (const r of [notMergeable, failed, redirected, unreachable]) expect(r.text).not.toContain(TOKEN);
  });
});

describe('requests that send nothing', () => {
  it('a handle for a repository the source does not follow, or that no source follows', async () => {
    const named = await refused('/deliveries/send', { sourceId, deliveryHandle: handle('octo/other#3'), payload: { text: 'x' } }, 400, 'delivery_target_not_followed');
    expect(named.error).toBe(`source "${sourceId}" follows octo/hello, not octo/other`);
    await refused('/deliveries/invoke', { deliveryHandle: handle('evil/hello#3'), operation: 'close_issue', input: {} }, 400, 'delivery_target_not_followed');
    const local = t.s.inbox.hosts.create({ hostType: 'local_event', hostKey: 'l' }).host.hostId;
    const localSource = (await t.s.inbox.sources.create({ hostId: local, streamKind: 'events', streamKey: 'octo/hello' })).source.sourceId;
    await refused('/deliveries/send', { sourceId: localSource, deliveryHandle: handle(), payload: { text: 'x' } }, 400, 'delivery_target_not_followed');
    await refused('/deliveries/send', { sourceId: 'src_01J0000000000000000000000', deliveryHandle: handle(), payload: { text: 'x' } }, 404, 'source_not_found');
  });

  it('a handle naming a URL, a host, a path or extra fields', async () => {
    for (const targetRef of ['https://evil.example/octo/hello#3', 'octo/hello#3/../../x', 'octo/hello@evil.example#3', '../hello#3', 'octo/..#3', 'octo/hello#0', 'octo/hello#3?x=1', 'octo/hello', 'octo/hello#99999999999']) {
      const r = await refused('/deliveries/send', { deliveryHandle: handle(targetRef), payload: { text: 'x' } }, 400, 'invalid_request');
      expect(r.issues, targetRef).toEqual([{ path: 'deliveryHandle.targetRef', message: 'must be owner/repo#number (a GitHub issue or pull request)' }]);
    }
    for (const threadRef of ['https://evil.example/#1', 'review_comment:1/../2', 'review_comment:-1']) {
      await refused('/deliveries/send', { deliveryHandle: { ...reviewHandle, threadRef }, payload: { text: 'x' } }, 400, 'invalid_request');
    }
    const extra = await refused('/deliveries/send', { deliveryHandle: handle('octo/hello#3', { apiBaseUrl: 'http://127.0.0.1:1' }), payload: { text: 'x' } }, 400, 'invalid_request');
    expect(extra.issues[0].message).toContain('apiBaseUrl');
    await refused('/deliveries/send', { deliveryHandle: handle(), provider: 'github', payload: { text: 'x' } }, 400, 'invalid_request');
    await refused('/deliveries/send', { surface: 'issue_comment', targetRef: 'octo/hello#3', payload: { text: 'x' } }, 400, 'invalid_request');
    await refused('/deliveries/invoke', { provider: 'slack', surface: 'chat', targetRef: 'C1', operation: 'send_text', input: {} }, 400, 'delivery_unsupported');
    await refused('/deliveries/send', { deliveryHandle: handle('octo/hello#3', { surface: 'discussion' }), payload: { text: 'x' } }, 400, 'delivery_unsupported');
  });

  it('huge, empty or missing texts', async () => {
    const huge = await refused('/deliveries/send', { deliveryHandle: handle(), payload: { text: 'a'.repeat(65_537) } }, 400, 'invalid_request');
    expect(huge.issues).toEqual([{ path: 'payload.text', message: "at most 65536 characters (GitHub's limit)" }]);
    await refused('/deliveries/invoke', { deliveryHandle: handle(), operation: 'add_comment', input: { body: 'a'.repeat(65_537) } }, 400, 'invalid_request');
    await refused('/deliveries/send', { deliveryHandle: handle(), payload: { text: ' \n\t ' } }, 400, 'invalid_request');
    await refused('/deliveries/send', { deliveryHandle: handle(), payload: { text: 42 } }, 400, 'invalid_request');
    await refused('/deliveries/send', { deliveryHandle: handle(), payload: {} }, 400, 'invalid_request');
    await refused('/deliveries/send', { deliveryHandle: handle(), payload: { text: 'é'.repeat(600_000) } }, 413, 'payload_too_large');
    // The limit is GitHub's, in characters: exactly 65,536 goes out.
    expect((await post('/deliveries/send', { deliveryHandle: handle(), payload: { text: 'a'.repeat(65_536) } })).status).toBe(200);
  });

  it('an unknown operation, one the surface does not offer, stray or prototype keys in an input', async () => {
    const unknown = await refused('/deliveries/invoke', { deliveryHandle: handle(), operation: 'delete_repository', input: {} }, 400, 'delivery_unsupported');
    expect(unknown).toMatchObject({ operation: 'delete_repository', offered: ['add_comment', 'close_issue', 'reopen_issue'] });
    await refused('/deliveries/invoke', { deliveryHandle: handle(), operation: 'merge_pull_request', input: {} }, 400, 'delivery_unsupported');
    await refused('/deliveries/invoke', { deliveryHandle: reviewHandle, operation: 'add_comment', input: { body: 'x' } }, 400, 'delivery_unsupported');
    const stray = await refused('/deliveries/invoke', { deliveryHandle: handle(), operation: 'close_issue', input: { state_reason: 'not_planned' } }, 400, 'invalid_request');
    expect(stray.issues).toEqual([{ path: 'input', message: 'unknown field state_reason' }]);
    await refused('/deliveries/invoke', { deliveryHandle: handle('octo/hello#7', { surface: 'pull_request_comment' }), operation: 'merge_pull_request', input: { mergeMethod: 'octopus' } }, 400, 'invalid_request');
    const proto = await app.inject({ method: 'POST', url: '/deliveries/invoke', headers: { 'content-type': 'application/json' }, payload: `{"deliveryHandle":${JSON.stringify(handle())},"operation":"add_comment","input":{"body":"x","__proto__":{"admin":true}}}` });
    expect([proto.statusCode, proto.json().code]).toEqual([400, 'invalid_request']);
    await refused('/deliveries/send', { deliveryHandle: { ...reviewHandle, threadRef: null }, payload: { text: 'x' } }, 400, 'invalid_request');
    expect(gh.writes).toEqual([]);
  });

  it('a source without a usable credential; several sources that would deliver differently', async () => {
    const bare = t.s.inbox.hosts.create({ hostType: 'github', hostKey: 'anon', config: { apiBaseUrl: gh.url } }).host.hostId;
    const anon = (await t.s.inbox.sources.create({ hostId: bare, streamKind: 'repo_events', streamKey: 'octo/anon' })).source.sourceId;
    const missing = await refused('/deliveries/send', { sourceId: anon, deliveryHandle: handle('octo/anon#1'), payload: { text: 'x' } }, 409, 'delivery_credential_missing');
    expect(missing.error).toContain(`set credentialRef in the config of host ${bare}`);
    const unstored = t.s.inbox.hosts.create({ hostType: 'github', hostKey: 'later', config: { apiBaseUrl: gh.url, credentialRef: 'later' } }).host.hostId;
    const second = (await t.s.inbox.sources.create({ hostId: unstored, streamKind: 'repo_events', streamKey: 'octo/hello' })).source.sourceId;
    const ambiguous = await refused('/deliveries/send', { deliveryHandle: handle(), payload: { text: 'x' } }, 409, 'delivery_source_ambiguous');
    expect(ambiguous.sourceIds).toEqual([sourceId, second]);
    const notStored = await refused('/deliveries/send', { sourceId: second, deliveryHandle: handle(), payload: { text: 'x' } }, 409, 'delivery_credential_missing');
    expect(notStored.error).toContain('credential profile "later" is not stored');
    // Naming the source settles it.
    expect((await post('/deliveries/send', { sourceId, deliveryHandle: handle(), payload: { text: 'x' } })).status).toBe(200);
  });
});

describe('fuzzed requests', () => {
  it('never answer 500, and nothing but a comment, state or merge call on a followed issue ever reaches GitHub', async () => {
    const piece = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('octo', 'hello', '3', '#', '/', '..', '@', ':', '?', 'http://127.0.0.1:1', 'review_comment:', '%2F', '\u0000'));
    const ref = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join(''));
    // A handle of a followed issue as often as a random one, so the fuzz always reaches GitHub too.
    const followed = fc.constant({ provider: 'github', surface: 'issue_comment', targetRef: 'octo/hello#3' });
    const randomHandle = fc.record(
      {
        provider: fc.oneof(fc.constant('github'), fc.string({ maxLength: 10 })),
        surface: fc.constantFrom('issue_comment', 'pull_request_comment', 'review_comment', 'x', ''),
        targetRef: fc.oneof(fc.constant('octo/hello#3'), fc.constant('octo/hello#7'), ref),
        threadRef: fc.oneof(fc.constant(null), fc.constant('review_comment:12'), ref),
        replyMode: fc.oneof(fc.constant(null), fc.string({ maxLength: 10 })),
        apiBaseUrl: fc.constant('http://127.0.0.1:1'),
      },
      { requiredKeys: ['provider', 'surface', 'targetRef'] },
    );
    const handleArb = fc.oneof(followed, randomHandle);
    const input = fc.oneof(fc.constant({}), fc.record({ body: fc.string({ maxLength: 40 }) }), fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 })));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('send', 'invoke', 'actions'), handleArb, fc.constantFrom(...['add_comment', 'close_issue', 'reopen_issue', 'merge_pull_request', 'reply_in_review_thread', 'x']), input, async (route, h, operation, i) => {
        const body = route === 'send' ? { deliveryHandle: h, payload: i } : route === 'invoke' ? { deliveryHandle: h, operation, input: i } : { deliveryHandle: h };
        const res = await post(`/deliveries/${route}`, body);
        expect(res.status, res.text).toBeLessThan(500);
      }),
      { numRuns: 300, interruptAfterTimeLimit: 15_000 },
    );
    expect(gh.writes.length, 'some fuzzed requests were valid').toBeGreaterThan(0);
    for (const w of gh.writes) expect(`${w.method} ${w.path}`).toMatch(/^(POST \/repos\/octo\/hello\/(issues\/(3|7)\/comments|pulls\/(3|7)\/comments\/12\/replies)|PATCH \/repos\/octo\/hello\/issues\/(3|7)|PUT \/repos\/octo\/hello\/pulls\/7\/merge)$/);
  });
});


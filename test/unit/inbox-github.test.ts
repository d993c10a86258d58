/**
 * The github source module (src/inbox/sources/providers/github.ts) against a fake GitHub API on
 * loopback (test/helpers/fake-github.ts): events and their ids, conditional requests, pagination,
 * rate limits and waits. `now` is handed in as the daemon would: no test sleeps. The last part runs
 * github sources through the source service (the module in a worker, from dist/: build first).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { poll, type GithubCursor, type PollInput } from '../../src/inbox/sources/providers/github.js';
import { waitFor } from '../helpers/daemon.js';
import { comment, issue, pullRequest, startFakeGithub, workflowRun, type FakeGithub } from '../helpers/fake-github.js';
import { testServices, type TestServices } from '../helpers/services.js';

const TOKEN = 'ghp_fake-token-91c2';
const T0 = Date.parse('2030-01-01T00:00:00Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

let gh: FakeGithub;
let other: FakeGithub;
beforeAll(async () => {
  gh = await startFakeGithub();
  other = await startFakeGithub();
});
afterAll(async () => {
  await gh.close();
  await other.close();
});
beforeEach(() => {
  gh.repos.clear();
  gh.requests.length = 0;
  gh.script.length = 0;
  gh.token = TOKEN;
  gh.rate = { limit: 5000, remaining: 5000, reset: Math.floor((T0 + 3600_000) / 1000) };
  gh.pollInterval = null;
  gh.linkOrigin = null;
  other.requests.length = 0;
});

function input(cursor: GithubCursor | null, now: number, config: Partial<PollInput['moduleConfig']> = {}): PollInput {
  return {
    moduleConfig: { owner: 'octo', repo: 'hello', ...config },
    cursor,
    hostConfig: { apiBaseUrl: gh.url },
    credential: { profile: 'gh', secret: TOKEN },
    now,
  };
}

describe('events', () => {
  it('maps issues, pull requests, comments and workflow runs changed since the first poll, oldest first, with stable ids', async () => {
    const repo = gh.repo('octo/hello');
    repo.issues.push(issue(1, at(-10)), issue(2, at(1)), pullRequest(7, at(2)));
    repo.comments.push(comment(501, 7, at(3), { html_url: 'https://github.com/octo/hello/pull/7#issuecomment-501' }));
    repo.runs.push(workflowRun(9001, at(4)), workflowRun(9000, at(-5), { created_at: at(-6) }));
    const first = await poll(input(null, T0));
    expect(first.events.map((e) => [e.id, e.type, e.subject])).toEqual([
      [`issues:2:${at(1)}`, 'github.issue', 'repo:octo/hello:issue:2'],
      [`pulls:7:${at(2)}`, 'github.pull_request', 'repo:octo/hello:pr:7'],
      [`issue_comments:501:${at(3)}`, 'github.issue_comment', 'repo:octo/hello:pr:7'],
      [`workflow_runs:9001:${at(4)}`, 'github.workflow_run', 'repo:octo/hello:workflow_run:9001'],
    ]);
    expect(first.events[0]).toMatchObject({
      time: at(1),
      data: { number: 2, title: 'Issue 2' },
      metadata: {
        provider: 'github',
        repoFullName: 'octo/hello',
        origin: 'poll',
        eventType: 'issues',
        action: 'opened',
        number: 2,
        isPullRequest: false,
        state: 'open',
        author: 'octocat',
        labels: ['bug'],
        mentions: ['hubot'],
        url: 'https://github.com/octo/hello/issues/2',
        lifecycle: 'active',
      },
    });
    expect(first.events[1]!.metadata).toMatchObject({ isPullRequest: true, merged: false, draft: false, action: 'opened', lifecycle: 'active' });
    expect(first.events[2]!.metadata).toMatchObject({ number: 7, isPullRequest: true, author: 'monalisa', mentions: ['monalisa'], action: 'created' });
    expect(first.events[3]!.metadata).toMatchObject({ runId: 9001, status: 'in_progress', pullRequestNumbers: [7], headBranch: 'feature', lifecycle: 'active' });
    expect(first.cursor.issues).toMatchObject({ since: at(2) });
    // The first poll asked from its own time on, with the token and GitHub's headers.
    const issuesRequest = gh.requests.find((r) => r.path === '/repos/octo/hello/issues')!;
    expect(Object.fromEntries(issuesRequest.query)).toEqual({ state: 'all', sort: 'updated', direction: 'asc', per_page: '100', since: at(0) });
    expect(issuesRequest.headers).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      'user-agent': expect.stringContaining('svc'),
    });

    // A re-poll of the same states gives the same ids (the stream stores each once).
    const again = await poll(input({ ...first.cursor, issues: { since: at(0) }, workflow_runs: { since: at(0) }, issue_comments: { since: at(0) } }, T0 + 60_000));
    expect(again.events.map((e) => e.id)).toEqual(first.events.map((e) => e.id));
  });

  it('marks a closed issue, a merged pull request and a completed run terminal', async () => {
    const repo = gh.repo('octo/hello');
    repo.issues.push(issue(3, at(1)), pullRequest(7, at(1)));
    repo.runs.push(workflowRun(9001, at(1)));
    const first = await poll(input(null, T0));
    repo.issues[0] = { ...repo.issues[0]!, state: 'closed', closed_at: at(5), updated_at: at(5) };
    repo.issues[1] = { ...repo.issues[1]!, state: 'closed', closed_at: at(6), updated_at: at(6), pull_request: { ...repo.issues[1]!.pull_request, merged_at: at(6) } };
    repo.runs[0] = { ...repo.runs[0]!, status: 'completed', conclusion: 'success', updated_at: at(7) };
    const second = await poll(input(first.cursor, T0 + 600_000));
    expect(second.events.map((e) => [e.id, e.metadata.action, e.metadata.lifecycle])).toEqual([
      [`issues:3:${at(5)}`, 'closed', 'terminal'],
      [`pulls:7:${at(6)}`, 'merged', 'terminal'],
      [`workflow_runs:9001:${at(7)}`, 'completed', 'terminal'],
    ]);
    expect(second.events[1]!.metadata).toMatchObject({ merged: true, state: 'closed' });
    expect(second.events[2]!.metadata).toMatchObject({ conclusion: 'success' });
  });

  it('polls only the resources asked for', async () => {
    const repo = gh.repo('octo/hello');
    repo.issues.push(issue(1, at(1)), pullRequest(2, at(1)));
    const out = await poll(input(null, T0, { resources: ['pull_requests'] }));
    expect(out.events.map((e) => e.type)).toEqual(['github.pull_request']);
    expect(gh.requests.map((r) => r.path)).toEqual(['/repos/octo/hello/issues']);
  });
});

describe('conditional requests and pagination', () => {
  it('an unchanged list answers 304 (no rate limit spent) once the cursor has settled', async () => {
    gh.repo('octo/hello').issues.push(issue(1, at(1)));
    const c1 = (await poll(input(null, T0, { resources: ['issues'] }))).cursor;
    // `since` moved to the newest change: that URL is asked once, then its ETag is kept.
    const c2 = (await poll(input(c1, T0 + 60_000, { resources: ['issues'] }))).cursor;
    const remaining = gh.rate.remaining;
    const third = await poll(input(c2, T0 + 120_000, { resources: ['issues'] }));
    expect(third.events).toEqual([]);
    expect(gh.requests.at(-1)).toMatchObject({ status: 304, headers: { 'if-none-match': c2.issues!.etag } });
    expect(gh.rate.remaining).toBe(remaining);
    expect(third.cursor.issues).toEqual(c2.issues);
    expect(third.cursor.rateLimit).toEqual({ remaining, reset: gh.rate.reset });
  });

  it('follows Link rel="next" up to maxPages per poll and continues from the newest change next time', async () => {
    const repo = gh.repo('octo/hello');
    for (let n = 1; n <= 25; n++) repo.issues.push(issue(n, at(n)));
    const first = await poll(input(null, T0, { resources: ['issues'], perPage: 10, maxPages: 2 }));
    expect(first.events).toHaveLength(20);
    expect(gh.requests.map((r) => r.query.get('page'))).toEqual([null, '2']);
    expect(first.cursor.issues!.since).toBe(at(20));
    const second = await poll(input(first.cursor, T0 + 60_000, { resources: ['issues'], perPage: 10, maxPages: 2 }));
    expect(second.events.map((e) => e.metadata.number)).toEqual([20, 21, 22, 23, 24, 25]); // 20 again: deduplicated by id
    expect(second.events[0]!.id).toBe(first.events[19]!.id);
  });

  it('never follows a Link to another origin: the token stays with the API', async () => {
    gh.linkOrigin = other.url;
    for (let n = 1; n <= 3; n++) gh.repo('octo/hello').issues.push(issue(n, at(n)));
    const out = await poll(input(null, T0, { resources: ['issues'], perPage: 2 }));
    expect(out.events).toHaveLength(2);
    expect(other.requests).toEqual([]);
  });

  it('reads workflow runs (newest first) only while a page holds runs changed since the mark', async () => {
    const repo = gh.repo('octo/hello');
    for (let i = 0; i < 6; i++) repo.runs.push(workflowRun(100 + i, at(-60 + i), { created_at: at(-60 + i) }));
    repo.runs.push(workflowRun(200, at(3), { created_at: at(2) }), workflowRun(201, at(4), { created_at: at(3) }));
    const out = await poll(input(null, T0, { resources: ['workflow_runs'], perPage: 2, maxPages: 10 }));
    expect(out.events.map((e) => e.metadata.runId)).toEqual([200, 201]);
    expect(gh.requests).toHaveLength(2); // page 2 held nothing new: no page 3
  });
});

describe('rate limits and waits (nothing sleeps: the poll answers notBefore)', () => {
  it('X-RateLimit-Remaining: 0 stops the poll and waits until X-RateLimit-Reset', async () => {
    const repo = gh.repo('octo/hello');
    repo.issues.push(issue(1, at(1)));
    repo.comments.push(comment(501, 1, at(2)));
    gh.rate.remaining = 1;
    const out = await poll(input(null, T0));
    expect(out.events.map((e) => e.type)).toEqual(['github.issue']); // the last request's answer still counts
    expect(gh.requests.map((r) => r.path)).toEqual(['/repos/octo/hello/issues']);
    expect(out.notBefore).toBe(gh.rate.reset * 1000);
    expect(out.cursor).toMatchObject({ notBefore: gh.rate.reset * 1000, waitReason: 'rate_limit' });
    // Before the reset a poll asks nothing; after it, it goes on where it stopped.
    const early = await poll(input(out.cursor, gh.rate.reset * 1000 - 1));
    expect(early).toMatchObject({ events: [], notBefore: gh.rate.reset * 1000 });
    expect(gh.requests).toHaveLength(1);
    gh.rate.remaining = 5000;
    const later = await poll(input(out.cursor, gh.rate.reset * 1000 + 1));
    // The issue again (its list moved on to a new `since`: same state, same id, stored once) and the comment.
    expect(later.events.map((e) => e.id)).toEqual([out.events[0]!.id, `issue_comments:501:${at(2)}`]);
    expect(later.cursor).toMatchObject({ notBefore: null, waitReason: null });
  });

  it('a spent limit (403) waits for the reset', async () => {
    gh.rate.remaining = 0;
    const out = await poll(input(null, T0));
    expect(out).toMatchObject({ events: [], notBefore: gh.rate.reset * 1000, cursor: { waitReason: 'rate_limit' } });
    expect(gh.requests).toHaveLength(1);
  });

  it.each([
    ['403 with Retry-After', { status: 403, headers: { 'retry-after': '30' } }, 30_000],
    ['429 with Retry-After', { status: 429, headers: { 'retry-after': '5' } }, 5_000],
    ['429 without Retry-After', { status: 429 }, 60_000],
    ['403 secondary limit message without Retry-After', { status: 403 }, 60_000],
  ])('a secondary limit (%s) waits and keeps what came before', async (_what, answer, waitMs) => {
    const repo = gh.repo('octo/hello');
    repo.issues.push(issue(1, at(1)));
    repo.comments.push(comment(501, 1, at(2)));
    // The issues list answers; the comments list meets the limit.
    gh.script.push({ ...answer, path: '/issues/comments' });
    const out = await poll(input(null, T0));
    expect(out.events.map((e) => e.type)).toEqual(['github.issue']);
    expect(out.notBefore).toBe(T0 + waitMs);
    expect(out.cursor).toMatchObject({ waitReason: 'secondary_rate_limit', issue_comments: { since: at(0) } });
    expect(out.cursor.issue_comments).not.toHaveProperty('etag');
    expect(gh.requests.filter((r) => r.path.endsWith('/actions/runs'))).toEqual([]);
  });

  it('X-Poll-Interval is the least time to the next poll; this poll still completes', async () => {
    gh.pollInterval = 90;
    gh.repo('octo/hello').issues.push(issue(1, at(1)));
    const out = await poll(input(null, T0));
    expect(out.events).toHaveLength(1);
    expect(gh.requests).toHaveLength(3);
    expect(out).toMatchObject({ notBefore: T0 + 90_000, cursor: { waitReason: 'poll_interval' } });
  });
});

describe('failures name the request, never the token', () => {
  it('401 names the credential profile', async () => {
    gh.token = 'another-token';
    const err = await poll(input(null, T0)).then(
      () => new Error('no failure'),
      (e: Error) => e,
    );
    expect(err.message).toMatch(/GitHub answered 401 for GET \/repos\/octo\/hello\/issues\?.*Bad credentials.*credential profile "gh"/);
    expect(err.message).not.toContain(TOKEN);
  });

  it('404 says the repository is missing or hidden; a 5xx says what GitHub answered', async () => {
    await expect(poll(input(null, T0, { repo: 'nope' }))).rejects.toThrow(/404 .*no such repository, or the token cannot see it/);
    gh.repo('octo/hello');
    gh.script.push({ status: 502, body: { message: 'Server Error' } });
    await expect(poll(input(null, T0))).rejects.toThrow('GitHub answered 502 for GET /repos/octo/hello/issues');
  });

  it('an unreachable API is an error naming its origin', async () => {
    const closed = await startFakeGithub();
    await closed.close();
    await expect(poll({ ...input(null, T0), hostConfig: { apiBaseUrl: closed.url } })).rejects.toThrow(`cannot reach ${closed.url}`);
  });
});

describe('github sources (the built-in module, run in a worker from dist/)', () => {
  let t: TestServices;
  beforeEach(() => {
    t = testServices();
  });
  afterEach(() => t.close());

  async function githubSource(hostConfig: Record<string, unknown>, config: Record<string, unknown> = {}, streamKey = 'octo/hello') {
    const { host } = t.s.inbox.hosts.create({ hostType: 'github', hostKey: 'gh', config: { apiBaseUrl: gh.url, ...hostConfig } });
    return t.s.inbox.sources.create({ hostId: host.hostId, streamKind: 'repo_events', streamKey, config });
  }

  it('checks the config against the github schema (400 invalid_request naming the field); owner/repo default to streamKey', async () => {
    await expect(githubSource({}, { repo: '..' })).rejects.toMatchObject({ code: 'invalid_request', extra: { issues: [{ path: 'config.repo' }] } });
    await expect(githubSource({}, { resources: ['stars'] })).rejects.toMatchObject({ code: 'invalid_request', extra: { issues: [{ path: 'config.resources.0' }] } });
    await expect(githubSource({}, { modulePath: '/etc/passwd' })).rejects.toMatchObject({ code: 'invalid_request', extra: { issues: [{ path: 'config.modulePath', message: 'unknown field modulePath' }] } });
    await expect(githubSource({}, {}, 'no-slash')).rejects.toMatchObject({ code: 'invalid_request', extra: { issues: [{ path: 'config.owner', message: 'required' }, { path: 'config.repo', message: 'required' }] } });
    expect(t.s.inbox.sources.list()).toEqual([]);
    const { source } = await githubSource({}, { owner: 'octo', repo: 'hello', pollIntervalMs: 30_000 }, 'anything');
    expect(source).toMatchObject({ sourceType: 'github_repo', hostType: 'github', state: 'active', cursor: null, checkpoint: null });
    expect(await t.s.inbox.sources.schema(source.sourceId)).toMatchObject({ sourceType: 'github_repo', sourceKind: 'github_repo', hostType: 'remote_source', configSchema: { properties: { webhookSecretRef: {} } }, moduleConfigSchema: null });
  });

  it('polls with the token of the host credentialRef; without it the source is in error naming the profile', async () => {
    const repo = gh.repo('octo/hello');
    repo.issues.push(pullRequest(7, at(1)));
    const { source } = await githubSource({ credentialRef: 'gh' });
    expect(source).toMatchObject({ state: 'error', error: expect.stringContaining('credential profile "gh" is not stored') });
    t.s.credentials.put('gh', 'bearer_token', TOKEN);
    expect(await t.s.inbox.sources.poll(source.sourceId)).toMatchObject({ appended: 1, state: 'active' });
    expect(t.s.inbox.streams.read(source.sourceId, 0, 10).map((e) => [e.id, e.subject])).toEqual([[`pulls:7:${at(1)}`, 'repo:octo/hello:pr:7']]);
    expect(gh.requests.at(-1)!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(await t.s.inbox.sources.poll(source.sourceId)).toMatchObject({ appended: 0 });
    t.s.credentials.put('gh', 'bearer_token', 'revoked-token');
    await expect(t.s.inbox.sources.poll(source.sourceId)).rejects.toMatchObject({ code: 'source_poll_failed', message: expect.stringContaining('credential profile "gh" was refused') });
    const stored = t.s.inbox.sources.get(source.sourceId);
    expect(stored.state).toBe('error');
    expect(JSON.stringify(stored)).not.toContain(TOKEN);
  });

  it('a rate limit holds off the scheduled polls until the reset', async () => {
    gh.token = null;
    gh.repo('octo/hello').issues.push(issue(1, at(1)));
    const { source } = await githubSource({}, { pollIntervalMs: 60_000, resources: ['issues'] });
    const id = source.sourceId;
    // Subscribed, so the ten minutes below do not auto-pause it as idle.
    t.s.inbox.subscriptions.create({ agentId: t.s.inbox.agents.create({}).agentId, sourceId: id });
    gh.rate.remaining = 1;
    gh.rate.reset = Math.floor((t.clock.now() + 10 * 60_000) / 1000);
    await t.s.inbox.sources.poll(id);
    expect(t.s.inbox.sources.get(id).cursor).toMatchObject({ waitReason: 'rate_limit', notBefore: gh.rate.reset * 1000 });
    const asked = gh.requests.length;
    for (let i = 0; i < 9; i++) {
      t.clock.advance(60_000);
      t.s.inbox.sources.runDue();
    }
    // The due poll ran (holding off) and put the next one on the schedule, at the reset.
    const scheduled = () => (t.s.inbox.sources as unknown as { schedule: { hasPoll(id: string): boolean } }).schedule.hasPoll(id);
    await waitFor(scheduled);
    expect(gh.requests.length).toBe(asked);
    gh.rate.remaining = 5000;
    t.clock.advance(60_000);
    t.s.inbox.sources.runDue();
    await waitFor(() => gh.requests.length > asked);
  });
});

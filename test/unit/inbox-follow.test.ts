/**
 * AgentInbox's follow templates and `pr` shortcut (docs/agentinbox.md#follow), in process: what a
 * template creates and reuses, the filters it gives (matched against the events svc's github module
 * makes from a fake GitHub API on loopback), and that a refused follow creates nothing. The github
 * module runs in a worker from dist/: build first.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { compileFilter, type Subscription } from '../../src/inbox/subscriptions/index.js';
import { pullRequest, startFakeGithub, workflowRun, issue, type FakeGithub } from '../helpers/fake-github.js';
import { testServices, type TestServices } from '../helpers/services.js';

let gh: FakeGithub;
beforeAll(async () => {
  gh = await startFakeGithub();
});
afterAll(() => gh.close());

let t: TestServices;
let agentId: string;
beforeEach(() => {
  gh.repos.clear();
  gh.token = null;
  t = testServices();
  agentId = t.s.inbox.agents.create({}).agentId;
});
afterEach(() => t.close());

const inbox = () => t.s.inbox;
const SINCE = '2029-12-31T00:00:00Z';
const follow = (template: string, templateArgs: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  inbox().follow.follow({ agentId, providerOrKind: 'github', template, templateArgs: { owner: 'octo', repo: 'hello', ...templateArgs }, config: { apiBaseUrl: gh.url, since: SINCE }, ...extra });
/** Everything follow can create, to show that a refusal created nothing. */
const counts = () => ({ hosts: inbox().hosts.list().length, sources: inbox().sources.list().length, subscriptions: inbox().subscriptions.list().length });

describe('follow templates', () => {
  it('github.repo: a github host, the repo_events stream (issues, pull requests, comments) and a subscription to all of it; again: all reused', async () => {
    const first = await follow('repo', {});
    const [source] = inbox().sources.list();
    const [sub] = inbox().subscriptions.list();
    expect(first).toEqual({
      templateId: 'github.repo',
      agentId,
      sources: [{ sourceId: source!.sourceId, streamKind: 'repo_events', created: true }],
      subscriptions: [{ subscriptionId: sub!.subscriptionId, sourceId: source!.sourceId, created: true }],
      host: { hostId: source!.hostId, created: true },
    });
    expect(inbox().hosts.get(source!.hostId)).toMatchObject({ hostType: 'github', hostKey: `default@${gh.url}`, config: { apiBaseUrl: gh.url } });
    expect(source).toMatchObject({ sourceType: 'github_repo', streamKey: 'octo/hello', config: { owner: 'octo', repo: 'hello', since: SINCE, resources: ['issues', 'pull_requests', 'issue_comments'] } });
    expect(sub).toMatchObject({ agentId, filter: {}, trackedResourceRef: null, cleanupPolicy: { mode: 'manual' }, startPolicy: 'latest' });
    const again = await follow('repo', {});
    expect(again).toEqual({ ...first, sources: [{ ...first.sources[0], created: false }], subscriptions: [{ ...first.subscriptions[0], created: false }], host: { ...first.host, created: false } });
    expect(counts()).toEqual({ hosts: 1, sources: 1, subscriptions: 1 });
  });

  it('github.pr with withCi: its events and its CI runs reach the agent, other pull requests do not; its close removes the subscription', async () => {
    const repo = gh.repo('octo/hello');
    repo.issues.push(pullRequest(7, '2030-01-01T00:01:00Z'), pullRequest(8, '2030-01-01T00:02:00Z'), issue(7_000, '2030-01-01T00:03:00Z'));
    repo.runs.push(workflowRun(9001, '2030-01-01T00:04:00Z'), workflowRun(9002, '2030-01-01T00:05:00Z', { pull_requests: [{ number: 8 }] }));
    const result = await follow('pr', { number: 7, withCi: true });
    expect(result.templateId).toBe('github.pr');
    expect(result.sources.map((s) => [s.streamKind, s.created])).toEqual([['repo_events', true], ['ci_runs', true]]);
    const [repoSource, ciSource] = result.sources.map((s) => inbox().sources.get(s.sourceId));
    expect(ciSource).toMatchObject({ sourceType: 'github_repo_ci', hostId: repoSource!.hostId, config: { resources: ['workflow_runs'] } });
    const [prSub, ciSub] = result.subscriptions.map((s) => inbox().subscriptions.get(s.subscriptionId)) as [Subscription, Subscription];
    expect(prSub).toMatchObject({ sourceId: repoSource!.sourceId, filter: { metadata: { number: 7, isPullRequest: true } }, trackedResourceRef: 'repo:octo/hello:pr:7', cleanupPolicy: { mode: 'on_terminal' } });
    expect(ciSub).toMatchObject({ sourceId: ciSource!.sourceId, filter: { metadata: { pullRequestNumbers: 7 } }, trackedResourceRef: 'repo:octo/hello:pr:7', cleanupPolicy: { mode: 'on_terminal' } });

    // What svc's github module makes of the repository, through each subscription's filter.
    await inbox().sources.poll(repoSource!.sourceId);
    await inbox().sources.poll(ciSource!.sourceId);
    const matched = (sub: Subscription, sourceId: string) => inbox().streams.read(sourceId, 0, 100).filter((e) => compileFilter(sub.filter).test(e)).map((e) => e.subject);
    expect(matched(prSub, repoSource!.sourceId)).toEqual(['repo:octo/hello:pr:7']);
    expect(inbox().streams.read(ciSource!.sourceId, 0, 100).map((e) => e.type)).toEqual(['github.workflow_run', 'github.workflow_run']);
    expect(matched(ciSub, ciSource!.sourceId)).toEqual(['repo:octo/hello:workflow_run:9001']);

    // Closing the pull request ends its subscription (cleanup on_terminal).
    repo.issues.push(pullRequest(7, '2030-01-01T00:10:00Z', { state: 'closed', closed_at: '2030-01-01T00:10:00Z' }));
    t.clock.advance(60_000);
    await inbox().sources.poll(repoSource!.sourceId);
    inbox().subscriptions.runDue();
    expect(() => inbox().subscriptions.get(prSub.subscriptionId)).toThrow(expect.objectContaining({ code: 'subscription_not_found' }));
  });

  it('github.issue: events of that issue only, tracked by its ref, cleanup manual', async () => {
    const result = await follow('issue', { number: 12 });
    const sub = inbox().subscriptions.get(result.subscriptions[0]!.subscriptionId);
    expect(sub).toMatchObject({ filter: { metadata: { number: 12, isPullRequest: false } }, trackedResourceRef: 'repo:octo/hello:issue:12', cleanupPolicy: { mode: 'manual' } });
  });

  it('reuses a github stream of the same kind and key on any host, and a host with the same credential and API root', async () => {
    const { host } = inbox().hosts.create({ hostType: 'github', hostKey: 'mine', config: { apiBaseUrl: gh.url } });
    const { source } = await inbox().sources.create({ hostId: host.hostId, streamKind: 'issues', streamKey: 'octo/hello' });
    const reused = await follow('repo', {});
    expect(reused.sources).toEqual([{ sourceId: source.sourceId, streamKind: 'issues', created: false }]);
    expect(reused.host).toEqual({ hostId: host.hostId, created: false });
    // A new stream goes on the host whose config matches, not on a new one.
    const ci = await follow('pr', { number: 3, withCi: true });
    expect(ci.sources[1]).toMatchObject({ streamKind: 'ci_runs', created: true });
    expect(inbox().sources.get(ci.sources[1]!.sourceId).hostId).toBe(host.hostId);
    expect(inbox().hosts.list()).toHaveLength(1);
    // Another credential is another host.
    await inbox().follow.follow({ agentId, providerOrKind: 'github_repo', template: 'repo', templateArgs: { owner: 'octo', repo: 'other' }, config: { credentialRef: 'gh' }, configRef: 'credential:gh' });
    expect(inbox().hosts.list().map((h) => [h.hostKey, h.config])).toEqual([
      ['mine', { apiBaseUrl: gh.url }],
      ['credential:gh', { credentialRef: 'gh' }],
    ]);
    expect(inbox().sources.list().at(-1)).toMatchObject({ streamKey: 'octo/other', configRef: 'credential:gh', state: 'error', error: expect.stringContaining('"gh" is not stored') });
  });

  it('start positions pass to the subscriptions it creates, and make another subscription than the default one', async () => {
    const latest = await follow('repo', {});
    const earliest = await follow('repo', {}, { startPolicy: 'earliest' });
    expect(earliest.subscriptions[0]!.created).toBe(true);
    expect(earliest.subscriptions[0]!.subscriptionId).not.toBe(latest.subscriptions[0]!.subscriptionId);
    expect(inbox().subscriptions.get(earliest.subscriptions[0]!.subscriptionId).startPolicy).toBe('earliest');
  });

  it('a refused follow creates nothing: unknown template or agent, missing or bad arguments, a config the github schema refuses', async () => {
    const refusals: Array<[() => Promise<unknown>, Record<string, unknown>]> = [
      [() => inbox().follow.follow({ agentId, providerOrKind: 'gitlab', template: 'repo', templateArgs: { owner: 'o', repo: 'r' } }), { status: 400, code: 'unknown_follow_template' }],
      [() => follow('discussion', {}), { status: 400, code: 'unknown_follow_template' }],
      [() => inbox().follow.follow({ agentId: 'agt_nobody', providerOrKind: 'github', template: 'repo', templateArgs: { owner: 'o', repo: 'r' } }), { status: 404, code: 'agent_not_found' }],
      [() => follow('pr', {}), { code: 'invalid_request', extra: { issues: [{ path: 'templateArgs.number', message: 'required' }] } }],
      [() => follow('pr', { number: -1 }), { code: 'invalid_request', extra: { issues: [{ path: 'templateArgs.number' }] } }],
      [() => follow('pr', { number: 1.5 }), { code: 'invalid_request' }],
      [() => follow('pr', { number: '7' }), { code: 'invalid_request' }],
      [() => follow('pr', { number: 7, withCi: 'yes' }), { code: 'invalid_request', extra: { issues: [{ path: 'templateArgs.withCi' }] } }],
      [() => follow('repo', { owner: '../../etc' }), { code: 'invalid_request', extra: { issues: [{ path: 'config.owner' }] } }],
      [() => follow('repo', { repo: '..' }), { code: 'invalid_request', extra: { issues: [{ path: 'config.repo' }] } }],
      [() => follow('repo', { owner: 'x'.repeat(100_000) }), { code: 'invalid_request', extra: { issues: [{ path: 'templateArgs.owner' }] } }],
      [() => follow('repo', { modulePath: '/etc/passwd' }), { code: 'invalid_request', extra: { issues: [{ path: 'config.modulePath', message: 'unknown field modulePath' }] } }],
      [() => follow('repo', { ['__proto__']: { polluted: true } }), { code: 'invalid_request' }],
      [() => inbox().follow.follow({ agentId, providerOrKind: 'github', template: 'repo', templateArgs: { owner: 'o', repo: 'r' }, config: { apiBaseUrl: 'file:///etc/passwd' } }), { code: 'invalid_request', extra: { issues: [{ path: 'config.apiBaseUrl' }] } }],
    ];
    for (const [call, refusal] of refusals) await expect(call(), JSON.stringify(refusal)).rejects.toMatchObject(refusal);
    expect(counts()).toEqual({ hosts: 0, sources: 0, subscriptions: 0 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('subscriptions it cannot make leave none of the template\'s subscriptions (the streams stay, as on AgentInbox)', async () => {
    await expect(follow('pr', { number: 7, withCi: true }, { startPolicy: 'at_offset' })).rejects.toMatchObject({ status: 400, code: 'invalid_request' });
    expect(counts()).toEqual({ hosts: 1, sources: 2, subscriptions: 0 });
  });
});

describe('the pr subscription shortcut', () => {
  async function repoSource() {
    const { host } = inbox().hosts.create({ hostType: 'github', hostKey: 'gh', config: { apiBaseUrl: gh.url } });
    const { source } = await inbox().sources.create({ hostId: host.hostId, streamKind: 'repo_events', streamKey: 'octo/hello' });
    return source;
  }

  it('expands to the pull request subscription, and with withCi to its CI runs on the sibling ci_runs stream', async () => {
    const source = await repoSource();
    const [one] = inbox().subscriptions.create({ agentId, sourceId: source.sourceId, shortcut: { name: 'pr', args: { number: 7 } } });
    expect(one).toMatchObject({ sourceId: source.sourceId, filter: { metadata: { number: 7, isPullRequest: true } }, trackedResourceRef: 'repo:octo/hello:pr:7', cleanupPolicy: { mode: 'on_terminal' } });
    expect(() => inbox().subscriptions.create({ agentId, sourceId: source.sourceId, shortcut: { name: 'pr', args: { number: 8, withCi: true } } })).toThrow(
      expect.objectContaining({ code: 'invalid_request', message: expect.stringContaining('needs a ci_runs stream') }),
    );
    expect(inbox().subscriptions.list()).toHaveLength(1);
    const { source: ci } = await inbox().sources.create({ hostId: source.hostId, streamKind: 'ci_runs', streamKey: 'octo/hello' });
    const both = inbox().subscriptions.create({ agentId, sourceId: source.sourceId, shortcut: { name: 'pr', args: { number: 8, withCi: true } } });
    expect(both.map((s) => [s.sourceId, s.filter])).toEqual([
      [source.sourceId, { metadata: { number: 8, isPullRequest: true } }],
      [ci.sourceId, { metadata: { pullRequestNumbers: 8 } }],
    ]);
  });

  it('refuses other names, other sources, bad arguments and fields the shortcut sets itself, creating nothing', async () => {
    const source = await repoSource();
    const { host } = inbox().hosts.create({ hostType: 'local_event', hostKey: 'l' });
    const { source: local } = await inbox().sources.create({ hostId: host.hostId, streamKind: 'events', streamKey: 'e' });
    const refused = [
      () => inbox().subscriptions.create({ agentId, sourceId: source.sourceId, shortcut: { name: 'issue', args: { number: 1 } } }),
      () => inbox().subscriptions.create({ agentId, sourceId: local.sourceId, shortcut: { name: 'pr', args: { number: 1 } } }),
      () => inbox().subscriptions.create({ agentId, sourceId: source.sourceId, shortcut: { name: 'pr', args: { number: 0 } } }),
      () => inbox().subscriptions.create({ agentId, sourceId: source.sourceId, shortcut: { name: 'pr', args: {} } }),
      () => inbox().subscriptions.create({ agentId, shortcut: { name: 'pr', args: { number: 1 } } }),
      () => inbox().subscriptions.create({ agentId, sourceId: source.sourceId, shortcut: { name: 'pr', args: { number: 1 } }, filter: { expr: 'true' } }),
      () => inbox().subscriptions.create({ agentId, sourceId: source.sourceId, shortcut: { name: 'pr', args: { number: 1 } }, trackedResourceRef: 'x' }),
    ];
    for (const call of refused) expect(call).toThrow(expect.objectContaining({ status: 400, code: 'invalid_request' }));
    expect(inbox().subscriptions.list()).toEqual([]);
  });
});

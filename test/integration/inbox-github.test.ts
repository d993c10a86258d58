/**
 * The GitHub provider against the real daemon and a fake GitHub API on loopback: the quick start
 * of docs/inbox-api.md#github through the command line (a token stored with `svc credentials set`,
 * a github host and a source, a subscription with a filter), polls that fill an inbox and end a
 * tracking subscription when the pull request merges, signed webhooks on the control port (also in
 * bearer mode: the HMAC is their auth), and the secrets found nowhere: not in logs, any file of the
 * home but the credential store (the database included), events, traces, API reads or CLI output.
 * Polls are asked for (POST …/poll): nothing waits on a timer. Needs `npm run build` first.
 */
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonPool, request, runSvc, waitFor, type RunningDaemon } from '../helpers/daemon.js';
import { comment, issue, pullRequest, startFakeGithub, type FakeGithub } from '../helpers/fake-github.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const TOKEN = 'ghp_integration-token-52e1a9';
const HOOK_SECRET = 'hook-secret-integration-7d3a0c';
const pool = daemonPool();
let d: RunningDaemon;
let gh: FakeGithub;
/** Everything the test was answered, to search for the secrets at the end. */
const answers: string[] = [];

beforeAll(async () => {
  gh = await startFakeGithub();
  gh.token = TOKEN;
  const repo = gh.repo('octo/hello');
  repo.issues.push(issue(3, '2030-01-01T10:00:00Z'), pullRequest(7, '2030-01-01T11:00:00Z'));
  repo.comments.push(comment(501, 7, '2030-01-01T12:00:00Z', { html_url: 'https://github.com/octo/hello/pull/7#issuecomment-501' }));
  d = await pool.start({ args: ['--log-level', 'debug'] });
});
afterAll(async () => {
  pool.cleanup();
  await gh?.close();
});

async function sock(method: string, url: string, body?: unknown) {
  const r = await request({ socketPath: d.socket }, method, url, body === undefined ? {} : { body });
  answers.push(r.text);
  return r;
}
async function http(target: RunningDaemon, method: string, url: string, opts: Parameters<typeof request>[3] = {}) {
  const r = await request(target, method, url, opts);
  answers.push(r.text);
  return r;
}
async function svc(args: string[], input?: string) {
  const r = await runSvc([...args, '--url', d.base, '--socket', d.socket], {}, 15_000, input);
  answers.push(r.stdout, r.stderr);
  expect(r.code, `svc ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
  return r;
}
const svcJson = async (args: string[], input?: string): Promise<Json> => JSON.parse((await svc([...args, '--json'], input)).stdout);

const sign = (body: string, secret = HOOK_SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
function deliver(target: RunningDaemon, sourceId: string, event: string, payload: unknown, deliveryId: string, signature?: string) {
  const raw = JSON.stringify(payload);
  return http(target, 'POST', `/api/inbox/github/webhook/${sourceId}`, {
    raw,
    headers: { 'content-type': 'application/json', 'x-github-event': event, 'x-github-delivery': deliveryId, 'x-hub-signature-256': signature ?? sign(raw) },
  });
}

let hostId: string;
let sourceId: string;
let agentId: string;

describe('the quick start', () => {
  it('stores the token and the webhook secret with svc credentials, creates a github host and a source on owner/repo', async () => {
    await svc(['credentials', 'set', 'github'], `${TOKEN}\n`);
    const secretFile = path.join(d.home, 'hook.txt');
    fs.writeFileSync(secretFile, `${HOOK_SECRET}\n`, { mode: 0o600 });
    await svc(['credentials', 'set', 'github-hook', '--from-file', secretFile]);
    fs.rmSync(secretFile);
    const host = await svcJson(['inbox', 'hosts', 'create', '--type', 'github', '--key', 'octo', '--config', JSON.stringify({ apiBaseUrl: gh.url, credentialRef: 'github' })]);
    expect(host).toMatchObject({ hostType: 'github', config: { apiBaseUrl: gh.url, credentialRef: 'github' } });
    hostId = host.hostId;
    const source = await svcJson([
      'inbox', 'sources', 'create', '--host', hostId, '--kind', 'repo_events', '--key', 'octo/hello',
      '--config', JSON.stringify({ since: '2030-01-01T00:00:00Z', webhookSecretRef: 'github-hook' }),
    ]); // prettier-ignore
    expect(source).toMatchObject({ sourceType: 'github_repo', hostType: 'github', state: 'active', error: null, cursor: null });
    sourceId = source.sourceId;
    const bad = await sock('POST', '/sources', { hostId, streamKind: 'repo_events', streamKey: 'octo/x', config: { token: TOKEN } });
    expect([bad.status, bad.json.code, bad.json.issues]).toEqual([400, 'invalid_request', [{ path: 'config.token', message: 'unknown field token' }]]);
    const badHost = await sock('POST', '/hosts', { hostType: 'github', hostKey: 'x', config: { apiBaseUrl: 'file:///etc' } });
    expect([badHost.status, badHost.json.issues[0].path]).toEqual([400, 'config.apiBaseUrl']);
  });

  it('a subscription with a filter gets the pull request from a poll; a merge ends the subscription tracking it', async () => {
    agentId = (await sock('POST', '/agents', { name: 'reviewer' })).json.agentId;
    const sub = await sock('POST', '/subscriptions', {
      agentId,
      sourceId,
      filter: { match: { type: 'github.pull_request', 'metadata.number': 7 } },
      trackedResourceRef: 'repo:octo/hello:pr:7',
      cleanupPolicy: { mode: 'on_terminal_or_at', at: '2099-01-01T00:00:00Z', gracePeriodSecs: 0 },
    });
    expect(sub.status, sub.text).toBe(201);
    const subscriptionId = sub.json.subscriptions[0].subscriptionId;

    expect(await svcJson(['inbox', 'sources', 'poll', sourceId])).toMatchObject({ appended: 3, deduped: 0, state: 'active' });
    expect(gh.requests.every((r) => r.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
    const items = await sock('GET', `/agents/${agentId}/inbox/items`);
    expect(items.json.entries).toHaveLength(1);
    expect(items.json.entries[0]).toMatchObject({ event: { id: 'pulls:7:2030-01-01T11:00:00Z', type: 'github.pull_request', subject: 'repo:octo/hello:pr:7' } });

    // Unchanged lists: the next polls cost nothing (the second settles the cursor, the third is all 304).
    await sock('POST', `/sources/${sourceId}/poll`);
    const before = gh.requests.length;
    expect((await sock('POST', `/sources/${sourceId}/poll`)).json).toMatchObject({ appended: 0, deduped: 0 });
    expect(gh.requests.slice(before).map((r) => r.status)).toEqual([304, 304, 304]);

    const repo = gh.repo('octo/hello');
    const pr = repo.issues.find((i) => i.number === 7)!;
    Object.assign(pr, { state: 'closed', closed_at: '2030-01-02T09:00:00Z', updated_at: '2030-01-02T09:00:00Z', pull_request: { ...pr.pull_request, merged_at: '2030-01-02T09:00:00Z' } });
    expect((await sock('POST', `/sources/${sourceId}/poll`)).json).toMatchObject({ appended: 1 });
    const after = await sock('GET', `/agents/${agentId}/inbox/items`);
    expect(after.json.entries.map((e: Json) => [e.event.metadata.action, e.event.metadata.lifecycle])).toEqual([
      ['opened', 'active'],
      ['merged', 'terminal'],
    ]);
    await waitFor(async () => (await sock('GET', `/subscriptions/${subscriptionId}`)).status === 404);
  });

  it('a host whose credential is not stored: its sources are in error naming the profile, and work once it is stored', async () => {
    const host = await sock('POST', '/hosts', { hostType: 'github', hostKey: 'later', config: { apiBaseUrl: gh.url, credentialRef: 'github-later' } });
    const source = await sock('POST', '/sources', { hostId: host.json.hostId, streamKind: 'repo_events', streamKey: 'octo/hello', config: { since: '2030-01-01T00:00:00Z' } });
    expect(source.status).toBe(201);
    expect(source.json).toMatchObject({ state: 'error', error: expect.stringContaining('credential profile "github-later" is not stored') });
    const poll = await sock('POST', `/sources/${source.json.sourceId}/poll`);
    expect([poll.status, poll.json.code]).toEqual([502, 'source_poll_failed']);
    expect(poll.json.error).toContain('github-later');
    await svc(['credentials', 'set', 'github-later'], TOKEN);
    expect((await sock('POST', `/sources/${source.json.sourceId}/poll`)).json).toMatchObject({ appended: 3, state: 'active' });
  });
});

describe('webhooks on the control port', () => {
  const payload = () => ({
    action: 'created',
    issue: { number: 3, title: 'Issue 3', state: 'open', user: { login: 'octocat' } },
    comment: { id: 902, body: 'ping @octocat', user: { login: 'hubot' }, created_at: '2030-01-03T08:00:00Z', updated_at: '2030-01-03T08:00:00Z', html_url: 'https://github.com/octo/hello/issues/3#issuecomment-902' },
    repository: { full_name: 'octo/hello' },
    sender: { login: 'hubot' },
  });

  it('a signed delivery is appended once; a replay is deduplicated; a wrong signature or source appends nothing', async () => {
    const first = await deliver(d, sourceId, 'issue_comment', payload(), 'a1b2c3d4-0001');
    expect([first.status, first.json]).toEqual([200, { ok: true, sourceId, event: 'issue_comment', deliveryId: 'a1b2c3d4-0001', eventId: 'issue_comments:902:2030-01-03T08:00:00Z', appended: 1, deduped: 0 }]);
    expect((await deliver(d, sourceId, 'issue_comment', payload(), 'a1b2c3d4-0001')).json).toMatchObject({ appended: 0, deduped: 1 });
    const forged = await deliver(d, sourceId, 'issue_comment', { ...payload(), comment: { ...payload().comment, id: 903 } }, 'a1b2c3d4-0002', sign('{}'));
    expect([forged.status, forged.json.ok, forged.json.code]).toEqual([403, false, 'webhook_signature_invalid']);
    const unsigned = await http(d, 'POST', `/api/inbox/github/webhook/${sourceId}`, { body: payload(), headers: { 'x-github-event': 'issue_comment', 'x-github-delivery': 'a1b2c3d4-0003' } });
    expect([unsigned.status, unsigned.json.code]).toEqual([401, 'webhook_signature_required']);
    const unknown = await deliver(d, 'src_01J0000000000000000000000', 'issue_comment', payload(), 'a1b2c3d4-0004');
    expect([unknown.status, unknown.json.code]).toEqual([404, 'source_not_found']);
    const stats = (await sock('GET', `/sources/${sourceId}`)).json.stream.streamStats;
    expect(stats.eventCount).toBe(5); // issue 3, PR 7, comment 501, the merged PR, comment 902
  });

  it('needs no control token in bearer mode (the HMAC is the auth), while the credential routes still do', async () => {
    const b = await pool.start({ env: { SVC_TOKEN: 'ctl-token-gh' } });
    const auth = { authorization: 'Bearer ctl-token-gh' };
    expect((await http(b, 'PUT', '/api/control/runtime/credentials/hook', { body: { kind: 'api_key', material: 'x' } })).status).toBe(401);
    expect((await http(b, 'PUT', '/api/control/runtime/credentials/hook', { body: { kind: 'api_key', material: HOOK_SECRET }, headers: auth })).status).toBe(200);
    const host = await request({ socketPath: b.socket }, 'POST', '/hosts', { body: { hostType: 'github', hostKey: 'gh' } });
    const source = await request({ socketPath: b.socket }, 'POST', '/sources', { body: { hostId: host.json.hostId, streamKind: 'repo_events', streamKey: 'octo/hello', config: { webhookSecretRef: 'hook' } } });
    const res = await deliver(b, source.json.sourceId, 'issue_comment', payload(), 'b-0001');
    expect([res.status, res.json.appended]).toEqual([200, 1]);
    expect(b.logs()).not.toContain(HOOK_SECRET);
  });
});

describe('the secrets appear nowhere', () => {
  function filesUnder(dir: string): string[] {
    return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) return filesUnder(p);
      return e.isFile() ? [p] : [];
    });
  }

  it('not in logs, files of the home (database, WAL) but credentials.json, events, traces, API reads or CLI output', async () => {
    // Reads of everything the API shows about hosts, sources, streams, inboxes, credentials, runtime and traces.
    for (const url of ['/hosts', `/hosts/${hostId}`, `/hosts/${hostId}/schema`, '/sources', `/sources/${sourceId}`, `/sources/${sourceId}/schema`, `/streams/${sourceId}`, '/status', '/subscriptions', `/agents/${agentId}/inbox/items?includeAcked=true`, '/openapi.json']) {
      expect((await sock('GET', url)).status, url).toBe(200);
    }
    for (const url of ['/api/control/runtime/credentials', '/api/control/runtime/status', '/api/control/runtime/config', '/api/control/runtime/traces?limit=200', '/api/control/runtime/traces?source=diagnostics', '/api/openapi.json']) {
      expect((await http(d, 'GET', url)).status, url).toBe(200);
    }
    const traces = await http(d, 'GET', '/api/control/runtime/traces?limit=200');
    expect(traces.text).toContain('/api/inbox/github/webhook/:source_id');
    await svc(['inbox', 'sources', 'get', sourceId]);
    await svc(['inbox', 'hosts', 'list']);
    await svc(['credentials', 'list']);
    // Events: every event of the stream, through a subscription from the start.
    const reader = (await sock('POST', '/agents', { name: 'reader' })).json.agentId;
    await sock('POST', '/subscriptions', { agentId: reader, sourceId, startPolicy: 'earliest' });
    const events = await sock('GET', `/agents/${reader}/inbox/items?limit=100`);
    expect(events.json.entries).toHaveLength(5);

    const files = filesUnder(d.home).filter((f) => path.basename(f) !== 'credentials.json');
    expect(files.map((f) => path.basename(f))).toEqual(expect.arrayContaining(['svc.db']));
    // The log has something to say about all of it (debug level: every request too).
    expect(d.logs()).toContain('github webhook received');
    expect(d.logs()).toContain('github webhook refused: signature does not verify');
    expect(d.logs()).toContain('remote source poll failed');
    for (const secret of [TOKEN, HOOK_SECRET]) {
      expect(d.logs(), 'daemon log').not.toContain(secret);
      for (const f of files) expect(fs.readFileSync(f).includes(secret), f).toBe(false);
      for (const text of answers) expect(text).not.toContain(secret);
    }
    // The store itself holds them, 0600.
    expect(fs.statSync(path.join(d.home, 'credentials.json')).mode & 0o777).toBe(0o600);
  });
});

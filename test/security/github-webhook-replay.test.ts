/**
 * GitHub webhooks are signed over the body only: X-GitHub-Delivery and X-GitHub-Event are not
 * covered, so whoever captured one signed body can send it again with fresh headers. Each body is
 * stored once whatever the headers say (a push by what it moved, issues and the like by their
 * resource state, other events by their payload), a mapped event name on a body that is not one
 * is refused, and refused deliveries (unsigned, badly signed, unknown sources) write a bounded
 * number of log lines: one per source and reason per minute of the injected clock, with the count
 * of those not written. Through the real route (inject) over in-process services.
 */
import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { githubWebhookRoutes } from '../../src/http/control/github-webhooks.js';
import { GithubWebhooks } from '../../src/inbox/sources/github-webhook.js';
import { SourceCredentials } from '../../src/inbox/sources/credentials.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { routeApp } from '../helpers/app.js';
import { testServices, type TestServices } from '../helpers/services.js';

const SECRET = 'whsec-replay-3b9e';
const repository = { full_name: 'octo/hello' };
const sha = (c: string) => c.repeat(40);

let t: TestServices;
let app: FastifyInstance;
let sourceId: string;
/** Every line the webhook receiver logged. */
let lines: Array<Record<string, unknown>>;

beforeEach(async () => {
  t = testServices();
  lines = [];
  const logger = createLogger('debug', { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  const { inbox } = t.s;
  inbox.githubWebhooks = new GithubWebhooks({ sources: inbox.sources, streams: inbox.streams, credentials: new SourceCredentials(t.s.credentials), logger, clock: t.clock });
  app = await routeApp(t.s, githubWebhookRoutes(t.s));
  t.s.credentials.put('hook', 'api_key', SECRET);
  const { host } = inbox.hosts.create({ hostType: 'github', hostKey: 'gh' });
  sourceId = (await inbox.sources.create({ hostId: host.hostId, streamKind: 'repo_events', streamKey: 'octo/hello', config: { webhookSecretRef: 'hook' } })).source.sourceId;
});
afterEach(async () => {
  await app.close();
  await t.close();
});

const sign = (body: string, secret = SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
function deliver(event: string, body: string, deliveryId: string, signature: string | null = sign(body), source = sourceId) {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-github-event': event, 'x-github-delivery': deliveryId };
  if (signature !== null) headers['x-hub-signature-256'] = signature;
  return app.inject({ method: 'POST', url: `/api/inbox/github/webhook/${source}`, headers, payload: body });
}
const eventCount = () => t.s.inbox.streams.stats(sourceId)?.eventCount ?? 0;
const logged = (msg: string) => lines.filter((l) => l.msg === msg);

const pushBody = JSON.stringify({ ref: 'refs/heads/main', before: sha('a'), after: sha('b'), commits: [{ id: sha('b') }], repository, sender: { login: 'octocat' } });
const issuesBody = JSON.stringify({
  action: 'opened',
  issue: { number: 12, title: 'Crash', state: 'open', user: { login: 'octocat' }, created_at: '2030-01-01T10:00:00Z', updated_at: '2030-01-01T10:00:00Z' },
  repository,
  sender: { login: 'octocat' },
});
const releaseBody = JSON.stringify({ action: 'published', release: { id: 5, tag_name: 'v1.0.0' }, repository, sender: { login: 'octocat' } });

describe('a captured signed body sent again with fresh headers', () => {
  it('a push, an issues delivery and another event, each with three fresh delivery ids: stored once each', async () => {
    for (const [event, body] of [['push', pushBody], ['issues', issuesBody], ['release', releaseBody]] as const) {
      const answers = [];
      for (const n of [1, 2, 3]) answers.push((await deliver(event, body, `${event}-0000-${n}`)).json());
      expect(answers.map((a) => [a.appended, a.deduped]), event).toEqual([[1, 0], [0, 1], [0, 1]]);
      expect(new Set(answers.map((a) => a.eventId)).size, event).toBe(1);
    }
    expect(eventCount()).toBe(3);
    expect(t.s.inbox.streams.read(sourceId, 0, 10).map((e) => e.id)).toEqual([
      `pushes:refs/heads/main:${sha('a')}..${sha('b')}`,
      'issues:12:2030-01-01T10:00:00Z',
      expect.stringMatching(/^payloads:[0-9a-f]{64}$/),
    ]);
    // A replay is not an info line each time.
    expect(logged('github webhook received').filter((l) => l.level === 30)).toHaveLength(3);
  });

  it('a relabelled X-GitHub-Event: refused when it names another mapped event, the same event otherwise', async () => {
    expect((await deliver('issues', issuesBody, 'orig-1')).json()).toMatchObject({ appended: 1 });
    expect((await deliver('release', releaseBody, 'orig-2')).json()).toMatchObject({ appended: 1 });
    expect((await deliver('push', pushBody, 'orig-3')).json()).toMatchObject({ appended: 1 });
    for (const event of ['issue_comment', 'pull_request', 'workflow_run', 'push']) {
      const res = await deliver(event, issuesBody, `relabel-${event.replaceAll('_', '-')}`);
      expect([res.statusCode, res.json().code, res.json().issues[0].path], event).toEqual([400, 'invalid_request', 'headers.x-github-event']);
    }
    for (const [event, body] of [['star', issuesBody], ['deployment', releaseBody], ['star', releaseBody], ['create', pushBody], ['ping', releaseBody]] as const) {
      const res = await deliver(event, body, `relabel-${event}-${body.length}`);
      expect([res.statusCode, res.json().appended], `${event} ${body.slice(0, 30)}`).toEqual([200, 0]);
    }
    expect(eventCount()).toBe(3);
  });

  it('a webhook and the poll that sees the same state are one event', async () => {
    expect((await deliver('issues', issuesBody, 'state-1')).json()).toMatchObject({ eventId: 'issues:12:2030-01-01T10:00:00Z', appended: 1 });
    const { issueLikeEvent } = await import('../../src/inbox/sources/providers/github-events.js');
    const polled = issueLikeEvent({ owner: 'octo', repo: 'hello' }, JSON.parse(issuesBody).issue, { origin: 'poll' });
    expect(await t.s.inbox.streams.append(sourceId, [polled])).toMatchObject({ appended: 0, deduped: 1 });
  });
});

describe('refused deliveries write a bounded number of log lines', () => {
  it('2,000 bad signatures: each refused 403, one warning a minute per source with the count of the others', async () => {
    for (let i = 0; i < 2000; i++) {
      const res = await deliver('push', pushBody, `bad-${i}`, sign(pushBody, 'not-the-secret'));
      expect(res.statusCode).toBe(403);
    }
    const warned = () => logged('github webhook refused: signature does not verify');
    expect(warned()).toHaveLength(1);
    expect(warned()[0]).toMatchObject({ sourceId, suppressed: 0 });
    t.clock.advance(61_000);
    expect((await deliver('push', pushBody, 'bad-late', sign(pushBody, 'not-the-secret'))).statusCode).toBe(403);
    expect(warned()).toHaveLength(2);
    expect(warned()[1]).toMatchObject({ sourceId, suppressed: 1999 });
    expect(eventCount()).toBe(0);
  });

  it('unsigned deliveries and unknown source ids too (an unknown id is not a key of its own)', async () => {
    for (let i = 0; i < 500; i++) {
      expect((await deliver('push', pushBody, `u-${i}`, null)).statusCode).toBe(401);
      expect((await deliver('push', pushBody, `n-${i}`, sign(pushBody), `src_01J${String(i).padStart(23, '0')}`)).statusCode).toBe(404);
    }
    expect(logged('github webhook refused: no signature')).toHaveLength(1);
    expect(logged('github webhook refused: no webhook on this source')).toHaveLength(1);
    expect(lines.filter((l) => (l.level as number) >= 40)).toHaveLength(2);
  });
});

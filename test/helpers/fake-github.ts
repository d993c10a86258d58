/**
 * A fake GitHub REST API on loopback, speaking the parts of the protocol the github source uses
 * (docs.github.com REST reference): `GET /repos/{owner}/{repo}/issues` (issues and pull requests,
 * `state`, `sort=updated`, `direction`, `since`), `…/issues/comments` (`since`), `…/actions/runs`
 * (newest first, `{total_count, workflow_runs}`), with `per_page`/`page` and `Link` headers, weak
 * ETags and 304 for a matching `If-None-Match` (which costs no rate limit), the rate-limit headers
 * on every answer, 403 when the limit is spent, scripted secondary limits (403/429 with or without
 * `Retry-After`), `X-Poll-Interval`, and 401 for a wrong token. Tests change `repos` between polls.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerWrite, type FakeWrite } from './fake-github-writes.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface RepoData {
  issues: Obj[];
  comments: Obj[];
  runs: Obj[];
}

export interface FakeRequest {
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  status: number;
}

export interface FakeGithub {
  url: string;
  repos: Map<string, RepoData>;
  requests: FakeRequest[];
  /** When set, only `Authorization: Bearer <token>` is served (else 401 Bad credentials). */
  token: string | null;
  rate: { limit: number; remaining: number; reset: number };
  /** Answers used once each, before the normal one (a secondary limit, a server error), for the next request or the next one whose path ends with `path`. */
  script: Array<{ status: number; headers?: Record<string, string>; body?: unknown; path?: string }>;
  /** Sent on every answer when set (seconds). */
  pollInterval: number | null;
  /** Link `next` URLs point here instead of at this server (a Link to another origin). */
  linkOrigin: string | null;
  /** POST/PATCH/PUT requests, in order (fake-github-writes.ts); comments are made as `login`. */
  writes: FakeWrite[];
  login: string;
  /** `created_at`/`updated_at` of what writes make or change (default: now). */
  writeTime: string | null;
  repo(fullName: string): RepoData;
  close(): Promise<void>;
}

const iso = (s: string) => Date.parse(s);

export async function startFakeGithub(): Promise<FakeGithub> {
  const fake: FakeGithub = {
    url: '',
    repos: new Map(),
    requests: [],
    token: null,
    rate: { limit: 5000, remaining: 5000, reset: 1_900_000_000 },
    script: [],
    pollInterval: null,
    linkOrigin: null,
    writes: [],
    login: 'svc-bot',
    writeTime: null,
    repo(fullName) {
      let r = fake.repos.get(fullName);
      if (!r) fake.repos.set(fullName, (r = { issues: [], comments: [], runs: [] }));
      return r;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', fake.url);
    const record = (status: number) => fake.requests.push({ path: url.pathname, query: url.searchParams, headers: req.headers, status });
    const rateHeaders = (): Record<string, string> => ({
      'x-ratelimit-limit': String(fake.rate.limit),
      'x-ratelimit-remaining': String(fake.rate.remaining),
      'x-ratelimit-reset': String(fake.rate.reset),
      'x-ratelimit-resource': 'core',
      ...(fake.pollInterval !== null ? { 'x-poll-interval': String(fake.pollInterval) } : {}),
    });
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      record(status);
      const text = body === undefined ? '' : JSON.stringify(body);
      res.writeHead(status, { ...(text ? { 'content-type': 'application/json; charset=utf-8' } : {}), ...rateHeaders(), ...headers });
      res.end(text);
    };
    if (fake.token !== null && req.headers.authorization !== `Bearer ${fake.token}`) {
      return send(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
    }
    const at = fake.script.findIndex((a) => a.path === undefined || url.pathname.endsWith(a.path));
    const scripted = at === -1 ? undefined : fake.script.splice(at, 1)[0];
    if (scripted) return send(scripted.status, scripted.body ?? { message: 'You have exceeded a secondary rate limit.' }, scripted.headers);
    if (fake.rate.remaining <= 0) return send(403, { message: 'API rate limit exceeded for user.' });
    if (req.method !== 'GET') return answerWrite(fake, req, url, send);

    const m = /^\/repos\/([^/]+)\/([^/]+)\/(issues|issues\/comments|actions\/runs)$/.exec(url.pathname);
    const data = m ? fake.repos.get(`${decodeURIComponent(m[1]!)}/${decodeURIComponent(m[2]!)}`) : undefined;
    if (!m || !data) return send(404, { message: 'Not Found' });
    const q = url.searchParams;
    const since = q.get('since');
    let items: Obj[];
    if (m[3] === 'actions/runs') items = [...data.runs].sort((a, b) => iso(b.created_at) - iso(a.created_at));
    else {
      items = (m[3] === 'issues' ? data.issues : data.comments).filter((i) => since === null || iso(i.updated_at) >= iso(since));
      if (m[3] === 'issues' && q.get('state') !== 'all') items = items.filter((i) => i.state === (q.get('state') ?? 'open'));
      items.sort((a, b) => iso(a.updated_at) - iso(b.updated_at) || a.id - b.id);
      if (q.get('direction') === 'desc') items.reverse();
    }
    const perPage = Math.min(Number(q.get('per_page') ?? 30), 100);
    const page = Number(q.get('page') ?? 1);
    const slice = items.slice((page - 1) * perPage, page * perPage);
    const body = m[3] === 'actions/runs' ? { total_count: items.length, workflow_runs: slice } : slice;
    const etag = `W/"${createHash('sha1').update(JSON.stringify(body)).digest('hex')}"`;
    if (req.headers['if-none-match'] === etag) {
      // A conditional request answered 304 costs no rate limit.
      record(304);
      res.writeHead(304, { etag, ...rateHeaders() });
      return res.end();
    }
    fake.rate.remaining -= 1;
    const links: string[] = [];
    const pageUrl = (n: number) => {
      const u = new URL(url.href);
      u.searchParams.set('page', String(n));
      return (fake.linkOrigin ?? fake.url) + u.pathname + u.search;
    };
    const last = Math.max(1, Math.ceil(items.length / perPage));
    if (page < last) links.push(`<${pageUrl(page + 1)}>; rel="next"`, `<${pageUrl(last)}>; rel="last"`);
    if (page > 1) links.push(`<${pageUrl(1)}>; rel="first"`, `<${pageUrl(page - 1)}>; rel="prev"`);
    send(200, body, { etag, ...(links.length ? { link: links.join(', ') } : {}) });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

// --- fixtures in GitHub's shapes ---------------------------------------------------------------

let nextId = 1000;

export function issue(n: number, at: string, extra: Obj = {}): Obj {
  return {
    id: nextId++,
    number: n,
    title: `Issue ${n}`,
    state: 'open',
    user: { login: 'octocat' },
    labels: [{ name: 'bug' }],
    body: 'cc @hubot',
    created_at: at,
    updated_at: at,
    closed_at: null,
    html_url: `https://github.com/octo/hello/issues/${n}`,
    ...extra,
  };
}

export function pullRequest(n: number, at: string, extra: Obj = {}): Obj {
  return issue(n, at, {
    title: `PR ${n}`,
    html_url: `https://github.com/octo/hello/pull/${n}`,
    draft: false,
    pull_request: { url: `https://api.github.com/repos/octo/hello/pulls/${n}`, html_url: `https://github.com/octo/hello/pull/${n}`, merged_at: null },
    ...extra,
  });
}

export function comment(id: number, issueNumber: number, at: string, extra: Obj = {}): Obj {
  return {
    id,
    body: 'LGTM @monalisa',
    user: { login: 'monalisa' },
    created_at: at,
    updated_at: at,
    issue_url: `https://api.github.com/repos/octo/hello/issues/${issueNumber}`,
    html_url: `https://github.com/octo/hello/issues/${issueNumber}#issuecomment-${id}`,
    ...extra,
  };
}

export function workflowRun(id: number, at: string, extra: Obj = {}): Obj {
  return {
    id,
    name: 'CI',
    run_attempt: 1,
    status: 'in_progress',
    conclusion: null,
    event: 'pull_request',
    head_branch: 'feature',
    head_sha: 'abc123',
    pull_requests: [{ number: 7 }],
    actor: { login: 'octocat' },
    created_at: at,
    updated_at: at,
    html_url: `https://github.com/octo/hello/actions/runs/${id}`,
    ...extra,
  };
}

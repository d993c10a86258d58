/**
 * The write side of the fake GitHub API (fake-github.ts), as the delivery operations call it
 * (docs.github.com REST reference): `POST /repos/{o}/{r}/issues/{n}/comments`,
 * `POST …/pulls/{n}/comments/{id}/replies`, `PATCH …/issues/{n} {state}` and
 * `PUT …/pulls/{n}/merge`. Every write is recorded in `fake.writes` (with its headers, so a test
 * sees the token it came with); a comment joins the repository's comments (the next poll sees it),
 * a state change and a merge change the issue. Unknown repositories and issues are 404, a comment
 * without a string body 422, a merge of a closed pull request 405, as GitHub answers.
 */
import type http from 'node:http';
import type { FakeGithub } from './fake-github.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Send = (status: number, body: unknown, headers?: Record<string, string>) => void;

export interface FakeWrite {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Obj | null;
}

let nextId = 900_000;

export function answerWrite(fake: FakeGithub, req: http.IncomingMessage, url: URL, send: Send): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    let body: Obj | null = null;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Obj;
    } catch {
      // recorded as null: a test can tell
    }
    fake.writes.push({ method: req.method ?? '', path: url.pathname, headers: req.headers, body });
    const m = /^\/repos\/([^/]+)\/([^/]+)\/(issues|pulls)\/(\d+)(\/comments|\/comments\/(\d+)\/replies|\/merge)?$/.exec(url.pathname);
    const name = m ? `${decodeURIComponent(m[1]!)}/${decodeURIComponent(m[2]!)}` : '';
    const repo = fake.repos.get(name);
    const issue = repo?.issues.find((i) => i.number === Number(m![4]));
    if (!m || !repo) return send(404, { message: 'Not Found' });
    const at = fake.writeTime ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const [kind, n, tail, threadId] = [m[3], Number(m[4]), m[5], m[6]];
    if (req.method === 'POST' && tail !== undefined && tail !== '/merge') {
      if (typeof body?.body !== 'string') return send(422, { message: 'Invalid request.' });
      const id = nextId++;
      const base = `https://github.com/${name}/${kind === 'pulls' ? 'pull' : 'issues'}/${n}`;
      const comment = {
        id,
        body: body.body,
        user: { login: fake.login },
        created_at: at,
        updated_at: at,
        issue_url: `${fake.url}/repos/${name}/issues/${n}`,
        html_url: threadId ? `${base}#discussion_r${id}` : `${base}#issuecomment-${id}`,
        ...(threadId ? { in_reply_to_id: Number(threadId) } : {}),
      };
      if (!threadId) repo.comments.push(comment);
      return send(201, comment);
    }
    if (!issue) return send(404, { message: 'Not Found' });
    if (req.method === 'PATCH' && kind === 'issues' && tail === undefined) {
      Object.assign(issue, { state: body?.state, updated_at: at, closed_at: body?.state === 'closed' ? at : null });
      return send(200, issue);
    }
    if (req.method === 'PUT' && kind === 'pulls' && tail === '/merge') {
      if (!issue.pull_request) return send(404, { message: 'Not Found' });
      if (issue.state !== 'open') return send(405, { message: 'Pull Request is not mergeable' });
      Object.assign(issue, { state: 'closed', updated_at: at, closed_at: at, pull_request: { ...issue.pull_request, merged_at: at } });
      return send(200, { sha: 'f00dfeed', merged: true, message: 'Pull Request successfully merged' });
    }
    send(404, { message: 'Not Found' });
  });
}

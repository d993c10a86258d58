/**
 * The GitHub REST calls of the delivery operations (docs.github.com REST reference), made by the
 * daemon itself with the token of the source's credential profile:
 * - add_comment: `POST /repos/{owner}/{repo}/issues/{n}/comments {body}` (issues and pull requests);
 * - reply_in_review_thread: `POST /repos/{owner}/{repo}/pulls/{n}/comments/{comment_id}/replies {body}`;
 * - close_issue / reopen_issue: `PATCH /repos/{owner}/{repo}/issues/{n} {state: closed|open}`;
 * - merge_pull_request: `PUT /repos/{owner}/{repo}/pulls/{n}/merge {merge_method?, commit_title?, commit_message?}`.
 *
 * The base URL is the host's `apiBaseUrl` (the owner's configuration; tests point it at a fake on
 * loopback). The request goes there and nowhere else: redirects are not followed (a write that
 * answers 3xx failed), so the token never leaves that origin. One call is bounded in time
 * (CALL_TIMEOUT_MS, and the caller's abort) and in what is read back. Nothing is retried: a
 * comment posted twice is worse than a failure the caller sees. A failure's message names the
 * request and GitHub's status and message, never the token.
 */
import { readBody } from '../../core/index.js';
import type { OperationInput, GithubOperation } from './operations.js';
import type { GithubTarget } from './handles.js';

const CALL_TIMEOUT_MS = 30_000;
const ANSWER_MAX_BYTES = 1024 * 1024;
const MESSAGE_MAX = 200;
const USER_AGENT = 'svc-inbox (github delivery)';

/** Where and as whom: the host's API root and the token of the credential profile. */
export interface GithubAccess {
  apiBaseUrl: string;
  token: string;
}

/** What GitHub answered, for the caller: the page of what was made or changed. */
export interface GithubResult {
  /** The comment's, issue's or pull request's page (html_url); null when the answer has none (a merge). */
  url: string | null;
  /** The comment made (add_comment, reply_in_review_thread). */
  commentId?: number;
  /** The state after close_issue / reopen_issue. */
  state?: string;
  /** The merge commit (merge_pull_request). */
  sha?: string;
}

/** GitHub refused, or could not be asked. `status` is GitHub's HTTP status, null without an answer. */
export class GithubCallFailed extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'GithubCallFailed';
  }
}

interface Call {
  method: 'POST' | 'PATCH' | 'PUT';
  path: string;
  body: Record<string, unknown>;
}

function callFor(operation: GithubOperation, target: GithubTarget, input: OperationInput, threadId: number | null): Call {
  const repo = `/repos/${encodeURIComponent(target.owner)}/${encodeURIComponent(target.repo)}`;
  switch (operation) {
    case 'add_comment':
      return { method: 'POST', path: `${repo}/issues/${target.number}/comments`, body: { body: input.body } };
    case 'reply_in_review_thread':
      return { method: 'POST', path: `${repo}/pulls/${target.number}/comments/${threadId}/replies`, body: { body: input.body } };
    case 'close_issue':
    case 'reopen_issue':
      return { method: 'PATCH', path: `${repo}/issues/${target.number}`, body: { state: operation === 'close_issue' ? 'closed' : 'open' } };
    case 'merge_pull_request': {
      const body: Record<string, unknown> = {};
      if (input.mergeMethod !== undefined) body.merge_method = input.mergeMethod;
      if (input.commitTitle !== undefined) body.commit_title = input.commitTitle;
      if (input.commitMessage !== undefined) body.commit_message = input.commitMessage;
      return { method: 'PUT', path: `${repo}/pulls/${target.number}/merge`, body };
    }
  }
}

/** Run one operation against GitHub; resolves with what it made, or throws GithubCallFailed. */
export async function callGithub(
  access: GithubAccess,
  operation: GithubOperation,
  target: GithubTarget,
  input: OperationInput,
  threadId: number | null,
  signal?: AbortSignal,
): Promise<GithubResult> {
  const call = callFor(operation, target, input, threadId);
  const what = `${call.method} ${call.path}`;
  const timeout = AbortSignal.timeout(CALL_TIMEOUT_MS);
  let res: Response;
  try {
    res = await fetch(access.apiBaseUrl.replace(/\/+$/, '') + call.path, {
      method: call.method,
      headers: {
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        'user-agent': USER_AGENT,
        'content-type': 'application/json',
        authorization: `Bearer ${access.token}`,
      },
      body: JSON.stringify(call.body),
      redirect: 'manual',
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (err) {
    const reason = timeout.aborted ? `no answer within ${CALL_TIMEOUT_MS / 1000} s` : signal?.aborted ? 'aborted' : causeOf(err);
    throw new GithubCallFailed(`GitHub could not be reached for ${what} (${reason})`, null);
  }
  const text = (await readBody(res, ANSWER_MAX_BYTES, undefined, true).catch(() => null)) ?? '';
  let answer: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) answer = parsed as Record<string, unknown>;
  } catch {
    // not JSON: the status says enough
  }
  if (res.status < 200 || res.status > 299) {
    const message = typeof answer.message === 'string' ? ` (${answer.message.slice(0, MESSAGE_MAX)})` : '';
    const redirected = res.status >= 300 && res.status < 400 ? ': a redirect, not followed' : '';
    throw new GithubCallFailed(`GitHub answered ${res.status} for ${what}${message}${redirected}`, res.status);
  }
  return resultOf(operation, answer);
}

function resultOf(operation: GithubOperation, answer: Record<string, unknown>): GithubResult {
  const url = typeof answer.html_url === 'string' ? answer.html_url : null;
  if (operation === 'add_comment' || operation === 'reply_in_review_thread') {
    return { url, ...(typeof answer.id === 'number' ? { commentId: answer.id } : {}) };
  }
  if (operation === 'merge_pull_request') return { url, ...(typeof answer.sha === 'string' ? { sha: answer.sha } : {}) };
  return { url, ...(typeof answer.state === 'string' ? { state: answer.state } : {}) };
}

function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown } }).cause?.code;
  return typeof cause === 'string' ? cause : err instanceof Error ? err.name : 'error';
}

/**
 * GitHub objects as inbox events (docs/inbox-api.md#github), shared by the polling module
 * (github.ts, in a worker) and the webhook receiver (../github-webhook.ts, in the daemon), so both
 * give one resource state the same event.
 *
 * Ids name a resource state: `issues:<number>:<updated_at>`, `pulls:<number>:<updated_at>`,
 * `issue_comments:<id>:<updated_at>`, `workflow_runs:<id>:<updated_at>`. A re-poll, a redelivered
 * or replayed webhook, and a webhook plus the poll that sees the same state are one event: the
 * stream stores an id once. Issues and pull requests are keyed by number, not id, because the
 * issues list (polling) and pull_request webhooks carry different ids for one pull request but the
 * same number. A deletion gets `…:deleted` (the object's updated_at does not change when it goes).
 * A push is what it moved: `pushes:<ref>:<before>..<after>`. Other webhook events (releases,
 * reviews, stars, …) have no resource state and are keyed by their body:
 * `payloads:<sha256 of the payload>`, so a replay with a fresh X-GitHub-Delivery is one event too.
 *
 * A webhook's kind comes from its body, not from X-GitHub-Event (a header the HMAC does not cover):
 * `bodyKind` tells an issue, pull request, issue comment, workflow run, push or ping by the keys
 * GitHub puts in each (and the keys of their sibling events that it must not have), so a captured
 * body sent again under another event name maps to the same event.
 *
 * `subject` is AgentInbox's resource ref: `repo:<owner>/<repo>:issue:<n>`, `…:pr:<n>` (comments
 * carry their issue's or pull request's), `…:workflow_run:<id>`. `metadata.lifecycle` is
 * `terminal` when an issue or pull request is closed (or merged, or deleted) and when a workflow
 * run completes, else `active`: a subscription with `trackedResourceRef` = the subject and cleanup
 * `on_terminal(_or_at)` ends there.
 */

import { createHash } from 'node:crypto';

export interface RepoRef {
  owner: string;
  repo: string;
}

export interface GithubEvent {
  id: string;
  type: string;
  subject: string | null;
  time?: string;
  data: unknown;
  metadata: Record<string, unknown>;
}

/** Where an event came from: a poll sees states; a webhook also says what happened and who did it. */
export type Origin = { origin: 'poll' } | { origin: 'webhook'; action: string | null; deliveryId: string; sender: string | null };

type Obj = Record<string, unknown>;

const MAX_MENTIONS = 50;

export const asObj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const login = (v: unknown): string | null => str(asObj(v).login);

export function resourceRef(r: RepoRef, kind: 'issue' | 'pr' | 'workflow_run', n: number | string): string {
  return `repo:${r.owner}/${r.repo}:${kind}:${n}`;
}

/** `@login` handles in the texts, sorted, without repeats. */
export function mentions(...texts: Array<string | null>): string[] {
  const seen = new Set<string>();
  for (const t of texts) for (const m of (t ?? '').matchAll(/(?:^|[^A-Za-z0-9_@/.-])@([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))/g)) seen.add(m[1]!);
  return [...seen].sort().slice(0, MAX_MENTIONS);
}

function labels(v: unknown): string[] {
  return Array.isArray(v) ? v.map((l) => (typeof l === 'string' ? l : str(asObj(l).name))).filter((l): l is string => l !== null) : [];
}

function common(r: RepoRef, eventType: string, action: string | null, via: Origin): Obj {
  return {
    provider: 'github',
    owner: r.owner,
    repo: r.repo,
    repoFullName: `${r.owner}/${r.repo}`,
    origin: via.origin,
    eventType,
    action,
    ...(via.origin === 'webhook' ? { deliveryId: via.deliveryId, sender: via.sender } : {}),
  };
}

/** What a poll can tell from a state: opened (never updated), merged, closed, else updated. */
function stateAction(o: Obj, merged: boolean): string {
  if (o.state === 'closed') return merged ? 'merged' : 'closed';
  return o.created_at !== undefined && o.created_at === o.updated_at ? 'opened' : 'updated';
}

function stamp(o: Obj, action: string | null): string {
  return action === 'deleted' ? 'deleted' : String(o.updated_at ?? o.created_at ?? 'unknown');
}

/**
 * An issue or pull request. `o` is an issue (issues list: a pull request has a `pull_request`
 * object with `merged_at`) or a pull request (pull_request webhooks: `merged`, `merged_at`).
 */
export function issueLikeEvent(r: RepoRef, o: Obj, via: Origin, asPullRequest = o.pull_request !== undefined): GithubEvent {
  const number = num(o.number) ?? 0;
  const merged = asPullRequest && (o.merged === true || str(o.merged_at) !== null || str(asObj(o.pull_request).merged_at) !== null);
  let action = via.origin === 'webhook' ? via.action : stateAction(o, merged);
  if (action === 'closed' && merged) action = 'merged';
  const terminal = o.state === 'closed' || action === 'deleted';
  const title = str(o.title);
  return {
    id: `${asPullRequest ? 'pulls' : 'issues'}:${number}:${stamp(o, action)}`,
    type: asPullRequest ? 'github.pull_request' : 'github.issue',
    subject: resourceRef(r, asPullRequest ? 'pr' : 'issue', number),
    ...(str(o.updated_at) ? { time: str(o.updated_at)! } : {}),
    data: o,
    metadata: {
      ...common(r, asPullRequest ? 'pull_request' : 'issues', action, via),
      number,
      isPullRequest: asPullRequest,
      title,
      state: str(o.state),
      ...(asPullRequest ? { merged, draft: o.draft === true } : {}),
      author: login(o.user),
      labels: labels(o.labels),
      mentions: mentions(title, str(o.body)),
      url: str(o.html_url),
      lifecycle: terminal ? 'terminal' : 'active',
    },
  };
}

/** An issue or pull request comment; `issue` is the webhook's (polling knows only the comment). */
export function commentEvent(r: RepoRef, c: Obj, via: Origin, issue: Obj | null = null): GithubEvent {
  const url = str(c.html_url);
  const number = num(issue?.number) ?? Number(/\/issues\/(\d+)$/.exec(str(c.issue_url) ?? '')?.[1] ?? 0);
  const isPullRequest = issue ? issue.pull_request !== undefined : /\/pull\/\d+/.test(url ?? '');
  const action = via.origin === 'webhook' ? via.action : c.created_at === c.updated_at ? 'created' : 'edited';
  return {
    id: `issue_comments:${num(c.id) ?? 0}:${stamp(c, action)}`,
    type: 'github.issue_comment',
    subject: number ? resourceRef(r, isPullRequest ? 'pr' : 'issue', number) : null,
    ...(str(c.updated_at) ? { time: str(c.updated_at)! } : {}),
    data: c,
    metadata: {
      ...common(r, 'issue_comment', action, via),
      number: number || null,
      isPullRequest,
      commentId: num(c.id),
      title: issue ? str(issue.title) : null,
      author: login(c.user),
      mentions: mentions(str(c.body)),
      url,
    },
  };
}

export function workflowRunEvent(r: RepoRef, run: Obj, via: Origin): GithubEvent {
  const id = num(run.id) ?? 0;
  const status = str(run.status);
  const action = via.origin === 'webhook' ? via.action : status;
  return {
    id: `workflow_runs:${id}:${stamp(run, action)}`,
    type: 'github.workflow_run',
    subject: resourceRef(r, 'workflow_run', id),
    ...(str(run.updated_at) ? { time: str(run.updated_at)! } : {}),
    data: run,
    metadata: {
      ...common(r, 'workflow_run', action, via),
      runId: id,
      runAttempt: num(run.run_attempt),
      name: str(run.name),
      status,
      conclusion: str(run.conclusion),
      event: str(run.event),
      headBranch: str(run.head_branch),
      headSha: str(run.head_sha),
      pullRequestNumbers: Array.isArray(run.pull_requests) ? run.pull_requests.map((p) => num(asObj(p).number)).filter((n): n is number => n !== null) : [],
      author: login(run.actor),
      url: str(run.html_url),
      lifecycle: status === 'completed' ? 'terminal' : 'active',
    },
  };
}

/** A push: the ref, and the commits it moved from and to (a force-push back to a commit is another push). */
export function pushEvent(r: RepoRef, p: Obj, via: Origin): GithubEvent {
  const ref = str(p.ref) ?? '';
  const before = str(p.before) ?? '';
  const after = str(p.after) ?? '';
  return {
    id: `pushes:${ref}:${before}..${after}`,
    type: 'github.push',
    subject: null,
    data: p,
    metadata: { ...common(r, 'push', null, via), ref, before, after, number: null, isPullRequest: false },
  };
}

/** Webhook events svc maps by their body; X-GitHub-Event naming one of them must agree with the body. */
export const BODY_KINDS = ['issues', 'pull_request', 'issue_comment', 'workflow_run', 'push'] as const;
export type BodyKind = (typeof BODY_KINDS)[number] | 'ping';

const isObj = (v: unknown): boolean => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * What a webhook body is, by its keys (docs.github.com "Webhook events and payloads"), or null for
 * any other event. Siblings that carry the same object are told apart by their own key:
 * pull_request_review(_comment, _thread) have `review`, `comment`, `thread`; deployment(_status,
 * _review) have `deployment`, `deployment_status`, `approver` or `workflow_job_run(s)`.
 */
export function bodyKind(p: Obj): BodyKind | null {
  const has = (...keys: string[]) => keys.some((k) => p[k] !== undefined);
  if (typeof p.zen === 'string' && p.hook_id !== undefined) return 'ping';
  if (isObj(p.comment) && isObj(p.issue)) return 'issue_comment';
  if (isObj(p.issue) && !has('comment')) return 'issues';
  if (isObj(p.pull_request) && !has('review', 'comment', 'thread')) return 'pull_request';
  if (isObj(p.workflow_run) && !has('deployment', 'deployment_status', 'approver', 'workflow_job_run', 'workflow_job_runs', 'workflow_job')) return 'workflow_run';
  if (typeof p.ref === 'string' && typeof p.before === 'string' && typeof p.after === 'string') return 'push';
  return null;
}

/**
 * A verified webhook delivery as an event, or null for `ping` (GitHub's hello when a hook is
 * created). The body decides (bodyKind): issues, pull requests, issue comments and workflow runs
 * map as polling does, a push by what it moved; any other event keeps its whole payload as `data`,
 * typed by its X-GitHub-Event, with the issue or pull request it concerns as subject.
 */
export function webhookEvent(r: RepoRef, eventName: string, deliveryId: string, payload: Obj): GithubEvent | null {
  const kind = bodyKind(payload);
  if (eventName === 'ping' || kind === 'ping') return null;
  const via: Origin = { origin: 'webhook', action: str(payload.action), deliveryId, sender: login(payload.sender) };
  if (kind === 'issues') return issueLikeEvent(r, asObj(payload.issue), via, false);
  if (kind === 'pull_request') return issueLikeEvent(r, asObj(payload.pull_request), via, true);
  if (kind === 'issue_comment') return commentEvent(r, asObj(payload.comment), via, asObj(payload.issue));
  if (kind === 'workflow_run') return workflowRunEvent(r, asObj(payload.workflow_run), via);
  if (kind === 'push') return pushEvent(r, payload, via);
  const pr = num(asObj(payload.pull_request).number);
  const issue = asObj(payload.issue);
  const issueNumber = num(issue.number);
  const subject = pr !== null ? resourceRef(r, 'pr', pr) : issueNumber !== null ? resourceRef(r, issue.pull_request ? 'pr' : 'issue', issueNumber) : null;
  return {
    id: `payloads:${createHash('sha256').update(JSON.stringify(payload)).digest('hex')}`,
    type: `github.${eventName}`,
    subject,
    data: payload,
    metadata: { ...common(r, eventName, via.action, via), number: pr ?? issueNumber, isPullRequest: pr !== null || issue.pull_request !== undefined },
  };
}

/**
 * Delivery handles (AgentInbox v1.0.3, docs/site/rfcs/delivery-handles-and-operations.md): the
 * address an inbox item carries for answering it, `{provider, surface, targetRef, threadRef,
 * replyMode}`. A handle routes; the operation a caller invokes on it says what to do
 * (operations.ts). For GitHub:
 * - `issue_comment` on `owner/repo#n`: an issue, or a pull request's conversation reached through
 *   an issue comment or another event about it (AgentInbox names the surface after the event, not
 *   the thread: only pull request events are `pull_request_comment`);
 * - `pull_request_comment` on `owner/repo#n`: from a pull request event;
 * - `review_comment` on `owner/repo#n` with `threadRef: "review_comment:<id>"`: a review comment's
 *   thread (the thread's first comment when the event is a reply, which GitHub's replies route
 *   wants).
 *
 * A handle is an address, not a permission: who may act on it, and with which credential, is
 * decided where it is used (outbound.ts: only repositories a github source follows, with that
 * source's credential). Computed from the stored event alone, so every view of an entry (pages,
 * watch frames, notifications) shows the same handle. The repository and number come from the
 * event's `subject` (`repo:<owner>/<repo>:issue|pr:<n>`, which compaction keeps), the thread from
 * the review comment in its data.
 */
import type { StoredEvent } from '../streams/index.js';

export interface DeliveryHandle {
  provider: string;
  surface: string;
  targetRef: string;
  threadRef: string | null;
  replyMode: string | null;
}

export const GITHUB_SURFACES = ['issue_comment', 'pull_request_comment', 'review_comment'] as const;
export type GithubSurface = (typeof GITHUB_SURFACES)[number];

/** A GitHub issue or pull request as a targetRef names it. */
export interface GithubTarget {
  owner: string;
  repo: string;
  number: number;
}

// The source config's own rules for owner and repo (providers/github.ts), so a targetRef can name
// nothing that is not a repository path segment: no `/`, `..`, `:`, `@`, `?` or `#`.
const OWNER = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})';
const REPO = '(?!\\.\\.?#)[A-Za-z0-9._-]{1,100}';
const NUMBER = '[1-9][0-9]{0,9}';
const TARGET_REF = new RegExp(`^(${OWNER})/(${REPO})#(${NUMBER})$`);
const SUBJECT = new RegExp(`^repo:(${OWNER})/((?!\\.\\.?:)[A-Za-z0-9._-]{1,100}):(issue|pr):(${NUMBER})$`);
const THREAD_REF = /^review_comment:([1-9][0-9]{0,15})$/;

export const TARGET_REF_RULE = 'must be owner/repo#number (a GitHub issue or pull request)';
export const THREAD_REF_RULE = 'must be review_comment:<comment id>';

export function parseTargetRef(targetRef: string): GithubTarget | null {
  const m = TARGET_REF.exec(targetRef);
  return m ? { owner: m[1]!, repo: m[2]!, number: Number(m[3]) } : null;
}

/** The review comment a `review_comment:<id>` threadRef names, or null. */
export function parseThreadRef(threadRef: string): number | null {
  const m = THREAD_REF.exec(threadRef);
  return m ? Number(m[1]) : null;
}

const asObj = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const commentId = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : null);

/** The handle of an event of a GitHub source, or null (other events, workflow runs, pushes). */
export function deliveryHandleOf(event: StoredEvent | null): DeliveryHandle | null {
  if (!event || !event.type.startsWith('github.') || event.subject === null) return null;
  const m = SUBJECT.exec(event.subject);
  if (!m) return null;
  const targetRef = `${m[1]}/${m[2]}#${m[4]}`;
  if (event.type === 'github.pull_request_review_comment') {
    const comment = asObj(asObj(event.data).comment);
    const thread = commentId(comment.in_reply_to_id) ?? commentId(comment.id);
    return { provider: 'github', surface: 'review_comment', targetRef, threadRef: thread === null ? null : `review_comment:${thread}`, replyMode: 'reply' };
  }
  const surface: GithubSurface = event.type === 'github.pull_request' ? 'pull_request_comment' : 'issue_comment';
  return { provider: 'github', surface, targetRef, threadRef: null, replyMode: 'comment' };
}

/**
 * An entry just built, with its handle added beside its fields (null when it has none). It is
 * added in place, not copied: spreading a dozen fields into a new object cost ten times more than
 * building the entry (a page is up to 1,000 of them).
 */
export function withDeliveryHandle<T extends { event: StoredEvent | null }>(entry: T): T & { deliveryHandle: DeliveryHandle | null } {
  const out = entry as T & { deliveryHandle: DeliveryHandle | null };
  out.deliveryHandle = deliveryHandleOf(entry.event);
  return out;
}

/**
 * What a GitHub handle offers (AgentInbox v1.0.3 `githubDeliveryOperationsForHandle`: the same
 * names, titles and input schemas), and the one check of an operation's input. svc is stricter
 * than AgentInbox in two ways: an operation must be one the handle's surface lists (AgentInbox
 * runs `merge_pull_request` on an issue handle too), and an input is a strict object (an unknown
 * key is 400, not ignored). A comment body is at most GitHub's 65,536 characters.
 */
import { z } from 'zod';
import { errors, type Issue } from '../../core/index.js';
import type { DeliveryHandle, GithubSurface } from './handles.js';

export const GITHUB_OPERATIONS = ['add_comment', 'reply_in_review_thread', 'close_issue', 'reopen_issue', 'merge_pull_request'] as const;
export type GithubOperation = (typeof GITHUB_OPERATIONS)[number];

export interface OperationDescriptor {
  name: GithubOperation;
  title: string;
  inputSchema: Record<string, unknown>;
  /** The operation `send` runs: the surface's one text reply. */
  canonicalTextAlias?: true;
}

/** GitHub's limit for an issue or review comment body. */
export const MAX_BODY_CHARS = 65_536;

const bodySchema = () => ({ type: 'object', additionalProperties: false, required: ['body'], properties: { body: { type: 'string', minLength: 1 } } });
const emptySchema = () => ({ type: 'object', additionalProperties: false, properties: {} });
const mergeSchema = () => ({
  type: 'object',
  additionalProperties: false,
  properties: { mergeMethod: { type: 'string', enum: ['merge', 'squash', 'rebase'] }, commitTitle: { type: 'string' }, commitMessage: { type: 'string' } },
});

const addComment = (): OperationDescriptor => ({ name: 'add_comment', title: 'Add Comment', inputSchema: bodySchema(), canonicalTextAlias: true });

const BY_SURFACE: Record<GithubSurface, () => OperationDescriptor[]> = {
  review_comment: () => [{ name: 'reply_in_review_thread', title: 'Reply In Review Thread', inputSchema: bodySchema(), canonicalTextAlias: true }],
  issue_comment: () => [
    addComment(),
    { name: 'close_issue', title: 'Close Issue', inputSchema: emptySchema() },
    { name: 'reopen_issue', title: 'Reopen Issue', inputSchema: emptySchema() },
  ],
  pull_request_comment: () => [
    addComment(),
    { name: 'close_issue', title: 'Close Pull Request', inputSchema: emptySchema() },
    { name: 'reopen_issue', title: 'Reopen Pull Request', inputSchema: emptySchema() },
    { name: 'merge_pull_request', title: 'Merge Pull Request', inputSchema: mergeSchema() },
  ],
};

/** The operations of a GitHub handle; none for a surface GitHub's adapter does not know (as AgentInbox answers). */
export function githubOperations(handle: DeliveryHandle): OperationDescriptor[] {
  return Object.hasOwn(BY_SURFACE, handle.surface) ? BY_SURFACE[handle.surface as GithubSurface]() : [];
}

const Body = z
  .string()
  .max(MAX_BODY_CHARS, `at most ${MAX_BODY_CHARS} characters (GitHub's limit)`)
  .refine((s) => s.trim() !== '', 'must not be empty');

const INPUTS = {
  add_comment: z.strictObject({ body: Body }),
  reply_in_review_thread: z.strictObject({ body: Body }),
  close_issue: z.strictObject({}),
  reopen_issue: z.strictObject({}),
  merge_pull_request: z.strictObject({
    mergeMethod: z.enum(['merge', 'squash', 'rebase']).optional(),
    commitTitle: z.string().max(1024).optional(),
    commitMessage: z.string().max(MAX_BODY_CHARS).optional(),
  }),
} satisfies Record<GithubOperation, z.ZodObject>;

export type OperationInput = { body?: string; mergeMethod?: 'merge' | 'squash' | 'rebase'; commitTitle?: string; commitMessage?: string };

/**
 * The input checked against the operation's schema; 400 invalid_request otherwise, each issue at
 * `at(path)` (invoke: `input.<field>`; send: the payload's text).
 */
export function checkInput(operation: GithubOperation, input: unknown, at: (path: string[]) => string): OperationInput {
  const parsed = INPUTS[operation].safeParse(input);
  if (parsed.success) return parsed.data as OperationInput;
  const issues: Issue[] = parsed.error.issues.map((i) => ({
    path: at(i.path.map(String)),
    message: i.code === 'unrecognized_keys' ? `unknown field${i.keys.length > 1 ? 's' : ''} ${i.keys.join(', ')}` : i.message,
  }));
  throw errors.invalidRequest(issues);
}

/** What AgentInbox's answers say an operation did. */
export const NOTES: Record<GithubOperation, string> = {
  add_comment: 'sent GitHub issue comment',
  reply_in_review_thread: 'sent GitHub review comment reply',
  close_issue: 'closed GitHub issue',
  reopen_issue: 'reopened GitHub issue',
  merge_pull_request: 'merged GitHub pull request',
};

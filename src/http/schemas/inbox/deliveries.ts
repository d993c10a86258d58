/**
 * Deliveries through handles (AgentInbox v1.0.3 `/deliveries/send|actions|invoke`;
 * docs/agentinbox.md#deliveries): the handle an item carries, the request bodies (a handle whole
 * or as top-level fields) and the answers. Bodies are strict objects, as AgentInbox's are; the
 * service checks what a handle may name (src/inbox/outbound/).
 */
import { z } from 'zod';
import { GITHUB_OPERATIONS } from '../../../inbox/outbound/index.js';
import { OpenObject } from '../common.js';

const Name = z.string().min(1).max(100);
const Ref = z.string().min(1).max(300);

const handleFields = {
  provider: Name.openapi({ description: 'svc delivers to `github`; other providers have no operations' }),
  surface: Name.openapi({ description: 'github: `issue_comment`, `pull_request_comment` or `review_comment`' }),
  targetRef: Ref.openapi({ description: 'github: `owner/repo#number`', example: 'octo/hello#3' }),
  threadRef: z.string().max(300).nullable().optional().openapi({ description: 'github review threads: `review_comment:<comment id>`' }),
  replyMode: z.string().max(100).nullable().optional().openapi({ description: 'informational (`comment`, `reply`)' }),
};

export const DeliveryHandle = z
  .strictObject(handleFields)
  .openapi('DeliveryHandle', { description: 'Where an answer to an item goes: AgentInbox\'s handle, carried by entries of GitHub issues, pull requests and comments' });

/** The handle an entry carries (null: none); its threadRef and replyMode are always present. */
const target = {
  sourceId: z.string().min(1).max(100).optional().openapi({ description: 'the github source to deliver through (default: the one following the repository)' }),
  deliveryHandle: DeliveryHandle.optional(),
  provider: handleFields.provider.optional(),
  surface: handleFields.surface.optional(),
  targetRef: handleFields.targetRef.optional(),
  threadRef: handleFields.threadRef,
  replyMode: handleFields.replyMode,
};

const TARGET_DOC = 'The handle as `deliveryHandle`, or as top-level `provider`, `surface`, `targetRef` (+ `threadRef`, `replyMode`); not both.';

export const DeliveryActionsBody = z.strictObject(target).openapi('DeliveryActionsBody', { description: TARGET_DOC });

export const DeliverySendBody = z
  .strictObject({
    ...target,
    kind: Name.optional().openapi({ description: 'shown back in the answer (default `reply`)' }),
    payload: OpenObject.openapi({ description: '`{text}` (or `{body}`): at most 65,536 characters, GitHub\'s limit' }),
  })
  .openapi('DeliverySendBody', { description: TARGET_DOC });

export const DeliveryInvokeBody = z
  .strictObject({
    ...target,
    operation: Name.openapi({ description: `one the handle offers (POST /deliveries/actions): ${GITHUB_OPERATIONS.join(', ')}` }),
    input: OpenObject.openapi({ description: "the operation's input (its inputSchema): `{body}` for comments, `{}` to close or reopen, `{mergeMethod?, commitTitle?, commitMessage?}` to merge" }),
  })
  .openapi('DeliveryInvokeBody', { description: TARGET_DOC });

const AnswerHandle = z.object({ provider: z.string(), surface: z.string(), targetRef: z.string(), threadRef: z.string().nullable(), replyMode: z.string().nullable() });

export const DeliveryActions = z
  .object({
    sourceId: z.string().nullable().openapi({ description: "the request's sourceId (null without one), as AgentInbox answers" }),
    deliveringSourceId: z.string().nullable().openapi({ description: 'the github source that would deliver; null when none follows the repository' }),
    handle: AnswerHandle,
    operations: z.array(
      z.object({
        name: z.enum(GITHUB_OPERATIONS),
        title: z.string(),
        inputSchema: OpenObject,
        canonicalTextAlias: z.literal(true).optional().openapi({ description: 'the operation `send` runs' }),
      }),
    ),
  })
  .openapi('DeliveryActions');

export const DeliveryAttempt = AnswerHandle.extend({
  deliveryId: z.string().openapi({ example: 'dlv_01J0000000000000000000000' }),
  kind: z.string().openapi({ description: "send: the request's kind; invoke: the operation" }),
  payload: OpenObject.openapi({ description: "send: the request's payload; invoke: its input" }),
  status: z.literal('sent'),
  createdAt: z.string(),
  note: z.string().openapi({ example: 'sent GitHub issue comment' }),
  operation: z.enum(GITHUB_OPERATIONS),
  sourceId: z.string().openapi({ description: 'the github source whose host and credential delivered it' }),
  result: z
    .object({
      url: z.string().nullable().openapi({ description: "the page of the comment made, or of the issue or pull request changed (null for a merge)" }),
      commentId: z.number().int().optional(),
      state: z.string().optional(),
      sha: z.string().optional(),
    })
    .openapi({ description: 'what GitHub answered' }),
}).openapi('DeliveryAttempt');

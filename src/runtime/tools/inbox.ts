/**
 * `reply_to_entry` (docs/tools.md#inbox-replies): an agent woken by an inbox notification answers
 * on the conversation the entry came from (a GitHub issue or pull request, or a review thread),
 * through the inbox's delivery handle of that entry. The model names an entry it received and a
 * text, nothing else: the address and the credential come from svc's records (an entry of another
 * agent is not found), and the only operation is a comment; closing, reopening and merging stay
 * on the inbox socket and the CLI. Class `network` (text leaves for a public site), so a turn
 * answering an integration or a stranger asks the operator first
 * (docs/security.md#tool-policy). The inbox's side is InboxReplies (src/inbox/outbound/replies.ts),
 * passed in: the runtime never imports the inbox.
 */
import { z } from 'zod';
import { defineTool } from './define.js';
import type { ToolDeps } from './types.js';

/** GitHub's limit for a comment body. */
const MAX_TEXT_CHARS = 65_536;

export function inboxTools(deps: ToolDeps) {
  return [
    defineTool(
      {
        name: 'reply_to_entry',
        class: 'network',
        description:
          'Answer on the GitHub issue, pull request or review thread an inbox entry you received came from: posts `text` as a comment there ' +
          "(with the operator's GitHub credential) and returns {url, targetRef, operation, deliveryId}. entry_id is the entryId of an entry in a " +
          'notification you were sent. It only comments: it cannot close, reopen or merge anything, nor address another issue.',
        args: z.strictObject({
          entry_id: z
            .string()
            .regex(/^ent_[0-9A-HJKMNP-TV-Z]{26}$/, 'must be an entry id (ent_ + ULID)')
            .describe('the entryId of the inbox entry to answer (from the notification)'),
          text: z.string().min(1).max(MAX_TEXT_CHARS).refine((t) => t.trim() !== '', 'must not be empty').describe('the comment, in GitHub markdown'),
        }),
        run: (ctx, a) => deps.inboxReplies.reply({ agentId: ctx.agentId, entryId: a.entry_id, text: a.text, signal: ctx.signal }),
      },
      deps.logger,
    ),
  ];
}

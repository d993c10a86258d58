/**
 * `send_brief`: a `progress` brief to the operator through BriefService (the same row and
 * `brief_created` event every brief gets), linked to the turn and the message it answers. The
 * turn's final reply is the `result` brief; this is for news on the way there.
 */
import { z } from 'zod';
import type { ToolDeps } from './types.js';
import { defineTool } from './define.js';

const NonBlank = z.string().trim().min(1);

export function briefTools(deps: ToolDeps) {
  const { briefs, agents, store, logger } = deps;
  return [
    defineTool(
      {
        name: 'send_brief',
        class: 'write',
        description:
          'Send the operator a short progress brief now (a title and a text), e.g. what was found or what is being done next. ' +
          'Your final answer is delivered as the result brief anyway: do not repeat it here.',
        args: z.strictObject({
          title: NonBlank.max(200).describe('a one-line headline'),
          text: NonBlank.describe('the brief itself'),
        }),
        run: (ctx, a) =>
          store.tx(() => {
            agents.assertWritable(ctx.agentId);
            return briefs.create({
              agentId: ctx.agentId,
              kind: 'progress',
              title: a.title,
              text: a.text,
              turnId: ctx.turnId,
              messageId: ctx.messageId,
            });
          }),
      },
      logger,
    ),
  ];
}

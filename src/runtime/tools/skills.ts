/**
 * `open_skill`: the model reads one of its effective skills (SkillUse.open: SKILL.md by default,
 * or a file under the skill's directory, never outside it). Opening appends `skill_opened`.
 */
import { z } from 'zod';
import type { ToolDeps } from './types.js';
import { defineTool } from './define.js';

export function skillTools(deps: ToolDeps) {
  const { skillUse, logger } = deps;
  return [
    defineTool(
      {
        name: 'open_skill',
        class: 'read',
        description:
          'Open one of your skills (listed in the system prompt) to read its instructions: SKILL.md by default, or a file under the skill directory that SKILL.md names.',
        args: z.strictObject({
          name: z.string().trim().min(1).max(200).describe('the skill name'),
          file: z.string().trim().min(1).max(1024).optional().describe('a path relative to the skill directory (default SKILL.md)'),
        }),
        run: (ctx, a) => skillUse.open(ctx.agentId, ctx.turnId, a.name, a.file),
      },
      logger,
    ),
  ];
}

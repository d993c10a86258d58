/**
 * `read_tool_artifact`: the model reads what one of its earlier tool calls left (a result too long
 * for the prompt, a patch's diff, a fetched page), a slice at a time. Only the agent's own
 * executions: another agent's id is not found.
 */
import { z } from 'zod';
import type { ToolDeps } from './types.js';
import { defineTool, fittingRead } from './define.js';

export function executionTools(deps: ToolDeps) {
  const { executions, config, logger } = deps;
  return [
    defineTool(
      {
        name: 'read_tool_artifact',
        class: 'read',
        description:
          'Read an artifact of one of your earlier tool calls (a long result cut in the middle, a diff, a fetched page): the marker in a cut result names the ' +
          'tool_execution_id, the index and the offset to read on from. Returns content from offset (characters) and next_offset (null at the end).',
        args: z.strictObject({
          tool_execution_id: z.string().min(1).max(64).describe('the tool execution id (tex_…)'),
          index: z.number().int().min(0).max(1000).describe('the artifact index'),
          offset: z.number().int().min(0).optional().describe('the character to start from (default 0)'),
          max_chars: z.number().int().min(1).optional().describe('the most characters to return (default and maximum: what fits in one tool result)'),
        }),
        run: (ctx, a) =>
          fittingRead(config.values.tools.result_max_bytes, a.max_chars, (max) => {
            const { artifact_index: _holon, ...view } = executions.artifact(ctx.agentId, a.tool_execution_id, a.index, { offset: a.offset ?? 0, maxChars: max });
            return view;
          }),
      },
      logger,
    ),
  ];
}

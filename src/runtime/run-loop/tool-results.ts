/**
 * What a tool call's result costs the prompt: at most `[tools] result_max_bytes`. A longer result
 * reaches the model as its head and tail around a marker that says how much was cut and how to
 * read it (`read_tool_artifact` with the execution id and the artifact index); the whole result is
 * kept as that artifact of the tool execution.
 */
import { ARTIFACTS_PER_EXECUTION, cut } from '../executions/index.js';
import type { ToolCall } from '../providers/index.js';
import type { Tool, ToolOutcome } from '../tools/index.js';
import type { ToolClass } from '../../core/index.js';

/** The classes of one call: the tool's, plus those its arguments add. */
export function classesOf(tool: Tool | undefined, call: ToolCall): ToolClass[] {
  return tool ? [tool.class, ...(tool.extraClasses?.(call.arguments) ?? [])] : [];
}

export function capResult(outcome: ToolOutcome, executionId: string, maxBytes: number): ToolOutcome {
  const total = Buffer.byteLength(outcome.content);
  if (total <= maxBytes || !executionId) return outcome;
  const kept = (outcome.artifacts ?? []).slice(0, ARTIFACTS_PER_EXECUTION - 1);
  const index = kept.length;
  const head = cut(outcome.content, Math.floor((maxBytes * 2) / 3));
  const tail = tailOf(outcome.content, Math.floor(maxBytes / 3));
  const cutBytes = total - Buffer.byteLength(head) - Buffer.byteLength(tail);
  const read = JSON.stringify({ tool_execution_id: executionId, index, offset: head.length });
  const marker = `\n\n[… ${cutBytes} bytes cut from the middle of this result (${total} bytes in all). The whole result is artifact ${index} of tool execution ${executionId}; read_tool_artifact ${read} reads on from here.]\n\n`;
  return {
    ...outcome,
    content: head + marker + tail,
    artifacts: [...kept, { kind: 'result', name: 'the whole result', media_type: 'text/plain', content: outcome.content }],
  };
}

/** The last `maxBytes` bytes of UTF-8 at most, starting on a character boundary. */
function tailOf(text: string, maxBytes: number): string {
  const buf = Buffer.from(text);
  return buf.subarray(Math.max(0, buf.length - maxBytes)).toString('utf8').replace(/^\uFFFD+/, '');
}

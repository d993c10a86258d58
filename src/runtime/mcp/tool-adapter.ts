/**
 * An MCP server's tools as svc's tools: the name models see (`NAME__tool`, within OpenAI's
 * `^[A-Za-z0-9_-]{1,64}$`), the server's input schema passed through (as an object schema), the
 * class the tool policy checks, and `execute`, which hands the model's arguments to the server
 * and turns its answer into the text the model reads. What cannot be offered (a name that does
 * not map, a schema over the size limit, tools past the limit) is skipped with a warning in the
 * server's state. Nothing here throws into the run loop: every failure is a tool error.
 */
import type { Logger } from 'pino';
import { AppError, errors, type ToolClass } from '../../core/index.js';
import type { McpServerConfig } from '../../config/index.js';
import { refused, type Tool, type ToolContext, type ToolOutcome } from '../tools/index.js';
import type { CallResult, ListedTool } from './types.js';

/** Tools offered per server at most (a server listing more is cut, with a warning). */
export const MAX_TOOLS_PER_SERVER = 128;
/** The JSON of one tool's input schema at most. */
export const MAX_SCHEMA_BYTES = 64 * 1024;
/** A tool's description is cut to this many characters (it goes into every request of a turn). */
export const MAX_DESCRIPTION_CHARS = 4096;
const MODEL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Calls a tool on the server; throws an AppError (mcp_timeout, mcp_server_unavailable, …). */
export type CallFn = (tool: string, args: Record<string, unknown>, ctx: ToolContext) => Promise<CallResult>;

/** The tools of a listing as svc offers them, and what was skipped. */
export function adaptTools(server: string, config: McpServerConfig, listed: readonly ListedTool[], call: CallFn, logger: Logger): { tools: Tool[]; warnings: string[] } {
  const tools: Tool[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const t of listed) {
    if (tools.length === MAX_TOOLS_PER_SERVER) {
      warnings.push(`${listed.length - MAX_TOOLS_PER_SERVER} tools past the first ${MAX_TOOLS_PER_SERVER} are not offered`);
      break;
    }
    const modelName = `${server}__${t.name}`;
    if (!MODEL_NAME.test(modelName)) {
      warnings.push(`tool ${JSON.stringify(t.name.slice(0, 80))} is not offered: ${modelName.length > 64 ? 'its name is too long' : 'its name has characters other than letters, digits, "_" and "-"'}`);
      continue;
    }
    if (seen.has(modelName)) {
      warnings.push(`tool ${JSON.stringify(t.name)} is listed twice; offered once`);
      continue;
    }
    const parameters = objectSchema(t.inputSchema);
    const size = Buffer.byteLength(JSON.stringify(parameters));
    if (size > MAX_SCHEMA_BYTES) {
      warnings.push(`tool ${JSON.stringify(t.name)} is not offered: its input schema is ${size} bytes (at most ${MAX_SCHEMA_BYTES})`);
      continue;
    }
    seen.add(modelName);
    tools.push(adapt(server, t, modelName, parameters, config.tool_classes[t.name] ?? config.class, call, logger));
  }
  return { tools, warnings };
}

function adapt(server: string, t: ListedTool, modelName: string, parameters: Record<string, unknown>, cls: ToolClass, call: CallFn, logger: Logger): Tool {
  const description = (t.description ?? t.title ?? '').slice(0, MAX_DESCRIPTION_CHARS);
  return {
    name: modelName,
    description,
    parameters,
    class: cls,
    async execute(ctx, args): Promise<ToolOutcome> {
      try {
        if (ctx.signal.aborted) throw errors.toolAborted(modelName);
        if (args === null || typeof args !== 'object' || Array.isArray(args)) {
          throw errors.invalidToolArguments(modelName, [{ path: '', message: 'the arguments must be a JSON object' }]);
        }
        const result = await call(t.name, args, ctx);
        const text = resultText(result);
        if (result.isError === true) throw errors.mcpToolError(modelName, text || '(no message)');
        return { ok: true, content: text, data: { server, tool: t.name } };
      } catch (err) {
        if (err instanceof AppError) return refused(err);
        logger.error({ err, tool: modelName, agent_id: ctx.agentId, turn_id: ctx.turnId }, 'MCP tool failed unexpectedly');
        return refused(errors.toolFailed(modelName, err instanceof Error ? err.message : String(err)));
      }
    },
  };
}

/** The server's input schema as providers take it: an object schema, without `$schema`. */
export function objectSchema(schema: unknown): Record<string, unknown> {
  const { $schema: _drop, ...rest } = schema !== null && typeof schema === 'object' && !Array.isArray(schema) ? (schema as Record<string, unknown>) : {};
  return { ...rest, type: 'object' };
}

/**
 * What the model reads of a result: the text parts joined; other parts described by type and size
 * (their bytes never reach the model as base64); the structured content as JSON when there is no text.
 */
export function resultText(result: CallResult): string {
  const parts: string[] = [];
  let sawText = false;
  for (const c of Array.isArray(result.content) ? result.content : []) {
    const part = c as Record<string, unknown>;
    switch (part.type) {
      case 'text':
        sawText = true;
        parts.push(String(part.text ?? ''));
        break;
      case 'image':
      case 'audio':
        parts.push(`[${part.type} ${String(part.mimeType ?? 'unknown type')}, ${base64Bytes(part.data)} bytes]`);
        break;
      case 'resource': {
        const r = (part.resource ?? {}) as Record<string, unknown>;
        if (typeof r.text === 'string') {
          sawText = true;
          parts.push(`[resource ${String(r.uri ?? '')}]\n${r.text}`);
        } else parts.push(`[resource ${String(r.uri ?? '')} ${String(r.mimeType ?? 'unknown type')}, ${base64Bytes(r.blob)} bytes]`);
        break;
      }
      case 'resource_link':
        parts.push(`[resource link ${String(part.uri ?? '')}${part.name ? ` (${String(part.name)})` : ''}]`);
        break;
      default:
        parts.push(`[${String(part.type ?? 'unknown')} content]`);
    }
  }
  if (!sawText && result.structuredContent !== undefined) parts.unshift(JSON.stringify(result.structuredContent));
  else if (parts.length === 0 && result.toolResult !== undefined) parts.push(JSON.stringify(result.toolResult));
  return parts.join('\n');
}

function base64Bytes(data: unknown): number {
  if (typeof data !== 'string') return 0;
  const pad = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - pad);
}

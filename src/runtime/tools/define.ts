/**
 * The one way a tool is built: a zod schema for its arguments (also the JSON Schema the model is
 * offered), and a `run` that calls a domain service. `defineTool` does what every tool shares:
 * refuse to start once the run is aborted, validate the arguments, and turn the result or the
 * error into a `ToolOutcome`. Outcomes mirror the HTTP envelope: `{...result}` on success,
 * `{ok:false, code, error, ...extra}` on failure, so the model reads the same codes a client would.
 * Nothing here throws: a refused operation is an outcome the model can act on.
 */
import type { Logger } from 'pino';
import { z } from 'zod';
import { AppError, errors, type Issue, type ToolClass } from '../../core/index.js';
import type { Tool, ToolArtifact, ToolContext, ToolOutcome } from './types.js';

export interface ToolDefinition<S extends z.ZodObject> {
  name: string;
  description: string;
  class: ToolClass;
  extraClasses?(args: Record<string, unknown>): ToolClass[];
  args: S;
  /**
   * The service call; its (JSON-serialisable) result is what the model reads. A result made by
   * `withArtifacts(data, artifacts)` gives the model `data` and keeps the artifacts with the call.
   */
  run(ctx: ToolContext, args: z.output<S>): unknown;
}

export function defineTool<S extends z.ZodObject>(def: ToolDefinition<S>, logger: Logger): Tool {
  return {
    name: def.name,
    description: def.description,
    class: def.class,
    ...(def.extraClasses ? { extraClasses: def.extraClasses } : {}),
    parameters: jsonSchemaOf(def.args),
    async execute(ctx, raw) {
      try {
        if (ctx.signal.aborted) throw errors.toolAborted(def.name);
        const parsed = def.args.safeParse(raw ?? {});
        if (!parsed.success) throw errors.invalidToolArguments(def.name, issuesOf(parsed.error));
        return succeeded(await def.run(ctx, parsed.data));
      } catch (err) {
        if (err instanceof AppError) return refused(err);
        // A bug or an I/O failure: the turn goes on, the model is told, the log keeps the stack.
        logger.error({ err, tool: def.name, agent_id: ctx.agentId, turn_id: ctx.turnId }, 'tool failed unexpectedly');
        return refused(errors.toolFailed(def.name, err instanceof Error ? err.message : String(err)));
      }
    },
  };
}

/** The JSON envelope beside a slice of text a read tool returns (its ids, offsets, labels). */
const ENVELOPE_BYTES = 512;

/**
 * A read of a long text (an artifact, a memory) as large as one tool result can hold: `view(max)`
 * with `max` characters at most (the caller's, else all the result can hold), halved until its
 * JSON (escapes included) fits, so reading a text never makes a result too long for the prompt.
 */
export function fittingRead<T>(resultMaxBytes: number, maxChars: number | undefined, view: (max: number) => T): T {
  const budget = resultMaxBytes - ENVELOPE_BYTES;
  for (let max = Math.min(maxChars ?? budget, budget); ; max = Math.floor(max / 2)) {
    const out = view(max);
    if (Buffer.byteLength(JSON.stringify(out)) <= budget || max <= 1) return out;
  }
}

/** A `run` result that is more than data: artifacts kept with the call, or the end of the turn. */
class Extended {
  constructor(
    readonly data: unknown,
    readonly extra: Pick<ToolOutcome, 'artifacts' | 'endTurn'>,
  ) {}
}

/** What `run` returns to leave artifacts with the call (a patch's diffs, a fetched page): `data` still goes to the model. */
export function withArtifacts(data: unknown, artifacts: ToolArtifact[]): unknown {
  return new Extended(data, artifacts.length > 0 ? { artifacts } : {});
}

/** What `run` returns to end the turn after this round's calls (wait_for); `data` is what the model reads. */
export function endingTurn(data: unknown): unknown {
  return new Extended(data, { endTurn: true });
}

function succeeded(result: unknown): ToolOutcome {
  if (result instanceof Extended) return { ...succeeded(result.data), ...result.extra };
  return { ok: true, content: JSON.stringify(result), data: result };
}

/** A refused call as the model reads it: the HTTP error envelope of `err`. */
export function refused(err: AppError): ToolOutcome {
  const data = { ok: false, code: err.code, error: err.message, ...err.extra };
  return { ok: false, content: JSON.stringify(data), data };
}

/** JSON Schema of the arguments as providers take it (type object; no `$schema` key). */
function jsonSchemaOf(schema: z.ZodObject): Record<string, unknown> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  return rest;
}

function issuesOf(error: z.ZodError): Issue[] {
  return error.issues.map((i) => {
    const keys = i.code === 'unrecognized_keys' ? i.keys : [];
    return {
      path: i.path.map(String).join('.'),
      message: keys.length > 0 ? `unknown argument${keys.length > 1 ? 's' : ''} ${keys.join(', ')}` : i.message,
    };
  });
}

/** Schemas shared by both surfaces. */
import { z } from 'zod';
import '../openapi.js';
import { FAILURE_CATEGORIES } from '../../core/index.js';

export const ErrorResponse = z
  .looseObject({
    ok: z.literal(false),
    error: z.string(),
    code: z.string(),
    hint: z.string().optional(),
    agent_id: z.string().optional(),
    after_seq: z.number().int().min(0).optional(),
    event_seq: z.number().int().min(0).optional(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .openapi('ErrorResponse');

/** A non-negative integer in a query string. */
export const QueryInt = z
  .string()
  .regex(/^\d+$/, 'must be a non-negative integer')
  .transform((s) => Number(s))
  .pipe(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER));

export const QueryBool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** `limit` of a one-shot list: a positive integer; the first `limit` records in the list's order. */
export const ListLimit = QueryInt.pipe(z.number().int().min(1)).optional().openapi({ description: 'at most this many records, from the start of the list' });

/** The first `limit` items (all when no limit): the one reading of ListLimit. */
export function limitList<T>(items: T[], limit: number | undefined): T[] {
  return limit === undefined ? items : items.slice(0, limit);
}

/**
 * A strict object that also takes other spellings of some of its fields, such as the snake_case
 * query names AgentInbox's client sends (`agent_id` for `agentId`). An alias is validated like its
 * field; both spellings with different values are a 400; handlers see only the canonical names.
 */
export function withAliases<S extends z.ZodRawShape>(shape: S, aliases: Record<string, keyof S & string>) {
  const aliasShape: Record<string, z.ZodType> = {};
  for (const [alias, field] of Object.entries(aliases)) aliasShape[alias] = (shape[field] as z.ZodType).openapi({ description: `the same as ${field}` });
  return z
    .strictObject({ ...shape, ...aliasShape })
    .superRefine((v: Record<string, unknown>, ctx) => {
      for (const [alias, field] of Object.entries(aliases)) {
        if (v[alias] !== undefined && v[field] !== undefined && v[alias] !== v[field]) {
          ctx.addIssue({ code: 'custom', path: [alias], message: `${alias} and ${field} name the same field; send one of them` });
        }
      }
    })
    .transform((v: Record<string, unknown>) => {
      const out = { ...v };
      for (const [alias, field] of Object.entries(aliases)) {
        if (out[alias] !== undefined) out[field] = out[alias];
        delete out[alias];
      }
      return out as z.output<z.ZodObject<S>>;
    });
}

export const Ok = z.object({ ok: z.literal(true) });

export const AuthorityClass = z
  .enum(['operator_instruction', 'runtime_instruction', 'integration_signal', 'external_evidence'])
  .nullable()
  .optional();

export const OpenObject = z.record(z.string(), z.unknown());

/** The spec's failure_artifact (tasks, failure briefs, turns): one schema, one OpenAPI component. */
export const FailureArtifact = z
  .object({
    category: z.enum(FAILURE_CATEGORIES),
    kind: z.string(),
    summary: z.string(),
    exit_status: z.number().int().nullable().optional(),
    metadata: z.record(z.string(), z.string()).optional(),
    model_ref: z.string().nullable().optional(),
    provider: z.string().nullable().optional(),
    task_id: z.string().nullable().optional(),
    source_chain: z.array(z.string()).optional(),
    status: z.number().int().min(0).max(65535).nullable().optional(),
  })
  .openapi('FailureArtifact');

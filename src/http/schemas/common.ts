/** Schemas shared by both surfaces. */
import { z } from 'zod';
import '../openapi.js';
import { FAILURE_CATEGORIES } from '../../core/failure.js';

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

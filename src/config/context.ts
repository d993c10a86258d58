/**
 * `[context]` and `[models]`: how much of a model's window a prompt may use and what fills it
 * (docs/context.md). Every model has a context window and an output limit: a built-in catalog
 * for well-known models (src/runtime/models/specs.ts), overridden per model or per provider by
 * `[models.limits."provider/model"]` / `[models.limits."provider/*"]`; prices (USD per million
 * tokens) come from the catalog and `[models.pricing]` the same way.
 */
import { z } from 'zod';

const fraction = (min: number, max: number, dflt: number) => z.number().min(min).max(max).default(dflt);

/** `provider/model` or `provider/*` (every model of the provider). */
const MODEL_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}\/(\*|[^\s*]{1,200})$/;
/** A table keyed by model refs; a bad key is named with what it should be. */
const byModel = <T extends z.ZodType>(value: T) =>
  z.record(z.string(), value).superRefine((table, ctx) => {
    for (const key of Object.keys(table)) if (!MODEL_KEY.test(key)) ctx.addIssue({ code: 'custom', path: [key], message: 'the key must be a model ref "provider/model" or "provider/*"' });
  });

export const ContextConfigSchema = z
  .strictObject({
    // Project instructions: these files from the active workspace's root (and each directory from
    // there down to the working directory), at most this many bytes in all; 0 = none.
    instructions_files: z.array(z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'a file name, no path')).max(8).default(['AGENTS.md', 'CLAUDE.md']),
    instructions_max_bytes: z.number().int().min(0).max(1024 * 1024).default(32 * 1024),
    // Compact when the history passes this share of its budget; keep this share of it verbatim.
    compact_at: fraction(0.2, 0.95, 0.75),
    keep_recent: fraction(0.05, 0.6, 0.25),
    // A file replacing the built-in compaction prompt (prompts/compaction.md); '' = built in.
    compaction_prompt: z.string().default(''),
    // A tool result taking more than this share of the prompt budget is replaced in the prompt
    // by its head and tail with a handle to read the rest (read_tool_artifact).
    tool_result_share: fraction(0.01, 0.5, 0.1),
    // The window and output limit of a model neither the catalog nor [models.limits] knows.
    default_context_window: z.number().int().min(1024).max(100_000_000).default(128_000),
    default_max_output_tokens: z.number().int().min(16).max(10_000_000).default(8_192),
  })
  .refine((c) => c.keep_recent < c.compact_at, { path: ['keep_recent'], message: 'must be below compact_at' })
  .prefault({});

const Limits = z.strictObject({
  context_window: z.number().int().min(1024).max(100_000_000),
  max_output_tokens: z.number().int().min(16).max(10_000_000).optional(),
});

const usd = z.number().min(0).max(100_000);
const Pricing = z.strictObject({
  // USD per million tokens.
  input: usd,
  output: usd,
  cache_read: usd.optional(),
  cache_write: usd.optional(),
});

export const ModelsConfigSchema = z
  .strictObject({
    limits: byModel(Limits).default({}),
    pricing: byModel(Pricing).default({}),
  })
  .prefault({});

export type ContextConfig = z.infer<typeof ContextConfigSchema>;
export type ModelsConfig = z.infer<typeof ModelsConfigSchema>;
export type ModelPricing = z.infer<typeof Pricing>;

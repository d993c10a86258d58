/**
 * The shape of a tool-policy layer (docs/security.md#tool-policy): decisions per trust level and
 * tool class, rules per tool name and argument pattern, the brake's limits and the approval
 * timeout. The same schema validates `[policy]` in config.toml, each `[policy.templates.NAME]`,
 * and an agent's layer set through PATCH /api/control/agents/:id/policy; an unknown class, trust
 * level or malformed pattern is refused with its path.
 */
import { z } from 'zod';
import { AGENT_ID_PATTERN, DEFAULT_CLASS_DECISIONS, POLICY_DECISIONS, TOOL_CLASSES, TRUST_LEVELS, type ToolClass, type TrustLevel } from '../core/index.js';

const Decision = z.enum(POLICY_DECISIONS);

/** A tool name as tools and MCP servers spell them. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const PATTERN_MAX = 512;

/**
 * An argument pattern: `*` any run of characters except the shell's control characters, `?` one
 * character, `\` takes the next character literally; anything else matches itself.
 */
export function patternProblem(pattern: string): string | null {
  if (pattern.length > PATTERN_MAX) return `longer than ${PATTERN_MAX} characters`;
  if (/[\u0000-\u001f\u007f]/.test(pattern)) return 'control characters are not allowed';
  if (/(^|[^\\])(\\\\)*\\$/.test(pattern)) return 'ends with an unfinished escape "\\"';
  return null;
}

const Pattern = z.string().superRefine((p, ctx) => {
  const problem = patternProblem(p);
  if (problem) ctx.addIssue({ code: 'custom', message: `malformed pattern: ${problem}` });
});

export const PolicyRuleSchema = z.strictObject({
  tool: z.string().regex(TOOL_NAME, 'a tool name: letters, digits, "_", "." or "-"'),
  // Argument name -> pattern; every named argument must match (a missing argument matches only "*").
  arguments: z.record(z.string().min(1).max(64), Pattern).optional(),
  // The trust levels the rule applies to; absent: all.
  trust: z.array(z.enum(TRUST_LEVELS)).min(1).optional(),
  decision: Decision,
});
export type PolicyRule = z.infer<typeof PolicyRuleSchema>;

const ClassDecisions = z.partialRecord(z.enum(TOOL_CLASSES), Decision);

export const LIMIT_DEFAULTS = {
  // A runaway loop answers its own task results many times a second; a person rarely prompts an
  // agent more than a few times a minute, and long unattended runs come from timers and tasks.
  turns_per_hour: 1200,
  runtime_turns_in_a_row: 100,
  rounds_per_turn: 16,
  tool_calls_per_turn: 64,
  // Budgets (docs/context.md#budgets): 0 = none. Tokens are input + output as the provider
  // reports them; a day is a UTC calendar day; cost is USD at the model's prices.
  max_tokens_per_turn: 0,
  max_tokens_per_day: 0,
  max_cost_per_day: 0,
} as const;

const Limits = z.strictObject({
  turns_per_hour: z.number().int().min(1).max(100_000).optional(),
  runtime_turns_in_a_row: z.number().int().min(1).max(100_000).optional(),
  rounds_per_turn: z.number().int().min(1).max(1000).optional(),
  tool_calls_per_turn: z.number().int().min(1).max(10_000).optional(),
  max_tokens_per_turn: z.number().int().min(0).max(1e12).optional(),
  max_tokens_per_day: z.number().int().min(0).max(1e12).optional(),
  max_cost_per_day: z.number().min(0).max(1e6).optional(),
});
export type PolicyLimits = { [K in keyof typeof LIMIT_DEFAULTS]: number };

/** One layer: every field optional; a later layer (template, then agent) wins per cell. */
export const PolicyLayerSchema = z.strictObject({
  classes: z.partialRecord(z.enum(TRUST_LEVELS), ClassDecisions).optional(),
  rules: z.array(PolicyRuleSchema).max(256).optional(),
  limits: Limits.optional(),
  approval_timeout_s: z.number().int().min(10).max(30 * 24 * 3600).optional(),
});
export type PolicyLayer = z.infer<typeof PolicyLayerSchema>;

export const APPROVAL_TIMEOUT_DEFAULT_S = 3600;

const classDefaults = (trust: TrustLevel) =>
  z.strictObject(Object.fromEntries(TOOL_CLASSES.map((c) => [c, Decision.default(DEFAULT_CLASS_DECISIONS[trust][c])])) as Record<ToolClass, z.ZodDefault<typeof Decision>>).prefault({});

/** `[policy]` in config.toml: the base layer, complete (every default spelled), plus template layers. */
export const PolicyConfigSchema = z
  .strictObject({
    classes: z.strictObject(Object.fromEntries(TRUST_LEVELS.map((t) => [t, classDefaults(t)])) as Record<TrustLevel, ReturnType<typeof classDefaults>>).prefault({}),
    rules: z.array(PolicyRuleSchema).max(256).default([]),
    limits: z
      .strictObject(Object.fromEntries(Object.entries(LIMIT_DEFAULTS).map(([k, v]) => [k, Limits.shape[k as keyof typeof LIMIT_DEFAULTS].unwrap().default(v)])) as Record<keyof typeof LIMIT_DEFAULTS, z.ZodDefault<z.ZodNumber>>)
      .prefault({}),
    approval_timeout_s: z.number().int().min(10).max(30 * 24 * 3600).default(APPROVAL_TIMEOUT_DEFAULT_S),
    // The inbox agent that gets one entry per approval request (its targets tell a person); "" = none.
    notify_inbox: z.union([z.literal(''), z.string().regex(AGENT_ID_PATTERN, 'an inbox agent id (agt_… or a chosen id)')]).default(''),
    // Layers per agent template (the agent's `template`), between this one and the agent's own.
    templates: z.record(z.string().min(1).max(128), PolicyLayerSchema).default({}),
  })
  .prefault({});

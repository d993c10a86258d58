/**
 * Subscription filters (CONTRACT.md section 9): `{}` matches everything; `match` maps a dot path
 * over the event (`id`, `type`, `subject`, `time`, `data.*`, `metadata.*`) to a value or an array
 * of values (any of them); `expr` is a CEL expression over `event`, compiled once at creation with
 * @bufbuild/cel. AgentInbox's `metadata` and `payload` blocks are accepted too (filter-shortcuts.ts).
 * With several, an event must pass all of them.
 *
 * Match semantics: scalars compare with `===`; a path whose value is an array matches when any of
 * its elements equals any wanted value; a missing path matches nothing (not even `null`).
 * A CEL expression that fails at run time (a missing field, a type mismatch) or yields anything
 * but a boolean counts as no match and is logged at debug, never an error for the appender.
 */
import { createRequire } from 'node:module';
import type { CelResult } from '@bufbuild/cel';
import type { Logger } from 'pino';
import { errors } from '../core/errors.js';
import { compileShortcut, SHORTCUT_BLOCKS, type ShortcutBlock } from './filter-shortcuts.js';
import type { StoredEvent } from './streams.js';

export type MatchValue = string | number | boolean | null;

/** As received: unknown keys and bad match values are rejected by compileFilter (400 invalid_filter). */
export interface FilterSpec {
  match?: Record<string, unknown>;
  expr?: string;
  metadata?: Record<string, unknown>;
  payload?: Record<string, unknown>;
  [key: string]: unknown;
}

const FILTER_FIELDS = new Set(['match', 'expr', ...Object.keys(SHORTCUT_BLOCKS)]);

export interface CompiledFilter {
  test(event: StoredEvent): boolean;
}

const MATCH_ROOTS = new Set(['id', 'type', 'subject', 'time', 'data', 'metadata']);
/** Roots whose values are scalars: a deeper path under them can never match. */
const SCALAR_ROOTS = new Set(['id', 'type', 'subject', 'time']);
const MAX_EXPR_LENGTH = 4096;

/**
 * The CEL library costs ~17 MiB of memory once loaded, so it is loaded (synchronously, its
 * CommonJS build) the first time a filter uses `expr`, not when the daemon starts.
 */
let cel: { lib: typeof import('@bufbuild/cel'); env: ReturnType<typeof import('@bufbuild/cel').celEnv> } | null = null;
function loadCel() {
  if (!cel) {
    const lib = createRequire(import.meta.url)('@bufbuild/cel') as typeof import('@bufbuild/cel');
    cel = { lib, env: lib.celEnv() };
  }
  return cel;
}

/** An event as CEL sees it (`event.type`, `event.data.x`, ...). */
const SAMPLE_EVENT = { id: '', type: '', subject: '', time: '', data: {}, metadata: {}, sourceId: '', offset: 0 };

type Evaluator = (ctx: { event: unknown }) => CelResult;

/** Compile a filter; an invalid one throws 400 invalid_filter. */
export function compileFilter(spec: FilterSpec, logger?: Logger): CompiledFilter {
  const unknown = Object.keys(spec).filter((k) => !FILTER_FIELDS.has(k));
  if (unknown.length > 0) throw errors.invalidFilter(`unknown filter field ${unknown.join(', ')}; a filter has match, expr, metadata and/or payload`, { fields: unknown });
  const { match, expr } = spec;
  if (match !== undefined && (match === null || typeof match !== 'object' || Array.isArray(match))) throw errors.invalidFilter('match must be an object of dot path -> value(s)');
  if (expr !== undefined && typeof expr !== 'string') throw errors.invalidFilter('expr must be a string');
  const checks: Array<(event: StoredEvent) => boolean> = [];
  for (const [path, wanted] of Object.entries(match ?? {})) checks.push(compileMatch(path, wanted));
  for (const block of Object.keys(SHORTCUT_BLOCKS) as ShortcutBlock[]) {
    if (spec[block] !== undefined) checks.push(compileShortcut(block, spec[block]));
  }
  if (expr !== undefined) checks.push(compileExpr(expr, logger));
  if (checks.length === 0) return { test: () => true };
  return { test: (event) => checks.every((check) => check(event)) };
}

function compileMatch(path: string, wanted: unknown): (event: StoredEvent) => boolean {
  const parts = path.split('.');
  const root = parts[0]!;
  if (!MATCH_ROOTS.has(root) || parts.some((p) => p === '')) {
    throw errors.invalidFilter(`match path ${JSON.stringify(path)} must start with one of ${[...MATCH_ROOTS].join(', ')} and have no empty segments`, { path });
  }
  if (SCALAR_ROOTS.has(root) && parts.length > 1) throw errors.invalidFilter(`match path ${JSON.stringify(path)}: ${root} has no fields`, { path });
  const values: unknown[] = Array.isArray(wanted) ? wanted : [wanted];
  for (const v of values) {
    if (!isMatchValue(v)) throw errors.invalidFilter(`match values at ${JSON.stringify(path)} must be scalars or arrays of scalars`, { path });
  }
  const accepts = (actual: unknown) => values.some((v) => v === actual);
  return (event) => {
    const actual = valueAt(event, parts);
    if (actual === undefined) return false;
    return Array.isArray(actual) ? actual.some(accepts) : accepts(actual);
  };
}

function isMatchValue(v: unknown): v is MatchValue {
  return v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
}

function valueAt(event: StoredEvent, parts: string[]): unknown {
  let cur: unknown = event;
  for (const p of parts) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur) || !Object.hasOwn(cur, p)) return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}

function compileExpr(expr: string, logger?: Logger): (event: StoredEvent) => boolean {
  if (expr.trim() === '') throw errors.invalidFilter('expr must not be empty');
  if (expr.length > MAX_EXPR_LENGTH) throw errors.invalidFilter(`expr is longer than ${MAX_EXPR_LENGTH} characters`);
  let evaluate: Evaluator;
  try {
    const { lib, env } = loadCel();
    evaluate = lib.plan(env, lib.parse(expr)) as Evaluator;
  } catch (err) {
    throw errors.invalidFilter(`expr does not parse: ${(err as Error).message}`, { expr });
  }
  // The library has no public type checker: one trial run over an empty event catches unknown
  // functions and variables, and expressions that cannot be a condition (e.g. `event.type`).
  const trial = safeEval(evaluate, SAMPLE_EVENT);
  if (!trial.ok) {
    if (/unbound function|unresolved attribute/i.test(trial.message)) {
      throw errors.invalidFilter(`expr cannot be evaluated: ${trial.message}`, { expr });
    }
  } else if (typeof trial.value !== 'boolean') {
    throw errors.invalidFilter('expr must evaluate to a boolean', { expr });
  }
  return (event) => {
    const result = safeEval(evaluate, celView(event));
    if (result.ok) return result.value === true;
    logger?.debug({ expr, offset: event.offset, sourceId: event.sourceId, err: result.message }, 'filter expression failed; no match');
    return false;
  };
}

type Outcome = { ok: true; value: unknown } | { ok: false; message: string };

function safeEval(evaluate: Evaluator, event: unknown): Outcome {
  try {
    const value = evaluate({ event });
    return loadCel().lib.isCelError(value) ? { ok: false, message: value.message } : { ok: true, value };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}

function celView(e: StoredEvent): unknown {
  return { id: e.id, type: e.type, subject: e.subject, time: e.time, data: e.data ?? null, metadata: e.metadata ?? {}, sourceId: e.sourceId, offset: e.offset };
}

/**
 * Subscription filters (docs/inbox-api.md#subscriptions): `{}` matches everything; `match` maps a
 * dot path over the event (`id`, `type`, `subject`, `time`, `data.*`, `metadata.*`) to a value or
 * an array of values (any of them); `expr` is an expression, compiled once at creation, in one of
 * two languages told apart by the names it reads (docs/agentinbox.md#filters): CEL over `event`
 * (@bufbuild/cel, cel.ts), or AgentInbox's JEXL over `metadata`, `payload`, `eventVariant`,
 * `sourceType` and `sourceKey` (agentinbox-expr.ts). AgentInbox's `metadata` and `payload` blocks
 * are accepted too (filter-shortcuts.ts). With several, an event must pass all of them.
 *
 * Match semantics: scalars compare with `===`; a path whose value is an array matches when any of
 * its elements equals any wanted value; a missing path matches nothing (not even `null`).
 * An expression that fails at run time (a missing field, a type mismatch) counts as no match and
 * is logged at debug, never an error for the appender. A CEL expression must yield a boolean; an
 * AgentInbox one matches when its value is truthy, as on AgentInbox.
 *
 * Both languages run with a cost limit (cel.ts, agentinbox-expr.ts): an expression nesting too
 * deep (CEL: comprehensions deeper than MAX_COMPREHENSION_NESTING; AgentInbox's: brackets or its
 * tree), or one that goes over EVAL_COST_BASE on an empty event, is refused at creation (400
 * filter_too_costly). At run time an evaluation may use EVAL_COST_BASE units plus one per byte of
 * its event (as JSON), and all evaluations of one subscription in one append (or catch-up)
 * together PASS_COST_BASE plus one per byte of those events (a CostBudget): a filter linear in its
 * events fits (a scan of a list of small numbers costs ~1 unit per byte), and whatever it does
 * costs about what storing the events costs, not a power of it. An event whose evaluation goes
 * over is not matched; the matcher records it on the subscription.
 */
import type { Logger } from 'pino';
import { errors } from '../../core/index.js';
import { AGENTINBOX_NAMES, AgentInboxBindings, agentInboxTokenNames, compileAgentInbox, type SourceFacts, type SourceLookup } from './agentinbox-expr.js';
import { compileCel, MAX_COMPREHENSION_NESTING, type CelProgram, type ExprOutcome } from './cel.js';
import { compileShortcut, SHORTCUT_BLOCKS, type ShortcutBlock } from './filter-shortcuts.js';
import type { StoredEvent } from '../streams/index.js';

/** Cost units one CEL evaluation may use besides one per byte of its event. */
export const EVAL_COST_BASE = 10_000;
/** Cost units of one subscription's evaluations in one append or catch-up, besides one per byte of its events. */
export const PASS_COST_BASE = 1_000_000;

/**
 * What a subscription's CEL filter may still spend in one matching pass: the matcher makes one per
 * subscription and pass, and admits each event (its JSON length) before testing it.
 */
export class CostBudget {
  private left = PASS_COST_BASE;
  private eventBytes = 0;
  /** Events whose evaluation went over its limit, and the last one's offset. */
  overruns = 0;
  lastOverrun: number | null = null;

  admit(eventBytes: number): void {
    this.eventBytes = eventBytes;
    this.left += eventBytes;
  }

  /** The limit of the next evaluation. */
  limit(): number {
    return Math.max(0, Math.min(EVAL_COST_BASE + this.eventBytes, this.left));
  }

  spend(units: number, overrun: { offset: number } | null): void {
    this.left -= units;
    if (!overrun) return;
    this.overruns += 1;
    this.lastOverrun = overrun.offset;
  }
}

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
  /**
   * Without a budget, an expr gets EVAL_COST_BASE units. `sources` looks up the event's source for
   * AgentInbox's `sourceType` and `sourceKey` (undefined without it).
   */
  test(event: StoredEvent, budget?: CostBudget, sources?: SourceLookup): boolean;
}

type Check = (event: StoredEvent, budget?: CostBudget, sources?: SourceLookup) => boolean;

export interface CompileOptions {
  /** A filter stored before (loading at start-up): the creation-time cost refusals are skipped, the run-time limit is not. */
  stored?: boolean;
}

const MATCH_ROOTS = new Set(['id', 'type', 'subject', 'time', 'data', 'metadata']);
/** Roots whose values are scalars: a deeper path under them can never match. */
const SCALAR_ROOTS = new Set(['id', 'type', 'subject', 'time']);
const MAX_EXPR_LENGTH = 4096;

/** An event as CEL sees it (`event.type`, `event.data.x`, ...). */
const SAMPLE_EVENT = { id: '', type: '', subject: '', time: '', data: {}, metadata: {}, sourceId: '', offset: 0 };

/** Compile a filter; an invalid one throws 400 invalid_filter, one whose CEL is too costly 400 filter_too_costly. */
export function compileFilter(spec: FilterSpec, logger?: Logger, opts: CompileOptions = {}): CompiledFilter {
  const unknown = Object.keys(spec).filter((k) => !FILTER_FIELDS.has(k));
  if (unknown.length > 0) {
    throw errors.invalidFilter(
      `unknown filter field ${unknown.join(', ')}; a filter has match, expr, metadata and/or payload (an event's metadata fields go in metadata: {"metadata": {"${unknown[0]}": …}})`,
      { fields: unknown },
    );
  }
  const { match, expr } = spec;
  if (match !== undefined && (match === null || typeof match !== 'object' || Array.isArray(match))) throw errors.invalidFilter('match must be an object of dot path -> value(s)');
  if (expr !== undefined && typeof expr !== 'string') throw errors.invalidFilter('expr must be a string');
  const checks: Check[] = [];
  for (const [path, wanted] of Object.entries(match ?? {})) checks.push(compileMatch(path, wanted));
  for (const block of Object.keys(SHORTCUT_BLOCKS) as ShortcutBlock[]) {
    if (spec[block] !== undefined) checks.push(compileShortcut(block, spec[block]));
  }
  if (expr !== undefined) checks.push(compileExpr(expr, logger, opts));
  if (checks.length === 0) return { test: () => true };
  return { test: (event, budget, sources) => checks.every((check) => check(event, budget, sources)) };
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

function compileExpr(expr: string, logger: Logger | undefined, opts: CompileOptions): Check {
  if (expr.trim() === '') throw errors.invalidFilter('expr must not be empty');
  if (expr.length > MAX_EXPR_LENGTH) throw errors.invalidFilter(`expr is longer than ${MAX_EXPR_LENGTH} characters`);
  const language = exprLanguage(expr, opts);
  if (language.cel && !language.agentInbox) return celCheck(expr, language.cel, logger, opts);
  try {
    return agentInboxCheck(expr, logger, opts);
  } catch (err) {
    // A filter stored as CEL before AgentInbox's language was served stays CEL.
    if (opts.stored && language.cel) return celCheck(expr, language.cel, logger, opts);
    throw err;
  }
}

const namesAgentInbox = (names: ReadonlySet<string>) => [...names].some((n) => AGENTINBOX_NAMES.has(n));

/**
 * docs/agentinbox.md#filters: an expr is AgentInbox's when it reads one of its five names and not
 * `event` (reading both is refused by agentinbox-expr.ts, naming the mix), CEL otherwise. When CEL
 * cannot parse it, its tokens decide, so that an AgentInbox expression CEL's grammar refuses
 * (`a // 2`, `list[.x]`) is still read as AgentInbox's, and a broken one gets that language's error.
 */
function exprLanguage(expr: string, opts: CompileOptions): { cel?: CelProgram; agentInbox: boolean } {
  let cel: CelProgram;
  try {
    cel = compileCel(expr);
  } catch (err) {
    const names = agentInboxTokenNames(expr);
    if (namesAgentInbox(names) && !names.has('event')) return { agentInbox: true };
    throw errors.invalidFilter(`expr does not parse: ${(err as Error).message}`, { expr });
  }
  if (!namesAgentInbox(cel.names)) return { cel, agentInbox: false };
  // Stored before AgentInbox's language was served: it was accepted as CEL, so it stays CEL.
  if (opts.stored && cel.names.has('event')) return { cel, agentInbox: false };
  return { cel, agentInbox: true };
}

/** The run-time side both languages share: the budget, the log line on failure. */
function metered(expr: string, logger: Logger | undefined, run: (event: StoredEvent, limit: number, sources?: SourceLookup) => ExprOutcome): Check {
  return (event, budget, sources) => {
    const result = run(event, budget ? budget.limit() : EVAL_COST_BASE, sources);
    budget?.spend(result.cost, !result.ok && result.overBudget ? event : null);
    if (result.ok) return result.value === true;
    logger?.debug({ expr, offset: event.offset, sourceId: event.sourceId, err: result.message }, 'filter expression failed; no match');
    return false;
  };
}

function celCheck(expr: string, program: CelProgram, logger: Logger | undefined, opts: CompileOptions): Check {
  if (!opts.stored && program.nesting > MAX_COMPREHENSION_NESTING) {
    throw errors.filterTooCostly(`expr nests ${program.nesting} comprehensions (all, exists, exists_one, map, filter) in one another; at most ${MAX_COMPREHENSION_NESTING}`, { expr });
  }
  // The library has no public type checker: one trial run over an empty event catches unknown
  // functions and variables, and expressions that cannot be a condition (e.g. `event.type`).
  const trial = program.run({ event: SAMPLE_EVENT }, EVAL_COST_BASE);
  if (!trial.ok) {
    if (trial.overBudget && !opts.stored) throw errors.filterTooCostly(`expr costs more than ${EVAL_COST_BASE} units on an empty event`, { expr });
    if (/unresolved attribute/i.test(trial.message)) throw unboundNames(expr, program);
    if (/unbound function/i.test(trial.message)) throw errors.invalidFilter(`expr cannot be evaluated: ${trial.message}`, { expr });
  } else if (typeof trial.value !== 'boolean') {
    throw errors.invalidFilter('expr must evaluate to a boolean', { expr });
  }
  return metered(expr, logger, (event, limit) => program.run({ event: celView(event) }, limit));
}

/** The names a CEL expression reads that nothing binds (each tried alone), in a 400 that says what each language binds. */
function unboundNames(expr: string, program: CelProgram) {
  const unbound = [...program.names].filter((n) => n !== 'event' && !resolvesAlone(n));
  const which = unbound.length > 0 ? unbound.join(', ') : 'a name';
  return errors.invalidFilter(
    `expr reads ${which}, which neither filter language binds: svc's CEL has event (event.type, event.data…), AgentInbox's language has ${[...AGENTINBOX_NAMES].join(', ')}`,
    { expr, names: unbound },
  );
}

function resolvesAlone(name: string): boolean {
  try {
    const r = compileCel(name).run({ event: SAMPLE_EVENT }, EVAL_COST_BASE);
    return r.ok || !/unresolved attribute/i.test(r.message);
  } catch {
    return false;
  }
}

function agentInboxCheck(expr: string, logger: Logger | undefined, opts: CompileOptions): Check {
  const program = compileAgentInbox(expr, EVAL_COST_BASE, opts.stored);
  // The source of an event never changes its type or key: looked up once per source.
  const facts = new Map<string, SourceFacts | undefined>();
  const sourceOf = (event: StoredEvent, sources: SourceLookup | undefined) => () => {
    if (!sources) return undefined;
    if (!facts.has(event.sourceId)) facts.set(event.sourceId, sources(event.sourceId));
    return facts.get(event.sourceId);
  };
  return metered(expr, logger, (event, limit, sources) => {
    const result = program.run(new AgentInboxBindings(event, sourceOf(event, sources)), limit);
    // AgentInbox matches on a truthy value, not only on true.
    return result.ok ? { ...result, value: Boolean(result.value) } : result;
  });
}

function celView(e: StoredEvent): unknown {
  return { id: e.id, type: e.type, subject: e.subject, time: e.time, data: e.data ?? null, metadata: e.metadata ?? {}, sourceId: e.sourceId, offset: e.offset };
}

/**
 * CEL expressions of subscription filters (filters.ts), run with a cost limit. @bufbuild/cel 0.6
 * has no cost tracking, and a filter nesting `all` three deep over a 250-item list of one appended
 * event held the event loop for 11 seconds. So:
 *
 * - At compile time, comprehensions (the macros `all`, `exists`, `exists_one`, `map`, `filter`)
 *   may be nested at most MAX_COMPREHENSION_NESTING deep, counting only a comprehension inside
 *   another's loop (one in a range or a result runs once). Deeper is refused (filters.ts: 400
 *   filter_too_costly).
 * - At run time, every evaluation is metered in cost units and stops (throws, caught here) when
 *   it has used the limit it was given: a unit is about 100 ns of the interpreter's work. Charged:
 *   each comprehension's range (its elements, which the interpreter copies), each loop step, and
 *   each function or operator call: 1, plus the elements of the lists and maps it is given, plus
 *   one per 8 characters or bytes of the strings and bytes it is given (`+` of two lists, `in`,
 *   `contains`, `size` all walk their operands). Field selection and indexing are free: their cost
 *   is bounded by the expression's length.
 *
 * How the meter goes in: the parsed expression is rewritten so that every comprehension's range
 * and loop condition pass through COST_FN (a name CEL source cannot spell: `@` is not an
 * identifier character), and the planner gets a function resolver that answers COST_FN and wraps
 * every other function. The planner reads only `funcs`, `registry` and `namespace` of the
 * environment it is given (plan.js of the pinned 0.6 line); test/security/cel-cost.test.ts fails
 * if a release changes that.
 *
 * The library (~17 MiB once loaded) is loaded, synchronously from its CommonJS build, the first
 * time a filter uses `expr`, not when the daemon starts.
 */
import { createRequire } from 'node:module';
import type { CelResult } from '@bufbuild/cel';

type Cel = typeof import('@bufbuild/cel');
type Expr = ReturnType<Cel['parse']>['expr'];
type Env = ReturnType<Cel['celEnv']>;
type Resolver = Env['funcs'];
type Group = NonNullable<ReturnType<Resolver['find']>>;

/** Comprehensions nested deeper than this (one in another's loop) are refused at creation. */
export const MAX_COMPREHENSION_NESTING = 2;

const COST_FN = '@svc_cost';
const CHARS_PER_UNIT = 8;

/** Thrown by the meter; caught by the library's plan() and turned into a CEL error. */
const OVER_BUDGET = new Error('the filter went over its cost limit');

let meter: { left: number } | null = null;

function charge(units: number): void {
  if (meter === null) return;
  meter.left -= units;
  if (meter.left < 0) throw OVER_BUDGET;
}

function units(v: unknown): number {
  if (typeof v === 'string' || v instanceof Uint8Array) return Math.ceil(v.length / CHARS_PER_UNIT);
  if (v !== null && typeof v === 'object') {
    const size = (v as { size?: unknown }).size;
    if (typeof size === 'number') return size;
  }
  return 0;
}

let cel: { lib: Cel; env: Env } | null = null;

function loadCel(): { lib: Cel; env: Env } {
  if (!cel) {
    const lib = createRequire(import.meta.url)('@bufbuild/cel') as Cel;
    const std = lib.celEnv();
    const env = { namespace: std.namespace, registry: std.registry, variables: std.variables, funcs: metered(std.funcs) } as unknown as Env;
    cel = { lib, env };
  }
  return cel;
}

/** The standard functions, each charging for its operands before it runs; COST_FN charges and passes its argument on. */
function metered(std: Resolver): Resolver {
  const groups = new Map<string, Group>();
  const costFn = { name: COST_FN, [Symbol.iterator]: () => [][Symbol.iterator](), call: (_id: number, _t: unknown, args: unknown[]) => (charge(1 + units(args[0])), args[0]) };
  const find = (name: string): Group | undefined => {
    if (name === COST_FN) return costFn as unknown as Group;
    const group = std.find(name);
    if (!group) return undefined;
    let wrapped = groups.get(name);
    if (!wrapped) {
      wrapped = {
        name,
        [Symbol.iterator]: () => group[Symbol.iterator](),
        call: (id, target, args) => {
          charge(args.reduce<number>((sum, a) => sum + units(a), 1 + units(target)));
          return group.call(id, target, args);
        },
      } as Group;
      groups.set(name, wrapped);
    }
    return wrapped;
  };
  return { find, [Symbol.iterator]: () => std[Symbol.iterator]() } as unknown as Resolver;
}

/** The expressions directly below `e` (a comprehension's are handled by the callers). */
function children(e: Expr): Expr[] {
  const k = e.exprKind;
  switch (k.case) {
    case 'callExpr':
      return [...(k.value.target ? [k.value.target] : []), ...k.value.args];
    case 'selectExpr':
      return k.value.operand ? [k.value.operand] : [];
    case 'listExpr':
      return k.value.elements;
    case 'structExpr':
      return k.value.entries.flatMap((en) => [...(en.keyKind.case === 'mapKey' ? [en.keyKind.value] : []), ...(en.value ? [en.value] : [])]);
    default:
      return [];
  }
}

/** How deep comprehensions are nested, counting one only inside another's loop condition or step. */
function comprehensionNesting(e: Expr | undefined): number {
  if (!e) return 0;
  if (e.exprKind.case !== 'comprehensionExpr') return Math.max(0, ...children(e).map(comprehensionNesting));
  const c = e.exprKind.value;
  return Math.max(
    comprehensionNesting(c.iterRange),
    comprehensionNesting(c.accuInit),
    1 + Math.max(comprehensionNesting(c.loopCondition), comprehensionNesting(c.loopStep)),
    comprehensionNesting(c.result),
  );
}

/** Every comprehension's range and loop condition through COST_FN (in place). */
function instrument(e: Expr | undefined): void {
  if (!e) return;
  if (e.exprKind.case !== 'comprehensionExpr') {
    for (const child of children(e)) instrument(child);
    return;
  }
  const c = e.exprKind.value;
  for (const part of [c.iterRange, c.accuInit, c.loopCondition, c.loopStep, c.result]) instrument(part);
  c.iterRange = costed(c.iterRange);
  c.loopCondition = costed(c.loopCondition);
}

function costed(e: Expr | undefined): Expr | undefined {
  if (!e) return e;
  return { ...e, exprKind: { case: 'callExpr', value: { function: COST_FN, args: [e] } } } as unknown as Expr;
}

/** The variables an expression reads: identifiers not bound by an enclosing comprehension. */
function freeNames(e: Expr | undefined, bound: ReadonlySet<string>, out: Set<string>): Set<string> {
  if (!e) return out;
  const k = e.exprKind;
  if (k.case === 'identExpr') {
    if (!bound.has(k.value.name)) out.add(k.value.name);
  } else if (k.case === 'comprehensionExpr') {
    const c = k.value;
    freeNames(c.iterRange, bound, out);
    freeNames(c.accuInit, bound, out);
    const inner = new Set([...bound, c.iterVar, c.accuVar]);
    for (const part of [c.loopCondition, c.loopStep, c.result]) freeNames(part, inner, out);
  } else {
    for (const child of children(e)) freeNames(child, bound, out);
  }
  return out;
}

/** What an evaluation of a filter expression gives (this file's CEL, and agentinbox-expr.ts). */
export type ExprOutcome = { ok: true; value: unknown; cost: number } | { ok: false; message: string; cost: number; overBudget: boolean };

export interface CelProgram {
  /** comprehensionNesting of the expression. */
  readonly nesting: number;
  /** The variables it reads (svc binds only `event`). */
  readonly names: ReadonlySet<string>;
  /** Evaluate with at most `limit` cost units; `cost` is what it used. */
  run(vars: Record<string, unknown>, limit: number): ExprOutcome;
}

/** Parse and plan (throws the library's Error when the expression does not parse). */
export function compileCel(expr: string): CelProgram {
  const { lib, env } = loadCel();
  const parsed = lib.parse(expr);
  const nesting = comprehensionNesting(parsed.expr);
  const names = freeNames(parsed.expr, new Set(), new Set());
  instrument(parsed.expr);
  const evaluate = lib.plan(env, parsed) as (vars: Record<string, unknown>) => CelResult;
  return {
    nesting,
    names,
    run(vars, limit) {
      const m = { left: limit };
      meter = m;
      let value: CelResult;
      try {
        value = evaluate(vars);
      } catch (err) {
        value = lib.celError(err instanceof Error ? err.message : String(err));
      } finally {
        meter = null;
      }
      const cost = Math.min(limit, limit - m.left);
      if (m.left < 0) return { ok: false, message: OVER_BUDGET.message, cost, overBudget: true };
      if (lib.isCelError(value)) return { ok: false, message: value.message, cost, overBudget: false };
      return { ok: true, value, cost };
    },
  };
}

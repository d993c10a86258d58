/**
 * AgentInbox's filter expressions (docs/agentinbox.md#filters): JEXL over `metadata`, `payload`,
 * `eventVariant`, `sourceType` and `sourceKey`, with its eight helpers (agentinbox-functions.ts),
 * matching when the value is truthy.
 *
 * Parsed by jexl 2.3.0, the library and version AgentInbox 1.0.3 evaluates with, so what parses,
 * what does not, and how it groups (`&&` and `||` share one precedence, left to right; `//` is
 * floor division) are AgentInbox's. Evaluated here, not by jexl's evaluator, node by node as that
 * evaluator does (its dist/evaluator/handlers.js), with three differences svc's filters need:
 * - a cost limit, as cel.ts meters CEL: one unit per node evaluated and per element a collection
 *   filter (`list[.x == 1]`) visits, and the size of the strings, lists and objects an operator or
 *   helper reads, charged before it reads them; over the limit the evaluation stops;
 * - only own properties are read (jexl reads `obj[key]` through the prototype chain, so
 *   `payload["constructor"]` is Object on AgentInbox and undefined here: jexl issues #92, #142);
 * - bounds at creation: brackets nested at most MAX_BRACKET_NESTING deep (jexl parses each level
 *   with a parser of its own and takes seconds for a few thousand) and trees at most MAX_DEPTH deep.
 * jexl's lexer, parser and grammar are internal modules of its dist folder; the pinned version's
 * tree shapes are checked by test/unit/inbox-agentinbox-filters.test.ts.
 */
import { createRequire } from 'node:module';
import { AppError, errors } from '../../core/index.js';
import { chargeWalk, HELPERS, strUnits } from './agentinbox-functions.js';
import type { ExprOutcome } from './cel.js';
import type { StoredEvent } from '../streams/index.js';

/** The names AgentInbox binds in an expression (its FilterContext). */
export const AGENTINBOX_NAMES: ReadonlySet<string> = new Set(['metadata', 'payload', 'eventVariant', 'sourceType', 'sourceKey']);
/**
 * JEXL has no null literal: `null` and `undefined` are names nothing binds, so undefined on
 * AgentInbox, and `x == null` holds for a missing or null x. Accepted here with that meaning.
 */
const UNDEFINED_NAMES: ReadonlySet<string> = new Set(['null', 'undefined']);
/** ( [ { nested deeper than this are refused at creation. */
export const MAX_BRACKET_NESTING = 32;
/** Expression trees deeper than this are refused at creation. */
export const MAX_DEPTH = 256;

type JexlNode =
  | { type: 'Literal'; value: string | number | boolean }
  | { type: 'Identifier'; value: string; from?: JexlNode; relative?: boolean }
  | { type: 'BinaryExpression'; operator: string; left: JexlNode; right: JexlNode }
  | { type: 'UnaryExpression'; operator: string; right: JexlNode }
  | { type: 'ConditionalExpression'; test: JexlNode; consequent?: JexlNode; alternate?: JexlNode }
  | { type: 'FilterExpression'; expr: JexlNode; relative: boolean; subject: JexlNode }
  | { type: 'ObjectLiteral'; value: Record<string, JexlNode> }
  | { type: 'ArrayLiteral'; value: JexlNode[] }
  | { type: 'FunctionCall'; name: string; args: JexlNode[]; pool: 'functions' | 'transforms' };

interface Token {
  type: string;
  value: unknown;
  raw: string;
}

interface Jexl {
  tokenize(expr: string): Token[];
  parse(tokens: Token[]): JexlNode | null;
}

let jexl: Jexl | null = null;

/** jexl's lexer and parser, loaded on first use. */
function loadJexl(): Jexl {
  if (!jexl) {
    const require = createRequire(import.meta.url);
    const grammar = (require('jexl/dist/grammar.js') as { getGrammar(): unknown }).getGrammar();
    const Lexer = require('jexl/dist/Lexer.js') as new (g: unknown) => { tokenize(s: string): Token[] };
    const Parser = require('jexl/dist/parser/Parser.js') as new (g: unknown) => { addTokens(t: Token[]): void; complete(): JexlNode | null };
    jexl = {
      tokenize: (expr) => new Lexer(grammar).tokenize(expr),
      parse: (tokens) => {
        const parser = new Parser(grammar);
        parser.addTokens(tokens);
        return parser.complete();
      },
    };
  }
  return jexl;
}

/**
 * The names an expression's tokens use at the top (not after a dot, not as a function, transform
 * or object key): how a text that parses as neither language is told apart. Empty when it does not lex.
 */
export function agentInboxTokenNames(expr: string): Set<string> {
  const names = new Set<string>();
  let tokens: Token[];
  try {
    tokens = loadJexl().tokenize(expr);
  } catch {
    return names;
  }
  const open: string[] = [];
  tokens.forEach((t, i) => {
    if (t.type === 'openCurl' || t.type === 'openBracket' || t.type === 'openParen') open.push(t.type);
    else if (t.type === 'closeCurl' || t.type === 'closeBracket' || t.type === 'closeParen') open.pop();
    if (t.type !== 'identifier') return;
    const before = tokens[i - 1]?.type;
    const after = tokens[i + 1]?.type;
    const objectKey = after === 'colon' && open.at(-1) === 'openCurl';
    if (before !== 'dot' && before !== 'pipe' && after !== 'openParen' && !objectKey) names.add(String(t.value));
  });
  return names;
}

/** An svc source as the bindings need it (inbox/sources' Source has these fields). */
export interface SourceFacts {
  sourceType: string;
  streamKind: string;
  streamKey: string;
}
export type SourceLookup = (sourceId: string) => SourceFacts | undefined;

/** AgentInbox's sourceType for a source: a github host's streams are github_repo, or github_repo_ci for `ci_runs`. */
export function agentInboxSourceType(s: SourceFacts): string {
  if (s.sourceType === 'github') return s.streamKind === 'ci_runs' ? 'github_repo_ci' : 'github_repo';
  return s.sourceType;
}

/** The five names for one event (AgentInbox: metadata, rawPayload, eventVariant, and its source's type and key). */
export class AgentInboxBindings {
  constructor(
    private readonly event: Pick<StoredEvent, 'type' | 'data' | 'metadata'>,
    private readonly source: () => SourceFacts | undefined,
  ) {}

  get(name: string): unknown {
    switch (name) {
      case 'metadata':
        return this.event.metadata ?? {};
      case 'payload':
        // AgentInbox's rawPayload defaults to {}; svc's data to null.
        return this.event.data ?? {};
      case 'eventVariant':
        return this.event.type;
      case 'sourceType': {
        const s = this.source();
        return s && agentInboxSourceType(s);
      }
      case 'sourceKey':
        return this.source()?.streamKey;
      default:
        return undefined;
    }
  }
}

/** What AgentInbox validates a new filter against (its validateSubscriptionFilter). */
const EMPTY_EVENT = new AgentInboxBindings({ type: '', data: {}, metadata: {} }, () => ({ sourceType: '', streamKind: '', streamKey: '' }));

export interface AgentInboxProgram {
  /** Evaluate for one event with at most `limit` units (the expression's value: a filter matches when it is truthy). */
  run(bindings: AgentInboxBindings, limit: number): ExprOutcome;
}

/** Thrown by the meter; never escapes run(). */
const OVER_BUDGET = new Error('the filter went over its cost limit');

/**
 * Parse and check an AgentInbox expression; 400 invalid_filter when it does not parse, names
 * something AgentInbox does not bind or calls something it does not have, or fails on an empty
 * event as AgentInbox's own check does; 400 filter_too_costly past the bounds above or over
 * `trialLimit` on an empty event. A stored filter skips the bounds and the trial.
 */
export function compileAgentInbox(expr: string, trialLimit: number, stored = false): AgentInboxProgram {
  const lib = loadJexl();
  let ast: JexlNode | null;
  try {
    const tokens = lib.tokenize(expr);
    const nesting = bracketNesting(tokens);
    if (!stored && nesting > MAX_BRACKET_NESTING) {
      throw errors.filterTooCostly(`expr nests brackets ${nesting} deep; at most ${MAX_BRACKET_NESTING}`, { expr });
    }
    ast = lib.parse(tokens);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw errors.invalidFilter(`expr does not parse as AgentInbox's filter language (JEXL): ${(err as Error).message}`, { expr });
  }
  if (ast === null) throw errors.invalidFilter('expr must not be empty', { expr });
  const tree = ast;
  const shape = inspect(tree);
  if (!stored && shape.depth > MAX_DEPTH) throw errors.filterTooCostly(`expr nests ${shape.depth} levels deep; at most ${MAX_DEPTH}`, { expr });
  checkNames(expr, shape);
  const program = { run: (bindings: AgentInboxBindings, limit: number) => evaluate(tree, bindings, limit) };
  if (!stored) {
    const trial = program.run(EMPTY_EVENT, trialLimit);
    if (!trial.ok && trial.overBudget) throw errors.filterTooCostly(`expr costs more than ${trialLimit} units on an empty event`, { expr });
    if (!trial.ok) throw errors.invalidFilter(`expr fails on an empty event, as AgentInbox checks a new filter: ${trial.message}`, { expr });
  }
  return program;
}

function bracketNesting(tokens: Token[]): number {
  let depth = 0;
  let max = 0;
  for (const t of tokens) {
    if (t.type === 'openParen' || t.type === 'openBracket' || t.type === 'openCurl') max = Math.max(max, ++depth);
    else if (t.type === 'closeParen' || t.type === 'closeBracket' || t.type === 'closeCurl') depth--;
  }
  return max;
}

interface Shape {
  depth: number;
  /** Names read from the bindings: identifiers at the top, and relative ones outside a collection filter. */
  names: Set<string>;
  functions: Set<string>;
  transforms: Set<string>;
}

/** Walks the tree without recursion (it is not bounded yet). */
function inspect(root: JexlNode): Shape {
  const shape: Shape = { depth: 0, names: new Set(), functions: new Set(), transforms: new Set() };
  const stack: Array<[JexlNode, number, boolean]> = [[root, 1, false]];
  while (stack.length > 0) {
    const [node, depth, inFilter] = stack.pop()!;
    shape.depth = Math.max(shape.depth, depth);
    const push = (child: JexlNode | undefined, filtered = inFilter) => child && stack.push([child, depth + 1, filtered]);
    switch (node.type) {
      case 'Identifier':
        if (node.from) push(node.from);
        else if (!node.relative || !inFilter) shape.names.add(node.value);
        break;
      case 'BinaryExpression':
        push(node.left);
        push(node.right);
        break;
      case 'UnaryExpression':
        push(node.right);
        break;
      case 'ConditionalExpression':
        push(node.test);
        push(node.consequent);
        push(node.alternate);
        break;
      case 'FilterExpression':
        push(node.subject);
        push(node.expr, inFilter || node.relative);
        break;
      case 'ObjectLiteral':
        for (const v of Object.values(node.value)) push(v);
        break;
      case 'ArrayLiteral':
        for (const v of node.value) push(v);
        break;
      case 'FunctionCall':
        (node.pool === 'transforms' ? shape.transforms : shape.functions).add(node.name);
        for (const a of node.args) push(a);
        break;
    }
  }
  return shape;
}

function checkNames(expr: string, shape: Shape): void {
  const unknown = [...shape.names].filter((n) => !AGENTINBOX_NAMES.has(n) && !UNDEFINED_NAMES.has(n));
  if (unknown.includes('event')) {
    throw errors.invalidFilter(
      `expr mixes svc's CEL (event) with AgentInbox's language (${[...shape.names].filter((n) => AGENTINBOX_NAMES.has(n)).join(', ')}); write it in one of them`,
      { expr, names: [...shape.names] },
    );
  }
  if (unknown.length > 0) {
    throw errors.invalidFilter(
      `expr names ${unknown.join(', ')}, which AgentInbox's filter language does not bind: it has ${[...AGENTINBOX_NAMES].join(', ')} (svc's CEL has event)`,
      { expr, names: unknown },
    );
  }
  const unknownFunctions = [...shape.functions].filter((f) => !Object.hasOwn(HELPERS, f));
  if (unknownFunctions.length > 0) {
    throw errors.invalidFilter(`expr calls ${unknownFunctions.join(', ')}; AgentInbox's filter functions are ${Object.keys(HELPERS).join(', ')}`, { expr, functions: unknownFunctions });
  }
  if (shape.transforms.size > 0) {
    throw errors.invalidFilter(`expr uses the transform ${[...shape.transforms].map((t) => `|${t}`).join(', ')}; AgentInbox's filter language has none`, { expr });
  }
}

function evaluate(ast: JexlNode, bindings: AgentInboxBindings, limit: number): ExprOutcome {
  const meter = { left: limit };
  const charge = (units: number) => {
    meter.left -= units;
    if (meter.left < 0) throw OVER_BUDGET;
  };
  const cost = () => Math.min(limit, limit - meter.left);
  try {
    const value = new Evaluation(bindings, charge).eval(ast, bindings);
    return { ok: true, value, cost: cost() };
  } catch (err) {
    if (err === OVER_BUDGET) return { ok: false, message: OVER_BUDGET.message, cost: cost(), overBudget: true };
    return { ok: false, message: err instanceof Error ? err.message : String(err), cost: cost(), overBudget: false };
  }
}

/* The operators of jexl's grammar (dist/grammar.js), as JavaScript computes them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Operands = [any, any];
const BINARY: Record<string, (...o: Operands) => unknown> = {
  '+': (l, r) => l + r,
  '-': (l, r) => l - r,
  '*': (l, r) => l * r,
  '/': (l, r) => l / r,
  '//': (l, r) => Math.floor(l / r),
  '%': (l, r) => l % r,
  '^': (l, r) => Math.pow(l, r),
  '==': (l, r) => l == r,
  '!=': (l, r) => l != r,
  '>': (l, r) => l > r,
  '>=': (l, r) => l >= r,
  '<': (l, r) => l < r,
  '<=': (l, r) => l <= r,
  in: (l, r) => (typeof r === 'string' ? r.indexOf(l) !== -1 : Array.isArray(r) ? r.some((e) => e === l) : false),
};

const CANONICAL_INDEX = /^(?:0|[1-9]\d*)$/;

/** `value[key]` reading own properties only; on undefined or null it throws, as JavaScript does. */
function ownProperty(value: unknown, key: string): unknown {
  if (value === undefined || value === null) throw new TypeError(`Cannot read properties of ${value} (reading '${key}')`);
  if (typeof value === 'string') {
    if (key === 'length') return value.length;
    return CANONICAL_INDEX.test(key) && Number(key) < value.length ? value[Number(key)] : undefined;
  }
  if (typeof value !== 'object') return undefined;
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

class Evaluation {
  constructor(
    private readonly bindings: AgentInboxBindings,
    private readonly charge: (units: number) => void,
  ) {}

  /** `rel` is the relative context: an element of a collection filter, or the bindings. */
  eval(node: JexlNode, rel: unknown): unknown {
    this.charge(1);
    switch (node.type) {
      case 'Literal':
        return node.value;
      case 'Identifier': {
        if (!node.from) return node.relative ? this.read(rel, node.value) : this.bindings.get(node.value);
        let from = this.eval(node.from, rel);
        if (from === undefined || from === null) return undefined;
        if (Array.isArray(from)) from = from.length > 0 ? from[0] : undefined;
        return ownProperty(from, node.value);
      }
      case 'BinaryExpression':
        return this.binary(node, rel);
      case 'UnaryExpression':
        // The grammar's only unary operator is `!`.
        return !this.eval(node.right, rel);
      case 'ConditionalExpression': {
        const test = this.eval(node.test, rel);
        if (test) return node.consequent ? this.eval(node.consequent, rel) : test;
        return this.eval(node.alternate!, rel);
      }
      case 'FilterExpression':
        return this.filter(node, rel);
      case 'ObjectLiteral': {
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(node.value)) Object.defineProperty(out, k, { value: this.eval(v, rel), enumerable: true, writable: true, configurable: true });
        return out;
      }
      case 'ArrayLiteral':
        return node.value.map((v) => this.eval(v, rel));
      case 'FunctionCall': {
        const helper = node.pool === 'functions' && Object.hasOwn(HELPERS, node.name) ? HELPERS[node.name]! : undefined;
        if (!helper) throw new Error(`${node.pool === 'functions' ? 'Jexl Function' : 'Transform'} ${node.name} is not defined.`);
        return helper(this.charge, node.args.map((a) => this.eval(a, rel)));
      }
      default:
        throw new Error(`unknown expression node ${(node as { type: string }).type}`);
    }
  }

  private read(rel: unknown, name: string): unknown {
    return rel === this.bindings ? this.bindings.get(name) : ownProperty(rel, name);
  }

  private binary(node: Extract<JexlNode, { type: 'BinaryExpression' }>, rel: unknown): unknown {
    // && and || answer an operand, evaluating the right one only when it decides.
    if (node.operator === '&&') {
      const left = this.eval(node.left, rel);
      return left ? this.eval(node.right, rel) : left;
    }
    if (node.operator === '||') {
      const left = this.eval(node.left, rel);
      return left ? left : this.eval(node.right, rel);
    }
    const op = BINARY[node.operator];
    if (!op) throw new Error(`unknown operator ${node.operator}`);
    const left = this.eval(node.left, rel);
    const right = this.eval(node.right, rel);
    this.chargeOperand(left);
    this.chargeOperand(right);
    return op(left, right);
  }

  private filter(node: Extract<JexlNode, { type: 'FilterExpression' }>, rel: unknown): unknown {
    const subject = this.eval(node.subject, rel);
    if (node.relative) {
      const list: unknown[] = Array.isArray(subject) ? subject : subject === undefined ? [] : [subject];
      this.charge(list.length);
      // jexl evaluates against each element, or against the bindings when the element is falsy.
      return list.filter((elem) => this.eval(node.expr, elem || this.bindings));
    }
    const key = this.eval(node.expr, rel);
    if (typeof key === 'boolean') return key ? subject : undefined;
    if (subject === undefined || subject === null) throw new TypeError(`Cannot read properties of ${subject} (reading '${String(key)}')`);
    this.chargeOperand(key);
    return ownProperty(subject, String(key));
  }

  /** An operand read whole by a native operation (string compare, concatenation, conversion). */
  private chargeOperand(v: unknown): void {
    if (typeof v === 'string') this.charge(strUnits(v));
    else if (v !== null && typeof v === 'object') chargeWalk(this.charge, v);
  }
}

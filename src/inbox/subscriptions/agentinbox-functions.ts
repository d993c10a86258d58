/**
 * The helper functions of AgentInbox's filter language (its event-filtering RFC: `contains`,
 * `startsWith`, `endsWith`, `format`, `join`, `matches`, `glob`, `exists`), written here with the
 * answers AgentInbox 1.0.3 gives, and metered: each charges for what it reads and builds before
 * building it (`charge` throws when the evaluation's limit is used up). Where AgentInbox hands a
 * pattern to JavaScript's backtracking engine, `matches` and `glob` run linear-regex.ts instead.
 *
 * - contains(search, item): a string search holds the string item; an array search holds an element
 *   deeply equal to item; anything else: false.
 * - startsWith / endsWith(value, search): both strings, else false.
 * - format(template, ...values): `{N}` replaced by String(values[N] ?? ""); a non-string template: "".
 * - join(array, separator): the elements joined by the separator (a non-string one: ","); a non-array: "".
 * - matches(value, pattern): both strings, value at most 4,096 characters, pattern 1..256 characters
 *   without `(?` or a back-reference `\1`..`\9` or a quantified group holding a quantifier; a pattern
 *   JavaScript refuses: false.
 * - glob(value, pattern): the whole value against the pattern (`**` anything, `*` anything but `/`).
 * - exists(value): neither undefined nor null.
 */
import { compileGlob, compileRegex, type LinearRegex } from './linear-regex.js';

export type Charge = (units: number) => void;
export type Helper = (charge: Charge, args: unknown[]) => unknown;

/** Characters per cost unit, as cel.ts counts strings. */
const CHARS_PER_UNIT = 8;
const MAX_REGEX_PATTERN_LENGTH = 256;
const MAX_REGEX_VALUE_LENGTH = 4096;
/** Compiled patterns kept (patterns are nearly always literals of the expression). */
const PATTERN_CACHE_SIZE = 256;

export const strUnits = (s: string) => Math.ceil(s.length / CHARS_PER_UNIT);

/**
 * What a value costs to walk (its elements, keys and string lengths), charged as it is walked so
 * that a large value stops at the limit. Used before handing a value to an operation that reads
 * it whole (string conversion, loose equality, deep equality).
 */
export function chargeWalk(charge: Charge, value: unknown): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') charge(strUnits(v));
    else if (Array.isArray(v)) {
      charge(1 + v.length);
      for (const e of v) stack.push(e);
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      charge(1 + keys.length);
      for (const k of keys) stack.push((v as Record<string, unknown>)[k]);
    }
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Structural equality of JSON values (arrays element-wise, objects key-wise), metered. */
function deepEqual(charge: Charge, a: unknown, b: unknown): boolean {
  charge(1);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => deepEqual(charge, v, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => Object.hasOwn(b, k) && deepEqual(charge, a[k], b[k]));
  }
  return a === b;
}

/** String(value), charged by what it reads and makes. */
function toStringCharged(charge: Charge, value: unknown): string {
  if (value !== null && typeof value === 'object') chargeWalk(charge, value);
  const s = String(value);
  charge(strUnits(s));
  return s;
}

const contains: Helper = (charge, [search, item]) => {
  if (typeof search === 'string') {
    if (typeof item !== 'string') return false;
    charge(strUnits(search) + strUnits(item));
    return search.includes(item);
  }
  if (Array.isArray(search)) {
    charge(1 + search.length);
    return search.some((v) => deepEqual(charge, v, item));
  }
  return false;
};

const startsWith: Helper = (charge, [value, search]) => {
  if (typeof value !== 'string' || typeof search !== 'string') return false;
  charge(1 + strUnits(search));
  return value.startsWith(search);
};

const endsWith: Helper = (charge, [value, search]) => {
  if (typeof value !== 'string' || typeof search !== 'string') return false;
  charge(1 + strUnits(search));
  return value.endsWith(search);
};

const PLACEHOLDER = /\{(\d+)\}/g;

const format: Helper = (charge, [template, ...values]) => {
  if (typeof template !== 'string') return '';
  charge(1 + strUnits(template));
  // Each value is converted once, and the result's length charged before it is built.
  const texts = new Map<string, string>();
  for (const [, index] of template.matchAll(PLACEHOLDER)) {
    let text = texts.get(index!);
    if (text === undefined) {
      text = toStringCharged(charge, values[Number(index)] ?? '');
      texts.set(index!, text);
    }
    charge(strUnits(text));
  }
  return template.replace(PLACEHOLDER, (_m, index: string) => texts.get(index)!);
};

const join: Helper = (charge, [value, separator]) => {
  if (!Array.isArray(value)) return '';
  const sep = typeof separator === 'string' ? separator : ',';
  charge(1 + value.length + strUnits(sep) * Math.max(0, value.length - 1));
  for (const e of value) if (e !== null && e !== undefined) toStringCharged(charge, e);
  return value.join(sep);
};

/** A small cache of compiled patterns, oldest out first. */
class PatternCache {
  private readonly map = new Map<string, LinearRegex | null>();
  constructor(private readonly compile: (p: string) => LinearRegex | null) {}

  get(pattern: string): LinearRegex | null {
    let hit = this.map.get(pattern);
    if (hit === undefined && !this.map.has(pattern)) {
      hit = this.compile(pattern);
      if (this.map.size >= PATTERN_CACHE_SIZE) this.map.delete(this.map.keys().next().value!);
      this.map.set(pattern, hit);
    }
    return hit ?? null;
  }
}

/** AgentInbox's refusals first, then JavaScript's own syntax check, then the linear engine. */
function safePattern(pattern: string): LinearRegex | null {
  if (pattern.length === 0 || pattern.length > MAX_REGEX_PATTERN_LENGTH) return null;
  if (pattern.includes('(?') || /\\[1-9]/.test(pattern)) return null;
  if (/\((?:[^()\\]|\\.)*[+*](?:[^()\\]|\\.)*\)[+*{]/.test(pattern)) return null;
  try {
    new RegExp(pattern); // syntax only: nothing is matched with it
  } catch {
    return null;
  }
  return compileRegex(pattern);
}

const regexes = new PatternCache(safePattern);
const globs = new PatternCache(compileGlob);

const matches: Helper = (charge, [value, pattern]) => {
  if (typeof value !== 'string' || typeof pattern !== 'string') return false;
  if (value.length > MAX_REGEX_VALUE_LENGTH) return false;
  charge(1 + strUnits(pattern));
  return regexes.get(pattern)?.test(value, charge) ?? false;
};

const glob: Helper = (charge, [value, pattern]) => {
  if (typeof value !== 'string' || typeof pattern !== 'string') return false;
  charge(1 + strUnits(pattern));
  return globs.get(pattern)?.test(value, charge) ?? false;
};

const exists: Helper = (_charge, [value]) => value !== undefined && value !== null;

/** By name; a null prototype, so no name but these eight is a function. */
export const HELPERS: Readonly<Record<string, Helper>> = Object.assign(Object.create(null) as Record<string, Helper>, {
  contains,
  startsWith,
  endsWith,
  format,
  join,
  matches,
  glob,
  exists,
});

/**
 * Limits every JSON document svc accepts from a caller must respect, checked once where the bytes
 * become a value (the request body parser, callback bodies) so that no handler sees a hostile shape:
 * - nesting deeper than MAX_JSON_DEPTH: later recursive code (serialisation, CEL, zod) would
 *   overflow the stack and answer 500;
 * - a key that reaches an object's prototype when merged by assignment (`__proto__`, and
 *   `constructor` holding `prototype`): one such body could change every object in the process.
 * The walk is iterative: a 10,000-deep document must not overflow the checker itself.
 */
import { errors } from './errors.js';

export const MAX_JSON_DEPTH = 64;

/** Keys that name an object's prototype chain rather than data. */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export type JsonViolation = { kind: 'depth'; path: string } | { kind: 'prototype_key'; path: string };

/**
 * The first violation in a parsed JSON value, or null. `strictKeys` refuses all three of
 * PROTOTYPE_KEYS anywhere (configuration); without it only `__proto__` and a `constructor` object
 * with a `prototype` member are refused (ordinary payloads may well carry a "constructor" field).
 */
export function checkJson(value: unknown, opts: { maxDepth?: number; strictKeys?: boolean } = {}): JsonViolation | null {
  const maxDepth = opts.maxDepth ?? MAX_JSON_DEPTH;
  const stack: Array<{ v: unknown; depth: number; path: string }> = [{ v: value, depth: 0, path: '' }];
  while (stack.length > 0) {
    const { v, depth, path } = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= maxDepth) return { kind: 'depth', path: path || '(root)' };
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push({ v: v[i], depth: depth + 1, path: `${path}[${i}]` });
      continue;
    }
    for (const key of Object.keys(v)) {
      const child = (v as Record<string, unknown>)[key];
      const at = path ? `${path}.${key}` : key;
      if (key === '__proto__') return { kind: 'prototype_key', path: at };
      if (opts.strictKeys && PROTOTYPE_KEYS.has(key)) return { kind: 'prototype_key', path: at };
      if (key === 'constructor' && typeof child === 'object' && child !== null && Object.hasOwn(child, 'prototype')) {
        return { kind: 'prototype_key', path: `${at}.prototype` };
      }
      stack.push({ v: child, depth: depth + 1, path: at });
    }
  }
  return null;
}

export function describeViolation(v: JsonViolation, maxDepth = MAX_JSON_DEPTH): string {
  return v.kind === 'depth'
    ? `JSON nested deeper than ${maxDepth} levels (at ${boundText(v.path, 120)})`
    : `the key ${JSON.stringify(boundText(v.path, 120))} names an object prototype and is not accepted`;
}

/** A string cut to at most `max` characters, marked when cut. */
export function boundText(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max)}… (${s.length - max} more characters)`;
}

/**
 * Parse a caller's JSON text: 400 invalid_json when it is not JSON, 400 invalid_request when it
 * breaks a limit above. The one parser of request bodies on both surfaces.
 */
export function parseJsonBody(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw errors.invalidJson(boundText((err as Error).message, 200));
  }
  const violation = checkJson(value);
  if (violation) throw errors.jsonRejected(violation.path.startsWith('[') ? `body${violation.path}` : `body.${violation.path}`, describeViolation(violation));
  return value;
}

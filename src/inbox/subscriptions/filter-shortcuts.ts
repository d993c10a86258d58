/**
 * AgentInbox's filter blocks, accepted beside svc's `match` and `expr`: `{metadata: {...}}` over
 * the event's `metadata` and `{payload: {...}}` over its `data` (AgentInbox's raw payload, see
 * `fromNativeEvent`). Each key is a dot path; each wanted value is matched as AgentInbox matches it:
 * - an object: the actual value is an object and every key of the wanted one matches in it;
 * - an array: when the actual value is an array, every wanted value matches one of its elements;
 *   otherwise the actual value matches one of the wanted values;
 * - anything else: equal to the actual value, or (an actual array) to one of its elements.
 * A path that does not exist matches nothing. Only own properties are read.
 */
import { errors } from '../../core/index.js';
import type { StoredEvent } from '../streams/index.js';

export const SHORTCUT_BLOCKS = { metadata: 'metadata', payload: 'data' } as const;
export type ShortcutBlock = keyof typeof SHORTCUT_BLOCKS;

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A test of one block; 400 invalid_filter unless it is an object of dot path -> wanted value. */
export function compileShortcut(block: ShortcutBlock, wanted: unknown): (event: StoredEvent) => boolean {
  if (!isObject(wanted)) throw errors.invalidFilter(`${block} must be an object of dot path -> wanted value`);
  const bad = Object.keys(wanted).find((k) => k.split('.').some((p) => p === ''));
  if (bad !== undefined) throw errors.invalidFilter(`${block} path ${JSON.stringify(bad)} has an empty segment`, { path: bad });
  const field = SHORTCUT_BLOCKS[block];
  return (event) => matchesObject(event[field], wanted);
}

function matchesObject(actual: unknown, wanted: Obj): boolean {
  return Object.entries(wanted).every(([path, value]) => matches(valueAt(actual, path), value));
}

function matches(actual: unknown, wanted: unknown): boolean {
  if (actual === undefined) return false;
  if (isObject(wanted)) return isObject(actual) && matchesObject(actual, wanted);
  if (Array.isArray(wanted)) {
    if (Array.isArray(actual)) return wanted.every((w) => actual.some((a) => matches(a, w)));
    return wanted.some((w) => matches(actual, w));
  }
  if (Array.isArray(actual)) return actual.some((a) => matches(a, wanted));
  return actual === wanted;
}

function valueAt(value: unknown, path: string): unknown {
  let cur = value;
  for (const part of path.split('.')) {
    if (!isObject(cur) || !Object.hasOwn(cur, part)) return undefined;
    cur = cur[part];
  }
  return cur;
}

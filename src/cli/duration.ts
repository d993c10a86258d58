/**
 * Durations on the command line: `500ms`, `5s`, `2m`, `1h`, `1d`, sums of them (`1h30m`), or a
 * bare integer, read as milliseconds so that every `--…-ms N` option keeps meaning what it did.
 * One parser for every duration option; a bad value is commander's usage error naming the flag.
 */
import { InvalidArgumentError } from 'commander';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const PART = /(\d+)(ms|s|m|h|d)/gy;

/** Milliseconds, or null when `text` is not a duration. */
export function parseDuration(text: string): number | null {
  const s = text.trim();
  if (/^\d+$/.test(s)) return safe(Number(s));
  if (!/^(\d+(ms|s|m|h|d))+$/.test(s)) return null;
  let total = 0;
  PART.lastIndex = 0;
  for (let m = PART.exec(s); m; m = PART.exec(s)) total += Number(m[1]) * UNIT_MS[m[2]!]!;
  return safe(total);
}

/** Commander parser for a duration option: milliseconds. */
export function durationArg(value: string): number {
  const ms = parseDuration(value);
  if (ms === null) throw new InvalidArgumentError('expected a duration such as 500ms, 5s, 2m, 1h, 1d (a bare number is milliseconds)');
  return ms;
}

function safe(n: number): number | null {
  return Number.isSafeInteger(n) ? n : null;
}

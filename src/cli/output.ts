/**
 * How client commands print: `--json` gives one JSON document (or one object per line for
 * streams); otherwise a human-readable table or key/value list. Failures print the server's
 * code and message on stderr and exit with the code exit-codes.ts gives them.
 */
import { ApiError } from './client.js';
import { exitCodeFor } from './exit-codes.js';

export type Row = Record<string, unknown>;

export function cell(v: unknown): string {
  if (v === null || v === undefined) return '-';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v).replace(/\s+/g, ' ');
}

/** A plain aligned table of the given columns. */
export function table(rows: Row[], columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const cells = rows.map((r) => columns.map((c) => truncate(cell(r[c]), 60)));
  const headers = columns.map(header);
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i]!.length)));
  const line = (vals: string[]) => vals.map((v, i) => v.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(headers), ...cells.map(line)].join('\n');
}

/**
 * A column's header: words upper-cased and joined by `_`, whether the key is snake_case (the
 * control plane's `agent_id`) or camelCase (the inbox API's `hostId`): AGENT_ID, HOST_ID.
 */
export function header(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

/** Key/value lines for one object (nested objects as JSON). */
export function record(obj: Row): string {
  const keys = Object.keys(obj);
  const width = Math.max(...keys.map((k) => k.length));
  return keys.map((k) => `${k.padEnd(width)}  ${cell(obj[k])}`).join('\n');
}

/** Print `data` as JSON with --json, else as `human(data)`. */
export function print<T>(data: T, json: boolean | undefined, human: (d: T) => string): void {
  process.stdout.write(json ? `${JSON.stringify(data, null, 2)}\n` : `${human(data)}\n`);
}

/**
 * Wrap a command action: any error ends the process (exit-codes.ts) with the server's code on stderr, or
 * with `--json` as one JSON document on stdout: the error envelope's fields (`ok: false`, `error`,
 * `code`, and e.g. history_unavailable's replay bounds) plus `status` (0: the daemon was not reached).
 */
export function action<A extends unknown[]>(fn: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (err) {
      fail(err, jsonRequested(args));
    }
  };
}

/** End the process for `err` as `action` does (also for work done before an action, in a hook). */
export function fail(err: unknown, json: boolean): never {
  const api = err instanceof ApiError ? err : null;
  const code = api?.code ?? 'error';
  const message = (err as Error).message;
  if (json) {
    const body = api && typeof api.body === 'object' && api.body !== null && !Array.isArray(api.body) ? (api.body as Row) : {};
    printJsonFailure({ ...body, ok: false, error: message, code, status: api?.status ?? 0 });
  } else if (api) {
    process.stderr.write(`svc: ${code}: ${message}\n${errorFields(api.body)}`);
  } else {
    process.stderr.write(`svc: ${message}\n`);
  }
  process.exit(exitCodeFor(err));
}

function printJsonFailure(failure: Row & { ok: false; error: string; code: string; status: number }): void {
  process.stdout.write(`${JSON.stringify(failure, null, 2)}\n`);
}

/**
 * Commander's usage errors (unknown option or command, missing or invalid argument): with `--json`
 * among svc's own words (before any `--`), the same one JSON document on stdout as other failures,
 * code `usage_error`; commander still exits 1.
 */
export function usageErrorOutput(argv: string[]): { outputError: (text: string, write: (text: string) => void) => void } {
  const end = argv.indexOf('--');
  const json = (end === -1 ? argv : argv.slice(0, end)).includes('--json');
  return {
    outputError: (text, write) => {
      if (!json) return write(text);
      printJsonFailure({ ok: false, error: text.trim().replace(/^error: /, ''), code: 'usage_error', status: 0 });
    },
  };
}

/** Commander hands an action its options object before the command itself; `--json` is in them. */
function jsonRequested(args: unknown[]): boolean {
  const command = args.at(-1) as { opts?: () => Record<string, unknown> } | undefined;
  return typeof command?.opts === 'function' && command.opts().json === true;
}

/** Fields of an error envelope beyond ok/error/code (e.g. history_unavailable's replay bounds), one `  key: value` line each. */
function errorFields(body: unknown): string {
  if (typeof body !== 'object' || body === null) return '';
  const skip = new Set(['ok', 'error', 'code', 'issues', 'hint']);
  return Object.entries(body as Row)
    .filter(([k]) => !skip.has(k))
    .map(([k, v]) => `  ${k}: ${cell(v)}\n`)
    .join('');
}

/**
 * Colour (ANSI escapes) only when `stream` is a terminal and `NO_COLOR` is unset or empty
 * (no-color.org); otherwise the text as it is.
 */
export function dim(text: string, stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): string {
  return stream.isTTY === true && !env.NO_COLOR ? `\x1b[2m${text}\x1b[0m` : text;
}

/** Whitespace runs collapsed to one space, cut to `max` characters with an ellipsis. */
export function oneLine(text: string, max = 100): string {
  return truncate(text.replace(/\s+/g, ' ').trim(), max);
}

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

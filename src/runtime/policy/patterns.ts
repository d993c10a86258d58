/**
 * Argument patterns of policy rules (src/config/policy.ts names the syntax): `*` matches any run
 * of characters except the shell's control characters, so `npm test*` allows `npm test -- --watch`
 * but not `npm test; curl … | sh` or `npm test $(…)`; `?` matches one such character; `\` takes
 * the next character literally. A pattern matches the whole value.
 */
const SHELL_CONTROL = ';&|`$<>()\\n\\r';
const ANY_RUN = `[^${SHELL_CONTROL}]*`;
const ANY_ONE = `[^${SHELL_CONTROL}]`;

const compiled = new Map<string, RegExp>();

export function compilePattern(pattern: string): RegExp {
  let re = compiled.get(pattern);
  if (re) return re;
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') source += ANY_RUN;
    else if (c === '?') source += ANY_ONE;
    else if (c === '\\' && i + 1 < pattern.length) source += escape(pattern[++i]!);
    else source += escape(c);
  }
  re = new RegExp(`^${source}$`, 'su');
  if (compiled.size > 4096) compiled.clear();
  compiled.set(pattern, re);
  return re;
}

/** The text a pattern is matched against: strings as they are, anything else as JSON; absent as ''. */
export function argumentText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function matchesArguments(patterns: Record<string, string> | undefined, args: Record<string, unknown>): boolean {
  if (!patterns) return true;
  return Object.entries(patterns).every(([name, pattern]) => compilePattern(pattern).test(argumentText(args[name])));
}

function escape(c: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(c) ? `\\${c}` : c;
}

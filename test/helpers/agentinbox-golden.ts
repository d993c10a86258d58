/**
 * Comparing svc's answers with AgentInbox's recorded ones (fixtures/agentinbox-golden/): the
 * normalisation the fixtures were written with, and the subset match. The recording harness that
 * wrote the fixtures applies the same rules (the fixtures' README says how).
 *
 * - values the flow captured (hostId, sourceId, subscription and entry ids, the terminal's agent
 *   id …) -> `<name>`, wherever they appear, whole or inside text;
 * - other ids (`hst_ src_ str_ sub_ agt_ tgt_ inb_ ent_ thr_ itm_ con_ act_ sch_ dlv_ direct_ evt_`
 *   and the like, UUIDs, ULIDs) -> `<id>`;
 * - ISO timestamps -> `<time>`, except an instant the flow itself gave (kept, in canonical ISO);
 * - the webhook receiver's origin -> `<hook-origin>`, the daemon's directories -> `<dir>`,
 *   `whsec_…` secrets -> `<secret>`;
 * - numbers under keys that differ between any two daemons (process ids, durations) -> `<n>`.
 */

type Json = unknown;

const ID_PREFIXES = ['hst', 'src', 'str', 'sub', 'agt', 'tgt', 'inb', 'ent', 'thr', 'itm', 'con', 'act', 'sch', 'dlv', 'direct', 'evt', 'ibx', 'trg', 'tmr'];
const ID_RE = new RegExp(`\\b(?:${ID_PREFIXES.join('|')})_[A-Za-z0-9][A-Za-z0-9-]{3,}\\b`, 'g');
const UUID_RE = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const ULID_RE = /\b[0-9A-HJKMNP-TV-Z]{26}\b/g;
const TIME_RE = /\b\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:\d\d)\b/g;
const VOLATILE_NUMBER_KEYS = new Set(['pid', 'runtimePid', 'uptimeMs', 'durationMs', 'elapsedMs']);
/** Instants the flow gives (a value, not a clock reading). */
const FIXED_TIMES = ['2026-01-02T03:04:05Z', '2099-01-01T00:00:00Z'].map((t) => new Date(t).toISOString());

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface Normaliser {
  text: (s: string) => string;
  value: (v: Json, key?: string) => Json;
}

/** `vars`: captured values by name (`hook` is the receiver's URL); `dirs`: the daemon's directories. */
export function normaliser(vars: Record<string, unknown>, dirs: string[] = []): Normaliser {
  const replacements: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(vars)) {
    if (typeof value !== 'string' || value.length < 4) continue;
    if (name === 'hook') replacements.push([value.replace(/\/hook$/, ''), '<hook-origin>']);
    else replacements.push([value, `<${name}>`]);
  }
  for (const d of dirs) replacements.push([d, '<dir>']);
  replacements.sort((a, b) => b[0].length - a[0].length);
  const byValue = new Map(replacements);
  const re = replacements.length ? new RegExp(replacements.map(([v]) => escapeRe(v)).join('|'), 'g') : null;

  const text = (s: string): string =>
    (re ? s.replace(re, (m) => byValue.get(m)!) : s)
      .replace(/whsec_[A-Za-z0-9+/=]+/g, '<secret>')
      .replace(TIME_RE, (m) => {
        const t = Date.parse(m);
        const iso = Number.isNaN(t) ? m : new Date(t).toISOString();
        return FIXED_TIMES.includes(iso) ? iso : '<time>';
      })
      .replace(ID_RE, '<id>')
      .replace(UUID_RE, '<id>')
      .replace(ULID_RE, '<id>');

  const value = (v: Json, key?: string): Json => {
    if (typeof v === 'string') return text(v);
    if (typeof v === 'number' && key !== undefined && VOLATILE_NUMBER_KEYS.has(key)) return '<n>';
    if (Array.isArray(v)) return v.map((e) => value(e));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, e]) => [text(k), value(e, k)]));
    return v;
  };
  return { text, value };
}

export interface Difference {
  path: string;
  want: Json;
  got: Json;
}

function describe(v: Json): Json {
  if (v === undefined) return '(missing)';
  if (Array.isArray(v)) return `array(${v.length})`;
  if (v && typeof v === 'object') return 'object';
  return v;
}

/**
 * How `got` differs from `want` as a subset match: every field of `want` present in `got` with an
 * equal value (extra object fields in `got` allowed); arrays equal in length, element by element.
 */
export function subsetDiff(want: Json, got: Json, path = '', out: Difference[] = []): Difference[] {
  const here = path || '(value)';
  if (want === null || typeof want !== 'object') {
    if (!Object.is(want, got)) out.push({ path: here, want, got: describe(got) });
  } else if (Array.isArray(want)) {
    if (!Array.isArray(got)) out.push({ path: here, want: `array(${want.length})`, got: describe(got) });
    else {
      if (got.length !== want.length) out.push({ path: `${path}.length`, want: want.length, got: got.length });
      want.forEach((w, i) => i < got.length && subsetDiff(w, got[i], `${path}[${i}]`, out));
    }
  } else if (!got || typeof got !== 'object' || Array.isArray(got)) {
    out.push({ path: here, want: 'object', got: describe(got) });
  } else {
    const g = got as Record<string, Json>;
    for (const [k, w] of Object.entries(want)) {
      const p = path ? `${path}.${k}` : k;
      if (!Object.hasOwn(g, k)) out.push({ path: p, want: w, got: '(missing)' });
      else subsetDiff(w, g[k], p, out);
    }
  }
  return out;
}

/** `a.b[0].c` in `body` (`[-1]`: the last element), or undefined. */
export function valueAt(body: Json, path: string): Json {
  let v: Json = body;
  for (const part of path.split('.')) {
    const m = /^([^[]*)(?:\[(-?\d+)\])?$/.exec(part);
    if (!m) return undefined;
    if (m[1]) v = (v as Record<string, Json> | null | undefined)?.[m[1]];
    if (m[2] !== undefined) v = Array.isArray(v) ? v.at(Number(m[2])) : undefined;
    if (v === undefined) return undefined;
  }
  return v;
}

/** The first scalar under key `key` anywhere in `body` (depth first), or undefined. */
export function findKey(body: Json, key: string): Json {
  if (!body || typeof body !== 'object') return undefined;
  const o = body as Record<string, Json>;
  if (!Array.isArray(body) && Object.hasOwn(o, key) && (o[key] === null || typeof o[key] !== 'object')) return o[key];
  for (const v of Object.values(o)) {
    const found = findKey(v, key);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** One line per difference, values cut short. */
export function formatDiffs(diffs: Difference[], max = 8): string {
  const short = (v: Json) => {
    const s = typeof v === 'string' ? v : JSON.stringify(v);
    return s === undefined ? 'undefined' : s.length > 100 ? `${s.slice(0, 97)}...` : s;
  };
  const lines = diffs.slice(0, max).map((d) => `  ${d.path}: AgentInbox ${short(d.want)} | svc ${short(d.got)}`);
  if (diffs.length > max) lines.push(`  … ${diffs.length - max} more`);
  return lines.join('\n');
}

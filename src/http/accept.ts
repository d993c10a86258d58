/**
 * Proactive content negotiation on `Accept` (RFC 9110 section 12.5.1) for a route that can answer
 * in more than one media type.
 *
 * Each offered type takes the q-value of the most specific media range that matches it: a range
 * with parameters, then `type/subtype`, `type/*`, `* /*` (between equally specific ranges, the
 * higher q). A range's parameters other than q must all equal the offered type's, so
 * `text/plain; version=0.0.4` matches `text/plain; version=0.0.4; charset=utf-8` and
 * `text/plain; version=1.0.0` does not; accept-extensions after q are ignored. The highest q above
 * 0 wins; a tie goes to the type offered first. A range with a malformed q is ignored.
 */

/** A media range of `Accept`, or (q unused) an offered media type. */
interface Media {
  type: string;
  subtype: string;
  params: Map<string, string>;
  q: number;
}

const Q_VALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * The offered type the `Accept` header prefers. No header (or an empty one): the first offered
 * type. Nothing offered is acceptable: undefined, and the caller decides.
 */
export function preferredMediaType<T extends string>(accept: string | undefined, offered: readonly T[]): T | undefined {
  if (accept === undefined || accept.trim() === '') return offered[0];
  const ranges = accept.split(',').map(parseMedia).filter((r): r is Media => r !== null);
  let best: T | undefined;
  let bestQ = 0;
  for (const candidate of offered) {
    const type = parseMedia(candidate);
    const q = type === null ? 0 : qualityOf(type, ranges);
    if (q > bestQ) {
      best = candidate;
      bestQ = q;
    }
  }
  return best;
}

function qualityOf(offered: Media, ranges: Media[]): number {
  let specificity = -1;
  let q = 0;
  for (const r of ranges) {
    if (!matches(r, offered)) continue;
    const s = r.type === '*' ? 0 : r.subtype === '*' ? 1 : 2 + r.params.size;
    if (s > specificity || (s === specificity && r.q > q)) {
      specificity = s;
      q = r.q;
    }
  }
  return q;
}

function matches(range: Media, offered: Media): boolean {
  if (range.type !== '*' && range.type !== offered.type) return false;
  if (range.subtype !== '*' && range.subtype !== offered.subtype) return false;
  for (const [name, value] of range.params) if (offered.params.get(name) !== value) return false;
  return true;
}

function parseMedia(text: string): Media | null {
  const [essence = '', ...rest] = text.split(';');
  const [type = '', subtype] = essence.trim().toLowerCase().split('/');
  if (type === '' || !subtype) return null;
  const params = new Map<string, string>();
  let q = 1;
  for (const raw of rest) {
    const param = parseParam(raw);
    if (param === null) continue;
    if (param[0] === 'q') {
      if (!Q_VALUE.test(param[1])) return null;
      q = Number(param[1]);
      break; // what follows q are accept-extensions, not media-type parameters
    }
    params.set(param[0], param[1]);
  }
  return { type, subtype, params, q };
}

/** `name=value` with the name and value lowercased and quotes removed; null when malformed. */
function parseParam(raw: string): [string, string] | null {
  const eq = raw.indexOf('=');
  if (eq === -1) return null;
  const name = raw.slice(0, eq).trim().toLowerCase();
  let value = raw.slice(eq + 1).trim();
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  return name === '' ? null : [name, value.toLowerCase()];
}

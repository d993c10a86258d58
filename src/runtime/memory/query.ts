/**
 * A search query as a person or a model writes it, made into FTS5 query strings. The query is never
 * FTS5 syntax: each term (a run of characters between spaces, or a "quoted phrase") becomes one FTS5
 * string, in which nothing is an operator (`*`, `-`, `:`, `(`, `NEAR`, `OR` are literal; a `"` is
 * doubled). The tokenizer then splits the string into words, and words of one term must stand
 * together (`msg_01ab` finds `msg_01ab`, not `msg` and `01ab` apart).
 */

/** Terms of one query at most (a longer query keeps its first ones). */
export const MAX_TERMS = 16;
/** The first hit of an excerpt is looked for in this many characters of the text, at most. */
const HIT_SCAN_CHARS = 65_536;

/** The query's terms: quoted phrases and single words, each holding a letter or a digit, distinct. */
export function termsOf(query: string): string[] {
  // A NUL ends an FTS5 string early ("unterminated string"); no control character is part of a word.
  const clean = query.replace(/[\u0000-\u001f\u007f]/g, ' ');
  const terms: string[] = [];
  for (const m of clean.matchAll(/"([^"]*)"|[^\s"]+/gu)) {
    const term = (m[1] ?? m[0]).trim();
    if (/[\p{L}\p{N}]/u.test(term) && !terms.includes(term)) terms.push(term);
    if (terms.length === MAX_TERMS) break;
  }
  return terms;
}

/** One term as an FTS5 string: a phrase of its words, never an operator. */
export function ftsString(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/** Every term must occur (FTS5's implicit AND). */
export function allOf(terms: readonly string[]): string {
  return terms.map(ftsString).join(' ');
}

/** Any term may occur. */
export function anyOf(terms: readonly string[]): string {
  return terms.map(ftsString).join(' OR ');
}

/**
 * Where the first hit of a term is in `text`, roughly as the tokenizer sees it: case and diacritics
 * folded, and a word found by its stem's first letters (`deployed` for `deploying`). -1 if none.
 */
export function firstHit(text: string, terms: readonly string[]): number {
  const { folded, at } = fold(text);
  let best = -1;
  for (const term of terms) {
    const word = fold(term).folded.match(/[\p{L}\p{N}]+/u)?.[0];
    if (!word) continue;
    for (let len = word.length; len >= Math.min(word.length, Math.max(3, Math.ceil(word.length * 0.6))); len--) {
      const i = indexOfWord(folded, word.slice(0, len));
      if (i >= 0) {
        if (best < 0 || at[i]! < best) best = at[i]!;
        break;
      }
    }
  }
  return best;
}

/** At most `chars` characters of `text` around its first hit (a third before it), with … where cut. */
export function excerpt(text: string, terms: readonly string[], chars: number): string {
  if (text.length <= chars) return text;
  const hit = Math.max(0, firstHit(text.slice(0, HIT_SCAN_CHARS), terms));
  // A third of the room before the hit; at the end of the text, the room before it (one … then).
  let start = Math.max(0, Math.min(hit - Math.floor(chars / 3), text.length - chars + 1));
  // Never start or end inside a surrogate pair.
  if (start > 0 && isLowSurrogate(text.charCodeAt(start))) start++;
  const room = chars - (start > 0 ? 1 : 0);
  let end = start + room >= text.length ? text.length : start + room - 1;
  if (end < text.length && isLowSurrogate(text.charCodeAt(end))) end--;
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Lower case without diacritics, and for each folded character where it came from in `text`. */
function fold(text: string): { folded: string; at: number[] } {
  const parts: string[] = [];
  const at: number[] = [];
  for (let i = 0; i < text.length; ) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      parts.push(code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : text[i]!);
      at.push(i++);
      continue;
    }
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    const f = ch.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    for (let k = 0; k < f.length; k++) at.push(i);
    parts.push(f);
    i += ch.length;
  }
  return { folded: parts.join(''), at };
}

/** The first `word` in `folded` that starts a word (not inside another one). */
function indexOfWord(folded: string, word: string): number {
  for (let i = folded.indexOf(word); i >= 0; i = folded.indexOf(word, i + 1)) {
    if (i === 0 || !/[\p{L}\p{N}]/u.test(folded[i - 1]!)) return i;
  }
  return -1;
}

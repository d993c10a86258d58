/**
 * Applying an update's hunks to a file's text, in memory. Each hunk's old lines (context and
 * removed lines) are looked for after the previous hunk (and after its `@@ anchor` line, when it
 * names one), in passes from strict to loose, as Codex and Holon do: exactly; ignoring trailing
 * whitespace; ignoring leading and trailing whitespace; with runs of whitespace collapsed and
 * typographic dashes, quotes and spaces read as their ASCII forms. The first pass that finds the
 * lines decides, and it must find them exactly once in that part of the file: a second place is
 * ambiguous and refused (the model adds context or an anchor) rather than guessed. When a loose
 * pass matched, the context lines are kept as the file has them; only removed and added lines
 * change. `*** End of File` pins a hunk to the end of the file; a hunk without old lines inserts
 * after its anchor, or at the end of the file. Line endings follow the file (CRLF stays CRLF), and
 * so does a missing newline at its end.
 */
import type { Hunk } from './patch-parse.js';

export interface HunkFailure {
  /** 1-based index of the hunk in its file. */
  hunk: number;
  reason: 'context_not_found' | 'ambiguous_context' | 'anchor_not_found';
  detail: string;
}

export type HunkResult = { ok: true; text: string } | { ok: false; failure: HunkFailure };

const PUNCTUATION: Record<string, string> = {
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-', '\u2015': '-', '\u2212': '-',
  '\u2018': "'", '\u2019': "'", '\u201a': "'", '\u201b': "'",
  '\u201c': '"', '\u201d': '"', '\u201e': '"', '\u201f': '"',
  '\u00a0': ' ', '\u2002': ' ', '\u2003': ' ', '\u2009': ' ', '\u202f': ' ',
};
const LOOSE = /[\u2010-\u2015\u2212\u2018-\u201f\u00a0\u2002\u2003\u2009\u202f]/g;

const PASSES: Array<(s: string) => string> = [
  (s) => s,
  (s) => s.trimEnd(),
  (s) => s.trim(),
  (s) => s.replace(LOOSE, (c) => PUNCTUATION[c] ?? c).trim().replace(/\s+/g, ' '),
];

/** The file's lines under each pass, computed when a pass is first needed. */
class Lines {
  private readonly passes: Array<string[] | undefined> = [];
  constructor(readonly raw: string[]) {}
  under(pass: number): string[] {
    return (this.passes[pass] ??= pass === 0 ? this.raw : this.raw.map(PASSES[pass]!));
  }
}

/** Every start index in [from, to] where `needle` occurs under `pass`. */
function occurrences(lines: Lines, needle: string[], pass: number, from: number, to: number): number[] {
  const hay = lines.under(pass);
  const norm = needle.map(PASSES[pass]!);
  const found: number[] = [];
  for (let i = from; i <= to; i++) {
    if (hay[i] !== norm[0]) continue;
    let k = 1;
    while (k < norm.length && hay[i + k] === norm[k]) k++;
    if (k === norm.length) found.push(i);
  }
  return found;
}

/** Where `needle` starts at or after `from` (at the end when `atEnd`): the first pass that finds it decides. */
function locate(lines: Lines, needle: string[], from: number, atEnd: boolean): { index: number; pass: number } | { count: number; at: number[] } | null {
  const last = lines.raw.length - needle.length;
  if (last < from) return null;
  for (let pass = 0; pass < PASSES.length; pass++) {
    const found = occurrences(lines, needle, pass, atEnd ? last : from, last);
    if (found.length === 1) return { index: found[0]!, pass };
    if (found.length > 1) return { count: found.length, at: found.slice(0, 5) };
  }
  return null;
}

function anchorLine(lines: Lines, anchor: string, from: number): number {
  for (let pass = 0; pass < PASSES.length; pass++) {
    const hay = lines.under(pass);
    const norm = PASSES[pass]!(anchor);
    for (let i = from; i < hay.length; i++) if (hay[i] === norm) return i;
  }
  return -1;
}

/** Apply `hunks` to `text`. */
export function applyHunks(text: string, hunks: Hunk[]): HunkResult {
  const eol = /\r\n/.test(text.slice(0, text.indexOf('\n') + 1)) ? '\r\n' : '\n';
  const trailing = text === '' || text.endsWith(eol);
  const raw = text === '' ? [] : text.split(eol);
  if (text !== '' && trailing) raw.pop();
  const lines = new Lines(raw);
  const out: string[] = [];
  let cursor = 0;

  for (let h = 0; h < hunks.length; h++) {
    const hunk = hunks[h]!;
    const fail = (reason: HunkFailure['reason'], detail: string): HunkResult => ({ ok: false, failure: { hunk: h + 1, reason, detail } });
    let from = cursor;
    if (hunk.anchor !== null) {
      const at = anchorLine(lines, hunk.anchor, cursor);
      if (at === -1) return fail('anchor_not_found', `its @@ line ${JSON.stringify(hunk.anchor.slice(0, 120))} is not in the file${cursor > 0 ? ` after line ${cursor}` : ''}`);
      from = at + 1;
    }
    let old = hunk.lines.filter((l) => l.kind !== '+').map((l) => l.text);
    let body = hunk.lines;
    let start: number;
    let pass = 0;
    if (old.length === 0) {
      start = hunk.anchor !== null ? from : raw.length;
    } else {
      let found = locate(lines, old, from, hunk.endOfFile);
      // The anchor line may also open the context.
      if (found === null && hunk.anchor !== null) found = locate(lines, old, from - 1, hunk.endOfFile);
      // A blank last context line the file does not have (models add one before EOF).
      if (found === null && old[old.length - 1] === '' && body[body.length - 1]?.kind === ' ') {
        body = body.slice(0, -1);
        old = old.slice(0, -1);
        found = old.length > 0 ? locate(lines, old, from, hunk.endOfFile) : null;
      }
      if (found === null) {
        const earlier = from > 0 ? locate(lines, old, 0, false) : null;
        const where = earlier !== null ? ' after the previous hunk (hunks must follow the order of the file)' : hunk.endOfFile ? ' at the end of the file' : '';
        return fail('context_not_found', `its ${old.length} context and removed lines are not in the file${where}; read the file again and copy them exactly`);
      }
      if ('count' in found) {
        return fail('ambiguous_context', `its context and removed lines occur ${found.count} times (from line${found.count > 1 ? 's' : ''} ${found.at.map((i) => i + 1).join(', ')}); add context lines or an "@@" line naming the function or class above it`);
      }
      start = found.index;
      pass = found.pass;
    }
    for (let i = cursor; i < start; i++) out.push(raw[i]!);
    // A loose match keeps the file's own context lines; removed lines go, added lines come in.
    let k = start;
    for (const l of body) {
      if (l.kind === ' ') out.push(pass === 0 ? l.text : raw[k]!);
      else if (l.kind === '+') out.push(l.text);
      if (l.kind !== '+') k++;
    }
    cursor = k;
  }
  for (let i = cursor; i < raw.length; i++) out.push(raw[i]!);
  return { ok: true, text: out.length === 0 ? '' : out.join(eol) + (trailing ? eol : '') };
}

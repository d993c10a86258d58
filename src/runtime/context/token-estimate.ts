/**
 * The token estimate for models whose tokenizer is not at hand (Claude, Llama, Qwen, a local
 * model: docs/context.md#token-counting), and for any text too long to encode. One pass over the
 * UTF-16 code units, no allocation, so 10 MB takes tens of milliseconds. The rule mirrors how
 * byte-pair tokenizers cut text (a word is a token, a long or camelCase word is several, digits
 * go in small groups, punctuation runs merge, a line break with its indentation is a token or
 * two) with weights fitted on English prose, TypeScript and JSON against cl100k_base and
 * o200k_base (within 25% on any 8 KiB piece, within 10% over each kind; the unit tests hold it
 * to that). A model's own tokenizer differs: TokenCounter.observe learns the difference per model.
 */

/** Weights of the rule (tokens per occurrence). */
const W = {
  /** A run of ASCII letters and digits. */
  word: 1.1,
  /** Each letter of a run beyond its eighth. */
  longWordLetter: 1 / 8,
  /** A change inside a run: lower to upper case (camelCase), letter to digit or back. */
  shape: 1,
  /** Each digit (numbers go in groups of up to three; hex and hashes are denser). */
  digit: 0.75,
  /** A run of whitespace holding a line break. */
  lineBreak: 1,
  /** Two or more spaces or tabs after the last break of a run (indentation). */
  indent: 0.5,
  /** A run of ASCII punctuation, and each of its characters. */
  punctRun: 0.5,
  punctChar: 0.1,
  /** An ASCII control character (NUL and the like). */
  control: 1,
  /** A CJK ideograph, kana, hangul or full-width form: about a token each (3 UTF-8 bytes). */
  cjk: 1,
  /** Any other character of the basic plane (accented Latin, Cyrillic, Greek, Arabic...). */
  otherBmp: 0.5,
  /** A character outside the basic plane (emoji, rare ideographs: 4 UTF-8 bytes). */
  astral: 2,
} as const;

/** Character classes. */
const K = { Lower: 0, Upper: 1, Digit: 2, Space: 3, Break: 4, Punct: 5, Control: 6, Other: 7 } as const;
type K = (typeof K)[keyof typeof K];

/** Class of an ASCII code unit (index = code); everything >= 128 is Other. */
const ASCII: Uint8Array = (() => {
  const t = new Uint8Array(128);
  for (let c = 0; c < 128; c++) {
    if (c >= 97 && c <= 122) t[c] = K.Lower;
    else if (c >= 65 && c <= 90) t[c] = K.Upper;
    else if (c >= 48 && c <= 57) t[c] = K.Digit;
    else if (c === 32 || c === 9) t[c] = K.Space;
    else if (c === 10 || c === 13 || c === 11 || c === 12) t[c] = K.Break;
    else if (c < 32 || c === 127) t[c] = K.Control;
    else t[c] = K.Punct;
  }
  return t;
})();

const kindOf = (c: number): K => (c < 128 ? (ASCII[c] as K) : K.Other);

function isCjk(c: number): boolean {
  return (
    (c >= 0x2e80 && c <= 0x9fff) || // radicals, CJK punctuation, kana, CJK ideographs
    (c >= 0xa960 && c <= 0xa97f) ||
    (c >= 0xac00 && c <= 0xd7ff) || // hangul
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xfe30 && c <= 0xfe4f) ||
    (c >= 0xff00 && c <= 0xffef) // full-width forms
  );
}

/** Texts longer than this (UTF-16 code units) are estimated from SAMPLES evenly spaced slices. */
export const SAMPLE_ABOVE_CHARS = 1024 * 1024;
const SAMPLES = 16;
const SAMPLE_CHARS = 64 * 1024;

/**
 * Estimated tokens of `text` by the rule above; never throws (a lone surrogate counts as a
 * character). Over SAMPLE_ABOVE_CHARS the rule runs on evenly spaced slices and is scaled to the
 * whole length, so time stays bounded whatever the size (the slices' edges cut a word or two).
 */
export function estimateTokens(text: string): number {
  if (text.length <= SAMPLE_ABOVE_CHARS) return Math.ceil(ruleTokens(text, 0, text.length));
  const stride = Math.floor(text.length / SAMPLES);
  let t = 0;
  for (let s = 0; s < SAMPLES; s++) t += ruleTokens(text, s * stride, s * stride + SAMPLE_CHARS);
  return Math.ceil((t * text.length) / (SAMPLES * SAMPLE_CHARS));
}

/** Tokens of text[from, to) by the rule. */
function ruleTokens(text: string, from: number, to: number): number {
  const n = to;
  let t = 0;
  let i = from;
  while (i < n) {
    const c = text.charCodeAt(i);
    const k = kindOf(c);
    if (k === K.Lower || k === K.Upper || k === K.Digit) {
      let letters = 0;
      let prev = k;
      let j = i;
      for (; j < n; j++) {
        const d = kindOf(text.charCodeAt(j));
        if (d !== K.Lower && d !== K.Upper && d !== K.Digit) break;
        if (j > i && ((d === K.Upper && prev === K.Lower) || (d === K.Digit) !== (prev === K.Digit))) t += W.shape;
        if (d === K.Digit) t += W.digit;
        else letters++;
        prev = d;
      }
      t += W.word + Math.max(0, letters - 8) * W.longWordLetter;
      i = j;
    } else if (k === K.Space || k === K.Break) {
      let lineBreak = false;
      let tail = 0;
      let j = i;
      for (; j < n; j++) {
        const d = kindOf(text.charCodeAt(j));
        if (d === K.Break) {
          lineBreak = true;
          tail = 0;
        } else if (d === K.Space) tail++;
        else break;
      }
      // A single space joins the word after it.
      if (lineBreak) t += W.lineBreak;
      if (tail > 1) t += W.indent;
      i = j;
    } else if (k === K.Punct) {
      let j = i;
      while (j < n && kindOf(text.charCodeAt(j)) === K.Punct) j++;
      t += W.punctRun + (j - i) * W.punctChar;
      i = j;
    } else if (k === K.Control) {
      t += W.control;
      i++;
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      t += W.astral;
      i += 2;
    } else {
      t += isCjk(c) ? W.cjk : W.otherBmp;
      i++;
    }
  }
  return t;
}

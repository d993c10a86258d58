/**
 * Regular expressions in linear time, for AgentInbox's `matches` and `glob` helpers
 * (agentinbox-functions.ts). A filter runs inside the append's transaction, and JavaScript's own
 * engine backtracks: `(a|a)*b` over 30 characters, or the glob `*a*a*a*a*a*a*b`, holds the event
 * loop for seconds. Here a pattern becomes a Thompson automaton that is run over the input once,
 * keeping the set of live states (a Pike VM without captures): time is the input's length times
 * the automaton's size, and every step is charged to the caller's meter.
 *
 * The pattern language is JavaScript's without flags (UTF-16 code units, Annex B's lenient
 * escapes), minus what `matches` refuses before it gets here (groups starting `(?`: lookaround,
 * named and non-capturing groups; back-references). Only whether a match exists is answered,
 * which does not depend on backtracking order, so the answers are RegExp.prototype.test's.
 * The caller checks first that `new RegExp(pattern)` accepts the pattern; a pattern it accepts
 * that this parser does not is `null` (no match).
 */

/** Automata larger than this are not built (a counted repetition copies its operand). */
export const MAX_STATES = 20_000;

/** Sorted inclusive code-unit ranges [lo, hi, lo, hi, ...], possibly negated. */
interface CharSet {
  ranges: number[];
  negated: boolean;
}

type State =
  | { kind: 'char'; set: CharSet; next: number }
  | { kind: 'split'; next: number; alt: number }
  | { kind: 'assert'; what: '^' | '$' | 'b' | 'B'; next: number }
  | { kind: 'match' };

/** A parsed pattern. */
type Node =
  | { t: 'set'; set: CharSet }
  | { t: 'assert'; what: '^' | '$' | 'b' | 'B' }
  | { t: 'seq'; items: Node[] }
  | { t: 'alt'; options: Node[] }
  | { t: 'repeat'; node: Node; min: number; max: number };

export interface LinearRegex {
  /** Whether the pattern matches anywhere in `input`; `charge` is called with units of work (and may throw to stop). */
  test(input: string, charge: (units: number) => void): boolean;
}

class Unsupported extends Error {}

const range = (...bounds: number[]): CharSet => ({ ranges: bounds, negated: false });
const code = (c: string) => c.charCodeAt(0);
const DIGIT = range(48, 57);
const WORD = range(48, 57, 65, 90, 95, 95, 97, 122);
const SPACE = range(9, 13, 32, 32, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f, 0x205f, 0x3000, 0x3000, 0xfeff, 0xfeff);
const LINE_TERMINATORS = range(10, 10, 13, 13, 0x2028, 0x2029);
const DOT: CharSet = { ranges: LINE_TERMINATORS.ranges, negated: true };
const negate = (s: CharSet): CharSet => ({ ranges: s.ranges, negated: !s.negated });

function inSet(set: CharSet, c: number): boolean {
  const r = set.ranges;
  let found = false;
  for (let i = 0; i < r.length; i += 2) {
    if (c >= r[i]! && c <= r[i + 1]!) {
      found = true;
      break;
    }
  }
  return found !== set.negated;
}

const isWord = (s: string, i: number) => i >= 0 && i < s.length && inSet(WORD, s.charCodeAt(i));

/** A class's members: code-unit ranges and whole classes (`\d`, `\W` ...), unioned, then maybe negated. */
function union(parts: CharSet[], negated: boolean): CharSet {
  const members: number[] = [];
  for (const p of parts) members.push(...(p.negated ? complement(p.ranges) : p.ranges));
  const merged = mergeRanges(members);
  return negated ? { ranges: complement(merged), negated: false } : { ranges: merged, negated: false };
}

function mergeRanges(r: number[]): number[] {
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < r.length; i += 2) pairs.push([r[i]!, r[i + 1]!]);
  pairs.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [lo, hi] of pairs) {
    if (out.length > 0 && lo <= out[out.length - 1]! + 1) out[out.length - 1] = Math.max(out[out.length - 1]!, hi);
    else out.push(lo, hi);
  }
  return out;
}

function complement(r: number[]): number[] {
  const merged = mergeRanges(r);
  const out: number[] = [];
  let from = 0;
  for (let i = 0; i < merged.length; i += 2) {
    if (merged[i]! > from) out.push(from, merged[i]! - 1);
    from = merged[i + 1]! + 1;
  }
  if (from <= 0xffff) out.push(from, 0xffff);
  return out;
}

const isHex = (c: string | undefined) => c !== undefined && /^[0-9A-Fa-f]$/.test(c);
const isOctal = (c: string | undefined) => c !== undefined && c >= '0' && c <= '7';
const isLetter = (c: string | undefined) => c !== undefined && /^[A-Za-z]$/.test(c);

/** Recursive descent over JavaScript's pattern grammar (Annex B, no flags). */
class Parser {
  private i = 0;
  constructor(private readonly p: string) {}

  parse(): Node {
    const node = this.disjunction();
    if (this.i < this.p.length) throw new Unsupported(`unexpected ${this.p[this.i]}`);
    return node;
  }

  private disjunction(): Node {
    const options = [this.alternative()];
    while (this.p[this.i] === '|') {
      this.i++;
      options.push(this.alternative());
    }
    return options.length === 1 ? options[0]! : { t: 'alt', options };
  }

  private alternative(): Node {
    const items: Node[] = [];
    while (this.i < this.p.length && this.p[this.i] !== '|' && this.p[this.i] !== ')') {
      const atom = this.term();
      items.push(this.quantified(atom));
    }
    return { t: 'seq', items };
  }

  private term(): Node {
    const c = this.p[this.i]!;
    if (c === '^' || c === '$') {
      this.i++;
      return { t: 'assert', what: c };
    }
    if (c === '\\' && (this.p[this.i + 1] === 'b' || this.p[this.i + 1] === 'B')) {
      this.i += 2;
      return { t: 'assert', what: this.p[this.i - 1] as 'b' | 'B' };
    }
    if (c === '(') {
      if (this.p[this.i + 1] === '?') throw new Unsupported('(? groups');
      this.i++;
      const inner = this.disjunction();
      if (this.p[this.i] !== ')') throw new Unsupported('unclosed group');
      this.i++;
      return inner;
    }
    if (c === '.') {
      this.i++;
      return { t: 'set', set: DOT };
    }
    if (c === '[') return { t: 'set', set: this.charClass() };
    if (c === '\\') {
      this.i++;
      return { t: 'set', set: this.atomEscape(false) };
    }
    if (c === '*' || c === '+' || c === '?' || (c === '{' && this.quantifierAt(this.i) !== null)) throw new Unsupported('nothing to repeat');
    this.i++;
    return { t: 'set', set: range(code(c), code(c)) };
  }

  /** `{n}`, `{n,}` or `{n,m}` at `at` (Annex B: otherwise `{` is a literal). */
  private quantifierAt(at: number): { min: number; max: number; end: number } | null {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(this.p.slice(at));
    if (!m) return null;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
    return { min, max, end: at + m[0].length };
  }

  private quantified(atom: Node): Node {
    const c = this.p[this.i];
    let min: number;
    let max: number;
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{' && this.quantifierAt(this.i)) {
      const q = this.quantifierAt(this.i)!;
      [min, max] = [q.min, q.max];
      this.i = q.end - 1;
    } else return atom;
    if (atom.t === 'assert') throw new Unsupported('nothing to repeat');
    if (min > MAX_STATES || (max !== Infinity && max > MAX_STATES)) throw new Unsupported('repetition count too large');
    this.i++;
    if (this.p[this.i] === '?') this.i++; // lazy: the same language
    return { t: 'repeat', node: atom, min, max };
  }

  /** After a backslash; `inClass` reads `\b` as backspace and `\-` as a hyphen. */
  private atomEscape(inClass: boolean): CharSet {
    const c = this.p[this.i];
    if (c === undefined) throw new Unsupported('trailing backslash');
    this.i++;
    const lit = (n: number) => range(n, n);
    switch (c) {
      case 'd':
        return DIGIT;
      case 'D':
        return negate(DIGIT);
      case 'w':
        return WORD;
      case 'W':
        return negate(WORD);
      case 's':
        return SPACE;
      case 'S':
        return negate(SPACE);
      case 'f':
        return lit(12);
      case 'n':
        return lit(10);
      case 'r':
        return lit(13);
      case 't':
        return lit(9);
      case 'v':
        return lit(11);
      case 'b':
        if (inClass) return lit(8);
        break;
      case 'c': {
        const next = this.p[this.i];
        if (isLetter(next) || (inClass && next !== undefined && /[0-9_]/.test(next))) {
          this.i++;
          return lit(code(next!) % 32);
        }
        this.i--; // Annex B: `\c` not followed by a control letter is a backslash, then `c`
        return lit(92);
      }
      case 'x':
        if (isHex(this.p[this.i]) && isHex(this.p[this.i + 1])) {
          this.i += 2;
          return lit(parseInt(this.p.slice(this.i - 2, this.i), 16));
        }
        return lit(code('x'));
      case 'u':
        if ([0, 1, 2, 3].every((k) => isHex(this.p[this.i + k]))) {
          this.i += 4;
          return lit(parseInt(this.p.slice(this.i - 4, this.i), 16));
        }
        return lit(code('u'));
      case '0':
        return lit(this.octal(0));
      default:
        if (c >= '1' && c <= '9') {
          // Not a back-reference here (matches refuses those); in a class, a legacy octal or the digit.
          if (!inClass) throw new Unsupported('back-reference');
          if (c <= '7') return lit(this.octal(Number(c)));
          return lit(code(c));
        }
    }
    return lit(code(c));
  }

  /** Annex B legacy octal escape: `\0`, `\07`, `\012`, `\377`; the first digit already read. */
  private octal(first: number): number {
    let value = first;
    if (isOctal(this.p[this.i])) {
      value = value * 8 + Number(this.p[this.i++]);
      if (first <= 3 && isOctal(this.p[this.i])) value = value * 8 + Number(this.p[this.i++]);
    }
    return value;
  }

  private charClass(): CharSet {
    this.i++; // [
    let negated = false;
    if (this.p[this.i] === '^') {
      negated = true;
      this.i++;
    }
    const parts: CharSet[] = [];
    while (this.p[this.i] !== ']') {
      if (this.i >= this.p.length) throw new Unsupported('unclosed class');
      const from = this.classAtom();
      if (this.p[this.i] === '-' && this.p[this.i + 1] !== ']' && this.i + 1 < this.p.length) {
        this.i++;
        const to = this.classAtom();
        const single = (s: CharSet) => !s.negated && s.ranges.length === 2 && s.ranges[0] === s.ranges[1];
        if (single(from) && single(to)) {
          if (from.ranges[0]! > to.ranges[0]!) throw new Unsupported('range out of order');
          parts.push(range(from.ranges[0]!, to.ranges[0]!));
        } else parts.push(from, range(45, 45), to); // Annex B: [\d-z] is \d, '-' and 'z'
      } else parts.push(from);
    }
    this.i++; // ]
    return union(parts, negated);
  }

  private classAtom(): CharSet {
    const c = this.p[this.i]!;
    this.i++;
    if (c !== '\\') return range(code(c), code(c));
    if (this.p[this.i] === '-') {
      this.i++;
      return range(45, 45);
    }
    return this.atomEscape(true);
  }
}

/** Thompson construction into `states`, which it appends to; returns the fragment's entry, whose exit is patched to `next`. */
class Builder {
  readonly states: State[] = [];

  build(node: Node, next: number): number {
    if (this.states.length > MAX_STATES) throw new Unsupported('automaton too large');
    switch (node.t) {
      case 'set':
        return this.push({ kind: 'char', set: node.set, next });
      case 'assert':
        return this.push({ kind: 'assert', what: node.what, next });
      case 'seq': {
        let entry = next;
        for (let k = node.items.length - 1; k >= 0; k--) entry = this.build(node.items[k]!, entry);
        return entry;
      }
      case 'alt': {
        let entry = this.build(node.options[node.options.length - 1]!, next);
        for (let k = node.options.length - 2; k >= 0; k--) entry = this.push({ kind: 'split', next: this.build(node.options[k]!, next), alt: entry });
        return entry;
      }
      case 'repeat': {
        let entry = next;
        if (node.max === Infinity) {
          // A loop: split -> (body -> split) | next.
          const loop = this.push({ kind: 'split', next: -1, alt: next });
          (this.states[loop] as { next: number }).next = this.build(node.node, loop);
          entry = loop;
        } else {
          for (let k = node.min; k < node.max; k++) entry = this.push({ kind: 'split', next: this.build(node.node, entry), alt: next });
        }
        for (let k = 0; k < node.min; k++) entry = this.build(node.node, entry);
        return entry;
      }
    }
  }

  private push(state: State): number {
    this.states.push(state);
    return this.states.length - 1;
  }
}

/** The automaton's run: the live states at each position, as a Pike VM keeps them (no captures). */
function automaton(root: Node, anchoredWhole: boolean): LinearRegex {
  const b = new Builder();
  const accept = b.states.push({ kind: 'match' }) - 1;
  const start = b.build(root, accept);
  const states = b.states;
  const size = states.length;
  return {
    test(input, charge) {
      // Each state enters a list at most once per position (`seen` holds the position it last did).
      const seen = new Int32Array(size).fill(-1);
      const stack = new Int32Array(size);
      let current = new Int32Array(size);
      let next = new Int32Array(size);
      let live = 0;
      let matched = false;
      let top = 0;
      const enter = (id: number, pos: number) => {
        if (seen[id] === pos) return;
        seen[id] = pos;
        stack[top++] = id;
      };
      // Adds to `into` (from `count` on) the reading states `s` reaches without reading at `pos`.
      const add = (into: Int32Array, count: number, s: number, pos: number): number => {
        enter(s, pos);
        while (top > 0) {
          const id = stack[--top]!;
          const st = states[id]!;
          if (st.kind === 'split') {
            enter(st.next, pos);
            enter(st.alt, pos);
          } else if (st.kind === 'assert') {
            if (assertion(st.what, input, pos)) enter(st.next, pos);
          } else if (st.kind === 'match') matched = true;
          else into[count++] = id;
        }
        return count;
      };
      for (let pos = 0; ; pos++) {
        // An unanchored search may start anywhere: the start state joins the live set at every position.
        if (pos === 0 || !anchoredWhole) live = add(current, live, start, pos);
        if (matched && (!anchoredWhole || pos === input.length)) return true;
        matched = false;
        if (pos === input.length || (anchoredWhole && live === 0)) return false;
        charge(1 + (live >> 3));
        const c = input.charCodeAt(pos);
        let reached = 0;
        for (let k = 0; k < live; k++) {
          const st = states[current[k]!] as { set: CharSet; next: number };
          if (inSet(st.set, c)) reached = add(next, reached, st.next, pos + 1);
        }
        [current, next] = [next, current];
        live = reached;
      }
    },
  };
}

function assertion(what: '^' | '$' | 'b' | 'B', s: string, pos: number): boolean {
  if (what === '^') return pos === 0;
  if (what === '$') return pos === s.length;
  const boundary = isWord(s, pos - 1) !== isWord(s, pos);
  return what === 'b' ? boundary : !boundary;
}

/** A JavaScript pattern (no flags) as a linear-time matcher; null when this parser does not take it. */
export function compileRegex(pattern: string): LinearRegex | null {
  try {
    return automaton(new Parser(pattern).parse(), false);
  } catch (err) {
    if (err instanceof Unsupported) return null;
    throw err;
  }
}

/**
 * AgentInbox's glob as a whole-string matcher: `**` is any run of characters but line
 * terminators (its `.*`), `*` any run without `/` (`[^/]*`), anything else itself.
 */
export function compileGlob(pattern: string): LinearRegex | null {
  const items: Node[] = [];
  for (let k = 0; k < pattern.length; k++) {
    if (pattern[k] === '*' && pattern[k + 1] === '*') {
      items.push({ t: 'repeat', node: { t: 'set', set: DOT }, min: 0, max: Infinity });
      k++;
    } else if (pattern[k] === '*') items.push({ t: 'repeat', node: { t: 'set', set: negate(range(47, 47)) }, min: 0, max: Infinity });
    else items.push({ t: 'set', set: range(pattern.charCodeAt(k), pattern.charCodeAt(k)) });
  }
  try {
    return automaton({ t: 'seq', items }, true);
  } catch (err) {
    if (err instanceof Unsupported) return null;
    throw err;
  }
}

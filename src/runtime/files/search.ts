/**
 * search_files: a regular expression over the files of a workspace, by ripgrep when it is
 * installed (search-rg.ts) or by a bounded walk in JS (search-js.ts). Both take the same spec,
 * skip the same files (.git, .gitignore'd paths, symlinks, binary files, files over
 * max_file_bytes) and fill the same collector, which bounds the answer: at most `maxMatches`
 * matches, each line cut to MAX_LINE_CHARS characters, the whole within the result budget, and a
 * time limit after which the search answers with what it found. The pattern is checked as a JS
 * regular expression first (Unicode mode, else plain), so a bad one is refused the same way
 * whichever engine runs; ripgrep refusing a pattern JS accepts (a lookaround) hands the search
 * to the JS engine.
 */
import { errors } from '../../core/index.js';
import { shown } from './confine.js';

/** A matched or context line longer than this is cut (with a marker). */
export const MAX_LINE_CHARS = 500;

export interface SearchSpec {
  /** Real path of the workspace root (results are relative to it). */
  root: string;
  /** Real path of the directory (or the one file) searched. */
  start: string;
  startIsFile: boolean;
  pattern: string;
  caseInsensitive: boolean;
  glob?: string | undefined;
  includeIgnored: boolean;
  contextLines: number;
  maxFileBytes: number;
  /** performance.now() after which the search stops. */
  deadline: number;
  signal: AbortSignal;
}

export interface SearchMatch {
  path: string;
  line: number;
  text: string;
  before?: string[];
  after?: string[];
}

export type SearchStop = 'matches' | 'bytes' | 'time' | 'visited' | 'aborted';

/** Where matches gather, within their bounds. */
export class MatchCollector {
  readonly matches: SearchMatch[] = [];
  stopped: SearchStop | null = null;
  private encoded = 0;

  constructor(
    private readonly maxMatches: number,
    private readonly maxEncoded: number,
  ) {}

  get full(): boolean {
    return this.stopped !== null;
  }

  /** How many more matches fit. */
  get room(): number {
    return Math.max(0, this.maxMatches - this.matches.length);
  }

  /** Add a match; false once the collector is full (the match is then not kept). */
  add(m: SearchMatch): boolean {
    if (this.stopped) return false;
    if (this.matches.length >= this.maxMatches) {
      this.stopped = 'matches';
      return false;
    }
    const size = Buffer.byteLength(JSON.stringify(m)) + 1;
    if (this.encoded + size > this.maxEncoded) {
      this.stopped = 'bytes';
      return false;
    }
    this.encoded += size;
    this.matches.push(m);
    return true;
  }

  /** A context line after a kept match (counted against the budget, never refused). */
  addAfter(m: SearchMatch, text: string): void {
    (m.after ??= []).push(text);
    this.encoded += Buffer.byteLength(JSON.stringify(text)) + 1;
  }

  stop(why: SearchStop): void {
    this.stopped ??= why;
  }
}

/** A line as shown: without its line ending, cut to MAX_LINE_CHARS. */
export function lineText(raw: string): string {
  const line = raw.endsWith('\n') ? raw.slice(0, raw.endsWith('\r\n') ? -2 : -1) : raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  return line.length <= MAX_LINE_CHARS ? line : `${line.slice(0, MAX_LINE_CHARS)}… [line cut at ${MAX_LINE_CHARS} of ${line.length} characters]`;
}

/** The pattern as a JS RegExp source and flags (Unicode mode when the pattern allows it). */
export function compilePattern(pattern: string, caseInsensitive: boolean): { source: string; flags: string } {
  // No program argument may hold one, and no line of text does: refused like any bad pattern.
  if (pattern.includes('\0')) throw errors.invalidPattern(shown(pattern), 'it contains a NUL character (write \\x00 to match one)');
  const base = caseInsensitive ? 'i' : '';
  try {
    new RegExp(pattern, `${base}u`);
    return { source: pattern, flags: `${base}u` };
  } catch {
    try {
      new RegExp(pattern, base);
      return { source: pattern, flags: base };
    } catch (err) {
      // V8 quotes the whole pattern before the reason ("Invalid regular expression: /a(/: ..."): keep the reason.
      const message = (err as Error).message;
      throw errors.invalidPattern(shown(pattern), message.slice(message.lastIndexOf(': ') + 2));
    }
  }
}

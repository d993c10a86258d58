/**
 * A bounded walk of a workspace tree, breadth first (the shallow structure comes first when a cap
 * cuts the walk), names sorted in each directory. `.git` is never entered; symlinks are reported
 * but never followed (a link out of the workspace leads nowhere here). `.gitignore` files are
 * honoured as git does, nested ones included: each directory's rules apply below it, a deeper rule
 * (a `!negation` too) wins over a shallower one, and an ignored directory is not entered. The
 * rules of the directories between the workspace root and the walk's start apply as well.
 *
 * A glob filters what is reported, as ripgrep's `--glob` does, so both search engines agree: a
 * glob without `/` matches a name at any depth, one with `/` a path relative to the walk's start;
 * `!glob` excludes matching files and directories. A glob that selects files also selects files
 * `.gitignore` lists by name (directories it lists stay unentered): asking for them is explicit.
 *
 * Bounds: `maxVisited` directory entries read and a deadline; the walk says which one stopped it.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';
import { relativeTo } from './confine.js';

/** A .gitignore larger than this is not read (its rules are skipped). */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

export interface WalkEntry {
  /** Relative to the workspace root, `/`-separated. */
  rel: string;
  abs: string;
  kind: 'file' | 'directory' | 'symlink' | 'other';
}

export interface WalkOptions {
  /** Real path of the workspace root. */
  root: string;
  /** Real path of the directory the walk starts in (the root or below it). */
  start: string;
  glob?: string | undefined;
  includeIgnored: boolean;
  /** Report directories too (list_files), or files only (search). */
  directories: boolean;
  maxVisited: number;
  /** performance.now() after which the walk stops. */
  deadline: number;
}

export type WalkStop = 'visited' | 'time' | null;

/** The gitignore rules of the directories seen so far, by real path. */
export class IgnoreRules {
  private readonly byDir = new Map<string, Ignore | null>();

  constructor(private readonly root: string) {}

  /** Read the rules of `dir` (once). */
  async load(dir: string): Promise<void> {
    if (this.byDir.has(dir)) return;
    this.byDir.set(dir, null);
    const file = path.join(dir, '.gitignore');
    try {
      const st = await fsp.lstat(file);
      if (!st.isFile() || st.size > MAX_IGNORE_FILE_BYTES) return;
      this.byDir.set(dir, ignore().add(await fsp.readFile(file, 'utf8')));
    } catch {
      // No rules here (or unreadable ones: nothing is hidden by them).
    }
  }

  /** Load the rules of every directory from the root down to `dir`. */
  async loadDown(dir: string): Promise<void> {
    const rel = relativeTo(this.root, dir);
    let cur = this.root;
    await this.load(cur);
    if (rel === '.') return;
    for (const name of rel.split('/')) {
      cur = path.join(cur, name);
      await this.load(cur);
    }
  }

  /** Whether `abs` (a directory when `isDir`) is ignored by the rules loaded for its ancestors. */
  ignored(abs: string, isDir: boolean): boolean {
    let state = false;
    let dir = path.dirname(abs);
    const chain: string[] = [];
    for (;;) {
      chain.push(dir);
      if (dir === this.root || !dir.startsWith(this.root)) break;
      dir = path.dirname(dir);
    }
    for (const base of chain.reverse()) {
      const rules = this.byDir.get(base);
      if (!rules) continue;
      const rel = relativeTo(base, abs) + (isDir ? '/' : '');
      let r: { ignored: boolean; unignored: boolean };
      try {
        r = rules.test(rel);
      } catch {
        continue; // a name the library cannot test (only dots): no rule names it
      }
      if (r.ignored) state = true;
      else if (r.unignored) state = false;
    }
    return state;
  }
}

/** A glob as a predicate on paths relative to the walk's start (see the header). */
export function globFilter(glob: string | undefined): { exclude: boolean; match: (rel: string) => boolean } | null {
  if (!glob) return null;
  const exclude = glob.startsWith('!');
  const pattern = exclude ? glob.slice(1) : glob;
  const match = picomatch(pattern, { dot: true, basename: !pattern.includes('/') });
  return { exclude, match };
}

/** Walk the tree (see the header); `onEntry` returns false to stop. */
export async function walk(opts: WalkOptions, onEntry: (e: WalkEntry) => boolean | Promise<boolean>): Promise<WalkStop> {
  const rules = new IgnoreRules(opts.root);
  if (!opts.includeIgnored) await rules.loadDown(opts.start);
  const filter = globFilter(opts.glob);
  const queue: string[] = [opts.start];
  let visited = 0;
  for (let i = 0; i < queue.length; i++) {
    const dir = queue[i]!;
    if (performance.now() > opts.deadline) return 'time';
    let names: import('node:fs').Dirent[];
    try {
      names = await fsp.readdir(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable or gone: nothing to report below it
    }
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const d of names) {
      if (++visited > opts.maxVisited) return 'visited';
      if (d.name === '.git') continue;
      const abs = path.join(dir, d.name);
      const kind = d.isDirectory() ? 'directory' : d.isFile() ? 'file' : d.isSymbolicLink() ? 'symlink' : 'other';
      const isDir = kind === 'directory';
      const fromStart = relativeTo(opts.start, abs);
      const globbed = filter ? filter.match(fromStart) : false;
      if (filter?.exclude && globbed) continue;
      const selected = filter && !filter.exclude && !isDir ? globbed : true;
      if (!selected) continue;
      const explicitlyNamed = filter !== null && !filter.exclude && !isDir;
      if (!opts.includeIgnored && !explicitlyNamed && rules.ignored(abs, isDir)) continue;
      if (isDir) {
        if (!opts.includeIgnored) await rules.load(abs);
        queue.push(abs);
        if (!opts.directories || (filter && !filter.exclude)) continue;
      }
      if (!(await onEntry({ rel: relativeTo(opts.root, abs), abs, kind }))) return null;
    }
    queue[i] = ''; // let the walked directory's path go
  }
  return null;
}

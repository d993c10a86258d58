/**
 * A bounded walk of a workspace tree, breadth first (the shallow structure comes first when a cap
 * cuts the walk), names sorted in each directory. `.git` is never entered; symlinks are reported
 * but never followed (a link out of the workspace leads nowhere here). `.gitignore` files are
 * honoured as git does, nested ones included: each directory's rules apply below it, a deeper rule
 * (a `!negation` too) wins over a shallower one, and an ignored directory is not entered. The
 * rules of the directories between the workspace root and the walk's start apply as well, except
 * those that ignore the start itself (named explicitly, it is walked, as ripgrep does).
 *
 * A glob filters what is reported, as ripgrep's `--glob` does, so both search engines agree: a
 * glob without `/` matches a name at any depth, one with `/` a path relative to the walk's start;
 * `!glob` excludes matching files and directories. A glob that selects files also selects files
 * `.gitignore` lists by name (directories it lists stay unentered): asking for them is explicit.
 *
 * Bounds: `maxVisited` directory entries read and a deadline; the walk says which one stopped it.
 */
import type { Dirent } from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';
import { errors } from '../../core/index.js';
import { relativeTo, shown } from './confine.js';

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

/** One directory's .gitignore rules, and where that directory is (relative to the root, '' for the root). */
interface Rules {
  base: string;
  ignore: Ignore;
}

/** The rules of `dir`'s .gitignore, or null when it has none (or one too large or unreadable). */
async function rulesOf(dirAbs: string, base: string): Promise<Rules | null> {
  const file = path.join(dirAbs, '.gitignore');
  try {
    const st = await fsp.lstat(file);
    if (!st.isFile() || st.size > MAX_IGNORE_FILE_BYTES) return null;
    return { base, ignore: ignore().add(await fsp.readFile(file, 'utf8')) };
  } catch {
    return null; // no rules here (or unreadable ones: nothing is hidden by them)
  }
}

/**
 * Whether `rel` (relative to the root; a directory when `isDir`) is ignored by `chain`, the rules
 * of its ancestors from the root down: as in git, the deepest rule that says anything wins.
 */
function ignoredBy(chain: readonly Rules[], rel: string, isDir: boolean): boolean {
  let state = false;
  for (const r of chain) {
    const sub = (r.base === '' ? rel : rel.slice(r.base.length + 1)) + (isDir ? '/' : '');
    let t: { ignored: boolean; unignored: boolean };
    try {
      t = r.ignore.test(sub);
    } catch {
      continue; // a name the library cannot test (only dots): no rule names it
    }
    if (t.ignored) state = true;
    else if (t.unignored) state = false;
  }
  return state;
}

/**
 * The rules of every directory from the root down to `startRel` (itself included). A start the
 * model named explicitly is walked even when it is ignored, as ripgrep searches an ignored
 * directory it is given: a .gitignore that ignores the start (or a directory above it) is left
 * out of the chain, or it would hide everything below.
 */
async function chainDown(root: string, startRel: string): Promise<Rules[]> {
  const chain: Rules[] = [];
  const names = startRel === '' ? [] : startRel.split('/');
  for (let depth = 0; depth <= names.length; depth++) {
    const rel = names.slice(0, depth).join('/');
    const r = await rulesOf(path.join(root, rel), rel);
    if (!r) continue;
    // (`test` also looks at the directories between: one of them ignored hides the start too.)
    if (depth === names.length || !ignoredBy([r], startRel, true)) chain.push(r);
  }
  return chain;
}

/** A glob as a predicate on paths relative to the walk's start (see the header). */
export function globFilter(glob: string | undefined): { exclude: boolean; match: (rel: string) => boolean } | null {
  if (!glob) return null;
  if (glob.includes('\0')) throw errors.pathInvalid(shown(glob), 'a glob may not contain a NUL character');
  const exclude = glob.startsWith('!');
  const pattern = exclude ? glob.slice(1) : glob;
  const match = picomatch(pattern, { dot: true, basename: !pattern.includes('/') });
  return { exclude, match };
}

interface Dir {
  abs: string;
  rel: string;
  chain: readonly Rules[];
}

/** Walk the tree (see the header); `onEntry` returns false to stop. */
export async function walk(opts: WalkOptions, onEntry: (e: WalkEntry) => boolean | Promise<boolean>): Promise<WalkStop> {
  const startRel = relativeTo(opts.root, opts.start).replace(/^\.$/, '');
  const fromStart = (rel: string) => (startRel === '' ? rel : rel.slice(startRel.length + 1));
  const filter = globFilter(opts.glob);
  const queue: Array<Dir | null> = [{ abs: opts.start, rel: startRel, chain: opts.includeIgnored ? [] : await chainDown(opts.root, startRel) }];
  let visited = 0;
  for (let i = 0; i < queue.length; i++) {
    const dir = queue[i]!;
    queue[i] = null; // let the walked directory go
    if (performance.now() > opts.deadline) return 'time';
    let names: Dirent[];
    try {
      names = await fsp.readdir(dir.abs, { withFileTypes: true });
    } catch {
      continue; // unreadable or gone: nothing to report below it
    }
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const d of names) {
      if (++visited > opts.maxVisited) return 'visited';
      if (d.name === '.git') continue;
      const rel = dir.rel === '' ? d.name : `${dir.rel}/${d.name}`;
      const kind = d.isDirectory() ? 'directory' : d.isFile() ? 'file' : d.isSymbolicLink() ? 'symlink' : 'other';
      const isDir = kind === 'directory';
      const globbed = filter ? filter.match(fromStart(rel)) : false;
      if (filter?.exclude && globbed) continue;
      // A glob that selects files names them: it is not asked of directories, and overrides
      // a .gitignore rule that names a selected file.
      const selects = filter !== null && !filter.exclude && !isDir;
      if (selects && !globbed) continue;
      if (!selects && ignoredBy(dir.chain, rel, isDir)) continue;
      const abs = path.join(dir.abs, d.name);
      if (isDir) {
        const own = opts.includeIgnored ? null : await rulesOf(abs, rel);
        queue.push({ abs, rel, chain: own ? [...dir.chain, own] : dir.chain });
        if (!opts.directories || (filter && !filter.exclude)) continue;
      }
      if (!(await onEntry({ rel, abs, kind }))) return null;
    }
  }
  return null;
}

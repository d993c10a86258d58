/**
 * The pieces of skills that touch the outside world: SKILL.md frontmatter (of one skill directory,
 * or of every skill directory in a root: `scanRoot`), where a skill comes from (a local directory,
 * a git URL, the `owner/repo/path@ref` shorthand), git through runtime/git-command.ts (never a
 * shell), locating the skill in a fetched tree, and the lock file `<home>/.skill-lock.json`.
 * Reading a skill's files (the walk, the content hash, the copy) is skill-files.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { errors, readRegularFile, writePrivateFile } from '../../core/index.js';
import { runGit } from '../git-command.js';
import { isInside, MANIFEST_MAX_BYTES, SKILL_FILE } from './skill-files.js';

export { SKILL_FILE };
export const LOCK_FILE = '.skill-lock.json';
/** A skill name doubles as a directory name: the agent-id alphabet. */
export const SKILL_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

// --- frontmatter ---------------------------------------------------------------------------------

export interface Frontmatter {
  fields: Record<string, string>;
  body: string;
}

/**
 * The YAML frontmatter of a SKILL.md, read as simple `key: value` lines: quoted values are
 * unquoted, `|` and `>` block scalars take the indented lines below them, comments and lines that
 * are not `key: value` (nested maps, lists) are ignored. No frontmatter gives `fields: {}`.
 */
export function parseFrontmatter(text: string): Frontmatter {
  const src = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const lines = src.split('\n');
  if (lines[0]?.trim() !== '---') return { fields: {}, body: src };
  const end = lines.findIndex((l, i) => i > 0 && (l.trim() === '---' || l.trim() === '...'));
  if (end === -1) return { fields: {}, body: src };
  const fields: Record<string, string> = {};
  for (let i = 1; i < end; i++) {
    const line = lines[i]!;
    const m = /^([A-Za-z_][\w.-]*)\s*:(?:\s+(.*)|\s*)$/.exec(line);
    if (!m) continue;
    const key = m[1]!;
    let value = (m[2] ?? '').trim();
    if (/^[|>][+-]?$/.test(value)) {
      const block: string[] = [];
      while (i + 1 < end && (/^\s/.test(lines[i + 1]!) || lines[i + 1]!.trim() === '')) block.push(lines[++i]!.trim());
      while (block.length && block[block.length - 1] === '') block.pop();
      fields[key] = value.startsWith('|') ? block.join('\n') : block.join(' ').replace(/\s+/g, ' ').trim();
      continue;
    }
    value = unquote(value);
    fields[key] = value;
  }
  return { fields, body: lines.slice(end + 1).join('\n') };
}

function unquote(v: string): string {
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) {
    try {
      return JSON.parse(v) as string;
    } catch {
      return v.slice(1, -1);
    }
  }
  if (v.length >= 2 && v.startsWith("'") && v.endsWith("'")) return v.slice(1, -1).replace(/''/g, "'");
  // A trailing ` # comment` on a plain scalar.
  return v.replace(/\s+#.*$/, '');
}

export interface SkillManifest {
  name: string;
  description: string;
  fields: Record<string, string>;
  body: string;
}

const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;

/**
 * Read `<dir>/SKILL.md`; throws an Error with a sentence a user can act on. SKILL.md must be a
 * regular file: a symlink (wherever it points), a fifo or a device is refused with
 * skill_source_unsafe, naming the file relative to `relativeTo` when given.
 */
export function readManifest(dir: string, relativeTo?: string): SkillManifest {
  const file = path.join(dir, SKILL_FILE);
  const label = relativeTo === undefined ? file : path.relative(relativeTo, file).split(path.sep).join('/');
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!st) throw new Error(`${dir} holds no ${SKILL_FILE}`);
  if (st.isSymbolicLink()) throw errors.skillSourceUnsafe(label, 'symlinked_manifest', `is a symlink; ${SKILL_FILE} must be a regular file`);
  if (!st.isFile()) throw errors.skillSourceUnsafe(label, 'special_file', `is not a regular file; ${SKILL_FILE} must be one`);
  if (st.size > MANIFEST_MAX_BYTES) throw errors.skillTooLarge(label, 'max_bytes', `is larger than ${MANIFEST_MAX_BYTES} bytes, the limit for ${SKILL_FILE}`);
  let text: string;
  // O_NOFOLLOW and a check of the opened file: a SKILL.md swapped for a link or a fifo after the
  // lstat above is refused rather than followed (or waited on).
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'ENOENT') throw errors.skillSourceUnsafe(label, 'changed', 'changed while being read (it is gone or became a symlink)');
    throw new Error(`${file} cannot be read: ${code ?? (err as Error).message}`);
  }
  try {
    const opened = fs.fstatSync(fd);
    if (!opened.isFile() || opened.ino !== st.ino || opened.dev !== st.dev) {
      throw errors.skillSourceUnsafe(label, 'changed', 'changed while being read (it is no longer the file that was checked)');
    }
    text = fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
  const { fields, body } = parseFrontmatter(text);
  const missing = ['name', 'description'].filter((k) => !fields[k]);
  if (missing.length) throw new Error(`${file} has no ${missing.join(' or ')} in its frontmatter`);
  const name = fields.name!;
  if (!SKILL_NAME_RE.test(name)) throw new Error(`skill name ${JSON.stringify(name)} in ${file} must match ${SKILL_NAME_RE.source}`);
  return { name, description: fields.description!, fields, body };
}

/** A directory of a root that is not a valid skill, with the reason. */
export interface InvalidSkill {
  path: string;
  error: string;
}

/**
 * Why the skill directory `dir` of a workspace is not the workspace's own: once every link is
 * resolved (the directory itself, `.svc` or `skills` above it), it must lie inside the workspace's
 * real path. Null when it does. A link out would let a repository list, and the model open, any
 * directory the daemon can read.
 */
export function outsideWorkspace(dir: string, workspace: string, resolvedWorkspace?: string): string | null {
  let real: string;
  let top: string;
  try {
    real = fs.realpathSync.native(dir);
    top = resolvedWorkspace ?? fs.realpathSync.native(workspace);
  } catch {
    return `${dir} cannot be resolved`;
  }
  return isInside(top, real) ? null : `${dir} resolves to ${real}, outside the workspace ${workspace}`;
}

function realpathOrUndefined(p: string): string | undefined {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return undefined;
  }
}

/**
 * Every `<root>/<dir>/SKILL.md` (dot-directories skipped; symlinked directories followed). With
 * `workspace`, a directory that resolves outside that workspace is listed as invalid instead.
 */
export function scanRoot(root: string, opts: { workspace?: string } = {}): { skills: Array<{ dir: string; manifest: SkillManifest }>; invalid: InvalidSkill[] } {
  const skills: Array<{ dir: string; manifest: SkillManifest }> = [];
  const invalid: InvalidSkill[] = [];
  let entries: string[];
  // Most roots do not exist (an agent home without .svc/skills): a stat is far cheaper than the
  // exception readdirSync throws for a missing directory.
  if (!fs.existsSync(root)) return { skills, invalid };
  try {
    entries = fs.readdirSync(root).sort();
  } catch {
    return { skills, invalid };
  }
  // The workspace resolved once for all its directories (a missing one: each is reported).
  const top = opts.workspace === undefined ? undefined : realpathOrUndefined(opts.workspace);
  const names = new Set<string>();
  for (const e of entries) {
    if (e.startsWith('.')) continue;
    const dir = path.join(root, e);
    try {
      if (!fs.statSync(dir).isDirectory()) continue;
    } catch {
      invalid.push({ path: dir, error: `${dir} is a broken link` });
      continue;
    }
    const outside = opts.workspace === undefined ? null : outsideWorkspace(dir, opts.workspace, top);
    if (outside) {
      invalid.push({ path: dir, error: outside });
      continue;
    }
    try {
      const manifest = readManifest(dir);
      if (names.has(manifest.name)) throw new Error(`another directory in ${root} already holds skill ${JSON.stringify(manifest.name)}`);
      names.add(manifest.name);
      skills.push({ dir, manifest });
    } catch (err) {
      invalid.push({ path: dir, error: (err as Error).message });
    }
  }
  return { skills, invalid };
}

// --- sources -------------------------------------------------------------------------------------

export type SkillSource =
  | { type: 'local'; path: string }
  | { type: 'git'; url: string; ref: string | null; subdir: string | null };

export class SourceError extends Error {}

const SHORTHAND_RE = /^([A-Za-z0-9][A-Za-z0-9_.-]*)\/([A-Za-z0-9][A-Za-z0-9_.-]*)((?:\/[^@#\s]+)*)?(?:[@#]([^\s@#]+))?$/;
const REF_RE = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;

/**
 * Normalise a source string:
 * - an absolute path (or `~/…`) is a local directory;
 * - `file://`, `https://`, `http://`, `ssh://` or `git@host:…` is a git URL; `#ref` picks a branch,
 *   tag or commit and `#ref:sub/dir` (or `#:sub/dir`) a directory inside the repository;
 * - `owner/repo[/path][@ref|#ref]` is a GitHub repository: `https://github.com/owner/repo`.
 * Anything else (a relative path included: the daemon does not know the caller's directory) is a
 * SourceError.
 */
export function normaliseSource(input: string, home = process.env.HOME ?? ''): SkillSource {
  const raw = input.trim();
  if (!raw) throw new SourceError('source must not be empty');
  if (raw.startsWith('~/') && home) return { type: 'local', path: path.resolve(home, raw.slice(2)) };
  if (path.isAbsolute(raw)) return { type: 'local', path: path.resolve(raw) };
  if (/^(file|https?|ssh|git):\/\//i.test(raw) || /^[\w.-]+@[\w.-]+:/.test(raw)) {
    const hash = raw.indexOf('#');
    const url = hash === -1 ? raw : raw.slice(0, hash);
    const frag = hash === -1 ? '' : raw.slice(hash + 1);
    const colon = frag.indexOf(':');
    const ref = colon === -1 ? frag : frag.slice(0, colon);
    const subdir = colon === -1 ? '' : frag.slice(colon + 1);
    if (/^(file|https?|ssh|git):\/\//i.test(url)) {
      try {
        new URL(url);
      } catch {
        throw new SourceError(`source ${JSON.stringify(input)} is not a valid URL`);
      }
    }
    if (url.startsWith('file://') && url.length <= 'file://'.length) throw new SourceError(`source ${JSON.stringify(input)} names no repository`);
    return { type: 'git', url, ref: checkRef(ref, input), subdir: checkSubdir(subdir, input) };
  }
  const m = SHORTHAND_RE.exec(raw);
  if (m && !raw.startsWith('.')) {
    const [, owner, repo, sub, ref] = m;
    return {
      type: 'git',
      url: `https://github.com/${owner}/${repo!.replace(/\.git$/, '')}`,
      ref: checkRef(ref ?? '', input),
      subdir: checkSubdir((sub ?? '').replace(/^\//, ''), input),
    };
  }
  throw new SourceError(
    `source ${JSON.stringify(input)} is not an absolute directory path, a git URL (file://, https://, with #ref) or owner/repo/path@ref`,
  );
}

function checkRef(ref: string, input: string): string | null {
  if (!ref) return null;
  if (!REF_RE.test(ref) || ref.includes('..')) throw new SourceError(`ref ${JSON.stringify(ref)} in ${JSON.stringify(input)} is not a valid git ref`);
  return ref;
}

function checkSubdir(subdir: string, input: string): string | null {
  const s = subdir.replace(/^\/+|\/+$/g, '');
  if (!s) return null;
  if (s.split('/').some((p) => p === '..' || p === '.' || p === '')) throw new SourceError(`path ${JSON.stringify(subdir)} in ${JSON.stringify(input)} must stay inside the repository`);
  return s;
}

/** The canonical string of a source (what the lock file records as `source`). */
export function sourceString(src: SkillSource): string {
  return src.type === 'local' ? src.path : src.url + (src.ref ? `#${src.ref}` : '');
}

// --- git -----------------------------------------------------------------------------------------

/** `git ARGS` through runtime/git-command.ts; rejects with the last lines of stderr when git fails. */
export async function git(args: string[], opts: { cwd?: string; signal?: AbortSignal; timeoutMs?: number; network?: boolean } = {}): Promise<string> {
  const r = await runGit(args, { cwd: opts.cwd, signal: opts.signal, timeoutMs: opts.timeoutMs ?? 120_000, maxBuffer: 16 * 1024 * 1024, network: opts.network });
  if (r.code !== 0) {
    const detail = r.stderr.trim().split('\n').filter(Boolean).slice(-2).join('; ') || (r.killed ? 'timed out' : `exit ${r.code}`);
    throw new Error(`git ${args[0]} failed: ${detail}`);
  }
  return r.stdout;
}

const isCommitish = (ref: string) => /^[0-9a-f]{7,40}$/i.test(ref);

/** Shallow clone of `url` at `ref` into `dest` (which must not exist); returns the commit hash. */
export async function cloneAt(url: string, ref: string | null, dest: string, signal?: AbortSignal): Promise<string> {
  try {
    await git(['clone', '--depth', '1', '--quiet', ...(ref ? ['--branch', ref] : []), '--', url, dest], { signal, network: true });
  } catch (err) {
    // --branch takes branches and tags only; a commit needs a full clone and a checkout.
    if (!ref || !isCommitish(ref)) throw err;
    await fs.promises.rm(dest, { recursive: true, force: true });
    await git(['clone', '--quiet', '--no-checkout', '--', url, dest], { signal, network: true });
    await git(['checkout', '--quiet', ref], { cwd: dest, signal });
  }
  return (await git(['rev-parse', 'HEAD'], { cwd: dest, signal })).trim();
}

/** The commit `ref` (default HEAD) points at on the remote, via `git ls-remote`. */
export async function remoteHead(url: string, ref: string | null, signal?: AbortSignal): Promise<string> {
  if (ref && /^[0-9a-f]{40}$/i.test(ref)) return ref.toLowerCase();
  const out = await git(['ls-remote', '--', url, ...(ref ? [ref, `${ref}^{}`] : ['HEAD'])], { signal, timeoutMs: 60_000, network: true });
  const refs = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [hash, name] = line.trim().split(/\s+/);
    if (hash && name) refs.set(name, hash);
  }
  if (!ref) {
    const head = refs.get('HEAD');
    if (!head) throw new Error(`${url} has no HEAD`);
    return head;
  }
  const hit = refs.get(`refs/tags/${ref}^{}`) ?? refs.get(`refs/heads/${ref}`) ?? refs.get(`refs/tags/${ref}`) ?? refs.get(ref);
  if (hit) return hit;
  if (isCommitish(ref)) return ref.toLowerCase(); // an abbreviated commit: pinned
  throw new Error(`${url} has no ref ${JSON.stringify(ref)}`);
}

// --- locating -------------------------------------------------------------------------------------

/**
 * The skill directory inside a fetched tree: `subdir` when given; else the root when it holds a
 * SKILL.md; else the only `skills/<name>/` or `<name>/` holding one. Several candidates: an error
 * naming them.
 */
export function locateSkill(root: string, subdir: string | null): string {
  if (subdir) {
    const dir = path.join(root, subdir);
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new Error(`the source has no directory ${subdir}`);
    return dir;
  }
  // lstat, not exists: a SKILL.md that is a broken or outside link is found here and refused by
  // the walk, instead of sending the search into subdirectories.
  if (fs.lstatSync(path.join(root, SKILL_FILE), { throwIfNoEntry: false })) return root;
  const found: string[] = [];
  for (const base of ['skills', '.svc/skills', '']) {
    const dir = path.join(root, base);
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) continue;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory() && e.name !== '.git' && fs.lstatSync(path.join(dir, e.name, SKILL_FILE), { throwIfNoEntry: false })) found.push(base ? `${base}/${e.name}` : e.name);
    }
    if (found.length) break;
  }
  if (found.length === 1) return path.join(root, found[0]!);
  if (found.length === 0) throw new Error(`the source holds no ${SKILL_FILE} (looked at the root, skills/*/ and */)`);
  throw new Error(`the source holds ${found.length} skills (${found.slice(0, 10).join(', ')}); name one as a path: owner/repo/<path>@ref or <url>#ref:<path>`);
}

// --- lock file -------------------------------------------------------------------------------------

export type InstallMode = 'copy' | 'link';

export interface LockEntry {
  source: string;
  source_type: 'local' | 'git';
  url: string | null;
  ref: string | null;
  subdir: string | null;
  mode: InstallMode;
  etag: string;
  installed_at: string;
  updated_at: string;
}

export interface LockFile {
  version: 1;
  skills: Record<string, LockEntry>;
}

export function readLock(home: string): LockFile {
  const file = path.join(home, LOCK_FILE);
  let text: string;
  try {
    text = readRegularFile(file).text;
  } catch {
    return { version: 1, skills: {} };
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockFile>;
    const skills = parsed && typeof parsed.skills === 'object' && parsed.skills !== null ? parsed.skills : {};
    return { version: 1, skills: skills as Record<string, LockEntry> };
  } catch {
    // A corrupt lock file is kept aside, never silently lost.
    fs.renameSync(file, `${file}.corrupt-${Date.now()}`);
    return { version: 1, skills: {} };
  }
}

/** Atomic write (src/core/private-file.ts). */
export function writeLock(home: string, lock: LockFile): void {
  const sorted: LockFile = { version: 1, skills: Object.fromEntries(Object.entries(lock.skills).sort(([a], [b]) => (a < b ? -1 : 1))) };
  writePrivateFile(path.join(home, LOCK_FILE), `${JSON.stringify(sorted, null, 2)}\n`);
}

/**
 * A skill's files, read so that nothing outside its source is ever taken: one walk validates the
 * tree (symlinks, special files, size and count caps), then the content hash and the copy read
 * exactly the files the walk admitted. Everything here uses asynchronous fs calls (a few files in
 * flight at a time), so a large source never stalls the daemon's event loop.
 *
 * The rules, checked on real paths (realpath and lstat, never string prefixes):
 * - the source root is resolved first (it may itself be a symlink), and the skill directory must
 *   resolve inside it;
 * - `SKILL.md` must be a regular file, never a symlink (even one pointing inside the source);
 * - a symlink whose real target is inside the source is copied as the file or directory it points
 *   at (the copy holds no symlinks); one whose target is outside, broken or looping is refused;
 * - fifos, sockets and devices are refused;
 * - at most SKILL_LIMITS.maxFiles files and directories and SKILL_LIMITS.maxBytes bytes per skill;
 * - a file is read without following a link and must still be the file the walk saw, no larger.
 * A refusal is an AppError naming the file relative to the source and the reason.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { errors, fileKind } from '../../core/index.js';

export interface SkillLimits {
  /** Total bytes of the files of one skill. */
  maxBytes: number;
  /** Files and directories of one skill. */
  maxFiles: number;
}

export const SKILL_FILE = 'SKILL.md';

/** The one place the per-skill caps are defined. */
export const SKILL_LIMITS: SkillLimits = { maxBytes: 50 * 1024 * 1024, maxFiles: 10_000 };
/** SKILL.md is read synchronously whenever the catalog is listed: kept small. */
export const MANIFEST_MAX_BYTES = 1024 * 1024;

export interface SkillEntry {
  /** Path inside the skill, `/`-separated: where the entry lands in a copy. */
  rel: string;
  type: 'dir' | 'file';
  /** The real path read (a symlink inside the source resolved to its target). */
  real: string;
  size: number;
  mode: number;
  dev: number;
  ino: number;
}

export interface SkillTree {
  /** Real path of the source root. */
  root: string;
  /** Real path of the skill directory (inside root). */
  dir: string;
  /** The skill directory relative to the source as the caller named it ('' for the root itself). */
  base: string;
  /** Pre-order, siblings sorted by name: the order the content hash has always used. */
  entries: SkillEntry[];
  bytes: number;
  limits: SkillLimits;
}

const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;
const CHUNK = 64 * 1024;
/** Files up to this size are read whole (and may be read ahead); larger ones are streamed. */
const SMALL_FILE = 1024 * 1024;
/** Files or directory entries in flight at once: enough to hide latency, few enough to share libuv's pool. */
const PARALLEL = 4;
/** How many small files the hash reads ahead of the one it is hashing. */
const READ_AHEAD = 8;

/** `child` is `parent` or below it; both real, absolute paths. */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

/**
 * Walk and validate the skill directory `dir` of a source rooted at `root` (default: `dir`
 * itself). Names in errors are relative to `root`. `.git` is skipped.
 */
export async function walkSkill(
  dir: string,
  opts: { root?: string; limits?: SkillLimits; signal?: AbortSignal } = {},
): Promise<SkillTree> {
  const limits = opts.limits ?? SKILL_LIMITS;
  const given = opts.root ?? dir;
  const root = await realpathOr(given, () => new Error(`source directory ${given} does not exist`));
  // Names are relative to the source as the caller sees it ('' when the skill is the root).
  const base = path.relative(given, dir).split(path.sep).join('/');
  const name = (rel: string) => [base, rel].filter(Boolean).join('/') || '.';
  const skillDir = await realpathOr(dir, () => new Error(`the source has no directory ${name('')}`));
  if (!isInside(root, skillDir)) throw errors.skillSourceUnsafe(name(''), 'outside_source', `resolves to ${skillDir}, outside the source`);
  if (!(await fsp.stat(skillDir)).isDirectory()) throw new Error(`${name('')} is not a directory`);

  const manifest = await fsp.lstat(path.join(skillDir, SKILL_FILE)).catch(() => null);
  if (!manifest) throw new Error(`${name('') === '.' ? 'the source' : name('')} holds no ${SKILL_FILE}`);
  if (manifest.isSymbolicLink()) throw errors.skillSourceUnsafe(name(SKILL_FILE), 'symlinked_manifest', `is a symlink; ${SKILL_FILE} must be a regular file`);
  if (!manifest.isFile()) throw errors.skillSourceUnsafe(name(SKILL_FILE), 'special_file', `is ${fileKind(manifest)}; ${SKILL_FILE} must be a regular file`);

  const tree: SkillTree = { root, dir: skillDir, base, entries: [], bytes: 0, limits };
  const count = (rel: string) => {
    if (tree.entries.length >= limits.maxFiles) throw tooMany(rel);
  };
  const tooMany = (rel: string) =>
    errors.skillTooLarge(name(rel), 'max_files', `is one file too many: a skill holds at most ${limits.maxFiles} files and directories`);
  /** What an entry is, following a symlink only when its real target is inside the source. */
  const probe = async (full: string, r: string): Promise<{ st: fs.Stats; real: string } | { refused: Error }> => {
    const st = await fsp.lstat(full);
    if (!st.isSymbolicLink()) return { st, real: full };
    const target = await fsp.readlink(full).catch(() => '?');
    let real: string;
    try {
      real = await fsp.realpath(full);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ELOOP') return { refused: errors.skillSourceUnsafe(name(r), 'symlink_loop', `is a symlink loop (-> ${target})`) };
      return { refused: errors.skillSourceUnsafe(name(r), 'broken_symlink', `is a broken symlink (-> ${target})`) };
    }
    if (!isInside(root, real)) return { refused: errors.skillSourceUnsafe(name(r), 'symlink_outside', `is a symlink to ${target}, outside the source`) };
    return { st: await fsp.lstat(real), real };
  };
  const visit = async (realDir: string, rel: string, stack: Set<string>): Promise<void> => {
    // Read through opendir, counting: a directory of millions of entries is refused before all
    // its names are held in memory.
    const names: string[] = [];
    for await (const ent of await fsp.opendir(realDir)) {
      if (ent.name === '.git') continue;
      names.push(ent.name);
      if (tree.entries.length + names.length > limits.maxFiles) throw tooMany(rel ? `${rel}/${ent.name}` : ent.name);
    }
    names.sort((a, b) => (a < b ? -1 : 1));
    // lstat and resolve the entries of one directory a few at a time; the verdicts are then taken
    // in name order, so the file an error names does not depend on timing.
    const probes = await mapLimit(names, PARALLEL, (n) => probe(path.join(realDir, n), rel ? `${rel}/${n}` : n));
    for (let i = 0; i < names.length; i++) {
      if (opts.signal?.aborted) throw new Error('aborted');
      const r = rel ? `${rel}/${names[i]}` : names[i]!;
      const p = probes[i]!;
      if ('refused' in p) throw p.refused;
      const { st, real } = p;
      count(r);
      if (st.isDirectory()) {
        if (stack.has(real)) throw errors.skillSourceUnsafe(name(r), 'symlink_loop', 'leads back to a directory that contains it (a symlink loop)');
        tree.entries.push({ rel: r, type: 'dir', real, size: 0, mode: st.mode & 0o777, dev: st.dev, ino: st.ino });
        stack.add(real);
        await visit(real, r, stack);
        stack.delete(real);
      } else if (st.isFile()) {
        tree.bytes += st.size;
        if (tree.bytes > limits.maxBytes) {
          throw errors.skillTooLarge(name(r), 'max_bytes', `takes the skill past ${limits.maxBytes} bytes, the limit per skill`);
        }
        tree.entries.push({ rel: r, type: 'file', real, size: st.size, mode: st.mode & 0o777, dev: st.dev, ino: st.ino });
      } else {
        throw errors.skillSourceUnsafe(name(r), 'special_file', `is ${fileKind(st)}; only regular files and directories are copied`);
      }
    }
  };
  await visit(skillDir, '', new Set([skillDir]));
  return tree;
}

async function realpathOr(p: string, fail: () => Error): Promise<string> {
  try {
    return await fsp.realpath(p);
  } catch {
    throw fail();
  }
}

/** An entry's name relative to the source root, as errors name it. */
function sourceName(tree: SkillTree, e: SkillEntry): string {
  return [tree.base, e.rel].filter(Boolean).join('/');
}

/**
 * Open a walked file without following a link and check it is still the file the walk saw (a
 * file swapped for a symlink or another file between the walk and the read is refused).
 */
async function openChecked(tree: SkillTree, e: SkillEntry): Promise<fsp.FileHandle> {
  const where = sourceName(tree, e);
  let fh: fsp.FileHandle;
  try {
    fh = await fsp.open(e.real, fs.constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'ENOENT') throw errors.skillSourceUnsafe(where, 'changed', 'changed while being read (it is gone or became a symlink)');
    throw new Error(`${JSON.stringify(where)} cannot be read: ${code ?? (err as Error).message}`);
  }
  const st = await fh.stat();
  if (!st.isFile() || st.dev !== e.dev || st.ino !== e.ino) {
    await fh.close();
    throw errors.skillSourceUnsafe(where, 'changed', 'changed while being read (it is no longer the file that was checked)');
  }
  return fh;
}

function grew(tree: SkillTree, e: SkillEntry): Error {
  return errors.skillSourceUnsafe(sourceName(tree, e), 'changed', `changed while being read (it grew past the ${e.size} bytes that were checked)`);
}

/** A small file, whole: never more than the walked size (so the byte cap holds exactly). */
async function readWhole(tree: SkillTree, e: SkillEntry): Promise<Buffer> {
  const fh = await openChecked(tree, e);
  try {
    const buf = Buffer.allocUnsafe(e.size + 1);
    let off = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, off, buf.length - off, null);
      if (bytesRead === 0) return buf.subarray(0, off);
      off += bytesRead;
      if (off > e.size) throw grew(tree, e);
    }
  } finally {
    await fh.close();
  }
}

/** A large file, chunk by chunk to `sink` (which consumes each chunk before the next is read). */
async function streamFile(tree: SkillTree, e: SkillEntry, sink: (data: Buffer) => Promise<void> | void): Promise<void> {
  const fh = await openChecked(tree, e);
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    let total = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, CHUNK, null);
      if (bytesRead === 0) return;
      total += bytesRead;
      if (total > e.size) throw grew(tree, e);
      await sink(buf.subarray(0, bytesRead));
    }
  } finally {
    await fh.close();
  }
}

/**
 * sha256 over the relative paths and contents of the tree's files, in walk order: the same value
 * the earlier synchronous hash gave, so etags in existing lock files stay comparable. Small files
 * are read a few ahead of the one being hashed.
 */
export async function hashSkill(tree: SkillTree, signal?: AbortSignal): Promise<string> {
  const h = createHash('sha256');
  const files = tree.entries.filter((e) => e.type === 'file');
  const ahead = new Map<number, Promise<Buffer>>();
  let next = 0;
  for (let i = 0; i < files.length; i++) {
    if (signal?.aborted) throw new Error('aborted');
    for (; next < files.length && next <= i + READ_AHEAD; next++) {
      if (files[next]!.size > SMALL_FILE) continue;
      const read = readWhole(tree, files[next]!);
      read.catch(() => undefined); // awaited in turn below; an early failure is not unhandled meanwhile
      ahead.set(next, read);
    }
    const e = files[i]!;
    h.update(`${e.rel}\0`);
    const read = ahead.get(i);
    ahead.delete(i);
    if (read) h.update(await read);
    else await streamFile(tree, e, (data) => void h.update(data));
    h.update('\0');
  }
  return `sha256:${h.digest('hex')}`;
}

/** Copy the tree into `dest`, which must not exist. The copy holds only directories and regular files. */
export async function copySkill(tree: SkillTree, dest: string, signal?: AbortSignal): Promise<void> {
  const target = (e: SkillEntry) => path.join(dest, ...e.rel.split('/'));
  await fsp.mkdir(dest, { mode: 0o700 });
  // Pre-order: a directory comes before everything inside it.
  for (const e of tree.entries) if (e.type === 'dir') await fsp.mkdir(target(e), { mode: e.mode | 0o700 });
  const files = tree.entries.filter((e) => e.type === 'file');
  await mapLimit(files, PARALLEL, async (e) => {
    if (signal?.aborted) throw new Error('aborted');
    const mode = e.mode | 0o600;
    if (e.size <= SMALL_FILE) return fsp.writeFile(target(e), await readWhole(tree, e), { flag: 'wx', mode });
    const out = await fsp.open(target(e), 'wx', mode);
    try {
      await streamFile(tree, e, async (data) => {
        for (let off = 0; off < data.length; ) off += (await out.write(data, off, data.length - off)).bytesWritten;
      });
    } finally {
      await out.close();
    }
  });
}

/**
 * `fn` over `items` with at most `limit` calls in flight; results in input order. The first
 * failure stops further calls and is thrown once the calls in flight have settled.
 */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { err: unknown } | null = null;
  const worker = async () => {
    while (!failure && next < items.length) {
      const i = next++;
      try {
        results[i] = await fn(items[i]!);
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw (failure as { err: unknown }).err;
  return results;
}

/**
 * Put a directory at `dest` atomically: `fill` builds it in a fresh sibling (same filesystem),
 * which is then renamed into place. A failing `fill` leaves nothing behind. With `replace`, an
 * existing `dest` (directory or link) is swapped out and removed; without it, an existing `dest`
 * is an error.
 */
export async function placeAtomically(dest: string, fill: (staging: string) => Promise<void>, opts: { replace: boolean; tag?: string }): Promise<void> {
  const parent = path.dirname(dest);
  await fsp.mkdir(parent, { recursive: true, mode: 0o700 });
  const tag = opts.tag ?? randomBytes(6).toString('hex');
  const staging = path.join(parent, `.staging-${path.basename(dest)}-${tag}`);
  await removePath(staging);
  try {
    await fill(staging);
    const present = await fsp.lstat(dest).then(() => true, () => false);
    if (present && !opts.replace) throw new Error(`${dest} already exists`);
    if (present) {
      const old = path.join(parent, `.old-${path.basename(dest)}-${tag}`);
      await fsp.rename(dest, old);
      await fsp.rename(staging, dest);
      await removePath(old);
    } else {
      await fsp.rename(staging, dest);
    }
  } catch (err) {
    await removePath(staging);
    throw err;
  }
}

/** Remove a directory tree, or only the link when `p` is a symlink (never what it points at). */
export async function removePath(p: string): Promise<void> {
  const st = await fsp.lstat(p).catch(() => null);
  if (!st) return;
  if (st.isSymbolicLink()) await fsp.unlink(p);
  else await fsp.rm(p, { recursive: true, force: true });
}

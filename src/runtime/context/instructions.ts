/**
 * Project instructions (docs/context.md#project-instructions): the `[context] instructions_files`
 * (AGENTS.md, CLAUDE.md) of the agent's active workspace, from its root down to the working
 * directory, as one text for the system prompt, each file under a header naming its path.
 *
 * - Order: the root's first, deeper ones after (the more specific last); in one directory, the
 *   names in their configured order, both when both exist, once when they are one file (a hard
 *   link or a symlink to the other: the same device and inode).
 * - Bounded: `instructions_max_bytes` of file content in all, taken in that order, so the root's
 *   file keeps its place and a deeper one is cut first: a file planted in a subdirectory cannot
 *   push the project's own rules out. A file cut, or left out for want of room, is marked in the
 *   text and in `files[].truncated`. A file is read no further than the room left + 1 bytes
 *   (to know whether it was cut), so a call reads the cap plus a byte per file at most.
 * - Reread when changed: each call stats the candidates and rereads only one whose identity
 *   (dev, ino, size, mtime, ctime) changed; a deleted file is gone on the next call. A refusal is
 *   remembered the same way, so it is logged once, not every turn.
 * - Confined: a file is read through the file tools' confinement (runtime/files: real path inside
 *   the active workspace's root, regular files only, opened O_NOFOLLOW | O_NONBLOCK, the opened
 *   descriptor checked again) and must not lie in the daemon's home outside the agent's own home.
 *   Invalid UTF-8 becomes U+FFFD.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { ResolvedConfig } from '../../config/index.js';
import { openRegular, resolveTarget, type Root } from '../files/index.js';
import { isWithin, type WorkspaceService } from '../workspaces/index.js';

export interface InstructionFile {
  /** The file's path in the working tree (the directory's real path and the configured name). */
  path: string;
  /** Bytes of the file in the text. */
  bytes: number;
  /** The file has more than that (cut, or left out for want of room). */
  truncated: boolean;
}

export interface ProjectInstructionsResult {
  /** '' when there are none. */
  text: string;
  files: InstructionFile[];
}

export interface ProjectInstructionsDeps {
  config: ResolvedConfig;
  workspaces: WorkspaceService;
  logger: Logger;
}

/** Directories from the root down to the working directory at most (the root and the deepest). */
export const MAX_INSTRUCTION_DIRS = 16;
/** Candidate files remembered (their identity and first bytes, or their refusal), and their bytes in all. */
const MAX_CACHED = 512;
const MAX_CACHED_BYTES = 16 * 1024 * 1024;

interface Identity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

/** What a candidate held when last looked at: its first bytes (what was wanted + 1 at most) or why it was refused. */
type Seen = Identity & ({ bytes: Buffer; fileSize: number } | { refused: string });

const NONE: ProjectInstructionsResult = Object.freeze({ text: '', files: [] }) as ProjectInstructionsResult;

export class ProjectInstructions {
  private readonly seen = new Map<string, Seen>();
  private seenBytes = 0;
  private daemonHome: string | null = null;

  constructor(private readonly deps: ProjectInstructionsDeps) {}

  /**
   * The instructions for the agent's next round. `cwd`: the working directory (default: the
   * active workspace's directory); files are read from the root down to it when it lies inside
   * the root. Never throws: what cannot be read is left out and logged.
   */
  for(agentId: string, cwd?: string): ProjectInstructionsResult {
    const { instructions_files: names, instructions_max_bytes: max } = this.deps.config.values.context;
    if (max === 0 || names.length === 0) return NONE;
    let dirs: string[];
    let root: Root;
    let ownHome: string;
    try {
      const roots = this.deps.workspaces.rootPaths(agentId);
      root = roots.find((r) => r.active) ?? roots[0]!;
      ownHome = roots[0]!.root;
      dirs = chain(root.root, realOr(cwd ?? this.deps.workspaces.activePath(agentId)));
    } catch (err) {
      this.deps.logger.warn({ agent_id: agentId, err: (err as Error).message }, 'project instructions: no workspace to read them from');
      return NONE;
    }
    const files: InstructionFile[] = [];
    const sections: string[] = [];
    const inodes = new Set<string>();
    let left = max;
    for (const dir of dirs) {
      for (const name of new Set(names)) {
        const file = path.join(dir, name);
        const got = this.look(agentId, { ...root, active: true }, ownHome, file, left);
        if (!got || 'refused' in got || got.fileSize === 0) continue;
        const inode = `${got.dev}:${got.ino}`;
        if (inodes.has(inode)) continue;
        inodes.add(inode);
        const whole = got.fileSize <= left && got.bytes.length >= got.fileSize;
        const shown = got.bytes.subarray(0, whole ? got.fileSize : utf8Boundary(got.bytes, Math.min(left, got.bytes.length)));
        const truncated = shown.length < got.fileSize;
        left -= shown.length;
        files.push({ path: file, bytes: shown.length, truncated });
        sections.push(section(file, shown, truncated ? got.fileSize : null, max));
      }
    }
    return files.length === 0 ? NONE : { text: sections.join('\n\n'), files };
  }

  /**
   * The candidate's first `want` + 1 bytes (or all of it), read again only when its identity
   * changed or more of it is wanted than was read; null when absent.
   */
  private look(agentId: string, root: Root, ownHome: string, file: string, want: number): Seen | null {
    const key = `${agentId}\u0000${file}`;
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(file, { throwIfNoEntry: false });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
      // ENOTDIR: a working directory that is a file has no instructions. ELOOP, EACCES: nothing readable there.
      if (code === 'ENOTDIR') st = undefined;
      else {
        this.refuseOnce(key, agentId, file, code);
        return null;
      }
    }
    if (!st) {
      this.forget(key);
      return null;
    }
    const prev = this.seen.get(key);
    if (prev && sameIdentity(prev, st) && ('refused' in prev || prev.bytes.length > want || prev.bytes.length >= prev.fileSize)) {
      this.remember(key, prev);
      return prev;
    }
    const read = this.read(root, ownHome, file, want);
    const entry: Seen = 'refused' in read ? { ...identityOf(st), refused: read.refused } : read;
    if ('refused' in entry) this.deps.logger.warn({ agent_id: agentId, path: file, reason: entry.refused }, 'project instructions file refused');
    this.remember(key, entry);
    return entry;
  }

  /** A candidate that cannot even be stat'ed: logged once while the reason stays the same. */
  private refuseOnce(key: string, agentId: string, file: string, reason: string): void {
    const prev = this.seen.get(key);
    if (prev && 'refused' in prev && prev.refused === reason) return;
    this.deps.logger.warn({ agent_id: agentId, path: file, reason }, 'project instructions file refused');
    this.remember(key, { dev: -1, ino: -1, size: -1, mtimeMs: -1, ctimeMs: -1, refused: reason });
  }

  private remember(key: string, entry: Seen): void {
    this.forget(key);
    this.seen.set(key, entry);
    this.seenBytes += 'bytes' in entry ? entry.bytes.length : 0;
    for (const old of this.seen.keys()) {
      if (this.seen.size <= MAX_CACHED && this.seenBytes <= MAX_CACHED_BYTES) break;
      this.forget(old);
    }
  }

  private forget(key: string): void {
    const old = this.seen.get(key);
    if (!old) return;
    this.seen.delete(key);
    this.seenBytes -= 'bytes' in old ? old.bytes.length : 0;
  }

  /** Read at most `want` + 1 bytes of `file` through the file tools' confinement, or say why not. */
  private read(root: Root, ownHome: string, file: string, want: number): Seen | { refused: string } {
    try {
      const target = resolveTarget([root], file, 'read');
      const home = this.home();
      if (isWithin(home, target.abs) && !isWithin(ownHome, target.abs)) return { refused: `it leads into the daemon's home (${target.abs})` };
      const f = openRegular(target);
      try {
        const st = fs.fstatSync(f.reader.fd);
        const buf = Buffer.alloc(Math.min(st.size, want) + 1);
        let got = 0;
        while (got < buf.length) {
          const n = fs.readSync(f.reader.fd, buf, got, buf.length - got, got);
          if (n === 0) break;
          got += n;
        }
        // A file that grew after fstat counts with what was read (the cap + 1 at most).
        return { ...identityOf(st), fileSize: Math.max(st.size, got), bytes: buf.subarray(0, got) };
      } finally {
        f.close();
      }
    } catch (err) {
      const e = err as { code?: string; message?: string };
      return { refused: e.message ?? e.code ?? String(err) };
    }
  }

  private home(): string {
    this.daemonHome ??= realOr(this.deps.config.home);
    return this.daemonHome;
  }
}

/** The directories from `root` down to `cwd` (only `root` when `cwd` is not inside it). */
export function chain(root: string, cwd: string): string[] {
  if (!isWithin(root, cwd) || cwd === root) return [root];
  const rel = path.relative(root, cwd).split(path.sep);
  const dirs = [root];
  for (let i = 0; i < rel.length; i++) dirs.push(path.join(root, ...rel.slice(0, i + 1)));
  return dirs.length <= MAX_INSTRUCTION_DIRS ? dirs : [root, ...dirs.slice(dirs.length - (MAX_INSTRUCTION_DIRS - 1))];
}

/**
 * One file's part of the text: a header naming it, its content (a BOM dropped, invalid UTF-8 as
 * U+FFFD) and, when `cutFrom` (its size) is given, the mark saying what was left out.
 */
function section(file: string, shown: Buffer, cutFrom: number | null, max: number): string {
  let body = shown.toString('utf8');
  if (body.charCodeAt(0) === 0xfeff) body = body.slice(1);
  const head = `## Project instructions from ${file}\n\n${body}`;
  if (cutFrom === null) return head;
  const what = shown.length === 0 ? `all ${cutFrom} bytes left out` : `cut after ${shown.length} of its ${cutFrom} bytes`;
  const sep = body === '' || body.endsWith('\n') ? '' : '\n';
  return `${head}${sep}[truncated: ${what}; the instruction files may take ${max} bytes in all ([context] instructions_max_bytes)]`;
}

/** The largest length <= `n` that does not end inside a UTF-8 character of `buf`. */
function utf8Boundary(buf: Buffer, n: number): number {
  let end = Math.min(n, buf.length);
  if (end === buf.length) return end;
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return end;
}

function identityOf(st: fs.Stats): Identity {
  return { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
}

function sameIdentity(a: Identity, st: fs.Stats): boolean {
  return a.dev === st.dev && a.ino === st.ino && a.size === st.size && a.mtimeMs === st.mtimeMs && a.ctimeMs === st.ctimeMs;
}

function realOr(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}

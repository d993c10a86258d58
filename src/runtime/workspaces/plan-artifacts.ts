/**
 * Plan artifacts (spec WorkItem `plan_artifact`, PlanArtifact): a work item's plan is a file inside
 * one of its agent's workspaces. This module finds, reads, writes and describes those files; the
 * work item service stores what it captures and appends the events.
 *
 * Where a plan may be (the security rule): a path is relative to a workspace (the named one, by
 * default the agent's active one) or absolute; either way its REAL path, every symlink followed,
 * must lie inside that workspace's real root (file-references.ts applies `..` lexically first and
 * must not climb out, then checks the real path). The file is opened with O_NOFOLLOW|O_NONBLOCK,
 * must be a regular file of at most PLAN_MAX_BYTES, and after opening its real path and inode are
 * checked again. Refused: 400 `plan_file_not_found` (missing), `plan_file_not_allowed` (outside
 * every workspace, `..` or a symlink leaving it, a directory or special file, unreadable),
 * `plan_too_large`; nothing changes.
 *
 * What is captured at attach time: the real path, its path relative to the workspace root, the
 * workspace id, the owner agent, `hash` (`sha256:<hex>` of the content), `bytes`, `preview` (the
 * first PLAN_PREVIEW_BYTES bytes, cut back to a UTF-8 character boundary), `preview_complete`
 * (the preview is the whole file), `updated_at` (the file's mtime), `attached_at`, and the file's
 * stat signature (dev, inode, size, mtime, ctime).
 *
 * Reads refresh: the file may change after it was attached, so every read stats it (an lstat and
 * a realpath) and compares the signature. An unchanged file is served as captured; a changed one
 * is read again (bounded, same checks) and served with its current hash, bytes, preview and mtime.
 * Re-reads are cached in memory by signature, so a changed file is hashed once, not per read. A
 * read never writes the row (reads change no state and append no event): after a restart the
 * first read of a changed file hashes it again. When the file can no longer be read safely
 * (deleted, replaced by a directory, a symlink or a special file, grown over the cap, its
 * workspace detached, moved outside through a symlinked ancestor), the artifact is served as
 * last captured with `stale: true`.
 *
 * `updated_at` is the file's modification time because hash, bytes and preview describe the
 * file's content, whose time is its mtime; `attached_at` says when it became the plan.
 * `workspace_alias` is null: workspaces have no aliases yet.
 *
 * Writing (the attach_plan tool's `text`, `legacy_inline_plan` on create): at most
 * PLAN_TEXT_MAX_BYTES, only strictly inside the workspace root, missing parent directories
 * created (0700) after checking that the deepest existing one really lies inside the root, the
 * file replaced atomically (temporary file, then rename; never through a symlink). A new file is
 * 0600; an existing one keeps its mode.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isoAt, errors } from '../../core/index.js';
import { isWithin, lexicalJoin, resolveReference, type ExecutionRoot, type Resolution } from './file-references.js';

/** Largest plan file that can be attached. */
export const PLAN_MAX_BYTES = 1024 * 1024;
/** Largest plan text written for a caller (legacy_inline_plan, attach_plan's text); below the 1 MiB request body limit. */
export const PLAN_TEXT_MAX_BYTES = 256 * 1024;
/** Bytes of a plan shown in `preview`. */
export const PLAN_PREVIEW_BYTES = 2048;
/** Changed plan files whose re-read is remembered. */
const REFRESH_CACHE_SIZE = 256;

const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;

/** The served PlanArtifact (spec PlanArtifact, plus attached_at and stale). */
export interface PlanArtifact {
  path: string;
  hash: string;
  bytes: number;
  updated_at: string;
  preview: string;
  preview_complete: boolean;
  owner_agent_id: string;
  relative_path: string;
  workspace_alias: string | null;
  workspace_id: string;
  attached_at: string;
  stale: boolean;
}

/** What a read of the file yields. */
interface Snapshot {
  hash: string;
  bytes: number;
  updated_at: string;
  preview: string;
  preview_complete: boolean;
  /** dev:ino:size:mtimeMs:ctimeMs of the file that was read. */
  signature: string;
}

/** What the `plan_artifact` column holds (JSON). */
export interface StoredPlan extends Snapshot {
  path: string;
  relative_path: string;
  workspace_id: string;
  owner_agent_id: string;
  attached_at: string;
}

/** Where the caller says the plan is: relative to `workspace_id` (default: the active workspace), or absolute. */
export interface PlanLocation {
  path: string;
  workspace_id?: string | undefined;
}

/** The agent's workspaces as the resolver needs them. */
export interface PlanRoots {
  roots: ExecutionRoot[];
  activeWorkspaceId: string;
}

export function parseStoredPlan(json: string | null): StoredPlan | null {
  return json ? (JSON.parse(json) as StoredPlan) : null;
}

/** The artifact as stored (captured at attach time), served without touching the file. */
export function capturedArtifact(p: StoredPlan, stale = false): PlanArtifact {
  return {
    path: p.path,
    hash: p.hash,
    bytes: p.bytes,
    updated_at: p.updated_at,
    preview: p.preview,
    preview_complete: p.preview_complete,
    owner_agent_id: p.owner_agent_id,
    relative_path: p.relative_path,
    workspace_alias: null,
    workspace_id: p.workspace_id,
    attached_at: p.attached_at,
    stale,
  };
}

/** The first `max` bytes of `buf`, cut back to the start of a UTF-8 character that would straddle the cut. */
export function utf8Prefix(buf: Buffer, max: number): Buffer {
  if (buf.length <= max) return buf;
  let end = max;
  // buf[end] is the first byte left out: while it continues a character, leave that character out too.
  for (let k = 0; k < 3 && end > 0 && (buf[end]! & 0xc0) === 0x80; k++) end--;
  return buf.subarray(0, end);
}

function signatureOf(st: fs.Stats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
}

function snapshotOf(content: Buffer, st: fs.Stats): Snapshot {
  const preview = utf8Prefix(content, PLAN_PREVIEW_BYTES);
  return {
    hash: `sha256:${createHash('sha256').update(content).digest('hex')}`,
    bytes: content.length,
    updated_at: isoAt(Math.floor(st.mtimeMs)),
    preview: preview.toString('utf8'),
    preview_complete: preview.length === content.length,
    signature: signatureOf(st),
  };
}

/** Read the regular file at `real` (a checked real path) whole, within the cap, never through a symlink. */
function readPlanFile(real: string, shown: string): Snapshot {
  let fd: number;
  try {
    fd = fs.openSync(real, fs.constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw errors.planFileNotFound(shown);
    if (code === 'ELOOP') throw errors.planFileNotAllowed(shown, 'changed', 'it was replaced by a symbolic link');
    throw errors.planFileNotAllowed(shown, 'unreadable', `it cannot be opened (${code ?? 'error'})`);
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw errors.planFileNotAllowed(shown, 'not_a_file', 'it is not a regular file');
    if (st.size > PLAN_MAX_BYTES) throw errors.planTooLarge('file', st.size, PLAN_MAX_BYTES);
    // The file opened is the one checked: same real path, same inode (no ancestor swapped for a symlink).
    let again: fs.Stats;
    try {
      again = fs.statSync(real);
      if (fs.realpathSync.native(real) !== real) throw new Error('moved');
    } catch {
      throw errors.planFileNotAllowed(shown, 'changed', 'it changed while it was being opened');
    }
    if (again.dev !== st.dev || again.ino !== st.ino) throw errors.planFileNotAllowed(shown, 'changed', 'it changed while it was being opened');
    const buf = Buffer.alloc(Math.min(st.size, PLAN_MAX_BYTES) + 1);
    let n = 0;
    for (;;) {
      const got = fs.readSync(fd, buf, n, buf.length - n, null);
      if (got === 0) break;
      n += got;
      if (n === buf.length) break;
    }
    // Grown past the cap while being read.
    if (n > PLAN_MAX_BYTES) throw errors.planTooLarge('file', n, PLAN_MAX_BYTES);
    return snapshotOf(buf.subarray(0, n), st);
  } finally {
    fs.closeSync(fd);
  }
}

function refusal(r: Exclude<Resolution, { status: 'resolved' }>, shown: string): Error {
  switch (r.reason) {
    case 'not_found':
      return errors.planFileNotFound(shown);
    case 'outside_workspace':
      return errors.planFileNotAllowed(shown, 'outside_workspace', r.message);
    default:
      return errors.planFileNotAllowed(shown, 'invalid', r.message);
  }
}

function namedRoot(ctx: PlanRoots, agentId: string, workspaceId: string | undefined): ExecutionRoot | undefined {
  if (workspaceId === undefined) return undefined;
  const root = ctx.roots.find((r) => r.workspace_id === workspaceId);
  if (!root) throw errors.workspaceNotFound(workspaceId, { agent_id: agentId });
  return root;
}

/** The real path of the plan and the workspace holding it, or a 400/404 (see the module comment). */
export function resolvePlan(ctx: PlanRoots, agentId: string, loc: PlanLocation): { root: ExecutionRoot; real: string } {
  const shown = loc.path;
  if (shown.trim() === '' || shown.includes('\0')) throw errors.planFileNotAllowed(shown, 'invalid', 'the path must be a non-empty path');
  const named = namedRoot(ctx, agentId, loc.workspace_id);
  const r = path.isAbsolute(shown)
    ? resolveReference({ type: 'absolute_path', absolute_path: shown }, ctx)
    : resolveReference({ type: 'relative_path', relative_path: shown, workspace_id: named?.workspace_id ?? ctx.activeWorkspaceId }, ctx);
  if (r.status !== 'resolved') throw refusal(r, shown);
  if (r.location.kind !== 'file') throw errors.planFileNotAllowed(shown, 'not_a_file', 'it is a directory');
  const real = r.location.absolute_path;
  // An absolute path in a named workspace must really be inside that one (the most specific root is found otherwise).
  const root = named ?? ctx.roots.find((x) => x.workspace_id === r.location.workspace_id)!;
  if (!isWithin(root.root, real)) throw errors.planFileNotAllowed(shown, 'outside_workspace', `the path is not inside workspace ${root.workspace_id}`);
  return { root, real };
}

/** Resolve and read the plan: what the `plan_artifact` column stores. */
export function capturePlan(ctx: PlanRoots, agentId: string, loc: PlanLocation, attachedAt: string): StoredPlan {
  const { root, real } = resolvePlan(ctx, agentId, loc);
  const snap = readPlanFile(real, loc.path);
  return {
    path: real,
    relative_path: path.relative(root.root, real).split(path.sep).join('/'),
    workspace_id: root.workspace_id,
    owner_agent_id: agentId,
    attached_at: attachedAt,
    ...snap,
  };
}

/**
 * Write `text` as the plan file at `loc` (relative to the named or active workspace, or absolute
 * inside it) and return its real path. See the module comment for the rules.
 */
export function writePlanText(ctx: PlanRoots, agentId: string, loc: PlanLocation, text: string): { root: ExecutionRoot; real: string } {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > PLAN_TEXT_MAX_BYTES) throw errors.planTooLarge('text', bytes, PLAN_TEXT_MAX_BYTES);
  const shown = loc.path;
  if (shown.trim() === '' || shown.includes('\0')) throw errors.planFileNotAllowed(shown, 'invalid', 'the path must be a non-empty path');
  const root = namedRoot(ctx, agentId, loc.workspace_id) ?? ctx.roots.find((x) => x.workspace_id === ctx.activeWorkspaceId) ?? ctx.roots[0]!;
  const rel = path.isAbsolute(shown) ? path.relative(root.root, path.resolve(shown)) : shown;
  const target = path.isAbsolute(rel) ? null : lexicalJoin(root.root, root.root, rel);
  if (target === null || target === root.root) {
    throw errors.planFileNotAllowed(shown, 'outside_workspace', `the path must name a file inside workspace ${root.workspace_id}`);
  }
  const dir = realDirInside(root.root, path.dirname(target), shown);
  const file = path.join(dir, path.basename(target));
  const present = lstatOrNull(file);
  if (present && !present.isFile()) throw errors.planFileNotAllowed(shown, 'not_a_file', 'a directory, symbolic link or special file is in the way');
  const mode = present ? present.mode & 0o777 : 0o600;
  const tmp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = fs.openSync(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | O_NOFOLLOW, mode);
  try {
    try {
      fs.writeFileSync(fd, text, 'utf8');
      fs.fchmodSync(fd, mode);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  return { root, real: file };
}

/** `dir` (lexically inside `root`) created as needed; its real path, which must be inside `root`. */
function realDirInside(root: string, dir: string, shown: string): string {
  let existing = dir;
  while (!fs.existsSync(existing)) existing = path.dirname(existing);
  const outside = () => errors.planFileNotAllowed(shown, 'outside_workspace', 'a directory on the path leads outside the workspace');
  if (!isWithin(root, fs.realpathSync.native(existing))) throw outside();
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR' || code === 'ENOENT') throw errors.planFileNotAllowed(shown, 'not_a_file', 'a file is in the way of a directory on the path');
    throw err;
  }
  const real = fs.realpathSync.native(dir);
  if (!isWithin(root, real) || !fs.statSync(real).isDirectory()) throw outside();
  return real;
}

/**
 * Serves stored plans with their current content (the read-refresh rule of the module comment),
 * remembering the re-reads of changed files.
 */
export class PlanRefresher {
  private readonly cache = new Map<string, Snapshot>();

  /** The artifact as the file is now; `roots` (the agent's workspaces) is asked for only when needed. */
  current(p: StoredPlan, roots: () => ExecutionRoot[]): PlanArtifact {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(p.path);
    } catch {
      return capturedArtifact(p, true);
    }
    if (!st.isFile()) return capturedArtifact(p, true);
    const root = roots().find((r) => r.workspace_id === p.workspace_id);
    if (!root || !isWithin(root.root, p.path) || realOrNull(p.path) !== p.path) return capturedArtifact(p, true);
    const signature = signatureOf(st);
    if (signature === p.signature) return capturedArtifact(p);
    const key = `${p.path}\n${signature}`;
    let snap = this.cache.get(key);
    if (!snap) {
      try {
        snap = readPlanFile(p.path, p.relative_path);
      } catch {
        return capturedArtifact(p, true);
      }
      this.remember(key, snap);
    }
    return { ...capturedArtifact(p), ...withoutSignature(snap) };
  }

  private remember(key: string, snap: Snapshot): void {
    if (this.cache.size >= REFRESH_CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, snap);
  }
}

function withoutSignature(s: Snapshot): Omit<Snapshot, 'signature'> {
  const { signature: _signature, ...rest } = s;
  return rest;
}

function realOrNull(p: string): string | null {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return null;
  }
}

function lstatOrNull(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

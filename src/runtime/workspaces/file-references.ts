/**
 * File-reference resolution and the desktop-reveal guards (spec "Workspace and desktop").
 *
 * Everything here works on plain data (registered execution roots, request facts); the only I/O
 * is `fs.realpathSync`/`fs.statSync` on the candidate path. The security rule, in one place:
 * a reference resolves only when its REAL path (every symlink followed) lies inside a registered
 * root's real path. `..` segments are applied lexically first and must not climb out of the root;
 * then the real path is checked again, so neither `..` nor a symlink can ever leave the root.
 *
 * URI form: `workspace://<workspace_id>/<relative path>`, the relative path percent-encoded per
 * RFC 3986 (`%20` for a space); `workspace://<workspace_id>` or `workspace://<workspace_id>/`
 * names the root itself. No query, no fragment. `agent_home` names the agent home.
 */
import fs from 'node:fs';
import path from 'node:path';
import { hostName, isLoopbackAddress, isLoopbackOrigin } from '../../core/index.js';

/** Most references one resolve request may carry (spec Limits). */
export const MAX_REFERENCES = 64;

export const AGENT_HOME_ID = 'agent_home';
export const WORKSPACE_URI_PREFIX = 'workspace://';

export type RootKind = 'agent_home' | 'workspace';

/** A registered execution root. Each workspace has exactly one: execution_root_id = workspace_id. */
export interface ExecutionRoot {
  workspace_id: string;
  execution_root_id: string;
  /** Real path (symlinks resolved) of the root directory. */
  root: string;
  root_kind: RootKind;
}

export type FileReference =
  | { type: 'workspace_uri'; workspace_uri: string }
  | { type: 'absolute_path'; absolute_path: string }
  | { type: 'relative_path'; relative_path: string; base_path?: string | undefined; workspace_id?: string | undefined };

export interface FileLocation {
  workspace_id: string;
  execution_root_id: string;
  /** Relative to the root, `/`-separated; `.` for the root itself. */
  path: string;
  absolute_path: string;
  kind: 'file' | 'directory';
  root_kind: RootKind;
}

export type UnresolvedReason = 'unknown_workspace' | 'outside_workspace' | 'not_found' | 'invalid_reference';

export type Unresolved = { status: 'unresolved'; reason: UnresolvedReason; message: string };
export type Resolution = { status: 'resolved'; location: FileLocation } | Unresolved;

export interface ResolveContext {
  roots: ExecutionRoot[];
  /** Root used by a relative_path reference that names neither base_path nor workspace_id. */
  activeWorkspaceId: string;
}

/** `p` equals `root` or lies below it (both absolute and normalised). */
export function isWithin(root: string, p: string): boolean {
  if (p === root) return true;
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return p.startsWith(prefix);
}

/** `p` lies strictly below `root` (the root itself does not count). */
export function isStrictlyWithin(root: string, p: string): boolean {
  return p !== root && isWithin(root, p);
}

/** Split a workspace URI into id and decoded relative path, or null when it is not one. */
export function parseWorkspaceUri(uri: string): { workspace_id: string; relative: string } | null {
  if (!uri.startsWith(WORKSPACE_URI_PREFIX)) return null;
  const rest = uri.slice(WORKSPACE_URI_PREFIX.length);
  if (rest.includes('?') || rest.includes('#')) return null;
  const slash = rest.indexOf('/');
  const id = slash === -1 ? rest : rest.slice(0, slash);
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(id)) return null;
  let relative: string;
  try {
    relative = decodeURIComponent(slash === -1 ? '' : rest.slice(slash + 1));
  } catch {
    return null;
  }
  if (relative.includes('\0')) return null;
  return { workspace_id: id, relative };
}

/**
 * `rel` joined onto `base` with `..` applied lexically, or null when the result leaves `root`
 * or `rel` is not a relative path.
 */
export function lexicalJoin(root: string, base: string, rel: string): string | null {
  if (rel.includes('\0') || path.isAbsolute(rel)) return null;
  const joined = path.resolve(base, rel);
  return isWithin(root, joined) ? joined : null;
}

const unresolved = (reason: UnresolvedReason, message: string): Unresolved => ({ status: 'unresolved', reason, message });

function realpathOrNull(p: string): string | null {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return null;
  }
}

/** Most specific registered root holding `real` (a real path). */
function rootHolding(roots: ExecutionRoot[], real: string): ExecutionRoot | null {
  let best: ExecutionRoot | null = null;
  for (const r of roots) if (isWithin(r.root, real) && (!best || r.root.length > best.root.length)) best = r;
  return best;
}

function locate(root: ExecutionRoot, real: string): Resolution {
  let isDir: boolean;
  try {
    isDir = fs.statSync(real).isDirectory();
  } catch {
    return unresolved('not_found', 'the referenced file does not exist');
  }
  const rel = path.relative(root.root, real);
  return {
    status: 'resolved',
    location: {
      workspace_id: root.workspace_id,
      execution_root_id: root.execution_root_id,
      path: rel === '' ? '.' : rel.split(path.sep).join('/'),
      absolute_path: real,
      kind: isDir ? 'directory' : 'file',
      root_kind: root.root_kind,
    },
  };
}

/** Resolve `rel` below `base` (a real directory inside `root`), keeping it inside `root`. */
function resolveInside(root: ExecutionRoot, base: string, rel: string): Resolution {
  const joined = lexicalJoin(root.root, base, rel);
  if (joined === null) {
    return path.isAbsolute(rel)
      ? unresolved('invalid_reference', 'a relative path must not be absolute')
      : unresolved('outside_workspace', `the path leaves workspace ${root.workspace_id}`);
  }
  const real = realpathOrNull(joined);
  if (real === null) return unresolved('not_found', `no such file in workspace ${root.workspace_id}`);
  if (!isWithin(root.root, real)) return unresolved('outside_workspace', `the path resolves (through a symbolic link) outside workspace ${root.workspace_id}`);
  return locate(root, real);
}

function findRoot(ctx: ResolveContext, id: string): ExecutionRoot | undefined {
  return ctx.roots.find((r) => r.workspace_id === id);
}

/** Resolve an absolute path to the registered root that really holds it. */
function resolveAbsolute(ctx: ResolveContext, p: string): Unresolved | { root: ExecutionRoot; real: string } {
  if (!path.isAbsolute(p) || p.includes('\0')) return unresolved('invalid_reference', 'absolute_path must be an absolute path');
  const normal = path.resolve(p);
  const real = realpathOrNull(normal);
  if (real === null) {
    return rootHolding(ctx.roots, normal)
      ? unresolved('not_found', 'the referenced file does not exist')
      : unresolved('outside_workspace', 'the path is not inside any workspace of the agent');
  }
  const root = rootHolding(ctx.roots, real);
  if (!root) return unresolved('outside_workspace', 'the path is not inside any workspace of the agent');
  return { root, real };
}

export function resolveReference(ref: FileReference, ctx: ResolveContext): Resolution {
  switch (ref.type) {
    case 'workspace_uri': {
      const parsed = parseWorkspaceUri(ref.workspace_uri);
      if (!parsed) return unresolved('invalid_reference', 'workspace_uri must look like workspace://<workspace_id>/<relative path>');
      const root = findRoot(ctx, parsed.workspace_id);
      if (!root) return unresolved('unknown_workspace', `workspace ${JSON.stringify(parsed.workspace_id)} is not registered for this agent`);
      return resolveInside(root, root.root, parsed.relative);
    }
    case 'absolute_path': {
      const r = resolveAbsolute(ctx, ref.absolute_path);
      return 'status' in r ? r : locate(r.root, r.real);
    }
    case 'relative_path': {
      const rel = ref.relative_path;
      if (rel === '' || rel.includes('\0')) return unresolved('invalid_reference', 'relative_path must be a non-empty relative path');
      if (path.isAbsolute(rel)) return unresolved('invalid_reference', 'relative_path must not be absolute; use an absolute_path reference');
      let named: ExecutionRoot | undefined;
      if (ref.workspace_id !== undefined) {
        named = findRoot(ctx, ref.workspace_id);
        if (!named) return unresolved('unknown_workspace', `workspace ${JSON.stringify(ref.workspace_id)} is not registered for this agent`);
      }
      if (ref.base_path !== undefined) {
        const base = resolveAbsolute(ctx, ref.base_path);
        if ('status' in base) return base.reason === 'invalid_reference' ? unresolved('invalid_reference', 'base_path must be an absolute path') : base;
        if (named && base.root.workspace_id !== named.workspace_id) {
          return unresolved('outside_workspace', `base_path is not inside workspace ${named.workspace_id}`);
        }
        let dir = base.real;
        try {
          if (!fs.statSync(base.real).isDirectory()) dir = path.dirname(base.real);
        } catch {
          return unresolved('not_found', 'base_path does not exist');
        }
        return resolveInside(base.root, dir, rel);
      }
      const root = named ?? findRoot(ctx, ctx.activeWorkspaceId);
      if (!root) return unresolved('unknown_workspace', 'the active workspace is not registered');
      return resolveInside(root, root.root, rel);
    }
    default:
      return unresolved('invalid_reference', 'unknown reference type');
  }
}

/** Resolve every reference in order; more than MAX_REFERENCES is a caller error. */
export function resolveReferences(refs: FileReference[], ctx: ResolveContext): Resolution[] {
  if (refs.length > MAX_REFERENCES) throw new RangeError(`at most ${MAX_REFERENCES} references per request`);
  return refs.map((r) => resolveReference(r, ctx));
}

// --- desktop reveal guards ---------------------------------------------------------------------

/** Operating systems whose file manager svc can open on a file. */
export function desktopPlatformSupported(platform: NodeJS.Platform): boolean {
  return platform === 'darwin' || platform === 'win32';
}

export interface ConnectionFacts {
  /** Socket peer address (undefined over a Unix socket). */
  remoteAddress: string | undefined;
  headers: Record<string, string | string[] | undefined>;
}

const PROXY_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-real-ip', 'via'];

/**
 * A direct loopback connection from a local page or client: the peer is a loopback address, no
 * proxy left its marks, the Host is a loopback name, and an Origin is present, is a loopback
 * origin, and names the same host and port as the Host header (the page is served by this daemon).
 */
export function directLoopbackWithMatchingOrigin(c: ConnectionFacts): boolean {
  if (!isLoopbackAddress(c.remoteAddress)) return false;
  if (PROXY_HEADERS.some((h) => c.headers[h] !== undefined)) return false;
  const host = c.headers.host;
  const origin = c.headers.origin;
  if (typeof host !== 'string' || typeof origin !== 'string') return false;
  if (!isLoopbackOrigin(origin)) return false;
  const name = hostName(host);
  if (!(name === 'localhost' || name === '[::1]' || name.startsWith('127.'))) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return url.host.toLowerCase() === host.trim().toLowerCase();
}

export type RevealDenial = 'desktop_integration_disabled' | 'desktop_platform_unsupported' | 'desktop_loopback_required';

/** The request-level gate of desktop integration, in order; null = allowed. */
export function desktopGate(opts: { enabled: boolean; platform: NodeJS.Platform; connection: ConnectionFacts }): RevealDenial | null {
  if (!opts.enabled) return 'desktop_integration_disabled';
  if (!desktopPlatformSupported(opts.platform)) return 'desktop_platform_unsupported';
  if (!directLoopbackWithMatchingOrigin(opts.connection)) return 'desktop_loopback_required';
  return null;
}

/**
 * The reveal target: `rel` below `root` (a real path), lexically and really strictly inside it
 * (never the root itself, never through `..` or a symlink). Null when refused or missing.
 */
export function revealTarget(root: string, rel: string): string | null {
  if (rel === '' || rel.includes('\0') || path.isAbsolute(rel)) return null;
  const joined = lexicalJoin(root, root, rel);
  if (joined === null || !isStrictlyWithin(root, joined)) return null;
  const real = realpathOrNull(joined);
  if (real === null || !isStrictlyWithin(root, real)) return null;
  return real;
}

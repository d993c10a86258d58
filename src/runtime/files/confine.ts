/**
 * Where a path the model names may lead (docs/tools.md#files). The rule, in one place: the REAL
 * path (every symlink followed) must lie inside one of the agent's workspaces (its home
 * `agent_home` and the attached directories, each by the real path recorded when it was
 * attached). A relative path resolves against the active workspace, an absolute one must name a
 * place inside a workspace; `..` is applied before the real path is taken, and the real path is
 * checked again, so neither `..` nor a symlink (file or directory, anywhere on the way) leads out.
 * A path that does not exist yet resolves through its deepest existing ancestor: that ancestor's
 * real path, then the missing names. Writes are refused inside `.git` (git's own files) and on
 * the workspace directory itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import { errors } from '../../core/index.js';
import { isWithin, type WorkspaceService } from '../workspaces/index.js';
import type { Root, Target } from './types.js';

/** Longest path argument accepted (Linux PATH_MAX). */
export const MAX_PATH_CHARS = 4096;

/** The agent's workspaces, agent_home first, each by its recorded real path. */
export function rootsOf(workspaces: WorkspaceService, agentId: string): Root[] {
  return workspaces.rootPaths(agentId);
}

/** A path argument cut for an error message (a huge argument is not echoed whole). */
export function shown(input: string): string {
  return input.length <= 200 ? input : `${input.slice(0, 200)}…`;
}

export type Purpose = 'read' | 'write';

/** Resolve `input` inside the agent's workspaces, or throw the refusal the model reads. */
export function resolveTarget(roots: Root[], input: string, purpose: Purpose): Target {
  if (input.length === 0) throw errors.pathInvalid(input, 'it is empty');
  if (input.length > MAX_PATH_CHARS) throw errors.pathInvalid(shown(input), `it is longer than ${MAX_PATH_CHARS} characters`);
  if (input.includes('\0')) throw errors.pathInvalid(shown(input), 'it contains a NUL character');
  const active = roots.find((r) => r.active) ?? roots[0]!;
  const lexical = path.resolve(active.root, input);
  const abs = realPath(lexical, input);
  const root = holding(roots, abs);
  if (!root) {
    const where = abs === lexical ? `${abs} is` : `it leads to ${abs} (through a symlink), which is`;
    throw errors.pathOutsideWorkspace(shown(input), `${where} in none of them (${roots.map((r) => `${r.workspace_id}: ${r.root}`).slice(0, 8).join(', ')})`);
  }
  const rel = relativeTo(root.root, abs);
  if (purpose === 'write') {
    if (rel === '.') throw errors.pathProtected(shown(input), 'it is the workspace directory itself');
    if (rel.split('/').some((seg) => seg.toLowerCase() === '.git')) {
      throw errors.pathProtected(shown(input), 'files inside .git belong to git (use git through run_command)');
    }
  }
  return { root, abs, rel, input: shown(input) };
}

/** `abs` relative to `root`, `/`-separated, `.` for the root itself. */
export function relativeTo(root: string, abs: string): string {
  const rel = path.relative(root, abs);
  return rel === '' ? '.' : rel.split(path.sep).join('/');
}

/** The most specific root holding `abs` (a workspace inside another one's tree wins). */
function holding(roots: Root[], abs: string): Root | null {
  let best: Root | null = null;
  for (const r of roots) if (isWithin(r.root, abs) && (!best || r.root.length > best.root.length)) best = r;
  return best;
}

/** Real path of `p`, or of its deepest existing ancestor followed by the missing names. */
function realPath(p: string, input: string): string {
  const missing: string[] = [];
  let cur = p;
  for (;;) {
    try {
      return path.join(fs.realpathSync.native(cur), ...missing.reverse());
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR') throw errors.pathInvalid(shown(input), 'a part of it is a file, not a directory');
      if (code === 'ELOOP') throw errors.pathInvalid(shown(input), 'it goes through a symlink loop');
      if (code !== 'ENOENT') throw errors.pathInvalid(shown(input), `it cannot be resolved (${code})`);
      // Something is there but cannot be resolved: a symlink whose target is missing. Where it
      // points is not known to be inside, so it is not followed (nor replaced).
      if (exists(cur)) throw errors.pathInvalid(shown(input), 'it is (or goes through) a symlink whose target does not exist');
      const parent = path.dirname(cur);
      if (parent === cur) throw errors.pathInvalid(shown(input), 'it cannot be resolved');
      missing.push(path.basename(cur));
      cur = parent;
    }
  }
}

function exists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * Git worktrees of a workspace: `git worktree list --porcelain -z`, run through
 * runtime/git-command.ts (no shell, a time limit, an output cap, nothing the repository configures
 * runs), and parsed here.
 */
import { runGit, type ExecResult } from '../git-command.js';

export interface WorktreeEntry {
  path: string;
  /** Commit the worktree's HEAD points at (null for a bare repository). */
  head: string | null;
  /** Short branch name (`refs/heads/` stripped), null when detached or bare. */
  branch: string | null;
  bare: boolean;
  detached: boolean;
  locked: boolean;
  locked_reason: string | null;
  prunable: boolean;
  prunable_reason: string | null;
  /** The first entry: the main worktree. */
  is_main: boolean;
}

export interface WorktreeListing {
  is_git: boolean;
  worktrees: WorktreeEntry[];
  /** Why git could not answer (not installed, timed out), null otherwise. */
  error: string | null;
}

export const GIT_TIMEOUT_MS = 5000;

/**
 * Parse porcelain output. With `-z` every attribute line ends in NUL and a record ends in an
 * extra NUL; without it, lines end in LF and records in an empty line. Both are accepted.
 */
export function parseWorktreePorcelain(text: string): WorktreeEntry[] {
  const sep = text.includes('\0') ? '\0' : '\n';
  const entries: WorktreeEntry[] = [];
  let cur: WorktreeEntry | null = null;
  for (const line of text.split(sep)) {
    if (line === '') {
      if (cur) entries.push(cur);
      cur = null;
      continue;
    }
    const space = line.indexOf(' ');
    const key = space === -1 ? line : line.slice(0, space);
    const value = space === -1 ? null : line.slice(space + 1);
    if (key === 'worktree') {
      if (cur) entries.push(cur);
      cur = {
        path: value ?? '',
        head: null,
        branch: null,
        bare: false,
        detached: false,
        locked: false,
        locked_reason: null,
        prunable: false,
        prunable_reason: null,
        is_main: entries.length === 0,
      };
      continue;
    }
    if (!cur) continue;
    switch (key) {
      case 'HEAD':
        cur.head = value;
        break;
      case 'branch':
        cur.branch = value === null ? null : value.replace(/^refs\/heads\//, '');
        break;
      case 'bare':
        cur.bare = true;
        break;
      case 'detached':
        cur.detached = true;
        break;
      case 'locked':
        cur.locked = true;
        cur.locked_reason = value;
        break;
      case 'prunable':
        cur.prunable = true;
        cur.prunable_reason = value;
        break;
    }
  }
  if (cur) entries.push(cur);
  entries.forEach((e, i) => (e.is_main = i === 0));
  return entries;
}

/**
 * `git ARGS` in `cwd` (runtime/git-command.ts `runGit`): the daemon's own git calls run nothing the
 * repository configures.
 */
export function git(cwd: string, args: string[], timeoutMs = GIT_TIMEOUT_MS): Promise<ExecResult> {
  return runGit(args, { cwd, timeoutMs });
}

/** The worktrees of the repository holding `cwd`; is_git false when it is not in one. */
export async function listWorktrees(cwd: string, timeoutMs = GIT_TIMEOUT_MS): Promise<WorktreeListing> {
  const r = await git(cwd, ['worktree', 'list', '--porcelain', '-z'], timeoutMs);
  if (r.code === 0) return { is_git: true, worktrees: parseWorktreePorcelain(r.stdout), error: null };
  if (r.code === 'ENOENT') return { is_git: false, worktrees: [], error: 'git is not installed or not on PATH' };
  if (r.killed) return { is_git: false, worktrees: [], error: `git did not answer within ${timeoutMs} ms` };
  if (/not a git repository/i.test(r.stderr)) return { is_git: false, worktrees: [], error: null };
  return { is_git: false, worktrees: [], error: r.stderr.trim().split('\n')[0] || `git exited with ${r.code}` };
}

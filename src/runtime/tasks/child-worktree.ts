/**
 * The git side of a child agent's worktree (child-tasks.ts): create a worktree on a new
 * branch, list what the child changed, remove the worktree and delete its branch. Every git call
 * goes through runtime/workspaces/worktrees.ts `git` (runtime/git-command.ts: no shell, a time
 * limit, and no hook, filter driver or other program of the repository's configuration runs).
 * Mutations of one repository are serialised: concurrent `git worktree add` on one repository
 * contend for its locks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { git } from '../workspaces/index.js';

/** The spec's child_supervision.worktree object (plus `base_commit`, the commit it started from). */
export interface WorktreeRecord {
  projection_kind: 'git_worktree';
  worktree_path: string | null;
  worktree_branch: string | null;
  actual_branch: string | null;
  original_branch: string | null;
  original_cwd: string | null;
  base_commit: string | null;
  changed_files: string[];
  retained_for_review: boolean | null;
  auto_cleaned_up: boolean | null;
  cleanup_status: string | null;
  cleanup_reason: string | null;
  cleanup_error: string | null;
  branch_cleanup_status: string | null;
  branch_cleanup_error: string | null;
}

/** Longest list of changed files kept in the record. */
const MAX_CHANGED_FILES = 500;
const GIT_WRITE_TIMEOUT_MS = 60_000;

export class WorktreeError extends Error {}

const locks = new Map<string, Promise<unknown>>();

/** Run `fn` after every earlier mutation of the same repository. */
function serialised<T>(repo: string, fn: () => Promise<T>): Promise<T> {
  const prev = locks.get(repo) ?? Promise.resolve();
  const next = prev.then(fn, fn);
  const tail = next.catch(() => undefined);
  locks.set(repo, tail);
  void tail.then(() => {
    if (locks.get(repo) === tail) locks.delete(repo);
  });
  return next;
}

function firstLine(text: string, fallback: string): string {
  return text.trim().split('\n')[0]?.slice(0, 500) || fallback;
}

/** The repository holding `cwd`: its top level, current branch (null when detached) and HEAD commit. */
export async function repositoryOf(cwd: string): Promise<{ root: string; branch: string | null; head: string }> {
  const top = await git(cwd, ['rev-parse', '--show-toplevel']);
  if (top.code === 'ENOENT') throw new WorktreeError('git is not installed or not on PATH');
  if (top.code !== 0) throw new WorktreeError(`${cwd} is not inside a git repository`);
  const root = top.stdout.trim();
  const head = await git(cwd, ['rev-parse', '--verify', 'HEAD']);
  if (head.code !== 0) throw new WorktreeError(`the repository at ${root} has no commit yet`);
  const branch = await git(cwd, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  return { root, branch: branch.code === 0 ? branch.stdout.trim() : null, head: head.stdout.trim() };
}

/**
 * Create `<dir>` as a worktree of the repository holding `cwd`, on a new branch `branch` at the
 * current HEAD. The child works in the same subdirectory the parent was in.
 */
export async function createWorktree(cwd: string, dir: string, branch: string): Promise<{ record: WorktreeRecord; workdir: string }> {
  const repo = await repositoryOf(cwd);
  const rel = path.relative(repo.root, fs.realpathSync(cwd));
  await serialised(repo.root, async () => {
    fs.mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 });
    const r = await git(repo.root, ['worktree', 'add', '-b', branch, dir, repo.head], GIT_WRITE_TIMEOUT_MS);
    if (r.code !== 0) throw new WorktreeError(`git worktree add failed: ${firstLine(r.stderr, `exit ${r.code}`)}`);
  });
  return {
    workdir: rel && !rel.startsWith('..') ? path.join(dir, rel) : dir,
    record: {
      projection_kind: 'git_worktree',
      worktree_path: dir,
      worktree_branch: branch,
      actual_branch: branch,
      original_branch: repo.branch,
      original_cwd: cwd,
      base_commit: repo.head,
      changed_files: [],
      retained_for_review: null,
      auto_cleaned_up: null,
      cleanup_status: 'active',
      cleanup_reason: null,
      cleanup_error: null,
      branch_cleanup_status: null,
      branch_cleanup_error: null,
    },
  };
}

/**
 * Files the child changed: uncommitted changes (tracked and untracked) in the worktree plus files
 * of the commits it added since `base_commit`. Also the branch its HEAD is on now. Null when the
 * worktree is gone.
 */
export async function inspectWorktree(w: WorktreeRecord): Promise<{ changed: string[]; branch: string | null } | null> {
  const dir = w.worktree_path;
  if (!dir || !fs.existsSync(dir)) return null;
  const files = new Set<string>();
  // Submodules are not looked into: their own configuration is not checked for filter drivers.
  const status = await git(dir, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignore-submodules=all']);
  if (status.code === 0) {
    const parts = status.stdout.split('\0');
    for (let i = 0; i < parts.length; i++) {
      const entry = parts[i]!;
      if (entry.length < 4) continue;
      files.add(entry.slice(3));
      // A rename or copy is followed by its source path.
      if (entry[0] === 'R' || entry[0] === 'C') i++;
    }
  }
  if (w.base_commit) {
    const diff = await git(dir, ['diff', '--no-ext-diff', '--no-textconv', '--name-only', '-z', `${w.base_commit}..HEAD`]);
    if (diff.code === 0) for (const f of diff.stdout.split('\0')) if (f) files.add(f);
  }
  const branch = await git(dir, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  return { changed: [...files].sort().slice(0, MAX_CHANGED_FILES), branch: branch.code === 0 ? branch.stdout.trim() : null };
}

/** Remove the worktree (even with changes) and delete its branch; fills the cleanup fields. */
export async function removeWorktree(w: WorktreeRecord, reason: string, automatic: boolean): Promise<WorktreeRecord> {
  const out: WorktreeRecord = { ...w, cleanup_reason: reason };
  const dir = w.worktree_path;
  const repo = w.original_cwd;
  if (!dir || !repo) return { ...out, cleanup_status: 'removed' };
  let root: string;
  try {
    root = (await repositoryOf(repo)).root;
  } catch (err) {
    // The original repository is gone: remove the directory, nothing else is left to clean.
    fs.rmSync(dir, { recursive: true, force: true });
    return { ...out, cleanup_status: 'removed', auto_cleaned_up: automatic, cleanup_error: (err as Error).message, branch_cleanup_status: 'skipped' };
  }
  return serialised(root, async () => {
    if (fs.existsSync(dir)) {
      const r = await git(root, ['worktree', 'remove', '--force', '--force', dir], GIT_WRITE_TIMEOUT_MS);
      if (r.code !== 0) {
        fs.rmSync(dir, { recursive: true, force: true });
        out.cleanup_error = firstLine(r.stderr, `git worktree remove exited ${r.code}`);
      }
    }
    await git(root, ['worktree', 'prune'], GIT_WRITE_TIMEOUT_MS);
    out.cleanup_status = fs.existsSync(dir) ? 'failed' : 'removed';
    out.auto_cleaned_up = out.cleanup_status === 'removed' ? automatic : null;
    out.retained_for_review = false;
    if (w.worktree_branch) {
      const b = await git(root, ['branch', '-D', w.worktree_branch], GIT_WRITE_TIMEOUT_MS);
      const gone = b.code === 0 || /not found/i.test(b.stderr);
      out.branch_cleanup_status = gone ? 'deleted' : 'failed';
      out.branch_cleanup_error = gone ? null : firstLine(b.stderr, `git branch -D exited ${b.code}`);
    }
    return out;
  });
}

/**
 * Workspace tools (docs/tools.md#coordination): what the agent works in, and moving between the
 * directories it may use, through WorkspaceService as POST .../workspace/attach and .../exit do
 * (same `workspace_attached` / `workspace_exited` events, authority `runtime_instruction`).
 *
 * A model attaches only a directory whose real path lies inside one of the roots the operator
 * listed in `tools.workspace_roots` (none: only the operator attaches); the service checks the very
 * real path it registers, and the tool hands it the real path, so the workspace's path is no
 * symlink the agent could later point elsewhere. Switching selects a registered workspace again,
 * refused if its directory now resolves anywhere else.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { AppError, errors } from '../../core/index.js';
import { runGit, type ExecResult } from '../git-command.js';
import { AGENT_HOME_ID, type WorkspaceEntry } from '../workspaces/index.js';
import { defineTool } from './define.js';
import type { ToolDeps } from './types.js';

/** Changed paths get_workspace_state lists (the total is counted up to the output cap). */
export const STATUS_MAX_ENTRIES = 100;
const STATUS_MAX_BYTES = 256 * 1024;
const GIT_TIMEOUT_MS = 5000;
const PATH_MAX_CHARS = 4096;

export interface GitState {
  branch: string | null;
  detached: boolean;
  /** The commit HEAD points at; null in a repository without commits. */
  head: string | null;
  /** `git status --porcelain` lines: two status letters, a space, the path (relative to the repository). */
  changes: string[];
  /** Changed paths in all; null when the output passed its cap (`changes_truncated`). */
  changes_total: number | null;
  changes_truncated: boolean;
  /** Why git could not answer (not installed, timed out, not a repository), else null. */
  error: string | null;
}

/** Branch, HEAD and a bounded status of the repository at `dir`, through git-command.ts (no shell, nothing the repository configures runs). */
export async function gitState(dir: string, signal?: AbortSignal): Promise<GitState> {
  const opts = { cwd: dir, timeoutMs: GIT_TIMEOUT_MS, ...(signal ? { signal } : {}) };
  const [branch, head, status] = await Promise.all([
    runGit(['symbolic-ref', '--short', '-q', 'HEAD'], opts),
    runGit(['rev-parse', '--verify', '-q', 'HEAD'], opts),
    runGit(['status', '--porcelain=v1', '--untracked-files=normal'], { ...opts, maxBuffer: STATUS_MAX_BYTES }),
  ]);
  const overflow = status.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER';
  const lines = status.stdout.split('\n');
  // Past the cap the last line may be cut: drop it.
  const complete = overflow ? lines.slice(0, -1) : lines.filter((l) => l !== '');
  return {
    branch: branch.code === 0 ? branch.stdout.trim() || null : null,
    detached: branch.code === 1 && head.code === 0,
    head: head.code === 0 ? head.stdout.trim() || null : null,
    changes: complete.slice(0, STATUS_MAX_ENTRIES),
    changes_total: overflow ? null : complete.length,
    changes_truncated: overflow || complete.length > STATUS_MAX_ENTRIES,
    error: status.code === 0 || overflow ? null : gitError(status),
  };
}

function gitError(r: ExecResult): string {
  const first = r.stderr.trim().split('\n')[0] ?? '';
  return r.killed ? `git status did not answer within ${GIT_TIMEOUT_MS} ms` : first || `git status exited with ${String(r.code)}`;
}

function slim(e: WorkspaceEntry) {
  return { workspace_id: e.workspace_id, path: e.path, kind: e.kind, active: e.active };
}

/** The real path of an absolute path, else the path itself (attach then says what is wrong with it; a missing root matches nothing real). */
function realOrRaw(p: string): string {
  try {
    return path.isAbsolute(p) ? fs.realpathSync.native(p) : p;
  } catch {
    return p;
  }
}

export function workspaceTools(deps: ToolDeps) {
  const { config, workspaces, logger } = deps;
  return [
    defineTool(
      {
        name: 'get_workspace_state',
        class: 'read',
        description:
          'Your workspaces: the active one (the default working directory of your commands and file tools) and every attached one; ' +
          `for a git workspace also its branch, HEAD commit and the changed paths (git status, at most ${STATUS_MAX_ENTRIES}).`,
        args: z.strictObject({}),
        run: async (ctx) => {
          const list = workspaces.list(ctx.agentId);
          const active = list.find((e) => e.active) ?? list[0]!;
          return {
            active: slim(active),
            workspaces: list.map(slim),
            git: active.kind === 'git' ? await gitState(active.root, ctx.signal) : null,
          };
        },
      },
      logger,
    ),
    defineTool(
      {
        name: 'attach_workspace',
        class: 'write',
        description:
          'Attach a directory as a workspace and make it the active one. Only a directory inside the roots the operator allowed ' +
          '(tools.workspace_roots) can be attached; attaching one that is already attached selects it again.',
        args: z.strictObject({ path: z.string().min(1).max(PATH_MAX_CHARS).describe('absolute path of an existing directory') }),
        run: (ctx, a) => {
          const roots = config.values.tools.workspace_roots;
          if (roots.length === 0) {
            throw errors.workspaceNotAllowed(a.path, 'only the operator attaches workspaces here (tools.workspace_roots in the configuration is empty)');
          }
          const r = workspaces.attach(ctx.agentId, realOrRaw(a.path), 'runtime_instruction', roots.map(realOrRaw));
          return { created: r.created, workspace: slim(r.workspace), active_workspace_id: r.active_workspace_id };
        },
      },
      logger,
    ),
    defineTool(
      {
        name: 'switch_workspace',
        class: 'write',
        description: `Make one of your attached workspaces (or ${AGENT_HOME_ID}, your home) the active one. get_workspace_state lists them.`,
        args: z.strictObject({ workspace_id: z.string().min(1).max(128).describe(`a workspace id (ws_...) or ${AGENT_HOME_ID}`) }),
        run: (ctx, a) => {
          if (a.workspace_id === AGENT_HOME_ID) {
            const r = workspaces.exit(ctx.agentId, 'runtime_instruction');
            return { changed: r.changed, previous_workspace_id: r.previous_workspace_id, active_workspace_id: r.active_workspace_id };
          }
          const entry = workspaces.get(ctx.agentId, a.workspace_id);
          const previous = workspaces.activeId(ctx.agentId);
          try {
            // By its registered real path, which must still be that very directory (not realpath'd again).
            const r = workspaces.attach(ctx.agentId, entry.root, 'runtime_instruction', [entry.root]);
            return { changed: previous !== r.active_workspace_id, previous_workspace_id: previous, active_workspace_id: r.active_workspace_id };
          } catch (err) {
            if (err instanceof AppError && err.code === 'workspace_not_allowed') {
              throw errors.workspaceNotAllowed(entry.path, 'its directory was replaced since it was attached (it resolves somewhere else now)');
            }
            throw err;
          }
        },
      },
      logger,
    ),
  ];
}

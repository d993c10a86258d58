/**
 * `svc workspaces …` (attach, exit, detach, list, worktrees) and `svc files resolve` (file
 * references to locations inside an agent's workspace roots).
 */
import path from 'node:path';
import type { Command } from 'commander';
import { clientOptions, controlApi, ok, resolveTarget, type ClientFlags } from '../client.js';
import { action, print, record, table, type Row } from '../output.js';

const WORKSPACE_COLUMNS = ['workspace_id', 'active', 'kind', 'root_kind', 'path', 'attached_at'];
const WORKTREE_COLUMNS = ['path', 'branch', 'head', 'is_main', 'detached', 'locked', 'prunable'];

type Reference =
  | { type: 'workspace_uri'; workspace_uri: string }
  | { type: 'absolute_path'; absolute_path: string }
  | { type: 'relative_path'; relative_path: string; workspace_id?: string; base_path?: string };

/** `workspace://…` -> workspace_uri, an absolute path -> absolute_path, anything else -> relative_path. */
export function toReference(ref: string, opts: { workspace?: string; base?: string } = {}): Reference {
  if (ref.startsWith('workspace://')) return { type: 'workspace_uri', workspace_uri: ref };
  if (path.isAbsolute(ref)) return { type: 'absolute_path', absolute_path: ref };
  return { type: 'relative_path', relative_path: ref, workspace_id: opts.workspace, base_path: opts.base };
}

export function registerWorkspaces(program: Command): void {
  const ws = program.command('workspaces').description('workspaces (directories) attached to an agent');

  clientOptions(ws.command('attach <agent> <path>').description('attach a directory and make it the active workspace')).action(
    action(async (agent: string, dir: string, flags: ClientFlags) => {
      // The server wants an absolute path; resolve a relative one against the caller's directory.
      const res = await ok(
        controlApi(resolveTarget(flags)).POST('/api/control/agents/{id}/workspace/attach', { params: { path: { id: agent } }, body: { path: path.resolve(dir) } }),
      );
      print(res, flags.json, (r) => `${r.created ? 'attached' : 'already attached'} (active)\n${record(r.workspace)}`);
    }),
  );

  clientOptions(ws.command('exit <agent>').description('return to the agent home workspace')).action(
    action(async (agent: string, flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).POST('/api/control/agents/{id}/workspace/exit', { params: { path: { id: agent } }, body: {} }));
      print(res, flags.json, (r) => (r.changed ? `left ${r.previous_workspace_id}; active: ${r.active_workspace_id}` : `already in ${r.active_workspace_id}`));
    }),
  );

  clientOptions(ws.command('detach <agent> <workspace_id>').description('remove a workspace registration (files are untouched)')).action(
    action(async (agent: string, workspaceId: string, flags: ClientFlags) => {
      const res = await ok(
        controlApi(resolveTarget(flags)).POST('/api/control/agents/{id}/workspace/detach', { params: { path: { id: agent } }, body: { workspace_id: workspaceId } }),
      );
      print(res, flags.json, (r) => `detached ${r.workspace_id}; active: ${r.active_workspace_id}`);
    }),
  );

  clientOptions(ws.command('list <agent>').description("the agent's workspaces (from its state page)")).action(
    action(async (agent: string, flags: ClientFlags) => {
      const state = await ok(controlApi(resolveTarget(flags)).GET('/api/agents/{id}/state', { params: { path: { id: agent } } }));
      // The state page documents the registry loosely (unknown[]); its rows are objects.
      print(state.workspaces, flags.json, (w) => `active: ${w.active_workspace_id}\n${table(w.registry as Row[], WORKSPACE_COLUMNS)}`);
    }),
  );

  clientOptions(ws.command('worktrees <agent>').description("git worktrees of the agent's active workspace"))
    .option('--workspace <workspace_id>', 'another workspace than the active one')
    .action(
      action(async (agent: string, flags: ClientFlags & { workspace?: string }) => {
        const res = await ok(
          controlApi(resolveTarget(flags)).GET('/api/agents/{id}/worktree-summary', { params: { path: { id: agent }, query: { workspace_id: flags.workspace } } }),
        );
        print(res, flags.json, (r) => {
          const head = `${r.workspace_id}  ${r.path}${r.is_git ? '' : '  (not a git work tree)'}`;
          return [head, ...(r.error ? [`error: ${r.error}`] : []), ...(r.is_git ? [table(r.worktrees, WORKTREE_COLUMNS)] : [])].join('\n');
        });
      }),
    );

  const files = program.command('files').description('file references');

  clientOptions(files.command('resolve <refs...>').description('resolve workspace:// URIs, absolute paths or relative paths to workspace locations'))
    .option('--agent <agent_id>', 'whose workspaces (default: the default agent)')
    .option('--workspace <workspace_id>', 'resolve relative paths against this workspace root (default: the active workspace)')
    .option('--base <file>', 'resolve relative paths against the directory of this absolute base file')
    .action(
      action(async (refs: string[], flags: ClientFlags & { agent?: string; workspace?: string; base?: string }) => {
        const references = refs.map((r) => toReference(r, { workspace: flags.workspace, base: flags.base }));
        const res = await ok(controlApi(resolveTarget(flags)).POST('/api/file-references/resolve', { body: { agent_id: flags.agent, references } }));
        print(res, flags.json, (r) =>
          table(
            r.results.map((x, i) => {
              const at = x.status === 'resolved' ? x.location : null;
              return {
                ref: refs[i],
                status: x.status,
                workspace_id: at?.workspace_id ?? null,
                path: at?.path ?? null,
                absolute_path: at?.absolute_path ?? null,
                reason: x.status === 'unresolved' ? x.reason : null,
              };
            }),
            ['ref', 'status', 'workspace_id', 'path', 'absolute_path', 'reason'],
          ),
        );
      }),
    );
}

import { z } from 'zod';
import { MAX_REFERENCES } from '../../runtime/workspaces/index.js';
import { AuthorityClass } from './common.js';

const PathString = z.string().max(4096);

export const WorkspaceEntry = z
  .object({
    workspace_id: z.string().openapi({ example: 'ws_01J9Z6J8Q4T8W1V2X3Y4Z5A6B7' }),
    path: z.string().openapi({ description: 'The path as attached (absolute, normalised)' }),
    root: z.string().openapi({ description: 'Real path of the directory (symlinks resolved): the execution root' }),
    kind: z.enum(['directory', 'git']),
    root_kind: z.enum(['agent_home', 'workspace']),
    active: z.boolean(),
    attached_at: z.string(),
  })
  .openapi('WorkspaceEntry');

export const AttachWorkspaceBody = z
  .looseObject({
    path: PathString.openapi({ description: 'An existing absolute directory', example: '/home/me/project' }),
    authority_class: AuthorityClass,
  })
  .openapi('AttachWorkspaceRequest');

export const AttachWorkspaceResponse = z.object({
  ok: z.literal(true),
  agent_id: z.string(),
  created: z.boolean(),
  workspace: WorkspaceEntry,
  active_workspace_id: z.string(),
});

export const ExitWorkspaceBody = z.looseObject({ authority_class: AuthorityClass }).openapi('ExitWorkspaceRequest');

export const ExitWorkspaceResponse = z.object({
  ok: z.literal(true),
  agent_id: z.string(),
  changed: z.boolean(),
  previous_workspace_id: z.string(),
  active_workspace_id: z.literal('agent_home'),
});

export const DetachWorkspaceBody = z
  .looseObject({ workspace_id: z.string().min(1).max(128), authority_class: AuthorityClass })
  .openapi('DetachWorkspaceRequest');

export const DetachWorkspaceResponse = z.object({
  ok: z.literal(true),
  agent_id: z.string(),
  workspace_id: z.string(),
  detached: z.literal(true),
  active_workspace_id: z.string(),
});

export const WorkspaceList = z.object({
  ok: z.literal(true),
  agent_id: z.string(),
  active_workspace_id: z.string(),
  workspaces: z.array(WorkspaceEntry),
});

export const WorktreeSummaryQuery = z.strictObject({
  workspace_id: z.string().min(1).max(128).optional().openapi({ description: 'Default: the active workspace' }),
});

export const WorktreeEntry = z
  .object({
    path: z.string(),
    head: z.string().nullable(),
    branch: z.string().nullable().openapi({ description: 'Short branch name; null when detached or bare' }),
    bare: z.boolean(),
    detached: z.boolean(),
    locked: z.boolean(),
    locked_reason: z.string().nullable(),
    prunable: z.boolean(),
    prunable_reason: z.string().nullable(),
    is_main: z.boolean(),
  })
  .openapi('WorktreeEntry');

export const WorktreeSummary = z
  .object({
    ok: z.literal(true),
    agent_id: z.string(),
    workspace_id: z.string(),
    path: z.string(),
    is_git: z.boolean(),
    worktrees: z.array(WorktreeEntry),
    error: z.string().nullable(),
  })
  .openapi('WorktreeSummary');

const FileReference = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('workspace_uri'), workspace_uri: PathString }),
  z.strictObject({ type: z.literal('absolute_path'), absolute_path: PathString }),
  z.strictObject({
    type: z.literal('relative_path'),
    relative_path: PathString,
    base_path: PathString.optional().openapi({ description: 'Absolute path of a known base file (or directory); the reference is relative to its directory' }),
    workspace_id: z.string().max(128).optional().openapi({ description: 'Resolve relative to this workspace root instead' }),
  }),
]);

export const ResolveReferencesBody = z
  .strictObject({
    references: z.array(FileReference).max(MAX_REFERENCES),
    agent_id: z.string().min(1).max(64).optional().openapi({ description: 'Whose workspaces; default: the default agent' }),
  })
  .openapi('ResolveFileReferencesRequest');

const FileLocation = z
  .object({
    workspace_id: z.string(),
    execution_root_id: z.string(),
    path: z.string().openapi({ description: 'Relative to the execution root, `/`-separated; `.` for the root itself' }),
    absolute_path: z.string(),
    kind: z.enum(['file', 'directory']),
    root_kind: z.enum(['agent_home', 'workspace']),
  })
  .openapi('FileLocation');

const Resolution = z.discriminatedUnion('status', [
  z.object({ status: z.literal('resolved'), location: FileLocation }),
  z.object({
    status: z.literal('unresolved'),
    reason: z.enum(['unknown_workspace', 'outside_workspace', 'not_found', 'invalid_reference']),
    message: z.string(),
  }),
]);

export const ResolveReferencesResponse = z.object({ ok: z.literal(true), agent_id: z.string(), results: z.array(Resolution) });

export const DesktopCapabilities = z.object({ reveal_in_file_manager: z.boolean() }).openapi('DesktopCapabilities');

export const RevealBody = z
  .strictObject({
    workspace_id: z.string().min(1).max(128),
    execution_root_id: z.string().min(1).max(128),
    path: PathString.openapi({ description: 'Relative to the execution root' }),
    agent_id: z.string().min(1).max(64).optional(),
  })
  .openapi('DesktopRevealRequest');

export const RevealResponse = z.object({ ok: z.literal(true), revealed: z.literal(true), absolute_path: z.string() });

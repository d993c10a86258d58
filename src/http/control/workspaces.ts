/** Workspace registry, worktree summary, file references and desktop routes (spec "Workspace and desktop"). */
import type { FastifyRequest } from 'fastify';
import type { ConnectionFacts } from '../../runtime/workspaces/index.js';
import type { Services } from '../../services.js';
import { defineRoute, type AnyRoute } from '../route.js';
import {
  AgentIdParams,
  AttachWorkspaceBody,
  AttachWorkspaceResponse,
  DesktopCapabilities,
  DetachWorkspaceBody,
  DetachWorkspaceResponse,
  ExitWorkspaceBody,
  ExitWorkspaceResponse,
  ResolveReferencesBody,
  ResolveReferencesResponse,
  RevealBody,
  RevealResponse,
  WorktreeSummary,
  WorktreeSummaryQuery,
} from '../schemas/index.js';

const tags = ['workspaces'];

const connection = (request: FastifyRequest): ConnectionFacts => ({ remoteAddress: request.socket.remoteAddress, headers: request.headers });

export function workspaceRoutes(s: Services): AnyRoute[] {
  return [
    defineRoute({
      method: 'POST',
      url: '/api/control/agents/:id/workspace/attach',
      errors: { 400: ['invalid_workspace_path'], 409: ['workspace_limit_reached'] },
      bodyExample: { path: '/home/me/src/project' },
      auth: 'control',
      tags,
      summary: 'Attach a directory as a workspace of the agent and make it the active workspace',
      description:
        '`path` must be an existing absolute directory (else 400 invalid_workspace_path with `reason` not_absolute | not_found | not_directory | invalid). Idempotent by real path: the same directory keeps its `ws_` workspace_id (`created:false`). Attaching the agent home itself selects `agent_home`. `kind` is `git` when the directory is in a git work tree. At most 256 attached workspaces per agent (409 workspace_limit_reached). Emits workspace_attached when the registry or the active workspace changed.',
      params: AgentIdParams,
      body: AttachWorkspaceBody,
      responses: { 200: { description: 'Attached and active', schema: AttachWorkspaceResponse } },
      handler: ({ params, body }) => {
        const r = s.workspaces.attach(params.id, body.path, body.authority_class ?? null);
        return { ok: true, agent_id: params.id, ...r };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/control/agents/:id/workspace/exit',
      bodyExample: { authority_class: 'operator_instruction' },
      auth: 'control',
      tags,
      summary: 'Return to the agent home workspace (agent_home)',
      description: 'The attached workspace stays registered. `changed:false` (and no event) when agent_home is already active; otherwise emits workspace_exited.',
      params: AgentIdParams,
      body: ExitWorkspaceBody,
      bodyOptional: true,
      responses: { 200: { description: 'agent_home is active', schema: ExitWorkspaceResponse } },
      handler: ({ params, body }) => ({ ok: true, agent_id: params.id, ...s.workspaces.exit(params.id, body.authority_class ?? null) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/control/agents/:id/workspace/detach',
      errors: { 404: ['workspace_not_found'], 409: ['workspace_active', 'agent_home_protected'] },
      bodyExample: { workspace_id: 'ws_01JB8Y7A1B2C3D4E5F6G7H8J9K' },
      auth: 'control',
      tags,
      summary: 'Remove a workspace registration without switching',
      description:
        'Unknown workspace: 404 workspace_not_found. The active workspace: 409 workspace_active (exit first). agent_home: 409 agent_home_protected. Emits workspace_detached. Files are never touched.',
      params: AgentIdParams,
      body: DetachWorkspaceBody,
      responses: { 200: { description: 'Detached', schema: DetachWorkspaceResponse } },
      handler: ({ params, body }) => ({
        ok: true,
        agent_id: params.id,
        detached: true,
        ...s.workspaces.detach(params.id, body.workspace_id, body.authority_class ?? null),
      }),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/agents/:id/worktree-summary',
      auth: 'read',
      tags,
      summary: "Git worktree entries of the agent's active workspace",
      description:
        'Runs `git worktree list --porcelain` (no shell, 5 s limit) in the active workspace (or `workspace_id`). A directory outside any git work tree answers is_git:false with no worktrees; `error` says why git could not answer (not installed, timed out), else null.',
      params: AgentIdParams,
      query: WorktreeSummaryQuery,
      responses: { 200: { description: 'Worktree summary', schema: WorktreeSummary } },
      handler: async ({ params, query }) => ({ ok: true, agent_id: params.id, ...(await s.workspaces.worktreeSummary(params.id, query.workspace_id)) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/file-references/resolve',
      bodyExample: { agent_id: 'main', references: [{ type: 'absolute_path', absolute_path: '/home/me/src/project/README.md' }] },
      auth: 'control',
      tags,
      summary: 'Resolve file references to locations inside the registered workspace roots of an agent',
      description:
        'At most 64 references (more: 400 invalid_request); results come in request order. Reference types: `{type:"workspace_uri", workspace_uri}` with the form `workspace://<workspace_id>/<relative path>` (path percent-encoded per RFC 3986; `workspace://<workspace_id>` names the root; no query or fragment; `agent_home` names the agent home); `{type:"absolute_path", absolute_path}`; `{type:"relative_path", relative_path, base_path?, workspace_id?}`: relative to the directory of the known base file `base_path` (absolute; a directory base is used as is), else to the root of `workspace_id`, else to the active workspace. Workspaces are those of `agent_id` (default: the default agent). A reference resolves only when its real path (symlinks followed) lies inside a registered root; `..` never climbs out of a root. `execution_root_id` equals `workspace_id` (one execution root per workspace); `path` is relative to it (`.` for the root itself). Unresolved reasons: unknown_workspace, outside_workspace, not_found, invalid_reference.',
      body: ResolveReferencesBody,
      responses: { 200: { description: 'Results in request order', schema: ResolveReferencesResponse } },
      handler: ({ body }) => ({ ok: true, ...s.workspaces.resolve(body.agent_id, body.references) }),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/desktop/capabilities',
      auth: 'control',
      tags,
      summary: 'Desktop integration available to this connection',
      description:
        'reveal_in_file_manager is true only when desktop integration is enabled, the daemon runs on macOS or Windows, and this connection is direct loopback (no proxy headers) with an Origin that is a loopback origin matching the Host. Always false on Linux.',
      responses: { 200: { description: 'Capabilities', schema: DesktopCapabilities } },
      handler: ({ request }) => s.workspaces.desktopCapabilities(connection(request)),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/desktop/reveal',
      operationId: 'revealDesktopFile',
      bodyExample: { workspace_id: 'ws_01JB8Y7A1B2C3D4E5F6G7H8J9K', execution_root_id: 'ws_01JB8Y7A1B2C3D4E5F6G7H8J9K', path: 'docs/release-notes.md', agent_id: 'main' },
      auth: 'control',
      tags,
      summary: 'Open the desktop file manager on a file of a registered workspace root',
      description:
        'Denied with 403 desktop_integration_disabled, desktop_platform_unsupported (only macOS and Windows) or desktop_loopback_required (see capabilities), in that order; an unknown workspace or execution root answers 404 workspace_not_found; a path that is not an existing file strictly within the root (not the root itself, never through `..` or a symlink) answers 403 desktop_path_outside_root.',
      body: RevealBody,
      responses: { 200: { description: 'Revealed', schema: RevealResponse } },
      handler: async ({ request, body }) => ({ ok: true, ...(await s.workspaces.reveal(connection(request), body)) }),
    }),
  ];
}

/**
 * Agent workspaces, file references, desktop integration (spec "Workspace and desktop").
 *
 * Every agent has the built-in workspace `agent_home` (its home directory; never stored, never
 * detachable) and any number of attached directories (`ws_` ids, unique per agent by real path).
 * Exactly one workspace is active: the default workdir of the agent's command tasks. Attach makes
 * the attached directory active, exit returns to `agent_home`, detach removes a registration that
 * is not active. Each change appends its event in the same transaction.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { isoAt, AppError, errors } from '../../core/index.js';
import type { ResourceService, RuntimeDeps } from '../deps.js';
import {
  AGENT_HOME_ID,
  desktopGate,
  isWithin,
  MAX_REFERENCES,
  resolveReferences,
  revealTarget,
  type ConnectionFacts,
  type ExecutionRoot,
  type FileReference,
  type Resolution,
  type RevealDenial,
  type RootKind,
} from './file-references.js';
import { listWorktrees, type WorktreeListing } from './worktrees.js';

export type WorkspaceKind = 'directory' | 'git';

/** A registry entry: the slim shape of the state page and the attach response. */
export interface WorkspaceEntry {
  workspace_id: string;
  path: string;
  root: string;
  kind: WorkspaceKind;
  root_kind: RootKind;
  active: boolean;
  attached_at: string;
}

interface WorkspaceRow {
  workspace_id: string;
  agent_id: string;
  path: string;
  root: string;
  kind: WorkspaceKind;
  attached_at: string;
}

/** Attached workspaces per agent (agent_home not counted). */
export const MAX_WORKSPACES_PER_AGENT = 256;

export interface WorkspaceOptions {
  /** Desktop integration switch; default: config `desktop.integration` (off). */
  desktopIntegration?: boolean;
  /** Platform the reveal gate judges (tests); default process.platform. */
  platform?: NodeJS.Platform;
  /** Opens the file manager on `target` (tests replace it). */
  openInFileManager?: (target: string, platform: NodeJS.Platform) => Promise<void>;
}

/** The directory is a git work tree (or inside one): `.git` here or in an ancestor. */
export function detectKind(root: string): WorkspaceKind {
  let dir = root;
  for (;;) {
    if (fs.existsSync(path.join(dir, '.git'))) return 'git';
    const parent = path.dirname(dir);
    if (parent === dir) return 'directory';
    dir = parent;
  }
}

function defaultOpen(target: string, platform: NodeJS.Platform): Promise<void> {
  const [cmd, args] = platform === 'darwin' ? ['open', ['-R', target]] : ['explorer.exe', [`/select,${target}`]];
  return new Promise((resolve, reject) => {
    execFile(cmd as string, args as string[], { timeout: 10_000, windowsHide: true }, (err) => {
      // explorer.exe exits 1 even when it opened the window.
      if (err && platform !== 'win32') reject(err);
      else resolve();
    });
  });
}

export class WorkspaceService implements ResourceService {
  private readonly stmt;
  private readonly desktopIntegration: boolean;
  private readonly platform: NodeJS.Platform;
  private readonly open: (target: string, platform: NodeJS.Platform) => Promise<void>;

  constructor(private readonly deps: RuntimeDeps, opts: WorkspaceOptions = {}) {
    const db: Database.Database = deps.store.db;
    this.stmt = {
      list: db.prepare('SELECT * FROM workspaces WHERE agent_id = ? ORDER BY attached_at, workspace_id'),
      get: db.prepare('SELECT * FROM workspaces WHERE agent_id = ? AND workspace_id = ?'),
      byRoot: db.prepare('SELECT * FROM workspaces WHERE agent_id = ? AND root = ?'),
      count: db.prepare('SELECT count(*) FROM workspaces WHERE agent_id = ?').pluck(),
      insert: db.prepare(
        'INSERT INTO workspaces (workspace_id, agent_id, path, root, kind, attached_at) VALUES (@workspace_id, @agent_id, @path, @root, @kind, @attached_at)',
      ),
      remove: db.prepare('DELETE FROM workspaces WHERE agent_id = ? AND workspace_id = ?'),
      removeAll: db.prepare('DELETE FROM workspaces WHERE agent_id = ?'),
      active: db.prepare('SELECT workspace_id FROM workspace_active WHERE agent_id = ?').pluck(),
      setActive: db.prepare(
        'INSERT INTO workspace_active (agent_id, workspace_id) VALUES (?, ?) ON CONFLICT(agent_id) DO UPDATE SET workspace_id = excluded.workspace_id',
      ),
      clearActive: db.prepare('DELETE FROM workspace_active WHERE agent_id = ?'),
      orphans: db.prepare('DELETE FROM workspaces WHERE agent_id NOT IN (SELECT agent_id FROM agents)'),
      orphanActive: db.prepare('DELETE FROM workspace_active WHERE agent_id NOT IN (SELECT agent_id FROM agents)'),
    };
    this.desktopIntegration = opts.desktopIntegration ?? deps.config.values.desktop.integration;
    this.platform = opts.platform ?? process.platform;
    this.open = opts.openInFileManager ?? defaultOpen;
  }

  // --- lifecycle -------------------------------------------------------------------------------

  /** Registrations of agents that no longer exist (a deletion that ended in a crash) go away. */
  start(): void {
    this.deps.store.tx(() => {
      this.stmt.orphans.run();
      this.stmt.orphanActive.run();
    });
  }

  /** A deleted agent keeps nothing: a re-created one starts in its home with an empty registry. */
  stopAgent(agentId: string): void {
    this.deps.store.tx(() => {
      this.stmt.removeAll.run(agentId);
      this.stmt.clearActive.run(agentId);
    });
  }

  // --- reads -----------------------------------------------------------------------------------

  /** Id of the agent's active workspace (`agent_home` unless one is attached and active). */
  activeId(agentId: string): string {
    const id = this.stmt.active.get(agentId) as string | undefined;
    if (id === undefined || id === AGENT_HOME_ID) return AGENT_HOME_ID;
    return this.stmt.get.get(agentId, id) ? id : AGENT_HOME_ID;
  }

  /** Absolute path of the agent's active workspace (default workdir of its command tasks). */
  activePath(agentId: string): string {
    const id = this.activeId(agentId);
    if (id === AGENT_HOME_ID) return this.deps.agents.homeOf(agentId);
    return (this.stmt.get.get(agentId, id) as WorkspaceRow).path;
  }

  /**
   * The agent's workspace roots (real paths) and which is active, agent_home first: what the file
   * tools confine a path to. Unlike `list`, it looks at no directory but the home's real path.
   */
  rootPaths(agentId: string): Array<{ workspace_id: string; root: string; active: boolean }> {
    this.deps.agents.get(agentId);
    const active = this.activeId(agentId);
    const rows = this.stmt.list.all(agentId) as WorkspaceRow[];
    return [
      { workspace_id: AGENT_HOME_ID, root: realOr(this.deps.agents.homeOf(agentId)), active: active === AGENT_HOME_ID },
      ...rows.map((r) => ({ workspace_id: r.workspace_id, root: r.root, active: r.workspace_id === active })),
    ];
  }

  /** Every workspace of the agent: agent_home first, then attached ones in attach order. */
  list(agentId: string): WorkspaceEntry[] {
    const agent = this.deps.agents.get(agentId);
    const active = this.activeId(agentId);
    const home = this.deps.agents.homeOf(agentId);
    const homeRoot = realOr(home);
    const entries: WorkspaceEntry[] = [
      {
        workspace_id: AGENT_HOME_ID,
        path: home,
        root: homeRoot,
        kind: detectKind(homeRoot),
        root_kind: 'agent_home',
        active: active === AGENT_HOME_ID,
        attached_at: agent.created_at,
      },
    ];
    for (const row of this.stmt.list.all(agentId) as WorkspaceRow[]) entries.push(entry(row, row.workspace_id === active));
    return entries;
  }

  /** The agent's entries for GET /api/agents/:id/state (slim registry entries). */
  stateFor(agentId: string): WorkspaceEntry[] {
    if (!this.deps.agents.find(agentId)) return [];
    return this.list(agentId);
  }

  /**
   * The whole `workspaces` section of the state page (runtime/views/agent-views.ts can use it as
   * is): the active id, occupancy (every workspace with its path and active flag) and the registry.
   */
  stateSection(agentId: string): { active_workspace_id: string; occupancy: Array<{ workspace_id: string; path: string; active: boolean }>; registry: WorkspaceEntry[] } {
    const registry = this.stateFor(agentId);
    return {
      active_workspace_id: registry.find((e) => e.active)?.workspace_id ?? AGENT_HOME_ID,
      occupancy: registry.map((e) => ({ workspace_id: e.workspace_id, path: e.path, active: e.active })),
      registry,
    };
  }

  /** The workspace `id` of the agent, or 404 workspace_not_found. */
  get(agentId: string, workspaceId: string): WorkspaceEntry {
    const found = this.list(agentId).find((e) => e.workspace_id === workspaceId);
    if (!found) throw errors.workspaceNotFound(workspaceId, { agent_id: agentId });
    return found;
  }

  /** The agent's execution roots (one per workspace), for file references and reveal. */
  roots(agentId: string): ExecutionRoot[] {
    return this.list(agentId).map((e) => ({
      workspace_id: e.workspace_id,
      execution_root_id: e.workspace_id,
      root: e.root,
      root_kind: e.root_kind,
    }));
  }

  // --- changes ---------------------------------------------------------------------------------

  /**
   * Register `rawPath` (an existing absolute directory) and make it active. Idempotent by real
   * path: the same directory keeps its workspace_id. The agent home itself means `agent_home`.
   * `within` (a model's attach): the real path must be one of these directories (real paths,
   * compared as given) or inside one, else 403 workspace_not_allowed; the real path checked is the
   * one registered.
   */
  attach(
    agentId: string,
    rawPath: string,
    authorityClass: string | null = null,
    within?: readonly string[],
  ): { created: boolean; workspace: WorkspaceEntry; active_workspace_id: string } {
    this.deps.agents.assertWritable(agentId);
    const { abs, root } = checkDirectory(rawPath);
    if (within && !within.some((dir) => isWithin(dir, root))) {
      throw errors.workspaceNotAllowed(rawPath, 'it is not inside a directory the operator allowed (tools.workspace_roots)');
    }
    const outcome = this.deps.store.tx(() => {
      this.deps.agents.assertWritable(agentId);
      const previous = this.activeId(agentId);
      if (root === realOr(this.deps.agents.homeOf(agentId))) {
        if (previous !== AGENT_HOME_ID) {
          this.stmt.clearActive.run(agentId);
          this.deps.events.append(agentId, 'workspace_attached', {
            workspace_id: AGENT_HOME_ID,
            path: abs,
            root,
            kind: detectKind(root),
            created: false,
            previous_workspace_id: previous,
            authority_class: authorityClass,
          });
        }
        return { created: false, id: AGENT_HOME_ID };
      }
      let row = this.stmt.byRoot.get(agentId, root) as WorkspaceRow | undefined;
      const created = !row;
      if (!row) {
        if ((this.stmt.count.get(agentId) as number) >= MAX_WORKSPACES_PER_AGENT) throw errors.workspaceLimitReached(MAX_WORKSPACES_PER_AGENT);
        row = {
          workspace_id: this.deps.ids.make('workspace'),
          agent_id: agentId,
          path: abs,
          root,
          kind: detectKind(root),
          attached_at: isoAt(this.deps.clock.now()),
        };
        this.stmt.insert.run(row);
      }
      if (created || previous !== row.workspace_id) {
        this.stmt.setActive.run(agentId, row.workspace_id);
        this.deps.events.append(agentId, 'workspace_attached', {
          workspace_id: row.workspace_id,
          path: row.path,
          root: row.root,
          kind: row.kind,
          created,
          previous_workspace_id: previous,
          authority_class: authorityClass,
        });
      }
      return { created, id: row.workspace_id };
    });
    return { created: outcome.created, workspace: this.get(agentId, outcome.id), active_workspace_id: outcome.id };
  }

  /** Return to `agent_home`; no change (and no event) when already there. */
  exit(agentId: string, authorityClass: string | null = null): { changed: boolean; previous_workspace_id: string; active_workspace_id: string } {
    return this.deps.store.tx(() => {
      this.deps.agents.assertWritable(agentId);
      const previous = this.activeId(agentId);
      if (previous === AGENT_HOME_ID) return { changed: false, previous_workspace_id: previous, active_workspace_id: AGENT_HOME_ID };
      this.stmt.clearActive.run(agentId);
      this.deps.events.append(agentId, 'workspace_exited', {
        workspace_id: previous,
        active_workspace_id: AGENT_HOME_ID,
        authority_class: authorityClass,
      });
      return { changed: true, previous_workspace_id: previous, active_workspace_id: AGENT_HOME_ID };
    });
  }

  /** Remove a registration that is not active; agent_home can never be detached. */
  detach(agentId: string, workspaceId: string, authorityClass: string | null = null): { workspace_id: string; active_workspace_id: string } {
    return this.deps.store.tx(() => {
      this.deps.agents.assertWritable(agentId);
      if (workspaceId === AGENT_HOME_ID) throw errors.agentHomeProtected();
      const row = this.stmt.get.get(agentId, workspaceId) as WorkspaceRow | undefined;
      if (!row) throw errors.workspaceNotFound(workspaceId, { agent_id: agentId });
      if (this.activeId(agentId) === workspaceId) throw errors.workspaceActive(workspaceId);
      this.stmt.remove.run(agentId, workspaceId);
      this.deps.events.append(agentId, 'workspace_detached', {
        workspace_id: workspaceId,
        path: row.path,
        root: row.root,
        authority_class: authorityClass,
      });
      return { workspace_id: workspaceId, active_workspace_id: this.activeId(agentId) };
    });
  }

  // --- file references, worktrees, desktop ------------------------------------------------------

  /** Resolve references against the agent's registered roots (default: the default agent). */
  resolve(agentId: string | undefined, refs: FileReference[]): { agent_id: string; results: Resolution[] } {
    const id = agentId ?? this.deps.agents.defaultAgentId;
    this.deps.agents.get(id);
    if (refs.length > MAX_REFERENCES) {
      throw errors.invalidRequest([{ path: 'body.references', message: `at most ${MAX_REFERENCES} references per request` }]);
    }
    return { agent_id: id, results: resolveReferences(refs, { roots: this.roots(id), activeWorkspaceId: this.activeId(id) }) };
  }

  /** Git worktrees of the active (or the named) workspace. */
  async worktreeSummary(agentId: string, workspaceId?: string): Promise<{ workspace_id: string; path: string } & WorktreeListing> {
    const ws = this.get(agentId, workspaceId ?? this.activeId(agentId));
    let isDir = false;
    try {
      isDir = fs.statSync(ws.root).isDirectory();
    } catch {
      /* vanished */
    }
    if (!isDir) return { workspace_id: ws.workspace_id, path: ws.path, is_git: false, worktrees: [], error: 'the workspace directory no longer exists' };
    return { workspace_id: ws.workspace_id, path: ws.path, ...(await listWorktrees(ws.root)) };
  }

  desktopCapabilities(connection: ConnectionFacts): { reveal_in_file_manager: boolean } {
    return { reveal_in_file_manager: desktopGate({ enabled: this.desktopIntegration, platform: this.platform, connection }) === null };
  }

  /**
   * Open the file manager on a file of a registered root. Denied (403) unless integration is on,
   * the OS is supported, the connection is direct loopback with a matching origin, and the path
   * stays strictly within the root.
   */
  async reveal(
    connection: ConnectionFacts,
    req: { agent_id?: string | undefined; workspace_id: string; execution_root_id: string; path: string },
  ): Promise<{ revealed: true; absolute_path: string }> {
    const denial = desktopGate({ enabled: this.desktopIntegration, platform: this.platform, connection });
    if (denial) throw errors.desktopDenied(denial, DENIAL_MESSAGES[denial]);
    const agentId = req.agent_id ?? this.deps.agents.defaultAgentId;
    const root = this.roots(agentId).find((r) => r.workspace_id === req.workspace_id && r.execution_root_id === req.execution_root_id);
    if (!root) throw errors.workspaceNotFound(req.workspace_id, { agent_id: agentId, execution_root_id: req.execution_root_id });
    const target = revealTarget(root.root, req.path);
    if (!target) throw errors.desktopDenied('desktop_path_outside_root', 'the path must name an existing file strictly within the workspace root');
    try {
      await this.open(target, this.platform);
    } catch (err) {
      throw new AppError(502, 'desktop_reveal_failed', `the file manager could not be opened: ${(err as Error).message}`);
    }
    return { revealed: true, absolute_path: target };
  }
}

const DENIAL_MESSAGES: Record<RevealDenial, string> = {
  desktop_integration_disabled: 'desktop integration is disabled',
  desktop_platform_unsupported: 'revealing files is supported on macOS and Windows only',
  desktop_loopback_required: 'desktop actions need a direct loopback connection with a matching loopback Origin',
};

function entry(row: WorkspaceRow, active: boolean): WorkspaceEntry {
  return {
    workspace_id: row.workspace_id,
    path: row.path,
    root: row.root,
    kind: row.kind,
    root_kind: 'workspace',
    active,
    attached_at: row.attached_at,
  };
}

function realOr(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}

/** An existing absolute directory: its normalised path and real path, else 400 invalid_workspace_path. */
function checkDirectory(raw: string): { abs: string; root: string } {
  if (raw.includes('\0') || raw.trim() === '') throw errors.invalidWorkspacePath(raw, 'invalid');
  if (!path.isAbsolute(raw)) throw errors.invalidWorkspacePath(raw, 'not_absolute');
  const abs = path.resolve(raw);
  let root: string;
  try {
    root = fs.realpathSync.native(abs);
  } catch {
    throw errors.invalidWorkspacePath(raw, 'not_found');
  }
  let isDir = false;
  try {
    isDir = fs.statSync(root).isDirectory();
  } catch {
    throw errors.invalidWorkspacePath(raw, 'not_found');
  }
  if (!isDir) throw errors.invalidWorkspacePath(raw, 'not_directory');
  return { abs, root };
}

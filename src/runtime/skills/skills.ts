/**
 * Skills (spec "Skills", docs/control-plane-api.md#skills). A skill is a directory holding SKILL.md
 * with frontmatter `name` and `description`. The catalog joins the user library
 * `<home>/skills/<name>/` (skill-library.ts: adding, removing, checking and updating it, its
 * background jobs and the lock file) and the repository-local roots of an agent's active workspace
 * (`.svc/skills/<name>/`, then `skills/<name>/`). Per agent, enablement is durable (table
 * `agent_skills`): scope `agent` (a private copy in the agent home), `workspace` or `user`. An
 * enable with copy first walks the skill with skill-files.ts, so nothing outside its source is ever
 * taken. SkillService is the one face of skills to routes, tools and tests: it delegates the
 * library's operations to SkillLibrary.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { isoAt, errors, KeyedSerial } from '../../core/index.js';
import type { ResourceService, RuntimeDeps } from '../deps.js';
import type { Job, JobStore } from '../jobs.js';
import { SkillLibrary, type CatalogEntry } from './skill-library.js';
import { copySkill, placeAtomically, removePath, walkSkill } from './skill-files.js';
import { outsideWorkspace, readManifest, scanRoot, type InstallMode, type InvalidSkill } from './skill-sources.js';
import type { WorkspaceService } from '../workspaces/index.js';

export type AgentSkillScope = 'agent' | 'workspace' | 'user';

export interface AgentSkill {
  name: string;
  scope: AgentSkillScope;
  source: string;
  path: string;
  description: string | null;
  available: boolean;
  enabled_at: string;
}

interface AgentSkillRow {
  agent_id: string;
  name: string;
  scope: AgentSkillScope;
  source: string;
  path: string;
  enabled_at: string;
}

/** The repository-local roots inside a workspace, in precedence order. */
export const WORKSPACE_ROOTS = ['.svc/skills', 'skills'] as const;
/** Where an agent's private copies live, under its home. */
const AGENT_COPIES = path.join('.svc', 'agent-skills');

export type SkillDeps = RuntimeDeps & { jobs: JobStore; workspaces: WorkspaceService };

export class SkillService implements ResourceService {
  private readonly stmt;
  private readonly library: SkillLibrary;
  private readonly abort = new AbortController();
  private readonly perAgent = new KeyedSerial();

  constructor(private readonly deps: SkillDeps) {
    this.library = new SkillLibrary({ ...deps, enable: (agentId, name, copy) => this.enable(agentId, name, copy) });
    const db: Database.Database = deps.store.db;
    this.stmt = {
      list: db.prepare('SELECT * FROM agent_skills WHERE agent_id = ? ORDER BY name'),
      get: db.prepare('SELECT * FROM agent_skills WHERE agent_id = ? AND name = ?'),
      upsert: db.prepare(
        `INSERT INTO agent_skills (agent_id, name, scope, source, path, enabled_at) VALUES (@agent_id, @name, @scope, @source, @path, @enabled_at)
         ON CONFLICT(agent_id, name) DO UPDATE SET scope = excluded.scope, source = excluded.source, path = excluded.path, enabled_at = excluded.enabled_at`,
      ),
      remove: db.prepare('DELETE FROM agent_skills WHERE agent_id = ? AND name = ?'),
      removeAll: db.prepare('DELETE FROM agent_skills WHERE agent_id = ?'),
      userEnablements: db.prepare("SELECT agent_id FROM agent_skills WHERE name = ? AND scope = 'user' ORDER BY agent_id").pluck(),
      removeUser: db.prepare("DELETE FROM agent_skills WHERE name = ? AND scope = 'user'"),
      orphans: db.prepare('DELETE FROM agent_skills WHERE agent_id NOT IN (SELECT agent_id FROM agents)'),
    };
  }

  get home(): string {
    return this.library.home;
  }

  get libraryDir(): string {
    return this.library.dir;
  }

  // --- lifecycle -------------------------------------------------------------------------------

  start(): void {
    this.deps.store.tx(() => this.stmt.orphans.run());
    this.library.start();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.library.stop();
    await this.perAgent.idle();
  }

  stopAgent(agentId: string): void {
    this.deps.store.tx(() => this.stmt.removeAll.run(agentId));
  }

  stateFor(agentId: string): unknown[] {
    return (this.stmt.list.all(agentId) as AgentSkillRow[]).map((r) => ({ name: r.name, scope: r.scope }));
  }

  /** Wait until every queued skill job has ended (tests). */
  idle(): Promise<void> {
    return this.library.idle();
  }

  // --- catalog -----------------------------------------------------------------------------------

  /** The library and the active workspace roots of `agentId` (default: the default agent). */
  catalog(agentId?: string): { skills: CatalogEntry[]; invalid: InvalidSkill[] } {
    const user = this.library.entries();
    const ws = this.workspaceSkills(agentId ?? this.deps.agents.defaultAgentId);
    return { skills: [...user.skills, ...ws.skills], invalid: [...user.invalid, ...ws.invalid] };
  }

  private workspaceSkills(agentId: string): { skills: CatalogEntry[]; invalid: InvalidSkill[] } {
    this.deps.agents.get(agentId);
    const root = this.deps.workspaces.activePath(agentId);
    const seen = new Set<string>();
    const skills: CatalogEntry[] = [];
    const invalid: InvalidSkill[] = [];
    for (const rel of WORKSPACE_ROOTS) {
      const scanned = scanRoot(path.join(root, rel), { workspace: root });
      invalid.push(...scanned.invalid);
      for (const { dir, manifest } of scanned.skills) {
        if (seen.has(manifest.name)) continue;
        seen.add(manifest.name);
        skills.push({ skill_id: `workspace:${manifest.name}`, name: manifest.name, description: manifest.description, path: dir, scope: 'workspace', source: root });
      }
    }
    return { skills, invalid };
  }

  /** By skill_id (`user:<name>`, `workspace:<name>`) or by bare name (workspace before user). */
  find(idOrName: string, agentId?: string): CatalogEntry | null {
    const { skills } = this.catalog(agentId);
    const byId = skills.find((s) => s.skill_id === idOrName);
    if (byId) return byId;
    return skills.find((s) => s.scope === 'workspace' && s.name === idOrName) ?? skills.find((s) => s.name === idOrName) ?? null;
  }

  detail(idOrName: string, agentId?: string) {
    const entry = this.find(idOrName, agentId);
    if (!entry) throw errors.skillNotFound(idOrName);
    const manifest = readManifest(entry.path);
    const lock = entry.scope === 'user' ? this.library.locked(entry.name) : null;
    return {
      ...entry,
      mode: entry.scope === 'user' ? (isSymlink(entry.path) ? 'link' : 'copy') : null,
      frontmatter: manifest.fields,
      content: manifest.body,
      files: listFiles(entry.path),
      lock,
    };
  }

  refresh(agentId?: string) {
    const { skills, invalid } = this.catalog(agentId);
    return {
      ok: true as const,
      total: skills.length,
      user: skills.filter((s) => s.scope === 'user').length,
      workspace: skills.filter((s) => s.scope === 'workspace').length,
      skills,
      invalid,
    };
  }

  // --- library (skill-library.ts) ------------------------------------------------------------------

  /** The existing library entry, or a `skill_install` job (SkillLibrary.add). */
  add(input: { source: string; mode?: InstallMode }, enable?: { agentId: string; copy: boolean }): { existing: CatalogEntry } | { job: Job } {
    return this.library.add(input, enable);
  }

  /** Remove from the library, and disable it for every agent that had it with scope `user`. */
  async remove(name: string) {
    const { removed } = await this.library.remove(name);
    const disabledFor = this.deps.store.tx(() => {
      const agents = this.stmt.userEnablements.all(name) as string[];
      this.stmt.removeUser.run(name);
      for (const agentId of agents) this.deps.events.append(agentId, 'skill_disabled', { name, scope: 'user', reason: 'removed_from_library' });
      return agents;
    });
    return { ok: true as const, name, removed, disabled_for: disabledFor };
  }

  reconcile(opts: { prune?: boolean } = {}) {
    return this.library.reconcile(opts);
  }

  check() {
    return this.library.check();
  }

  update(): Job {
    return this.library.update();
  }

  // --- per agent -------------------------------------------------------------------------------------

  list(agentId: string): AgentSkill[] {
    this.deps.agents.get(agentId);
    return (this.stmt.list.all(agentId) as AgentSkillRow[]).map((r) => {
      let description: string | null = null;
      try {
        // A workspace skill's directory swapped for a link out since it was enabled is not read.
        const outside = r.scope === 'workspace' ? outsideWorkspace(r.path, r.source) : null;
        if (!outside) description = readManifest(r.path).description;
      } catch {
        /* gone or broken: reported as unavailable */
      }
      return { name: r.name, scope: r.scope, source: r.source, path: r.path, description, available: description !== null, enabled_at: r.enabled_at };
    });
  }

  /**
   * Enable `name` for the agent: the workspace skill of that name (its active workspace), else the
   * library's. `copy` makes a private copy under the agent home (scope `agent`), walked and copied
   * like an install (the skill directory is the source root): a link out of it, a special file or a
   * skill past the caps is a 400 (skill_source_unsafe, skill_too_large) and nothing is copied.
   * Changes for one agent and name are serialised (a copy is written asynchronously).
   */
  enable(agentId: string, name: string, copy = false): Promise<{ changed: boolean; skill: AgentSkill }> {
    this.deps.agents.get(agentId);
    return this.perAgent.run(`${agentId}\0${name}`, async () => {
      this.deps.agents.get(agentId);
      const current = this.stmt.get.get(agentId, name) as AgentSkillRow | undefined;
      const found = this.workspaceSkills(agentId).skills.find((s) => s.name === name) ?? this.library.entry(name);
      const unchanged = () => ({ changed: false, skill: this.listOne(agentId, name)! });
      let row: AgentSkillRow;
      if (copy) {
        if (current?.scope === 'agent' && !found) return unchanged();
        if (!found) throw errors.skillNotFound(name, { agent_id: agentId });
        const dest = path.join(this.deps.agents.homeOf(agentId), AGENT_COPIES, name);
        const tree = await walkSkill(found.path, { signal: this.abort.signal });
        await placeAtomically(dest, (staging) => copySkill(tree, staging, this.abort.signal), { replace: true });
        try {
          this.deps.agents.get(agentId); // deleted while its copy was written: take the copy back
        } catch (err) {
          await removePath(dest);
          throw err;
        }
        row = { agent_id: agentId, name, scope: 'agent', source: found.source, path: dest, enabled_at: isoAt(this.deps.clock.now()) };
      } else {
        if (!found) {
          if (current) return unchanged();
          throw errors.skillNotFound(name, { agent_id: agentId });
        }
        if (current && current.scope === found.scope && current.path === found.path) return unchanged();
        if (current?.scope === 'agent') await removePath(current.path);
        row = { agent_id: agentId, name, scope: found.scope, source: found.source, path: found.path, enabled_at: isoAt(this.deps.clock.now()) };
      }
      // docs/control-plane-api.md#event-log: the enablement and its event commit together.
      this.deps.store.tx(() => {
        this.stmt.upsert.run(row);
        this.deps.events.append(agentId, 'skill_enabled', { name, scope: row.scope, source: row.source, previous_scope: current?.scope ?? null });
      });
      return { changed: true, skill: this.listOne(agentId, name)! };
    });
  }

  disable(agentId: string, name: string): Promise<{ changed: boolean }> {
    this.deps.agents.get(agentId);
    return this.perAgent.run(`${agentId}\0${name}`, async () => {
      const current = this.stmt.get.get(agentId, name) as AgentSkillRow | undefined;
      if (!current) {
        if (!this.find(name, agentId)) throw errors.skillNotFound(name, { agent_id: agentId });
        return { changed: false };
      }
      this.deps.store.tx(() => {
        this.stmt.remove.run(agentId, name);
        this.deps.events.append(agentId, 'skill_disabled', { name, scope: current.scope, reason: 'disabled' });
      });
      if (current.scope === 'agent') await removePath(current.path);
      return { changed: true };
    });
  }

  private listOne(agentId: string, name: string): AgentSkill | null {
    return this.list(agentId).find((s) => s.name === name) ?? null;
  }
}

// --- helpers ---------------------------------------------------------------------------------------

function isSymlink(p: string): boolean {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

function listFiles(dir: string, limit = 200): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (out.length >= limit || e.name === '.git') continue;
      const r = rel ? `${rel}/${e.name}` : e.name;
      const st = fs.statSync(path.join(dir, r), { throwIfNoEntry: false });
      if (st?.isDirectory()) walk(r);
      else if (st?.isFile()) out.push(r);
    }
  };
  walk('');
  return out;
}

/**
 * Skills (spec "Skills", CONTRACT.md section 10). A skill is a directory holding SKILL.md with
 * frontmatter `name` and `description`. The catalog joins the user library `<home>/skills/<name>/`
 * and the repository-local roots of an agent's active workspace (`.svc/skills/<name>/`, then
 * `skills/<name>/`). Adding to the library (local directory, git URL, `owner/repo/path@ref`) and
 * updating from remote sources run as background jobs (`skill_install`, `skill_update`) on the
 * JobStore, one at a time; `<home>/.skill-lock.json` records where each library skill came from.
 * Per agent, enablement is durable (table `agent_skills`): scope `agent` (a private copy in the
 * agent home), `workspace` or `user`. Every copy or link (install, update, enable with copy) first
 * walks the skill with skill-files.ts, so nothing outside its source is ever taken.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { isoAt } from '../core/clock.js';
import { AppError, errors } from '../core/errors.js';
import { KeyedSerial } from '../core/serial.js';
import type { ResourceService, RuntimeDeps } from './deps.js';
import type { Job, JobStore } from './jobs.js';
import { copySkill, hashSkill, placeAtomically, removePath, walkSkill, type SkillTree } from './skill-files.js';
import {
  cloneAt,
  locateSkill,
  normaliseSource,
  readLock,
  readManifest,
  remoteHead,
  SourceError,
  sourceString,
  writeLock,
  type InstallMode,
  type LockEntry,
  type SkillManifest,
  type SkillSource,
} from './skill-sources.js';
import type { WorkspaceService } from './workspaces.js';

export const SKILL_INSTALL_JOB = 'skill_install';
export const SKILL_UPDATE_JOB = 'skill_update';

export type CatalogScope = 'user' | 'workspace';
export type AgentSkillScope = 'agent' | 'workspace' | 'user';

export interface CatalogEntry {
  skill_id: string;
  name: string;
  description: string;
  path: string;
  scope: CatalogScope;
  source: string;
}

export interface InvalidSkill {
  path: string;
  error: string;
}

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

interface InstallParams {
  source: string;
  mode: InstallMode;
  enable_agent?: string;
  enable_copy?: boolean;
}

/** The repository-local roots inside a workspace, in precedence order. */
export const WORKSPACE_ROOTS = ['.svc/skills', 'skills'] as const;
/** Where an agent's private copies live, under its home. */
const AGENT_COPIES = path.join('.svc', 'agent-skills');
const UNMANAGED = 'unmanaged';

export type SkillDeps = RuntimeDeps & { jobs: JobStore; workspaces: WorkspaceService };

export class SkillService implements ResourceService {
  private readonly stmt;
  private chain: Promise<void> = Promise.resolve();
  private readonly running = new Set<Promise<void>>();
  private readonly abort = new AbortController();
  private readonly perAgent = new KeyedSerial();

  constructor(private readonly deps: SkillDeps) {
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
    return this.deps.config.home;
  }

  get libraryDir(): string {
    return path.join(this.home, 'skills');
  }

  // --- lifecycle -------------------------------------------------------------------------------

  start(): void {
    this.deps.store.tx(() => this.stmt.orphans.run());
    // Jobs a previous daemon left unfinished run again from the start (installs are idempotent).
    for (const kind of [SKILL_INSTALL_JOB, SKILL_UPDATE_JOB]) for (const job of this.deps.jobs.unfinished(kind)) this.schedule(job);
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await Promise.allSettled([...this.running]);
    await this.perAgent.idle();
  }

  stopAgent(agentId: string): void {
    this.deps.store.tx(() => this.stmt.removeAll.run(agentId));
  }

  stateFor(agentId: string): unknown[] {
    return (this.stmt.list.all(agentId) as AgentSkillRow[]).map((r) => ({ name: r.name, scope: r.scope }));
  }

  /** Wait until every queued skill job has ended (tests). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  // --- catalog -----------------------------------------------------------------------------------

  /** The library and the active workspace roots of `agentId` (default: the default agent). */
  catalog(agentId?: string): { skills: CatalogEntry[]; invalid: InvalidSkill[] } {
    const user = scanRoot(this.libraryDir);
    // Only library skills carry a lock entry: an empty library (every turn of most agents lists
    // the catalog for its prompt) costs no read of the lock file.
    const locked = user.skills.length > 0 ? readLock(this.home).skills : {};
    const skills: CatalogEntry[] = user.skills.map(({ dir, manifest }) => ({
      skill_id: `user:${manifest.name}`,
      name: manifest.name,
      description: manifest.description,
      path: dir,
      scope: 'user',
      source: locked[manifest.name]?.source ?? UNMANAGED,
    }));
    const ws = this.workspaceSkills(agentId ?? this.deps.agents.defaultAgentId);
    return { skills: [...skills, ...ws.skills], invalid: [...user.invalid, ...ws.invalid] };
  }

  private workspaceSkills(agentId: string): { skills: CatalogEntry[]; invalid: InvalidSkill[] } {
    this.deps.agents.get(agentId);
    const root = this.deps.workspaces.activePath(agentId);
    const seen = new Set<string>();
    const skills: CatalogEntry[] = [];
    const invalid: InvalidSkill[] = [];
    for (const rel of WORKSPACE_ROOTS) {
      const scanned = scanRoot(path.join(root, rel));
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
    const lock = entry.scope === 'user' ? readLock(this.home).skills[entry.name] ?? null : null;
    return {
      ...entry,
      mode: entry.scope === 'user' ? (isSymlink(entry.path) ? 'link' : 'copy') : null,
      frontmatter: manifest.fields,
      content: manifest.body,
      files: listFiles(entry.path),
      lock,
    };
  }

  private libraryEntry(name: string): CatalogEntry | null {
    return this.catalog().skills.find((s) => s.scope === 'user' && s.name === name) ?? null;
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

  // --- library -------------------------------------------------------------------------------------

  /**
   * Add to the library. Answers the existing entry (no job) when the skill is already there;
   * otherwise records a `skill_install` job. Errors detectable without fetching are thrown now.
   */
  add(input: { source: string; mode?: InstallMode }, enable?: { agentId: string; copy: boolean }): { existing: CatalogEntry } | { job: Job } {
    let src: SkillSource;
    try {
      src = normaliseSource(input.source, os.homedir());
    } catch (err) {
      if (err instanceof SourceError) throw errors.invalidSkillSource(input.source, err.message);
      throw err;
    }
    const mode = input.mode ?? 'copy';
    if (mode === 'link' && src.type !== 'local') throw errors.invalidSkillSource(input.source, 'mode link needs a local directory source; git sources are copied');
    if (enable) this.deps.agents.get(enable.agentId);
    if (src.type === 'local') {
      const manifest = this.inspectLocal(input.source, src.path);
      const existing = this.libraryEntry(manifest.name);
      if (existing) return { existing };
    } else {
      const lock = readLock(this.home);
      for (const [name, e] of Object.entries(lock.skills)) {
        if (e.source_type === 'git' && e.url === src.url && e.ref === src.ref && (src.subdir === null || e.subdir === src.subdir)) {
          const existing = this.libraryEntry(name);
          if (existing) return { existing };
        }
      }
    }
    const params: InstallParams = { source: input.source, mode, ...(enable ? { enable_agent: enable.agentId, enable_copy: enable.copy } : {}) };
    const job = this.deps.jobs.create(SKILL_INSTALL_JOB, enable?.agentId ?? null, params as unknown as Record<string, unknown>, 'queued');
    this.schedule(job);
    return { job };
  }

  /**
   * The cheap checks of a local source, done before any job: a directory holding a valid SKILL.md
   * that is a regular file (a symlinked one is a 400 skill_source_unsafe). The walk of every file
   * (links out, special files, caps) is the job's, off the request.
   */
  private inspectLocal(input: string, dir: string): SkillManifest {
    let st: fs.Stats;
    try {
      st = fs.statSync(dir);
    } catch {
      throw errors.invalidSkillSource(input, `source directory ${dir} does not exist`);
    }
    if (!st.isDirectory()) throw errors.invalidSkillSource(input, `source ${dir} is not a directory`);
    try {
      return readManifest(locateSkill(dir, null), dir);
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw errors.invalidSkillSource(input, (err as Error).message);
    }
  }

  async remove(name: string) {
    const entry = this.libraryEntry(name);
    const lock = readLock(this.home);
    if (!entry && !lock.skills[name]) throw errors.skillNotFound(name);
    if (entry) await removePath(entry.path);
    if (lock.skills[name]) {
      delete lock.skills[name];
      writeLock(this.home, lock);
    }
    const disabledFor = this.deps.store.tx(() => {
      const agents = this.stmt.userEnablements.all(name) as string[];
      this.stmt.removeUser.run(name);
      for (const agentId of agents) this.deps.events.append(agentId, 'skill_disabled', { name, scope: 'user', reason: 'removed_from_library' });
      return agents;
    });
    return { ok: true as const, name, removed: entry !== null, disabled_for: disabledFor };
  }

  /** The lock file against the library: entries without a directory, directories without an entry. */
  reconcile(opts: { prune?: boolean } = {}) {
    const lock = readLock(this.home);
    const library = scanRoot(this.libraryDir);
    const names = new Set(library.skills.map((s) => s.manifest.name));
    const missing = Object.keys(lock.skills).filter((n) => !names.has(n)).sort();
    const extra = [...names].filter((n) => !lock.skills[n]).sort();
    const pruned: string[] = [];
    if (opts.prune && missing.length) {
      for (const n of missing) delete lock.skills[n];
      writeLock(this.home, lock);
      pruned.push(...missing);
    }
    return { ok: true as const, in_sync: missing.length === 0 && extra.length === 0, locked: Object.keys(lock.skills).length + pruned.length, missing, extra, pruned, invalid: library.invalid };
  }

  /** Each locked skill against its source: git via `git ls-remote`, local copies by content hash. */
  async check() {
    const lock = readLock(this.home);
    const results = await Promise.all(Object.entries(lock.skills).map(([name, e]) => this.checkOne(name, e)));
    return {
      ok: true as const,
      checked: results.length,
      outdated: results.filter((r) => r.status === 'outdated').length,
      errors: results.filter((r) => r.status === 'error').length,
      skills: results,
    };
  }

  private async checkOne(name: string, e: LockEntry) {
    const base = { name, source: e.source, mode: e.mode, etag: e.etag };
    if (e.mode === 'link') return { ...base, latest: e.etag, status: 'linked' as const, error: null };
    try {
      const latest = e.source_type === 'git' ? await remoteHead(e.url!, e.ref, this.abort.signal) : await localEtag(e, this.abort.signal);
      return { ...base, latest, status: latest === e.etag ? ('up_to_date' as const) : ('outdated' as const), error: null };
    } catch (err) {
      return { ...base, latest: null, status: 'error' as const, error: (err as Error).message };
    }
  }

  /** Records a `skill_update` job that re-installs every locked skill whose source changed. */
  update(): Job {
    const job = this.deps.jobs.create(SKILL_UPDATE_JOB, null, {}, 'queued');
    this.schedule(job);
    return job;
  }

  // --- jobs ------------------------------------------------------------------------------------------

  private schedule(job: Job): void {
    const run = (this.chain = this.chain.then(() => this.runJob(job)).catch(() => undefined));
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  private progress(job: Job, phase: string, step: number, steps: number, message: string): void {
    this.deps.jobs.update(job.job_id, { status: 'running', phase, progress: { phase, step, steps, message } });
  }

  private async runJob(job: Job): Promise<void> {
    if (this.abort.signal.aborted) return;
    try {
      const result = job.kind === SKILL_UPDATE_JOB ? await this.runUpdate(job) : await this.runInstall(job);
      this.deps.jobs.update(job.job_id, { status: 'completed', phase: 'done', result, error: null });
    } catch (err) {
      if (this.abort.signal.aborted) return; // shutting down: the job resumes at the next start
      this.deps.logger.warn({ job_id: job.job_id, err: (err as Error).message }, 'skill job failed');
      try {
        this.deps.jobs.update(job.job_id, { status: 'failed', error: (err as Error).message });
      } catch {
        /* store closed */
      }
    }
  }

  private async runInstall(job: Job): Promise<Record<string, unknown>> {
    const p = job.params as unknown as InstallParams;
    const src = normaliseSource(p.source, os.homedir());
    const steps = 4;
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-skill-'));
    try {
      this.progress(job, 'fetching', 1, steps, src.type === 'git' ? `cloning ${src.url}${src.ref ? ` at ${src.ref}` : ''}` : `reading ${src.path}`);
      const fetched = await this.fetch(src, tmp);
      this.progress(job, 'validating', 2, steps, `reading ${path.join(fetched.dir, 'SKILL.md')}`);
      const manifest = readManifest(fetched.dir, fetched.root);
      const existing = this.libraryEntry(manifest.name);
      let installed = false;
      if (!existing) {
        this.progress(job, 'installing', 3, steps, `${p.mode === 'link' ? 'linking' : 'copying'} into ${path.join(this.libraryDir, manifest.name)}`);
        await this.place(fetched.tree, manifest.name, p.mode, job.job_id, false);
        this.progress(job, 'recording', 4, steps, 'writing .skill-lock.json');
        const lock = readLock(this.home);
        const now = isoAt(this.deps.clock.now());
        lock.skills[manifest.name] = {
          source: sourceString(src),
          source_type: src.type,
          url: src.type === 'git' ? src.url : null,
          ref: src.type === 'git' ? src.ref : null,
          subdir: fetched.subdir,
          mode: p.mode,
          etag: fetched.etag,
          installed_at: now,
          updated_at: now,
        };
        writeLock(this.home, lock);
        installed = true;
      }
      let enabled: unknown = null;
      if (p.enable_agent) enabled = (await this.enable(p.enable_agent, manifest.name, p.enable_copy ?? false)).skill;
      const skill = this.libraryEntry(manifest.name);
      return { installed, already_installed: !installed, name: manifest.name, etag: fetched.etag, skill, ...(p.enable_agent ? { enabled } : {}) };
    } finally {
      await fs.promises.rm(tmp, { recursive: true, force: true });
    }
  }

  /**
   * The skill directory of a source (a clone inside `tmp` for git), walked and validated (see
   * skill-files.ts), with its subdir and etag. The source root is the local directory or the clone.
   */
  private async fetch(src: SkillSource, tmp: string): Promise<{ root: string; dir: string; subdir: string | null; etag: string; tree: SkillTree }> {
    const signal = this.abort.signal;
    if (src.type === 'local') {
      const st = await fs.promises.stat(src.path).catch(() => null);
      if (!st?.isDirectory()) throw new Error(`source directory ${src.path} does not exist`);
      const dir = locateSkill(src.path, null);
      const tree = await walkSkill(dir, { root: src.path, signal });
      return { root: src.path, dir, subdir: null, etag: await hashSkill(tree, signal), tree };
    }
    const repo = path.join(tmp, 'repo');
    const commit = await cloneAt(src.url, src.ref, repo, signal);
    const dir = locateSkill(repo, src.subdir);
    const tree = await walkSkill(dir, { root: repo, signal });
    const subdir = path.relative(repo, dir).split(path.sep).join('/') || null;
    return { root: repo, dir, subdir, etag: commit, tree };
  }

  /**
   * Copy (or link) a walked skill to `<library>/<name>`: built in a staging sibling inside the
   * library, then renamed into place, so a refused or failed copy leaves nothing in the library.
   * A link points at the real skill directory; linked skills pass the same walk as copies.
   */
  private async place(tree: SkillTree, name: string, mode: InstallMode, tag: string, replace: boolean): Promise<void> {
    const fill = (staging: string) => (mode === 'link' ? fs.promises.symlink(tree.dir, staging, 'dir') : copySkill(tree, staging, this.abort.signal));
    await placeAtomically(path.join(this.libraryDir, name), fill, { replace, tag });
  }

  private async runUpdate(job: Job): Promise<Record<string, unknown>> {
    const lock = readLock(this.home);
    const names = Object.keys(lock.skills);
    const updated: Array<{ name: string; from: string; to: string }> = [];
    const upToDate: string[] = [];
    const skipped: Array<{ name: string; reason: string }> = [];
    const failed: Array<{ name: string; error: string }> = [];
    let i = 0;
    for (const name of names) {
      i++;
      const e = lock.skills[name]!;
      this.progress(job, 'updating', i, names.length, `checking ${name}`);
      if (e.mode === 'link') {
        skipped.push({ name, reason: 'linked: always current' });
        continue;
      }
      const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-skill-'));
      try {
        const latest = e.source_type === 'git' ? await remoteHead(e.url!, e.ref, this.abort.signal) : await localEtag(e, this.abort.signal);
        if (latest === e.etag && fs.existsSync(path.join(this.libraryDir, name))) {
          upToDate.push(name);
          continue;
        }
        this.progress(job, 'updating', i, names.length, `re-installing ${name}`);
        const src: SkillSource =
          e.source_type === 'git' ? { type: 'git', url: e.url!, ref: e.ref, subdir: e.subdir } : { type: 'local', path: e.source };
        const fetched = await this.fetch(src, tmp);
        const manifest = readManifest(fetched.dir, fetched.root);
        if (manifest.name !== name) throw new Error(`the source now names its skill ${JSON.stringify(manifest.name)}, not ${JSON.stringify(name)}`);
        await this.place(fetched.tree, name, 'copy', `${job.job_id}-${i}`, true);
        const fresh = readLock(this.home);
        fresh.skills[name] = { ...e, etag: fetched.etag, updated_at: isoAt(this.deps.clock.now()) };
        writeLock(this.home, fresh);
        updated.push({ name, from: e.etag, to: fetched.etag });
      } catch (err) {
        if (this.abort.signal.aborted) throw err;
        failed.push({ name, error: (err as Error).message });
      } finally {
        await fs.promises.rm(tmp, { recursive: true, force: true });
      }
    }
    return { checked: names.length, updated, up_to_date: upToDate, skipped, failed };
  }

  // --- per agent -------------------------------------------------------------------------------------

  list(agentId: string): AgentSkill[] {
    this.deps.agents.get(agentId);
    return (this.stmt.list.all(agentId) as AgentSkillRow[]).map((r) => {
      let description: string | null = null;
      try {
        description = readManifest(r.path).description;
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
      const found = this.workspaceSkills(agentId).skills.find((s) => s.name === name) ?? this.libraryEntry(name);
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
      // CONTRACT.md section 7: the enablement and its event commit together.
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

/** Every `<root>/<dir>/SKILL.md` (dot-directories skipped; symlinked directories followed). */
export function scanRoot(root: string): { skills: Array<{ dir: string; manifest: SkillManifest }>; invalid: InvalidSkill[] } {
  const skills: Array<{ dir: string; manifest: SkillManifest }> = [];
  const invalid: InvalidSkill[] = [];
  let entries: string[];
  // Most roots do not exist (an agent home without .svc/skills): a stat is far cheaper than the
  // exception readdirSync throws for a missing directory.
  if (!fs.existsSync(root)) return { skills, invalid };
  try {
    entries = fs.readdirSync(root).sort();
  } catch {
    return { skills, invalid };
  }
  const names = new Set<string>();
  for (const e of entries) {
    if (e.startsWith('.')) continue;
    const dir = path.join(root, e);
    try {
      if (!fs.statSync(dir).isDirectory()) continue;
    } catch {
      invalid.push({ path: dir, error: `${dir} is a broken link` });
      continue;
    }
    try {
      const manifest = readManifest(dir);
      if (names.has(manifest.name)) throw new Error(`another directory in ${root} already holds skill ${JSON.stringify(manifest.name)}`);
      names.add(manifest.name);
      skills.push({ dir, manifest });
    } catch (err) {
      invalid.push({ path: dir, error: (err as Error).message });
    }
  }
  return { skills, invalid };
}

/** The content hash of a locked local source, walked with the same rules as an install. */
async function localEtag(e: LockEntry, signal?: AbortSignal): Promise<string> {
  const st = await fs.promises.stat(e.source).catch(() => null);
  if (!st?.isDirectory()) throw new Error(`source directory ${e.source} no longer exists`);
  return hashSkill(await walkSkill(locateSkill(e.source, null), { root: e.source, signal }), signal);
}

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

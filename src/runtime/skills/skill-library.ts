/**
 * The user library of skills, `<home>/skills/<name>/` (spec "Skills",
 * docs/control-plane-api.md#skills): what it holds (its entries of the catalog, each with the
 * source recorded in `<home>/.skill-lock.json`), adding a skill from a local directory, a git URL
 * or `owner/repo/path@ref`, removing one, the lock file against the library (reconcile) and against
 * the sources (check), and updating from remote sources. Adding and updating run as background
 * jobs (`skill_install`, `skill_update`) on the JobStore, one at a time, with progress; a job a
 * previous daemon left unfinished runs again at start. Every copy or link first walks the skill
 * with skill-files.ts, so nothing outside its source is ever taken. SkillService (skills.ts)
 * composes this class: the catalog and per-agent enablement are there.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isoAt, AppError, errors } from '../../core/index.js';
import type { RuntimeDeps } from '../deps.js';
import type { Job, JobStore } from '../jobs.js';
import { copySkill, hashSkill, placeAtomically, removePath, walkSkill, type SkillTree } from './skill-files.js';
import {
  cloneAt,
  locateSkill,
  normaliseSource,
  readLock,
  readManifest,
  remoteHead,
  scanRoot,
  SourceError,
  sourceString,
  writeLock,
  type InstallMode,
  type InvalidSkill,
  type LockEntry,
  type SkillManifest,
  type SkillSource,
} from './skill-sources.js';

export type CatalogScope = 'user' | 'workspace';

/** An entry of the catalog (skills.ts joins the library's, scope `user`, with a workspace's). */
export interface CatalogEntry {
  skill_id: string;
  name: string;
  description: string;
  path: string;
  scope: CatalogScope;
  source: string;
}

interface InstallParams {
  source: string;
  mode: InstallMode;
  enable_agent?: string;
  enable_copy?: boolean;
}

export const SKILL_INSTALL_JOB = 'skill_install';
export const SKILL_UPDATE_JOB = 'skill_update';
/** The source of a library skill that the lock file does not know. */
const UNMANAGED = 'unmanaged';

export type SkillLibraryDeps = RuntimeDeps & {
  jobs: JobStore;
  /** The per-agent enablement (SkillService.enable) that an install with `enable_agent` ends in. */
  enable: (agentId: string, name: string, copy: boolean) => Promise<{ skill: unknown }>;
};

export class SkillLibrary {
  private chain: Promise<void> = Promise.resolve();
  private readonly running = new Set<Promise<void>>();
  private readonly abort = new AbortController();

  constructor(private readonly deps: SkillLibraryDeps) {}

  get home(): string {
    return this.deps.config.home;
  }

  get dir(): string {
    return path.join(this.home, 'skills');
  }

  // --- lifecycle -------------------------------------------------------------------------------

  start(): void {
    // Jobs a previous daemon left unfinished run again from the start (installs are idempotent).
    for (const kind of [SKILL_INSTALL_JOB, SKILL_UPDATE_JOB]) for (const job of this.deps.jobs.unfinished(kind)) this.schedule(job);
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await Promise.allSettled([...this.running]);
  }

  /** Wait until every queued skill job has ended (tests). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  // --- contents --------------------------------------------------------------------------------

  /** The library's entries of the catalog (scope `user`) and its invalid directories. */
  entries(): { skills: CatalogEntry[]; invalid: InvalidSkill[] } {
    const user = scanRoot(this.dir);
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
    return { skills, invalid: user.invalid };
  }

  /** The library's skill `name`, or null. */
  entry(name: string): CatalogEntry | null {
    return this.entries().skills.find((s) => s.name === name) ?? null;
  }

  /** Where `name` came from, as the lock file records it. */
  locked(name: string): LockEntry | null {
    return readLock(this.home).skills[name] ?? null;
  }

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
      const existing = this.entry(manifest.name);
      if (existing) return { existing };
    } else {
      const lock = readLock(this.home);
      for (const [name, e] of Object.entries(lock.skills)) {
        if (e.source_type === 'git' && e.url === src.url && e.ref === src.ref && (src.subdir === null || e.subdir === src.subdir)) {
          const existing = this.entry(name);
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

  /**
   * Remove `name`'s directory and its lock entry (404 when there is neither). `removed`: there was
   * a directory. The enablements of the skill are SkillService.remove's.
   */
  async remove(name: string): Promise<{ removed: boolean }> {
    const entry = this.entry(name);
    const lock = readLock(this.home);
    if (!entry && !lock.skills[name]) throw errors.skillNotFound(name);
    if (entry) await removePath(entry.path);
    if (lock.skills[name]) {
      delete lock.skills[name];
      writeLock(this.home, lock);
    }
    return { removed: entry !== null };
  }

  /** The lock file against the library: entries without a directory, directories without an entry. */
  reconcile(opts: { prune?: boolean } = {}) {
    const lock = readLock(this.home);
    const library = scanRoot(this.dir);
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
      const existing = this.entry(manifest.name);
      let installed = false;
      if (!existing) {
        this.progress(job, 'installing', 3, steps, `${p.mode === 'link' ? 'linking' : 'copying'} into ${path.join(this.dir, manifest.name)}`);
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
      if (p.enable_agent) enabled = (await this.deps.enable(p.enable_agent, manifest.name, p.enable_copy ?? false)).skill;
      const skill = this.entry(manifest.name);
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
    await placeAtomically(path.join(this.dir, name), fill, { replace, tag });
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
        if (latest === e.etag && fs.existsSync(path.join(this.dir, name))) {
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
}

// --- helpers ---------------------------------------------------------------------------------------

/** The content hash of a locked local source, walked with the same rules as an install. */
async function localEtag(e: LockEntry, signal?: AbortSignal): Promise<string> {
  const st = await fs.promises.stat(e.source).catch(() => null);
  if (!st?.isDirectory()) throw new Error(`source directory ${e.source} no longer exists`);
  return hashSkill(await walkSkill(locateSkill(e.source, null), { root: e.source, signal }), signal);
}

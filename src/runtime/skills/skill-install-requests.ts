/**
 * The real system's way to add a skill, `POST /api/jobs {kind: "skill.install", params: {kind:
 * <source>}}` (docs/holon-gui.md), mapped onto the library's add: a local directory
 * or a hosted repository (`package` as owner/repo[@ref], `skill` the path inside it). A skill
 * already in the library answers a job that is already completed, naming it, so the caller can
 * follow every request the same way.
 */
import { errors } from '../../core/index.js';
import type { Job, JobStore } from '../jobs.js';
import { SKILL_INSTALL_JOB } from './skill-library.js';
import type { SkillService } from './skills.js';

export type SkillInstallSource =
  | { kind: 'local'; path: string; mode?: 'linked' | 'copied' | undefined }
  | { kind: 'remote'; package: string; skill?: string | undefined; mode?: 'linked' | 'copied' | undefined }
  | { kind: 'builtin' | 'named'; name: string };

/** `owner/repo@ref` + `skills/x` -> `owner/repo/skills/x@ref` (svc's shorthand). */
function remoteSource(pkg: string, skill: string | undefined): string {
  if (!skill) return pkg;
  const at = pkg.search(/[@#]/);
  const [repo, ref] = at < 0 ? [pkg, ''] : [pkg.slice(0, at), pkg.slice(at)];
  return `${repo.replace(/\/+$/, '')}/${skill.replace(/^\/+/, '')}${ref}`;
}

export function requestSkillInstall(d: { skills: SkillService; jobs: JobStore }, source: SkillInstallSource): Job {
  let input: { source: string; mode: 'link' | 'copy' };
  if (source.kind === 'local') input = { source: source.path, mode: source.mode === 'linked' ? 'link' : 'copy' };
  else if (source.kind === 'remote') input = { source: remoteSource(source.package, source.skill), mode: 'copy' };
  else throw errors.invalidSkillSource(source.name, 'svc has no built-in or named skills: add a local directory or a git repository');
  const r = d.skills.add(input);
  if ('job' in r) return r.job;
  const job = d.jobs.create(SKILL_INSTALL_JOB, null, { source: input.source, mode: input.mode });
  return d.jobs.update(job.job_id, { status: 'completed', phase: null, result: { skill: r.existing.name, created: false } });
}

/**
 * The real system's names for skill entries, added beside svc's (docs/holon-gui.md): `skill_id`,
 * `root_id` (which root the skill comes from: user, workspace or agent) and `skill_dir` (the
 * skill's directory name).
 */
import path from 'node:path';
import { errors } from '../../core/index.js';
import { readManifest } from './skill-sources.js';

interface Entry {
  name: string;
  path: string;
  scope: string;
  /** False for an enabled skill that cannot be used (gone, broken, or a workspace skill now outside it). */
  available?: boolean;
}

export function skillEntryView<E extends Entry & { skill_id?: string }>(e: E) {
  return { ...e, skill_id: e.skill_id ?? `${e.scope}:${e.name}`, root_id: e.scope, skill_dir: path.basename(e.path) };
}

/**
 * One skill enabled for an agent, by `<scope>:<name>` (or the bare name), with its SKILL.md body
 * (empty when the directory is gone or its SKILL.md cannot be read: the list marks it unavailable).
 * 404 skill_not_found when the agent has no such skill enabled.
 */
export function agentSkillDetail<E extends Entry>(enabled: E[], skillId: string) {
  const entry = enabled.find((e) => `${e.scope}:${e.name}` === skillId) ?? enabled.find((e) => e.name === skillId);
  if (!entry) throw errors.skillNotFound(skillId);
  let content = '';
  try {
    if (entry.available !== false) content = readManifest(entry.path).body;
  } catch {
    // unavailable: shown without content
  }
  const skill = skillEntryView(entry);
  return { ...skill, skill, content };
}

interface CheckSummary {
  checked: number;
  outdated: number;
  errors: number;
  skills: Array<{ name: string; status: string }>;
}

/** A check summary narrowed to one skill (the real system checks by name); all of it without a name. */
export function checkSummaryFor<S extends CheckSummary>(summary: S, name: string | undefined): S {
  if (name === undefined) return summary;
  const skills = summary.skills.filter((k) => k.name === name);
  if (skills.length === 0) throw errors.skillNotFound(name);
  return {
    ...summary,
    skills,
    checked: skills.length,
    outdated: skills.filter((k) => k.status === 'outdated').length,
    errors: skills.filter((k) => k.status === 'error').length,
  };
}

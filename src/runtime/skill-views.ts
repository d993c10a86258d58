/**
 * The real system's names for skill entries, added beside svc's (README "Holon GUI
 * compatibility"): `skill_id`, `root_id` (which root the skill comes from: user, workspace or
 * agent) and `skill_dir` (the skill's directory name).
 */
import path from 'node:path';

interface Entry {
  name: string;
  path: string;
  scope: string;
}

export function skillEntryView<E extends Entry & { skill_id?: string }>(e: E) {
  return { ...e, skill_id: e.skill_id ?? `${e.scope}:${e.name}`, root_id: e.scope, skill_dir: path.basename(e.path) };
}

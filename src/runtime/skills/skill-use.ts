/**
 * Skills as the model meets them (spec "skills"; the agent's effective skills reach every turn):
 * the effective list (skills enabled for the agent, then its active workspace's, then the user
 * library's; one per name in that order) is named in the system prompt, and `open` reads a skill's
 * SKILL.md, or a file under its directory, for the model's `open_skill` tool. Opening is what makes
 * a skill active: each open appends `skill_opened` to the agent's log.
 *
 * Reads never leave the skill: the file's real path must lie inside the skill directory's real
 * path and be a regular file; at most OPEN_MAX_BYTES of it are returned. Reads are asynchronous.
 */
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { errors } from '../../core/index.js';
import type { EventLog } from '../../events/index.js';
import type { Store } from '../../store/index.js';
import { isInside } from './skill-files.js';
import type { SkillService } from './skills.js';

export interface EffectiveSkill {
  name: string;
  description: string;
  path: string;
  scope: string;
  /** Where it comes from: for a workspace skill, the workspace it must stay inside. */
  source: string;
}

/** Skills named in one system prompt, and the longest description quoted there. */
export const PROMPT_MAX_SKILLS = 50;
const PROMPT_MAX_DESCRIPTION = 300;
/** Longest part of a file `open_skill` returns. */
export const OPEN_MAX_BYTES = 64 * 1024;

export class SkillUse {
  constructor(private readonly deps: { skills: SkillService; store: Store; events: EventLog }) {}

  effective(agentId: string): EffectiveSkill[] {
    const seen = new Set<string>();
    const out: EffectiveSkill[] = [];
    const add = (s: EffectiveSkill) => {
      if (seen.has(s.name)) return;
      seen.add(s.name);
      out.push(s);
    };
    for (const s of this.deps.skills.list(agentId)) {
      if (s.available) add({ name: s.name, description: s.description ?? '', path: s.path, scope: s.scope, source: s.source });
    }
    const { skills } = this.deps.skills.catalog(agentId);
    for (const s of skills.filter((x) => x.scope === 'workspace')) add(s);
    for (const s of skills.filter((x) => x.scope === 'user')) add(s);
    return out;
  }

  /** The prompt section listing the effective skills ('' when there are none). */
  promptSection(agentId: string): string {
    const all = this.effective(agentId);
    if (all.length === 0) return '';
    const shown = all.slice(0, PROMPT_MAX_SKILLS);
    const lines = shown.map((s) => `- ${s.name}: ${oneLine(s.description)} (${s.scope}, ${s.path})`);
    if (all.length > shown.length) lines.push(`- … and ${all.length - shown.length} more`);
    return [
      'Skills you can use (instructions for particular jobs). Before following one, open it with the open_skill tool (its SKILL.md, then any file it names):',
      ...lines,
    ].join('\n');
  }

  async open(agentId: string, turnId: string | null, name: string, file = 'SKILL.md') {
    const skill = this.effective(agentId).find((s) => s.name === name);
    if (!skill) throw errors.skillNotFound(name, { agent_id: agentId });
    if (file.includes('\0') || path.isAbsolute(file)) throw errors.skillFileNotAllowed(name, file, 'give a path relative to the skill directory');
    const root = await fs.realpath(skill.path);
    // Checked on the directory just resolved, the one the file is read from.
    const workspace = skill.scope === 'workspace' ? await fs.realpath(skill.source).catch(() => null) : undefined;
    if (workspace === null || (workspace !== undefined && !isInside(workspace, root))) {
      throw errors.skillFileNotAllowed(name, file, 'the skill directory leads outside its workspace');
    }
    let real: string;
    try {
      real = await fs.realpath(path.resolve(root, file));
    } catch {
      throw errors.skillFileNotAllowed(name, file, 'no such file in the skill');
    }
    const rel = path.relative(root, real);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) throw errors.skillFileNotAllowed(name, file, 'it is outside the skill directory');
    // Non-blocking: a FIFO in the skill would hold a thread of libuv's pool for good; fstat refuses it below.
    const handle = await fs.open(real, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    try {
      const st = await handle.stat();
      if (!st.isFile()) throw errors.skillFileNotAllowed(name, file, 'not a regular file');
      const buf = Buffer.alloc(Math.min(st.size, OPEN_MAX_BYTES));
      const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
      const content = buf.subarray(0, bytesRead).toString('utf8');
      this.deps.store.tx(() => this.deps.events.append(agentId, 'skill_opened', { name, scope: skill.scope, file: rel, turn_id: turnId }));
      return { name, scope: skill.scope, path: skill.path, file: rel, bytes: st.size, truncated: st.size > bytesRead, content };
    } finally {
      await handle.close();
    }
  }
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= PROMPT_MAX_DESCRIPTION ? flat : `${flat.slice(0, PROMPT_MAX_DESCRIPTION)}…`;
}

/** Skills catalog, library and per-agent enablement (docs/control-plane-api.md#skills). */
import { z } from 'zod';
import { Job } from './agents.js';
import '../openapi.js';

const Name = z.string().min(1).max(64);

export const CatalogEntry = z
  .object({
    skill_id: z.string().openapi({ description: '`user:<name>` or `workspace:<name>`', example: 'user:pdf-tools' }),
    name: z.string(),
    description: z.string(),
    path: z.string().openapi({ description: 'The skill directory (holding SKILL.md)' }),
    scope: z.enum(['user', 'workspace']),
    source: z.string().openapi({
      description: 'user: the lock-file source (normalised URL#ref or local path), `unmanaged` when the lock file does not know it; workspace: the workspace root',
    }),
  })
  .openapi('SkillCatalogEntry');

export const InvalidSkill = z.object({ path: z.string(), error: z.string() });

/** The real system's names beside svc's: root_id (user, workspace, agent) and skill_dir. */
const holonNames = {
  root_id: z.string().openapi({ description: 'the root the skill comes from (= scope)' }),
  skill_dir: z.string().openapi({ description: 'the skill directory name' }),
};

export const HolonCatalogEntry = CatalogEntry.extend(holonNames).openapi('HolonSkillCatalogEntry');

export const CatalogQuery = z.strictObject({
  agent_id: z.string().min(1).max(64).optional().openapi({ description: 'Whose active workspace supplies the workspace skills (default: the default agent)' }),
});

export const CatalogList = z.object({
  ok: z.literal(true),
  skills: z.array(CatalogEntry),
  invalid: z.array(InvalidSkill),
  catalog: z.array(HolonCatalogEntry).openapi({ description: 'the same entries with root_id and skill_dir (the real system\'s name for the list)' }),
});

export const SkillIdParams = z.object({ skill_id: z.string().min(1).max(200) });

export const LockEntry = z
  .object({
    source: z.string(),
    source_type: z.enum(['local', 'git']),
    url: z.string().nullable(),
    ref: z.string().nullable(),
    subdir: z.string().nullable(),
    mode: z.enum(['copy', 'link']),
    etag: z.string().openapi({ description: 'git: the installed commit; local: sha256 of the skill files' }),
    installed_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('SkillLockEntry');

export const SkillDetail = CatalogEntry.extend({
  ok: z.literal(true),
  mode: z.enum(['copy', 'link']).nullable(),
  frontmatter: z.record(z.string(), z.string()),
  content: z.string().openapi({ description: 'SKILL.md after its frontmatter' }),
  files: z.array(z.string()),
  lock: LockEntry.nullable(),
  skill: HolonCatalogEntry.openapi({ description: 'the catalog entry (the real system\'s shape of the detail)' }),
}).openapi('SkillDetail');

export const AddSkillBody = z
  .strictObject({
    source: z.string().min(1).max(4096).openapi({
      description:
        'An absolute local directory; a git URL (file://, https://, ssh://) with optional #ref or #ref:sub/dir; or owner/repo[/path][@ref|#ref] (GitHub)',
      example: 'acme/skills/skills/pdf-tools@v1.2.0',
    }),
    mode: z.enum(['copy', 'link']).optional().openapi({ description: 'copy (default) or link (a symlink; local sources only)' }),
  })
  .openapi('AddSkillRequest');

export const JobAccepted = z.object({ ok: z.literal(true), job_id: z.string(), status: z.enum(['pending', 'running', 'completed', 'failed']) });

export const UpdateAccepted = JobAccepted.extend({ job: Job.openapi({ description: 'the job (the real system\'s shape)' }) });

export const CheckBody = z.strictObject({ name: Name.optional().openapi({ description: 'answer for this skill alone' }) }).openapi('CheckSkillRequest');

export const AddSkillExisting = z.object({ ok: z.literal(true), created: z.literal(false), skill: CatalogEntry });

export const RemoveSkillBody = z.strictObject({ name: Name }).openapi('RemoveSkillRequest');

export const RemoveSkillResponse = z.object({
  ok: z.literal(true),
  name: z.string(),
  removed: z.boolean().openapi({ description: 'false when only a stale lock entry was dropped' }),
  disabled_for: z.array(z.string()).openapi({ description: 'Agents whose user-scope enablement of the skill went away' }),
});

export const EmptyBody = z.strictObject({});

export const RefreshBody = z.strictObject({ agent_id: z.string().min(1).max(64).optional() });

export const RefreshResponse = z.object({
  ok: z.literal(true),
  total: z.number().int(),
  user: z.number().int(),
  workspace: z.number().int(),
  skills: z.array(CatalogEntry),
  invalid: z.array(InvalidSkill),
});

export const ReconcileBody = z.strictObject({
  prune: z.boolean().optional().openapi({ description: 'Drop lock entries whose library directory is gone' }),
});

export const ReconcileResponse = z.object({
  ok: z.literal(true),
  in_sync: z.boolean(),
  locked: z.number().int(),
  missing: z.array(z.string()).openapi({ description: 'In the lock file, not in the library' }),
  extra: z.array(z.string()).openapi({ description: 'In the library, not in the lock file' }),
  pruned: z.array(z.string()),
  invalid: z.array(InvalidSkill),
});

export const CheckResponse = z.object({
  ok: z.literal(true),
  checked: z.number().int(),
  outdated: z.number().int(),
  errors: z.number().int(),
  skills: z.array(
    z.object({
      name: z.string(),
      source: z.string(),
      mode: z.enum(['copy', 'link']),
      etag: z.string(),
      latest: z.string().nullable(),
      status: z.enum(['up_to_date', 'outdated', 'linked', 'error']),
      error: z.string().nullable(),
    }),
  ),
});

export const AgentSkill = z
  .object({
    name: z.string(),
    scope: z.enum(['agent', 'workspace', 'user']),
    source: z.string(),
    path: z.string(),
    description: z.string().nullable(),
    available: z.boolean().openapi({ description: 'false when the skill directory is gone or its SKILL.md is broken' }),
    enabled_at: z.string(),
  })
  .openapi('AgentSkill');

const AgentSkillEntry = AgentSkill.extend({ skill_id: z.string().openapi({ description: '`<scope>:<name>`' }), ...holonNames }).openapi('AgentSkillEntry');

export const SkillAgentIdParams = z.object({ id: z.string().min(1).max(64) });
export const AgentIdParamsLegacy = z.object({ agent_id: z.string().min(1).max(64) });

export const AgentSkillParams = z.object({ id: z.string().min(1).max(64), skill_id: z.string().min(1).max(200) });

export const AgentSkillDetail = AgentSkillEntry.extend({
  ok: z.literal(true),
  agent_id: z.string(),
  skill: AgentSkillEntry,
  content: z.string().openapi({ description: 'SKILL.md after its frontmatter; empty when the skill is unavailable' }),
}).openapi('AgentSkillDetail');

export const AgentSkillList = z.object({ ok: z.literal(true), agent_id: z.string(), skills: z.array(AgentSkillEntry) });

export const EnableBody = z
  .strictObject({
    name: Name,
    copy: z.boolean().optional().openapi({ description: 'A private copy under the agent home (scope agent)' }),
    mode: z.enum(['linked', 'copied']).optional().openapi({ description: 'the real system\'s spelling: copied = copy:true, linked = copy:false (copy wins when both are sent)' }),
  })
  .openapi('EnableSkillRequest');

export const DisableBody = z.strictObject({ name: Name }).openapi('DisableSkillRequest');

export const EnableResponse = z.object({ ok: z.literal(true), agent_id: z.string(), changed: z.boolean(), skill: AgentSkill });
export const DisableResponse = z.object({ ok: z.literal(true), agent_id: z.string(), name: z.string(), changed: z.boolean() });

export const InstallBody = z
  .strictObject({
    source: z.string().min(1).max(4096).optional(),
    name: Name.optional(),
    mode: z.enum(['copy', 'link']).optional(),
    copy: z.boolean().optional(),
  })
  .openapi('InstallSkillRequest');

export const InstallResponse = z.object({
  ok: z.literal(true),
  deprecated: z.literal(true),
  agent_id: z.string(),
  job_id: z.string().optional(),
  skill: AgentSkill.optional(),
});

const InstallMode = z.enum(['linked', 'copied']).optional().openapi({ description: 'linked: a symlink (local sources only); copied (default)' });

/** The real system's skill install request (POST /api/jobs). */
export const CreateJobBody = z
  .looseObject({
    kind: z.literal('skill.install').openapi({ description: 'the only job kind svc starts this way' }),
    params: z.looseObject({
      kind: z.discriminatedUnion('kind', [
        z.strictObject({ kind: z.literal('local'), path: z.string().min(1).max(4096), mode: InstallMode }),
        z.strictObject({ kind: z.literal('remote'), package: z.string().min(1).max(4096), skill: z.string().max(1024).optional(), mode: InstallMode }),
        z.strictObject({ kind: z.enum(['builtin', 'named']), name: z.string().min(1).max(200) }),
      ]),
    }),
  })
  .openapi('CreateJobRequest');

/**
 * Skills routes (spec "Skills", docs/control-plane-api.md#skills): the catalog and library under
 * /api/skills/catalog, per-agent enablement, the deprecated install/uninstall routes. The spec
 * lists the per-agent routes without the /api prefix; they are served under both spellings.
 */
import { errors } from '../../core/index.js';
import { SKILL_LIMITS, requestSkillInstall, agentSkillDetail, checkSummaryFor, skillEntryView } from '../../runtime/skills/index.js';
import { jobView } from '../../runtime/index.js';
import {
  AddSkillBody,
  AddSkillExisting,
  AgentSkillDetail,
  AgentSkillList,
  AgentSkillParams,
  CatalogList,
  CatalogQuery,
  CheckBody,
  CheckResponse,
  CreateJobBody,
  DisableBody,
  DisableResponse,
  EmptyBody,
  EnableBody,
  EnableResponse,
  InstallBody,
  InstallResponse,
  JobAccepted,
  JobResponse,
  ReconcileBody,
  ReconcileResponse,
  RefreshBody,
  RefreshResponse,
  RemoveSkillBody,
  RemoveSkillResponse,
  SkillAgentIdParams as AgentIdParams,
  SkillDetail,
  SkillIdParams,
  UpdateAccepted,
} from '../schemas/index.js';
import type { Services } from '../../services.js';
import { defineRoute, type AnyRoute } from '../route.js';

const tags = ['skills'];
const LIMITS = `${SKILL_LIMITS.maxFiles} files and directories or ${SKILL_LIMITS.maxBytes / (1024 * 1024)} MiB`;

export function skillRoutes(s: Services): AnyRoute[] {
  const agentSkillRoutes = (prefix: '/api' | '') => {
    const alias = prefix === '' ? ' (spec spelling, without /api)' : '';
    const idSuffix = prefix === '' ? 'Alias' : '';
    return [
      defineRoute({
        method: 'GET',
        url: `${prefix}/agents/:id/skills`,
        operationId: `listAgentSkills${idSuffix}`,
        auth: 'read',
        tags,
        summary: `Skills enabled for the agent: name, scope (agent/workspace/user), source${alias}`,
        params: AgentIdParams,
        responses: { 200: { description: 'Enabled skills', schema: AgentSkillList } },
        handler: ({ params }) => ({ ok: true, agent_id: params.id, skills: s.skills.list(params.id).map(skillEntryView) }),
      }),
      defineRoute({
        method: 'POST',
        url: `${prefix}/control/agents/:id/skills/enable`,
        operationId: `enableAgentSkill${idSuffix}`,
        bodyExample: { name: 'pdf-tools' },
        auth: 'control',
        tags,
        summary: `Enable a skill for the agent${alias}`,
        description:
          `Resolves the name in the agent's active workspace (.svc/skills, then skills) and then the user library; 404 skill_not_found otherwise. copy:true makes a private copy under the agent home (scope agent) with the rules of an install: 400 skill_source_unsafe (a symlink out of the skill directory, a symlinked SKILL.md, a special file) or skill_too_large (past ${LIMITS}), naming the file, and nothing copied. Enabling again is a no-op (changed:false). A change appends skill_enabled {name, scope, source, previous_scope} to the agent's log.`,
        params: AgentIdParams,
        body: EnableBody,
        responses: { 200: { description: 'Enabled', schema: EnableResponse } },
        handler: async ({ params, body }) => ({ ok: true, agent_id: params.id, ...(await s.skills.enable(params.id, body.name, body.copy ?? body.mode === 'copied')) }),
      }),
      defineRoute({
        method: 'POST',
        url: `${prefix}/control/agents/:id/skills/disable`,
        operationId: `disableAgentSkill${idSuffix}`,
        bodyExample: { name: 'pdf-tools' },
        auth: 'control',
        tags,
        summary: `Disable a skill for the agent${alias}`,
        description: 'changed:false when the skill exists but was not enabled; 404 skill_not_found when no skill has the name. A private copy (scope agent) is deleted. A change appends skill_disabled {name, scope, reason: disabled} to the agent\'s log (removing a library skill appends it with reason removed_from_library for each agent that had it).',
        params: AgentIdParams,
        body: DisableBody,
        responses: { 200: { description: 'Disabled', schema: DisableResponse } },
        handler: async ({ params, body }) => ({ ok: true, agent_id: params.id, name: body.name, ...(await s.skills.disable(params.id, body.name)) }),
      }),
    ];
  };

  return [
    defineRoute({
      method: 'GET',
      url: '/api/skills/catalog',
      auth: 'read',
      tags,
      summary: "The catalog: the user library and the repository-local skills of an agent's active workspace",
      query: CatalogQuery,
      responses: { 200: { description: 'Catalog', schema: CatalogList } },
      handler: ({ query }) => {
        const { skills, invalid } = s.skills.catalog(query.agent_id);
        // `catalog`: the same entries under the real system's name, with its extra fields.
        return { ok: true, skills, invalid, catalog: skills.map(skillEntryView) };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/skills/catalog/:skill_id',
      operationId: 'getCatalogSkill',
      auth: 'read',
      tags,
      summary: 'Skill detail: frontmatter, SKILL.md content, files, lock entry',
      description: 'skill_id is `user:<name>` or `workspace:<name>`; a bare name finds the workspace skill first, then the library one.',
      params: SkillIdParams,
      query: CatalogQuery,
      responses: { 200: { description: 'Detail', schema: SkillDetail } },
      handler: ({ params, query }) => {
        const detail = s.skills.detail(params.skill_id, query.agent_id);
        const { skill_id, name, description, path, scope, source } = detail;
        return { ok: true, ...detail, skill: skillEntryView({ skill_id, name, description, path, scope, source }) };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/skills/catalog/add',
      bodyExample: { source: 'acme/skills/skills/pdf-tools@v1.2.0' },
      auth: 'control',
      tags,
      summary: 'Add a skill to the user library (a background skill_install job)',
      description:
        `202 {ok, job_id}: follow the job at GET /api/jobs/:job_id. 200 {ok, created:false, skill} when the skill is already in the library (no job). 400 invalid_skill_source for a source that cannot be used (not absolute, not a git URL or owner/repo shorthand; a local directory without a valid SKILL.md; mode link with a git source); 400 skill_source_unsafe when the SKILL.md of a local directory is a symlink or not a regular file. The job walks every file of the skill before anything is copied or linked, and fails (status failed, error naming the file relative to the source and the reason) on a symlink whose real target is outside the source, a broken or looping symlink, a symlinked SKILL.md, a fifo, socket or device, or a skill past ${LIMITS}; nothing is left in the library then. Symlinks inside the source are copied as the files they point to. A git source that turns out to hold no valid skill fails its job too.`,
      body: AddSkillBody,
      responses: {
        200: { description: 'Already in the library', schema: AddSkillExisting },
        202: { description: 'Install job scheduled', schema: JobAccepted },
      },
      handler: ({ body, reply }) => {
        const r = s.skills.add(body);
        if ('existing' in r) return { ok: true, created: false, skill: r.existing };
        reply.code(202);
        return { ok: true, job_id: r.job.job_id, status: r.job.status };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/skills/catalog/remove',
      bodyExample: { name: 'pdf-tools' },
      auth: 'control',
      tags,
      summary: 'Remove a skill from the library (and its lock entry)',
      body: RemoveSkillBody,
      responses: { 200: { description: 'Removed', schema: RemoveSkillResponse } },
      handler: ({ body }) => s.skills.remove(body.name),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/skills/catalog/refresh',
      bodyExample: { agent_id: 'main' },
      auth: 'control',
      tags,
      summary: 'Rescan the library and the workspace roots; counts and invalid skill directories',
      body: RefreshBody,
      bodyOptional: true,
      responses: { 200: { description: 'Summary', schema: RefreshResponse } },
      handler: ({ body }) => s.skills.refresh(body.agent_id),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/skills/catalog/reconcile',
      bodyExample: { prune: true },
      auth: 'control',
      tags,
      summary: 'Compare .skill-lock.json with the library: missing and extra skills',
      body: ReconcileBody,
      bodyOptional: true,
      responses: { 200: { description: 'Summary', schema: ReconcileResponse } },
      handler: ({ body }) => s.skills.reconcile(body),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/skills/catalog/check',
      bodyExample: { name: 'pdf-tools' },
      auth: 'control',
      tags,
      summary: 'Each locked skill against its source (git ls-remote; content hash for local copies)',
      description: '`{name}` (the real system\'s form) answers the summary of that skill alone (404 skill_not_found when no locked skill has the name).',
      body: CheckBody,
      bodyOptional: true,
      responses: { 200: { description: 'Summary', schema: CheckResponse } },
      handler: async ({ body }) => checkSummaryFor(await s.skills.check(), body.name),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/skills/catalog/update',
      bodyExample: {},
      auth: 'control',
      tags,
      summary: 'Re-install locked skills whose source changed (a background skill_update job)',
      description: "The job's result lists updated, up_to_date, skipped (linked) and failed skills.",
      body: EmptyBody,
      bodyOptional: true,
      hint: (issues) => (issues.some((i) => i.path.startsWith('body.name')) ? 'svc updates every locked skill in one job: send {}' : undefined),
      responses: { 202: { description: 'Update job scheduled', schema: UpdateAccepted } },
      handler: ({ reply }) => {
        const job = s.skills.update();
        reply.code(202);
        return { ok: true, job_id: job.job_id, status: job.status, job: jobView(job) };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/jobs',
      bodyExample: { kind: 'skill.install', params: { kind: { kind: 'named', name: 'pdf-tools' } } },
      auth: 'control',
      tags,
      summary: 'Start a skill install job the real system\'s way ({kind: "skill.install", params: {kind: <source>}})',
      description:
        'A source `{kind: local, path, mode?}` or `{kind: remote, package: owner/repo[@ref], skill?: path}` is added to the library as by POST /api/skills/catalog/add (202 with the job). A skill already in the library answers 200 with a job that is already completed. `builtin` and `named` sources: 400 invalid_skill_source (svc has none).',
      body: CreateJobBody,
      responses: {
        200: { description: 'Already in the library: a completed job', schema: JobResponse },
        202: { description: 'Install job scheduled', schema: JobResponse },
      },
      handler: ({ body, reply }) => {
        const job = requestSkillInstall(s, body.params.kind);
        reply.code(job.status === 'completed' ? 200 : 202);
        return { ok: true, job: jobView(job) };
      },
    }),
    ...agentSkillRoutes('/api'),
    ...agentSkillRoutes(''),
    defineRoute({
      method: 'GET',
      url: '/api/agents/:id/skills/:skill_id',
      auth: 'read',
      tags,
      summary: 'One skill enabled for the agent, with its SKILL.md body (404 skill_not_found)',
      description: 'skill_id is `<scope>:<name>` as the agent\'s skill list shows it, or the bare name. The real system\'s route (docs/holon-gui.md).',
      params: AgentSkillParams,
      responses: { 200: { description: 'Skill', schema: AgentSkillDetail } },
      handler: ({ params }) => ({ ok: true, agent_id: params.id, ...agentSkillDetail(s.skills.list(params.id), params.skill_id) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/control/agents/:id/skills/install',
      bodyExample: { source: 'acme/skills/skills/pdf-tools@v1.2.0' },
      auth: 'control',
      deprecated: true,
      tags,
      summary: 'Deprecated: add to the library and enable (use catalog/add and skills/enable)',
      description:
        '{source, mode?, copy?}: add (a skill_install job that enables the skill when installed: 202 with job_id; 200 when already in the library) then enable. {name, copy?}: enable only.',
      params: AgentIdParams,
      body: InstallBody,
      responses: {
        200: { description: 'Enabled', schema: InstallResponse },
        202: { description: 'Install job scheduled (enables on completion)', schema: InstallResponse },
      },
      handler: async ({ params, body, reply }) => {
        reply.header('deprecation', 'true');
        const copy = body.copy ?? false;
        if (body.source !== undefined) {
          const r = s.skills.add({ source: body.source, mode: body.mode }, { agentId: params.id, copy });
          if ('job' in r) {
            reply.code(202);
            return { ok: true, deprecated: true, agent_id: params.id, job_id: r.job.job_id };
          }
          return { ok: true, deprecated: true, agent_id: params.id, skill: (await s.skills.enable(params.id, r.existing.name, copy)).skill };
        }
        if (body.name === undefined) throw errors.invalidRequest([{ path: 'body', message: 'send source (add and enable) or name (enable)' }]);
        return { ok: true, deprecated: true, agent_id: params.id, skill: (await s.skills.enable(params.id, body.name, copy)).skill };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/control/agents/:id/skills/uninstall',
      bodyExample: { name: 'pdf-tools' },
      auth: 'control',
      deprecated: true,
      tags,
      summary: 'Deprecated: disable for the agent (use skills/disable, and catalog/remove for the library)',
      params: AgentIdParams,
      body: DisableBody,
      responses: { 200: { description: 'Disabled', schema: DisableResponse } },
      handler: async ({ params, body, reply }) => {
        reply.header('deprecation', 'true');
        return { ok: true, agent_id: params.id, name: body.name, ...(await s.skills.disable(params.id, body.name)) };
      },
    }),
  ];
}

/**
 * Agent reads and lifecycle routes (spec "Agent reads", "Control plane";
 * docs/control-plane-api.md#agents).
 */
import { deletionIdentity, agentDetail, agentListEntry, agentState, agentSummary, agentTree } from '../../runtime/views/index.js';
import { jobView } from '../../runtime/index.js';
import { errors } from '../../core/index.js';
import type { Services } from '../../services.js';
import { defineRoute, type AnyRoute } from '../route.js';
import {
  AgentDetail,
  AgentIdParams,
  AgentList,
  AgentState,
  AgentSummary,
  AgentTree,
  CreateAgentBody,
  CreateAgentResponse,
  DeleteBody,
  DeleteQuery,
  DeletionResponse,
  RenameBody,
  RepairResponse,
  UsageQuery,
  UsageResponse,
} from '../schemas/index.js';

const tags = ['agents'];

export function agentRoutes(s: Services): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/agents/list',
      auth: 'read',
      tags,
      summary: 'Lightweight agent entries for selection and navigation',
      description:
        'A bare JSON array (the real system\'s shape, which the Holon web GUI reads). Each entry keeps svc\'s fields (agent_id, display_name, status, visibility, parent_agent_id, is_default) beside the real system\'s (identity, scheduling_posture, lifecycle, pending, current_run_id, waiting_reason, model, active_workspace_entry).',
      responses: { 200: { description: 'Agents', schema: AgentList } },
      handler: () => s.agents.list().map((a) => agentListEntry(s, a)),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/agents/:id/status',
      auth: 'read',
      tags,
      summary: 'AgentSummary of the named agent',
      params: AgentIdParams,
      responses: { 200: { description: 'Summary', schema: AgentSummary } },
      handler: ({ params }) => agentSummary(s, s.agents.get(params.id)),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/agents/:id/state',
      auth: 'read',
      tags,
      summary: 'Bounded bootstrap page: summary, session, tasks, timers, work items, intents, triggers, workspaces',
      params: AgentIdParams,
      responses: { 200: { description: 'State page', schema: AgentState } },
      handler: ({ params }) => agentState(s, s.agents.get(params.id)),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/agents/:id/usage',
      auth: 'read',
      tags,
      summary: "Tokens and cost of the agent's model rounds by UTC day, work item or model",
      description:
        'Sums of the usage ledger (docs/context.md#usage-and-cost): one row per group, `total` their sum. Cost is USD at the models\' prices (`[models.pricing]`, the built-in catalog); a round of a model without a price adds to `unpriced_rounds`, not to `cost_usd`, which is null when no round of the group has a price. `from` and `to` bound the UTC days (inclusive). Rounds are kept 400 days.',
      params: AgentIdParams,
      query: UsageQuery,
      responses: { 200: { description: 'Usage', schema: UsageResponse } },
      handler: ({ params, query }) => {
        s.agents.get(params.id);
        const report = s.usage.totals(params.id, query.by, { from: query.from, to: query.to });
        return { agent_id: params.id, by: query.by, currency: 'USD' as const, from: query.from ?? null, to: query.to ?? null, ...report };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/control/agents/:id/create',
      errors: { 400: ['invalid_agent_id', 'template_not_found', 'parent_not_found'], 404: [] },
      bodyExample: { display_name: 'Release helper', template: 'default' },
      auth: 'control',
      tags,
      summary: 'Create an agent whose id is the path id (idempotent for an active agent)',
      description:
        '201 with created:true for a new agent (after a completed deletion: a new incarnation); 200 with created:false for an existing active agent; 409 deletion_incomplete while a deletion is in flight or failed. `template` names a built-in template (`default`) or a directory under <home>/templates, copied into the agent home except its INITIAL_MESSAGE.md, whose text is enqueued to the new agent once. A bootstrap step that fails leaves the agent created with the step in `bootstrap.pending_steps`, for repair.',
      params: AgentIdParams,
      body: CreateAgentBody,
      bodyOptional: true,
      responses: {
        200: { description: 'Already exists', schema: CreateAgentResponse },
        201: { description: 'Created', schema: CreateAgentResponse },
      },
      handler: ({ params, body, reply }) => {
        const { created, agent } = s.agents.create(params.id, body, (id) => s.deletion.latestJob(id)?.job_id ?? null);
        reply.code(created ? 201 : 200);
        return { ok: true, created, agent: agentDetail(s, agent) };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/control/agents/tree',
      auth: 'control',
      tags,
      summary: 'Public agents with their subagents, each with its lineage',
      responses: { 200: { description: 'Tree', schema: AgentTree } },
      handler: () => ({ ok: true, agents: agentTree(s) }),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/control/agents/:id/detail',
      auth: 'control',
      tags,
      summary: 'Canonical projection: identity, display name, incarnation, model, state, lineage',
      params: AgentIdParams,
      responses: { 200: { description: 'Detail', schema: AgentDetail } },
      handler: ({ params }) => agentDetail(s, s.agents.get(params.id)),
    }),
    defineRoute({
      method: 'PATCH',
      url: '/api/control/agents/:id/name',
      errors: { 400: ['empty_name'], 409: ['agent_not_renamable'] },
      bodyExample: { name: 'Release helper' },
      auth: 'control',
      tags,
      summary: 'Rename the display name; agent_id unchanged',
      description: 'Only a public agent that owns itself (no parent) can be renamed: 409 agent_not_renamable otherwise. Emits agent_renamed.',
      params: AgentIdParams,
      body: RenameBody,
      responses: { 200: { description: 'Renamed', schema: AgentDetail } },
      handler: ({ params, body }) => agentDetail(s, s.agents.rename(params.id, body.name)),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/control/agents/:id/repair',
      auth: 'control',
      tags,
      summary: 'Retry incomplete post-create bootstrap without recreating identity',
      description:
        'Runs the bootstrap steps still pending, in order: home_dir, template (files), workspace (binding), initial_message (the template\'s INITIAL_MESSAGE.md, enqueued once as an internal_followup from origin system/bootstrap). `completed` lists the steps this call finished, `pending` those still open, `error` why the first pending one failed. Emits agent_repaired when a step completed. The initial message is never sent twice: the step is recorded done in the transaction that enqueues it.',
      params: AgentIdParams,
      responses: { 200: { description: 'Bootstrap outcome', schema: RepairResponse } },
      handler: ({ params }) => {
        const r = s.agents.repair(params.id);
        return { ok: true, agent_id: params.id, completed: r.completed, pending: r.pending, error: r.error, agent: agentDetail(s, r.agent) };
      },
    }),
    defineRoute({
      method: 'DELETE',
      url: '/api/control/agents/:id',
      errors: { 409: ['default_agent_protected', 'private_children_exist', 'deletion_incomplete'] },
      bodyExample: { cascade_private_children: true },
      auth: 'control',
      tags,
      summary: 'Schedule asynchronous deletion; returns the deletion job',
      description:
        'Phases: stopping, purging_queue, purging_events, removing_files, finalizing. The default agent answers 409 default_agent_protected; an agent with private subagents needs cascade_private_children=true (else 409 private_children_exist).',
      params: AgentIdParams,
      query: DeleteQuery,
      body: DeleteBody,
      bodyOptional: true,
      responses: { 202: { description: 'Deletion scheduled', schema: DeletionResponse } },
      handler: ({ params, query, body, reply }) => {
        const before = s.deletion.latestJob(params.id);
        const job = s.deletion.request(params.id, { cascadePrivateChildren: query.cascade_private_children || body.cascade_private_children === true });
        reply.code(202);
        return { ok: true, job: { ...jobView(job), deletion_id: job.job_id }, created: job.job_id !== before?.job_id, identity: deletionIdentity(s, params.id) };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/control/agents/:id/delete-status',
      auth: 'control',
      tags,
      summary: 'Progress of the latest deletion job of the agent',
      params: AgentIdParams,
      responses: { 200: { description: 'Deletion job', schema: DeletionResponse } },
      handler: ({ params }) => {
        const job = s.deletion.latestJob(params.id);
        if (!job) {
          s.agents.get(params.id);
          throw errors.jobNotFound(`deletion of ${params.id}`, { agent_id: params.id });
        }
        return { ok: true, job: { ...jobView(job), deletion_id: job.job_id }, identity: deletionIdentity(s, params.id) };
      },
    }),
  ];
}

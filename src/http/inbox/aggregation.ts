/**
 * Aggregation policies (src/inbox/delivery/aggregation.ts): an agent's by PATCH /agents/{agentId},
 * a target's by PATCH /agents/{agentId}/targets/{targetId}; AgentInbox's inbox policy (digest
 * threads, src/inbox/entries/policy.ts) by `inbox policy show|set` (GET/POST
 * /agents/{agentId}/inbox/policy), which also take and show svc's.
 */
import type { Services } from '../../services.js';
import { defineRoute, type AnyRoute } from '../route.js';
import {
  AgentInboxPolicyBody,
  InboxAgent,
  InboxAgentParams,
  InboxPolicyView,
  PatchInboxAgentBody,
  PatchTargetBody,
  Target,
  TargetParams,
} from '../schemas/inbox/index.js';

const INBOX_POLICY =
  'The inbox policy decides what the agent reads: enabled (default false) groups related items of a grouping source (GitHub comments, reviews, ' +
  'CI runs of one resource) into a digest thread read as one digest_snapshot entry, snapshotted windowMs (default 30000) after its last item, ' +
  'at maxItems (default 20) unacknowledged items, or at once for a close; a thread older than maxThreadAgeMs (default 86400000) takes no more items.';

const POLICY_DESCRIPTION =
  'immediate: every commit of new entries is one notification, at once. coalesce {windowMs, maxEntries?}: the first new entry opens a window ' +
  '(never extended); the entries that arrive in it are one notification, sent when it closes or once maxEntries wait (default coalesce {windowMs: 250}). ' +
  'digest {every | cron, timezone?, maxEntries?}: no notification per entry; once per period one {type:"inbox.digest"} notification of the ' +
  'unacknowledged entries since the last digest: entryCount, sources (count per kind and source), the first maxEntries entries, since, scheduledFor; ' +
  'none when nothing is new. A target follows its own policy, else its agent\'s. 400 invalid_request / invalid_cron / invalid_timezone change nothing.';

export function inboxAggregationRoutes(s: Services): AnyRoute[] {
  const { agents, targets, aggregation, digests } = s.inbox;
  const view = (agentId: string) => aggregation.view(agentId, (targetId) => digests.scheduleOf(targetId));
  return [
    defineRoute({
      method: 'PATCH',
      url: '/agents/:agentId',
      bodyExample: { aggregation: { mode: 'coalesce', windowMs: 5000, maxEntries: 20 } },
      auth: 'control',
      tags: ['agents'],
      summary: "Set the agent's aggregation policy (null: the default)",
      description: `${POLICY_DESCRIPTION} The agent record shows aggregation while the agent has a policy of its own.`,
      params: InboxAgentParams,
      body: PatchInboxAgentBody,
      responses: { 200: { description: 'The agent', schema: InboxAgent } },
      handler: ({ params, body }) => {
        aggregation.setAgent(params.agentId, body.aggregation);
        return agents.get(params.agentId);
      },
    }),
    defineRoute({
      method: 'PATCH',
      url: '/agents/:agentId/targets/:targetId',
      bodyExample: { aggregation: { mode: 'immediate' } },
      auth: 'control',
      tags: ['targets'],
      summary: "Set a target's own aggregation policy (null: follow the agent's)",
      description: POLICY_DESCRIPTION,
      params: TargetParams,
      body: PatchTargetBody,
      responses: { 200: { description: 'The target', schema: Target } },
      handler: ({ params, body }) => {
        aggregation.setTarget(params.agentId, params.targetId, body.aggregation);
        return targets.get(params.agentId, params.targetId);
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/agents/:agentId/inbox/policy',
      auth: 'control',
      tags: ['agents'],
      summary: "The agent's inbox policy (AgentInbox's `inbox policy show`), with svc's notification policies of the agent and its targets beside",
      description: `${INBOX_POLICY} An agent that does not exist has the defaults.`,
      params: InboxAgentParams,
      responses: { 200: { description: 'The policy', schema: InboxPolicyView } },
      handler: ({ params }) => view(params.agentId),
    }),
    defineRoute({
      method: 'POST',
      url: '/agents/:agentId/inbox/policy',
      operationId: 'setAgentInboxPolicy',
      bodyExample: { enabled: true, windowMs: 30000, maxItems: 10 },
      auth: 'control',
      tags: ['agents'],
      summary: "Change the agent's inbox policy, AgentInbox's way (`inbox policy set`), or svc's notification policy with {aggregation}",
      description:
        `AgentInbox's {enabled?, windowMs?, maxItems?, maxThreadAgeMs?}: as AgentInbox, enabled keeps its value unless sent, and windowMs, maxItems, maxThreadAgeMs not sent go back to their defaults. ${INBOX_POLICY} ` +
        `{aggregation} sets svc's notification policy as PATCH /agents/{agentId} does: ${POLICY_DESCRIPTION} 404 agent_not_found for an unknown agent.`,
      params: InboxAgentParams,
      body: AgentInboxPolicyBody,
      bodyOptional: true,
      responses: { 200: { description: 'The policy', schema: InboxPolicyView } },
      handler: ({ params, body }) => {
        const { aggregation: policy, ...fields } = body;
        if (policy !== undefined) aggregation.setAgent(params.agentId, policy);
        else aggregation.setInboxPolicy(params.agentId, fields);
        return view(params.agentId);
      },
    }),
  ];
}

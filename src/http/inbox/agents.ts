/**
 * Inbox agents (spec/inbox.md Agents; docs/inbox-api.md#routes), also registered, listed and
 * shown AgentInbox's way (docs/agentinbox.md#agents-targets-subscriptions-and-timers).
 */
import type { z } from 'zod';
import type { Services } from '../../services.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { limitList } from '../schemas/index.js';
import { errors } from '../../core/index.js';
import type { TerminalRegistration } from '../../inbox/delivery/index.js';
import {
  AgentDetail,
  CreatedInboxAgent,
  CreateInboxAgentBody,
  InboxAgentDeleted,
  InboxAgentListing,
  InboxAgentListQuery,
  InboxAgentParams,
  registrationHint,
} from '../schemas/inbox/index.js';

export function inboxAgentRoutes(s: Services): AnyRoute[] {
  const { agents, registration, aggregation, agentViews, targets } = s.inbox;
  return [
    defineRoute({
      method: 'GET',
      url: '/agents',
      auth: 'control',
      tags: ['agents'],
      summary: 'Inbox agents, by id (with includeTargets: each with its targets, as AgentInbox clients list them)',
      query: InboxAgentListQuery,
      responses: { 200: { description: 'Agents', schema: InboxAgentListing } },
      handler: ({ query }) => {
        const list = limitList(agentViews.list(), query.limit);
        return { agents: query.includeTargets ? list.map((a) => ({ ...a, agent: a, activationTargets: targets.list(a.agentId) })) : list };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/agents',
      errors: { 400: ['terminal_backend_unsupported'], 409: ['registration_conflict'] },
      bodyExample: { name: 'reviewer' },
      auth: 'control',
      tags: ['agents'],
      summary: "Create an inbox agent (generated agt_ id), or register one AgentInbox's way (chosen agentId with a webhook target, or bound to a tmux pane)",
      description:
        'A webhook registration is idempotent: the same agentId and webhook URL again answer 200 with the same agent and target; a webhook URL the agent has no target for adds one; existing targets are never changed. ' +
        'A terminal registration {backend: "tmux", tmuxPaneId, …} binds the terminal to an agent (the given agentId, else the one it is bound to, else a new one) through a terminal target typing into that pane; ' +
        'moving a binding needs forceRebind (else 409 registration_conflict). A refused registration changes nothing.',
      body: CreateInboxAgentBody,
      bodyOptional: true,
      hint: registrationHint,
      responses: { 200: { description: 'Already registered', schema: CreatedInboxAgent }, 201: { description: 'Created', schema: CreatedInboxAgent } },
      handler: async ({ body, reply }) => {
        const r = await registration.register({
          agentId: body.agentId,
          name: body.name,
          webhookUrl: body.webhook?.url,
          activationMode: body.webhook?.activationMode,
          terminal: terminalRegistration(body),
          forceRebind: body.forceRebind,
          aggregation: aggregation.normalize(body.aggregation),
        });
        reply.code(r.created ? 201 : 200);
        // svc's own form {name?} answers the agent; a registration also gets AgentInbox's RegisterAgentResult fields.
        return body.agentId === undefined && body.webhook === undefined && body.backend === undefined ? agentViews.record(r.agent) : registration.answer(r);
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/agents/:agentId',
      auth: 'control',
      tags: ['agents'],
      summary: "One inbox agent with AgentInbox's details: its inbox, subscriptions, targets, dispatch states and entry counts (404 agent_not_found)",
      params: InboxAgentParams,
      responses: { 200: { description: 'Agent', schema: AgentDetail } },
      handler: ({ params }) => agentViews.details(params.agentId),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/agents/:agentId',
      auth: 'control',
      tags: ['agents'],
      summary: 'Delete an inbox agent with its subscriptions, entries, targets and timers',
      description: 'Open watch streams of the agent are closed.',
      params: InboxAgentParams,
      responses: { 200: { description: 'Deleted', schema: InboxAgentDeleted } },
      handler: ({ params }) => {
        agents.delete(params.agentId);
        return { agentId: params.agentId, deleted: true, removed: true };
      },
    }),

  ];
}

/** The terminal a registration body comes from, or undefined (the schema has checked the fields). */
function terminalRegistration(body: z.output<typeof CreateInboxAgentBody>): TerminalRegistration | undefined {
  if (body.backend === undefined) return undefined;
  if (body.backend !== 'tmux') throw errors.terminalBackendUnsupported(body.backend);
  return {
    tmuxPaneId: body.tmuxPaneId!,
    session: {
      backend: 'tmux',
      runtimeKind: body.runtimeKind ?? 'unknown',
      runtimeSessionId: body.runtimeSessionId ?? null,
      runtimePid: body.runtimePid ?? null,
      tty: body.tty ?? null,
      termProgram: body.termProgram ?? null,
      itermSessionId: body.itermSessionId ?? null,
    },
  };
}

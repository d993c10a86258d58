/**
 * Creating and listing inbox agents (spec/inbox.md Agents; CONTRACT.md section 9), in svc's form
 * and in AgentInbox's (an agent registered under a chosen id with its webhook, and listed with its
 * targets): requests take both; answers add AgentInbox's fields beside svc's.
 */
import { z } from 'zod';
import { ListLimit, QueryBool, withAliases } from './common.js';
import { CreatedTarget, Target, WebhookUrl } from './inbox-delivery.js';
import { InboxAgent } from './inbox-subscriptions.js';

const AgentRecord = InboxAgent.extend({
  status: z.literal('active').openapi({ description: 'always active: svc inbox agents have no offline state (see deliveryPaused and each target status)' }),
}).openapi('InboxAgentRecord', { description: "svc's agent with AgentInbox's status field" });

export const CreateInboxAgentBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200).nullable().optional(),
    agentId: z.string().min(1).max(64).optional().openapi({
      description: 'a chosen id (^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$, else 400 invalid_agent_id) instead of a generated agt_ id; an existing agent with it is returned unchanged (200)',
    }),
    forceRebind: z.boolean().optional().openapi({ description: "AgentInbox's terminal rebinding flag; accepted, no effect (svc registers no terminal sessions)" }),
    webhook: z
      .strictObject({
        url: WebhookUrl,
        activationMode: z.literal('activation_with_items').optional().openapi({ description: 'the only mode svc has: notifications carry the entries' }),
      })
      .optional()
      .openapi({ description: 'a webhook target for this URL, created unless the agent has one for exactly this URL (existing targets are never changed)' }),
  })
  .openapi('CreateInboxAgentBody', {
    description: "{name?} creates an agent with a generated id (201). AgentInbox's registration {agentId, forceRebind?, webhook?: {url}} creates the agent (201) or returns it (200), and its webhook target.",
  });

const TERMINAL_FIELDS = /\b(backend|runtimeKind|runtimeSessionId|runtimePid|tmuxPaneId|tty|termProgram|itermSessionId|notifyLeaseMs|minUnackedItems)\b/;

/** AgentInbox's terminal-session registration and notification policies are not svc's: say what to do instead. */
export function registrationHint(issues: Array<{ path: string; message: string }>): string | undefined {
  if (!issues.some((i) => TERMINAL_FIELDS.test(i.path) || TERMINAL_FIELDS.test(i.message))) return undefined;
  return 'svc registers no terminal sessions and has no per-target notification policies: register {agentId, webhook: {url}}, or add a terminal target with POST /agents/{agentId}/targets {kind: "terminal", tmuxTarget}';
}

export const CreatedInboxAgent = InboxAgent.extend({
  agent: AgentRecord.optional(),
  webhookTarget: CreatedTarget.nullable().optional().openapi({ description: 'the webhook target of the registration; its secret only when it was created by this request' }),
  terminalTarget: z.null().optional(),
  activationChannel: z.enum(['webhook']).nullable().optional(),
}).openapi('CreatedInboxAgent', {
  description: "svc's agent; a registration (a body with agentId or webhook) adds AgentInbox's fields agent, webhookTarget, terminalTarget (always null) and activationChannel.",
});

export const InboxAgentListQuery = withAliases(
  {
    includeTargets: QueryBool.optional().openapi({ description: 'each agent also as {agent, activationTargets}, the form AgentInbox clients read' }),
    limit: ListLimit,
  },
  { include_targets: 'includeTargets' },
);

export const InboxAgentListing = z
  .object({
    agents: z.array(
      InboxAgent.extend({
        agent: AgentRecord.optional(),
        activationTargets: z.array(Target).optional(),
      }),
    ),
  })
  .openapi('InboxAgentList', { description: 'With includeTargets each agent also has agent (the record with status) and activationTargets.' });

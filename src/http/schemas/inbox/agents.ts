/**
 * Creating and listing inbox agents (spec/inbox.md Agents; docs/inbox-api.md#routes), in svc's form
 * and in AgentInbox's (an agent registered under a chosen id with its webhook, or from inside a
 * tmux pane, and listed with its targets): requests take both; answers add AgentInbox's fields
 * beside svc's.
 */
import { z } from 'zod';
import { ListLimit, QueryBool, withAliases } from '../common.js';
import { AggregationPolicyBody } from './aggregation.js';
import { ActivationModeField, CreatedTarget, Target, WebhookUrl } from './delivery.js';
import { Consumer, InboxAgent, Subscription, SubscriptionLag } from './subscriptions.js';
import { Source } from './sources.js';
import { TMUX_PANE_ID } from '../../../inbox/delivery/index.js';

/** AgentInbox's Inbox record: one per agent, its aggregation fields the agent's own policy (false/null: none set). */
export const InboxRecord = z
  .object({
    inboxId: z.string().openapi({ description: "derived from the agent id (its SHA-256): inb_ + 12 characters of AgentInbox's id alphabet" }),
    ownerAgentId: z.string(),
    aggregationEnabled: z.boolean(),
    aggregationWindowMs: z.number().int().nullable(),
    aggregationMaxItems: z.number().int().nullable(),
    aggregationMaxThreadAgeMs: z.number().int().nullable(),
    createdAt: z.string(),
  })
  .openapi('InboxRecord');

export const ItemCounts = z
  .object({ total: z.number().int(), unacked: z.number().int(), acked: z.number().int() })
  .openapi('InboxItemCounts', { description: "the agent's inbox items (digest snapshots not counted)" });

export const DispatchState = z
  .object({
    agentId: z.string(),
    targetId: z.string(),
    status: z.enum(['notified', 'dirty']).openapi({ description: 'dirty while new entries wait for the lease to end or an acknowledgement' }),
    leaseExpiresAt: z.string().openapi({ description: 'when the notify lease ends (delivery.notify_lease_ms after the last notification)' }),
    lastNotifiedFingerprint: z.null(),
    deferReason: z.null(),
    deferAttempts: z.literal(0),
    firstDeferredAt: z.null(),
    lastDeferredAt: z.null(),
    pendingFingerprint: z.null(),
    pendingNewItemCount: z.number().int().openapi({ description: 'entries waiting (counted up to 500)' }),
    pendingSummary: z.string().nullable().openapi({ description: 'the summary of the newest entry waiting' }),
    pendingSubscriptionIds: z.array(z.string()),
    pendingSourceIds: z.array(z.string()),
    updatedAt: z.string().openapi({ description: 'when the lease started' }),
  })
  .openapi('ActivationDispatchState', {
    description: "AgentInbox's dispatch state of a webhook or terminal target under its notify lease (docs/inbox-api.md#notify-lease); gone once every entry is acknowledged",
  });

/** AgentInbox's details of an agent's inbox: `agent show` and `inbox show` both answer them. */
const AgentInboxDetails = {
  agent: InboxAgent,
  inbox: InboxRecord,
  subscriptions: z.array(Subscription),
  activationTargets: z.array(Target),
  activationDispatchStates: z.array(DispatchState),
  itemCounts: ItemCounts,
};

export const AgentDetail = InboxAgent.extend(AgentInboxDetails).openapi('InboxAgentDetail', { description: "AgentInbox's agent details {agent, inbox, subscriptions, activationTargets, activationDispatchStates, itemCounts}, svc's agent fields beside" });

export const InboxDetails = z
  .object({
    ...AgentInboxDetails,
    agentId: z.string(),
    unackedCount: z.number().int().openapi({ description: 'svc: unacknowledged items' }),
    latestEntryId: z.string().nullable(),
    deliveryPaused: z.boolean(),
  })
  .openapi('InboxDetails', { description: "AgentInbox's `inbox show` {agent, inbox, subscriptions, activationTargets, activationDispatchStates, itemCounts}, svc's summary beside" });

export const SubscriptionDetail = Subscription.extend({
  subscription: Subscription,
  source: Source,
  inbox: InboxRecord,
  activationTargets: z.array(Target),
  consumer: Consumer,
  lag: SubscriptionLag,
}).openapi('SubscriptionDetail', { description: "AgentInbox's subscription details {subscription, source, inbox, activationTargets, consumer, lag}, svc's subscription fields beside" });

/** Text that is stored and shown, never run: printable, bounded. */
const Printable = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u001f\u007f]+$/, 'must be printable text (no control characters)');

/** The fields AgentInbox's client sends from inside a terminal (src/terminal.ts detectTerminalContext). */
const TERMINAL_SHAPE = {
  backend: z.enum(['tmux', 'iterm2']).optional().openapi({ description: 'a registration from inside a terminal; svc serves tmux (iterm2: 400 terminal_backend_unsupported)' }),
  tmuxPaneId: z
    .string()
    .regex(TMUX_PANE_ID, 'must be a tmux pane id: % followed by digits, e.g. %3')
    .optional()
    .openapi({ description: "the pane ($TMUX_PANE) the terminal target types into, on the daemon's tmux server" }),
  runtimeKind: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,31}$/, 'must be a lowercase name such as codex, claude_code or unknown')
    .optional()
    .openapi({ description: 'codex, claude_code or unknown (default)' }),
  runtimeSessionId: Printable(200).optional().openapi({ description: 'the runtime session (a Codex thread, a Claude Code session): the terminal identity, followed across panes' }),
  runtimePid: z.number().int().min(1).max(2 ** 31 - 1).optional(),
  tty: z
    .string()
    .regex(/^\/dev\/[A-Za-z0-9._/-]{1,64}$/, 'must be a device path such as /dev/pts/3')
    .optional(),
  termProgram: Printable(100).optional(),
  itermSessionId: Printable(200).optional(),
};
const TERMINAL_FIELDS = Object.keys(TERMINAL_SHAPE).filter((k) => k !== 'backend');

export const CreateInboxAgentBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200).nullable().optional(),
    agentId: z.string().min(1).max(64).optional().openapi({
      description: 'a chosen id (^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$, else 400 invalid_agent_id) instead of a generated agt_ id; an existing agent with it is returned unchanged (200)',
    }),
    forceRebind: z.boolean().optional().openapi({
      description: 'terminal registration: move the binding when this terminal is bound to another agent, or this agent to another terminal (else 409 registration_conflict)',
    }),
    webhook: z
      .strictObject({
        url: WebhookUrl,
        activationMode: ActivationModeField,
      })
      .optional()
      .openapi({ description: 'a webhook target for this URL, created unless the agent has one for exactly this URL (existing targets are never changed)' }),
    aggregation: AggregationPolicyBody.optional().openapi({ description: "the new agent's aggregation policy (an existing agent keeps its own: PATCH /agents/{agentId})" }),
    ...TERMINAL_SHAPE,
  })
  .superRefine((b, ctx) => {
    if (b.backend !== undefined && b.webhook !== undefined) ctx.addIssue({ code: 'custom', path: ['webhook'], message: 'send either backend (a terminal registration) or webhook, not both' });
    if (b.backend === 'tmux' && b.tmuxPaneId === undefined) ctx.addIssue({ code: 'custom', path: ['tmuxPaneId'], message: 'required with backend "tmux"' });
    if (b.backend === undefined) {
      for (const k of TERMINAL_FIELDS) if (b[k as keyof typeof b] !== undefined) ctx.addIssue({ code: 'custom', path: [k], message: 'a terminal field: send it with backend' });
    }
  })
  .openapi('CreateInboxAgentBody', {
    description:
      "{name?} creates an agent with a generated id (201). AgentInbox's registrations create the agent (201) or return it (200): {agentId, forceRebind?, webhook: {url}} with its webhook target; {backend: \"tmux\", tmuxPaneId, runtimeKind?, runtimeSessionId?, …, agentId?, forceRebind?} bound to that terminal through a terminal target.",
  });

const POLICY_FIELDS = /\b(notifyLeaseMs|minUnackedItems)\b/;

/** AgentInbox's per-target notification policies are not svc's: say what to do instead. */
export function registrationHint(issues: Array<{ path: string; message: string }>): string | undefined {
  if (!issues.some((i) => POLICY_FIELDS.test(i.path) || POLICY_FIELDS.test(i.message))) return undefined;
  return 'svc takes no per-target notification policies (notifyLeaseMs, minUnackedItems): leave them out; every webhook and terminal target has the daemon\'s notify lease (delivery.notify_lease_ms), and an aggregation policy gathers the entries of a notification (PATCH /agents/{agentId} {aggregation})';
}

export const CreatedInboxAgent = InboxAgent.extend({
  agent: InboxAgent.optional(),
  webhookTarget: CreatedTarget.nullable().optional().openapi({ description: 'the webhook target of the registration; its secret only when it was created by this request' }),
  terminalTarget: Target.nullable().optional().openapi({ description: 'the terminal target bound to the registering terminal' }),
  activationChannel: z.enum(['webhook', 'terminal']).nullable().optional(),
  inbox: InboxRecord.optional(),
}).openapi('CreatedInboxAgent', {
  description: "svc's agent; a registration (a body with agentId, webhook or backend) adds AgentInbox's fields agent, webhookTarget, terminalTarget, activationChannel and inbox.",
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
        agent: InboxAgent.optional(),
        activationTargets: z.array(Target).optional(),
      }),
    ),
  })
  .openapi('InboxAgentList', { description: 'With includeTargets each agent also has agent (the record with status) and activationTargets.' });

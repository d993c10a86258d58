/**
 * Targets, delivery pause/resume, inbox timers and gc (spec/inbox.md Targets, Agents, Timers, Meta;
 * docs/inbox-api.md#delivery).
 */
import { z } from 'zod';
import { AGENT_ID_PATTERN } from '../../../core/index.js';
import { ACTIVATION_MODES, TARGET_KINDS, TARGET_STATUSES } from '../../../inbox/delivery/index.js';
import { MIN_EVERY_MS, SCHEDULE_KINDS, SCHEDULE_STATUSES } from '../../../inbox/entries/index.js';
import { ListLimit, withAliases } from '../common.js';
import { AggregationPolicy, AggregationPolicyBody } from './aggregation.js';
import { InboxAgent } from './subscriptions.js';

// --- targets ---------------------------------------------------------------------------------

export const TargetParams = z.object({
  agentId: z.string().min(1).openapi({ example: 'agt_01J0000000000000000000000' }),
  targetId: z.string().min(1).openapi({ example: 'tgt_01J0000000000000000000000' }),
});

/** Where a webhook target posts: the one rule for webhook URLs (targets and agent registration). */
export const WebhookUrl = z.url({ protocol: /^https?$/ }).openapi({ description: 'http(s) URL that receives the signed POST' });

/** AgentInbox's activation mode of a webhook target (registration and target creation). */
export const ActivationModeField = z
  .enum(ACTIVATION_MODES)
  .optional()
  .openapi({ description: "AgentInbox's activation mode, recorded and shown as the target's mode (default activation_only); svc's notifications list the entries in either mode" });

const WebhookTargetBody = z.strictObject({
  kind: z.literal('webhook'),
  url: WebhookUrl,
  activationMode: ActivationModeField,
  secret: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/]{16,}={0,2}$/, 'must be whsec_ followed by base64 (at least 12 bytes)')
    .optional()
    .openapi({ description: 'Standard Webhooks signing secret; generated when absent and returned once, in this answer only' }),
  aggregation: AggregationPolicyBody.optional(),
});
const TerminalTargetBody = z.strictObject({
  kind: z.literal('terminal'),
  tmuxTarget: z.string().min(1).max(200).openapi({ description: 'tmux target pane, e.g. `work:0.1` or `%3`' }),
  tmuxSocket: z.string().min(1).max(1000).optional().openapi({ description: 'tmux server socket path (`tmux -S`); default: the default server' }),
  aggregation: AggregationPolicyBody.optional(),
});
const RuntimeTargetBody = z.strictObject({
  kind: z.literal('runtime'),
  runtimeAgentId: z.string().regex(AGENT_ID_PATTERN, 'must be a control-plane agent id').openapi({ description: 'control-plane agent whose queue receives the notification' }),
  aggregation: AggregationPolicyBody.optional(),
});

export const CreateTargetBody = z
  .discriminatedUnion('kind', [WebhookTargetBody, TerminalTargetBody, RuntimeTargetBody])
  .openapi('CreateTargetBody', {
    description:
      'webhook {url, secret?}, terminal {tmuxTarget, tmuxSocket?} or runtime {runtimeAgentId}, each with an optional aggregation policy of its own (default: the agent\'s). A runtime target naming an unknown control-plane agent: 400 runtime_agent_not_found.',
  });

export const Target = z
  .object({
    targetId: z.string(),
    agentId: z.string(),
    kind: z.enum(TARGET_KINDS),
    url: z.string().nullable(),
    tmuxTarget: z.string().nullable(),
    tmuxSocket: z.string().nullable(),
    runtimeAgentId: z.string().nullable(),
    backend: z.enum(['tmux']).nullable().openapi({ description: 'AgentInbox terminal fields, which its client matches to find the current agent: tmux for every terminal target' }),
    tmuxPaneId: z.string().nullable().openapi({ description: "the pane when tmuxTarget is a pane id (%N) of the daemon's tmux server (no tmuxSocket)" }),
    runtimeKind: z.string().nullable().openapi({ description: 'a terminal registration: the runtime in the terminal (codex, claude_code, unknown); null for targets added by hand' }),
    runtimeSessionId: z.string().nullable(),
    runtimePid: z.number().int().nullable(),
    tty: z.string().nullable(),
    termProgram: z.string().nullable(),
    itermSessionId: z.string().nullable(),
    status: z.enum(TARGET_STATUSES).openapi({ description: 'offline after a 410 or delivery.max_failures consecutive failures; no attempts until resumed' }),
    offlineReason: z.string().nullable().openapi({ description: "`gone` (410, the runtime agent was deleted, or the terminal's pane or registered runtime is gone) or `max_failures`" }),
    consecutiveFailures: z.number().int(),
    lastError: z.string().nullable(),
    notifiedThroughEntryId: z.string().nullable().openapi({ description: 'highest entry id in a delivered notification' }),
    lastAttemptAt: z.string().nullable(),
    lastSuccessAt: z.string().nullable(),
    aggregation: AggregationPolicy.nullable().openapi({ description: "the target's own aggregation policy; null: it follows the agent's (GET /agents/{agentId}/inbox/policy shows the effective one)" }),
    createdAt: z.string(),
    updatedAt: z.string(),
    offlineSince: z.string().nullable().openapi({ description: "AgentInbox's field: when it went offline (its last change since); null while active" }),
    lastDeliveredAt: z.string().nullable().openapi({ description: '= lastSuccessAt' }),
    mode: z.enum([...ACTIVATION_MODES, 'agent_prompt']).openapi({ description: "a webhook's activation mode as created (default activation_only); activation_with_items for a runtime target; agent_prompt for a terminal" }),
    notifyLeaseMs: z.number().int().openapi({ description: 'the notify lease of every webhook and terminal target (delivery.notify_lease_ms; 600000, AgentInbox\'s default; 0: none): docs/inbox-api.md#notify-lease' }),
    minUnackedItems: z.null(),
    notificationPolicy: z.object({ notifyLeaseMs: z.number().int(), minUnackedItems: z.null() }),
    lastSeenAt: z.string().openapi({ description: '= updatedAt' }),
  })
  .openapi('Target', { description: "An activation target, with AgentInbox's ActivationTarget fields. Webhook secrets never appear here (only in the creation answer)." });

export const CreatedTarget = Target.extend({
  secret: z.string().optional().openapi({ description: 'webhook targets: the signing secret, shown this once' }),
}).openapi('CreatedTarget');

export const TargetList = z.object({ targets: z.array(Target) }).openapi('TargetList');

export const TargetListQuery = z.strictObject({ limit: ListLimit });

export const TargetDeleted = z
  .object({ targetId: z.string(), deleted: z.literal(true), removed: z.literal(true).openapi({ description: "AgentInbox's answer" }) })
  .openapi('TargetDeleted');

/** One target in a resume answer (AgentInbox's ResumeActivationTargetResult). */
const TargetResumeOutcome = z
  .object({
    targetId: z.string(),
    resumed: z.boolean(),
    status: z.enum(TARGET_STATUSES),
    reason: z.string().openapi({
      description: 'already_active; webhook_resumed, terminal_resumed or runtime_resumed (recovered: svc does not probe, the next attempt tells); delivery_only (kept offline by deliveryOnly)',
    }),
  })
  .openapi('TargetResumeOutcome');

const NotificationSummary = z
  .object({ notificationId: z.string(), targetId: z.string(), reason: z.enum(['entries', 'catch_up']), entryCount: z.number().int() })
  .openapi('NotificationSummary');

export const TargetResumeResult = Target.extend({
  recovered: z.boolean().openapi({ description: 'the target was offline and is active again' }),
  catchUp: z.array(NotificationSummary).openapi({ description: 'catch-up notification queued (only while the agent is not paused)' }),
  resumed: z.boolean().openapi({ description: "AgentInbox's field: = recovered" }),
  reason: TargetResumeOutcome.shape.reason,
}).openapi('TargetResumeResult');

// --- agent delivery pause ----------------------------------------------------------------------

export const EmptyBody = z.strictObject({}).openapi('DeliveryPauseBody');

export const ResumeBody = z
  .strictObject({
    deliveryOnly: z.boolean().optional().openapi({
      description:
        'true: clear the pause and catch up once per active target, keeping offline targets and backoff; false or absent: also recover every offline target',
    }),
  })
  .openapi('DeliveryResumeBody');

export const ResumeResult = InboxAgent.extend({
  recoveredTargets: z.array(z.string()),
  catchUp: z.array(NotificationSummary),
  resumed: z.boolean().openapi({ description: "AgentInbox's field: a target was recovered" }),
  agent: InboxAgent,
  targets: z.array(TargetResumeOutcome).openapi({ description: 'every target of the agent, with what the resume did to it' }),
}).openapi('DeliveryResumeResult', { description: "the agent with what the resume did, and AgentInbox's ResumeAgentResult {resumed, agent, targets}" });

// --- timers ----------------------------------------------------------------------------------

export const ScheduleParams = z.object({ scheduleId: z.string().min(1).openapi({ example: 'sch_01J0000000000000000000000' }) });

export const CreateInboxTimerBody = z
  .strictObject({
    agentId: z.string().min(1),
    at: z.iso.datetime({ offset: true }).optional().openapi({ description: 'one occurrence at this instant (ISO 8601 with offset)' }),
    every: z.number().int().min(MIN_EVERY_MS).max(1e12).optional().openapi({ description: `period in milliseconds (at least ${MIN_EVERY_MS})` }),
    cron: z.string().min(1).max(200).optional().openapi({ description: '5-field cron expression, evaluated in `timezone`; invalid: 400 invalid_cron' }),
    timezone: z.string().min(1).max(100).optional().openapi({ description: 'IANA time zone (default: the daemon host zone); invalid: 400 invalid_timezone' }),
    message: z.string().min(1).max(100_000),
    sender: z.string().min(1).max(200).nullable().optional(),
  })
  .refine((b) => [b.at, b.every, b.cron].filter((v) => v !== undefined).length === 1, {
    message: 'send exactly one of at, every, cron',
  })
  .openapi('CreateInboxTimerBody');

const TimerFields = {
  scheduleId: z.string(),
  agentId: z.string(),
  status: z.enum(['active', 'paused']).openapi({ description: "AgentInbox's status: a timer that will never fire again (state completed) is paused" }),
  mode: z.enum(SCHEDULE_KINDS),
  at: z.string().nullable(),
  intervalMs: z.number().int().nullable(),
  cronExpr: z.string().nullable(),
  timezone: z.string(),
  message: z.string(),
  sender: z.string().nullable().openapi({ description: 'default "timer"' }),
  nextFireAt: z.string().nullable(),
  lastFiredAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  state: z.enum(SCHEDULE_STATUSES).openapi({ description: "svc's state: active, paused or completed" }),
  kind: z.enum(SCHEDULE_KINDS).openapi({ description: '= mode' }),
  every: z.number().int().nullable().openapi({ description: '= intervalMs' }),
  cron: z.string().nullable().openapi({ description: '= cronExpr' }),
  fireCount: z.number().int(),
};

export const InboxTimer = z.object(TimerFields).openapi('InboxTimer', { description: "AgentInbox's AgentTimer with svc's fields beside" });

export const InboxTimerUpdate = z
  .object({ ...TimerFields, updated: z.boolean().openapi({ description: 'the status changed' }), timer: InboxTimer })
  .openapi('InboxTimerUpdate', { description: "the timer, and AgentInbox's {updated, timer}" });

export const InboxTimerList = z.object({ timers: z.array(InboxTimer) }).openapi('InboxTimerList');

export const InboxTimerListQuery = withAliases(
  { agentId: z.string().min(1).optional(), status: z.enum(SCHEDULE_STATUSES).optional().openapi({ description: 'only timers in this state' }), limit: ListLimit },
  { agent_id: 'agentId' },
);

export const InboxTimerDeleted = z
  .object({ scheduleId: z.string(), deleted: z.literal(true), removed: z.literal(true).openapi({ description: "AgentInbox's answer" }) })
  .openapi('InboxTimerDeleted');

// --- gc --------------------------------------------------------------------------------------

export const GcResult = z
  .object({
    removed: z.record(z.string(), z.number().int()).openapi({
      description:
        'what housekeeping removed, by kind: subscriptionsRemoved (cleanup time passed), agentsRemoved and openedInboxesClosed (offline and unseen past inbox.offline_agent_ttl_ms), ackedEntriesRemoved (items acknowledged more than retention.ackedEntriesMs ago; AgentInbox\'s deleted), notificationsRemoved (sent or failed, older than retention.notificationsMs)',
    }),
    durationMs: z.number(),
    retention: z.object({ ackedEntriesMs: z.number().int(), notificationsMs: z.number().int() }),
    deleted: z.number().int().openapi({ description: "AgentInbox's field: acknowledged entries removed (= removed.ackedEntriesRemoved)" }),
    retentionMs: z.number().int().openapi({ description: '= retention.ackedEntriesMs' }),
    removedAgents: z.number().int().openapi({ description: 'agents removed for being offline and unseen past inbox.offline_agent_ttl_ms (= removed.agentsRemoved)' }),
    removedSubscriptions: z.number().int().openapi({ description: '= removed.subscriptionsRemoved' }),
  })
  .openapi('GcResult', { description: "svc's counts by kind, with AgentInbox's {deleted, retentionMs, removedAgents, removedSubscriptions}" });

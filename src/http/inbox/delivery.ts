/** Targets, agent delivery pause/resume, timers and gc (spec/inbox.md Targets, Agents pause/resume, Timers, Meta gc). */
import type { GcReport, TimerUpdate } from '../../inbox/entries/index.js';
import type { Services } from '../../services.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { limitList } from '../schemas/index.js';
import {
  CreatedTarget,
  CreateInboxTimerBody,
  CreateTargetBody,
  EmptyBody,
  GcResult,
  InboxAgent,
  InboxAgentParams,
  InboxTimer,
  InboxTimerDeleted,
  InboxTimerUpdate,
  InboxTimerList,
  InboxTimerListQuery,
  ResumeBody,
  ResumeResult,
  ScheduleParams,
  TargetDeleted,
  TargetList,
  TargetListQuery,
  TargetParams,
  TargetResumeResult,
} from '../schemas/inbox/index.js';

export function inboxDeliveryRoutes(s: Services): AnyRoute[] {
  const { targets, delivery, timers, aggregation, agentViews } = s.inbox;
  return [
    // --- targets -------------------------------------------------------------------------------
    defineRoute({
      method: 'GET',
      url: '/agents/:agentId/targets',
      auth: 'control',
      tags: ['targets'],
      summary: "The agent's activation targets (never their secrets)",
      params: InboxAgentParams,
      query: TargetListQuery,
      responses: { 200: { description: 'Targets', schema: TargetList } },
      handler: ({ params, query }) => ({ targets: limitList(targets.list(params.agentId), query.limit) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/agents/:agentId/targets',
      errors: { 400: ['runtime_agent_not_found', 'terminal_backend_unsupported'] },
      bodyExample: { kind: 'runtime', runtimeAgentId: 'main' },
      auth: 'control',
      tags: ['targets'],
      summary: 'Add an activation target: webhook, terminal (tmux pane) or runtime (control-plane agent queue)',
      description:
        'Notifications (under the default aggregation policy, coalesce 250 ms; see PATCH /agents/{agentId}): entries arriving within 250 ms become one notification per target, a JSON body ' +
        'with AgentInbox\'s activation fields `{kind:"agentinbox.activation", activationId, agentId, inboxId, targetId, targetKind, subscriptionIds, sourceIds, latestEntryId, ' +
        'newEntryCount, newItemCount, summary, items (webhooks), createdAt, deliveredAt}` beside svc\'s ' +
        '`{type:"inbox.entries", notificationId, reason, entryCount, firstEntryId, lastEntryId, truncated, entries, latestSummary}` ' +
        '(at most 50 entries listed; `entryCount` counts all). Webhooks are signed with the Standard Webhooks scheme ' +
        '(`webhook-id` = notificationId, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`); the secret is returned once, here. ' +
        'Terminal targets get AgentInbox\'s line typed into the tmux pane, then Enter, once its runtime gate finds the pane idle (a busy pane waits; a gone one takes the target offline). Runtime targets get a webhook_event ' +
        'with origin {kind:"webhook", source:"inbox"} in the control-plane agent queue. A new target is notified of entries created after it.',
      params: InboxAgentParams,
      body: CreateTargetBody,
      responses: { 201: { description: 'Created (webhook: with its secret, shown once)', schema: CreatedTarget } },
      handler: ({ params, body, reply }) => {
        reply.code(201);
        return targets.create(params.agentId, { ...body, aggregation: aggregation.normalize(body.aggregation) });
      },
    }),
    defineRoute({
      method: 'DELETE',
      url: '/agents/:agentId/targets/:targetId',
      auth: 'control',
      tags: ['targets'],
      summary: 'Remove a target and its pending notifications',
      params: TargetParams,
      responses: { 200: { description: 'Deleted', schema: TargetDeleted } },
      handler: ({ params }) => {
        targets.delete(params.agentId, params.targetId);
        return { targetId: params.targetId, deleted: true, removed: true };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/agents/:agentId/targets/:targetId/resume',
      bodyExample: {},
      auth: 'control',
      tags: ['targets'],
      summary: 'Recover one target: offline -> active, backoff reset; never clears the agent delivery pause',
      description: 'While the agent is not paused, also queues one catch-up notification of the entries this target was never notified of.',
      params: TargetParams,
      body: EmptyBody,
      bodyOptional: true,
      responses: { 200: { description: 'The target', schema: TargetResumeResult } },
      handler: async ({ params }) => agentViews.targetResumeAnswer(await delivery.resumeTarget(params.agentId, params.targetId)),
    }),
    // --- agent delivery pause --------------------------------------------------------------------
    defineRoute({
      method: 'POST',
      url: '/agents/:agentId/pause',
      bodyExample: {},
      auth: 'control',
      tags: ['agents'],
      summary: 'Pause proactive delivery (persisted): no notification, retry, timer or catch-up goes out; entries keep arriving',
      params: InboxAgentParams,
      body: EmptyBody,
      bodyOptional: true,
      responses: { 200: { description: 'The agent', schema: InboxAgent } },
      handler: async ({ params }) => agentViews.record(await delivery.pause(params.agentId)),
    }),
    defineRoute({
      method: 'POST',
      url: '/agents/:agentId/resume',
      bodyExample: { deliveryOnly: true },
      auth: 'control',
      tags: ['agents'],
      summary: 'Resume delivery: `{deliveryOnly:true}` catches up active targets only; `{}` also recovers offline targets',
      description:
        'deliveryOnly true: in one transaction, one catch-up notification per active target listing the unacknowledged entries it was never ' +
        'notified of is persisted, then the pause is cleared; offline targets and pending backoff are kept; no entries are created; repeated calls ' +
        'queue nothing already notified and retry due pending notifications. Absent body, `{}` or deliveryOnly false: every offline target is ' +
        'recovered (backoff reset), then the same catch-up, and the pause is cleared, whether or not the agent was paused. Resumes of one agent run one at a time.',
      params: InboxAgentParams,
      body: ResumeBody,
      bodyOptional: true,
      responses: { 200: { description: 'The agent, with what the resume did', schema: ResumeResult } },
      handler: async ({ params, body }) => agentViews.resumeAnswer(await delivery.resume(params.agentId, { deliveryOnly: body.deliveryOnly })),
    }),
    // --- timers ----------------------------------------------------------------------------------
    defineRoute({
      method: 'GET',
      url: '/timers',
      auth: 'control',
      tags: ['timers'],
      summary: 'Inbox timers, oldest first',
      query: InboxTimerListQuery,
      responses: { 200: { description: 'Timers', schema: InboxTimerList } },
      handler: ({ query: { limit, ...filter } }) => ({ timers: limitList(timers.list(filter), limit) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/timers',
      errors: { 400: ['invalid_timezone', 'invalid_cron'] },
      bodyExample: { agentId: 'agt_01JB8Y5N3P0G1XQ2E7R9D4V6KT', cron: '0 9 * * 1-5', timezone: 'Europe/Berlin', message: 'Daily stand-up notes' },
      auth: 'control',
      tags: ['timers'],
      summary: 'Create an inbox timer (at | every | cron) that puts a reminder entry in the agent inbox per occurrence',
      description:
        'Exactly one of at, every (>= 1000 ms), cron (5 fields, evaluated in `timezone`, default the daemon host zone, across DST changes). ' +
        'Each occurrence creates exactly one entry `{kind:"timer", sender, message, scheduleId}`. A timer overdue at start (or resumed late) fires once ' +
        'for all missed occurrences, then continues with the next future one. 400 invalid_timezone, 400 invalid_cron.',
      body: CreateInboxTimerBody,
      responses: { 201: { description: 'Created', schema: InboxTimer } },
      handler: ({ body, reply }) => {
        reply.code(201);
        return timers.create(body);
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/timers/:scheduleId/pause',
      errors: { 409: ['timer_completed'] },
      bodyExample: {},
      auth: 'control',
      tags: ['timers'],
      summary: 'Pause a timer (no occurrences fire); a completed timer: 409 timer_completed',
      params: ScheduleParams,
      body: EmptyBody,
      bodyOptional: true,
      responses: { 200: { description: 'The timer, and whether its status changed', schema: InboxTimerUpdate } },
      handler: ({ params }) => timerUpdate(timers.pause(params.scheduleId)),
    }),
    defineRoute({
      method: 'POST',
      url: '/timers/:scheduleId/resume',
      bodyExample: {},
      auth: 'control',
      tags: ['timers'],
      summary: 'Resume a paused timer at its next occurrence after now (a past `at` fires once now)',
      params: ScheduleParams,
      body: EmptyBody,
      bodyOptional: true,
      responses: { 200: { description: 'The timer, and whether its status changed', schema: InboxTimerUpdate } },
      handler: ({ params }) => timerUpdate(timers.resume(params.scheduleId)),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/timers/:scheduleId',
      auth: 'control',
      tags: ['timers'],
      summary: 'Delete a timer',
      params: ScheduleParams,
      responses: { 200: { description: 'Deleted', schema: InboxTimerDeleted } },
      handler: ({ params }) => {
        timers.delete(params.scheduleId);
        return { scheduleId: params.scheduleId, deleted: true, removed: true };
      },
    }),
    // --- gc --------------------------------------------------------------------------------------
    defineRoute({
      method: 'POST',
      url: '/gc',
      operationId: 'runGc',
      bodyExample: {},
      auth: 'control',
      tags: ['meta'],
      summary: 'Run housekeeping now and report what was removed: expired subscriptions, agents offline and unseen too long, old or orphaned acknowledged entries, old notifications',
      body: EmptyBody,
      bodyOptional: true,
      responses: { 200: { description: 'Counts', schema: GcResult } },
      handler: () => gcAnswer(s.inbox.gc()),
    }),
  ];
}

/** A pause or resume: the timer, and AgentInbox's {updated, timer}. */
function timerUpdate(u: TimerUpdate) {
  return { ...u.timer, updated: u.updated, timer: u.timer };
}

/** svc's counts by kind, with AgentInbox's fields. */
function gcAnswer(r: GcReport & { retention: { ackedEntriesMs: number; notificationsMs: number } }) {
  return {
    ...r,
    deleted: r.removed.ackedEntriesRemoved ?? 0,
    retentionMs: r.retention.ackedEntriesMs,
    removedAgents: r.removed.agentsRemoved ?? 0,
    removedSubscriptions: r.removed.subscriptionsRemoved ?? 0,
  };
}

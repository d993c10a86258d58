/** Inbox service meta routes (spec/inbox.md "Meta"). */
import { z } from 'zod';
import { isoAt } from '../../core/index.js';
import type { Services } from '../../services.js';
import { VERSION } from '../../version.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { Consumer, DispatchState, InboxAgent, InboxRecord, Source, Subscription, Target } from '../schemas/inbox/index.js';

const tags = ['meta'];

const Health = z.object({ ok: z.literal(true), status: z.literal('ok') }).openapi('Health');
const Count = z.number().int();
const InboxStatus = z
  .object({
    ok: z.literal(true),
    service: z.literal('svc-inbox'),
    version: z.string(),
    pid: z.number().int(),
    startedAt: z.string(),
    uptimeSeconds: z.number(),
    socket: z.string(),
    port: z.number().int().nullable(),
    retention: z.object({
      ackedInboxItemsMs: Count.openapi({ description: 'acknowledged entries are kept this long' }),
      gcIntervalMs: Count.openapi({ description: 'housekeeping runs this often (and on POST /gc)' }),
      lastAckedInboxGcAt: z.string().nullable(),
    }),
    counts: z
      .object({
        // AgentInbox's counts
        sources: Count,
        agents: Count,
        offlineAgents: Count.openapi({ description: 'agents without an active target' }),
        subscriptions: Count,
        subscriptionLifecycleRetirements: Count.openapi({ description: 'subscriptions that saw their terminal signal and wait for removal' }),
        sourceIdleStates: Count,
        inboxes: Count.openapi({ description: "agents' inboxes, and those a read opened for ids no agent holds" }),
        activationTargets: Count,
        offlineActivationTargets: Count,
        activationDispatchStates: Count,
        streamEvents: Count,
        consumers: Count,
        inboxItems: Count.openapi({ description: 'inbox entries' }),
        pendingInboxItems: Count.openapi({ description: 'unacknowledged inbox entries' }),
        activations: Count.openapi({ description: 'webhook notifications sent (kept after their target is removed)' }),
        deliveries: Count,
        // svc's
        sourceStates: z.object({ total: Count, active: Count, error: Count, paused: Count, autoPaused: Count }),
        sourceErrors: z
          .array(z.object({ sourceId: z.string(), error: z.string(), at: z.string() }))
          .openapi({ description: 'sources in the error state, with the last error and when it was recorded' }),
        deliveryPausedAgents: Count,
        targets: z.object({ total: Count, active: Count, offline: Count }),
        notifications: z.object({ pending: Count.openapi({ description: 'queued or waiting for a retry' }) }),
        entries: z.object({ unacked: Count }),
        timers: z.object({ active: Count }),
      })
      .openapi('InboxCounts'),
    agents: z.array(InboxAgent),
    sources: z.array(Source.extend({ runtime: z.null() })),
    subscriptions: z.array(Subscription),
    inboxes: z.array(InboxRecord).openapi({ description: "agents' inboxes, and those a read opened for ids no agent holds, oldest first" }),
    activationTargets: z.array(Target),
    activationDispatchStates: z.array(DispatchState),
    streams: z.array(z.object({ streamId: z.string(), sourceId: z.string(), streamKey: z.string(), backend: z.string(), createdAt: z.string() })),
    consumers: z.array(Consumer),
    adapters: z.object({ remote: z.object({ activeSourceIds: z.array(z.string()), erroredSourceIds: z.array(z.string()) }) }),
    recentActivations: z.array(z.unknown()).openapi({
      description: "AgentInbox's activations: the bodies of the last 10 webhook notifications sent, newest first, kept after their target is removed",
    }),
    recentNotifications: z
      .array(
        z.object({
          notificationId: z.string(),
          agentId: z.string(),
          targetId: z.string(),
          targetKind: z.string().nullable(),
          reason: z.string(),
          status: z.enum(['pending', 'sent', 'failed']),
          entryCount: Count,
          attempts: Count,
          lastError: z.string().nullable(),
          createdAt: z.string(),
          sentAt: z.string().nullable(),
        }),
      )
      .openapi({ description: "svc's: the last 10 notifications of every target kind (terminal prompts, runtime messages too) and state, newest first" }),
    recentDeliveries: z.array(z.unknown()),
    lifecycle: z.object({
      offlineAgentTtlMs: Count.nullable().openapi({
        description: 'inbox.offline_agent_ttl_ms: an agent with no active target and nobody reading its inbox this long is removed; null: never (0 in the config)',
      }),
      gcIntervalMs: Count,
      lastOfflineAgentGcAt: z.string().nullable().openapi({ description: 'when housekeeping last looked for such agents; null: not yet, or never removed' }),
    }),
  })
  .openapi('InboxStatus', { description: "AgentInbox's status (retention, counts, the records, recent activations) with svc's service fields and counts beside" });

export function inboxMetaRoutes(s: Services): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/healthz',
      auth: 'open',
      tags,
      summary: 'Liveness',
      responses: { 200: { description: 'Healthy', schema: Health } },
      handler: () => ({ ok: true, status: 'ok' }),
    }),
    defineRoute({
      method: 'GET',
      url: '/status',
      auth: 'control',
      tags,
      summary: "Service status as AgentInbox answers it: retention, counts, agents, sources, subscriptions, inboxes, targets, dispatch states, streams, consumers, adapters, recent activations; svc's counts beside",
      responses: { 200: { description: 'Status', schema: InboxStatus } },
      handler: () => ({
        ok: true,
        service: 'svc-inbox',
        version: VERSION,
        pid: process.pid,
        startedAt: isoAt(s.startedAt),
        uptimeSeconds: (s.clock.now() - s.startedAt) / 1000,
        socket: s.endpoints.socket,
        port: s.endpoints.inboxPort,
        ...s.inbox.status.view(),
      }),
    }),
  ];
}

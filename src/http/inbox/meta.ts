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
        inboxes: Count,
        activationTargets: Count,
        offlineActivationTargets: Count,
        activationDispatchStates: Count,
        streamEvents: Count,
        consumers: Count,
        inboxItems: Count.openapi({ description: 'inbox entries' }),
        pendingInboxItems: Count.openapi({ description: 'unacknowledged inbox entries' }),
        activations: Count.openapi({ description: 'notifications' }),
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
    inboxes: z.array(InboxRecord),
    activationTargets: z.array(Target),
    activationDispatchStates: z.array(DispatchState),
    streams: z.array(z.object({ streamId: z.string(), sourceId: z.string(), streamKey: z.string(), backend: z.string(), createdAt: z.string() })),
    consumers: z.array(Consumer),
    adapters: z.object({ remote: z.object({ activeSourceIds: z.array(z.string()), erroredSourceIds: z.array(z.string()) }) }),
    recentActivations: z.array(z.unknown()).openapi({ description: 'the last 10 notifications, newest first' }),
    recentDeliveries: z.array(z.unknown()),
    lifecycle: z.object({
      offlineAgentTtlMs: z.null().openapi({ description: 'svc never removes an agent for being offline' }),
      gcIntervalMs: Count,
      lastOfflineAgentGcAt: z.null(),
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

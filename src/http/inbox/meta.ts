/** Inbox service meta routes (spec/inbox.md "Meta"). */
import { z } from 'zod';
import { isoAt } from '../../core/index.js';
import type { Services } from '../../services.js';
import { VERSION } from '../../version.js';
import { defineRoute, type AnyRoute } from '../route.js';

const tags = ['meta'];

const Health = z.object({ ok: z.literal(true), status: z.literal('ok') }).openapi('Health');
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
    counts: z
      .object({
        sources: z.object({ total: z.number().int(), active: z.number().int(), error: z.number().int(), paused: z.number().int(), autoPaused: z.number().int() }),
        sourceErrors: z
          .array(z.object({ sourceId: z.string(), error: z.string(), at: z.string() }))
          .openapi({ description: 'sources in the error state, with the last error and when it was recorded' }),
        subscriptions: z.number().int(),
        agents: z.object({ total: z.number().int(), deliveryPaused: z.number().int() }),
        targets: z.object({ total: z.number().int(), active: z.number().int(), offline: z.number().int() }),
        notifications: z.object({ pending: z.number().int().openapi({ description: 'queued or waiting for a retry' }) }),
        entries: z.object({ unacked: z.number().int() }),
        timers: z.object({ active: z.number().int() }),
      })
      .openapi('InboxCounts'),
  })
  .openapi('InboxStatus');

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
      summary: 'Service status with counts: sources by state and their errors, subscriptions, agents, targets, pending notifications, unacknowledged entries, timers',
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
        counts: s.inbox.status.counts(),
      }),
    }),
  ];
}

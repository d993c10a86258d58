/** Inbox service meta routes (spec/inbox.md "Meta"). */
import { z } from 'zod';
import { isoAt } from '../../core/clock.js';
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
      summary: 'Service status',
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
      }),
    }),
  ];
}

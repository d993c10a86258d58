/**
 * How a route of either surface turns its reply into an SSE stream: the control plane's event and
 * conversation streams and the inbox's watch all commit their response here.
 */
import type { FastifyReply } from 'fastify';
import { errors } from '../core/index.js';
import type { SseConnection } from '../events/index.js';
import type { Services } from '../services.js';

/** Commit the SSE response (after every check that could still answer with an error). */
export function openStream(s: Services, reply: FastifyReply): SseConnection {
  if (s.sse.full) {
    throw errors.overloaded('too many SSE clients; retry later');
  }
  reply.sse.keepAlive();
  reply.sse.sendHeaders(200);
  reply.raw.flushHeaders();
  return s.sse.attach(reply.raw);
}

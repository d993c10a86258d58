/** A control-plane Fastify app over in-process services, for route tests through inject (no listener). */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.js';
import type { AnyRoute } from '../../src/http/route.js';
import type { Services } from '../../src/services.js';
import { createLogger } from '../../src/telemetry/logger.js';

/** Local mode; loopback peers trusted (inject comes from 127.0.0.1 without a peer-user check). */
export async function routeApp(s: Services, routes: AnyRoute[]): Promise<FastifyInstance> {
  const { app } = await buildApp({
    logger: createLogger('silent'),
    metrics: s.metrics,
    auth: { token: '', readAccess: 'loopback', allowedHosts: [], allowedOrigins: [], trustLoopbackPeers: true },
    surface: 'control',
    heartbeatMs: 1000,
    routes,
  });
  return app;
}

/**
 * The two HTTP surfaces: the control plane (spec/control-plane.md, under /api) and the inbox API
 * (spec/inbox.md, at the root). Each is one app built by buildApp from its route plugins plus its
 * OpenAPI document route, generated from the same registry the routes filled.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Services } from '../services.js';
import { VERSION } from '../version.js';
import { buildApp, type ServedRoute } from './app.js';
import type { AuthPolicy } from './auth.js';
import {
  agentRoutes,
  bindingRoutes,
  conversationRoutes,
  credentialRoutes,
  discoveryRoutes,
  eventRoutes,
  githubWebhookRoutes,
  ingressRoutes,
  modelRoutes,
  observerSyncRoutes,
  policyRoutes,
  runControlRoutes,
  runtimeRoutes,
  searchRoutes,
  skillRoutes,
  taskRoutes,
  timerRoutes,
  triggerRoutes,
  workItemRoutes,
  workspaceRoutes,
} from './control/index.js';
import { browserAuthRoutes, consoleRoutes, docsRoutes } from './pages/index.js';
import {
  inboxAgentRoutes,
  inboxAggregationRoutes,
  inboxDeliveryRoutes,
  inboxEntryRoutes,
  inboxMetaRoutes,
  inboxFollowRoutes,
  inboxSourceRoutes,
  inboxOutboundRoutes,
  inboxStreamRoutes,
  inboxSubscriptionRoutes,
} from './inbox/index.js';
import { generateDocument, type DocumentInfo, type OpenAPIRegistry } from './openapi.js';
import { defineRoute, operationIdOf, type AnyRoute } from './route.js';
import { sessionsOf } from './session-cookie.js';

export const CONTROL_INFO: DocumentInfo = {
  title: 'svc control plane',
  version: VERSION,
  description:
    'Agent runtime control plane of svc: agents, durable per-agent event logs over SSE, message queues with provenance, runtime management. Errors use the ErrorResponse envelope.',
  servers: [
    {
      url: 'http://127.0.0.1:8700',
      description: 'The default listen address (listen in config.toml, SVC_LISTEN or --listen). In bearer mode send the control token; in local mode a TCP client must be a process of the user running svc.',
    },
  ],
};

export const INBOX_INFO: DocumentInfo = {
  title: 'svc inbox API',
  version: VERSION,
  description: 'Inbox and event-source service of svc, served on a Unix socket (and optionally a loopback port).',
  servers: [
    {
      // OpenAPI has no way to name a Unix socket: the URL is what a client sends over it.
      url: 'http://localhost',
      description:
        'Served on the Unix socket <home>/inbox.sock (inbox.socket, --socket), e.g. curl --unix-socket <home>/inbox.sock http://localhost/status; its file mode (0600) is the authentication. With [inbox] port (--port) also on that loopback TCP port, where the control plane auth rules apply (the control token in bearer mode).',
    },
  ],
};

export function controlRoutes(s: Services): AnyRoute[] {
  return [
    ...discoveryRoutes(s),
    ...docsRoutes(),
    ...consoleRoutes(),
    ...browserAuthRoutes(s),
    ...agentRoutes(s),
    ...ingressRoutes(s),
    ...eventRoutes(s),
    ...conversationRoutes(s),
    ...runControlRoutes(s),
    ...runtimeRoutes(s),
    ...credentialRoutes(s),
    ...modelRoutes(s),
    ...workItemRoutes(s),
    ...timerRoutes(s),
    ...taskRoutes(s),
    ...policyRoutes(s),
    ...triggerRoutes(s),
    ...githubWebhookRoutes(s),
    ...bindingRoutes(s),
    ...workspaceRoutes(s),
    ...skillRoutes(s),
    ...observerSyncRoutes(s),
    ...searchRoutes(s),
    ...inboxOnControlPlane(s),
  ];
}

/**
 * The inbox API again on the control plane, under /api/inbox: a browser (the console) cannot
 * reach the Unix socket. The same route definitions, so one rule each; served with the control
 * plane's auth (the token or a session in bearer mode, this user only in local mode).
 */
function inboxOnControlPlane(s: Services): AnyRoute[] {
  return inboxRoutes(s).map((route) => {
    const id = operationIdOf(route);
    return { ...route, url: `/api/inbox${route.url}`, operationId: `inbox${id[0]!.toUpperCase()}${id.slice(1)}` };
  });
}

export function inboxRoutes(s: Services): AnyRoute[] {
  return [...inboxMetaRoutes(s), ...inboxSourceRoutes(s), ...inboxStreamRoutes(s), ...inboxFollowRoutes(s), ...inboxAgentRoutes(s), ...inboxSubscriptionRoutes(s), ...inboxEntryRoutes(s), ...inboxDeliveryRoutes(s), ...inboxAggregationRoutes(s), ...inboxOutboundRoutes(s)];
}

function openapiRoute(url: string, doc: () => Record<string, unknown>): AnyRoute {
  return defineRoute({
    method: 'GET',
    url,
    operationId: 'getOpenApiDocument',
    auth: 'open',
    tags: ['discovery'],
    summary: 'This OpenAPI 3.1 document',
    responses: { 200: { description: 'OpenAPI document', schema: z.record(z.string(), z.unknown()) } },
    handler: () => doc(),
  });
}

async function buildSurface(s: Services, auth: AuthPolicy, routes: AnyRoute[], docUrl: string, info: DocumentInfo) {
  let cached: Record<string, unknown> | null = null;
  let registry: OpenAPIRegistry | null = null;
  const doc = () => (cached ??= generateDocument(registry!, info));
  const built = await buildApp({
    logger: s.logger,
    metrics: s.metrics,
    auth,
    heartbeatMs: s.config.values.events.heartbeat_ms,
    routes: [...routes, openapiRoute(docUrl, doc)],
    tracer: s.tracer,
    surface: docUrl.startsWith('/api/') ? 'control' : 'inbox',
  });
  registry = built.registry;
  return { app: built.app, document: doc, served: built.served };
}

export interface Surface {
  app: FastifyInstance;
  document: () => Record<string, unknown>;
  served: ServedRoute[];
}

export function controlPolicy(s: Services): AuthPolicy {
  const { auth } = s.config.values;
  return {
    token: s.config.controlToken,
    readAccess: auth.read_access,
    allowedHosts: auth.allowed_hosts,
    allowedOrigins: auth.allowed_origins,
    trustLoopbackPeers: auth.trust_loopback_peers,
    taskOfSocket: (inode) => s.tasks.socketHolder(inode),
    ...(s.browserAuth ? { oidcOrigin: s.browserAuth.oidc.ownOrigin } : {}),
    ...sessionsOf(s),
  };
}

export function buildControlSurface(s: Services): Promise<Surface> {
  return buildSurface(s, controlPolicy(s), controlRoutes(s), '/api/openapi.json', CONTROL_INFO);
}

/**
 * The inbox API: over the Unix socket the file mode is the authentication; over the loopback TCP
 * port (`--port`) the control plane's rules apply unchanged (the token in bearer mode, this user
 * only otherwise), so the port is never a way around them.
 */
export function buildInboxSurface(s: Services): Promise<Surface> {
  return buildSurface(s, controlPolicy(s), inboxRoutes(s), '/openapi.json', INBOX_INFO);
}

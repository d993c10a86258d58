/**
 * Builds one Fastify app (either surface) with what both share: the JSON body parser, the error
 * envelope, the auth/browser guards, SSE support, request metrics, and the OpenAPI registry that
 * `mountRoutes` fills. Routes come from the surface's own route plugins.
 */
import { fastifySSE } from '@fastify/sse';
import Fastify, { LogController, type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { parseJsonBody } from '../core/index.js';
import { LazyChildLogger, type Metrics, type Span, type Tracer } from '../telemetry/index.js';
import { installAuth, type AuthPolicy } from './auth.js';
import { installBrowserAccess } from './browser.js';
import { clientErrorHandler, frameworkErrorHandler, installErrorHandling } from './error-handler.js';
import { OpenAPIRegistry } from './openapi.js';
import { mountRoutes, type AnyRoute, type SurfaceKind } from './route.js';

export interface AppOptions {
  logger: Logger;
  metrics: Metrics;
  auth: AuthPolicy;
  heartbeatMs: number;
  routes: AnyRoute[];
  /** HTTP request spans (named by route pattern, never the raw URL: callback URLs carry tokens). */
  tracer?: Tracer;
  /** `control` or `inbox`: the `svc.surface` span attribute and the OpenAPI security wording. */
  surface: SurfaceKind;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's server span (installRequestSpans); read it through `requestSpan`. */
    svcSpan: Span | null;
  }
}

/** The span of an HTTP request (the parent for spans a handler starts). */
export function requestSpan(request: FastifyRequest): Span | undefined {
  return request.svcSpan ?? undefined;
}

const BEARER_DESCRIPTION: Record<SurfaceKind, string> = {
  control:
    'The control token (bearer mode: --token-file, SVC_TOKEN or control_token). Without one the daemon is in local mode: no header is needed, but a TCP client must be a process of the user running svc (else 403 peer_user_rejected).',
  inbox:
    'Requests over the Unix socket carry no credential: its file mode (0600) admits only the user running svc. On the loopback TCP port (--port) the control plane rules apply: the control token in bearer mode; otherwise the client must be a process of the user running svc (else 403 peer_user_rejected).',
};

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export interface ServedRoute {
  method: string;
  url: string;
}

export async function buildApp(opts: AppOptions): Promise<{ app: FastifyInstance; registry: OpenAPIRegistry; served: ServedRoute[] }> {
  // Typed as the default instance: our pino Logger is a FastifyBaseLogger everywhere it matters.
  const app = Fastify({
    loggerInstance: opts.logger,
    // Per-request lines are logged at debug level by our onResponse hook instead.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: (logger, bindings) => new LazyChildLogger(logger as Logger, bindings) as unknown as Logger,
    bodyLimit: DEFAULT_BODY_LIMIT,
    return503OnClosing: true,
    forceCloseConnections: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 512 },
    // Router errors (bad percent-encoding, over-long parameter) get the envelope too.
    frameworkErrors: frameworkErrorHandler,
    // Requests the HTTP parser refuses (not HTTP, oversized headers) get the envelope too.
    clientErrorHandler,
  }) as unknown as FastifyInstance;

  // One JSON parser for every route: an empty body reads as "no body" (routes with optional
  // bodies accept it), anything unparsable is 400 invalid_json. Other content types are 415
  // unless a route scope adds a parser of its own.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = body as unknown as string;
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, parseJsonBody(text));
    } catch (err) {
      done(err as Error, undefined);
    }
  });

  // First among the hooks: requests refused by the guards get a span too.
  if (opts.tracer) installRequestSpans(app, opts.tracer, opts.surface);
  installErrorHandling(app);
  // CORS before the auth hook (preflights carry no credentials; refusals carry CORS headers), and
  // before the route inventory below (its OPTIONS * route is not an API path).
  await installBrowserAccess(app, opts.auth);
  installAuth(app, opts.auth);
  // Callback-style hooks on every request: an async hook costs a promise and a microtask each.
  app.addHook('onResponse', (request, reply, done) => {
    opts.metrics.httpRequests.inc();
    if (reply.statusCode >= 400) opts.metrics.httpErrors.inc();
    request.log.debug({ req: request, res: reply, ms: reply.elapsedTime }, 'request');
    done();
  });
  await app.register(fastifySSE, { heartbeatInterval: opts.heartbeatMs, serializer: (d: unknown) => String(d) });

  // Every route Fastify actually serves, for the test that compares it with the OpenAPI paths.
  const served: ServedRoute[] = [];
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) if (method !== 'HEAD') served.push({ method, url: r.url });
  });

  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', description: BEARER_DESCRIPTION[opts.surface] });
  registry.registerComponent('securitySchemes', 'sessionCookie', {
    type: 'apiKey',
    in: 'cookie',
    name: 'svc_session',
    description:
      "A browser session: from GET /api/auth/login (OIDC, [auth.oidc]; the name is auth.oidc.cookie_name, svc_session by default), or the console's from POST /api/auth/token (bearer mode; named svc_console_<port>, bound to the signing user's uid when signed in from this machine). It authorises exactly what the control token does; only requests without an Origin, from the daemon's own origin (console) or the origin of auth.oidc.redirect_url (OIDC), or from one in auth.allowed_origins may use it.",
  });
  mountRoutes(app, registry, opts.routes, opts.surface);
  // Load every plugin now, so that the served routes and the OpenAPI registry are complete.
  await app.ready();
  return { app, registry, served };
}

function installRequestSpans(app: FastifyInstance, tracer: Tracer, surface: string): void {
  // A request decorator, not a WeakMap: every request object keeps one shape, and no weak
  // entry per request for the collector to process (measured: ~3 µs a request under load).
  app.decorateRequest('svcSpan', null);
  app.addHook('onRequest', (request, _reply, done) => {
    // The route pattern (`/api/callbacks/enqueue/:callback_token`), never request.url.
    const route = request.routeOptions.url;
    const span = tracer.startSpan(
      `HTTP ${request.method} ${route ?? '(unmatched)'}`,
      { 'http.request.method': request.method, 'http.route': route, 'svc.surface': surface },
      null,
      'server',
    );
    request.svcSpan = span;
    watchConnection(request.raw.socket, span);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const span = request.svcSpan;
    if (span) {
      span.setAttribute('http.response.status_code', reply.statusCode);
      span.end(reply.statusCode >= 500 ? 'error' : 'ok');
    }
    done();
  });
}

const IN_FLIGHT = Symbol('svc.inFlightSpan');
type WatchedSocket = Socket & { [IN_FLIGHT]?: Span | null };

/**
 * A request whose client goes away before its response is sent ends its span `cancelled`.
 * Watched per connection, not per request (Fastify's onRequestAbort hook adds a `close` listener
 * and a closure to every request; measured: ~3 µs a request under load): the connection's one
 * listener ends the span of the newest request on it when it closes (ending an ended span does
 * nothing). A client that pipelines requests and leaves with several unanswered gets only the newest
 * ended; the others stay open until the tracer's bound on open traces forgets them.
 */
function watchConnection(socket: WatchedSocket | null | undefined, span: Span): void {
  if (!socket) return;
  if (!(IN_FLIGHT in socket)) socket.once('close', () => socket[IN_FLIGHT]?.end('cancelled'));
  socket[IN_FLIGHT] = span;
}

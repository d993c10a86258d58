/**
 * What a browser may do, on both surfaces' TCP listeners:
 *
 * - CORS (`@fastify/cors`) for exactly the origins listed in auth.allowed_origins (normalised):
 *   preflights answered 204 with the allowed methods and headers, credentials allowed, and the
 *   same headers on every response, errors and SSE included. No CORS header for any other origin,
 *   and no answer either: the auth hook refuses every request from an origin that is neither the
 *   daemon's own nor trusted (403 `cross_origin_rejected`), and a preflight from one that is not
 *   listed (the daemon's own pages never send one) is refused here the same way.
 * - Local mode with OIDC configured: a request carrying an `Origin` (a web page's request) to a
 *   route that is not open needs a session (401 `session_required`); requests without an Origin
 *   (the CLI, scripts) keep the local-mode rule. In bearer mode the auth hook itself accepts a
 *   session in place of the token.
 *
 * Installed before the auth hook: the CORS hook runs first, so a listed origin can read why a
 * request was refused (a 401 carries the CORS headers too), and a preflight, which never carries
 * credentials, is answered before any credential check. The refusals here run after every
 * onRequest guard (preParsing), before any body is read.
 *
 * The preflight route `OPTIONS *` that @fastify/cors adds is registered here, before buildApp
 * starts its inventory of served routes: it is CORS plumbing, not an API path of the documents.
 */
import { fastifyCors } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { listOrigins } from '../auth/index.js';
import { errors, normaliseOrigin } from '../core/index.js';
import { isPreflight, type AuthPolicy } from './auth.js';

export const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
export const CORS_HEADERS = ['Authorization', 'Content-Type', 'Last-Event-ID'];
/** Seconds a browser may cache a preflight answer. */
const PREFLIGHT_MAX_AGE_S = 600;

export async function installBrowserAccess(app: FastifyInstance, policy: AuthPolicy): Promise<void> {
  const listed = listOrigins(policy.allowedOrigins);
  const isListed = (origin: string | undefined) => {
    if (origin === undefined) return false;
    const normalised = normaliseOrigin(origin);
    return normalised !== null && listed.has(normalised);
  };

  await app.register(fastifyCors, {
    origin: (origin, cb) => cb(null, isListed(origin)),
    credentials: true,
    methods: CORS_METHODS,
    allowedHeaders: CORS_HEADERS,
    exposedHeaders: ['Retry-After', 'WWW-Authenticate'],
    maxAge: PREFLIGHT_MAX_AGE_S,
    // An OPTIONS without Access-Control-Request-Method is not a preflight: without this the
    // plugin answers it with a plain-text 400 instead of our envelope.
    strictPreflight: false,
  });

  // Callback-style, like the other per-request hooks: no promise per request.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    try {
      checkBrowser(request);
      done(null, payload);
    } catch (err) {
      done(err as Error);
    }
  });

  function checkBrowser(request: FastifyRequest): void {
    if (request.socket.remoteAddress === undefined) return; // Unix socket: no browser reaches it
    const origin = request.headers.origin;
    if (origin === undefined) return;
    if (isPreflight(request) && !isListed(origin)) throw errors.crossOriginRejected(origin);
    if (policy.token || !policy.sessions) return;
    const auth = request.routeOptions.config?.auth;
    if (!auth || auth === 'open') return;
    if (!policy.sessions.current(request)) throw errors.sessionRequired();
  }
}

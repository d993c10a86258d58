/**
 * Browser sign-in routes (spec/control-plane.md Authentication item 3), all open: they are how a
 * browser obtains or drops its session. Thin: the flow is src/auth/oidc.ts, the sessions
 * src/auth/sessions.ts, the cookies src/http/session-cookie.ts.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BrowserAuth } from '../../auth/index.js';
import { isoAt } from '../../core/clock.js';
import { errors } from '../../core/errors.js';
import type { Services } from '../../services.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { CallbackQuery, LoginQuery, LogoutResponse, SessionInfo } from '../schemas/browser-auth.js';
import {
  clearedLoginCookie,
  clearedSessionCookie,
  loginCookie,
  loginCookieName,
  readCookie,
  sessionAuthenticator,
  sessionCookie,
} from '../session-cookie.js';

const tags = ['auth'];

function query(request: FastifyRequest): string {
  const q = request.url.indexOf('?');
  return q === -1 ? '' : request.url.slice(q + 1);
}

/** Redirects and session answers must never be cached (they carry or reflect credentials). */
function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store');
}

export function browserAuthRoutes(s: Services): AnyRoute[] {
  const configured = (): BrowserAuth => {
    if (!s.browserAuth) throw errors.oidcNotConfigured();
    return s.browserAuth;
  };
  const sessions = s.browserAuth ? sessionAuthenticator(s.browserAuth) : null;
  return [
    defineRoute({
      method: 'GET',
      url: '/api/auth/login',
      errors: { 404: ['oidc_not_configured'], 502: ['oidc_provider_unavailable'] },
      auth: 'open',
      tags,
      summary: 'Sign in with the OpenID provider (browser navigation)',
      description:
        'Redirects to the provider (authorization code flow with PKCE S256, state and nonce). Sets a short-lived cookie that binds the sign-in to this browser. 404 oidc_not_configured without [auth.oidc].',
      query: LoginQuery,
      responses: { 302: { description: 'To the provider', headers: { Location: "The provider's authorization URL", 'Set-Cookie': 'The sign-in binding cookie' } } },
      handler: async ({ query: q, reply }) => {
        const b = configured();
        const { url, binding } = await b.oidc.begin(q.return_to);
        noStore(reply).header('set-cookie', loginCookie(b, binding)).redirect(url, 302);
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/auth/callback',
      errors: { 400: ['oidc_state_invalid', 'oidc_login_failed'], 403: ['oidc_subject_not_allowed'], 404: ['oidc_not_configured'], 502: ['oidc_provider_unavailable'] },
      auth: 'open',
      tags,
      summary: "The provider's redirect back: creates the session",
      description:
        'Validates the answer (state once only, PKCE, ID token and nonce), admits the account if auth.oidc.allowed_subjects or allowed_groups lists it (else 403 oidc_subject_not_allowed), sets the HttpOnly session cookie and redirects to return_to.',
      query: CallbackQuery,
      responses: { 302: { description: 'Signed in', headers: { Location: 'return_to of the sign-in, default /api/', 'Set-Cookie': 'The session cookie' } } },
      handler: async ({ request, reply }) => {
        const b = configured();
        // The sign-in binding is single-use like the state: dropped whatever the outcome.
        reply.header('set-cookie', clearedLoginCookie(b));
        const { id, session, returnTo } = await b.oidc.complete(query(request), readCookie(request, loginCookieName(b)));
        noStore(reply).header('set-cookie', sessionCookie(b, id, session, s.clock.now())).redirect(returnTo, 302);
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/auth/logout',
      operationId: 'logout',
      auth: 'open',
      tags,
      summary: 'Sign out: revoke the session and clear its cookie',
      bodyOptional: true,
      responses: { 200: { description: 'Signed out', schema: LogoutResponse, headers: { 'Set-Cookie': 'The cleared session cookie' } } },
      handler: ({ request, reply }) => {
        const b = configured();
        const current = sessions!.current(request);
        const revoked = current !== null && b.sessions.revoke(current.id);
        if (revoked) s.logger.info({ subject: current.session.subject }, 'browser session revoked');
        noStore(reply).header('set-cookie', clearedSessionCookie(b));
        return { ok: true as const, revoked };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/auth/session',
      errors: { 401: ['session_required'] },
      auth: 'open',
      tags,
      summary: "The current browser session's account and expiry (401 session_required without one)",
      responses: { 200: { description: 'Session', schema: SessionInfo } },
      handler: ({ request, reply }) => {
        configured();
        const current = sessions!.current(request);
        if (!current) throw errors.sessionRequired();
        noStore(reply);
        const { session } = current;
        return { ok: true as const, subject: session.subject, issuer: session.issuer, created_at: isoAt(session.createdAt), expires_at: isoAt(session.expiresAt) };
      },
    }),
  ];
}

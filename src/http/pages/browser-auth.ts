/**
 * Browser sign-in routes (spec/control-plane.md Authentication item 3), all open: they are how a
 * browser obtains or drops its session. Thin: the flow is src/auth/oidc.ts, the sessions
 * src/auth/sessions.ts, the cookies src/http/session-cookie.ts.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BrowserAuth } from '../../auth/index.js';
import { isoAt, errors, peerKey, peerUid } from '../../core/index.js';
import type { Services } from '../../services.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { tokenMatches } from '../auth.js';
import { CallbackQuery, LoginQuery, LogoutResponse, SessionInfo, TokenLoginBody, TokenLoginResponse } from '../schemas/index.js';
import {
  clearedLoginCookie,
  clearedSessionCookie,
  loginCookie,
  loginCookieName,
  clearedTokenSessionCookie,
  readCookie,
  sessionCookie,
  sessionsOf,
  tokenSessionCookie,
  usableSession,
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
  const sessions = sessionsOf(s).sessions ?? null;
  const anySignIn = () => {
    if (!s.browserAuth && !s.tokenSessions) throw errors.oidcNotConfigured();
  };
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
      handler: async ({ request, reply }) => {
        anySignIn();
        const current = await usableSession(sessions!, request);
        const revoked = current !== null && current.store.revoke(current.id);
        if (revoked) s.logger.info({ subject: current.session.subject, kind: current.kind }, 'browser session revoked');
        const cleared = [...(s.browserAuth ? [clearedSessionCookie(s.browserAuth)] : []), ...(s.tokenSessions ? [clearedTokenSessionCookie(request)] : [])];
        noStore(reply).header('set-cookie', cleared);
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
      handler: async ({ request, reply }) => {
        anySignIn();
        const current = await usableSession(sessions!, request);
        if (!current) throw errors.sessionRequired();
        noStore(reply);
        const { session, kind } = current;
        const issuer = kind === 'token' ? 'control-token' : session.issuer;
        return { ok: true as const, kind, subject: session.subject, issuer, created_at: isoAt(session.createdAt), expires_at: isoAt(session.expiresAt) };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/auth/token',
      operationId: 'signInWithToken',
      errors: { 401: ['auth_required'], 404: ['token_sign_in_unavailable'], 429: ['overloaded'] },
      auth: 'open',
      tags,
      summary: 'Sign a browser in with the control token (the console\'s sign-in form): sets a session cookie',
      description:
        'Bearer mode only (404 token_sign_in_unavailable in local mode, where no sign-in is needed). The token is compared in constant time and not kept: the answer sets an HttpOnly, SameSite=Strict session cookie (svc_console_<port>) that stands in for the token until it expires (auth.token_session_ttl_s) or POST /api/auth/logout. A session signed in from this machine (over loopback or another of its addresses) is bound to the signing user: from another user\'s connection it counts for nothing. After 10 wrong tokens in a minute from one peer (a local user, or a remote address) the route answers that peer 429 overloaded until the minute is over.',
      body: TokenLoginBody,
      bodyExample: { token: 'the control token' },
      responses: { 200: { description: 'Signed in', schema: TokenLoginResponse, headers: { 'Set-Cookie': 'The session cookie' } } },
      handler: async ({ body, request, reply }) => {
        const t = s.tokenSessions;
        if (!t) throw errors.tokenSignInUnavailable();
        // Throttled per peer: another user's wrong tries never pause the owner's sign-in.
        const peer = await peerKey(request.socket);
        const wait = t.throttledForMs(peer);
        if (wait > 0) throw errors.overloaded('too many wrong tokens: sign-in is paused for a minute', Math.ceil(wait / 1000));
        if (!tokenMatches(body.token, s.config.controlToken)) {
          t.recordFailure(peer);
          s.logger.warn({ remote: request.socket.remoteAddress, peer }, 'console sign-in refused: wrong control token');
          throw errors.unauthorized();
        }
        // Bound to the signing uid whenever the connection is one of this machine's, over loopback
        // or over another of its addresses: the browser sends the cookie to every port of the host
        // it signed in at, servers of other local users included.
        const { id, session } = t.create(await peerUid(request.socket));
        s.logger.info({ subject: session.subject }, 'console signed in with the control token');
        // Max-Age from the session's own start: the full lifetime, whatever the clock reads now.
        noStore(reply).header('set-cookie', tokenSessionCookie(request, id, session, session.createdAt));
        return { ok: true as const, expires_at: isoAt(session.expiresAt) };
      },
    }),
  ];
}

/**
 * The session cookie on the wire: reading it from a request, and the Set-Cookie values svc sends.
 * Parsing and serialising use the `cookie` package (the parser behind Express and
 * @fastify/cookie): it runs synchronously inside the auth hook, which runs before any plugin hook
 * could have parsed cookies.
 *
 * A session counts only on a request a browser could not have been tricked into sending: no
 * `Origin` (a top-level navigation, a non-browser client) or an Origin svc trusts (listed in
 * auth.allowed_origins, or the daemon's own). `SameSite=Lax` stops other sites' POSTs, but a page
 * on another port of the same host is "same-site"; this check stops that page.
 */
import { parse as parseCookies, serialize } from 'cookie';
import type { FastifyRequest } from 'fastify';
import type { BrowserAuth } from '../auth/index.js';
import type { Session } from '../auth/sessions.js';
import { PENDING_TTL_MS } from '../auth/oidc.js';
import { normaliseOrigin } from '../core/origins.js';

export interface SessionAuthenticator {
  /** Whether the request carries a live session usable from its origin (the auth hook's test). */
  authenticate(request: FastifyRequest): boolean;
  /** The live session of the request, with its id (for logout), or null. */
  current(request: FastifyRequest): { id: string; session: Session } | null;
}

/**
 * Path of the short-lived cookie binding a pending sign-in to its browser: the callback's
 * directory (`/api/auth` for the usual redirect_url), so the cookie goes nowhere else.
 */
function loginCookiePath(b: BrowserAuth): string {
  const pathname = new URL(b.oidc.settings.redirectUrl).pathname;
  return pathname.slice(0, pathname.lastIndexOf('/')) || '/';
}

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  return parseCookies(header)[name];
}

export function sessionAuthenticator(b: BrowserAuth): SessionAuthenticator {
  const current = (request: FastifyRequest) => {
    const id = readCookie(request, b.cookieName);
    if (!id) return null;
    const origin = request.headers.origin;
    if (origin !== undefined) {
      const normalised = normaliseOrigin(origin);
      if (normalised === null || !b.sessionOrigins.has(normalised)) return null;
    }
    const session = b.sessions.find(id);
    return session ? { id, session } : null;
  };
  return { current, authenticate: (request) => current(request) !== null };
}

function attributes(b: BrowserAuth, path: string, maxAgeS: number) {
  return { httpOnly: true, sameSite: 'lax' as const, secure: b.secureCookies, path, maxAge: Math.max(0, Math.floor(maxAgeS)) };
}

/** The session cookie: Max-Age is the session's remaining lifetime. */
export function sessionCookie(b: BrowserAuth, id: string, session: Session, now: number): string {
  return serialize(b.cookieName, id, attributes(b, '/', (session.expiresAt - now) / 1000));
}

export function clearedSessionCookie(b: BrowserAuth): string {
  return serialize(b.cookieName, '', attributes(b, '/', 0));
}

export const loginCookieName = (b: BrowserAuth) => `${b.cookieName}_login`;

export function loginCookie(b: BrowserAuth, binding: string): string {
  return serialize(loginCookieName(b), binding, attributes(b, loginCookiePath(b), PENDING_TTL_MS / 1000));
}

export function clearedLoginCookie(b: BrowserAuth): string {
  return serialize(loginCookieName(b), '', attributes(b, loginCookiePath(b), 0));
}

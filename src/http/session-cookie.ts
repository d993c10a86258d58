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
import { listOrigins, type BrowserAuth, type Session, type SessionStore, TokenSessions, PENDING_TTL_MS } from '../auth/index.js';
import type { Services } from '../services.js';
import { normaliseOrigin, ownOrigins, peerUid } from '../core/index.js';

/** A live session of a request: which family, and the uid it is bound to (null: unbound). */
export interface CurrentSession {
  id: string;
  session: Session;
  kind: 'oidc' | 'token';
  store: SessionStore;
  uid: number | null;
}

export interface SessionAuthenticator {
  /** The live session a request carries and may use from its origin (the auth hook's test), or null. */
  current(request: FastifyRequest): CurrentSession | null;
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

/**
 * Every value a request carries under a cookie name, in order, without repeats. A page on any
 * port of the same host can set a cookie of the same name with a longer Path, which the browser
 * sends first ("cookie tossing"): reading only the first value would let it shadow the real
 * session and keep the browser signed out, whatever it signs in with. The header is bounded by
 * the server's header limit, and each value is shape-checked before any lookup.
 */
function cookieValues(request: FastifyRequest, name: string): string[] {
  const header = request.headers.cookie;
  if (!header || !header.includes(name)) return [];
  const values = new Set<string>();
  for (const pair of header.split(';')) {
    const value = parseCookies(pair)[name];
    if (value) values.add(value);
  }
  return [...values];
}

/** The first value of a cookie name that is a live session, from an origin allowed to use it. */
function liveSession(request: FastifyRequest, name: string, store: SessionStore, originOk: (origin: string) => boolean): { id: string; session: Session } | null {
  const ids = cookieValues(request, name);
  if (ids.length === 0 || !originMayUseSession(request, originOk)) return null;
  for (const id of ids) {
    const session = store.find(id);
    if (session) return { id, session };
  }
  return null;
}

/** Whether a request's Origin (if any) may use a session: none, a listed one, or `ok(normalised)`. */
function originMayUseSession(request: FastifyRequest, ok: (origin: string) => boolean): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  const normalised = normaliseOrigin(origin);
  return normalised !== null && ok(normalised);
}

/**
 * The console's cookie is named after the port the browser connected to: cookies ignore ports, so
 * two daemons on one host (or a daemon and anything else on another port) never overwrite each
 * other's session.
 */
export const tokenCookieName = (request: FastifyRequest) => `svc_console_${request.socket.localPort ?? 0}`;

/**
 * Both session families: the console's control-token session first, then the OIDC one. A token
 * session counts from no Origin, the daemon's own origin or a listed one; an OIDC session from
 * no Origin or `sessionOrigins` (listed ones and the redirect URL's).
 */
export function sessionAuthenticator(deps: { browserAuth: BrowserAuth | null; tokenSessions: TokenSessions | null; listedOrigins: ReadonlySet<string> }): SessionAuthenticator | null {
  const { browserAuth: b, tokenSessions: t, listedOrigins } = deps;
  if (!b && !t) return null;
  const fromToken = (request: FastifyRequest): CurrentSession | null => {
    if (!t) return null;
    const live = liveSession(request, tokenCookieName(request), t.sessions, (o) => listedOrigins.has(o) || ownOrigins(request.headers.host).includes(o));
    return live && { ...live, kind: 'token', store: t.sessions, uid: TokenSessions.boundUid(live.session) };
  };
  const fromOidc = (request: FastifyRequest): CurrentSession | null => {
    if (!b) return null;
    const live = liveSession(request, b.cookieName, b.sessions, (o) => b.sessionOrigins.has(o));
    return live && { ...live, kind: 'oidc', store: b.sessions, uid: null };
  };
  return { current: (request) => fromToken(request) ?? fromOidc(request) };
}

/** The browser sessions of a daemon (token sign-in, OIDC), or nothing when it has neither. */
export function sessionsOf(s: Pick<Services, 'browserAuth' | 'tokenSessions' | 'config'>): { sessions?: SessionAuthenticator } {
  const sessions = sessionAuthenticator({ browserAuth: s.browserAuth, tokenSessions: s.tokenSessions, listedOrigins: listOrigins(s.config.values.auth.allowed_origins) });
  return sessions ? { sessions } : {};
}

/**
 * The session of a request as the auth hook would accept it: a session bound to a uid counts
 * only on a connection of that uid (for routes that are open, and so not checked by the hook).
 */
export async function usableSession(sessions: SessionAuthenticator, request: FastifyRequest): Promise<CurrentSession | null> {
  const current = sessions.current(request);
  if (!current || current.uid === null) return current;
  return (await peerUid(request.socket)) === current.uid ? current : null;
}

/** The console's session cookie: SameSite=Strict, as no other site ever links into a session. */
export function tokenSessionCookie(request: FastifyRequest, id: string, session: Session, now: number): string {
  return serialize(tokenCookieName(request), id, { httpOnly: true, sameSite: 'strict', secure: false, path: '/', maxAge: Math.max(0, Math.floor((session.expiresAt - now) / 1000)) });
}

export function clearedTokenSessionCookie(request: FastifyRequest): string {
  return serialize(tokenCookieName(request), '', { httpOnly: true, sameSite: 'strict', secure: false, path: '/', maxAge: 0 });
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

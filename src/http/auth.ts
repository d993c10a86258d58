/**
 * Request guards shared by both surfaces (docs/security.md), in one onRequest hook:
 * DNS-rebinding defence (Host), cross-origin defence (Origin) on TCP listeners, then the control
 * token for routes whose auth class asks for it, then the peer's uid for requests served without a
 * credential. Requests over the Unix socket skip the browser and uid checks: no browser and no other
 * user can reach a socket whose file mode is 0600.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { listOrigins } from '../auth/index.js';
import type { Socket } from 'node:net';
import { errors, hostAllowed, isLoopbackAddress, originAllowed, knownPeer, knownPeerUid, ownUid, peerOf, peerUid, type Peer } from '../core/index.js';
import { sseConnectionOf } from '../events/index.js';
import type { CurrentSession, SessionAuthenticator } from './session-cookie.js';

export interface AuthPolicy {
  /** '' = local mode. */
  token: string;
  readAccess: 'loopback' | 'token';
  allowedHosts: string[];
  allowedOrigins: string[];
  /** The origin of auth.oidc.redirect_url: a page there is the daemon's own (OIDC configured). */
  oidcOrigin?: string;
  /** Serve loopback clients whose uid cannot be determined (auth.trust_loopback_peers). */
  trustLoopbackPeers: boolean;
  /**
   * Browser sessions (the console's token sign-in, OIDC; src/http/session-cookie.ts): a live one
   * stands in for the token, from the uid it is bound to when it is bound.
   */
  sessions?: SessionAuthenticator;
  /**
   * The command task whose process holds a connection's client socket (its inode), or null. A
   * connection of the daemon's own uid is served without a credential only when no task holds it:
   * what a task runs (a command a model chose) is not the operator.
   */
  taskOfSocket?: (inode: number) => string | null | Promise<string | null>;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Constant-time comparison (hashing first makes the lengths equal). */
export function tokenMatches(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const m = /^Bearer\s+(.+)$/i.exec(header.trim());
  return m ? m[1]!.trim() : null;
}

/**
 * The rule, in order (docs/security.md):
 * 0. The Unix socket is the boundary itself (mode 0600 in a directory of the daemon's): nothing more.
 * 1. The Host and Origin checks (DNS rebinding, web pages of other origins): a request with an
 *    Origin is served only from the daemon's own origin or a trusted one, on every route; one
 *    without, that a browser marks as sent for another site's page, only as a top-level navigation.
 * 2. `open` routes need nothing more.
 * 3. A credential (the control token, or a browser session) authorises the request whoever sends
 *    it; a session the console signed in from this machine only from the uid that signed in (a
 *    replayed cookie from another user's connection counts as no credential).
 * 4. In bearer mode a route that needs the token, and has none, is 401.
 * 5. Everything else is served on trust in the local process boundary, which means this user:
 *    the peer's uid must be the daemon's (403 peer_user_rejected), and an unknown peer is
 *    refused unless auth.trust_loopback_peers allows a loopback one.
 */
export function installAuth(app: FastifyInstance, policy: AuthPolicy): void {
  const trusted = trustedOrigins(policy);
  // Callback-style: on a connection whose peer is already known the hook completes synchronously
  // (no promise per request); only a connection's first request waits for the /proc lookup.
  app.addHook('onRequest', (request, reply, done) => {
    let pending: Promise<void> | undefined;
    try {
      pending = authorise(request, reply, policy, trusted);
    } catch (err) {
      done(err as Error);
      return;
    }
    if (pending) pending.then(() => done(), done);
    else done();
  });
}

/** A CORS preflight: an OPTIONS asking which method it may use (it never carries credentials). */
export function isPreflight(request: FastifyRequest): boolean {
  return request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
}

/** Origins other than the Host's own whose pages may use the API: listed ones, the OIDC redirect URL's. */
function trustedOrigins(policy: AuthPolicy): ReadonlySet<string> {
  const trusted = listOrigins(policy.allowedOrigins);
  if (policy.oidcOrigin) trusted.add(policy.oidcOrigin);
  return trusted;
}

/** A browser's request for a page of another site (another port of this host included), but a top-level navigation. */
function fromAnotherSite(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== 'cross-site' && site !== 'same-site') return false;
  return !(request.method === 'GET' && request.headers['sec-fetch-mode'] === 'navigate' && request.headers['sec-fetch-dest'] === 'document');
}

/** Throws when the request is refused; a promise when the peer's uid must still be looked up. */
function authorise(request: FastifyRequest, reply: FastifyReply, policy: AuthPolicy, trusted: ReadonlySet<string>): Promise<void> | undefined {
  const remote = request.socket.remoteAddress;
  // The Unix socket (no remote address) is its own boundary: mode 0600, a directory of ours.
  if (remote === undefined) return;
  const host = request.headers.host;
  if (!hostAllowed(host, policy.allowedHosts)) throw errors.hostNotAllowed(host ?? '');
  const origin = request.headers.origin;
  // Before anything else runs or any body is read, whatever the route and the mode: a page of
  // another origin (another localhost port included) is refused even for a simple request.
  if (origin !== undefined && !originAllowed(origin, host, trusted)) throw errors.crossOriginRejected(origin);
  // A page's images, scripts, frames and forms carry no Origin on a GET, but a browser says they come
  // from another site (Fetch Metadata): refused too, but a top-level navigation (a link to the
  // console). Reads can have effects (an inbox read opens the inbox and keeps its agent).
  if (origin === undefined && fromAnotherSite(request)) throw errors.crossSiteRejected(String(request.headers['sec-fetch-site']));
  // Unmatched routes are guarded like reads: another user learns nothing from a 404 either.
  const auth = request.routeOptions.config?.auth ?? 'read';
  if (auth === 'open') return;
  // A CORS preflight never carries credentials: one from a listed origin was answered by the CORS
  // hook already, one from another origin refused above; the daemon's own pages never send one,
  // and browser.ts refuses it 403 cross_origin_rejected after this hook rather than 401.
  if (origin !== undefined && isPreflight(request)) return;
  const presented = policy.token ? bearerToken(request) : null;
  if (presented !== null && tokenMatches(presented, policy.token)) return;
  const session = policy.sessions?.current(request);
  if (session && session.uid === null) return endWithSession(request, reply, session);
  if (session) {
    const known = knownPeerUid(request.socket);
    if (known === undefined) return peerUid(request.socket).then((uid) => (uid === session.uid ? endWithSession(request, reply, session) : uncredentialed(request, policy, auth, remote)));
    if (known === session.uid) return endWithSession(request, reply, session);
  }
  return uncredentialed(request, policy, auth, remote);
}

/**
 * An event stream a session authorised lasts no longer than the session: it is ended when the
 * session is revoked (logout) or expires, as its next request would be refused. Other answers are
 * over long before; only stream routes are watched (no timer per request).
 */
function endWithSession(request: FastifyRequest, reply: FastifyReply, current: CurrentSession): undefined {
  if (!request.routeOptions.config?.stream) return undefined;
  // Ended like any stream the server closes: the client sees a clean end and, on reconnecting,
  // the refusal. A stream that had not started yet is cut.
  const end = () => {
    const stream = sseConnectionOf(reply.raw);
    if (stream) stream.close('session_ended');
    else reply.raw.destroy();
  };
  const stop = current.store.watch(current.id, current.session.expiresAt, end);
  reply.raw.once('close', stop);
  return undefined;
}

/**
 * Which task holds each connection's client end, looked up once per connection: synchronously
 * null while no command task runs (the common case: no promise), else from /proc.
 */
const taskHolders = new WeakMap<Socket, string | null | Promise<string | null>>();

function refuseTasks(socket: Socket, inode: number, taskOfSocket: NonNullable<AuthPolicy['taskOfSocket']>): Promise<void> | undefined {
  let holder = taskHolders.get(socket);
  if (holder === undefined) {
    holder = taskOfSocket(inode);
    taskHolders.set(socket, holder);
    if (holder instanceof Promise) void holder.then((h) => taskHolders.set(socket, h), () => taskHolders.delete(socket));
  }
  if (holder instanceof Promise) return holder.then((taskId) => refuseHolder(taskId));
  return refuseHolder(holder);
}

function refuseHolder(taskId: string | null): undefined {
  if (taskId !== null) throw errors.taskPeerRejected(taskId);
  return undefined;
}

/** Steps 4 and 5: a request without a usable credential. */
function uncredentialed(request: FastifyRequest, policy: AuthPolicy, auth: string, remote: string): Promise<void> | undefined {
  if (policy.token) {
    const needed = auth === 'control' || policy.readAccess === 'token' || !isLoopbackAddress(remote);
    if (needed) throw errors.unauthorized();
  }
  const peer = knownPeer(request.socket);
  if (peer !== undefined) return checkPeer(request, policy, peer);
  return peerOf(request.socket).then((found) => checkPeer(request, policy, found));
}

function checkPeer(request: FastifyRequest, policy: AuthPolicy, peer: Peer | null): Promise<void> | undefined {
  const uid = peer?.uid ?? null;
  if (peer && uid === ownUid) return policy.taskOfSocket ? refuseTasks(request.socket, peer.inode, policy.taskOfSocket) : undefined;
  if (uid !== null) throw errors.peerUserRejected(`the connection belongs to uid ${uid}`);
  if (policy.trustLoopbackPeers && isLoopbackAddress(request.socket.remoteAddress)) return;
  throw errors.peerUserRejected('the connecting user cannot be determined (set auth.trust_loopback_peers = true to trust every loopback client)');
}

/**
 * Request guards shared by both surfaces (CONTRACT.md section 4), in one onRequest hook:
 * DNS-rebinding defence (Host), cross-origin defence (Origin) on TCP listeners, then the control
 * token for routes whose auth class asks for it. Requests over the Unix socket skip the browser
 * checks: no browser can reach a socket whose file mode is 0600.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIPv4 } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../core/errors.js';

export interface AuthPolicy {
  /** '' = local mode. */
  token: string;
  readAccess: 'loopback' | 'token';
  allowedHosts: string[];
  allowedOrigins: string[];
  /** Browser sessions (OIDC sign-in, src/http/session-cookie.ts): a live one stands in for the token. */
  sessions?: { authenticate(request: FastifyRequest): boolean };
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * A loopback name: `localhost`, `[::1]`, or an IPv4 literal in 127.0.0.0/8. Only a real address
 * literal counts: `127.0.0.1.evil.example` is a DNS name an attacker controls (DNS rebinding).
 */
function isLoopbackName(name: string): boolean {
  return LOOPBACK_HOSTS.has(name) || (isIPv4(name) && name.startsWith('127.'));
}

export function isLoopbackAddress(addr: string | undefined): boolean {
  if (!addr) return false;
  return addr === '::1' || addr.startsWith('127.') || addr.startsWith('::ffff:127.');
}

/** Host header without its port; IPv6 literals keep their brackets. */
export function hostName(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end === -1 ? h : h.slice(0, end + 1);
  }
  const colon = h.indexOf(':');
  return colon === -1 ? h : h.slice(0, colon);
}

export function hostAllowed(hostHeader: string | undefined, allowed: string[]): boolean {
  if (!hostHeader) return false;
  const name = hostName(hostHeader);
  if (isLoopbackName(name)) return true;
  return allowed.some((a) => hostName(a) === name || a.toLowerCase() === hostHeader.toLowerCase());
}

export function originAllowed(origin: string, allowed: string[]): boolean {
  if (allowed.some((a) => a.replace(/\/$/, '').toLowerCase() === origin.replace(/\/$/, '').toLowerCase())) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const name = url.hostname.toLowerCase();
  return isLoopbackName(name);
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

export function installAuth(app: FastifyInstance, policy: AuthPolicy): void {
  app.addHook('onRequest', async (request) => {
    const remote = request.socket.remoteAddress;
    const viaTcp = remote !== undefined;
    if (viaTcp) {
      const host = request.headers.host;
      if (!hostAllowed(host, policy.allowedHosts)) throw errors.hostNotAllowed(host ?? '');
      const origin = request.headers.origin;
      if (origin !== undefined && !originAllowed(origin, policy.allowedOrigins)) throw errors.crossOriginRejected(origin);
    }
    if (!policy.token) return;
    const auth = request.routeOptions.config?.auth;
    if (!auth || auth === 'open') return;
    const needed = auth === 'control' || policy.readAccess === 'token' || !isLoopbackAddress(remote);
    if (!needed) return;
    const presented = bearerToken(request);
    const tokenOk = presented !== null && tokenMatches(presented, policy.token);
    if (!tokenOk && !policy.sessions?.authenticate(request)) throw errors.unauthorized();
  });
}

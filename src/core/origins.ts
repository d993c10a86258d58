/**
 * Host and Origin rules on plain strings (docs/security.md#browsers): what counts as a loopback
 * peer, host or origin, which origins are the daemon's own, and how origins compare. The HTTP
 * guards (`http/auth.ts`, `http/session-cookie.ts`) and the desktop-reveal gate
 * (`runtime/workspaces/file-references.ts`) all decide with them.
 */
import { isIPv4 } from 'node:net';

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

/** `origin` of an http(s) URL, normalised (scheme and host lowercase, default port dropped); null otherwise. */
export function normaliseOrigin(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return url.origin;
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

/** A loopback origin (`http://localhost:3000`, `http://127.0.0.1:8700`, `http://[::1]:5173`). */
export function isLoopbackOrigin(origin: string): boolean {
  const normalised = normaliseOrigin(origin);
  return normalised !== null && isLoopbackName(new URL(normalised).hostname);
}

/**
 * The daemon's own origin as a browser names it: the origin the request was addressed to, the Host
 * header (already checked by `hostAllowed`) over http, or over https when a TLS proxy sits in front.
 * A page of the daemon (the console on `/`) sends this origin; no other server can serve a page
 * at the same host and port.
 */
export function ownOrigins(hostHeader: string | undefined): string[] {
  if (!hostHeader) return [];
  return [normaliseOrigin(`http://${hostHeader}`), normaliseOrigin(`https://${hostHeader}`)].filter((o): o is string => o !== null);
}

/**
 * Whether a request carrying `Origin` may be served at all: it comes from the daemon's own origin
 * (see ownOrigins) or from one the configuration trusts (`trusted`: auth.allowed_origins and the
 * origin of auth.oidc.redirect_url, normalised). Any other page is refused, another port of this
 * host included: a page on localhost:3000 is another site's page, and a simple request
 * (`fetch(url, {method: 'POST', mode: 'no-cors'})`) needs no preflight. `null` (sandboxed frames,
 * file://) and anything that is not an http(s) origin are refused.
 */
export function originAllowed(origin: string, hostHeader: string | undefined, trusted: ReadonlySet<string>): boolean {
  // Compared as origins (`https://x:443` is `https://x`), the way the CORS answer matches them.
  const normalised = normaliseOrigin(origin);
  if (normalised === null) return false;
  return trusted.has(normalised) || ownOrigins(hostHeader).includes(normalised);
}

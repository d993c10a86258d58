/**
 * Host and Origin rules on plain strings (CONTRACT.md section 4): what counts as a loopback peer,
 * host or origin, and how origins compare. The HTTP guards (`http/auth.ts`) and the desktop-reveal
 * gate (`runtime/file-references.ts`) both decide with them.
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

export function originAllowed(origin: string, allowed: string[]): boolean {
  // Compared as origins (`https://x:443` is `https://x`), the way the CORS answer matches them.
  const normalised = normaliseOrigin(origin);
  if (normalised === null) return false;
  if (allowed.some((a) => normaliseOrigin(a) === normalised)) return true;
  return isLoopbackName(new URL(normalised).hostname);
}

/**
 * Which URLs web_fetch may ask for, before any connection (docs/tools.md#web-fetch): http and
 * https only, no credentials in the URL, a host that `tools.web.allowed_hosts` lists, and, for a
 * host written as an IP address, an address its class allows. Checked again on every redirect.
 * The address a name resolves to is checked where the connection is made (connector.ts).
 */
import ipaddr from 'ipaddr.js';
import { errors } from '../../core/index.js';
import { addressAllowed, classifyAddress, describeRefusal } from './address-guard.js';

/** The `[tools.web]` keys the checks read (read anew for every fetch: the config may change). */
export interface HostPolicy {
  allowed_hosts: readonly string[];
  private_hosts: readonly string[];
}

/** A URL that passed the checks, and what the connection check needs to know about its host. */
export interface CheckedTarget {
  url: URL;
  /** The host as matched: lower case, no brackets, no trailing dot. */
  host: string;
  /** The host may resolve to a private address (it is listed in private_hosts). */
  privateHost: boolean;
}

/** How URLs appear in messages to the model: whole, up to a length. */
export function shownUrl(url: string): string {
  return JSON.stringify(url.length > 300 ? `${url.slice(0, 300)}…` : url);
}

/** Parses `raw` (relative to `base` for a redirect's Location) and applies every check that needs no connection. */
export function checkUrl(raw: string, policy: HostPolicy, base?: URL): CheckedTarget {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw errors.urlRefused(shownUrl(raw), 'invalid_url', 'it is not a valid absolute URL');
  }
  const shown = shownUrl(url.href);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw errors.urlRefused(shown, 'scheme', `scheme ${JSON.stringify(url.protocol.slice(0, -1))} is not fetched: only http and https`);
  }
  if (url.username !== '' || url.password !== '') {
    throw errors.urlRefused(shown, 'credentials', 'a URL with a user name or password (user:pass@host) is not fetched');
  }
  const host = normaliseHost(url.hostname);
  if (!hostMatches(policy.allowed_hosts, host)) {
    throw errors.urlRefused(shown, 'host_not_allowed', `host ${JSON.stringify(host)} is not in tools.web.allowed_hosts`, { host });
  }
  const privateHost = hostMatches(policy.private_hosts, host);
  // Node connects to an IP literal without asking the resolver, so its class is checked here
  // (and the connected socket's address is checked again in connector.ts).
  const literal = classifyAddress(host);
  if (literal && !addressAllowed(literal, privateHost)) {
    throw errors.urlRefused(shown, 'private_address', describeRefusal(literal), { host, address: literal.address, range: literal.range });
  }
  return { url, host, privateHost };
}

/** Lower case, without IPv6 brackets or one trailing dot (`Example.COM.` is `example.com`). */
export function normaliseHost(hostname: string): string {
  let h = hostname.toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.')) h = h.slice(0, -1);
  return h;
}

/**
 * Whether one of `patterns` names `host`: `*` any host; `*.example.com` any name under
 * example.com (not example.com itself, nor `example.com.evil`); an IP address the same address
 * (in any spelling: `::1`, `[0:0::1]`); a name that name (case and a trailing dot aside).
 */
export function hostMatches(patterns: readonly string[], host: string): boolean {
  const hostIp = ipOf(host);
  return patterns.some((raw) => {
    const pattern = normaliseHost(raw);
    if (pattern === '*') return true;
    const patternIp = ipOf(pattern);
    if (patternIp || hostIp) return patternIp !== null && patternIp === hostIp;
    if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1;
    return pattern === host;
  });
}

/** The canonical text of an IP address (IPv4-mapped IPv6 as IPv4), or null for a name. */
function ipOf(text: string): string | null {
  if (!ipaddr.isValid(text)) return null;
  // A pattern or host of digits and dots only is an IPv4 literal only in its four-part dotted
  // form; the URL parser has already rewritten other spellings of a host into that form.
  if (ipaddr.IPv4.isValid(text) && !ipaddr.IPv4.isValidFourPartDecimal(text)) return null;
  return ipaddr.process(text).toString();
}

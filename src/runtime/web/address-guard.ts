/**
 * Which IP addresses web_fetch may connect to (docs/tools.md#web-fetch). Every address is
 * classified by ipaddr.js's table of special ranges, never by a pattern of our own:
 *
 * - `public`: a global unicast address; any allowed host may be one.
 * - `private`: loopback, RFC 1918, link-local, unique-local, carrier-grade NAT, and every other
 *   special-purpose range (documentation, benchmarking, site-local, …); only a host listed in
 *   `tools.web.private_hosts` may be one.
 * - `forbidden`: never connected to, whatever the configuration says: the cloud metadata
 *   endpoints (credentials live there, and a page a model reads is no reason to reach them), and
 *   addresses that are no destination at all (unspecified, multicast, broadcast).
 *
 * IPv6 forms that carry an IPv4 address are judged by the address they carry: IPv4-mapped
 * (`::ffff:127.0.0.1`), IPv4-translated, NAT64 (64:ff9b::/96) and 6to4 (2002::/16). Teredo and the
 * deprecated IPv4-compatible form (`::127.0.0.1`) are treated as private.
 */
import ipaddr from 'ipaddr.js';

export type AddressKind = 'public' | 'private' | 'forbidden';

export interface AddressClass {
  /** The address as classified (an IPv4-in-IPv6 form is named by the IPv4 address it carries). */
  address: string;
  /** ipaddr.js's range name (`loopback`, `private`, `linkLocal`, …), `metadata` or `ipv4Compatible`. */
  range: string;
  kind: AddressKind;
}

/**
 * Instance metadata services: AWS, GCP, Azure, Oracle and others at 169.254.169.254 (and AWS's
 * IPv6 fd00:ec2::254), AWS ECS task metadata at 169.254.170.2, Alibaba Cloud at 100.100.100.200.
 */
const METADATA = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254']);

const FORBIDDEN_RANGES = new Set(['unspecified', 'multicast', 'broadcast']);

/** NAT64 prefixes whose last 32 bits are the IPv4 address (RFC 6052 well-known prefix). */
const NAT64 = ipaddr.IPv6.parse('64:ff9b::');

/** Classifies an IP address as text (a zone `%eth0` is ignored); null when it is not one. */
export function classifyAddress(text: string): AddressClass | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (!ipaddr.isValid(bare)) return null;
  // ipaddr.parse also accepts legacy IPv4 spellings (0x7f.1); the URL parser has already turned
  // those into dotted quads, and a resolver answers dotted quads, so this sees the same address.
  return classify(ipaddr.parse(bare));
}

function classify(addr: ipaddr.IPv4 | ipaddr.IPv6): AddressClass {
  if (addr.kind() === 'ipv6') {
    const v6 = addr as ipaddr.IPv6;
    const embedded = embeddedIPv4(v6);
    if (embedded) return classify(embedded);
    const address = stripZone(v6.toString());
    if (METADATA.has(address)) return { address, range: 'metadata', kind: 'forbidden' };
    const range = isIPv4Compatible(v6) ? 'ipv4Compatible' : v6.range();
    return { address, range, kind: kindOf(range) };
  }
  const address = addr.toString();
  if (METADATA.has(address)) return { address, range: 'metadata', kind: 'forbidden' };
  const range = addr.range();
  return { address, range, kind: kindOf(range) };
}

function kindOf(range: string): AddressKind {
  if (range === 'unicast') return 'public';
  return FORBIDDEN_RANGES.has(range) ? 'forbidden' : 'private';
}

/** The IPv4 address an IPv6 address stands for, where the IPv6 form is a deterministic translation. */
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = v6.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145') return v4From(v6.parts[6]!, v6.parts[7]!);
  if (range === '6to4') return v4From(v6.parts[1]!, v6.parts[2]!);
  if (range === 'rfc6052' && v6.match(NAT64, 96)) return v4From(v6.parts[6]!, v6.parts[7]!);
  return null;
}

/** `::a.b.c.d` (deprecated, RFC 4291 2.5.5.1): the first 96 bits zero, and neither `::` nor `::1`. */
function isIPv4Compatible(v6: ipaddr.IPv6): boolean {
  const p = v6.parts;
  return p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || p[7]! > 1);
}

function v4From(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

function stripZone(text: string): string {
  const i = text.indexOf('%');
  return i < 0 ? text : text.slice(0, i);
}

/** Whether a host may connect to `cls`: public always, private only when it is a private host, forbidden never. */
export function addressAllowed(cls: AddressClass, privateHost: boolean): boolean {
  return cls.kind === 'public' || (cls.kind === 'private' && privateHost);
}

/** Why `cls` is refused, for the model: `127.0.0.1 is a loopback address`. */
export function describeRefusal(cls: AddressClass): string {
  if (cls.range === 'metadata') return `${cls.address} is a cloud metadata address, never fetched`;
  if (cls.kind === 'forbidden') return `${cls.address} is a ${cls.range} address, never fetched`;
  return `${cls.address} is a ${cls.range} address; list the host in tools.web.private_hosts to allow it`;
}

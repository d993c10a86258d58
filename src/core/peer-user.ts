/**
 * Who is on the other end of a TCP connection. "Local mode trusts the local process boundary"
 * (spec/control-plane.md, Authentication) means the processes of the user running svc, not every
 * account on the machine: a loopback connection without a credential is served only when the
 * connecting socket belongs to the daemon's own uid.
 *
 * Linux lists every TCP socket of the network namespace in /proc/net/tcp and /proc/net/tcp6 with
 * the uid that owns it. The client's socket is the row whose local address is the connection's
 * remote end and whose remote address is the connection's local end. Only an ESTABLISHED (or
 * CLOSE_WAIT) row with a live inode counts: a socket its owner already closed is listed with
 * uid 0 and inode 0, which must never read as "root". Anything else, a socket from another host
 * or another network namespace, a system without /proc, is "unknown", and the caller fails closed.
 * The answer is looked up once per connection and cached on the socket; look-ups arriving
 * together share one read of the table.
 */
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import { isIPv4 } from 'node:net';
import os from 'node:os';
import type { Socket } from 'node:net';
import { isLoopbackAddress } from './origins.js';

export interface ProcNetRow {
  localAddress: string;
  localPort: number;
  remoteAddress: string;
  remotePort: number;
  /** Kernel TCP state (0x01 ESTABLISHED, 0x08 CLOSE_WAIT, 0x0A LISTEN, …). */
  state: number;
  uid: number;
  inode: number;
}

const ESTABLISHED = 0x01;
const CLOSE_WAIT = 0x08;
const LISTEN = 0x0a;

const littleEndian = os.endianness() === 'LE';

/** One 32-bit word of /proc/net/tcp as its four address bytes, in network order. */
function wordBytes(hex8: string): number[] {
  const bytes = [0, 2, 4, 6].map((i) => parseInt(hex8.slice(i, i + 2), 16));
  return littleEndian ? bytes.reverse() : bytes;
}

/** `0100007F` -> `127.0.0.1`; 32 hex digits -> an IPv6 address (IPv4-mapped ones as IPv4). */
export function decodeProcAddress(hex: string): string {
  if (hex.length === 8) return wordBytes(hex).join('.');
  const bytes: number[] = [];
  for (let i = 0; i < 32; i += 8) bytes.push(...wordBytes(hex.slice(i, i + 8)));
  return normaliseAddress(ipv6FromBytes(bytes));
}

function ipv6FromBytes(bytes: number[]): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  const isMapped = groups.slice(0, 5).every((g) => g === '0') && groups[5] === 'ffff';
  if (isMapped) return `::ffff:${bytes.slice(12).join('.')}`;
  return groups.join(':');
}

/** One spelling per address: IPv4-mapped IPv6 as plain IPv4, IPv6 fully expanded without zero padding. */
export function normaliseAddress(addr: string): string {
  const a = addr.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (mapped) return mapped[1]!;
  if (isIPv4(a) || !a.includes(':')) return a;
  // Expand `::` so that `::1` and `0:0:0:0:0:0:0:1` compare equal.
  const [head, tail] = a.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array(8 - h.length - t.length).fill('0');
  return [...h, ...fill, ...t].map((g) => parseInt(g, 16).toString(16)).join(':');
}

/** Rows of /proc/net/tcp or /proc/net/tcp6 (the header line is skipped, malformed lines too). */
export function parseProcNetTcp(text: string): ProcNetRow[] {
  const rows: ProcNetRow[] = [];
  for (const line of text.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10) continue;
    const local = /^([0-9A-Fa-f]{8}|[0-9A-Fa-f]{32}):([0-9A-Fa-f]{4})$/.exec(f[1]!);
    const remote = /^([0-9A-Fa-f]{8}|[0-9A-Fa-f]{32}):([0-9A-Fa-f]{4})$/.exec(f[2]!);
    if (!local || !remote) continue;
    rows.push({
      localAddress: decodeProcAddress(local[1]!),
      localPort: parseInt(local[2]!, 16),
      remoteAddress: decodeProcAddress(remote[1]!),
      remotePort: parseInt(remote[2]!, 16),
      state: parseInt(f[3]!, 16),
      uid: Number(f[7]),
      inode: Number(f[9]),
    });
  }
  return rows;
}

export interface ConnectionEnds {
  localAddress: string;
  localPort: number;
  remoteAddress: string;
  remotePort: number;
}

/** The uid owning the client end of a connection, from the rows of its namespace, or null. */
export function findPeerUid(rows: ProcNetRow[], conn: ConnectionEnds): number | null {
  return findPeerRow(rows, conn)?.uid ?? null;
}

/** The row of the client end of a connection (a live one), or null. */
function findPeerRow(rows: ProcNetRow[], conn: ConnectionEnds): ProcNetRow | null {
  const la = normaliseAddress(conn.localAddress);
  const ra = normaliseAddress(conn.remoteAddress);
  for (const r of rows) {
    if (r.localPort !== conn.remotePort || r.remotePort !== conn.localPort) continue;
    if (r.localAddress !== ra || r.remoteAddress !== la) continue;
    if ((r.state !== ESTABLISHED && r.state !== CLOSE_WAIT) || r.inode === 0) return null;
    return r;
  }
  return null;
}

/** Bound to these, a listening socket takes connections to every local address (`::` may take IPv4 too). */
const WILDCARDS = new Set(['0.0.0.0', normaliseAddress('::')]);

/**
 * The listening sockets a connection to `address`:`port` may reach: those bound to that port on
 * that address or on a wildcard address of either family. Who owns them is who would answer.
 */
export function findListeners(rows: ProcNetRow[], address: string, port: number): ProcNetRow[] {
  const a = normaliseAddress(address);
  return rows.filter((r) => r.state === LISTEN && r.localPort === port && (r.localAddress === a || WILDCARDS.has(r.localAddress)));
}

const PROC_FILES = ['/proc/net/tcp', '/proc/net/tcp6'];

/** Every row of /proc/net/tcp and tcp6, read synchronously (for the CLI); null when neither can be read. */
export function readProcNetTcpSync(): ProcNetRow[] | null {
  let rows: ProcNetRow[] | null = null;
  for (const file of PROC_FILES) {
    try {
      const text = readFileSync(file, 'utf8');
      (rows ??= []).push(...parseProcNetTcp(text));
    } catch {
      /* a kernel without IPv6, or no /proc */
    }
  }
  return rows;
}

/** Port as /proc/net/tcp writes it: four upper-case hex digits. */
const hexPort = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');

/**
 * The rows whose ports are those of a wanted connection (`<client port><server port>` in hex, the
 * client's row listing its own port first), read without parsing the rest: the table lists every
 * socket of the namespace, tens of thousands of rows when connections churn (TIME_WAIT ones
 * included), and a full parse of that costs ~100 ms of the event loop. Only the matching lines are
 * parsed; their addresses are compared by `findPeerUid`.
 */
export function rowsForPorts(text: string, wanted: ReadonlySet<string>): ProcNetRow[] {
  const rows: ProcNetRow[] = [];
  let start = text.indexOf('\n') + 1;
  while (start > 0 && start < text.length) {
    const next = text.indexOf('\n', start);
    const end = next === -1 ? text.length : next;
    const local = text.indexOf(': ', start) + 2;
    const localEnd = local > 1 && local < end ? text.indexOf(' ', local) : -1;
    const remoteEnd = localEnd === -1 ? -1 : text.indexOf(' ', localEnd + 1);
    if (remoteEnd !== -1 && remoteEnd < end && wanted.has(text.slice(localEnd - 4, localEnd) + text.slice(remoteEnd - 4, remoteEnd))) {
      rows.push(...parseProcNetTcp(`\n${text.slice(start, end)}`));
    }
    start = end + 1;
  }
  return rows;
}

/** Who holds the client end: its uid, and the socket's inode (which process holds it: /proc/<pid>/fd). */
export interface Peer {
  uid: number;
  inode: number;
}

interface Waiting {
  conn: ConnectionEnds;
  resolve: (peer: Peer | null) => void;
}

/**
 * Look-ups wait for the next read of the table, which answers all of them: a burst of connections
 * costs one read, not one each, and reads never overlap.
 */
let waiting: Waiting[] = [];
let reading = false;

function scheduleRead(): void {
  if (reading || waiting.length === 0) return;
  reading = true;
  setImmediate(() => {
    const batch = waiting;
    waiting = [];
    void answer(batch).finally(() => {
      reading = false;
      scheduleRead();
    });
  });
}

async function answer(batch: Waiting[]): Promise<void> {
  let left = batch;
  for (const file of PROC_FILES) {
    if (left.length === 0) break;
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch {
      continue;
    }
    const rows = rowsForPorts(text, new Set(left.map((w) => hexPort(w.conn.remotePort) + hexPort(w.conn.localPort))));
    left = left.filter((w) => {
      const row = findPeerRow(rows, w.conn);
      if (row === null) return true;
      w.resolve({ uid: row.uid, inode: row.inode });
      return false;
    });
  }
  for (const w of left) w.resolve(null);
}

function lookupPeer(socket: Socket): Promise<Peer | null> {
  const { localAddress, localPort, remoteAddress, remotePort } = socket;
  if (!localAddress || !localPort || !remoteAddress || !remotePort) return Promise.resolve(null);
  return new Promise((resolve) => {
    waiting.push({ conn: { localAddress, localPort, remoteAddress, remotePort }, resolve });
    scheduleRead();
  });
}

const cache = new WeakMap<Socket, Promise<Peer | null>>();
const known = new WeakMap<Socket, Peer | null>();

/** Who owns the other end of this TCP connection, or null when unknown; looked up once per connection. */
export function peerOf(socket: Socket): Promise<Peer | null> {
  let found = cache.get(socket);
  if (!found) {
    found = lookupPeer(socket);
    cache.set(socket, found);
    void found.then((peer) => known.set(socket, peer), () => undefined);
  }
  return found;
}

/** The uid of the process that owns the other end of this TCP connection, or null when unknown. */
export function peerUid(socket: Socket): Promise<number | null> {
  return peerOf(socket).then((peer) => peer?.uid ?? null);
}

/** The answer of `peerUid` once it has settled for this connection (undefined before). */
export function knownPeerUid(socket: Socket): number | null | undefined {
  const peer = known.get(socket);
  return peer === undefined ? undefined : (peer?.uid ?? null);
}

/** The peer once its look-up has settled for this connection (undefined before). */
export function knownPeer(socket: Socket): Peer | null | undefined {
  return known.get(socket);
}

/** The daemon's own uid (null where the platform has none). */
export const ownUid: number | null = typeof process.getuid === 'function' ? process.getuid() : null;

/**
 * Who a TCP peer is, for per-peer budgets (connections, sign-in failures): `uid:<n>` for a
 * process of this machine over loopback (`uid:unknown` when its uid cannot be found), else
 * `address:<a>`, an IPv6 address by its /64 (one host's usual allocation, so that a host cannot
 * multiply its budget by changing addresses).
 */
export async function peerKey(socket: Socket): Promise<string> {
  const remote = socket.remoteAddress;
  if (remote === undefined) return 'unix';
  if (!isLoopbackAddress(remote)) return addressKey(remote);
  const uid = await peerUid(socket);
  return uid === null ? 'uid:unknown' : `uid:${uid}`;
}

export function addressKey(remote: string): string {
  const a = normaliseAddress(remote);
  return `address:${isIPv4(a) ? a : `${a.split(':').slice(0, 4).join(':')}::/64`}`;
}

/** The key `peerKey` gives the daemon's own user (null where there are no uids). */
export const ownKey: string | null = ownUid === null ? null : `uid:${ownUid}`;

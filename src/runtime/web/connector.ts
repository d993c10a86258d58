/**
 * The connection side of web_fetch's address check (docs/tools.md#web-fetch). A name is resolved
 * once, where the socket is opened, and the socket is handed only addresses that passed the check,
 * so a name that answers a public address to one lookup and 127.0.0.1 to the next (DNS
 * rebinding) reaches nothing private: there is no earlier lookup whose answer could go stale.
 * Of the addresses a name resolves to, the allowed ones are tried; when none is allowed the fetch
 * is refused. Once connected, the socket's remote address is checked again (an IP literal never
 * reaches the resolver; this is the second line for it and for anything the first line missed).
 */
import dns from 'node:dns';
import type { LookupFunction, Socket } from 'node:net';
import { buildConnector } from 'undici';
import { addressAllowed, classifyAddress, describeRefusal, type AddressClass } from './address-guard.js';

/** One resolved address, as dns.lookup({all: true}) answers. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to its addresses (tests inject one; the default is the system resolver). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** A connection refused by the address check; the fetcher turns it into `url_refused`. */
export class AddressRefusedError extends Error {
  constructor(
    readonly host: string,
    readonly refused: AddressClass,
  ) {
    super(`host ${JSON.stringify(host)}: ${describeRefusal(refused)}`);
    this.name = 'AddressRefusedError';
  }
}

/** Whether connections to `host` may reach private addresses (the host is listed in private_hosts). */
export type PrivateHostCheck = (host: string) => boolean;

/**
 * An undici connector (Agent `connect` option) that resolves through `resolve`, connects only to
 * allowed addresses, and checks the connected socket's address before undici sends a byte on it.
 */
export function guardedConnector(opts: { resolve: Resolver; privateHost: PrivateHostCheck; timeoutMs: number }): buildConnector.connector {
  const lookup = guardedLookup(opts.resolve, opts.privateHost);
  const connect = buildConnector({ timeout: opts.timeoutMs, lookup } as buildConnector.BuildOptions);
  return (options, callback) =>
    connect(options, (err, socket) => {
      if (err || !socket) return callback(err ?? new Error('no socket'), null);
      const host = options.hostname;
      const cls = classifyAddress((socket as Socket).remoteAddress ?? '');
      const refused = cls === null ? unknownAddress(socket as Socket) : addressAllowed(cls, opts.privateHost(host)) ? null : cls;
      if (refused) {
        socket.destroy();
        return callback(new AddressRefusedError(host, refused), null);
      }
      callback(null, socket);
    });
}

/** A socket whose remote address cannot be read is not trusted (it was closed already, or is not IP). */
function unknownAddress(socket: Socket): AddressClass {
  return { address: String(socket.remoteAddress ?? 'an unknown address'), range: 'unknown', kind: 'forbidden' };
}

/** net.connect's `lookup` over `resolve`, answering only the addresses the host may connect to. */
function guardedLookup(resolve: Resolver, privateHost: PrivateHostCheck): LookupFunction {
  return (hostname, options, callback) => {
    const all = typeof options === 'object' && options !== null && (options as dns.LookupOptions).all === true;
    const family = typeof options === 'object' && options !== null ? (options as dns.LookupOptions).family : undefined;
    resolve(hostname).then(
      (answers) => {
        const wanted = answers.filter((a) => !family || family === 0 || a.family === family);
        let firstRefused: AddressClass | null = null;
        const allowed: ResolvedAddress[] = [];
        for (const a of wanted) {
          const cls = classifyAddress(a.address);
          if (cls && addressAllowed(cls, privateHost(hostname))) allowed.push({ address: a.address, family: a.family });
          else firstRefused ??= cls ?? { address: a.address, range: 'unknown', kind: 'forbidden' };
        }
        if (allowed.length === 0) {
          const err = firstRefused ? new AddressRefusedError(hostname, firstRefused) : Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
          return callback(err, all ? [] : '', 4);
        }
        if (all) return (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, allowed);
        callback(null, allowed[0]!.address, allowed[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, all ? [] : '', 4),
    );
  };
}

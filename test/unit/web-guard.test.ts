/**
 * web_fetch's checks without the tool (docs/tools.md#web-fetch): every special address range is
 * private or never fetched (IPv4-in-IPv6 forms judged by the IPv4 address they carry, metadata
 * endpoints refused even for a private host); URLs are refused for their scheme, credentials,
 * host and literal address, in every spelling the URL parser turns into 127.0.0.1; host patterns
 * match what they say and nothing more; and the connection guard refuses a name resolving to a
 * private address (localhost, a resolver answering 127.0.0.1) at the socket, and checks the
 * connected address of an IP literal, which never reaches the resolver.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { classifyAddress } from '../../src/runtime/web/address-guard.js';
import { AddressRefusedError, guardedConnector, type Resolver } from '../../src/runtime/web/connector.js';
import { checkUrl, hostMatches, type HostPolicy } from '../../src/runtime/web/host-policy.js';

const OPEN: HostPolicy = { allowed_hosts: ['*'], private_hosts: [] };

/** The `url_refused` reason of checking `url` under `policy` (fails the test if it passes). */
function refusal(url: string, policy: HostPolicy = OPEN): { reason: string; extra: Record<string, unknown>; message: string } {
  try {
    checkUrl(url, policy);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    const e = err as AppError;
    expect(e.code).toBe('url_refused');
    return { reason: e.extra.reason as string, extra: e.extra, message: e.message };
  }
  throw new Error(`${url} was not refused`);
}

describe('address classes', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.1.1', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.255', 'carrierGradeNat'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['2001:db8::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['::7f00:1', 'ipv4Compatible'],
    ['::a00:1', 'ipv4Compatible'],
  ])('%s is private (%s)', (address, range) => {
    expect(classifyAddress(address)).toMatchObject({ range, kind: 'private' });
  });

  it.each([
    ['::ffff:127.0.0.1', '127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', '127.0.0.1', 'loopback'],
    ['[::ffff:10.0.0.1]', '10.0.0.1', 'private'],
    ['::ffff:0:192.168.0.1', '192.168.0.1', 'private'],
    ['64:ff9b::10.0.0.1', '10.0.0.1', 'private'],
    ['64:ff9b::7f00:1', '127.0.0.1', 'loopback'],
    ['2002:7f00:1::', '127.0.0.1', 'loopback'],
    ['2002:c0a8:101::1', '192.168.1.1', 'private'],
  ])('%s carries %s and is judged by it (%s)', (address, inner, range) => {
    expect(classifyAddress(address)).toEqual({ address: inner, range, kind: 'private' });
  });

  it.each([
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['fd00:ec2:0::254', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
  ])('%s is never fetched (%s)', (address, range) => {
    expect(classifyAddress(address)).toMatchObject({ range, kind: 'forbidden' });
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])('%s is public', (address) => {
    expect(classifyAddress(address)).toMatchObject({ kind: 'public' });
  });

  it('answers null for what is not an address', () => {
    for (const text of ['example.com', '', 'localhost', '1.2.3.4.5', ':::']) expect(classifyAddress(text)).toBeNull();
  });
});

describe('URL checks', () => {
  it.each(['file:///etc/passwd', 'ftp://example.com/x', 'gopher://example.com/', 'data:text/plain,hi', 'javascript:alert(1)', 'ws://example.com/'])('refuses the scheme of %s', (url) => {
    expect(refusal(url).reason).toBe('scheme');
  });

  it.each(['http://user:pass@example.com/', 'https://user@example.com/', 'http://:secret@example.com/'])('refuses credentials in %s', (url) => {
    expect(refusal(url).reason).toBe('credentials');
  });

  it.each(['not a url', '/relative/path', 'http://', 'http://exa mple.com/'])('refuses %j as no valid URL', (url) => {
    expect(refusal(url).reason).toBe('invalid_url');
  });

  it.each([
    'http://127.0.0.1/',
    'http://127.1/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://0x7f000001/',
    'http://017700000001/',
    'http://0177.0.0.1/',
    'http://[::1]/',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://10.0.0.1:8080/',
    'http://192.168.0.1/',
    'http://[fe80::1]/',
    'http://[fd00::1]/',
    'http://100.64.0.1/',
    'HTTP://127.0.0.1./',
  ])('refuses the private literal %s', (url) => {
    const r = refusal(url);
    expect(r.reason).toBe('private_address');
    expect(r.message).toContain('tools.web.private_hosts');
  });

  it('names the normalised address of an odd spelling', () => {
    expect(refusal('http://0x7f.1/').extra).toMatchObject({ host: '127.0.0.1', address: '127.0.0.1', range: 'loopback' });
    expect(refusal('http://[::ffff:127.0.0.1]/').extra).toMatchObject({ address: '127.0.0.1', range: 'loopback' });
  });

  it('allows a private literal listed in private_hosts, in any spelling of the same address', () => {
    const policy = { allowed_hosts: ['*'], private_hosts: ['127.0.0.1', '::1'] };
    for (const url of ['http://127.0.0.1:8080/x', 'http://0x7f.1/', 'http://2130706433/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/']) {
      expect(checkUrl(url, policy).privateHost, url).toBe(true);
    }
    expect(refusal('http://127.0.0.2/', policy).reason).toBe('private_address');
  });

  it.each(['http://169.254.169.254/latest/meta-data/', 'http://[fd00:ec2::254]/', 'http://100.100.100.200/', 'http://[::ffff:169.254.169.254]/', 'http://0.0.0.0/', 'http://[::]/'])(
    'refuses %s even when every host may be private',
    (url) => {
      const r = refusal(url, { allowed_hosts: ['*'], private_hosts: ['*'] });
      expect(r.reason).toBe('private_address');
      expect(r.message).toMatch(/never fetched/);
    },
  );

  it('refuses a host allowed_hosts does not list, before anything else is checked', () => {
    const policy = { allowed_hosts: ['docs.example.com'], private_hosts: ['localhost'] };
    expect(refusal('https://evil.example.net/', policy)).toMatchObject({ reason: 'host_not_allowed', extra: { host: 'evil.example.net' } });
    // A private host must be allowed too: private_hosts only lets an allowed host be private.
    expect(refusal('http://localhost/', policy).reason).toBe('host_not_allowed');
    expect(checkUrl('https://DOCS.example.com./a?b#c', policy).host).toBe('docs.example.com');
  });

  it('accepts a public name and a public literal, with any port', () => {
    expect(checkUrl('https://example.com:8443/x', OPEN)).toMatchObject({ host: 'example.com', privateHost: false });
    expect(checkUrl('http://93.184.216.34:81/', OPEN).host).toBe('93.184.216.34');
    expect(checkUrl('http://[2606:4700:4700::1111]/', OPEN).host).toBe('2606:4700:4700::1111');
  });

  it('resolves a redirect against the URL it came from and checks it again', () => {
    const base = new URL('https://example.com/a/b');
    expect(checkUrl('../c', OPEN, base).url.href).toBe('https://example.com/c');
    expect(reasonOf(() => checkUrl('http://127.0.0.1/', OPEN, base))).toBe('private_address');
    expect(reasonOf(() => checkUrl('file:///etc/passwd', OPEN, base))).toBe('scheme');
  });
});

function reasonOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return (err as AppError).extra.reason as string;
  }
  throw new Error('not refused');
}

describe('host patterns', () => {
  it.each([
    [['*'], 'anything.example', true],
    [['example.com'], 'example.com', true],
    [['Example.COM'], 'example.com', true],
    [['example.com.'], 'example.com', true],
    [['example.com'], 'www.example.com', false],
    [['*.example.com'], 'www.example.com', true],
    [['*.example.com'], 'a.b.example.com', true],
    [['*.example.com'], 'example.com', false],
    [['*.example.com'], 'example.com.evil', false],
    [['*.example.com'], 'www.example.com.evil', false],
    [['*.example.com'], 'evilexample.com', false],
    [['*.example.com'], 'www.evilexample.com', false],
    [['example.com'], 'example.com.evil', false],
    [['127.0.0.1'], '127.0.0.1', true],
    [['127.0.0.1'], '::ffff:127.0.0.1', true],
    [['[::1]'], '::1', true],
    [['::1'], '0:0:0:0:0:0:0:1', true],
    [['127.0.0.1'], '127.0.0.2', false],
    [['*.0.0.1'], '127.0.0.1', false],
    [['localhost'], '127.0.0.1', false],
    [[], 'example.com', false],
  ])('%j matches %s: %s', (patterns, host, expected) => {
    expect(hostMatches(patterns, host)).toBe(expected);
  });

  it('treats a trailing dot on the URL host as the same name', () => {
    expect(checkUrl('http://example.com./', { allowed_hosts: ['example.com'], private_hosts: [] }).host).toBe('example.com');
    expect(checkUrl('http://www.example.com./', { allowed_hosts: ['*.example.com'], private_hosts: [] }).host).toBe('www.example.com');
    expect(refusal('http://example.com.evil./', { allowed_hosts: ['*.example.com', 'example.com'], private_hosts: [] }).reason).toBe('host_not_allowed');
  });
});

describe('the connection guard', () => {
  let server: http.Server;
  let port: number;
  let hits = 0;
  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      hits++;
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  /** Opens a connection through the guard; the socket's remote address, or the error. */
  function connect(hostname: string, opts: { resolve?: Resolver; privateHosts?: string[] }): Promise<string | Error> {
    const connector = guardedConnector({
      resolve: opts.resolve ?? ((h) => import('node:dns').then((dns) => dns.promises.lookup(h, { all: true }))),
      privateHost: (h) => hostMatches(opts.privateHosts ?? [], h),
      timeoutMs: 5000,
    });
    return new Promise((resolve) =>
      connector({ hostname, protocol: 'http:', port: String(port) }, (err, socket) => {
        if (err) return resolve(err);
        const address = (socket as Socket).remoteAddress!;
        (socket as Socket).destroy();
        resolve(address);
      }),
    );
  }

  it('refuses localhost, which resolves to a loopback address, unless it is a private host', async () => {
    const refused = await connect('localhost', {});
    expect(refused).toBeInstanceOf(AddressRefusedError);
    expect((refused as AddressRefusedError).refused.range).toBe('loopback');
    expect(await connect('localhost', { privateHosts: ['localhost'] })).toBe('127.0.0.1');
    expect(hits).toBe(0);
  });

  it('refuses a public-looking name whose resolver answers 127.0.0.1 (DNS rebinding) at the socket', async () => {
    let lookups = 0;
    const rebinding: Resolver = async () => (++lookups === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '8.8.8.8', family: 4 }]);
    const refused = await connect('www.example.com', { resolve: rebinding });
    expect(refused).toBeInstanceOf(AddressRefusedError);
    expect(String(refused)).toContain('127.0.0.1 is a loopback address');
    expect(lookups).toBe(1);
  });

  it('connects only to the allowed addresses of a name: metadata is dropped, loopback kept for a private host', async () => {
    const mixed: Resolver = async () => [
      { address: '169.254.169.254', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
    expect(await connect('intranet.test', { resolve: mixed, privateHosts: ['intranet.test'] })).toBe('127.0.0.1');
    const refused = await connect('intranet.test', { resolve: mixed });
    expect((refused as AddressRefusedError).refused).toMatchObject({ address: '169.254.169.254', range: 'metadata' });
  });

  it('checks the connected address of an IP literal, which never reaches the resolver (the second line)', async () => {
    let lookups = 0;
    const counting: Resolver = async () => {
      lookups++;
      return [{ address: '8.8.8.8', family: 4 }];
    };
    const refused = await connect('127.0.0.1', { resolve: counting });
    expect(refused).toBeInstanceOf(AddressRefusedError);
    expect((refused as AddressRefusedError).refused).toMatchObject({ address: '127.0.0.1', range: 'loopback' });
    expect(lookups).toBe(0);
    expect(await connect('127.0.0.1', { resolve: counting, privateHosts: ['127.0.0.1'] })).toBe('127.0.0.1');
  });

  it('passes a resolver failure on as it is', async () => {
    const failing: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.invalid'), { code: 'ENOTFOUND' });
    };
    const err = await connect('nowhere.invalid', { resolve: failing });
    expect(err).toBeInstanceOf(Error);
    expect((err as NodeJS.ErrnoException).code).toBe('ENOTFOUND');
  });
});

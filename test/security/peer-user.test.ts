/**
 * Local mode trusts this user, not every account on the machine
 * (docs/security.md#this-user-not-every-local-account): a TCP client without a credential must be a
 * process of the daemon's uid, on the control plane and on the inbox's loopback port. The attacker
 * here is a real second user (uid 65534) running curl-like requests from a child process; the tests
 * run as root so that they can start it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeProcAddress, findListeners, findPeerUid, normaliseAddress, parseProcNetTcp, rowsForPorts } from '../../src/core/peer-user.js';
import { daemonPool, request, type RunningDaemon } from '../helpers/daemon.js';
import { codeOf, OTHER_UID, requestAs } from '../helpers/peer.js';

const TOKEN = 'peer-test-token';

describe('the /proc/net/tcp reader', () => {
  it('decodes IPv4 and IPv6 addresses in kernel order', () => {
    expect(decodeProcAddress('0100007F')).toBe('127.0.0.1');
    expect(decodeProcAddress('00000000000000000000000001000000')).toBe('0:0:0:0:0:0:0:1');
    expect(decodeProcAddress('0000000000000000FFFF00000100007F')).toBe('127.0.0.1');
    expect(normaliseAddress('::1')).toBe('0:0:0:0:0:0:0:1');
    expect(normaliseAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
  });

  const table = [
    '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
    '   0: 0100007F:21FC 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1001 1 0 100 0 0 10 0',
    '   1: 0100007F:C350 0100007F:21FC 01 00000000:00000000 00:00000000 00000000 65534        0 1002 1 0 20 4 30 10 -1',
    '   2: 0100007F:21FC 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 1003 1 0 20 4 30 10 -1',
    '   3: 0100007F:C351 0100007F:21FC 07 00000000:00000000 00:00000000 00000000     0        0 0 1 0 20 4 30 10 -1',
    'garbage line',
  ].join('\n');

  it('finds the uid of the client end of a connection', () => {
    const rows = parseProcNetTcp(table);
    expect(rows).toHaveLength(4);
    // The server sees remote 127.0.0.1:50000 (0xC350) on its local port 8700 (0x21FC).
    expect(findPeerUid(rows, { localAddress: '127.0.0.1', localPort: 8700, remoteAddress: '::ffff:127.0.0.1', remotePort: 50000 })).toBe(65534);
  });

  it('picks the rows of the wanted ports without parsing the others, in both tables', () => {
    const rows = rowsForPorts(table, new Set(['C35021FC', 'C35121FC']));
    expect(rows.map((r) => r.localPort)).toEqual([50000, 50001]);
    expect(findPeerUid(rows, { localAddress: '127.0.0.1', localPort: 8700, remoteAddress: '127.0.0.1', remotePort: 50000 })).toBe(65534);
    expect(findPeerUid(rows, { localAddress: '127.0.0.1', localPort: 8700, remoteAddress: '127.0.0.1', remotePort: 50001 })).toBeNull();
    const v6 = [
      '  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 00000000000000000000000001000000:C352 00000000000000000000000001000000:21FC 01 00000000:00000000 00:00000000 00000000  1000        0 1004 1 0 20 4 30 10 -1',
    ].join('\n');
    const found = rowsForPorts(v6, new Set(['C35221FC']));
    expect(findPeerUid(found, { localAddress: '::1', localPort: 8700, remoteAddress: '::1', remotePort: 50002 })).toBe(1000);
    expect(rowsForPorts(v6, new Set(['21FCC352']))).toEqual([]);
  });

  it('never reads a closed (orphaned) socket as root, and knows nothing of other hosts', () => {
    const rows = parseProcNetTcp(table);
    expect(findPeerUid(rows, { localAddress: '127.0.0.1', localPort: 8700, remoteAddress: '127.0.0.1', remotePort: 50001 })).toBeNull();
    expect(findPeerUid(rows, { localAddress: '127.0.0.1', localPort: 8700, remoteAddress: '10.0.0.9', remotePort: 50000 })).toBeNull();
  });
});

describe('the listeners of a port', () => {
  it('are the LISTEN rows on that port bound to the address or to a wildcard of either family', () => {
    const rows = parseProcNetTcp(
      [
        '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
        '   0: 0100007F:21FC 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 2001 1 0 100 0 0 10 0',
        '   1: 00000000:21FC 00000000:0000 0A 00000000:00000000 00:00000000 00000000 65534        0 2002 1 0 100 0 0 10 0',
        '   2: 0200007F:21FC 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 2003 1 0 100 0 0 10 0',
        '   3: 0100007F:21FD 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 2004 1 0 100 0 0 10 0',
        '   4: 0100007F:21FC 0100007F:C350 01 00000000:00000000 00:00000000 00000000  1000        0 2005 1 0 20 4 30 10 -1',
        '   5: 00000000000000000000000000000000:21FC 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000 1001 0 2006 1 0 100 0 0 10 0',
      ].join('\n'),
    );
    // 127.0.0.1:8700 is reached by the 127.0.0.1 and the two wildcard listeners, not 127.0.0.2 or port 8701.
    expect(findListeners(rows, '127.0.0.1', 8700).map((r) => r.uid)).toEqual([0, 65534, 1001]);
    expect(findListeners(rows, '::1', 8700).map((r) => r.uid)).toEqual([65534, 1001]);
    expect(findListeners(rows, '127.0.0.1', 8702)).toEqual([]);
  });
});

describe('another local user', () => {
  const pool = daemonPool();
  afterAll(() => pool.cleanup());

  describe('in local mode', () => {
    let d: RunningDaemon;
    beforeAll(async () => {
      d = await pool.start();
    });

    it('cannot run a command, read an agent or reach unknown routes; discovery stays open', async () => {
      const task = await requestAs(OTHER_UID, `${d.base}/api/control/agents/main/tasks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ summary: 'pwn', cmd: 'touch /tmp/svc-peer-pwned' }),
      });
      expect(task.status).toBe(403);
      expect(codeOf(task)).toBe('peer_user_rejected');
      for (const url of ['/api/agents/list', '/api/agents/main/events', '/api/nope']) {
        const r = await requestAs(OTHER_UID, `${d.base}${url}`);
        expect({ url, status: r.status, code: codeOf(r) }).toEqual({ url, status: 403, code: 'peer_user_rejected' });
      }
      const hs = await requestAs(OTHER_UID, `${d.base}/api/handshake`);
      expect(hs.status).toBe(200);
      // Nothing was run for the other user.
      const tasks = await request({ base: d.base }, 'GET', '/api/agents/main/tasks');
      expect(tasks.json.tasks ?? tasks.json).toHaveLength(0);
    });

    it('cannot reach the inbox through the control plane (/api/inbox); the console page is open but holds no data', async () => {
      const create = await requestAs(OTHER_UID, `${d.base}/api/inbox/agents`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"intruder"}' });
      expect({ status: create.status, code: codeOf(create) }).toEqual({ status: 403, code: 'peer_user_rejected' });
      for (const url of ['/api/inbox/agents', '/api/inbox/sources', '/api/agents/main/events/stream']) {
        const r = await requestAs(OTHER_UID, `${d.base}${url}`);
        expect({ url, status: r.status, code: codeOf(r) }).toEqual({ url, status: 403, code: 'peer_user_rejected' });
      }
      expect((await requestAs(OTHER_UID, `${d.base}/`)).status).toBe(200);
      // Nothing was created for the other user.
      expect((await request({ socketPath: d.socket }, 'GET', '/agents')).json.agents).toEqual([]);
      // A page of another origin gets nothing either, whoever runs the browser.
      const page = await request({ base: d.base }, 'GET', '/api/inbox/agents', { headers: { origin: 'https://evil.example' } });
      expect({ status: page.status, code: page.json.code }).toEqual({ status: 403, code: 'cross_origin_rejected' });
    });

    it('still reaches callbacks, whose capability token is the credential (docs/security.md)', async () => {
      const trigger = await request({ base: d.base }, 'POST', '/api/control/agents/main/external-triggers', { body: { delivery_mode: 'enqueue' } });
      expect(trigger.status).toBe(201);
      const res = await requestAs(OTHER_UID, `${d.base}${trigger.json.callback_path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"build":"done"}' });
      expect(res.status).toBe(202);
    });

    it('is served to the daemon user itself', async () => {
      const me = await requestAs(process.getuid!(), `${d.base}/api/agents/list`);
      expect(me.status).toBe(200);
    });
  });

  it('cannot use the inbox TCP port in local mode; the socket owner can', async () => {
    const d = await pool.start({ args: ['--port', String(await freePort())] });
    const port = d.logLines().find((l) => l.msg === 'listening')!.inbox_port as number;
    const hostBody = JSON.stringify({ hostType: 'local_event', hostKey: 'x' });
    const hostile = await requestAs(OTHER_UID, `http://127.0.0.1:${port}/hosts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: hostBody });
    expect({ status: hostile.status, code: codeOf(hostile) }).toEqual({ status: 403, code: 'peer_user_rejected' });
    const own = await request({ base: `http://127.0.0.1:${port}` }, 'POST', '/hosts', { body: JSON.parse(hostBody) });
    expect(own.status).toBe(201);
    const health = await requestAs(OTHER_UID, `http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
  });

  it('in bearer mode: the inbox port needs the token; another user with the token is served', async () => {
    const d = await pool.start({ args: ['--port', String(await freePort()), '--token', TOKEN] });
    const port = d.logLines().find((l) => l.msg === 'listening')!.inbox_port as number;
    const inbox = `http://127.0.0.1:${port}`;
    const none = await request({ base: inbox }, 'GET', '/hosts');
    expect({ status: none.status, code: none.json.code }).toEqual({ status: 401, code: 'auth_required' });
    const withToken = await request({ base: inbox }, 'GET', '/hosts', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(withToken.status).toBe(200);
    // The socket stays file-permission based.
    const socket = await request({ socketPath: d.socket }, 'GET', '/hosts');
    expect(socket.status).toBe(200);
    // Loopback reads without the token are for the daemon's user only.
    const read = await requestAs(OTHER_UID, `${d.base}/api/agents/list`);
    expect({ status: read.status, code: codeOf(read) }).toEqual({ status: 403, code: 'peer_user_rejected' });
    const tokenRead = await requestAs(OTHER_UID, `${d.base}/api/agents/list`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(tokenRead.status).toBe(200);
  });
});

async function freePort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

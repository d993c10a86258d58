/**
 * Bounds on what a caller's input can do (docs/security.md#configuration-patch): JSON nested 10,000
 * deep used to answer 500 (a stack overflow in JSON.stringify) on every route that stores caller
 * JSON, and an error quoted its input whole (a 300 KB field came back as a 614 KB error body).
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonPool, request, type RunningDaemon } from '../helpers/daemon.js';

const pool = daemonPool();
let d: RunningDaemon;
let sourceId: string;
let callbackPath: string;

beforeAll(async () => {
  d = await pool.start();
  const sock = { socketPath: d.socket };
  const host = await request(sock, 'POST', '/hosts', { body: { hostType: 'local_event', hostKey: 'limits' } });
  const source = await request(sock, 'POST', '/sources', { body: { hostId: host.json.hostId, streamKind: 'k', streamKey: 's' } });
  sourceId = source.json.sourceId;
  const trigger = await request(d, 'POST', '/api/control/agents/main/external-triggers', { body: { delivery_mode: 'enqueue' } });
  callbackPath = trigger.json.callback_path;
});
afterAll(() => pool.cleanup());

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);

describe('JSON nesting', () => {
  const cases = (doc: string): Array<[string, { base?: string; socketPath?: string }, string, string]> => [
    ['enqueue', d, '/api/agents/main/enqueue', `{"json":{"v":${doc}}}`],
    ['generic webhook', d, '/api/webhooks/generic/main', `{"v":${doc}}`],
    ['callback', d, callbackPath, `{"v":${doc}}`],
    ['binding metadata', d, '/api/control/agents/main/operator-bindings', `{"transport":"remote_operator","operator_actor_id":"op","metadata":{"v":${doc}}}`],
    ['inbox event', { socketPath: d.socket }, `/sources/${sourceId}/events`, `{"type":"t","data":{"v":${doc}}}`],
    ['inbox host', { socketPath: d.socket }, '/hosts', `{"hostType":"local_event","hostKey":"deep","config":{"v":${doc}}}`],
  ];

  it('10,000 levels: 400 invalid_request on every route that stores caller JSON, never 500', async () => {
    for (const [name, target, url, raw] of cases(deep(10_000))) {
      const res = await request(target, 'POST', url, { raw, headers: { 'content-type': 'application/json' } });
      expect({ name, status: res.status, code: res.json?.code }).toEqual({ name, status: 400, code: 'invalid_request' });
      expect(res.json.error).toMatch(/nested deeper than 64/);
    }
    const health = await request(d, 'GET', '/api/handshake');
    expect(health.status).toBe(200);
  });

  it('60 levels are accepted', async () => {
    const res = await request(d, 'POST', '/api/agents/main/enqueue', { raw: `{"json":{"v":${deep(60)}}}`, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(202);
  });
});

describe('error bodies', () => {
  it('quote a bounded prefix of a 300 KB input', async () => {
    const huge = 'A'.repeat(300_000);
    const attempts: Array<[string, unknown]> = [
      ['/api/agents/main/enqueue', { text: 'x', kind: huge }],
      ['/api/agents/main/enqueue', { text: 'x', origin: { kind: huge } }],
      ['/api/agents/main/enqueue', { text: 'x', [huge]: 1 }],
      ['/api/control/agents/main/control', { action: huge }],
      ['/api/control/runtime/config', { updates: [{ key: huge, value: 1 }] }],
    ];
    for (const [url, body] of attempts) {
      const method = url.endsWith('/config') ? 'PATCH' : 'POST';
      const res = await request(d, method, url, { body });
      expect(res.status, url).toBeGreaterThanOrEqual(200);
      expect(res.status, url).toBeLessThan(500);
      expect(res.text.length, `${url} answered ${res.text.length} bytes`).toBeLessThan(40_000);
    }
  });
});

describe('callback tokens', () => {
  it('are masked in 404 bodies and in logs, whatever spelling the path uses', async () => {
    const logged = await pool.start({ args: ['--log-level', 'debug'] });
    const token = 'T0KEN' + 'x'.repeat(40);
    const variants = [
      `/api//callbacks/enqueue/${token}`,
      `/API/callbacks/enqueue/${token}`,
      `/api/callbacks%2Fenqueue%2F${token}`,
      `/api/./callbacks/enqueue/${token}`,
      `/api/callbacks/wake/${token}/extra`,
      `/api/callbacks/${token}`,
      `/api/callbacks/enqueue/${token}?q=1`,
    ];
    for (const path of variants) {
      for (const method of ['GET', 'POST']) {
        const res = await rawRequest(logged.listen, method, path);
        expect(res, path).not.toContain(token);
        expect(res, path).toMatch(/^HTTP\/1\.1 4\d\d/);
      }
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(logged.logs()).not.toContain(token);
    expect(logged.logs()).toContain('callbacks');
  });

  it('are not echoed by the 404 of a misspelled callback path, which still names the method and the path', async () => {
    const token = 'T0KEN' + 'y'.repeat(38);
    const variants = [
      `/api/callback/enqueue/${token}`,
      `/api/calbacks/wake/${token}`,
      `/callbacks/enqueue/${token}`,
      `/api/callbacks-enqueue-${token}`,
      `/api/callback/enqueue${token}`,
      `/api/callback%2Fenqueue%2F${token}`,
      `/api/control/agents/main/external-triggers/${token}`,
    ];
    for (const path of variants) {
      const res = await rawRequest(d.listen, 'POST', path);
      expect(res, path).toMatch(/^HTTP\/1\.1 404/);
      expect(res, path).not.toContain(token);
      expect(res, path).not.toContain(token.slice(0, 17));
    }
    // Still helpful: the method, the words of the path, short segments and route words.
    const res = await request(d, 'POST', `/api/callback/enqueue/${token}`);
    expect(res.json).toMatchObject({ code: 'route_not_found', error: 'no route for POST /api/callback/enqueue/***' });
    const typo = await request(d, 'PATCH', '/api/control/agents/main/external-triggers');
    expect(typo.json.error).toBe('no route for PATCH /api/control/agents/main/external-triggers');
  });
});

/** A request sent byte for byte (clients would normalise `/./` and `//`). */
function rawRequest(listen: string, method: string, path: string): Promise<string> {
  const [host, port] = [listen.slice(0, listen.lastIndexOf(':')), Number(listen.slice(listen.lastIndexOf(':') + 1))];
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, host);
    let out = '';
    sock.on('data', (b) => (out += b));
    sock.on('end', () => resolve(out));
    sock.on('error', reject);
    sock.write(`${method} ${path} HTTP/1.1\r\nHost: ${listen}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`);
  });
}

/**
 * Authentication and browser protection (docs/security.md#authentication and
 * docs/security.md#browsers) against the real daemon: local mode, bearer mode (--token,
 * --token-file), auth.read_access, always-open discovery, the Host (DNS rebinding) and Origin
 * (cross-origin) guards, and the inbox socket.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startDaemon, stopAgent, tempHome, type HttpResult, type RunningDaemon } from '../helpers/daemon.js';

const TOKEN = 's3cret-token-for-tests';
const bearer = (t = TOKEN) => ({ authorization: `Bearer ${t}` });

function expectError(res: HttpResult, status: number, code: string): void {
  expect({ status: res.status, code: res.json?.code }, res.text).toEqual({ status, code });
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.json.ok).toBe(false);
  expect(res.json.error).toBeTypeOf('string');
}

function expectUnauthorized(res: HttpResult): void {
  expectError(res, 401, 'auth_required');
  expect(res.headers['www-authenticate']).toMatch(/^Bearer\b/);
}

async function stopAndClean(d: RunningDaemon | undefined): Promise<void> {
  if (!d) return;
  await d.stop();
  fs.rmSync(d.home, { recursive: true, force: true });
}

const DISCOVERY = ['/api/', '/api/handshake', '/api/auth/method', '/api/openapi.json'];
const READ_ROUTES = ['/api/agents/list', '/api/agents/main/status', '/api/agents/main/state', '/api/agents/main/events'];
/** Control routes that change nothing when they succeed (or answer a harmless 4xx past auth). */
const CONTROL_ROUTES: Array<[string, string, unknown]> = [
  ['GET', '/api/control/agents/main/detail', undefined],
  ['GET', '/api/control/agents/tree', undefined],
  ['GET', '/api/control/runtime/status', undefined],
  ['POST', '/api/control/agents/main/repair', undefined],
];

describe('the handshake', () => {
  it('reports [runtime] advertise_url when it is configured', async () => {
    const d = await startDaemon({ configToml: '[runtime]\nadvertise_url = "https://svc.example.test:8443"\n' });
    try {
      expect((await request(d, 'GET', '/api/handshake')).json.runtime.advertise_url).toBe('https://svc.example.test:8443');
    } finally {
      await stopAndClean(d);
    }
  });
});

describe('local mode (no token configured)', () => {
  let d: RunningDaemon;
  beforeAll(async () => {
    d = await startDaemon();
  });
  afterAll(() => stopAndClean(d));

  it('the handshake says local and not required', async () => {
    const res = await request(d, 'GET', '/api/handshake');
    expect(res.status).toBe(200);
    expect(res.json.protocol).toEqual({ name: 'svc-control', version: 1 });
    expect(res.json.auth).toEqual({ mode: 'local', required: false });
    expect(res.json.runtime.advertise_url).toBeNull();
  });

  it.each(CONTROL_ROUTES)('%s %s needs no header', async (method, url, body) => {
    const res = await request(d, method, url, body === undefined ? {} : { body });
    expect(res.status, res.text).toBe(200);
  });

  it('enqueue, generic webhook and prompt need no header', async () => {
    expect((await request(d, 'POST', '/api/enqueue', { body: { text: 'hi' } })).status).toBe(202);
    expect((await request(d, 'POST', '/api/agents/main/enqueue', { body: { text: 'hi' } })).status).toBe(202);
    expect((await request(d, 'POST', '/api/webhooks/generic/main', { body: { a: 1 } })).status).toBe(202);
    expect((await request(d, 'POST', '/api/control/agents/main/prompt', { body: { text: 'hi' } })).status).toBe(202);
  });

  it('a bearer header is ignored, even a wrong one', async () => {
    const res = await request(d, 'GET', '/api/control/agents/main/detail', { headers: bearer('whatever') });
    expect(res.status).toBe(200);
  });

  it('the Host guard applies in local mode too', async () => {
    expectError(await request(d, 'GET', '/api/', { headers: { host: 'evil.example' } }), 403, 'host_not_allowed');
    expectError(await request(d, 'POST', '/api/enqueue', { body: { text: 'x' }, headers: { host: 'evil.example:80' } }), 403, 'host_not_allowed');
  });

  it('the Origin guard applies in local mode too', async () => {
    const res = await request(d, 'POST', '/api/enqueue', { body: { text: 'x' }, headers: { origin: 'http://evil.example' } });
    expectError(res, 403, 'cross_origin_rejected');
  });
});

describe('bearer mode via --token', () => {
  let d: RunningDaemon;
  beforeAll(async () => {
    d = await startDaemon({
      args: ['--token', TOKEN],
      configToml: '[auth]\nallowed_hosts = ["svc.internal"]\nallowed_origins = ["https://app.example"]\n',
    });
    // Stopped, so the run loop leaves what is enqueued queued and the pending counts are exact.
    await stopAgent(d, 'main', bearer());
  });
  afterAll(() => stopAndClean(d));

  const pending = async () => (await request(d, 'GET', '/api/agents/main/status')).json.pending_messages as number;

  it('the handshake says bearer and required', async () => {
    const res = await request(d, 'GET', '/api/handshake');
    expect(res.status).toBe(200);
    expect(res.json.auth).toEqual({ mode: 'bearer', required: true });
  });

  it.each(DISCOVERY)('discovery %s is open without a token', async (url) => {
    const res = await request(d, 'GET', url);
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it.each(CONTROL_ROUTES)('%s %s: 401 without a token, 401 with a wrong one, 200 with the right one', async (method, url, body) => {
    const opts = body === undefined ? {} : { body };
    expectUnauthorized(await request(d, method, url, opts));
    expectUnauthorized(await request(d, method, url, { ...opts, headers: bearer('wrong') }));
    expectUnauthorized(await request(d, method, url, { ...opts, headers: bearer(`${TOKEN}x`) }));
    expectUnauthorized(await request(d, method, url, { ...opts, headers: bearer(TOKEN.slice(0, -1)) }));
    expectUnauthorized(await request(d, method, url, { ...opts, headers: { authorization: TOKEN } }));
    expectUnauthorized(await request(d, method, url, { ...opts, headers: { authorization: `Basic ${Buffer.from(`u:${TOKEN}`).toString('base64')}` } }));
    const ok = await request(d, method, url, { ...opts, headers: bearer() });
    expect(ok.status, ok.text).toBe(200);
  });

  it.each([
    ['/api/enqueue', { text: 'hi' }],
    ['/api/agents/main/enqueue', { text: 'hi' }],
    ['/api/webhooks/generic/main', { anything: true }],
    ['/api/control/agents/main/prompt', { text: 'hi' }],
  ])('POST %s needs the token; nothing is queued without it', async (url, body) => {
    const before = await pending();
    expectUnauthorized(await request(d, 'POST', url, { body }));
    expectUnauthorized(await request(d, 'POST', url, { body, headers: bearer('nope') }));
    expect(await pending()).toBe(before);
    const ok = await request(d, 'POST', url, { body, headers: bearer() });
    expect(ok.status, ok.text).toBe(202);
    expect(await pending()).toBe(before + 1);
  });

  it('creating an agent needs the token', async () => {
    expectUnauthorized(await request(d, 'POST', '/api/control/agents/auth-a/create', { body: {} }));
    expectError(await request(d, 'GET', '/api/agents/auth-a/status'), 404, 'agent_not_found');
    expect((await request(d, 'POST', '/api/control/agents/auth-a/create', { body: {}, headers: bearer() })).status).toBe(201);
  });

  it.each(READ_ROUTES)('read-only %s is open from loopback with the default read_access', async (url) => {
    const res = await request(d, 'GET', url);
    expect(res.status, res.text).toBe(200);
  });

  it('the event stream is open from loopback with the default read_access', async () => {
    const res = await request(d, 'GET', '/api/agents/main/events/stream?after_seq=0&limit=1');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.text).toContain('id: 1\n');
  });

  it('the inbox socket needs no token', async () => {
    const res = await request({ socketPath: d.socket }, 'GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true, status: 'ok' });
  });

  it('the inbox socket is not subject to the browser guards (no browser reaches a 0600 socket)', async () => {
    const res = await request({ socketPath: d.socket }, 'GET', '/healthz', { headers: { host: 'evil.example' } });
    expect(res.status).toBe(200);
  });

  describe('Host header (DNS rebinding defence)', () => {
    it.each(['evil.example', 'evil.example:8700', 'localhost.evil.example', '127.0.0.1.evil.example', '127.0.0.1.nip.io:80', 'svc.internal.evil.example'])(
      'Host %s -> 403 host_not_allowed, even on open routes and with a valid token',
      async (host) => {
        expectError(await request(d, 'GET', '/api/', { headers: { host } }), 403, 'host_not_allowed');
        expectError(await request(d, 'GET', '/api/control/agents/main/detail', { headers: { host, ...bearer() } }), 403, 'host_not_allowed');
      },
    );

    it('nothing is queued when the Host is refused', async () => {
      const before = await pending();
      expectError(await request(d, 'POST', '/api/enqueue', { body: { text: 'x' }, headers: { host: 'evil.example', ...bearer() } }), 403, 'host_not_allowed');
      expect(await pending()).toBe(before);
    });

    it.each(['localhost:1234', 'localhost', 'LOCALHOST:80', '127.0.0.1', '127.0.0.1:9', '[::1]:8700', '[::1]', 'svc.internal', 'svc.internal:8080'])(
      'Host %s is accepted',
      async (host) => {
        const res = await request(d, 'GET', '/api/', { headers: { host } });
        expect(res.status, res.text).toBe(200);
        const detail = await request(d, 'GET', '/api/control/agents/main/detail', { headers: { host, ...bearer() } });
        expect(detail.status, detail.text).toBe(200);
      },
    );
  });

  describe('Origin header (cross-origin defence)', () => {
    it.each([
      'http://evil.example',
      'https://evil.example',
      'http://localhost.evil.example',
      'http://127.0.0.1.evil.example:8700',
      'https://app.example.evil',
      'null',
      'file://',
      // Another port of this host is another site's page too.
      'http://localhost:3000',
      'http://localhost',
      'http://127.0.0.1:5173',
      'http://[::1]:3000',
    ])(
      'Origin %s -> 403 cross_origin_rejected',
      async (origin) => {
        expectError(await request(d, 'GET', '/api/', { headers: { origin } }), 403, 'cross_origin_rejected');
        const before = await pending();
        const res = await request(d, 'POST', '/api/enqueue', { body: { text: 'x' }, headers: { origin, ...bearer() } });
        expectError(res, 403, 'cross_origin_rejected');
        expect(await pending()).toBe(before);
      },
    );

    it.each(['https://app.example', 'own'])('Origin %s is accepted', async (listedOrOwn) => {
      const origin = listedOrOwn === 'own' ? d.base : listedOrOwn;
      const res = await request(d, 'GET', '/api/', { headers: { origin } });
      expect(res.status, res.text).toBe(200);
      const ok = await request(d, 'POST', '/api/agents/main/enqueue', { body: { text: 'x' }, headers: { origin, ...bearer() } });
      expect(ok.status, ok.text).toBe(202);
    });

    it('a browser origin still needs the token on control routes', async () => {
      for (const origin of ['https://app.example', d.base]) expectUnauthorized(await request(d, 'GET', '/api/control/agents/main/detail', { headers: { origin } }));
    });
  });
});

describe('bearer mode with auth.read_access = "token"', () => {
  let d: RunningDaemon;
  beforeAll(async () => {
    d = await startDaemon({ args: ['--token', TOKEN], configToml: '[auth]\nread_access = "token"\n' });
  });
  afterAll(() => stopAndClean(d));

  it.each(READ_ROUTES)('read-only %s needs the token', async (url) => {
    expectUnauthorized(await request(d, 'GET', url));
    expectUnauthorized(await request(d, 'GET', url, { headers: bearer('wrong') }));
    const ok = await request(d, 'GET', url, { headers: bearer() });
    expect(ok.status, ok.text).toBe(200);
  });

  it('the event streams answer 401 JSON before any SSE byte', async () => {
    for (const url of ['/api/agents/main/events/stream?after_seq=0', '/api/events/stream']) {
      const res = await request(d, 'GET', url);
      expectUnauthorized(res);
      expect(res.text).not.toContain('id:');
    }
    const ok = await request(d, 'GET', '/api/agents/main/events/stream?after_seq=0&limit=1', { headers: bearer() });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('event: agent_created');
  });

  it.each(DISCOVERY)('discovery %s stays open', async (url) => {
    expect((await request(d, 'GET', url)).status).toBe(200);
  });

  it('the inbox socket still needs no token', async () => {
    expect((await request({ socketPath: d.socket }, 'GET', '/healthz')).status).toBe(200);
  });
});

describe('bearer mode via --token-file', () => {
  let d: RunningDaemon;
  let dir: string;
  beforeAll(async () => {
    dir = tempHome('svc-tokfile-');
    const file = path.join(dir, 'token');
    fs.writeFileSync(file, `${TOKEN}-from-file\n`, { mode: 0o600 });
    d = await startDaemon({ args: ['--token-file', file] });
  });
  afterAll(async () => {
    await stopAndClean(d);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the handshake says bearer', async () => {
    expect((await request(d, 'GET', '/api/handshake')).json.auth).toEqual({ mode: 'bearer', required: true });
  });

  it('the token from the file (trailing newline trimmed) is the one accepted', async () => {
    expectUnauthorized(await request(d, 'GET', '/api/control/agents/main/detail'));
    expectUnauthorized(await request(d, 'GET', '/api/control/agents/main/detail', { headers: bearer() }));
    const ok = await request(d, 'GET', '/api/control/agents/main/detail', { headers: bearer(`${TOKEN}-from-file`) });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.agent_id).toBe('main');
  });

  it('public enqueue needs it too', async () => {
    expectUnauthorized(await request(d, 'POST', '/api/enqueue', { body: { text: 'x' } }));
    expect((await request(d, 'POST', '/api/enqueue', { body: { text: 'x' }, headers: bearer(`${TOKEN}-from-file`) })).status).toBe(202);
  });

  it('the token never appears in the logs', () => {
    expect(d.logs()).not.toContain(TOKEN);
  });
});

/**
 * CORS for the origins in auth.allowed_origins, and nothing for any other origin, on the control
 * plane and on the inbox's loopback port, against the real daemon in bearer mode.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonPool, request, type HttpResult, type RunningDaemon } from '../helpers/daemon.js';
import { freePort } from '../helpers/ports.js';

const TOKEN = 'control-token-for-cors-tests';
const LISTED = 'http://localhost:5173';
const pool = daemonPool();
let d: RunningDaemon;
let inbox: { base: string };

beforeAll(async () => {
  const port = await freePort();
  d = await pool.start({
    args: ['--port', String(port)],
    env: { SVC_TOKEN: TOKEN },
    // Written unnormalised on purpose: matching is on the normalised origin.
    configToml: '[auth]\nallowed_origins = ["HTTP://LocalHost:5173/", "https://app.example"]\n',
  });
  inbox = { base: `http://127.0.0.1:${port}` };
}, 30_000);

afterAll(() => pool.cleanup());

const preflight = (target: { base: string }, path: string, origin: string, method = 'POST') =>
  request(target, 'OPTIONS', path, { headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization,content-type' } });

function expectCors(res: HttpResult, origin: string): void {
  expect(res.headers['access-control-allow-origin']).toBe(origin);
  expect(res.headers['access-control-allow-credentials']).toBe('true');
  expect(String(res.headers.vary)).toMatch(/\bOrigin\b/);
}

function expectNoCors(res: HttpResult): void {
  for (const h of ['access-control-allow-origin', 'access-control-allow-credentials', 'access-control-allow-methods', 'access-control-allow-headers']) {
    expect(res.headers[h], h).toBeUndefined();
  }
}

function expectRejected(res: HttpResult): void {
  expect({ status: res.status, code: res.json?.code }, res.text).toEqual({ status: 403, code: 'cross_origin_rejected' });
  expectNoCors(res);
}

describe('CORS on the control plane', () => {
  it('answers a preflight from a listed origin with 204 and the allowed methods and headers, without the token', async () => {
    const res = await preflight(d, '/api/control/agents/main/prompt', LISTED);
    expect(res.status).toBe(204);
    expectCors(res, LISTED);
    expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD, POST, PUT, PATCH, DELETE');
    expect(res.headers['access-control-allow-headers']).toBe('Authorization, Content-Type, Last-Event-ID');
    expect(res.headers['access-control-max-age']).toBe('600');
    expect((await preflight(d, '/api/agents/main/events/stream', 'https://app.example', 'GET')).status).toBe(204);
  });

  it('refuses a preflight from any other origin with 403 and no CORS header, loopback ones included', async () => {
    expectRejected(await preflight(d, '/api/control/agents/main/prompt', 'https://evil.example'));
    expectRejected(await preflight(d, '/api/control/agents/main/prompt', 'http://localhost:3000'));
    expectRejected(await preflight(d, '/api/control/agents/main/prompt', 'http://127.0.0.1:8080'));
    expectRejected(await preflight(d, '/api/control/agents/main/prompt', 'null'));
  });

  it('puts the headers on simple responses for a listed origin only', async () => {
    const listed = await request(d, 'GET', '/api/handshake', { headers: { origin: LISTED } });
    expect(listed.status).toBe(200);
    expectCors(listed, LISTED);
    expect(listed.headers['access-control-expose-headers']).toBe('Retry-After, WWW-Authenticate');
    // An error answer too (so a page can read why it was refused).
    const refused = await request(d, 'GET', '/api/control/runtime/status', { headers: { origin: LISTED } });
    expect(refused.status).toBe(401);
    expectCors(refused, LISTED);
    // The daemon's own origin (the console) is served without CORS headers; a loopback origin
    // that is not listed is refused like any other.
    const own = await request(d, 'GET', '/api/handshake', { headers: { origin: d.base } });
    expect(own.status).toBe(200);
    expectNoCors(own);
    expectRejected(await request(d, 'GET', '/api/handshake', { headers: { origin: 'http://localhost:3000' } }));
    expectRejected(await request(d, 'GET', '/api/handshake', { headers: { origin: 'https://evil.example' } }));
  });

  it('an event stream for a listed origin carries Allow-Origin and Allow-Credentials', async () => {
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.get(`${d.base}/api/agents/main/events/stream?after_seq=0`, {
        headers: { accept: 'text/event-stream', origin: LISTED, authorization: `Bearer ${TOKEN}` },
      });
      req.on('response', (r) => {
        resolve(r);
        req.destroy();
      });
      req.on('error', reject);
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.headers['access-control-allow-origin']).toBe(LISTED);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
  });

  it('an OPTIONS that is not a preflight gets the JSON envelope, not a plain-text answer', async () => {
    const res = await request(d, 'OPTIONS', '/api/handshake');
    expect(res.status).toBe(404);
    expect(res.json.code).toBe('route_not_found');
  });
});

describe('CORS on the inbox loopback port', () => {
  it('follows the same policy', async () => {
    const ok = await preflight(inbox, '/status', LISTED, 'GET');
    expect(ok.status).toBe(204);
    expectCors(ok, LISTED);
    const simple = await request(inbox, 'GET', '/healthz', { headers: { origin: LISTED } });
    expectCors(simple, LISTED);
    expectRejected(await preflight(inbox, '/status', 'http://localhost:3000', 'GET'));
    expectRejected(await preflight(inbox, '/status', 'https://evil.example', 'GET'));
  });
});

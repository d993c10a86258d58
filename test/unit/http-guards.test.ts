import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errors } from '../../src/core/errors.js';
import { buildApp } from '../../src/http/app.js';
import { hostAllowed, originAllowed } from '../../src/core/origins.js';
import { tokenMatches } from '../../src/http/auth.js';
import { defineRoute } from '../../src/http/route.js';
import { Metrics } from '../../src/telemetry/metrics.js';
import { createLogger } from '../../src/telemetry/logger.js';
import type { FastifyInstance } from 'fastify';

describe('browser guards', () => {
  it.each(['localhost', 'localhost:8700', '127.0.0.1:1', '127.1.2.3', '[::1]:8700', '[::1]'])('accepts loopback Host %s', (h) => {
    expect(hostAllowed(h, [])).toBe(true);
  });
  it.each(['evil.example', 'evil.example:8700', 'localhost.evil.example', '10.0.0.1:8700', ''])('refuses Host %s', (h) => {
    expect(hostAllowed(h, [])).toBe(false);
  });
  it('accepts a listed host with or without port', () => {
    expect(hostAllowed('svc.internal:8700', ['svc.internal'])).toBe(true);
  });
  it.each([
    ['http://127.0.0.1:8700', '127.0.0.1:8700'],
    ['http://localhost:8700', 'LocalHost:8700'],
    ['http://[::1]:8700', '[::1]:8700'],
    ['http://localhost', 'localhost:80'],
    ['https://svc.example', 'svc.example'],
  ])('accepts the daemon\'s own Origin %s (Host %s)', (o, host) => {
    expect(originAllowed(o, host, new Set())).toBe(true);
  });
  it.each(['http://localhost:3000', 'https://127.0.0.1', 'http://[::1]:5173', 'http://127.0.0.1:8701', 'http://evil.example', 'null', 'file://', 'http://localhost.evil.example'])(
    'refuses Origin %s on a daemon at 127.0.0.1:8700',
    (o) => {
      expect(originAllowed(o, '127.0.0.1:8700', new Set())).toBe(false);
    },
  );
  it('accepts a trusted origin, and refuses any origin without a Host', () => {
    expect(originAllowed('https://ops.example.com:443', '127.0.0.1:8700', new Set(['https://ops.example.com']))).toBe(true);
    expect(originAllowed('http://127.0.0.1:8700', undefined, new Set())).toBe(false);
  });
  it('compares tokens by value, whatever their lengths', () => {
    expect(tokenMatches('abc', 'abc')).toBe(true);
    expect(tokenMatches('abc', 'abcd')).toBe(false);
    expect(tokenMatches('', 'abc')).toBe(false);
  });
});

describe('the error handler', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    const routes = [
      defineRoute({ method: 'GET', url: '/typed', auth: 'open', tags: [], summary: '', responses: {}, handler: () => { throw errors.agentNotFound('x'); } }),
      defineRoute({ method: 'GET', url: '/bug', auth: 'open', tags: [], summary: '', responses: {}, handler: () => { throw new Error('secret internals at /etc/passwd'); } }),
      defineRoute({
        method: 'POST',
        url: '/raw',
        auth: 'open',
        tags: [],
        summary: '',
        rawBody: true,
        bodyLimit: 16,
        responses: {},
        handler: ({ body, request }) => ({ type: request.headers['content-type'] ?? null, bytes: body ? (body as Buffer).length : 0 }),
      }),
      defineRoute({ method: 'POST', url: '/strict', auth: 'control', tags: [], summary: '', body: z.strictObject({ n: z.number() }), responses: {}, handler: ({ body }) => body }),
    ];
    ({ app } = await buildApp({
      logger: createLogger('silent'),
      metrics: new Metrics(0, () => 0),
      auth: { token: 't0k', readAccess: 'loopback', allowedHosts: [], allowedOrigins: [], trustLoopbackPeers: true },
    surface: 'control',
      heartbeatMs: 1000,
      routes,
    }));
  });
  afterAll(() => app.close());

  it('answers a typed error with its status and code', async () => {
    const r = await app.inject({ url: '/typed', remoteAddress: '127.0.0.1', headers: { host: 'localhost' } });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toEqual({ ok: false, error: 'agent "x" not found', code: 'agent_not_found', agent_id: 'x' });
  });

  it('answers an unexpected error with a generic 500 that reveals nothing', async () => {
    const r = await app.inject({ url: '/bug', headers: { host: 'localhost' } });
    expect(r.statusCode).toBe(500);
    expect(r.json()).toEqual({ ok: false, error: 'internal error', code: 'internal_error' });
  });

  it('names unknown fields of a strict body in issues', async () => {
    const r = await app.inject({ method: 'POST', url: '/strict', headers: { host: 'localhost', authorization: 'Bearer t0k' }, payload: { n: 1, m: 2 } });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ code: 'invalid_request', issues: [{ path: 'body.m', message: 'unknown field m' }] });
  });

  it('requires the token on control routes and answers 401 with WWW-Authenticate', async () => {
    const r = await app.inject({ method: 'POST', url: '/strict', headers: { host: 'localhost' }, payload: { n: 1 } });
    expect(r.statusCode).toBe(401);
    expect(r.headers['www-authenticate']).toBe('Bearer');
    expect(r.json().code).toBe('auth_required');
  });

  it('hands any content type to a raw-body route as bytes, within its own body limit', async () => {
    const text = await app.inject({ method: 'POST', url: '/raw', headers: { host: 'localhost', 'content-type': 'text/plain' }, payload: 'hello' });
    expect(text.json()).toEqual({ type: 'text/plain', bytes: 5 });
    const bin = await app.inject({ method: 'POST', url: '/raw', headers: { host: 'localhost', 'content-type': 'application/octet-stream' }, payload: Buffer.alloc(3) });
    expect(bin.json()).toEqual({ type: 'application/octet-stream', bytes: 3 });
    const json = await app.inject({ method: 'POST', url: '/raw', headers: { host: 'localhost', 'content-type': 'application/json' }, payload: '{"a":1}' });
    expect(json.json()).toEqual({ type: 'application/json', bytes: 7 });
    const big = await app.inject({ method: 'POST', url: '/raw', headers: { host: 'localhost', 'content-type': 'text/plain' }, payload: 'x'.repeat(17) });
    expect(big.statusCode).toBe(413);
    expect(big.json().code).toBe('payload_too_large');
  });

  it('answers an unknown route with route_not_found JSON', async () => {
    const r = await app.inject({ url: '/nope', headers: { host: 'localhost' } });
    expect(r.statusCode).toBe(404);
    expect(r.headers['content-type']).toMatch(/application\/json/);
    expect(r.json().code).toBe('route_not_found');
  });
});

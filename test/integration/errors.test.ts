/**
 * The error envelope (docs/control-plane-api.md#errors) against the real daemon: every failure is
 * JSON `{ok:false, error, code, ...}` with the contract's status and code, never plain text, never
 * a 500 for bad input. Ends with a short fast-check fuzz of the write routes and the events query.
 */
import fs from 'node:fs';
import net from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startDaemon, type HttpResult, type RunningDaemon } from '../helpers/daemon.js';

let d: RunningDaemon;

beforeAll(async () => {
  d = await startDaemon();
  const created = await request(d, 'POST', '/api/control/agents/err-agent/create', { body: {} });
  expect(created.status).toBe(201);
});

afterAll(async () => {
  await d?.stop();
  if (d) fs.rmSync(d.home, { recursive: true, force: true });
});

/** Status + code, JSON content type, and the envelope's required members. */
function expectError(res: HttpResult, status: number, code: string): void {
  expect({ status: res.status, code: res.json?.code }, res.text).toEqual({ status, code });
  expectEnvelope(res);
}

function expectEnvelope(res: HttpResult): void {
  expect(res.headers['content-type'], res.text).toMatch(/^application\/json/);
  expect(res.json, `not JSON: ${res.text}`).toBeTypeOf('object');
  expect(res.json.ok).toBe(false);
  expect(res.json.error).toBeTypeOf('string');
  expect(res.json.error.length).toBeGreaterThan(0);
  expect(res.json.code).toMatch(/^[a-z][a-z0-9_]*$/);
  expect(res.text).not.toMatch(/\bat .+\.js:\d+/); // no stack trace
}

function expectIssues(res: HttpResult, pathPart: string): void {
  expectError(res, 400, 'invalid_request');
  expect(Array.isArray(res.json.issues)).toBe(true);
  expect(res.json.issues.length).toBeGreaterThan(0);
  for (const issue of res.json.issues) {
    expect(issue.path).toBeTypeOf('string');
    expect(issue.message).toBeTypeOf('string');
  }
  expect(res.json.issues.map((i: { path: string }) => i.path).join(' ')).toContain(pathPart);
}

async function pending(agent: string): Promise<number> {
  const res = await request(d, 'GET', `/api/agents/${agent}/status`);
  expect(res.status).toBe(200);
  return res.json.pending_messages;
}

describe('400 invalid_json: a body that is not JSON', () => {
  const malformed = ['{"text":', '{text: "x"}', "{'text':'x'}", '[1,2', 'nul', '{"a":1}}'];
  it.each(malformed)('POST /api/enqueue with %j', async (raw) => {
    const before = await pending('main');
    const res = await request(d, 'POST', '/api/enqueue', { raw, headers: { 'content-type': 'application/json' } });
    expectError(res, 400, 'invalid_json');
    expect(await pending('main')).toBe(before);
  });

  it.each([
    ['POST', '/api/agents/err-agent/enqueue'],
    ['POST', '/api/webhooks/generic/err-agent'],
    ['POST', '/api/control/agents/err-agent/prompt'],
    ['POST', '/api/control/agents/err-new/create'],
    ['PATCH', '/api/control/agents/err-agent/name'],
  ])('%s %s with a truncated body', async (method, url) => {
    const res = await request(d, method, url, { raw: '{"name": "x", "text": "y"', headers: { 'content-type': 'application/json; charset=utf-8' } });
    expectError(res, 400, 'invalid_json');
  });

  it('a malformed body never creates the agent', async () => {
    await request(d, 'POST', '/api/control/agents/err-never/create', { raw: '{', headers: { 'content-type': 'application/json' } });
    expectError(await request(d, 'GET', '/api/agents/err-never/status'), 404, 'agent_not_found');
  });
});

describe('400 invalid_request with issues: the body or query fails its schema', () => {
  it('rename with name: 5', async () => {
    const res = await request(d, 'PATCH', '/api/control/agents/err-agent/name', { body: { name: 5 } });
    expectIssues(res, 'name');
    const detail = await request(d, 'GET', '/api/control/agents/err-agent/detail');
    expect(detail.json.display_name).toBe('err-agent');
  });

  it('rename without a body', async () => {
    expectIssues(await request(d, 'PATCH', '/api/control/agents/err-agent/name', { body: {} }), 'name');
  });

  it('enqueue with wrong types', async () => {
    const before = await pending('err-agent');
    expectIssues(await request(d, 'POST', '/api/agents/err-agent/enqueue', { body: { text: 5 } }), 'text');
    expectIssues(await request(d, 'POST', '/api/agents/err-agent/enqueue', { body: { text: 'x', metadata: 'nope' } }), 'metadata');
    expectIssues(await request(d, 'POST', '/api/agents/err-agent/enqueue', { body: { text: 'x', priority: 'urgent' } }), 'priority');
    expectIssues(await request(d, 'POST', '/api/agents/err-agent/enqueue', { body: [{ text: 'x' }] }), 'body');
    expect(await pending('err-agent')).toBe(before);
  });

  it('create with a wrong visibility', async () => {
    expectIssues(await request(d, 'POST', '/api/control/agents/err-vis/create', { body: { visibility: 'secret' } }), 'visibility');
    expectError(await request(d, 'GET', '/api/agents/err-vis/status'), 404, 'agent_not_found');
  });

  it.each([
    ['limit=-1', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=', 'limit'],
    ['limit=1&limit=2', 'limit'],
    ['order=sideways', 'order'],
    ['max_level=loud', 'max_level'],
    ['after_seq=-3', 'after_seq'],
    ['before_seq=x', 'before_seq'],
  ])('GET events?%s', async (query, field) => {
    expectIssues(await request(d, 'GET', `/api/agents/main/events?${query}`), field);
  });

  it.each(['after_seq=-1', 'after_seq=abc', 'limit=-2'])('GET events/stream?%s answers JSON before any SSE byte', async (query) => {
    const res = await request(d, 'GET', `/api/agents/main/events/stream?${query}`);
    expectIssues(res, query.split('=')[0]!);
  });

  it('a malformed percent-encoding in the path', async () => {
    const res = await request(d, 'GET', '/api/agents/%E0%A4%A/status');
    expectError(res, 400, 'invalid_request');
  });

  it('a path parameter longer than the router accepts still gets the envelope', async () => {
    const res = await request(d, 'GET', `/api/agents/${'a'.repeat(600)}/status`);
    expectError(res, 414, 'uri_too_long');
  });
});

describe('404 route_not_found: unknown paths and methods, never plain text', () => {
  it.each([
    ['GET', '/api/nope'],
    ['GET', '/nope'],
    ['POST', '/'],
    ['POST', '/api/agents/main/nope'],
    ['GET', '/api/enqueue'],
    ['DELETE', '/api/'],
    ['PUT', '/api/control/agents/main/name'],
    ['OPTIONS', '/api/enqueue'],
    ['GET', '/api/agents/main/events/stream/extra'],
  ])('%s %s', async (method, url) => {
    const res = await request(d, method, url);
    expectError(res, 404, 'route_not_found');
  });

  it('on the inbox socket too', async () => {
    const res = await request({ socketPath: d.socket }, 'GET', '/api/nope');
    expectError(res, 404, 'route_not_found');
  });
});

describe('415 unsupported_media_type', () => {
  it('a form-encoded body', async () => {
    const before = await pending('main');
    const res = await request(d, 'POST', '/api/enqueue', { raw: 'text=hello', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expectError(res, 415, 'unsupported_media_type');
    expect(await pending('main')).toBe(before);
  });

  it('text/plain and multipart bodies', async () => {
    expectError(await request(d, 'POST', '/api/agents/err-agent/enqueue', { raw: 'hello', headers: { 'content-type': 'text/plain' } }), 415, 'unsupported_media_type');
    const multipart = '--b\r\nContent-Disposition: form-data; name="text"\r\n\r\nhi\r\n--b--\r\n';
    expectError(
      await request(d, 'PATCH', '/api/control/agents/err-agent/name', { raw: multipart, headers: { 'content-type': 'multipart/form-data; boundary=b' } }),
      415,
      'unsupported_media_type',
    );
  });
});

describe('413 payload_too_large', () => {
  it('a body over 1 MiB', async () => {
    const before = await pending('main');
    const raw = JSON.stringify({ text: 'a'.repeat(1024 * 1024 + 16) });
    const res = await request(d, 'POST', '/api/enqueue', { raw, headers: { 'content-type': 'application/json' } });
    expectError(res, 413, 'payload_too_large');
    expect(await pending('main')).toBe(before);
  });

  it('a body under the limit is accepted', async () => {
    const raw = JSON.stringify({ text: 'a'.repeat(512 * 1024) });
    const res = await request(d, 'POST', '/api/agents/err-agent/enqueue', { raw, headers: { 'content-type': 'application/json' } });
    expect(res.status, res.text).toBe(202);
  });
});

/** Send raw bytes to the control port; the whole answer until the server closes. */
function rawExchange(bytes: string | Buffer): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const url = new URL(d.base);
  return new Promise((resolve, reject) => {
    const sock = net.connect(Number(url.port), url.hostname);
    let out = '';
    const timer = setTimeout(() => {
      sock.destroy();
      reject(new Error(`no answer/close within 5 s; got ${JSON.stringify(out)}`));
    }, 5000);
    sock.setEncoding('utf8');
    sock.on('data', (chunk: string) => (out += chunk));
    sock.on('error', () => undefined); // the server may reset after answering
    sock.on('close', () => {
      clearTimeout(timer);
      const [head = '', body = ''] = out.split('\r\n\r\n', 2);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) {
        const i = l.indexOf(':');
        if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
    sock.write(bytes);
  });
}

describe('requests the HTTP parser refuses still get the envelope', () => {
  it.each([
    ['not HTTP at all', 'GARBAGE\r\n\r\n', 400, 'invalid_request'],
    ['a non-numeric Content-Length', 'POST /api/enqueue HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}', 400, 'invalid_request'],
    ['headers over the size limit', `GET /api/ HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers_too_large'],
  ])('%s', async (_name, bytes, status, code) => {
    const res = await rawExchange(bytes);
    expect(res.status, res.body).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const json = JSON.parse(res.body);
    expect(json).toMatchObject({ ok: false, code });
    expect(json.error).toBeTypeOf('string');
  });
});

describe('404 agent_not_found on every agent route', () => {
  it.each([
    ['GET', '/api/agents/ghost/status', undefined],
    ['GET', '/api/agents/ghost/state', undefined],
    ['GET', '/api/agents/ghost/events', undefined],
    ['GET', '/api/agents/ghost/events/stream', undefined],
    ['GET', '/api/agents/ghost/events/stream?after_seq=0', undefined],
    ['GET', '/api/control/agents/ghost/detail', undefined],
    ['PATCH', '/api/control/agents/ghost/name', { name: 'x' }],
    ['POST', '/api/control/agents/ghost/repair', undefined],
    ['DELETE', '/api/control/agents/ghost', undefined],
    ['GET', '/api/control/agents/ghost/delete-status', undefined],
    ['POST', '/api/agents/ghost/enqueue', { text: 'x' }],
    ['POST', '/api/webhooks/generic/ghost', { any: 1 }],
    ['POST', '/api/control/agents/ghost/prompt', { text: 'x' }],
  ])('%s %s', async (method, url, body) => {
    const res = await request(d, method, url, body === undefined ? {} : { body });
    expectError(res, 404, 'agent_not_found');
    expect(res.json.agent_id).toBe('ghost');
  });
});

describe('fuzz: random input never yields a 500 or a non-envelope error', () => {
  const ids = fc.oneof(
    fc.constantFrom('main', 'err-agent', 'ghost', 'fz-1', '-bad', '.', 'a'.repeat(65)),
    fc.string({ minLength: 1, maxLength: 70 }),
    fc.string({ minLength: 1, maxLength: 20, unit: 'grapheme' }),
  );
  const anyString = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('', ' ', '\u0000', '\ud800'));
  const kinds = fc.constantFrom('channel_event', 'webhook_event', 'operator_prompt', 'system_tick', 'callback_event', 'bogus');
  const originKinds = fc.constantFrom('channel', 'webhook', 'operator', 'timer', 'generic_webhook', '', 'x');
  const enqueueLike = fc.record(
    {
      kind: fc.oneof(kinds, fc.jsonValue()),
      priority: fc.oneof(fc.constantFrom('interject', 'next', 'normal', 'background', 'NORMAL'), fc.jsonValue()),
      text: fc.oneof(anyString, fc.jsonValue()),
      json: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue()),
      body: fc.oneof(
        fc.record({ type: fc.constantFrom('text', 'json', 'brief', 'x'), text: anyString, value: fc.jsonValue(), title: anyString }, { requiredKeys: ['type'] }),
        fc.jsonValue(),
      ),
      origin: fc.oneof(fc.record({ kind: originKinds, channel_id: anyString }, { requiredKeys: [] }), fc.jsonValue()),
      metadata: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue()),
      trust: fc.jsonValue(),
      correlation_id: fc.oneof(anyString, fc.jsonValue()),
      name: fc.oneof(anyString, fc.jsonValue()),
      template: fc.oneof(fc.constantFrom('default', '..', '../..', 'nope', 'toString'), fc.jsonValue()),
      parent_agent_id: fc.oneof(fc.constantFrom('main', 'ghost'), fc.jsonValue()),
      visibility: fc.oneof(fc.constantFrom('public', 'private'), fc.jsonValue()),
    },
    { requiredKeys: [] },
  );
  const body = fc.oneof(
    { weight: 4, arbitrary: enqueueLike.map((b) => ({ raw: JSON.stringify(b) })) },
    { weight: 2, arbitrary: fc.jsonValue({ stringUnit: 'binary' }).map((b) => ({ raw: JSON.stringify(b) ?? 'null' })) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary' }).map((raw) => ({ raw })) },
    { weight: 1, arbitrary: fc.constant({ raw: '' }) },
  );
  const contentType = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', undefined);

  const routes: Array<{ method: string; path: (id: string) => string }> = [
    { method: 'POST', path: (id) => `/api/agents/${id}/enqueue` },
    { method: 'POST', path: () => '/api/enqueue' },
    { method: 'POST', path: (id) => `/api/control/agents/${id}/create` },
    { method: 'PATCH', path: (id) => `/api/control/agents/${id}/name` },
    { method: 'POST', path: (id) => `/api/webhooks/generic/${id}` },
  ];

  function check(res: HttpResult, what: string): void {
    expect(res.status, `${what} -> ${res.status} ${res.text}`).toBeLessThan(500);
    expect(res.status, what).toBeGreaterThanOrEqual(200);
    if (res.status >= 400) {
      expect(res.headers['content-type'], `${what}: ${res.text}`).toMatch(/^application\/json/);
      expect(res.json?.ok, `${what}: ${res.text}`).toBe(false);
      expect(res.json.error, what).toBeTypeOf('string');
      expect(res.json.code, what).toMatch(/^[a-z][a-z0-9_]*$/);
    } else {
      expect(res.json, `${what}: ${res.text}`).toBeTypeOf('object');
    }
  }

  it('write routes with random bodies (~3 s)', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), ids, body, contentType, async (route, id, b, ct) => {
        runs++;
        const url = route.path(encodeURIComponent(id));
        const headers: Record<string, string> = ct ? { 'content-type': ct } : {};
        const res = await request(d, route.method, url, { raw: b.raw, headers });
        check(res, `${route.method} ${url} ${ct} ${b.raw.slice(0, 200)}`);
      }),
      { numRuns: 1_000_000, interruptAfterTimeLimit: 3000 },
    );
    expect(runs).toBeGreaterThan(50);
  }, 60_000);

  it('events pages with random query strings (~2 s)', async () => {
    const key = fc.oneof(fc.constantFrom('limit', 'order', 'max_level', 'before_seq', 'after_seq'), fc.string({ maxLength: 8 }));
    const value = fc.oneof(
      fc.constantFrom('asc', 'desc', 'info', 'verbose', 'debug', '', '0', '1', '-1', '1e3', '9007199254740993', '99999999999999999999999'),
      fc.integer().map(String),
      fc.string(),
      fc.string({ unit: 'grapheme' }),
    );
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('main', 'err-agent', 'ghost'), fc.array(fc.tuple(key, value), { maxLength: 6 }), async (agent, pairs) => {
        runs++;
        const qs = new URLSearchParams(pairs).toString();
        const url = `/api/agents/${agent}/events?${qs}`;
        const res = await request(d, 'GET', url);
        check(res, `GET ${url}`);
        if (res.status === 200) {
          expect(Array.isArray(res.json.events)).toBe(true);
          expect(res.json.events.length).toBeLessThanOrEqual(res.json.limit);
        }
      }),
      { numRuns: 1_000_000, interruptAfterTimeLimit: 2000 },
    );
    expect(runs).toBeGreaterThan(50);
  }, 60_000);

  it('the daemon logged no unhandled error during the whole file', () => {
    expect(d.logs()).not.toContain('unhandled error');
    expect(d.proc.exitCode).toBeNull();
  });
});

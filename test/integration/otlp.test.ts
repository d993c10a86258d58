/**
 * Tracing and OTLP export against the real daemon: a real OTLP/HTTP JSON receiver on loopback
 * (decoding what the exporter posts to /v1/traces), the credential store, start-up refusals,
 * GET /api/control/runtime/traces, and a collector that is down or hanging not slowing a burst of
 * enqueues (a ratio against export disabled, measured in the same test), with the
 * svc_otlp_exporter_* series moving.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { daemonPool, request, runSvc, type RunningDaemon } from '../helpers/daemon.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const pool = daemonPool();
afterEach(() => pool.killAll());
afterAll(() => pool.cleanup());

const servers: Array<http.Server | net.Server> = [];
afterAll(async () => {
  for (const s of servers) {
    if (s instanceof http.Server) s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

interface Received {
  headers: http.IncomingHttpHeaders;
  url: string;
  body: Json;
}

/** An OTLP/HTTP JSON receiver: `ok` answers 200 {}, `hang` reads the request and never answers. */
async function receiver(mode: 'ok' | 'hang' = 'ok') {
  const got: Received[] = [];
  const hanging: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (text += d));
    req.on('end', () => {
      let body: Json = null;
      try {
        body = JSON.parse(text);
      } catch {
        body = { unparsable: text };
      }
      got.push({ headers: req.headers, url: req.url ?? '', body });
      if (mode === 'hang') {
        hanging.push(res);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  servers.push(server);
  const port = (server.address() as AddressInfo).port;
  /** Every span received, flattened, with its attributes as a plain object. */
  const spans = () =>
    got.flatMap((g) =>
      (g.body.resourceSpans ?? []).flatMap((rs: Json) =>
        (rs.scopeSpans ?? []).flatMap((ss: Json) =>
          (ss.spans ?? []).map((s: Json) => ({
            ...s,
            resource: Object.fromEntries((rs.resource?.attributes ?? []).map((a: Json) => [a.key, Object.values(a.value)[0]])),
            attrs: Object.fromEntries((s.attributes ?? []).map((a: Json) => [a.key, Object.values(a.value)[0]])),
          })),
        ),
      ),
    );
  return { got, spans, port, endpoint: `http://127.0.0.1:${port}/v1/traces` };
}

/** A port with nothing listening (bound, then released). */
async function deadPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

async function until<T>(read: () => T | Promise<T>, ok: (v: T) => boolean, what: string, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last: ${JSON.stringify(v)?.slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function otlpToml(endpoint: string, extra = ''): string {
  return `[runtime.observability.otlp]\nenabled = true\nendpoint = "${endpoint}"\nbatch_interval_ms = 200\n${extra}`;
}

function writeCredentials(home: string, profiles: Record<string, { token: string }>, mode = 0o600): void {
  const file = path.join(home, 'credentials.json');
  fs.writeFileSync(file, JSON.stringify({ profiles }), { mode });
  fs.chmodSync(file, mode);
}

async function metric(d: RunningDaemon, name: string): Promise<number> {
  const r = await request(d, 'GET', '/api/control/runtime/metrics');
  expect(r.status).toBe(200);
  const line = r.text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  expect(line, `${name} in\n${r.text}`).toBeDefined();
  // Label-free: never `name{...}`.
  expect(line!.startsWith(`${name} `), line).toBe(true);
  return Number(line!.split(' ')[1]);
}

describe('OTLP export to a real receiver', () => {
  it('exports HTTP, task and timer spans with the configured headers and the bearer credential', async () => {
    const rx = await receiver();
    const home = pool.home();
    writeCredentials(home, { collector: { token: 'otlp-secret-token-42' } });
    const d = await pool.start({
      home,
      configToml: otlpToml(rx.endpoint, 'credential_profile = "collector"\nheaders = { "x-svc-tenant" = "team-a" }\n'),
    });

    expect((await request(d, 'GET', '/api/agents/main/state')).status).toBe(200);
    const callbackToken = 'cbtok_SHOULD_NEVER_APPEAR_0123456789';
    const cb = await request(d, 'POST', `/api/callbacks/enqueue/${callbackToken}`, { body: { text: 'x' } });
    expect(cb.status).toBeGreaterThanOrEqual(400);
    expect((await request({ socketPath: d.socket }, 'GET', '/openapi.json')).status).toBe(200);
    const task = await request(d, 'POST', '/api/control/agents/main/tasks', { body: { summary: 'traced', cmd: 'exit 3' } });
    expect(task.status, task.text).toBe(201);
    const timer = await request(d, 'POST', '/api/control/agents/main/timers', { body: { duration_ms: 10 } });
    expect(timer.status, timer.text).toBe(201);

    const spans = await until(
      () => rx.spans(),
      (s) =>
        s.some((x) => x.name === 'HTTP GET /api/agents/:id/state') &&
        s.some((x) => x.name === 'HTTP POST /api/callbacks/enqueue/:callback_token') &&
        s.some((x) => x.name === 'HTTP GET /openapi.json') &&
        s.some((x) => x.name === 'task.run') &&
        s.some((x) => x.name === 'timer.fire'),
      'HTTP, task and timer spans at the receiver',
    );
    const state = spans.find((x) => x.name === 'HTTP GET /api/agents/:id/state')!;
    expect(state.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(state.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(state.kind).toBe(2); // SPAN_KIND_SERVER
    expect(state.attrs).toMatchObject({ 'http.request.method': 'GET', 'http.route': '/api/agents/:id/state', 'svc.surface': 'control' });
    expect(Number(state.attrs['http.response.status_code'])).toBe(200);
    expect(BigInt(state.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(state.startTimeUnixNano));
    expect(state.resource['service.name']).toBe('svc');
    expect(spans.find((x) => x.name === 'HTTP GET /openapi.json')!.attrs['svc.surface']).toBe('inbox');
    const run = spans.find((x) => x.name === 'task.run')!;
    expect(run.attrs).toMatchObject({ 'svc.agent_id': 'main', 'svc.task_id': task.json.task_id, 'svc.task.status': 'failed' });
    expect(run.status.code).toBe(2); // STATUS_CODE_ERROR: exit 3
    expect(spans.find((x) => x.name === 'timer.fire')!.attrs).toMatchObject({ 'svc.timer_id': timer.json.timer_id, 'svc.agent_id': 'main' });

    // Route patterns only: the capability token of the callback URL never leaves the daemon.
    expect(JSON.stringify(rx.got.map((g) => g.body))).not.toContain(callbackToken);
    // Headers as configured; the profile's token as a bearer.
    for (const g of rx.got) {
      expect(g.url).toBe('/v1/traces');
      expect(g.headers['content-type']).toContain('application/json');
      expect(g.headers['x-svc-tenant']).toBe('team-a');
      expect(g.headers.authorization).toBe('Bearer otlp-secret-token-42');
    }
    expect(await metric(d, 'svc_otlp_exporter_failed_batches_total')).toBe(0);
    expect(await metric(d, 'svc_otlp_exporter_dropped_spans_total')).toBe(0);
    expect(await d.stop()).toBe(0);
    // The token is never logged.
    expect(d.logs()).not.toContain('otlp-secret-token-42');
    expect(d.logs()).toContain('OTLP trace export enabled');
  });

  it('flushes spans queued at shutdown', async () => {
    const rx = await receiver();
    const d = await pool.start({ configToml: otlpToml(rx.endpoint).replace('batch_interval_ms = 200', 'batch_interval_ms = 60000') });
    expect((await request(d, 'GET', '/api/agents/main/status')).status).toBe(200);
    expect(rx.got).toHaveLength(0);
    expect(await d.stop()).toBe(0);
    expect(rx.spans().some((s) => s.name === 'HTTP GET /api/agents/:id/status')).toBe(true);
  });

  it('export is disabled by default: nothing is sent, the traces ring still fills', async () => {
    const rx = await receiver();
    const d = await pool.start({ configToml: `# no otlp section; a receiver is listening at ${rx.endpoint}\n` });
    expect((await request(d, 'GET', '/api/agents/main/status')).status).toBe(200);
    const traces = await request(d, 'GET', '/api/control/runtime/traces');
    expect(traces.json.otlp).toEqual({ enabled: false, queue_depth: 0 });
    expect(traces.json.traces.some((t: Json) => t.root_name === 'HTTP GET /api/agents/:id/status')).toBe(true);
    await new Promise((r) => setTimeout(r, 400));
    expect(rx.got).toHaveLength(0);
    expect(d.logs()).not.toContain('OTLP trace export enabled');
  });
});

describe('start-up refusals (exit 1)', () => {
  const serve = (home: string) => runSvc(['serve', '--home', home, '--listen', '127.0.0.1:0']);

  it('credential_profile combined with an authorization header', async () => {
    const home = pool.home();
    writeCredentials(home, { collector: { token: 't' } });
    fs.writeFileSync(
      path.join(home, 'config.toml'),
      otlpToml('http://127.0.0.1:4318/v1/traces', 'credential_profile = "collector"\nheaders = { "Authorization" = "Bearer other" }\n'),
    );
    const r = await serve(home);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/credential_profile.*authorization|authorization.*credential_profile/i);
  });

  it('a missing profile, a missing store, a store readable by others', async () => {
    const cases: Array<[string, (home: string) => void, RegExp]> = [
      ['missing profile', (h) => writeCredentials(h, { other: { token: 't' } }), /credential profile "collector" not found/],
      ['missing store', () => undefined, /does not exist/],
      ['loose mode', (h) => writeCredentials(h, { collector: { token: 't' } }, 0o644), /chmod 600/],
    ];
    for (const [what, prepare, message] of cases) {
      const home = pool.home();
      prepare(home);
      fs.writeFileSync(path.join(home, 'config.toml'), otlpToml('http://127.0.0.1:4318/v1/traces', 'credential_profile = "collector"\n'));
      const r = await serve(home);
      expect(r.code, `${what}: ${r.stdout}${r.stderr}`).toBe(1);
      expect(r.stdout + r.stderr, what).toMatch(message);
      expect(r.stdout + r.stderr).not.toContain('"t"');
    }
  });
});

describe('GET /api/control/runtime/traces', () => {
  it('lists recent traces newest first and answers one trace with its spans', async () => {
    const d = await pool.start({ configToml: '', args: ['--token', 'ctl-token'] });
    const auth = { authorization: 'Bearer ctl-token' };
    expect((await request(d, 'GET', '/api/control/runtime/traces')).status).toBe(401);
    expect((await request(d, 'GET', '/api/agents/main/status', { headers: auth })).status).toBe(200);
    expect((await request(d, 'GET', '/api/agents/ghost/status', { headers: auth })).status).toBe(404);

    const list = await request(d, 'GET', '/api/control/runtime/traces?limit=10', { headers: auth });
    expect(list.status, list.text).toBe(200);
    expect(list.json).toMatchObject({ ok: true, source: 'ring', ring: { capacity: 256 } });
    const names = list.json.traces.map((t: Json) => t.root_name);
    // Newest first: the 404 came after the 200 (and the refused 401 is traced too).
    expect(names.indexOf('HTTP GET /api/agents/:id/status')).toBeGreaterThanOrEqual(0);
    const statusTraces = list.json.traces.filter((t: Json) => t.root_name === 'HTTP GET /api/agents/:id/status');
    expect(statusTraces).toHaveLength(2);
    expect(names).toContain('HTTP GET /api/control/runtime/traces');
    const t = statusTraces[0];
    expect(t).toMatchObject({ status: 'ok', span_count: 1 });
    expect(t.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(typeof t.duration_ms).toBe('number');
    expect(Date.parse(t.started_at)).not.toBeNaN();

    const one = await request(d, 'GET', `/api/control/runtime/traces?trace_id=${t.trace_id}`, { headers: auth });
    expect(one.status, one.text).toBe(200);
    expect(one.json.trace.trace_id).toBe(t.trace_id);
    expect(one.json.spans).toHaveLength(1);
    expect(one.json.spans[0]).toMatchObject({ trace_id: t.trace_id, parent_span_id: null, kind: 'server', status: 'ok' });
    expect(one.json.spans[0].attributes['http.response.status_code']).toBe(404);

    const byPath = await request(d, 'GET', `/api/control/runtime/traces/${t.trace_id}`, { headers: auth });
    expect(byPath.json).toEqual({ ok: true, source: 'ring', trace: one.json.trace, spans: one.json.spans });
    const missing = await request(d, 'GET', `/api/control/runtime/traces/${'0'.repeat(32)}`, { headers: auth });
    expect({ status: missing.status, code: missing.json.code }).toEqual({ status: 404, code: 'trace_not_found' });
    const bad = await request(d, 'GET', '/api/control/runtime/traces?trace_id=nope', { headers: auth });
    expect({ status: bad.status, code: bad.json.code }).toEqual({ status: 400, code: 'invalid_request' });
  });

  it('a request its client abandons ends its span as cancelled; a finished one on the same connection stays ok', async () => {
    const d = await pool.start({ configToml: '' });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    // A finished request on a keep-alive connection, then a stream on the same socket, abandoned.
    const first = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get(`${d.base}/api/agents/main/status`, { agent }, resolve).on('error', reject),
    );
    first.resume();
    await new Promise((r) => first.on('end', r));
    const stream = http.get(`${d.base}/api/agents/main/events/stream`, { agent, headers: { accept: 'text/event-stream' } });
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => stream.on('response', resolve).on('error', reject));
    expect(res.statusCode).toBe(200);
    stream.on('error', () => {});
    stream.destroy();
    agent.destroy();
    const list = await until(
      async () => (await request(d, 'GET', '/api/control/runtime/traces?limit=50')).json,
      (j) => j.traces.some((t: Json) => t.root_name === 'HTTP GET /api/agents/:id/events/stream'),
      'the abandoned stream in the ring',
    );
    const byName = (name: string) => list.traces.filter((t: Json) => t.root_name === name);
    expect(byName('HTTP GET /api/agents/:id/events/stream').map((t: Json) => t.status)).toEqual(['cancelled']);
    expect(byName('HTTP GET /api/agents/:id/status').map((t: Json) => t.status)).toEqual(['ok']);
  });

  it('keeps failed traces in the diagnostics store, served with source=diagnostics', async () => {
    const d = await pool.start({ configToml: '' });
    const task = await request(d, 'POST', '/api/control/agents/main/tasks', { body: { summary: 'fails', cmd: 'exit 1' } });
    expect(task.status, task.text).toBe(201);
    const kept = await until(
      async () => (await request(d, 'GET', '/api/control/runtime/traces?source=diagnostics')).json,
      (j) => j.traces.some((t: Json) => t.root_name === 'task.run'),
      'the failed task trace in the diagnostics store',
    );
    const t = kept.traces.find((x: Json) => x.root_name === 'task.run');
    expect(t).toMatchObject({ status: 'error', reason: 'failed' });
    expect(kept.diagnostics.retained).toBeGreaterThanOrEqual(1);
    // Still there after a restart (it is in SQLite, not only in the ring).
    expect(await d.stop()).toBe(0);
    const again = await pool.start({ home: d.home });
    const one = await request(again, 'GET', `/api/control/runtime/traces/${t.trace_id}`);
    expect(one.status, one.text).toBe(200);
    expect(one.json).toMatchObject({ source: 'diagnostics', trace: { reason: 'failed' } });
    expect(one.json.spans[0].attributes['svc.task_id']).toBe(task.json.task_id);
  });
});

describe('a down or hanging collector never slows the daemon', () => {
  it('a burst of enqueues takes about as long as with export disabled; the exporter series move', async () => {
    const hang = await receiver('hang');
    const down = `http://127.0.0.1:${await deadPort()}/v1/traces`;
    const tuning = 'queue_capacity = 64\nbatch_size = 16\ntimeout_ms = 300\n';
    const daemons = {
      disabled: await pool.start({ configToml: '' }),
      down: await pool.start({ configToml: otlpToml(down, tuning).replace('batch_interval_ms = 200', 'batch_interval_ms = 20') }),
      hanging: await pool.start({ configToml: otlpToml(hang.endpoint, tuning).replace('batch_interval_ms = 200', 'batch_interval_ms = 20') }),
    };
    const BURST = 300;
    const CONCURRENCY = 10;
    const burst = async (d: RunningDaemon, tag: string): Promise<number> => {
      let next = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < BURST) {
            const i = next++;
            const r = await request(d, 'POST', '/api/agents/main/enqueue', { body: { text: `${tag} ${i}` } });
            if (r.status !== 202) throw new Error(`enqueue ${i}: ${r.status} ${r.text}`);
          }
        }),
      );
      return performance.now() - t0;
    };
    // Warm up every daemon, then interleave the measured rounds and keep each one's best.
    for (const d of Object.values(daemons)) await burst(d, 'warm-up');
    const best: Record<keyof typeof daemons, number> = { disabled: Infinity, down: Infinity, hanging: Infinity };
    for (let round = 0; round < 3; round++) {
      for (const [name, d] of Object.entries(daemons) as Array<[keyof typeof daemons, RunningDaemon]>) {
        best[name] = Math.min(best[name], await burst(d, `round ${round}`));
      }
    }
    // The hanging collector really did hang: requests reached it and were never answered.
    expect(hang.got.length).toBeGreaterThan(0);
    const ratio = { down: best.down / best.disabled, hanging: best.hanging / best.disabled };
    expect(ratio.down, JSON.stringify(best)).toBeLessThan(2);
    expect(ratio.hanging, JSON.stringify(best)).toBeLessThan(2);

    // Thousands of spans into a 64-span queue: drops; batches time out or are refused: failures.
    for (const name of ['down', 'hanging'] as const) {
      const d = daemons[name];
      expect(await metric(d, 'svc_otlp_exporter_dropped_spans_total'), name).toBeGreaterThan(0);
      await until(() => metric(d, 'svc_otlp_exporter_failed_batches_total'), (n) => n > 0, `${name}: failed batches`);
      const depth = await metric(d, 'svc_otlp_exporter_queue_depth');
      expect(depth, name).toBeGreaterThanOrEqual(0);
      expect(depth, name).toBeLessThanOrEqual(64);
    }
    // The hanging exporter's queue is full right after a burst (nothing drains it).
    await burst(daemons.hanging, 'fill');
    expect(await metric(daemons.hanging, 'svc_otlp_exporter_queue_depth')).toBeGreaterThan(0);
    expect(await metric(daemons.disabled, 'svc_otlp_exporter_dropped_spans_total')).toBe(0);
    expect(await metric(daemons.disabled, 'svc_otlp_exporter_failed_batches_total')).toBe(0);
    // Shutdown is not held up by the hanging collector either.
    const t0 = performance.now();
    expect(await daemons.hanging.stop()).toBe(0);
    expect(await daemons.down.stop()).toBe(0);
    expect(performance.now() - t0).toBeLessThan(5000);
  }, 120_000); // 13 bursts of 300 enqueues over 3 daemons, each answered by a turn: near 30 s on a loaded 2-core machine; the bounds are the ratios above
});

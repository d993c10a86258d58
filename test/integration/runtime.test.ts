/**
 * Runtime management (spec "Runtime management", docs/getting-started.md#run-the-daemon-svc-serve,
 * docs/configuration.md#layers-and-changes-at-run-time and docs/security.md): status, the config
 * surface with PATCH (written to the TOML file, effective after restart, per-key rejection),
 * OpenMetrics, and secrets kept out of the daemon's logs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { daemonPool, ROOT, request, type RunningDaemon } from '../helpers/daemon.js';

const pool = daemonPool();
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

const home = pool.home;
const start = pool.start;

afterAll(() => {
  pool.killAll();
  pool.cleanup();
});

const METRICS_TYPE = 'application/openmetrics-text; version=1.0.0; charset=utf-8';
const SIX_SERIES = [
  'svc_process_uptime_seconds',
  'svc_otlp_exporter_failed_batches_total',
  'svc_otlp_exporter_dropped_spans_total',
  'svc_otlp_exporter_queue_depth',
  'svc_diagnostics_writer_dropped_traces_total',
  'svc_diagnostics_writer_failures_total',
];

/** Sample lines of an OpenMetrics text as name -> value (fails on a line it cannot read). */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*) (\S+)$/.exec(line);
    expect(m, `unreadable or labelled sample line: ${line}`).not.toBeNull();
    expect(out.has(m![1]!), `duplicate series ${m![1]}`).toBe(false);
    out.set(m![1]!, Number(m![2]));
  }
  return out;
}

describe('status, config and metrics of one daemon', () => {
  let d: RunningDaemon;

  beforeAll(async () => {
    d = await start({
      configToml: ['[providers.local]', 'kind = "openai"', 'base_url = "http://127.0.0.1:11434/v1"', 'api_key_env = "SVC_TEST_KEY"', ''].join('\n'),
      env: { SVC_TEST_KEY: 'sk-provider-key-should-not-leak' },
    });
  });

  it('GET /api/control/runtime/status has its fields with the real values', async () => {
    const before = Date.now();
    const r = await request({ base: d.base }, 'GET', '/api/control/runtime/status');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    const s = r.json;
    expect(s.ok).toBe(true);
    expect(s.version).toBe(VERSION);
    expect(s.pid).toBe(d.proc.pid);
    expect(s.home_dir).toBe(d.home);
    expect(s.listen).toBe(d.listen);
    expect(s.socket).toBe(d.socket);
    expect(Number.isInteger(s.schema_version) && s.schema_version >= 1).toBe(true);
    expect(s.auth).toEqual({ mode: 'local', control_token_configured: false, read_access: 'loopback' });
    expect(s.models).toEqual({
      default: 'builtin/echo',
      providers: [{ name: 'local', kind: 'openai', base_url: 'http://127.0.0.1:11434/v1', models: [], api_key_env: 'SVC_TEST_KEY', credential_profile: '', api_key: 'set' }],
    });
    expect(r.text).not.toContain('sk-provider-key-should-not-leak');
    expect(s.agents).toBe(1);
    expect(s.sse_clients).toBe(0);
    expect(s.events.total).toBeGreaterThanOrEqual(1); // agent_created of the default agent
    expect(Number.isInteger(s.queue.pending)).toBe(true);
    const started = Date.parse(s.started_at);
    expect(Number.isNaN(started)).toBe(false);
    expect(started).toBeLessThanOrEqual(before);
    expect(before - started).toBeLessThan(60_000);
    expect(s.uptime_seconds).toBeGreaterThan(0);
    expect(s.uptime_seconds).toBeLessThan(60);
    expect(r.text).not.toContain('sk-provider-key-should-not-leak');
  });

  it('GET /api/control/runtime/config shows the config path and the effective values', async () => {
    const r = await request({ base: d.base }, 'GET', '/api/control/runtime/config');
    expect(r.status).toBe(200);
    expect(r.json.ok).toBe(true);
    expect(r.json.config_path).toBe(path.join(d.home, 'config.toml'));
    expect(r.json.config_file_exists).toBe(true);
    expect(r.json.home_dir).toBe(d.home);
    expect(r.json.effective.events).toMatchObject({ heartbeat_ms: 15000, page_limit_max: 1000 });
    expect(r.json.effective.listen).toBe('127.0.0.1:0'); // as configured (the flag)
    expect(r.json.effective.control_token).toBe('');
    expect(r.json.effective.providers.local).toMatchObject({ kind: 'openai', api_key_env: 'SVC_TEST_KEY' });
    expect(r.json.startup_only_keys).toEqual(expect.arrayContaining(['listen', 'control_token']));
    expect(r.text).not.toContain('sk-provider-key-should-not-leak');
  });

  it('GET /api/control/runtime/metrics: exact content type, # EOF, the six label-free series', async () => {
    const r = await request({ base: d.base }, 'GET', '/api/control/runtime/metrics');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe(METRICS_TYPE);
    expect(r.text.endsWith('# EOF\n')).toBe(true);
    expect(r.text.indexOf('# EOF')).toBe(r.text.length - '# EOF\n'.length); // only once, at the end
    expect(r.text).not.toContain('{');
    const values = samples(r.text);
    for (const name of SIX_SERIES) expect(values.has(name), name).toBe(true);
    expect(values.get('svc_process_uptime_seconds')!).toBeGreaterThan(0);
    for (const name of SIX_SERIES.slice(1)) expect(values.get(name), name).toBe(0);
    // Every sample belongs to a declared family.
    const families = new Set([...r.text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => m[1]!));
    for (const name of values.keys()) {
      expect(families.has(name) || families.has(name.replace(/_total$/, '')), `${name} has no # TYPE`).toBe(true);
    }
  });

  it('svc_messages_enqueued_total and svc_events_appended_total increase after an enqueue', async () => {
    const read = async () => samples((await request({ base: d.base }, 'GET', '/api/control/runtime/metrics')).text);
    const before = await read();
    expect(before.has('svc_messages_enqueued_total')).toBe(true);
    expect(before.has('svc_events_appended_total')).toBe(true);
    const enq = await request({ base: d.base }, 'POST', '/api/agents/main/enqueue', { body: { text: 'count me' } });
    expect(enq.status).toBe(202);
    const after = await read();
    expect(after.get('svc_messages_enqueued_total')! - before.get('svc_messages_enqueued_total')!).toBe(1);
    expect(after.get('svc_events_appended_total')! - before.get('svc_events_appended_total')!).toBeGreaterThanOrEqual(1);
    expect(after.get('svc_process_uptime_seconds')!).toBeGreaterThanOrEqual(before.get('svc_process_uptime_seconds')!);

    // A rejected enqueue counts nothing.
    const bad = await request({ base: d.base }, 'POST', '/api/agents/main/enqueue', { body: { text: 'x', trust: 'trusted_operator' } });
    expect(bad.status).toBe(403);
    const later = await read();
    expect(later.get('svc_messages_enqueued_total')).toBe(after.get('svc_messages_enqueued_total'));
  });

  it('PATCH without updates is 400 invalid_request; bad JSON is 400 invalid_json', async () => {
    for (const body of [{ updates: [] }, {}, { updates: [{ key: 'events.heartbeat_ms', value: 5000 }], extra: true }, { updates: [{ value: 1 }] }]) {
      const r = await request({ base: d.base }, 'PATCH', '/api/control/runtime/config', { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.ok).toBe(false);
      expect(r.json.code).toBe('invalid_request');
      expect(Array.isArray(r.json.issues)).toBe(true);
    }
    const raw = await request({ base: d.base }, 'PATCH', '/api/control/runtime/config', { raw: '{"updates": [', headers: { 'content-type': 'application/json' } });
    expect(raw.status).toBe(400);
    expect(raw.json.code).toBe('invalid_json');
    // Nothing was written by the refused requests.
    const file = fs.readFileSync(path.join(d.home, 'config.toml'), 'utf8');
    expect(file).not.toContain('heartbeat_ms');
  });
});

describe('PATCH /api/control/runtime/config', () => {
  afterEach(() => {
    pool.killAll();
  });

  it('a supported key is accepted_requires_restart, written to the TOML file, and effective after restart', async () => {
    const h = home();
    const d = await start({ home: h, configToml: '[queue]\nmax_pending = 777\n' });
    const r = await request({ base: d.base }, 'PATCH', '/api/control/runtime/config', { body: { updates: [{ key: 'events.heartbeat_ms', value: 5000 }] } });
    expect(r.status).toBe(200);
    expect(r.json.ok).toBe(true);
    expect(r.json.changed).toBe(true);
    expect(r.json.results).toHaveLength(1);
    expect(r.json.results[0]).toMatchObject({ key: 'events.heartbeat_ms', effect: 'accepted_requires_restart' });
    expect(typeof r.json.results[0].reason).toBe('string');
    expect(typeof r.json.runtime_surface).toBe('object');

    const file = path.join(h, 'config.toml');
    const doc = parseToml(fs.readFileSync(file, 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(doc.events.heartbeat_ms).toBe(5000);
    expect(doc.queue.max_pending).toBe(777); // existing keys kept

    // The running daemon keeps its configuration until restart.
    const now = await request({ base: d.base }, 'GET', '/api/control/runtime/config');
    expect(now.json.effective.events.heartbeat_ms).toBe(15000);

    // The same value again changes nothing.
    const again = await request({ base: d.base }, 'PATCH', '/api/control/runtime/config', { body: { updates: [{ key: 'events.heartbeat_ms', value: 5000 }] } });
    expect(again.status).toBe(200);
    expect(again.json.changed).toBe(false);
    expect(again.json.results[0].effect).toBe('accepted_requires_restart');

    expect(await d.stop('SIGTERM')).toBe(0);
    const d2 = await start({ home: h });
    const after = await request({ base: d2.base }, 'GET', '/api/control/runtime/config');
    expect(after.status).toBe(200);
    expect(after.json.effective.events.heartbeat_ms).toBe(5000);
    expect(after.json.effective.queue.max_pending).toBe(777);
  });

  it('without a config file PATCH creates <home>/config.toml', async () => {
    const h = home();
    const d = await start({ home: h });
    const file = path.join(h, 'config.toml');
    expect(fs.existsSync(file)).toBe(false);
    const before = await request({ base: d.base }, 'GET', '/api/control/runtime/config');
    expect(before.json.config_path).toBe(file);
    expect(before.json.config_file_exists).toBe(false);
    const r = await request({ base: d.base }, 'PATCH', '/api/control/runtime/config', { body: { updates: [{ key: 'queue.max_pending', value: 42 }] } });
    expect(r.status).toBe(200);
    expect(r.json.results[0].effect).toBe('accepted_requires_restart');
    expect(r.json.runtime_surface.config_file_exists).toBe(true);
    expect((parseToml(fs.readFileSync(file, 'utf8')) as { queue: { max_pending: number } }).queue.max_pending).toBe(42);
  });

  it('start-up-only, unknown and invalid keys are rejected per key; the request is still 200', async () => {
    const h = home();
    const d = await start({ home: h, configToml: '[queue]\nmax_pending = 777\n' });
    const file = path.join(h, 'config.toml');
    const original = fs.readFileSync(file, 'utf8');
    const r = await request({ base: d.base }, 'PATCH', '/api/control/runtime/config', {
      body: {
        updates: [
          { key: 'listen', value: '127.0.0.1:9999' },
          { key: 'control_token', value: 'new-secret' },
          { key: 'nope.nothing', value: 1 },
          { key: 'events.heartbeat_ms', value: 'x' },
          { key: 'events.bogus', value: 1 },
        ],
      },
    });
    expect(r.status).toBe(200);
    expect(r.json.ok).toBe(true);
    expect(r.json.changed).toBe(false);
    expect(r.json.results.map((x: { key: string }) => x.key)).toEqual(['listen', 'control_token', 'nope.nothing', 'events.heartbeat_ms', 'events.bogus']);
    for (const res of r.json.results) {
      expect(res.effect, res.key).toBe('rejected');
      expect(typeof res.reason).toBe('string');
      expect(res.reason.length).toBeGreaterThan(0);
    }
    expect(r.json.results[0].reason).toMatch(/start-?up/i);
    expect(r.json.results[1].reason).toMatch(/start-?up/i);
    expect(r.json.results[2].reason).toMatch(/unknown/i);
    expect(r.json.results[3].reason).toContain('events.heartbeat_ms');
    expect(r.json.results[4].reason).toMatch(/unknown/i);
    expect(r.text).not.toContain('new-secret');
    expect(fs.readFileSync(file, 'utf8')).toBe(original);
  });

  it('a mixed PATCH applies the accepted keys and rejects the rest', async () => {
    const h = home();
    const d = await start({ home: h });
    const r = await request({ base: d.base }, 'PATCH', '/api/control/runtime/config', {
      body: {
        updates: [
          { key: 'events.heartbeat_ms', value: 5000 },
          { key: 'listen', value: '127.0.0.1:9999' },
          { key: 'events.page_limit_max', value: -5 },
        ],
      },
    });
    expect(r.status).toBe(200);
    expect(r.json.changed).toBe(true);
    expect(r.json.results.map((x: { effect: string }) => x.effect)).toEqual(['accepted_requires_restart', 'rejected', 'rejected']);
    const doc = parseToml(fs.readFileSync(path.join(h, 'config.toml'), 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(doc).toEqual({ events: { heartbeat_ms: 5000 } });
  });

  it('a token from a flag or the environment is never written to the config file by PATCH', async () => {
    const h = home();
    const d = await start({ home: h, args: ['--token', 'flag-secret-1'], env: { SVC_TOKEN: 'env-secret-2' } });
    const headers = { authorization: 'Bearer flag-secret-1' };
    const r = await request({ base: d.base }, 'PATCH', '/api/control/runtime/config', { body: { updates: [{ key: 'events.heartbeat_ms', value: 5000 }] }, headers });
    expect(r.status).toBe(200);
    const text = fs.readFileSync(path.join(h, 'config.toml'), 'utf8');
    expect(text).not.toContain('flag-secret-1');
    expect(text).not.toContain('env-secret-2');
    expect(text).not.toContain('redacted');
  });

  it('a token in the config file survives a PATCH (not replaced by the redacted value)', async () => {
    const h = home();
    const d = await start({ home: h, configToml: 'control_token = "file-secret-3"\n' });
    const headers = { authorization: 'Bearer file-secret-3' };
    const cfg = await request({ base: d.base }, 'GET', '/api/control/runtime/config', { headers });
    expect(cfg.status).toBe(200);
    expect(cfg.json.effective.control_token).not.toBe('file-secret-3');
    expect(cfg.json.effective.control_token).not.toBe('');
    expect(cfg.text).not.toContain('file-secret-3');

    const r = await request({ base: d.base }, 'PATCH', '/api/control/runtime/config', { body: { updates: [{ key: 'events.heartbeat_ms', value: 5000 }] }, headers });
    expect(r.status).toBe(200);
    expect(r.text).not.toContain('file-secret-3');
    expect(await d.stop('SIGTERM')).toBe(0);

    const d2 = await start({ home: h });
    expect((await request({ base: d2.base }, 'GET', '/api/control/runtime/status')).status).toBe(401);
    const st = await request({ base: d2.base }, 'GET', '/api/control/runtime/status', { headers });
    expect(st.status).toBe(200);
    expect(st.json.auth.mode).toBe('bearer');
  });

  it('runtime routes need the token in bearer mode', async () => {
    const d = await start({ args: ['--token', 'tok-rt'] });
    for (const [method, url] of [
      ['GET', '/api/control/runtime/status'],
      ['GET', '/api/control/runtime/config'],
      ['GET', '/api/control/runtime/metrics'],
      ['PATCH', '/api/control/runtime/config'],
    ] as const) {
      const body = method === 'PATCH' ? { updates: [{ key: 'events.heartbeat_ms', value: 5000 }] } : undefined;
      const denied = await request({ base: d.base }, method, url, { body });
      expect(denied.status, `${method} ${url}`).toBe(401);
      expect(denied.json.code).toBe('auth_required');
      expect(denied.headers['www-authenticate']).toMatch(/^Bearer/);
      const wrong = await request({ base: d.base }, method, url, { body, headers: { authorization: 'Bearer tok-rt-wrong' } });
      expect(wrong.status, `${method} ${url}`).toBe(401);
    }
    expect(fs.existsSync(path.join(d.home, 'config.toml'))).toBe(false);
    const ok = await request({ base: d.base }, 'GET', '/api/control/runtime/metrics', { headers: { authorization: 'Bearer tok-rt' } });
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toBe(METRICS_TYPE);
  });
});

describe('log redaction', () => {
  it('the control token never appears in the daemon output, even at debug level', async () => {
    const TOKEN = 'secret-token-123';
    const d = await start({ args: ['--token', TOKEN, '--log-level', 'debug'] });
    const headers = { authorization: `Bearer ${TOKEN}` };
    const target = { base: d.base };
    expect((await request(target, 'GET', '/api/handshake', { headers })).status).toBe(200);
    expect((await request(target, 'GET', '/api/control/runtime/status', { headers })).status).toBe(200);
    expect((await request(target, 'GET', '/api/control/runtime/config', { headers })).status).toBe(200);
    expect((await request(target, 'GET', '/api/control/runtime/metrics', { headers })).status).toBe(200);
    expect((await request(target, 'POST', '/api/agents/main/enqueue', { body: { text: 'hello' }, headers })).status).toBe(202);
    expect((await request(target, 'POST', '/api/enqueue', { body: { json: { a: 1 } }, headers: { authorization: `bearer ${TOKEN}` } })).status).toBe(202);
    expect((await request(target, 'GET', '/api/agents/main/events?limit=5', { headers })).status).toBe(200);
    // Failures are logged too: a wrong token and a bad body.
    expect((await request(target, 'GET', '/api/control/runtime/status', { headers: { authorization: `Bearer ${TOKEN}x` } })).status).toBe(401);
    expect((await request(target, 'POST', '/api/agents/main/enqueue', { raw: '{nope', headers: { ...headers, 'content-type': 'application/json' } })).status).toBe(400);
    const patch = await request(target, 'PATCH', '/api/control/runtime/config', { body: { updates: [{ key: 'events.heartbeat_ms', value: 5000 }] }, headers });
    expect(patch.status).toBe(200);
    expect((await request(target, 'POST', '/api/control/runtime/shutdown', { headers })).status).toBe(202);
    await new Promise<void>((resolve) => (d.proc.exitCode !== null ? resolve() : d.proc.once('exit', () => resolve())));
    expect(d.proc.exitCode).toBe(0);

    const out = d.logs();
    // The debug request lines were really written (so the check below means something).
    expect(d.logLines().filter((l) => l.msg === 'request').length).toBeGreaterThanOrEqual(10);
    expect(out).not.toContain(TOKEN);
    expect(out).not.toContain(TOKEN.slice(0, 12)); // not even a prefix
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse as parseToml } from 'smol-toml';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { RuntimeConfig } from '../../src/config/runtime-config.js';
import { ConfigSchema } from '../../src/config/schema.js';

const homes: string[] = [];
function home(toml?: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-config-'));
  homes.push(dir);
  if (toml !== undefined) fs.writeFileSync(path.join(dir, 'config.toml'), toml);
  return dir;
}
afterEach(() => {
  for (const dir of homes.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('config layering: defaults < file < environment < flags', () => {
  it('uses the built-in defaults when nothing is set', () => {
    const c = loadConfig({ home: home() }, {});
    expect(c.values.listen).toBe('127.0.0.1:8700');
    expect(c.values.default_agent).toBe('main');
    expect(c.values.events).toEqual({
      heartbeat_ms: 15000,
      page_limit_max: 1000,
      sse_max_clients: 10000,
      sse_max_buffer_bytes: 1048576,
      retain_days: 30,
      retain_max_events: 100000,
    });
    expect(c.values.queue.max_pending).toBe(10000);
    expect(c.controlToken).toBe('');
    expect(c.configFile).toBeNull();
    expect(c.socketPath).toBe(path.join(c.home, 'inbox.sock'));
  });

  it('the file beats the defaults, the environment beats the file, flags beat the environment', () => {
    const h = home('listen = "127.0.0.1:9001"\nlog_level = "warn"\ncontrol_token = "from-file"\n');
    expect(loadConfig({ home: h }, {}).values.listen).toBe('127.0.0.1:9001');
    const env = { SVC_LISTEN: '127.0.0.1:9002', SVC_LOG_LEVEL: 'error', SVC_TOKEN: 'from-env' };
    const c = loadConfig({ home: h }, env);
    expect([c.values.listen, c.values.log_level, c.controlToken]).toEqual(['127.0.0.1:9002', 'error', 'from-env']);
    const f = loadConfig({ home: h, listen: '127.0.0.1:9003', logLevel: 'debug', token: 'from-flag' }, env);
    expect([f.values.listen, f.values.log_level, f.controlToken]).toEqual(['127.0.0.1:9003', 'debug', 'from-flag']);
  });

  it('SVC_HOME chooses the home when --home is absent', () => {
    const h = home();
    expect(loadConfig({}, { SVC_HOME: h }).home).toBe(h);
  });

  it('--token-file replaces a token from the file or the environment', () => {
    const h = home('control_token = "file-token"\n');
    fs.writeFileSync(path.join(h, 'token'), 'secret-from-file\n');
    expect(loadConfig({ home: h, tokenFile: path.join(h, 'token') }, { SVC_TOKEN: 'env' }).controlToken).toBe('secret-from-file');
  });

  it('--socket and --port land in the inbox section', () => {
    const c = loadConfig({ home: home(), socket: '/tmp/x.sock', port: 9100 }, {});
    expect(c.socketPath).toBe('/tmp/x.sock');
    expect(c.values.inbox.port).toBe(9100);
  });

  it.each([
    ['events.bogus', '[events]\nbogus = 1\n'],
    ['nope', 'nope = true\n'],
    ['events.heartbeat_ms', '[events]\nheartbeat_ms = "soon"\n'],
    ['auth.read_access', '[auth]\nread_access = "sometimes"\n'],
    ['listen', 'listen = "nowhere"\n'],
    ['runtime.observability.otlp.endpoint', '[runtime.observability.otlp]\nenabled = true\n'],
    ['model.default', '[model]\ndefault = "ollama/llama3.2"\n'],
    ['model.default', '[model]\ndefault = "builtin/gpt"\n'],
    ['model.default', '[model]\ndefault = "echo"\n'],
  ])('refuses a bad file naming the key path %s', (key, toml) => {
    expect(() => loadConfig({ home: home(toml) }, {})).toThrowError(new RegExp(key.replace(/\./g, '\\.')));
  });

  it('event retention: 0 turns a rule off; negative, fractional or too large values are errors naming the key', () => {
    const off = loadConfig({ home: home('[events]\nretain_days = 0\nretain_max_events = 0\n') }, {});
    expect([off.values.events.retain_days, off.values.events.retain_max_events]).toEqual([0, 0]);
    const max = loadConfig({ home: home('[events]\nretain_days = 36500\nretain_max_events = 1000000000\n') }, {});
    expect([max.values.events.retain_days, max.values.events.retain_max_events]).toEqual([36500, 1_000_000_000]);
    for (const [key, value] of [
      ['retain_days', '-1'],
      ['retain_days', '1.5'],
      ['retain_days', '36501'],
      ['retain_days', '"30"'],
      ['retain_max_events', '-1'],
      ['retain_max_events', '1000000001'],
    ]) {
      expect(() => loadConfig({ home: home(`[events]\n${key} = ${value}\n`) }, {})).toThrowError(new RegExp(`events\\.${key}`));
    }
  });

  it('delivery.notify_lease_ms: 0 turns the lease off; negative or past 30 days is an error naming the key', () => {
    expect(loadConfig({ home: home('[delivery]\nnotify_lease_ms = 0\n') }, {}).values.delivery.notify_lease_ms).toBe(0);
    expect(loadConfig({ home: home('[delivery]\nnotify_lease_ms = 2592000000\n') }, {}).values.delivery.notify_lease_ms).toBe(2_592_000_000);
    for (const value of ['-1', '1.5', '2592000001', '9000000000000']) {
      expect(() => loadConfig({ home: home(`[delivery]\nnotify_lease_ms = ${value}\n`) }, {})).toThrowError(/delivery\.notify_lease_ms/);
    }
  });

  it('inbox.offline_agent_ttl_ms: 7 days by default, 0 keeps every agent; negative, fractional, past 10 years or text is an error naming the key', () => {
    expect(loadConfig({ home: home() }, {}).values.inbox.offline_agent_ttl_ms).toBe(604_800_000);
    expect(loadConfig({ home: home('[inbox]\noffline_agent_ttl_ms = 0\n') }, {}).values.inbox.offline_agent_ttl_ms).toBe(0);
    for (const value of ['-1', '1.5', '315360000001', '"7d"']) {
      expect(() => loadConfig({ home: home(`[inbox]\noffline_agent_ttl_ms = ${value}\n`) }, {})).toThrowError(/inbox\.offline_agent_ttl_ms/);
    }
  });

  it('refuses a file that is not TOML, and a --config that does not exist', () => {
    expect(() => loadConfig({ home: home('this is = = not toml') }, {})).toThrow(ConfigError);
    expect(() => loadConfig({ home: home(), config: '/nonexistent/svc.toml' }, {})).toThrow(/does not exist/);
  });

  it('accepts a default model of a configured provider', () => {
    const toml = '[model]\ndefault = "ollama/llama3.2"\n\n[providers.ollama]\nkind = "openai"\nbase_url = "http://127.0.0.1:11434/v1"\n';
    expect(loadConfig({ home: home(toml) }, {}).values.model.default).toBe('ollama/llama3.2');
  });

  it('refuses an OTLP credential profile combined with an authorization header', () => {
    const toml = '[runtime.observability.otlp]\ncredential_profile = "p"\nheaders = { Authorization = "Bearer x" }\n';
    expect(() => loadConfig({ home: home(toml) }, {})).toThrow(/credential_profile/);
  });

  it('a provider names its key in one place: credential_profile or api_key_env, not both; a profile name is checked', () => {
    const provider = (extra: string) => `[providers.p]\nkind = "openai"\nbase_url = "http://127.0.0.1:1/v1"\n${extra}\n`;
    expect(loadConfig({ home: home(provider('credential_profile = "prof"')) }, {}).values.providers.p!.credential_profile).toBe('prof');
    expect(() => loadConfig({ home: home(provider('credential_profile = "prof"\napi_key_env = "K"')) }, {})).toThrow(/credential_profile cannot be combined with api_key_env/);
    expect(() => loadConfig({ home: home(provider('credential_profile = "../x"')) }, {})).toThrow(/credential_profile/);
  });

  it('config.example.toml is valid and lists the defaults exactly', () => {
    const example = parseToml(fs.readFileSync(path.join(__dirname, '..', '..', 'config.example.toml'), 'utf8'));
    expect(ConfigSchema.parse(example)).toEqual(ConfigSchema.parse({}));
  });
});

describe('runtime config PATCH', () => {
  it('writes supported keys and refuses start-up-only, unknown and invalid ones per key', () => {
    const h = home('log_level = "info"\n');
    const rc = new RuntimeConfig(loadConfig({ home: h }, {}));
    const { changed, results } = rc.patch([
      { key: 'events.heartbeat_ms', value: 5000 },
      { key: 'listen', value: '127.0.0.1:1' },
      { key: 'nope.nothing', value: 1 },
      { key: 'events.page_limit_max', value: 'lots' },
      { key: 'providers.local.kind', value: 'openai' },
    ]);
    expect(changed).toBe(true);
    expect(results.map((r) => r.effect)).toEqual(['accepted_requires_restart', 'rejected', 'rejected', 'rejected', 'rejected']);
    expect(results[1]!.reason).toMatch(/start-up only/);
    expect(results[2]!.reason).toMatch(/unknown key/);
    expect(results[3]!.reason).toMatch(/invalid value/);
    const written = parseToml(fs.readFileSync(path.join(h, 'config.toml'), 'utf8')) as Record<string, Record<string, unknown>>;
    expect(written.events!.heartbeat_ms).toBe(5000);
    expect(written.log_level).toBe('info');
    expect(loadConfig({ home: h }, {}).values.events.heartbeat_ms).toBe(5000);
  });

  it('reports changed:false when the value is already there', () => {
    const h = home('[events]\nheartbeat_ms = 5000\n');
    const rc = new RuntimeConfig(loadConfig({ home: h }, {}));
    expect(rc.patch([{ key: 'events.heartbeat_ms', value: 5000 }]).changed).toBe(false);
  });

  it('unset removes a key from the config file; a missing value without unset is not an update', () => {
    const h = home('[events]\nheartbeat_ms = 5000\npage_limit_max = 200\n');
    const rc = new RuntimeConfig(loadConfig({ home: h }, {}));
    const r = rc.patch([{ key: 'events.heartbeat_ms', unset: true }]);
    expect(r).toMatchObject({ changed: true, results: [{ key: 'events.heartbeat_ms', effect: 'accepted_requires_restart' }] });
    const text = fs.readFileSync(path.join(h, 'config.toml'), 'utf8');
    expect(text).not.toContain('heartbeat_ms');
    expect(text).toContain('page_limit_max = 200');
    expect(rc.patch([{ key: 'events.heartbeat_ms', unset: true }]).changed).toBe(false);
    expect(rc.patch([{ key: 'listen', unset: true }]).results[0]!.effect).toBe('rejected');
  });

  it('redacts the control token in the surface', () => {
    const rc = new RuntimeConfig(loadConfig({ home: home(), token: 'super-secret' }, {}));
    expect(JSON.stringify(rc.surface({ modelCatalog: [], providers: [] }))).not.toContain('super-secret');
  });
});

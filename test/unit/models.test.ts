/**
 * The models catalog in process against fake provider servers: the cached list (no provider
 * contact), discovery with a TTL on the injected clock, one provider failing without hiding the
 * others, the cache surviving a restart, and per-agent overrides with `model_changed` in the same
 * transaction.
 */
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, validateConfig } from '../../src/config/load.js';
import { AppError } from '../../src/core/errors.js';
import { agentDetail } from '../../src/runtime/views/agent-views.js';
import { DISCOVERY_TTL_MS, ModelCatalog } from '../../src/runtime/models/models.js';
import { AnthropicProvider } from '../../src/runtime/providers/anthropic.js';
import { OpenAIProvider } from '../../src/runtime/providers/openai.js';
import { createServices, startServices, stopServices } from '../../src/services.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { startFakeAnthropic } from '../helpers/fake-anthropic.js';
import type { FakeModelServer } from '../helpers/fake-model-server.js';
import { startFakeOpenAI } from '../helpers/fake-openai.js';
import { testServices, type TestServices } from '../helpers/services.js';

let t: TestServices;
let local: FakeModelServer;
let claude: FakeModelServer;

const config = () => `
[providers.local]
kind = "openai"
base_url = "${local.url}"
models = ["static-a"]

[providers.claude]
kind = "anthropic"
base_url = "${claude.url}"
`;

const listings = (fake: FakeModelServer) => fake.requests.filter((r) => r.path === '/v1/models').length;
const ids = () => t.s.models.list().available_models.map((m) => m.id);
const modelEvents = (agent = 'main') => t.s.events.page(agent, { limit: 100, order: 'asc', max_level: 'debug' }).events.filter((e) => e.type === 'model_changed');

async function expectAppError(p: Promise<unknown> | (() => unknown), code: string): Promise<AppError> {
  let err: unknown = null;
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe(code);
  return err as AppError;
}

/** Stop the services and open new ones on the same home (a restart); the clock carries over. */
async function restart(toml = config()): Promise<void> {
  const { home, clock } = t;
  await stopServices(t.s);
  fs.writeFileSync(`${home}/config.toml`, toml);
  const s = createServices(loadConfig({ home }, {}), clock, createLogger('silent'));
  startServices(s);
  t = { s, clock, home, close: async () => (await stopServices(s), fs.rmSync(home, { recursive: true, force: true })) };
}

beforeEach(async () => {
  local = await startFakeOpenAI();
  claude = await startFakeAnthropic();
  local.models = ['d1', 'static-a'];
  claude.models = ['claude-x'];
  t = testServices({ configToml: config() });
});
afterEach(async () => {
  await t.close();
  await local.close();
  await claude.close();
});

describe('list', () => {
  it('offers builtin/echo and the static models without contacting any provider', () => {
    const catalog = t.s.models.list();
    expect(catalog.default_model).toBe('builtin/echo');
    expect(catalog.available_models).toEqual([
      { id: 'builtin/echo', model: 'builtin/echo', display_name: 'echo (built-in, offline)', provider: 'builtin', kind: 'builtin', source: 'builtin' },
      { id: 'local/static-a', model: 'local/static-a', display_name: 'static-a', provider: 'local', kind: 'openai', source: 'config' },
    ]);
    expect(catalog.model_availability).toEqual({ 'builtin/echo': true, 'local/static-a': true });
    expect(catalog.providers.map((p) => [p.name, p.available, p.discovered_at])).toEqual([
      ['local', true, null],
      ['claude', true, null],
    ]);
    expect(local.requests).toHaveLength(0);
    expect(claude.requests).toHaveLength(0);
  });

  it('without providers it is builtin/echo alone', async () => {
    await restart('');
    expect(ids()).toEqual(['builtin/echo']);
  });
});

describe('refresh', () => {
  it('adds discovered models; a model in both lists stays a config model', async () => {
    const result = await t.s.models.refresh();
    expect(result.errors).toEqual([]);
    expect(result.refreshed).toEqual(['local', 'claude']);
    expect(result.available_models.map((m) => [m.id, m.source])).toEqual([
      ['builtin/echo', 'builtin'],
      ['local/static-a', 'config'],
      ['local/d1', 'discovered'],
      ['claude/claude-x', 'discovered'],
    ]);
    expect(Object.values(result.model_availability).every(Boolean)).toBe(true);
    expect(ids()).toContain('claude/claude-x');
    expect(result.providers[0]!.discovered_at).toBe(new Date(t.clock.now()).toISOString());
  });

  it('reuses a discovery until the TTL has passed on the clock (or force)', async () => {
    await t.s.models.refresh();
    expect([listings(local), listings(claude)]).toEqual([1, 1]);

    t.clock.advance(DISCOVERY_TTL_MS - 1);
    expect((await t.s.models.refresh()).refreshed).toEqual([]);
    expect([listings(local), listings(claude)]).toEqual([1, 1]);

    t.clock.advance(1);
    local.models = ['d2'];
    const again = await t.s.models.refresh();
    expect(again.refreshed).toEqual(['local', 'claude']);
    expect(ids()).toEqual(['builtin/echo', 'local/static-a', 'local/d2', 'claude/claude-x']);

    await t.s.models.refresh({ force: true });
    expect([listings(local), listings(claude)]).toEqual([3, 3]);
  });

  it('one failing provider is reported and marked unavailable; the others are still listed', async () => {
    local.enqueueModels({ type: 'error', status: 500, message: 'ollama is down' });
    const result = await t.s.models.refresh();
    expect(result.errors).toEqual([{ provider: 'local', kind: 'http_status', status: 500, message: expect.stringContaining('ollama is down') }]);
    expect(result.model_availability).toMatchObject({ 'local/static-a': false, 'claude/claude-x': true, 'builtin/echo': true });
    expect(result.providers[0]).toMatchObject({ name: 'local', available: false, last_error: { kind: 'http_status' } });

    // A failed provider is asked again at the next refresh, even inside the TTL.
    const second = await t.s.models.refresh();
    expect(second.refreshed).toEqual(['local']);
    expect(second.errors).toEqual([]);
    expect(second.model_availability['local/d1']).toBe(true);
  });

  it('keeps the models of the last success when a later discovery fails', async () => {
    await t.s.models.refresh();
    local.enqueueModels({ type: 'error', status: 503 });
    await t.s.models.refresh({ force: true });
    const catalog = t.s.models.list();
    expect(ids()).toContain('local/d1');
    expect(catalog.model_availability['local/d1']).toBe(false);
  });

  it('gives up on a provider that does not answer within the discovery timeout', async () => {
    const catalog = new ModelCatalog({ ...t.s, discoveryTimeoutMs: 750 });
    claude.enqueueModels({ type: 'hang' });
    const result = await catalog.refresh();
    expect(result.errors).toEqual([expect.objectContaining({ provider: 'claude', kind: 'timeout' })]);
    expect(result.model_availability['local/d1']).toBe(true);
  });

  it('shares one discovery between concurrent refreshes', async () => {
    await Promise.all([t.s.models.refresh(), t.s.models.refresh(), t.s.models.refresh({ force: true })]);
    expect([listings(local), listings(claude)]).toEqual([1, 1]);
  });

  it('persists the discovery cache across a restart, and drops it when the base_url changes', async () => {
    local.enqueueModels({ type: 'error', status: 500 });
    await t.s.models.refresh();
    await restart();
    expect(ids()).toEqual(['builtin/echo', 'local/static-a', 'claude/claude-x']);
    expect(t.s.models.list().model_availability['local/static-a']).toBe(false);
    expect(listings(claude)).toBe(1);

    const moved = await startFakeOpenAI();
    try {
      await restart(config().replace(local.url, moved.url));
      expect(t.s.models.list().model_availability['local/static-a']).toBe(true);
      expect(t.s.models.list().providers[0]!.last_attempt_at).toBeNull();
    } finally {
      await moved.close();
    }
  });
});

describe('overrides', () => {
  it('sets a listed model: detail shows it, model_changed records it in the same transaction', async () => {
    const res = await t.s.models.setOverride('main', 'local/static-a', 'operator_instruction');
    expect(res).toEqual({ agent_id: 'main', model: 'local/static-a', model_override: 'local/static-a' });
    const detail = agentDetail(t.s, t.s.agents.get('main'));
    expect(detail).toMatchObject({ model: 'local/static-a', model_override: 'local/static-a' });
    expect(t.s.models.effectiveModel('main')).toBe('local/static-a');
    expect(modelEvents().map((e) => e.payload)).toEqual([
      { model_override: 'local/static-a', previous_override: null, effective_model: 'local/static-a', authority_class: 'operator_instruction' },
    ]);
    expect(local.requests).toHaveLength(0);
  });

  it('clears back to model.default with previous_override in the event', async () => {
    await t.s.models.setOverride('main', 'builtin/echo');
    await t.s.models.setOverride('main', 'local/static-a');
    const res = t.s.models.clearOverride('main');
    expect(res).toEqual({ agent_id: 'main', model: 'builtin/echo', model_override: null });
    expect(agentDetail(t.s, t.s.agents.get('main')).model_override).toBeNull();
    expect(modelEvents().map((e) => [e.payload.previous_override, e.payload.model_override, e.payload.effective_model])).toEqual([
      [null, 'builtin/echo', 'builtin/echo'],
      ['builtin/echo', 'local/static-a', 'local/static-a'],
      ['local/static-a', null, 'builtin/echo'],
    ]);
  });

  it('discovers a configured provider once before refusing a model it does not list', async () => {
    local.models = ['fresh-pull'];
    await t.s.models.setOverride('main', 'local/fresh-pull');
    expect(listings(local)).toBe(1);
    expect(listings(claude)).toBe(0);

    const err = await expectAppError(t.s.models.setOverride('main', 'local/typo'), 'unknown_model');
    expect(err.status).toBe(400);
    expect(String(err.extra.hint)).toContain('GET /api/models');
    expect(listings(local)).toBe(2);
    expect(modelEvents()).toHaveLength(1);
  });

  it('refuses unknown providers and builtin models without contacting anyone', async () => {
    await expectAppError(t.s.models.setOverride('main', 'nope/model'), 'unknown_model');
    await expectAppError(t.s.models.setOverride('main', 'builtin/other'), 'unknown_model');
    await expectAppError(t.s.models.setOverride('main', 'no-slash'), 'unknown_model');
    expect(local.requests.length + claude.requests.length).toBe(0);
    expect(t.s.agents.get('main').model_override).toBeNull();
    expect(modelEvents()).toHaveLength(0);
  });

  it('names the discovery failure when the provider cannot be asked', async () => {
    local.enqueueModels({ type: 'error', status: 502, message: 'bad gateway' });
    const err = await expectAppError(t.s.models.setOverride('main', 'local/unlisted'), 'unknown_model');
    expect(err.message).toContain('bad gateway');
  });

  it('refuses unknown and deleting agents like other control routes', async () => {
    await expectAppError(t.s.models.setOverride('ghost', 'builtin/echo'), 'agent_not_found');
    await expectAppError(() => t.s.models.clearOverride('ghost'), 'agent_not_found');
    t.s.agents.create('leaving', {});
    t.s.store.tx(() => t.s.agents.setStatus('leaving', 'deleting'));
    await expectAppError(t.s.models.setOverride('leaving', 'builtin/echo'), 'agent_deleting');
    await expectAppError(() => t.s.models.clearOverride('leaving'), 'agent_deleting');
    expect(modelEvents('leaving')).toHaveLength(0);
  });

  it('survives a restart', async () => {
    await t.s.models.setOverride('main', 'local/static-a');
    await restart();
    expect(t.s.models.effectiveModel('main')).toBe('local/static-a');
  });
});

describe('provider registry and config', () => {
  it('builds one provider per config entry and resolves refs whose model part holds a slash', () => {
    expect(t.s.providers.all().map((p) => [p.name, p.kind])).toEqual([
      ['builtin', 'builtin'],
      ['local', 'openai'],
      ['claude', 'anthropic'],
    ]);
    expect(t.s.providers.get('local')).toBeInstanceOf(OpenAIProvider);
    expect(t.s.providers.get('claude')).toBeInstanceOf(AnthropicProvider);
    const r = t.s.providers.resolve('local/meta-llama/Llama-3.1-8B');
    expect(r?.provider.name).toBe('local');
    expect(r?.model).toBe('meta-llama/Llama-3.1-8B');
    expect(t.s.providers.resolve('builtin/echo')?.model).toBe('echo');
    for (const bad of ['nope/x', 'local/', '/x', 'local']) expect(t.s.providers.resolve(bad)).toBeNull();
  });

  it('refuses a provider named builtin, or a name with a slash, naming the key', () => {
    const provider = { kind: 'openai', base_url: 'http://127.0.0.1:1/v1' };
    expect(() => validateConfig({ providers: { builtin: provider } }, 'config.toml')).toThrow(ConfigError);
    expect(() => validateConfig({ providers: { builtin: provider } }, 'config.toml')).toThrow(/providers\.builtin: .*reserved/);
    expect(() => validateConfig({ providers: { 'a/b': provider } }, 'config.toml')).toThrow(/providers\.a\/b/);
    expect(validateConfig({ providers: { ollama: provider } }, 'config.toml').providers.ollama?.api_key_env).toBe('');
  });
});

/**
 * The models catalog and model overrides against the real daemon, whose `[providers.*]` point at
 * fake provider servers running in this test (and one at a port where nothing listens): GET
 * /api/models, refresh with one provider down, set/clear with `model_changed` and the agent detail,
 * unknown_model, the cache across a restart, keys kept out of logs, the `svc models` commands as
 * child processes, and `builtin` refused as a provider name. Needs `npm run build` first.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliFor } from '../helpers/cli.js';
import { daemonPool, request, runSvc, type RunningDaemon } from '../helpers/daemon.js';
import { startFakeAnthropic } from '../helpers/fake-anthropic.js';
import type { FakeModelServer } from '../helpers/fake-model-server.js';
import { startFakeOpenAI } from '../helpers/fake-openai.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const KEY = 'sk-ant-integration-secret-4242';
const pool = daemonPool();
let local: FakeModelServer;
let claude: FakeModelServer;
let downPort: number;
let d: RunningDaemon;
let home: string;

const listings = (fake: FakeModelServer) => fake.requests.filter((r) => r.path === '/v1/models').length;

function config(): string {
  return `
[model]
default = "builtin/echo"

[providers.local]
kind = "openai"
base_url = "${local.url}"
models = ["static-a"]

[providers.claude]
kind = "anthropic"
base_url = "${claude.url}"
api_key_env = "SVC_TEST_ANTHROPIC_KEY"

[providers.down]
kind = "openai"
base_url = "http://127.0.0.1:${downPort}/v1"
models = ["ghost"]
`;
}

async function start(): Promise<RunningDaemon> {
  d = await pool.start({ home, configToml: config(), env: { SVC_TEST_ANTHROPIC_KEY: KEY } });
  return d;
}

async function modelEvents(agent: string): Promise<Json[]> {
  const r = await request(d, 'GET', `/api/agents/${agent}/events?order=asc&limit=1000`);
  expect(r.status).toBe(200);
  return r.json.events.filter((e: Json) => e.type === 'model_changed');
}

beforeAll(async () => {
  local = await startFakeOpenAI();
  claude = await startFakeAnthropic();
  local.models = ['d1', 'static-a'];
  claude.models = ['claude-x', 'claude-y'];
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  downPort = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  home = pool.home();
  await start();
});

afterAll(async () => {
  pool.cleanup();
  await local?.close();
  await claude?.close();
});

const { svc, svcJson, expectFailure } = cliFor(() => d);

describe('GET /api/models and POST /api/models/refresh', () => {
  it('lists the cached catalog without contacting any provider', async () => {
    const r = await request(d, 'GET', '/api/models');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ ok: true, default_model: 'builtin/echo' });
    expect(r.json.available_models.map((m: Json) => [m.id, m.source])).toEqual([
      ['builtin/echo', 'builtin'],
      ['local/static-a', 'config'],
      ['down/ghost', 'config'],
    ]);
    expect(r.json.available_models[0]).toEqual({ id: 'builtin/echo', model: 'builtin/echo', display_name: 'echo (built-in, offline)', provider: 'builtin', kind: 'builtin', source: 'builtin' });
    expect(r.json.model_availability).toEqual({ 'builtin/echo': true, 'local/static-a': true, 'down/ghost': true });
    expect(r.json.providers.find((p: Json) => p.name === 'claude')).toMatchObject({ kind: 'anthropic', api_key: 'set' });
    expect(local.requests.length + claude.requests.length).toBe(0);
  });

  it('refresh discovers the providers that answer and reports the one that is down', async () => {
    const r = await request(d, 'POST', '/api/models/refresh');
    expect(r.status).toBe(200);
    expect(r.json.refreshed).toEqual(['local', 'claude', 'down']);
    expect(r.json.errors).toEqual([{ provider: 'down', kind: 'connection_refused', status: null, message: expect.stringContaining(`127.0.0.1:${downPort}`) }]);
    expect(r.json.available_models.map((m: Json) => m.id)).toEqual([
      'builtin/echo',
      'local/static-a',
      'local/d1',
      'claude/claude-x',
      'claude/claude-y',
      'down/ghost',
    ]);
    expect(r.json.model_availability).toMatchObject({ 'claude/claude-x': true, 'local/d1': true, 'down/ghost': false });
    // The key went to the provider as x-api-key, and nowhere else.
    const listing = claude.requests.find((q) => q.path === '/v1/models')!;
    expect(listing.headers['x-api-key']).toBe(KEY);
    expect(listing.headers['anthropic-version']).toBe('2023-06-01');
    expect(r.text).not.toContain(KEY);

    const again = await request(d, 'GET', '/api/models');
    expect(again.json.available_models.map((m: Json) => m.id)).toContain('claude/claude-y');
  });

  it('a second refresh inside the TTL asks only the failed provider; force asks all', async () => {
    const before = [listings(local), listings(claude)];
    const r = await request(d, 'POST', '/api/models/refresh', { body: {} });
    expect(r.json.refreshed).toEqual(['down']);
    expect([listings(local), listings(claude)]).toEqual(before);
    const forced = await request(d, 'POST', '/api/models/refresh', { body: { force: true } });
    expect(forced.json.refreshed).toEqual(['local', 'claude', 'down']);
    expect([listings(local), listings(claude)]).toEqual([before[0]! + 1, before[1]! + 1]);
  });

  it('refuses a body with unknown fields', async () => {
    const r = await request(d, 'POST', '/api/models/refresh', { body: { provider: 'local' } });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('invalid_request');
  });

  it('never logs the key, even when a provider echoes it in an error', async () => {
    claude.enqueueModels({ type: 'error', status: 401, message: `invalid x-api-key ${KEY}` });
    const r = await request(d, 'POST', '/api/models/refresh', { body: { force: true } });
    expect(r.json.errors).toEqual(expect.arrayContaining([expect.objectContaining({ provider: 'claude', kind: 'http_status', status: 401 })]));
    expect(r.text).not.toContain(KEY);
    expect(d.logs()).toContain('model discovery failed');
    expect(d.logs()).not.toContain(KEY);
    await request(d, 'POST', '/api/models/refresh'); // claude recovers
  });
});

describe('model override routes', () => {
  const A = 'model-agent';
  beforeAll(async () => {
    const r = await request(d, 'POST', `/api/control/agents/${A}/create`, { body: {} });
    expect(r.status).toBe(201);
    expect(r.json.agent).toMatchObject({ model: 'builtin/echo', model_override: null });
  });

  it('sets a catalog model: response, detail, status and a model_changed event', async () => {
    const r = await request(d, 'POST', `/api/control/agents/${A}/model`, { body: { model: 'claude/claude-x', authority_class: 'operator_instruction' } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ ok: true, agent_id: A, model: 'claude/claude-x', model_override: 'claude/claude-x' });

    const detail = await request(d, 'GET', `/api/control/agents/${A}/detail`);
    expect(detail.json).toMatchObject({ model: 'claude/claude-x', model_override: 'claude/claude-x' });
    const status = await request(d, 'GET', `/api/agents/${A}/status`);
    expect(status.json.model).toBe('claude/claude-x');

    const events = await modelEvents(A);
    expect(events.map((e) => e.payload)).toEqual([
      { model_override: 'claude/claude-x', previous_override: null, effective_model: 'claude/claude-x', authority_class: 'operator_instruction' },
    ]);
    const info = await request(d, 'GET', `/api/agents/${A}/events?max_level=info&order=asc`);
    expect(info.json.events.map((e: Json) => e.type)).toContain('model_changed');
  });

  it('clears the override back to model.default', async () => {
    const r = await request(d, 'POST', `/api/control/agents/${A}/model/clear`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ ok: true, agent_id: A, model: 'builtin/echo', model_override: null });
    const detail = await request(d, 'GET', `/api/control/agents/${A}/detail`);
    expect(detail.json).toMatchObject({ model: 'builtin/echo', model_override: null });
    const events = await modelEvents(A);
    expect(events.at(-1)!.payload).toMatchObject({ model_override: null, previous_override: 'claude/claude-x', effective_model: 'builtin/echo' });
  });

  it('answers 400 unknown_model with a hint and changes nothing', async () => {
    const before = (await modelEvents(A)).length;
    for (const model of ['nope/x', 'builtin/nope', 'local/not-there', 'no-slash']) {
      const r = await request(d, 'POST', `/api/control/agents/${A}/model`, { body: { model } });
      expect(r.status, model).toBe(400);
      expect(r.json).toMatchObject({ ok: false, code: 'unknown_model', model });
      expect(r.json.hint).toContain('GET /api/models');
    }
    expect((await modelEvents(A)).length).toBe(before);
    const detail = await request(d, 'GET', `/api/control/agents/${A}/detail`);
    expect(detail.json.model_override).toBeNull();
  });

  it('accepts a model a provider lists only now (one discovery before deciding)', async () => {
    local.models = ['d1', 'static-a', 'just-pulled'];
    const before = listings(local);
    const r = await request(d, 'POST', `/api/control/agents/${A}/model`, { body: { model: 'local/just-pulled' } });
    expect(r.status).toBe(200);
    expect(r.json.model_override).toBe('local/just-pulled');
    expect(listings(local)).toBe(before + 1);
  });

  it('validates the request and the agent', async () => {
    const missing = await request(d, 'POST', `/api/control/agents/${A}/model`, { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.json.code).toBe('invalid_request');
    const ghost = await request(d, 'POST', '/api/control/agents/ghost/model', { body: { model: 'builtin/echo' } });
    expect(ghost.status).toBe(404);
    expect(ghost.json.code).toBe('agent_not_found');
    const ghostClear = await request(d, 'POST', '/api/control/agents/ghost/model/clear', { body: {} });
    expect(ghostClear.json.code).toBe('agent_not_found');
  });
});

describe('svc models', () => {
  it('list prints the catalog as a table with the default marked, and as JSON', async () => {
    const r = await svc(['models', 'list']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+PROVIDER\s+SOURCE\s+AVAILABLE\s+DEFAULT$/);
    expect(lines.find((l) => l.startsWith('builtin/echo'))).toMatch(/builtin\s+builtin\s+true\s+\*$/);
    expect(lines.some((l) => /^down\/ghost\s+down\s+config\s+false/.test(l))).toBe(true);
    const json = await svcJson(['models', 'list']);
    expect(json.available_models.map((m: Json) => m.id)).toContain('claude/claude-x');
  });

  it('refresh prints the errors of the providers that are down', async () => {
    const r = await svc(['models', 'refresh']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^error: down: connection_refused: /m);
    const json = await svcJson(['models', 'refresh', '--force']);
    expect(json.refreshed).toEqual(['local', 'claude', 'down']);
  });

  it('set and clear change the override; an unknown model fails with its code', async () => {
    const set = await svcJson(['models', 'set', 'main', 'local/static-a']);
    expect(set).toEqual({ ok: true, agent_id: 'main', model: 'local/static-a', model_override: 'local/static-a' });
    const human = await svc(['models', 'clear', 'main']);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toBe('main: model builtin/echo (no override)\n');
    const detail = await request(d, 'GET', '/api/control/agents/main/detail');
    expect(detail.json.model_override).toBeNull();
    await expectFailure(['models', 'set', 'main', 'nope/x'], 'unknown_model');
  });
});

describe('restart and configuration', () => {
  it('keeps discovered models and overrides across a restart without contacting the providers', async () => {
    await request(d, 'POST', '/api/control/agents/model-agent/model', { body: { model: 'claude/claude-y' } });
    const calls = [listings(local), listings(claude)];
    expect(await d.stop()).toBe(0);
    await start();
    const r = await request(d, 'GET', '/api/models');
    expect(r.json.available_models.map((m: Json) => m.id)).toEqual(expect.arrayContaining(['local/d1', 'claude/claude-y']));
    expect(r.json.model_availability['down/ghost']).toBe(false);
    expect([listings(local), listings(claude)]).toEqual(calls);
    const detail = await request(d, 'GET', '/api/control/agents/model-agent/detail');
    expect(detail.json).toMatchObject({ model: 'claude/claude-y', model_override: 'claude/claude-y' });
  });

  it('refuses to start with a provider named builtin', async () => {
    const h = pool.home();
    fs.writeFileSync(path.join(h, 'config.toml'), '[providers.builtin]\nkind = "openai"\nbase_url = "http://127.0.0.1:1/v1"\n');
    const r = await runSvc(['serve', '--home', h, '--listen', '127.0.0.1:0']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('providers.builtin');
    expect(r.stderr).toContain('reserved');
  });
});

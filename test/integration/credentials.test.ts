/**
 * Credential profiles against the real daemon: `GET/PUT/DELETE /api/control/runtime/credentials`,
 * the file they keep (0600, never echoed), a provider naming a profile with `credential_profile`
 * (the key reaches the fake provider from the next request on, no restart), bad input refused with
 * the file unchanged, a group-readable store refused, bearer mode, and `svc credentials` (the secret from
 * stdin or a file, never printed). Needs `npm run build` first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonPool, request, runSvc, type RunningDaemon } from '../helpers/daemon.js';
import type { FakeModelServer } from '../helpers/fake-model-server.js';
import { startFakeOpenAI } from '../helpers/fake-openai.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const KEY = 'sk-profile-secret-7731';
const pool = daemonPool();
let fake: FakeModelServer;
let d: RunningDaemon;
const file = () => path.join(d.home, 'credentials.json');
const listings = () => fake.requests.filter((r) => r.path === '/v1/models');

beforeAll(async () => {
  fake = await startFakeOpenAI();
  fake.models = ['m1'];
  d = await pool.start({
    configToml: `
[providers.keyed]
kind = "openai"
base_url = "${fake.url}"
credential_profile = "keyed"
`,
  });
});

afterAll(async () => {
  pool.cleanup();
  await fake?.close();
});

describe('credential profiles', () => {
  it('lists a profile the config names but nobody stored as not configured, and the provider key as missing', async () => {
    const r = await request(d, 'GET', '/api/control/runtime/credentials');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      ok: true,
      profiles: [{ profile: 'keyed', kind: 'api_key', configured: false, updated_at: null, used_by: ['providers.keyed.credential_profile'] }],
    });
    const models = await request(d, 'GET', '/api/models');
    expect(models.json.providers.find((p: Json) => p.name === 'keyed').api_key).toBe('missing');
    // Discovery needs the key: without it nothing is sent to the provider.
    const refresh = await request(d, 'POST', '/api/models/refresh', { body: { force: true } });
    expect(refresh.json.errors).toEqual([expect.objectContaining({ provider: 'keyed', kind: 'missing_api_key', message: expect.stringContaining('credential profile "keyed"') })]);
    expect(listings()).toHaveLength(0);
    const config = await request(d, 'GET', '/api/control/runtime/config');
    expect(config.json.runtime_surface.providers[0]).toMatchObject({ id: 'keyed', credential_source: 'profile', credential_profile: 'keyed', credential_configured: false });
  });

  it('PUT stores the key 0600 and a provider uses it from its next request; no read returns it', async () => {
    const put = await request(d, 'PUT', '/api/control/runtime/credentials/keyed', { body: { kind: 'api_key', material: KEY } });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({
      ok: true,
      profile: { profile: 'keyed', kind: 'api_key', configured: true, updated_at: expect.any(String), used_by: ['providers.keyed.credential_profile'] },
    });
    expect(fs.statSync(file()).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file(), 'utf8')).profiles.keyed).toMatchObject({ kind: 'api_key', token: KEY });

    const refresh = await request(d, 'POST', '/api/models/refresh', { body: { force: true } });
    expect(refresh.json.errors).toEqual([]);
    expect(refresh.json.available_models.map((m: Json) => m.id)).toContain('keyed/m1');
    expect(listings().at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);

    const reads = await Promise.all(
      ['/api/control/runtime/credentials', '/api/models', '/api/control/runtime/config', '/api/control/runtime/status'].map((u) => request(d, 'GET', u)),
    );
    for (const r of [put, refresh, ...reads]) expect(r.text).not.toContain(KEY);
    expect(reads[0]!.json.profiles[0].configured).toBe(true);
    expect(reads[1]!.json.providers.find((p: Json) => p.name === 'keyed').api_key).toBe('set');
    expect(reads[2]!.json.runtime_surface.providers[0].credential_configured).toBe(true);
    expect(d.logs()).toContain('credential profile stored');
    expect(d.logs()).not.toContain(KEY);
  });

  it('refuses bad input with a 400 envelope and leaves the file as it was', async () => {
    const before = fs.readFileSync(file(), 'utf8');
    const cases: Array<[string, unknown]> = [
      ['/api/control/runtime/credentials/keyed', { kind: 'oauth', material: 'x' }],
      ['/api/control/runtime/credentials/keyed', { kind: 'api_key', material: '' }],
      ['/api/control/runtime/credentials/keyed', { kind: 'api_key', material: 'a\r\nX-Injected: 1' }],
      ['/api/control/runtime/credentials/keyed', { kind: 'api_key', material: 'x'.repeat(16 * 1024 + 1) }],
      ['/api/control/runtime/credentials/keyed', { kind: 'api_key', material: 'x', extra: 1 }],
      ['/api/control/runtime/credentials/keyed', { kind: 'api_key' }],
      ['/api/control/runtime/credentials/..%2Fconfig', { kind: 'api_key', material: 'x' }],
      ['/api/control/runtime/credentials/-dash', { kind: 'api_key', material: 'x' }],
      [`/api/control/runtime/credentials/${'a'.repeat(65)}`, { kind: 'api_key', material: 'x' }],
      ['/api/control/runtime/credentials/__proto__', { kind: 'api_key', material: 'x' }],
    ];
    for (const [url, body] of cases) {
      const r = await request(d, 'PUT', url, { body });
      expect([r.status, r.json.code], `${url} ${JSON.stringify(body).slice(0, 60)}`).toEqual([400, 'invalid_request']);
    }
    expect(fs.readFileSync(file(), 'utf8')).toBe(before);
  });

  it('DELETE removes the profile (then 404 credential_not_found); the provider key is missing again', async () => {
    const spare = await request(d, 'PUT', '/api/control/runtime/credentials/spare:default', { body: { kind: 'bearer_token', material: 'tok-1' } });
    expect(spare.status).toBe(200);
    const del = await request(d, 'DELETE', '/api/control/runtime/credentials/keyed');
    expect(del.status).toBe(200);
    expect(del.json.profile).toMatchObject({ profile: 'keyed', configured: false });
    const again = await request(d, 'DELETE', '/api/control/runtime/credentials/keyed');
    expect([again.status, again.json.code]).toEqual([404, 'credential_not_found']);
    const list = await request(d, 'GET', '/api/control/runtime/credentials');
    expect(list.json.profiles.map((p: Json) => [p.profile, p.kind, p.configured])).toEqual([
      ['keyed', 'api_key', false],
      ['spare:default', 'bearer_token', true],
    ]);
    const models = await request(d, 'GET', '/api/models');
    expect(models.json.providers.find((p: Json) => p.name === 'keyed').api_key).toBe('missing');
  });

  it('a store others can read is refused (409 credential_store_unusable) and not rewritten', async () => {
    fs.chmodSync(file(), 0o644);
    try {
      const list = await request(d, 'GET', '/api/control/runtime/credentials');
      expect([list.status, list.json.code]).toEqual([409, 'credential_store_unusable']);
      expect(list.json.error).toContain('chmod 600');
      const put = await request(d, 'PUT', '/api/control/runtime/credentials/spare:default', { body: { kind: 'api_key', material: 'y' } });
      expect([put.status, put.json.code]).toEqual([409, 'credential_store_unusable']);
      expect(fs.statSync(file()).mode & 0o777).toBe(0o644);
    } finally {
      fs.chmodSync(file(), 0o600);
    }
  });
});

describe('credential profiles named by the inbox', () => {
  it('lists a profile an inbox host and source name, with where, even before it is stored', async () => {
    const sock = (method: string, url: string, body?: unknown) => request({ socketPath: d.socket }, method, url, { body });
    const host = await sock('POST', '/hosts', { hostType: 'github', hostKey: 'creds', config: { credentialRef: 'gh-token', apiBaseUrl: fake.url } });
    expect(host.status, host.text).toBe(201);
    const source = await sock('POST', '/sources', { hostId: host.json.hostId, streamKind: 'repo_events', streamKey: 'octo/creds', config: { webhookSecretRef: 'gh-hook' } });
    expect(source.status, source.text).toBe(201);
    const list = await request(d, 'GET', '/api/control/runtime/credentials');
    const byName = Object.fromEntries(list.json.profiles.map((p: Json) => [p.profile, p]));
    expect(byName['gh-token']).toEqual({ profile: 'gh-token', kind: 'api_key', configured: false, updated_at: null, used_by: [`inbox host ${host.json.hostId} credentialRef`] });
    expect(byName['gh-hook']).toMatchObject({ configured: false, used_by: [`inbox source ${source.json.sourceId} webhookSecretRef`] });
    const put = await request(d, 'PUT', '/api/control/runtime/credentials/gh-token', { body: { kind: 'bearer_token', material: 'ghp_x' } });
    expect(put.json.profile).toMatchObject({ configured: true, used_by: [`inbox host ${host.json.hostId} credentialRef`] });
  });
});

describe('credential profiles in bearer mode', () => {
  it('every route needs the control token, reads included', async () => {
    const b = await pool.start({ env: { SVC_TOKEN: 'ctl-token-1' } });
    for (const [method, url, body] of [
      ['GET', '/api/control/runtime/credentials', undefined],
      ['PUT', '/api/control/runtime/credentials/p', { kind: 'api_key', material: 'x' }],
      ['DELETE', '/api/control/runtime/credentials/p', undefined],
    ] as const) {
      const r = await request(b, method, url, { body });
      expect([r.status, r.json.code], `${method} ${url}`).toEqual([401, 'auth_required']);
    }
    expect(fs.existsSync(path.join(b.home, 'credentials.json'))).toBe(false);
    const ok = await request(b, 'PUT', '/api/control/runtime/credentials/p', { body: { kind: 'api_key', material: 'x' }, headers: { authorization: 'Bearer ctl-token-1' } });
    expect(ok.status).toBe(200);
  });
});

describe('svc credentials', () => {
  const SECRET = 'ghp_cli-secret-5518';
  const svc = (args: string[], input?: string) => runSvc([...args, '--url', d.base], {}, 15_000, input);

  it('set reads the secret from stdin (one trailing newline dropped) or --from-file and never prints it; list and delete', async () => {
    const set = await svc(['credentials', 'set', 'gh-cli'], `${SECRET}\n`);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/^gh-cli: bearer_token, stored /);
    expect(JSON.parse(fs.readFileSync(file(), 'utf8')).profiles['gh-cli']).toMatchObject({ kind: 'bearer_token', token: SECRET });

    const secretFile = path.join(d.home, 'hook-secret.txt');
    fs.writeFileSync(secretFile, `${SECRET}-file\r\n`, { mode: 0o600 });
    const fromFile = await svc(['credentials', 'set', 'hook', '--kind', 'api_key', '--from-file', secretFile, '--json']);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(JSON.parse(fromFile.stdout).profile).toMatchObject({ profile: 'hook', kind: 'api_key', configured: true });
    expect(JSON.parse(fs.readFileSync(file(), 'utf8')).profiles.hook.token).toBe(`${SECRET}-file`);

    const list = await svc(['credentials', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^PROFILE\s+KIND\s+CONFIGURED/);
    expect(list.stdout).toMatch(/gh-cli\s+bearer_token\s+true/);
    const listJson = await svc(['credentials', 'list', '--json']);
    expect(JSON.parse(listJson.stdout).profiles.map((p: Json) => p.profile)).toEqual(expect.arrayContaining(['gh-cli', 'hook']));

    const del = await svc(['credentials', 'delete', 'hook']);
    expect([del.code, del.stdout]).toEqual([0, 'hook: removed\n']);
    const again = await svc(['credentials', 'delete', 'hook']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^svc: credential_not_found: /);
    for (const r of [set, fromFile, list, listJson, del, again]) expect(r.stdout + r.stderr).not.toContain(SECRET);
    expect(d.logs()).not.toContain(SECRET);
  });

  it('set refuses an empty secret and a multi-line one without storing anything', async () => {
    const before = fs.readFileSync(file(), 'utf8');
    const empty = await svc(['credentials', 'set', 'nothing'], '\n');
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('the secret is empty');
    const twoLines = await svc(['credentials', 'set', 'two'], 'line-one\nline-two\n');
    expect(twoLines.code).toBe(1);
    expect(twoLines.stderr).toMatch(/^svc: invalid_request: /);
    expect(twoLines.stderr).not.toContain('line-one');
    expect(fs.readFileSync(file(), 'utf8')).toBe(before);
  });
});

/**
 * Host credentials that reach source modules, and schemas that mean something
 * (docs/inbox-api.md#credentials-for-hosts, docs/inbox-api.md#schemas): host configs checked
 * against their type's JSON Schema, moduleConfig against the module's configSchema, and the
 * credential a host or source names handed to the module in memory only. Modules run in real worker
 * threads; the scheduler on a ManualClock.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/daemon.js';
import { testServices, type TestServices } from '../helpers/services.js';

const SECRET = 'ghp_unit-secret-0b7d4e';
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

let t: TestServices;
let dir: string;
let calls: string;
beforeEach(() => {
  t = testServices();
  dir = path.join(t.home, 'source-modules');
  fs.mkdirSync(dir, { recursive: true });
  calls = path.join(t.home, 'calls.jsonl');
});
afterEach(() => t.close());

const inbox = () => t.s.inbox;

/** Records what each call got (the secret only as a hash), then does what moduleConfig says. */
const RECORDER = `
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import { workerData } from 'node:worker_threads';
const seen = (op, moduleConfig, ctx) => fs.appendFileSync(${JSON.stringify('CALLS')}, JSON.stringify({
  op, moduleConfig, hostConfig: ctx.hostConfig, profile: ctx.credential?.profile ?? null, kind: ctx.credential?.kind ?? null,
  secretSha: ctx.credential ? createHash('sha256').update(ctx.credential.secret).digest('hex') : null,
  workerData, now: ctx.now ?? null,
}) + '\\n');
export default {
  validate(moduleConfig, ctx) { seen('validate', moduleConfig, ctx); },
  async poll(ctx) {
    seen('poll', ctx.moduleConfig, ctx);
    const secret = ctx.credential?.secret ?? '';
    if (ctx.moduleConfig?.throwSecret) throw new Error('upstream said no to ' + secret);
    if (ctx.moduleConfig?.leakSecret) return { events: [{ type: 'oops', data: { token: secret } }] };
    return { events: [{ id: 'e' + (ctx.cursor ?? 0), type: 'tick' }], cursor: (ctx.cursor ?? 0) + 1, notBefore: ctx.moduleConfig?.waitMs ? ctx.now + ctx.moduleConfig.waitMs : undefined };
  },
};`;

function writeModule(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text.replace('"CALLS"', JSON.stringify(calls)));
  return file;
}

const recorded = () =>
  fs.existsSync(calls)
    ? fs
        .readFileSync(calls, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
    : [];

async function remoteSource(hostConfig: Record<string, unknown>, config: Record<string, unknown>, configRef?: string) {
  const { host } = inbox().hosts.create({ hostType: 'remote_source', hostKey: `h${Math.random()}`, config: hostConfig });
  const { source } = await inbox().sources.create({ hostId: host.hostId, streamKind: 'poll', streamKey: 'k', config, ...(configRef ? { configRef } : {}) });
  return { host, source };
}

/** Every row of every table, as text: where a secret must never be. */
function databaseText(): string {
  const db = t.s.store.db;
  const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").all();
  return tables.map(({ name }) => JSON.stringify(db.prepare(`SELECT * FROM "${name}"`).all())).join('\n');
}

describe('host configs are checked against their type', () => {
  it('refuses a config the schema does not allow with 400 invalid_request naming the field', () => {
    expect(() => inbox().hosts.create({ hostType: 'github', hostKey: 'gh', config: { apiBaseUrl: 'ftp://x' } })).toThrow(
      expect.objectContaining({ status: 400, code: 'invalid_request', extra: { issues: [{ path: 'config.apiBaseUrl', message: expect.stringContaining('pattern') }] } }),
    );
    expect(() => inbox().hosts.create({ hostType: 'github', hostKey: 'gh', config: { token: SECRET } })).toThrow(
      expect.objectContaining({ code: 'invalid_request', extra: { issues: [{ path: 'config.token', message: 'unknown field token' }] } }),
    );
    expect(() => inbox().hosts.create({ hostType: 'remote_source', hostKey: 'r', config: { credentialRef: 'bad name' } })).toThrow(
      expect.objectContaining({ code: 'invalid_request', extra: { issues: [{ path: 'config.credentialRef', message: expect.any(String) }] } }),
    );
    expect(inbox().hosts.list()).toEqual([]);
    expect(inbox().hosts.create({ hostType: 'remote_source', hostKey: 'r', config: { credentialRef: 'gh', region: 'eu' } }).created).toBe(true);
    expect(inbox().hosts.create({ hostType: 'github', hostKey: 'gh', config: { apiBaseUrl: 'http://127.0.0.1:9/api/v3', credentialRef: 'gh' } }).created).toBe(true);
  });

  it('serves the schema of its type', () => {
    const { host } = inbox().hosts.create({ hostType: 'github', hostKey: 'gh' });
    expect(inbox().hosts.schema(host.hostId)).toMatchObject({
      hostType: 'github',
      hostConfigSchema: { additionalProperties: false, properties: { apiBaseUrl: { default: 'https://api.github.com' }, credentialRef: { type: 'string' } } },
      sourceConfigSchema: { properties: { owner: {}, repo: {}, resources: {}, webhookSecretRef: {} } },
    });
  });
});

describe("a module's configSchema", () => {
  const SCHEMA_MODULE = `
export default {
  configSchema: { type: 'object', additionalProperties: false, required: ['owner'], properties: { owner: { type: 'string', minLength: 1 }, limit: { type: 'integer', maximum: 10 } } },
  validate(cfg) { if (cfg.owner === 'nobody') throw new Error('no such owner'); },
  poll({ moduleConfig }) { return { events: [{ id: moduleConfig.owner, type: 'x' }] }; },
};`;

  it('checks moduleConfig at creation (400 invalid_request naming the field) before validate, and is served by GET schema', async () => {
    const file = writeModule('schema.mjs', SCHEMA_MODULE);
    const { host } = inbox().hosts.create({ hostType: 'remote_source', hostKey: 'r' });
    const create = (moduleConfig?: unknown) => inbox().sources.create({ hostId: host.hostId, streamKind: 'k', streamKey: 'x', config: { modulePath: file, ...(moduleConfig === undefined ? {} : { moduleConfig }) } });
    await expect(create({})).rejects.toMatchObject({ status: 400, code: 'invalid_request', extra: { issues: [{ path: 'config.moduleConfig.owner', message: 'required' }] } });
    await expect(create()).rejects.toMatchObject({ code: 'invalid_request', extra: { issues: [{ path: 'config.moduleConfig.owner', message: 'required' }] } });
    await expect(create({ owner: 'a', limit: 11 })).rejects.toMatchObject({ code: 'invalid_request', extra: { issues: [{ path: 'config.moduleConfig.limit', message: expect.stringContaining('10') }] } });
    await expect(create({ owner: 'a', extra: true })).rejects.toMatchObject({ code: 'invalid_request', extra: { issues: [{ path: 'config.moduleConfig.extra', message: 'unknown field extra' }] } });
    await expect(create({ owner: 'nobody' })).rejects.toMatchObject({ code: 'invalid_source_config', message: expect.stringContaining('no such owner') });
    expect(inbox().sources.list()).toEqual([]);
    const { source } = await create({ owner: 'octo' });
    const schema = await inbox().sources.schema(source.sourceId);
    expect(schema.moduleConfigSchema).toMatchObject({ required: ['owner'] });
    expect(schema.moduleError).toBeNull();
    expect(schema.configSchema).toMatchObject({ required: ['modulePath'], properties: { modulePath: { type: 'string' }, moduleConfig: { required: ['owner'] } } });
    // PATCH is checked the same way and changes nothing when refused.
    await expect(inbox().sources.update(source.sourceId, { config: { modulePath: file, moduleConfig: { owner: 3 } } })).rejects.toMatchObject({
      code: 'invalid_request',
      extra: { issues: [{ path: 'config.moduleConfig.owner', message: expect.any(String) }] },
    });
    expect(inbox().sources.get(source.sourceId).config).toEqual({ modulePath: file, moduleConfig: { owner: 'octo' } });
  });

  it('a module whose configSchema is not a usable JSON Schema cannot be used; one without a schema is served as null', async () => {
    const bad = writeModule('bad-schema.mjs', "export default { configSchema: { type: 'no-such-type' }, poll() { return { events: [] }; } };");
    await expect(remoteSource({}, { modulePath: bad })).rejects.toMatchObject({ code: 'invalid_source_module', message: expect.stringContaining('configSchema') });
    const notObject = writeModule('array-schema.mjs', 'export default { configSchema: [1], poll() { return { events: [] }; } };');
    await expect(remoteSource({}, { modulePath: notObject })).rejects.toMatchObject({ code: 'invalid_source_module', message: expect.stringContaining('configSchema') });
    const { source } = await remoteSource({}, { modulePath: writeModule('plain.mjs', 'export default { poll() { return { events: [] }; } };') });
    expect(await inbox().sources.schema(source.sourceId)).toMatchObject({ moduleConfigSchema: null, moduleError: null, configSchema: { required: ['modulePath'] } });
  });

  it('is checked again at every poll: a module edited to refuse the stored config puts the source in error', async () => {
    const file = writeModule('schema.mjs', SCHEMA_MODULE);
    const { source } = await remoteSource({}, { modulePath: file, moduleConfig: { owner: 'octo', limit: 5 } });
    expect(await inbox().sources.poll(source.sourceId)).toMatchObject({ appended: 1 });
    fs.writeFileSync(file, SCHEMA_MODULE.replace('maximum: 10', 'maximum: 3'));
    await expect(inbox().sources.poll(source.sourceId)).rejects.toMatchObject({ code: 'source_poll_failed', message: expect.stringContaining('config.moduleConfig.limit') });
    expect(inbox().sources.get(source.sourceId)).toMatchObject({ state: 'error', error: expect.stringContaining('no longer accepts') });
  });
});

describe('credentials reach modules in memory only', () => {
  it('a host credentialRef that is not stored puts the source in error naming the profile; once stored, the module gets it', async () => {
    const file = writeModule('rec.mjs', RECORDER);
    const { host, source } = await remoteSource({ credentialRef: 'gh', region: 'eu' }, { modulePath: file, moduleConfig: { n: 1 } });
    expect(source).toMatchObject({ state: 'error', error: expect.stringMatching(/credential profile "gh" is not stored .*credentialRef of host hst_/) });
    // validate ran without a credential (none could be had).
    expect(recorded()).toEqual([expect.objectContaining({ op: 'validate', profile: null, hostConfig: { credentialRef: 'gh', region: 'eu' } })]);
    await expect(inbox().sources.poll(source.sourceId)).rejects.toMatchObject({ status: 502, code: 'source_poll_failed', message: expect.stringContaining('"gh"') });
    expect(recorded()).toHaveLength(1); // the module was not called without its credential

    t.s.credentials.put('gh', 'bearer_token', SECRET);
    expect(await inbox().sources.poll(source.sourceId)).toMatchObject({ appended: 1, state: 'active' });
    expect(recorded().at(-1)).toMatchObject({
      op: 'poll',
      profile: 'gh',
      kind: 'bearer_token',
      secretSha: sha(SECRET),
      hostConfig: { credentialRef: 'gh', region: 'eu' },
      now: t.clock.now(),
      // The worker's startup data says where the module is, nothing more: inputs come by message.
      workerData: { op: 'poll', modulePath: fs.realpathSync(file) },
    });
    expect(inbox().sources.get(source.sourceId)).toMatchObject({ state: 'active', error: null });
    expect(inbox().hosts.get(host.hostId).config).toEqual({ credentialRef: 'gh', region: 'eu' });
  });

  it("a configRef credential:<profile> overrides the host's; another configRef stays an opaque reference", async () => {
    t.s.credentials.put('gh', 'bearer_token', SECRET);
    t.s.credentials.put('other', 'api_key', `${SECRET}-other`);
    const file = writeModule('rec.mjs', RECORDER);
    const { source } = await remoteSource({ credentialRef: 'gh' }, { modulePath: file }, 'credential:other');
    await inbox().sources.poll(source.sourceId);
    expect(recorded().at(-1)).toMatchObject({ op: 'poll', profile: 'other', kind: 'api_key', secretSha: sha(`${SECRET}-other`) });
    await inbox().sources.update(source.sourceId, { configRef: 'cred:gh' });
    await inbox().sources.poll(source.sourceId);
    expect(recorded().at(-1)).toMatchObject({ profile: 'gh', secretSha: sha(SECRET) });
    await inbox().sources.update(source.sourceId, { configRef: 'credential:missing' });
    expect(inbox().sources.get(source.sourceId)).toMatchObject({ state: 'error', error: expect.stringContaining('"missing" is not stored') });
  });

  it('a secret in a module error is scrubbed; a poll result that carries it is refused and nothing is appended', async () => {
    t.s.credentials.put('gh', 'bearer_token', SECRET);
    const file = writeModule('rec.mjs', RECORDER);
    const { source } = await remoteSource({ credentialRef: 'gh' }, { modulePath: file, moduleConfig: { throwSecret: true } });
    const thrown = await inbox()
      .sources.poll(source.sourceId)
      .then(
        () => new Error('no failure'),
        (e: Error) => e,
      );
    expect(thrown.message).toContain('upstream said no to [redacted]');
    expect(inbox().sources.get(source.sourceId).error).toContain('[redacted]');

    await inbox().sources.update(source.sourceId, { config: { modulePath: file, moduleConfig: { leakSecret: true } } });
    await expect(inbox().sources.poll(source.sourceId)).rejects.toMatchObject({ message: expect.stringContaining('contains the secret of credential profile "gh"') });
    expect(inbox().streams.stats(source.sourceId)).toBeNull();

    const answers = JSON.stringify([inbox().sources.list(), inbox().sources.detail(source.sourceId), inbox().hosts.list(), await inbox().sources.schema(source.sourceId)]);
    for (const text of [answers, databaseText(), String(thrown.message)]) expect(text).not.toContain(SECRET);
  });

  it('an unusable credential store is an error naming the file, not a crash', async () => {
    t.s.credentials.put('gh', 'bearer_token', SECRET);
    fs.chmodSync(t.s.credentials.file, 0o644);
    const { source } = await remoteSource({ credentialRef: 'gh' }, { modulePath: writeModule('rec.mjs', RECORDER) });
    expect(source).toMatchObject({ state: 'error', error: expect.stringContaining('chmod 600') });
    expect(source.error).not.toContain(SECRET);
  });
});

describe('waits a module asks for', () => {
  it('a poll result notBefore holds off scheduled polls until then', async () => {
    const file = writeModule('rec.mjs', RECORDER);
    const { source } = await remoteSource({}, { modulePath: file, moduleConfig: { waitMs: 60_000 }, pollIntervalMs: 5000 });
    const id = source.sourceId;
    const hw = () => inbox().streams.bounds(id).highWatermarkOffset;
    t.clock.advance(5000);
    inbox().sources.runDue();
    await waitFor(() => hw() === 1); // the first poll asks for a minute
    for (const step of [5000, 20_000, 30_000]) {
      t.clock.advance(step);
      inbox().sources.runDue();
      await new Promise((r) => setTimeout(r, 100));
      expect(hw()).toBe(1);
    }
    t.clock.advance(5000); // 60 s after the first poll
    inbox().sources.runDue();
    await waitFor(() => hw() === 2);
  });
});

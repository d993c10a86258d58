/**
 * AgentInbox's `/streams` additions over a real daemon's socket (docs/agentinbox.md#hosts-sources-and-streams,
 * #follow): the schema preview of a kind (and the module paths it must refuse), `POST /follow`
 * through the JSON guard, and `svc inbox follow`. Needs `npm run build` first.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonPool, request, runSvc, type RunningDaemon } from '../helpers/daemon.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const pool = daemonPool();
let d: RunningDaemon;
let outside: string;
beforeAll(async () => {
  d = await pool.start();
  outside = fs.mkdtempSync(path.join(pool.home(), 'outside-'));
});
afterAll(() => pool.cleanup());

const sock = async (method: string, url: string, body?: unknown) => request({ socketPath: d.socket }, method, url, body === undefined ? {} : { body });
const raw = (method: string, url: string, text: string) => request({ socketPath: d.socket }, method, url, { raw: text, headers: { 'content-type': 'application/json' } });
const svc = (...args: string[]) => runSvc([...args, '--socket', d.socket], {}, 30_000);
/** Nothing was stored by a refused call. */
const stored = async () => ({ hosts: (await sock('GET', '/hosts')).json.hosts.length, sources: (await sock('GET', '/sources')).json.sources.length });
const modulesDir = () => path.join(d.home, 'source-modules');

describe('POST /streams/schema-preview', () => {
  const preview = (body: Json) => sock('POST', '/streams/schema-preview', body);

  it("answers a kind's resolved schema without a source id, and stores nothing", async () => {
    const before = await stored();
    const local = await preview({ sourceRef: 'local_event' });
    expect(local.status, local.text).toBe(200);
    expect(local.json).toMatchObject({ sourceType: 'local_event', sourceKind: 'local_event', hostType: 'local_event', implementationId: 'builtin.local_event', configFields: [] });
    expect(local.json).not.toHaveProperty('sourceId');
    const ci = await preview({ sourceRef: 'github_repo_ci', config: { owner: 'octo', repo: 'hello' } });
    expect(ci.json).toMatchObject({ sourceType: 'github_repo_ci', hostType: 'remote_source', implementationId: 'builtin.github_repo_ci', aliases: ['github_repo_ci'] });
    expect(ci.json.metadataFields.map((f: Json) => f.name)).toContain('pullRequestNumbers');
    expect(ci.json).not.toHaveProperty('followSchema');
    const repo = await preview({ sourceRef: 'github_repo', config: { owner: 'octo', repo: 'hello' } });
    expect(repo.json.followSchema.templates.map((t: Json) => t.templateId)).toEqual(['github.repo', 'github.pr', 'github.issue']);
    expect(repo.json.configFields).toContainEqual(expect.objectContaining({ name: 'webhookSecretRef', type: 'string', required: false }));
    expect(await stored()).toEqual(before);
  });

  it('checks the config as a source of that kind would be checked, and refuses kinds svc does not serve', async () => {
    expect((await preview({ sourceRef: 'github_repo' })).json).toMatchObject({ code: 'invalid_request', issues: [{ path: 'config.owner' }, { path: 'config.repo' }] });
    expect((await preview({ sourceRef: 'github_repo', config: { owner: 'octo', repo: '..' } })).json).toMatchObject({ code: 'invalid_request', issues: [{ path: 'config.repo' }] });
    for (const sourceRef of ['feishu_bot', 'remote:', 'x'.repeat(512), '__proto__']) {
      const r = await preview({ sourceRef });
      expect([r.status, r.json.code], sourceRef).toEqual([400, 'unknown_source_kind']);
    }
    expect((await preview({ sourceRef: 'x'.repeat(513) })).json.code).toBe('invalid_request');
    expect((await preview({ sourceRef: 'remote_source' })).json).toMatchObject({ code: 'invalid_source_config' });
  });

  it('loads a remote module only from the module directories, naming it remote:<file name>', async () => {
    fs.mkdirSync(modulesDir(), { recursive: true });
    fs.writeFileSync(path.join(modulesDir(), 'feed.mjs'), "export default { configSchema: { type: 'object', required: ['url'] }, async poll() { return { events: [] }; } };\n");
    const ok = await preview({ sourceRef: 'remote:feed', config: { modulePath: 'feed.mjs', moduleConfig: { url: 'x' } } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json).toMatchObject({ sourceType: 'remote_source', sourceKind: 'remote:feed', implementationId: 'feed', moduleConfigSchema: { required: ['url'] }, configSchema: { properties: { moduleConfig: { required: ['url'] } } } });
    expect((await preview({ sourceRef: 'remote:feed', config: { modulePath: 'feed.mjs' } })).json).toMatchObject({ code: 'invalid_request', issues: [{ path: 'config.moduleConfig.url' }] });
    expect((await preview({ sourceRef: 'remote:other', config: { modulePath: 'feed.mjs', moduleConfig: { url: 'x' } } })).json).toMatchObject({ code: 'invalid_source_config' });
    // Outside the module directories: relative escapes, absolute paths, a symlink pointing out.
    const marker = path.join(outside, 'loaded');
    const evil = path.join(outside, 'evil.mjs');
    fs.writeFileSync(evil, `import fs from 'node:fs'; fs.writeFileSync(${JSON.stringify(marker)}, 'x'); export default { poll() { return { events: [] }; } };\n`);
    fs.symlinkSync(evil, path.join(modulesDir(), 'link.mjs'));
    for (const modulePath of [path.relative(modulesDir(), evil), evil, 'link.mjs', '/dev/zero']) {
      const r = await preview({ sourceRef: 'remote_source', config: { modulePath } });
      expect([r.status, r.json.code], modulePath).toEqual([400, 'source_module_not_allowed']);
    }
    expect(fs.existsSync(marker)).toBe(false);
  });
});

describe('POST /follow', () => {
  let agentId: string;
  beforeAll(async () => {
    agentId = (await sock('POST', '/agents', { name: 'follower' })).json.agentId;
  });
  // A closed loopback port: the sources it creates never reach the network.
  const config = { apiBaseUrl: 'http://127.0.0.1:9' };

  it('refuses a body with a prototype key or an unknown field before anything is created', async () => {
    const before = await stored();
    const polluted = await raw('POST', '/follow', `{"agentId":"${agentId}","providerOrKind":"github","template":"repo","templateArgs":{"owner":"o","repo":"r","__proto__":{"polluted":true}}}`);
    expect([polluted.status, polluted.json.code]).toEqual([400, 'invalid_request']);
    const extra = await sock('POST', '/follow', { agentId, providerOrKind: 'github', template: 'repo', templateArgs: { owner: 'o', repo: 'r' }, hostId: 'hst_x' });
    expect([extra.status, extra.json.code]).toEqual([400, 'invalid_request']);
    const huge = await sock('POST', '/follow', { agentId, providerOrKind: 'github', template: 'repo', templateArgs: { owner: 'o'.repeat(200_000), repo: 'r' }, config });
    expect([huge.status, huge.json.code]).toEqual([400, 'invalid_request']);
    const noAgent = await sock('POST', '/follow', { agentId: 'agt_nobody', providerOrKind: 'github', template: 'repo', templateArgs: { owner: 'o', repo: 'r' }, config });
    expect([noAgent.status, noAgent.json.code]).toEqual([404, 'agent_not_found']);
    expect(await stored()).toEqual(before);
  });

  it('svc inbox follow: ensures the streams and subscriptions, and says what it reused', async () => {
    const args = ['inbox', 'follow', 'github', 'pr', '--agent', 'follower', '--arg', 'owner=octo', '--arg', 'repo=hello', '--arg', 'number=7', '--arg', 'withCi=true', '--config', JSON.stringify(config)];
    const first = await svc(...args, '--json');
    expect(first.code, first.stderr).toBe(0);
    const result = JSON.parse(first.stdout);
    expect(result).toMatchObject({ templateId: 'github.pr', agentId, sources: [{ streamKind: 'repo_events', created: true }, { streamKind: 'ci_runs', created: true }] });
    const subscription = (await sock('GET', `/subscriptions/${result.subscriptions[0].subscriptionId}`)).json;
    expect(subscription).toMatchObject({ agentId, filter: { metadata: { number: 7, isPullRequest: true } }, trackedResourceRef: 'repo:octo/hello:pr:7' });
    const again = await svc(...args);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`github.pr for ${agentId}`);
    expect(again.stdout).toMatch(new RegExp(`${result.sources[1].sourceId}\\s+ci_runs\\s+reused`));
    expect(again.stdout).toMatch(new RegExp(`${result.subscriptions[0].subscriptionId}\\s+${result.sources[0].sourceId}\\s+reused`));
    const both = await svc('inbox', 'follow', 'github', 'repo', '--agent', 'follower', '--arg', 'owner=octo', '--args', '{"owner":"octo","repo":"hello"}');
    expect(both.code).not.toBe(0);
    expect(both.stderr).toContain('--args or --arg');
    const unknown = await svc('inbox', 'follow', 'github', 'wiki', '--agent', 'follower', '--arg', 'owner=octo', '--arg', 'repo=hello');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/^svc: unknown_follow_template: /m);
  });
});

describe('random input', () => {
  it('follow, schema preview and shortcut bodies never yield a 500 (~4 s)', async () => {
    const agentId = (await sock('POST', '/agents', { name: 'fuzzed' })).json.agentId;
    const hostId = (await sock('POST', '/hosts', { hostType: 'github', hostKey: 'fuzz', config: { apiBaseUrl: 'http://127.0.0.1:9' } })).json.hostId;
    const sourceId = (await sock('POST', '/streams', { hostId, streamKind: 'repo_events', streamKey: 'octo/fuzz' })).json.sourceId;
    const text = fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom('', 'octo', 'hello', '..', '../x', '__proto__', 'remote:feed', 'github_repo', 'pr', 'repo', 'github'));
    const anyJson = fc.jsonValue({ maxDepth: 3 });
    const maybe = <T>(a: fc.Arbitrary<T>) => fc.oneof(a, anyJson);
    const args = fc.record({ owner: maybe(text), repo: maybe(text), number: maybe(fc.integer()), withCi: maybe(fc.boolean()) }, { requiredKeys: [] });
    const bodies: Array<[string, fc.Arbitrary<unknown>]> = [
      ['/follow', fc.record({ agentId: fc.constantFrom(agentId, 'nobody'), providerOrKind: maybe(text), template: maybe(text), templateArgs: maybe(args), config: fc.oneof(fc.constant({ apiBaseUrl: 'http://127.0.0.1:9' }), anyJson), configRef: maybe(text), startPolicy: maybe(text) }, { requiredKeys: [] })],
      ['/streams/schema-preview', fc.record({ sourceRef: maybe(text), config: maybe(fc.record({ owner: maybe(text), repo: maybe(text), modulePath: maybe(text), moduleConfig: anyJson }, { requiredKeys: [] })), configRef: maybe(text) }, { requiredKeys: [] })],
      ['/subscriptions', fc.record({ agentId: fc.constant(agentId), sourceId: fc.constantFrom(sourceId, 'src_nope'), shortcut: maybe(fc.record({ name: maybe(text), args: maybe(args) }, { requiredKeys: [] })), filter: fc.constantFrom(undefined, {}) }, { requiredKeys: [] })],
    ];
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.nat(bodies.length - 1), fc.integer(), async (b, seed) => {
        runs++;
        const [url, arb] = bodies[b]!;
        const body = JSON.parse(JSON.stringify(fc.sample(arb, { numRuns: 1, seed })[0]) ?? 'null');
        const res = await sock('POST', url, body);
        expect(res.status, `POST ${url} ${JSON.stringify(body).slice(0, 200)} -> ${res.text}`).toBeLessThan(500);
        if (res.status >= 400) expect(res.json).toMatchObject({ ok: false, code: expect.stringMatching(/^[a-z_]+$/) });
      }),
      { numRuns: 1_000_000, interruptAfterTimeLimit: 4000 },
    );
    expect(runs).toBeGreaterThan(20);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 60_000);
});

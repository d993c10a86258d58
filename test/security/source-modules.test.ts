/**
 * Remote-source modules load only from where the owner put them: `<home>/source-modules/` or a
 * directory of `inbox.module_dirs`, after resolving symlinks, at every load (creation, PATCH,
 * poll, after a restart); and no error ever quotes the text of the file it tried to load.
 * Against the real daemon over its Unix socket. Needs `npm run build` first.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/config/load.js';
import { daemonPool, request, waitFor, type RunningDaemon } from '../helpers/daemon.js';

const pool = daemonPool();
let d: RunningDaemon;
let home: string;
/** Outside every module directory: where an attacker's module (or a secret) lies. */
let outside: string;
/** Listed in inbox.module_dirs. */
let extraDir: string;
let modulesDir: string;

/** A module that leaves a marker file when it is imported: the proof that it ran. */
const markerModule = (marker: string) =>
  `import fs from 'node:fs';\nfs.writeFileSync(${JSON.stringify(marker)}, 'ran');\nexport default { poll: async () => ({ events: [], cursor: null }) };\n`;
const GOOD = "export default { poll: async ({ cursor }) => ({ events: [{ id: 'e' + (cursor ?? 0), type: 'tick' }], cursor: (cursor ?? 0) + 1 }) };\n";

beforeAll(async () => {
  home = pool.home();
  outside = pool.home();
  extraDir = pool.home();
  d = await pool.start({ home, configToml: `[inbox]\nmodule_dirs = [${JSON.stringify(extraDir)}]\n` });
  modulesDir = path.join(home, 'source-modules');
}, 30_000);
afterAll(() => pool.cleanup());

const sock = (method: string, url: string, body?: unknown) => request({ socketPath: d.socket }, method, url, body === undefined ? {} : { body });

let seq = 0;
async function remoteHost(): Promise<string> {
  const r = await sock('POST', '/hosts', { hostType: 'remote_source', hostKey: `r${++seq}` });
  expect(r.status, r.text).toBe(201);
  return r.json.hostId as string;
}
async function create(config: Record<string, unknown>) {
  return sock('POST', '/sources', { hostId: await remoteHost(), streamKind: 'poll', streamKey: `s${++seq}`, config });
}
function expectRefused(r: { status: number; json: any; text: string }, modulePath: string) {
  expect(r.status, r.text).toBe(400);
  expect(r.json).toMatchObject({ ok: false, code: 'source_module_not_allowed', modulePath, allowedDirs: [modulesDir, extraDir] });
  expect(r.json.error).toContain(JSON.stringify(modulePath));
  expect(r.json.error).toContain(modulesDir);
  expect(r.json.error).toContain(extraDir);
}
function writeMarkerModule(dir: string, name: string): { file: string; marker: string } {
  const marker = path.join(outside, `${name}.ran`);
  const file = path.join(dir, name);
  fs.writeFileSync(file, markerModule(marker));
  return { file, marker };
}

describe('where a module may be', () => {
  it('svc creates <home>/source-modules/ for its owner only', () => {
    expect(fs.statSync(modulesDir).mode & 0o777).toBe(0o700);
  });

  it('an absolute path outside the module directories is refused and the module never runs', async () => {
    const { file, marker } = writeMarkerModule(outside, 'evil.mjs');
    expectRefused(await create({ modulePath: file }), file);
    expect(fs.existsSync(marker)).toBe(false);
    // The answer is the same for a file that does not exist: no oracle for other files.
    const missing = path.join(outside, 'nothing-here.mjs');
    const r = await create({ modulePath: missing });
    expectRefused(r, missing);
    expect(r.json.error.replace(missing, '')).toBe((await create({ modulePath: file })).json.error.replace(file, ''));
    expect((await sock('GET', '/sources')).json.sources).toEqual([]);
  });

  it('a relative path with ../ cannot leave <home>/source-modules/', async () => {
    const { marker } = writeMarkerModule(home, 'escape.mjs');
    for (const modulePath of ['../escape.mjs', 'sub/../../escape.mjs', `../../${path.basename(outside)}/x.mjs`, '../../../../../../etc/passwd']) {
      expectRefused(await create({ modulePath }), modulePath);
    }
    expectRefused(await create({ modulePath: path.join(modulesDir, '..', 'escape.mjs') }), path.join(modulesDir, '..', 'escape.mjs'));
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('a symlink inside source-modules pointing out (to a file or a directory) is refused', async () => {
    const { file, marker } = writeMarkerModule(outside, 'linked.mjs');
    fs.symlinkSync(file, path.join(modulesDir, 'link.mjs'));
    fs.symlinkSync(outside, path.join(modulesDir, 'linkdir'));
    expectRefused(await create({ modulePath: 'link.mjs' }), 'link.mjs');
    expectRefused(await create({ modulePath: path.join(modulesDir, 'link.mjs') }), path.join(modulesDir, 'link.mjs'));
    expectRefused(await create({ modulePath: 'linkdir/linked.mjs' }), 'linkdir/linked.mjs');
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('only regular files, not writable by other users', async () => {
    execFileSync('mkfifo', [path.join(modulesDir, 'fifo.mjs')]);
    const fifo = await create({ modulePath: 'fifo.mjs' });
    expectRefused(fifo, 'fifo.mjs');
    expect(fifo.json.error).toContain('not a regular file');
    fs.mkdirSync(path.join(modulesDir, 'dir.mjs'));
    expectRefused(await create({ modulePath: 'dir.mjs' }), 'dir.mjs');

    const { marker } = writeMarkerModule(modulesDir, 'shared.mjs');
    fs.chmodSync(path.join(modulesDir, 'shared.mjs'), 0o666);
    const shared = await create({ modulePath: 'shared.mjs' });
    expectRefused(shared, 'shared.mjs');
    expect(shared.json.error).toContain('writable by other users');
    expect(fs.existsSync(marker)).toBe(false);
    fs.chmodSync(path.join(modulesDir, 'shared.mjs'), 0o644);
    expect((await create({ modulePath: 'shared.mjs' })).status).toBe(201);
    expect(fs.existsSync(marker)).toBe(true);
  });

  it('a module inside source-modules works, by relative or absolute path, and one in inbox.module_dirs too', async () => {
    fs.writeFileSync(path.join(modulesDir, 'good.mjs'), GOOD);
    fs.mkdirSync(path.join(modulesDir, 'nested'), { recursive: true });
    fs.writeFileSync(path.join(modulesDir, 'nested', 'good.mjs'), GOOD);
    fs.writeFileSync(path.join(extraDir, 'extra.mjs'), GOOD);
    // A symlink from one module directory into another stays inside.
    fs.symlinkSync(path.join(extraDir, 'extra.mjs'), path.join(modulesDir, 'to-extra.mjs'));
    for (const modulePath of ['good.mjs', 'nested/good.mjs', path.join(modulesDir, 'good.mjs'), path.join(extraDir, 'extra.mjs'), 'to-extra.mjs']) {
      const r = await create({ modulePath });
      expect(r.status, `${modulePath}: ${r.text}`).toBe(201);
      const polled = await sock('POST', `/sources/${r.json.sourceId}/poll`);
      expect(polled.json, modulePath).toMatchObject({ appended: 1, state: 'active' });
    }
  });

  it('PATCH to a module outside is refused and changes nothing', async () => {
    fs.writeFileSync(path.join(modulesDir, 'patch-good.mjs'), GOOD);
    const created = await create({ modulePath: 'patch-good.mjs' });
    expect(created.status, created.text).toBe(201);
    const { file, marker } = writeMarkerModule(outside, 'patched.mjs');
    expectRefused(await sock('PATCH', `/sources/${created.json.sourceId}`, { config: { modulePath: file } }), file);
    expectRefused(await sock('PATCH', `/sources/${created.json.sourceId}`, { config: { modulePath: '../../patched.mjs' } }), '../../patched.mjs');
    expect(fs.existsSync(marker)).toBe(false);
    expect((await sock('GET', `/sources/${created.json.sourceId}`)).json.source).toMatchObject({ config: { modulePath: 'patch-good.mjs' }, state: 'active' });
  });

  it('inbox.module_dirs takes absolute paths only', () => {
    expect(validateConfig({ inbox: { module_dirs: ['/opt/svc-modules'] } }, 'test').inbox.module_dirs).toEqual(['/opt/svc-modules']);
    expect(() => validateConfig({ inbox: { module_dirs: ['modules'] } }, 'test')).toThrow(/inbox\.module_dirs\.0: must be an absolute path/);
  });

  it('inbox.module_dirs is start-up only: the runtime config PATCH refuses it', async () => {
    const r = await request(d, 'PATCH', '/api/control/runtime/config', { body: { updates: [{ key: 'inbox.module_dirs', value: [outside] }] } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.results).toEqual([expect.objectContaining({ key: 'inbox.module_dirs', effect: 'rejected', reason: expect.stringContaining('start-up only') })]);
  });
});

describe('checked again at every load', () => {
  it('a module replaced by a symlink pointing out after creation does not load at the next poll', async () => {
    const file = path.join(modulesDir, 'swapped.mjs');
    fs.writeFileSync(file, GOOD);
    const created = await create({ modulePath: 'swapped.mjs' });
    expect(created.status, created.text).toBe(201);
    const { file: evil, marker } = writeMarkerModule(outside, 'swap-target.mjs');
    fs.rmSync(file);
    fs.symlinkSync(evil, file);
    const polled = await sock('POST', `/sources/${created.json.sourceId}/poll`);
    expect(polled.status, polled.text).toBe(502);
    expect(polled.json).toMatchObject({ code: 'source_poll_failed', error: expect.stringContaining('source_module_not_allowed') });
    expect((await sock('GET', `/sources/${created.json.sourceId}`)).json.source).toMatchObject({ state: 'error', error: expect.stringContaining('outside the module directories') });
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('sources re-activated after a restart are checked before their first poll', async () => {
    const restartHome = pool.home();
    let r2 = await pool.start({ home: restartHome });
    const sock2 = (method: string, url: string, body?: unknown) => request({ socketPath: r2.socket }, method, url, body === undefined ? {} : { body });
    const dir = path.join(restartHome, 'source-modules');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'later.mjs'), GOOD);
    const hostId = (await sock2('POST', '/hosts', { hostType: 'remote_source', hostKey: 'x' })).json.hostId;
    const created = await sock2('POST', '/sources', { hostId, streamKind: 'poll', streamKey: 'k', config: { modulePath: 'later.mjs', pollIntervalMs: 1000 } });
    expect(created.status, created.text).toBe(201);
    await r2.stop();
    const { file: evil, marker } = writeMarkerModule(outside, 'after-restart.mjs');
    fs.rmSync(path.join(dir, 'later.mjs'));
    fs.symlinkSync(evil, path.join(dir, 'later.mjs'));
    r2 = await pool.start({ home: restartHome });
    const source = await waitFor(async () => {
      const s = (await sock2('GET', `/sources/${created.json.sourceId}`)).json.source;
      return s.state === 'error' ? s : null;
    }, 15_000, 200);
    expect(source.error).toContain('source_module_not_allowed');
    expect(fs.existsSync(marker)).toBe(false);
    await r2.stop();
  }, 40_000);
});

describe('errors never quote the file', () => {
  // Inside the allowed directory, so the daemon does try to load them; they are not modules.
  const SECRETS: Array<[string, string, string]> = [
    ['shadow', 'root:$6$Zq1x$SECRETHASHSECRETHASH:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n', 'SECRETHASH'],
    ['token', 'hunter2-token-value\n', 'hunter2'],
    ['token-word', 'tokenSECRETWORD\n', 'SECRETWORD'],
    ['secret.mjs', 'api_key = sk-live SECRETKEY123456\n', 'SECRETKEY123456'],
    ['ident.mjs', 'hunter2 SECRETIDENT\n', 'SECRETIDENT'],
  ];

  it.each(SECRETS)('a non-module file (%s) is refused with invalid_source_module and none of its text', async (name, text, secret) => {
    fs.writeFileSync(path.join(modulesDir, name), text);
    const r = await create({ modulePath: name });
    expect(r.status, r.text).toBe(400);
    expect(r.json).toMatchObject({ code: 'invalid_source_module', modulePath: name });
    expect(r.text).not.toContain(secret);
    for (const line of text.split('\n').filter(Boolean)) expect(r.text).not.toContain(line.slice(0, 12));
    expect(r.json.error.length).toBeLessThan(700);
  });

  it('a module that becomes a non-module after creation: the poll error does not quote it either', async () => {
    const file = path.join(modulesDir, 'edited.mjs');
    fs.writeFileSync(file, GOOD);
    const created = await create({ modulePath: 'edited.mjs' });
    expect(created.status, created.text).toBe(201);
    fs.writeFileSync(file, 'hunter2 SECRETEDIT\n');
    const polled = await sock('POST', `/sources/${created.json.sourceId}/poll`);
    expect(polled.status, polled.text).toBe(502);
    expect(polled.text).not.toContain('SECRETEDIT');
    expect((await sock('GET', `/sources/${created.json.sourceId}`)).text).not.toContain('SECRETEDIT');
    expect(d.logs()).not.toContain('SECRETEDIT');
  });

  it('a load error still says what kind of failure and where', async () => {
    fs.writeFileSync(path.join(modulesDir, 'throws-at-import.mjs'), "const a = 1;\nthrow new TypeError('config missing');\nexport default {};\n");
    const r = await create({ modulePath: 'throws-at-import.mjs' });
    expect(r.json).toMatchObject({ code: 'invalid_source_module' });
    expect(r.json.error).toMatch(/TypeError at line 2:7/);
  });

  it("a module's own failure messages are cut to 500 characters wherever stored or answered", async () => {
    const long = 'x'.repeat(5000);
    fs.writeFileSync(
      path.join(modulesDir, 'long.mjs'),
      `export default { validate(c) { if (c && c.refuse) throw new Error('${long}'); }, async poll() { throw new Error('${long}'); } };\n`,
    );
    const refused = await create({ modulePath: 'long.mjs', moduleConfig: { refuse: true } });
    expect(refused.json).toMatchObject({ code: 'invalid_source_config' });
    expect(refused.json.error.length).toBeLessThan(600);
    const created = await create({ modulePath: 'long.mjs' });
    expect(created.status, created.text).toBe(201);
    const polled = await sock('POST', `/sources/${created.json.sourceId}/poll`);
    expect(polled.json.code).toBe('source_poll_failed');
    expect(polled.json.error.length).toBeLessThan(600);
    const source = (await sock('GET', `/sources/${created.json.sourceId}`)).json.source;
    expect(source.state).toBe('error');
    expect(source.error.length).toBeLessThanOrEqual(500);
  });
});

/**
 * `svc doctor` as a real child process: against a running daemon (in bearer mode, with and
 * without the token), against none, and on homes with something wrong (mode, config, a stale
 * daemon.json, the socket's mode). Needs `npm run build` first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonPool, runSvc, type RunningDaemon } from '../helpers/daemon.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const pool = daemonPool();
afterAll(() => pool.cleanup());
const TOKEN = 'doctor-token';

async function doctor(home: string, env: NodeJS.ProcessEnv = {}, extra: string[] = []): Promise<{ code: number | null; report: Json; byName: Record<string, Json> }> {
  const r = await runSvc(['doctor', '--home', home, '--json', ...extra], env, 30_000);
  expect(r.stderr).toBe('');
  const report = JSON.parse(r.stdout);
  return { code: r.code, report, byName: Object.fromEntries(report.checks.map((c: Json) => [c.name, c])) };
}

describe('svc doctor against a running daemon', () => {
  let d: RunningDaemon;
  beforeAll(async () => {
    d = await pool.start({ args: ['--token', TOKEN] });
  });

  it('every check ok with the token: exit 0, one line per check', async () => {
    const { code, report, byName } = await doctor(d.home, { SVC_TOKEN: TOKEN });
    expect(code).toBe(0);
    expect(report.ok).toBe(true);
    expect(Object.keys(byName)).toEqual(expect.arrayContaining(['node', 'home', 'config', 'daemon', 'control plane', 'auth', 'inbox socket', 'disk', 'git', 'tmux']));
    for (const name of ['node', 'home', 'config', 'daemon', 'control plane', 'auth', 'inbox socket']) expect(byName[name], name).toMatchObject({ status: 'ok', hint: null });
    expect(byName.daemon.detail).toContain(`pid ${d.proc.pid}`);
    expect(byName['control plane'].detail).toBe(`answers at ${d.base} (from daemon.json)`);
    expect(byName.auth.detail).toBe('bearer mode: the token is accepted');
    expect(byName['inbox socket'].detail).toBe(`${d.socket} answers (mode 0600)`);
    expect(byName.nats).toBeUndefined();

    const text = await runSvc(['doctor', '--home', d.home], { SVC_TOKEN: TOKEN });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^ok {4}auth +bearer mode: the token is accepted$/m);
    expect(text.stdout.trim().split('\n').at(-1)).toMatch(/^ok: 0 failed, \d+ warnings, \d+ ok$/);
  });

  it('a missing or wrong token fails the auth check with a hint: exit 1', async () => {
    const none = await doctor(d.home);
    expect([none.code, none.report.ok]).toEqual([1, false]);
    expect(none.byName.auth).toMatchObject({ status: 'fail', detail: 'bearer mode, and the CLI has no token (auth_required)', hint: expect.stringContaining('SVC_TOKEN') });
    const wrong = await doctor(d.home, {}, ['--token', 'nope']);
    expect(wrong.byName.auth).toMatchObject({ status: 'fail', detail: expect.stringMatching(/^bearer mode: the token is refused/) });
    const text = await runSvc(['doctor', '--home', d.home]);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^fail  auth .*\(hint: set SVC_TOKEN/m);
  });

  it('an inbox socket others may use fails', async () => {
    fs.chmodSync(d.socket, 0o666);
    try {
      const { code, byName } = await doctor(d.home, { SVC_TOKEN: TOKEN });
      expect(code).toBe(1);
      expect(byName['inbox socket']).toMatchObject({ status: 'fail', hint: `chmod 600 ${d.socket}` });
    } finally {
      fs.chmodSync(d.socket, 0o600);
    }
  });
});

describe('svc doctor without a daemon', () => {
  it('a fresh home: the daemon is a warning, the daemon checks are left out, exit 0', async () => {
    const home = pool.home();
    const { code, report, byName } = await doctor(home);
    expect([code, report.ok]).toEqual([0, true]);
    expect(byName.daemon).toMatchObject({ status: 'warn', hint: `start it: svc serve --home ${home}` });
    expect(byName.auth).toBeUndefined();
    expect(byName.home).toMatchObject({ status: 'ok', detail: `${home} (mode 0700, yours)` });
    expect(byName.config).toMatchObject({ status: 'ok', detail: 'no config file: built-in defaults' });
  });

  it('a stale daemon.json is named; --url to nothing is a failure', async () => {
    const home = pool.home();
    fs.writeFileSync(path.join(home, 'daemon.json'), JSON.stringify({ pid: 2 ** 22 + 1, url: 'http://127.0.0.1:1', listen: '127.0.0.1:1', socket: '', started_at: '', version: '' }));
    const { byName } = await doctor(home);
    expect(byName.daemon).toMatchObject({ status: 'warn', detail: expect.stringContaining(`names pid ${2 ** 22 + 1}, which is not running`) });
    const url = await doctor(home, {}, ['--url', 'http://127.0.0.1:1']);
    expect(url.code).toBe(1);
    expect(url.byName['control plane']).toMatchObject({ status: 'fail', detail: 'nothing answers at http://127.0.0.1:1 (from flag)' });
  });

  it('a home others can read, and a config that does not parse, fail: exit 1', async () => {
    const home = pool.home();
    fs.chmodSync(home, 0o755);
    fs.writeFileSync(path.join(home, 'config.toml'), 'log_level = "loud"\n');
    const { code, byName } = await doctor(home);
    expect(code).toBe(1);
    expect(byName.home).toMatchObject({ status: 'fail', hint: `chmod 700 ${home}` });
    expect(byName.config).toMatchObject({ status: 'fail', detail: expect.stringMatching(new RegExp(`^${path.join(home, 'config.toml')}: log_level: `)) });
    // The layer a bad value came from is named, as svc serve names it.
    fs.writeFileSync(path.join(home, 'config.toml'), '');
    expect((await doctor(home, { SVC_LOG_LEVEL: 'loud' })).byName.config.detail).toMatch(/^environment variable SVC_LOG_LEVEL: log_level: /);
  });

  it('nats-server is looked for only with the jetstream backend', async () => {
    const home = pool.home();
    fs.writeFileSync(path.join(home, 'config.toml'), '[inbox.streams]\nbackend = "jetstream"\n');
    const { byName } = await doctor(home, { PATH: pool.home() }); // nothing on PATH
    expect(byName['nats-server']).toMatchObject({ status: 'warn', detail: 'not found on PATH; the streams live on nats://127.0.0.1:4222' });
    expect(byName.git.status).toBe('warn');
    expect(byName.tmux).toMatchObject({ status: 'ok', detail: 'not found on PATH; only terminal targets need it, and there are none' });
  });
});

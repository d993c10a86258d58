/**
 * How the CLI finds and reports on a daemon: `<home>/daemon.json` (written 0600 by the running
 * daemon, removed at a clean shutdown, ignored when its pid is dead) and `svc status`. Real
 * daemons as child processes, the CLI as `node bin/svc.js`. Needs `npm run build` first.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { daemonPool, runSvc, stopAgent } from '../helpers/daemon.js';
import { freePort } from '../helpers/ports.js';

const pool = daemonPool();
afterEach(() => pool.killAll());
afterAll(() => pool.cleanup());

/** A pid that belonged to a process which has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

describe('<home>/daemon.json', () => {
  it('the running daemon writes its address 0600; the CLI finds it through SVC_HOME; SIGTERM removes it', async () => {
    const d = await pool.start();
    const file = path.join(d.home, 'daemon.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const info = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(info).toMatchObject({ pid: d.proc.pid, listen: d.listen, url: d.base, socket: d.socket, inbox_port: null });
    expect(info.started_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(info.version).toMatch(/^\d+\.\d+\.\d+/);

    // No --url, no SVC_URL: the port (picked at random) comes from the file.
    const r = await runSvc(['agents', 'list', '--json'], { SVC_HOME: d.home });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).agents.map((a: { agent_id: string }) => a.agent_id)).toContain('main');
    // --home works the same way, and the inbox socket comes from the file too.
    const viaFlag = await runSvc(['inbox', 'hosts', 'list', '--json', '--home', d.home]);
    expect(viaFlag.code, viaFlag.stderr).toBe(0);

    expect(await d.stop()).toBe(0);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('a file whose pid is dead is ignored: the CLI falls back to the config listen address', async () => {
    const live = await pool.start();
    const home = pool.home();
    const port = await freePort();
    fs.writeFileSync(path.join(home, 'config.toml'), `listen = "127.0.0.1:${port}"\n`);
    // Points at a live daemon, but the pid that wrote it is gone: not to be trusted.
    fs.writeFileSync(path.join(home, 'daemon.json'), JSON.stringify({ pid: deadPid(), listen: live.listen, url: live.base, socket: live.socket }));
    const r = await runSvc(['agents', 'list'], { SVC_HOME: home });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`svc: unreachable: cannot reach the svc daemon at http://127.0.0.1:${port}`);
  });
});

describe('svc status', () => {
  it('reports address, pid, auth, version, uptime, agents by state, queue and inbox health; --json is one document', async () => {
    const d = await pool.start();
    expect((await runSvc(['agents', 'create', 'second', '--url', d.base])).code).toBe(0);
    await stopAgent(d, 'second');

    const r = await runSvc(['status'], { SVC_HOME: d.home });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^daemon\\s+up at ${d.base.replace(/\./g, '\\.')}, from <home>/daemon\\.json$`, 'm'));
    expect(r.stdout).not.toMatch(/^warning/m);
    expect(r.stdout).toMatch(new RegExp(`^console\\s+${d.base.replace(/\./g, '\\.')}/ \\(API reference: ${d.base.replace(/\./g, '\\.')}/docs\\)$`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^pid\\s+${d.proc.pid}$`, 'm'));
    expect(r.stdout).toMatch(/^auth\s+local$/m);
    expect(r.stdout).toMatch(/^version\s+\d+\.\d+\.\d+/m);
    expect(r.stdout).toMatch(/^uptime\s+\d+s$/m);
    expect(r.stdout).toMatch(/^agents\s+2 \((1 idle, 1 stopped|1 stopped, 1 idle)\)$/m);
    expect(r.stdout).toMatch(/^queue\s+0 pending$/m);
    expect(r.stdout).toContain(`healthy at ${d.socket}: 0 sources`);

    const j = await runSvc(['status', '--json', '--url', d.base, '--socket', d.socket]);
    expect(j.code, j.stderr).toBe(0);
    const doc = JSON.parse(j.stdout);
    expect(doc).toMatchObject({
      ok: true,
      url: d.base,
      url_from: 'flag',
      console: `${d.base}/`,
      listen: d.listen,
      auth: 'local',
      runtime: { pid: d.proc.pid, queue: { pending: 0 } },
      agents: { total: 2, by_status: { idle: 1, stopped: 1 } },
      inbox: { socket: d.socket, healthy: true, status: { counts: { subscriptions: 0 } } },
      warnings: [],
    });

    // Another home whose config names this daemon's address, with no daemon.json of its own:
    // status answers, and says whose daemon it reached.
    const other = pool.home();
    fs.writeFileSync(path.join(other, 'config.toml'), `listen = "${d.listen}"\n`);
    const via = await runSvc(['status'], { SVC_HOME: other });
    expect(via.code, via.stderr).toBe(0);
    expect(via.stdout).toMatch(/^daemon\s+up at .*, from the config listen address/m);
    expect(via.stdout).toContain(`warning  the daemon at ${d.base} serves ${d.home}, not ${other}`);
  });

  it('bearer mode without the token: still exit 0, with what needs the token marked unavailable', async () => {
    const d = await pool.start({ args: ['--token', 'status-token'] });
    const r = await runSvc(['status', '--json', '--url', d.base, '--socket', d.socket]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ auth: 'bearer', runtime: { unavailable: 'auth_required' } });
    const withToken = await runSvc(['status', '--url', d.base, '--socket', d.socket], { SVC_TOKEN: 'status-token' });
    expect(withToken.stdout).toMatch(/^auth\s+bearer$/m);
    expect(withToken.stdout).toMatch(new RegExp(`^pid\\s+${d.proc.pid}$`, 'm'));
  });

  it('an unreachable daemon exits 3, with --json as one error document', async () => {
    const d = await pool.start();
    const base = d.base;
    await d.stop();
    const r = await runSvc(['status', '--url', base]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^svc: unreachable: cannot reach the svc daemon at /m);
    const j = await runSvc(['status', '--json', '--url', base]);
    expect(j.code).toBe(3);
    expect(JSON.parse(j.stdout)).toMatchObject({ ok: false, code: 'unreachable', status: 0 });
  });
});

/**
 * The CLI sends its token only to a daemon it has identified
 * (docs/security.md#the-cli-sends-its-token-only-to-a-daemon-it-has-identified): a
 * `<home>/daemon.json` left behind by a daemon that died may name a pid or a port that someone else
 * holds now. Each case below writes such a file, points it at a listener that records every request
 * (run as another user, uid 65534, or as ourselves with the wrong start time), runs real `svc`
 * commands with a token, and checks that nothing reached the listener and that the file is reported
 * stale. A real daemon's own file is still identified. Runs as root (to start the other user's
 * listener); needs `npm run build` first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bootId, readProc } from '../../src/runtime/tasks/processes/process-tree.js';
import { daemonPool, runSvc, type RunningDaemon } from '../helpers/daemon.js';
import { listenAs, OTHER_UID, type RecordingListener } from '../helpers/peer.js';
import { freePort } from '../helpers/ports.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const TOKEN = 'daemon-file-token';
const pool = daemonPool();
const listeners: RecordingListener[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((l) => l.close()));
});
afterAll(() => pool.cleanup());

let d: RunningDaemon;
beforeAll(async () => {
  d = await pool.start({ args: ['--token', TOKEN] });
});

async function listener(uid: number): Promise<RecordingListener> {
  const l = await listenAs(uid);
  listeners.push(l);
  return l;
}

/** A fresh home whose config listens where nothing answers, holding `info` as its daemon.json. */
async function homeWith(info: Record<string, unknown>): Promise<string> {
  const home = pool.home();
  fs.writeFileSync(path.join(home, 'config.toml'), `listen = "127.0.0.1:${await freePort()}"\n`);
  fs.writeFileSync(path.join(home, 'daemon.json'), JSON.stringify(info), { mode: 0o600 });
  return home;
}

/** A daemon.json as the daemon writes it, for the process `pid` listening on `port`. */
function fileFor(pid: number, port: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    pid,
    pid_start: readProc(pid)!.starttime,
    boot_id: bootId(),
    uid: process.getuid!(),
    listen: `127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}`,
    socket: path.join(d.home, 'inbox.sock'),
    inbox_port: null,
    started_at: new Date().toISOString(),
    version: '0.1.0',
    ...extra,
  };
}

/** `svc agents list`, `svc status` and `svc doctor` with the token: none may reach the listener. */
async function expectNothingSent(home: string, l: RecordingListener, reason: string | RegExp): Promise<void> {
  const env = { SVC_HOME: home, SVC_TOKEN: TOKEN };
  const list = await runSvc(['agents', 'list'], env);
  expect(l.requests(), 'requests that reached the stranger').toEqual([]);
  expect(list.code, list.stderr).toBe(3);
  expect(list.stderr).toMatch(/^svc: unreachable: cannot reach the svc daemon at http:\/\/127\.0\.0\.1:\d+/m);
  expect(list.stderr).not.toContain(`:${l.port}`);
  expect((await runSvc(['status'], env)).code).toBe(3);
  const doctor = await runSvc(['doctor', '--json'], env, 30_000);
  const checks = Object.fromEntries((JSON.parse(doctor.stdout).checks as Json[]).map((c) => [c.name, c]));
  expect(checks.daemon).toMatchObject({ status: 'warn', detail: expect.stringMatching(reason) });
  expect(checks.auth).toBeUndefined();
  expect(l.requests(), 'requests that reached the stranger').toEqual([]);
}

describe('a daemon.json that names a process other than the daemon that wrote it', () => {
  it('a pid another user holds now (its start time and all): no request, no token; stale', async () => {
    const l = await listener(OTHER_UID);
    const home = await homeWith(fileFor(l.pid, l.port));
    await expectNothingSent(home, l, `names pid ${l.pid}, which runs as uid ${OTHER_UID}, not uid 0`);
  });

  it('a live process of our own whose start time is not the recorded one: stale', async () => {
    const l = await listener(process.getuid!());
    const start = readProc(l.pid)!.starttime;
    const home = await homeWith(fileFor(l.pid, l.port, { pid_start: String(Number(start) - 1) }));
    await expectNothingSent(home, l, `names pid ${l.pid}, which is another process now`);
  });

  it("the daemon's own pid, but its port now held by another user: stale", async () => {
    const l = await listener(OTHER_UID);
    const real = JSON.parse(fs.readFileSync(path.join(d.home, 'daemon.json'), 'utf8'));
    const home = await homeWith({ ...real, listen: `127.0.0.1:${l.port}`, url: `http://127.0.0.1:${l.port}` });
    await expectNothingSent(home, l, `127.0.0.1:${l.port} is listened on by uid ${OTHER_UID}, not uid 0`);
  });

  it('a file written by an older svc (no start time, no uid) is stale even when its pid and URL are a live daemon', async () => {
    const home = await homeWith({ pid: d.proc.pid, listen: d.listen, url: d.base, socket: d.socket, inbox_port: null, started_at: '', version: '' });
    const r = await runSvc(['agents', 'list'], { SVC_HOME: home, SVC_TOKEN: TOKEN });
    expect(r.code).toBe(3);
    const doctor = await runSvc(['doctor', '--json', '--home', home], { SVC_TOKEN: TOKEN }, 30_000);
    const daemon = (JSON.parse(doctor.stdout).checks as Json[]).find((c) => c.name === 'daemon');
    expect(daemon).toMatchObject({ status: 'warn', detail: expect.stringContaining('records nothing to identify that process by') });
  });

  it('a file that belongs to another user than the one it records is stale', async () => {
    const real = fs.readFileSync(path.join(d.home, 'daemon.json'), 'utf8');
    const home = await homeWith(JSON.parse(real));
    fs.chownSync(path.join(home, 'daemon.json'), OTHER_UID, OTHER_UID);
    const r = await runSvc(['doctor', '--json'], { SVC_HOME: home, SVC_TOKEN: TOKEN }, 30_000);
    const daemon = (JSON.parse(r.stdout).checks as Json[]).find((c) => c.name === 'daemon');
    expect(daemon).toMatchObject({ status: 'warn', detail: expect.stringContaining(`records uid 0 and belongs to uid ${OTHER_UID}`) });
  });
});

describe("a running daemon's own daemon.json", () => {
  it('is identified: the CLI finds the daemon through it and the token works', async () => {
    const info = JSON.parse(fs.readFileSync(path.join(d.home, 'daemon.json'), 'utf8'));
    expect(info).toMatchObject({ pid: d.proc.pid, pid_start: readProc(d.proc.pid!)!.starttime, boot_id: bootId(), uid: process.getuid!() });
    const env = { SVC_HOME: d.home, SVC_TOKEN: TOKEN };
    const list = await runSvc(['agents', 'list', '--json'], env);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).agents.map((a: { agent_id: string }) => a.agent_id)).toContain('main');
    const status = await runSvc(['status', '--json'], env);
    expect(JSON.parse(status.stdout)).toMatchObject({ url: d.base, url_from: 'daemon.json', runtime: { pid: d.proc.pid } });
    const doctor = await runSvc(['doctor', '--json'], env, 30_000);
    const checks = Object.fromEntries((JSON.parse(doctor.stdout).checks as Json[]).map((c) => [c.name, c]));
    expect(checks.daemon).toMatchObject({ status: 'ok', detail: expect.stringContaining(`pid ${d.proc.pid}`) });
    expect(checks.auth).toMatchObject({ status: 'ok' });
  });
});

/**
 * The inbox socket is never reachable by another user, not even while the daemon starts under
 * umask 000 in a home others may enter (mode 0755). bind(2) creates a socket 0777 & ~umask; the
 * daemon must not let that mode show at the socket's path for any instant. The daemon here runs
 * with a preload that makes every chmod of a socket wait 300 ms (fixtures/slow-socket-chmod.cjs),
 * so a socket that appears at its path before its chmod would be visible and connectable for
 * that long. Two watchers run from before the start until the daemon listens: root lstat()s the
 * path in a tight loop, and uid 65534 tries to connect in a loop. Runs as root.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, daemonPool, request } from '../helpers/daemon.js';
import { OTHER_UID } from '../helpers/peer.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const pool = daemonPool();
afterAll(() => pool.cleanup());

interface Watch {
  tries: number;
  seen: number;
  loose: string[];
  connected: number;
}

function watcher(socketPath: string, stopFile: string, mode: 'lstat' | 'connect', uid?: number): Promise<Watch> {
  const child = spawn(process.execPath, [path.join(FIXTURES, 'watch-socket.cjs'), socketPath, stopFile, mode], {
    ...(uid === undefined ? {} : { uid, gid: uid }),
    cwd: '/',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  pool.track(child);
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  return new Promise((resolve, reject) => child.once('exit', () => (out ? resolve(JSON.parse(out) as Watch) : reject(new Error(`watcher ${mode} printed nothing`)))));
}

describe('the inbox socket under umask 000', () => {
  it('never shows group or other bits at its path, and uid 65534 never connects, from the first moment it exists', async () => {
    if (process.getuid?.() !== 0) throw new Error('this test starts a client as another user and must run as root');
    const home = pool.home();
    fs.chmodSync(home, 0o755); // others may enter: only the socket's own mode keeps them out
    const socketPath = path.join(home, 'inbox.sock');
    const stopFile = path.join(home, 'stop-watching');
    const watches: [Promise<Watch>, Promise<Watch>] = [watcher(socketPath, stopFile, 'lstat'), watcher(socketPath, stopFile, 'connect', OTHER_UID)];

    const daemon = spawn('sh', ['-c', 'umask 000; exec "$@"', 'sh', process.execPath, '--require', path.join(FIXTURES, 'slow-socket-chmod.cjs'), BIN, 'serve', '--home', home, '--listen', '127.0.0.1:0'], {
      env: { ...process.env, SVC_TOKEN: '', SVC_HOME: '', SVC_LISTEN: '', SVC_LOG_LEVEL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    pool.track(daemon);
    let logs = '';
    daemon.stdout!.on('data', (d) => (logs += d));
    daemon.stderr!.on('data', (d) => (logs += d));
    const exited = new Promise<number | null>((resolve) => daemon.once('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`daemon did not start within 30 s:\n${logs}`)), 30_000);
      daemon.stdout!.on('data', () => {
        if (!logs.includes('"msg":"listening"')) return;
        clearTimeout(timer);
        resolve();
      });
      void exited.then((code) => reject(new Error(`daemon exited with ${code}:\n${logs}`)));
    });
    // Let the watchers see the finished socket too, then stop them.
    await new Promise((r) => setTimeout(r, 300));
    fs.writeFileSync(stopFile, '');
    const [seen, attacker] = await Promise.all(watches);

    expect(seen.seen, 'the lstat watcher saw the socket').toBeGreaterThan(0);
    expect(seen.loose, 'modes with group or other bits seen at the socket path').toEqual([]);
    expect(attacker.seen, 'uid 65534 tried while the socket existed').toBeGreaterThan(0);
    expect(attacker.connected, `uid 65534 connected (${attacker.tries} tries)`).toBe(0);
    expect(fs.statSync(socketPath).mode & 0o777).toBe(0o600);
    // The socket works for its owner, the listening line names its path, and no temporary name is left.
    expect((await request({ socketPath }, 'GET', '/healthz')).status).toBe(200);
    expect(logs).toContain(`"msg":"Server listening at ${socketPath}"`);
    expect(fs.readdirSync(home).filter((n) => n.startsWith('.s'))).toEqual([]);

    daemon.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(fs.existsSync(socketPath), 'the socket is removed at shutdown').toBe(false);
  }, 60_000);
});

/**
 * HTTP requests made by a process running as another user of the machine (Node's fetch in a
 * child started with that uid): the attacker of the peer-user and console-session tests. Only
 * root can start such a child, so the tests that use it refuse to run as anyone else rather than
 * pass without having tried.
 */
import { spawn } from 'node:child_process';

/** nobody: an account every Linux system has. */
export const OTHER_UID = 65534;

export interface PeerReply {
  status: number;
  body: string;
  headers: Record<string, string>;
}

export function requestAs(uid: number, url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<PeerReply> {
  if (process.getuid?.() !== 0) throw new Error('these tests start a client as another user and must run as root');
  const script = `fetch(process.argv[1], JSON.parse(process.argv[2])).then(async (r) => console.log(JSON.stringify({ status: r.status, body: await r.text(), headers: Object.fromEntries(r.headers) })), (e) => { console.log(JSON.stringify({ status: 0, body: String(e), headers: {} })); });`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script, url, JSON.stringify(init)], { uid, gid: uid, cwd: '/', stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(out) as PeerReply);
      } catch {
        reject(new Error(`client as uid ${uid} printed no reply: ${out} ${err}`));
      }
    });
  });
}

export const codeOf = (r: { body: string }) => (JSON.parse(r.body) as { code?: string }).code;

export interface HeldConnections {
  /** The newest count the child reported: connections established, and of those, closed since. */
  latest(): { connected: number; closed: number; settled: boolean };
  kill(): void;
}

/**
 * A child running as `uid` that opens `count` TCP connections to 127.0.0.1:`port` and holds them
 * without sending a byte (half-open requests), reporting every 100 ms how many were established
 * and how many the server has closed since.
 */
export function holdConnectionsAs(uid: number, port: number, count: number): HeldConnections {
  if (process.getuid?.() !== 0) throw new Error('these tests start a client as another user and must run as root');
  const script = `
    const net = require('node:net');
    let connected = 0, closed = 0, done = 0;
    const [port, count] = [Number(process.argv[1]), Number(process.argv[2])];
    for (let i = 0; i < count; i++) {
      const s = net.connect(port, '127.0.0.1');
      let was = false;
      s.resume();
      s.on('connect', () => { was = true; connected++; });
      s.on('error', () => {});
      s.on('close', () => { done++; if (was) closed++; });
    }
    setInterval(() => console.log(JSON.stringify({ connected, closed, settled: connected + done - closed >= count })), 100);`;
  const child = spawn(process.execPath, ['-e', script, String(port), String(count)], { uid, gid: uid, cwd: '/', stdio: ['ignore', 'pipe', 'inherit'] });
  let latest = { connected: 0, closed: 0, settled: false };
  let buffer = '';
  child.stdout.on('data', (d) => {
    buffer += d;
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    if (lines.length > 0) latest = JSON.parse(lines.at(-1)!);
  });
  return { latest: () => latest, kill: () => child.kill('SIGKILL') };
}

export interface RecordingListener {
  pid: number;
  port: number;
  /** The requests that arrived so far, with their Authorization header (null when none was sent). */
  requests: () => Array<{ method: string; url: string; authorization: string | null }>;
  close: () => Promise<void>;
}

/**
 * An HTTP server on a loopback port run by `uid` (a child process; another uid needs root) that
 * answers every request 200 `{}` and records what arrived: the stranger that took over a dead
 * daemon's pid or port.
 */
export async function listenAs(uid: number): Promise<RecordingListener> {
  const script = `const s = require('node:http').createServer((req, res) => { console.log(JSON.stringify({ method: req.method, url: req.url, authorization: req.headers.authorization ?? null })); res.setHeader('content-type', 'application/json'); res.end('{}'); });
s.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: s.address().port })));`;
  const own = uid === process.getuid?.();
  const child = spawn(process.execPath, ['-e', script], { ...(own ? {} : { uid, gid: uid }), cwd: '/', stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const lines = () => out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`listener as uid ${uid} did not start: ${out}`)), 10_000);
    child.stdout.on('data', () => {
      const first = lines()[0];
      if (first) {
        clearTimeout(timer);
        resolve(Number(first.port));
      }
    });
  });
  return {
    pid: child.pid!,
    port,
    requests: () => lines().slice(1) as ReturnType<RecordingListener['requests']>,
    close: () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill('SIGKILL')))),
  };
}

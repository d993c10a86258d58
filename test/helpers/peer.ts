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

/**
 * `<home>/daemon.json`: where the running daemon listens, so a client that knows only the home
 * finds a daemon started on another port (`svc serve --listen 127.0.0.1:0`). Written 0600 once
 * every listener is up, removed at a clean shutdown. A daemon killed outright leaves it behind;
 * readers therefore trust it only while its pid is alive.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writePrivateFile } from './store/private-file.js';

export const DAEMON_FILE = 'daemon.json';

export interface DaemonInfo {
  pid: number;
  /** The control plane's real address, HOST:PORT. */
  listen: string;
  url: string;
  socket: string;
  inbox_port: number | null;
  started_at: string;
  version: string;
}

/** A URL to reach HOST:PORT from this machine: a wildcard address is reached through loopback. */
export function connectUrl(listen: string): string {
  return `http://${listen.replace(/^0\.0\.0\.0:/, '127.0.0.1:').replace(/^\[::\]:/, '[::1]:')}`;
}

export function writeDaemonFile(home: string, info: DaemonInfo): void {
  writePrivateFile(path.join(home, DAEMON_FILE), `${JSON.stringify(info, null, 2)}\n`);
}

/** Remove the file, unless another daemon has written its own since (a second start on this home). */
export function removeDaemonFile(home: string, pid: number): void {
  const file = path.join(home, DAEMON_FILE);
  if (readDaemonFile(home)?.pid === pid) fs.rmSync(file, { force: true });
}

/** The file's contents, or null when it is missing or unreadable. */
export function readDaemonFile(home: string): DaemonInfo | null {
  try {
    const info = JSON.parse(fs.readFileSync(path.join(home, DAEMON_FILE), 'utf8')) as Partial<DaemonInfo>;
    if (!Number.isInteger(info.pid) || typeof info.url !== 'string') return null;
    return info as DaemonInfo;
  } catch {
    return null;
  }
}

/** The file's contents if the daemon it names is still running, else null (a stale file). */
export function liveDaemon(home: string): DaemonInfo | null {
  const info = readDaemonFile(home);
  if (!info) return null;
  try {
    process.kill(info.pid, 0);
    return info;
  } catch {
    // ESRCH: gone. EPERM: another user's process, so the pid was reused since; not our daemon.
    return null;
  }
}

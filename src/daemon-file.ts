/**
 * `<home>/daemon.json`: where the running daemon listens, so a client that knows only the home
 * finds a daemon started on another port (`svc serve --listen 127.0.0.1:0`). Written 0600 once
 * every listener is up, removed at a clean shutdown. A daemon killed outright leaves it behind,
 * and its pid and port may then belong to anyone: the CLI sends its token to the file's URL only
 * once `findDaemon` has identified the daemon that wrote it
 * (docs/security.md#the-cli-sends-its-token-only-to-a-daemon-it-has-identified).
 */
import fs from 'node:fs';
import path from 'node:path';
import { findListeners, readProcNetTcpSync, readRegularFile, writePrivateFile } from './core/index.js';
import { bootId, isGone, readProc, readUids } from './runtime/tasks/processes/index.js';

export const DAEMON_FILE = 'daemon.json';

export interface DaemonInfo {
  pid: number;
  /**
   * The pid's start time (field 22 of /proc/<pid>/stat, clock ticks since boot) and the boot it
   * counts from: with the pid they name this one process. Null where /proc is not available.
   */
  pid_start: string | null;
  boot_id: string | null;
  /** The daemon's uid (null where the platform has none). */
  uid: number | null;
  /** The control plane's real address, HOST:PORT. */
  listen: string;
  url: string;
  socket: string;
  inbox_port: number | null;
  started_at: string;
  version: string;
}

/** What `findDaemon` makes of the home's daemon.json. */
export type DaemonLookup =
  | { state: 'none' }
  | { state: 'identified'; info: DaemonInfo }
  /** `reason` follows "names pid N, " in a sentence: "which is not running". */
  | { state: 'stale'; info: DaemonInfo; reason: string; gone: boolean };

/** A URL to reach HOST:PORT from this machine: a wildcard address is reached through loopback. */
export function connectUrl(listen: string): string {
  return `http://${listen.replace(/^0\.0\.0\.0:/, '127.0.0.1:').replace(/^\[::\]:/, '[::1]:')}`;
}

/** Written by the daemon: `info` plus its own pid and identity. */
export function writeDaemonFile(home: string, info: Omit<DaemonInfo, 'pid' | 'pid_start' | 'boot_id' | 'uid'>): void {
  const own: Pick<DaemonInfo, 'pid' | 'pid_start' | 'boot_id' | 'uid'> = {
    pid: process.pid,
    pid_start: readProc(process.pid)?.starttime ?? null,
    boot_id: bootId(),
    uid: process.getuid?.() ?? null,
  };
  writePrivateFile(path.join(home, DAEMON_FILE), `${JSON.stringify({ ...own, ...info }, null, 2)}\n`);
}

/** Remove the file, unless another daemon has written its own since (a second start on this home). */
export function removeDaemonFile(home: string, pid: number): void {
  const file = path.join(home, DAEMON_FILE);
  if (readDaemonFile(home)?.info.pid === pid) fs.rmSync(file, { force: true });
}

/** The file's contents and the uid that owns it, or null when it is missing, unreadable or not a regular file. */
export function readDaemonFile(home: string): { info: DaemonInfo; owner: number } | null {
  try {
    const { text, stat } = readRegularFile(path.join(home, DAEMON_FILE));
    const info = JSON.parse(text) as Partial<DaemonInfo>;
    if (!Number.isInteger(info.pid) || typeof info.url !== 'string') return null;
    return { info: info as DaemonInfo, owner: stat.uid };
  } catch {
    return null;
  }
}

/**
 * The home's daemon, identified: the file is yours (or, for root, whoever's it is), its pid is
 * the process that wrote it (same start time, same boot), runs as the uid the file records, and
 * every socket listening where its URL points belongs to that uid. Anything less is `stale`, and
 * the CLI neither uses the URL nor sends a token there. Without /proc (not Linux) nothing can be
 * checked, so a file is never identified: give `--url` (or SVC_URL) there.
 */
export function findDaemon(home: string): DaemonLookup {
  const read = readDaemonFile(home);
  if (!read) return { state: 'none' };
  const { info } = read;
  const why = unidentified(info, read.owner);
  if (why === null) return { state: 'identified', info };
  return { state: 'stale', info, reason: why, gone: why === GONE };
}

const GONE = 'which is not running';

function unidentified(info: DaemonInfo, owner: number): string | null {
  const self = readProc(process.pid);
  if (!self) return 'which cannot be identified on a system without /proc (give --url)';
  const proc = readProc(info.pid);
  if (isGone(proc)) return GONE;
  if (typeof info.pid_start !== 'string' || typeof info.boot_id !== 'string' || !Number.isInteger(info.uid)) {
    return 'but the file records nothing to identify that process by (written by an older svc)';
  }
  if (info.boot_id !== bootId()) return 'but the file was written before the machine restarted';
  if (proc!.starttime !== info.pid_start) return 'which is another process now (its start time differs from the daemon that wrote the file)';

  // Yours, or for root whoever owns the file (root looking at another user's home).
  const me = process.getuid?.() ?? null;
  if (me !== null && owner !== me && me !== 0) return `but the file belongs to uid ${owner}, not to you (uid ${me})`;
  if (info.uid !== owner) return `but the file records uid ${info.uid} and belongs to uid ${owner}`;
  const uids = readUids(info.pid);
  if (!uids || uids.real !== owner || uids.effective !== owner) return `which runs as uid ${uids?.effective ?? 'unknown'}, not uid ${owner}`;

  let target: URL;
  try {
    target = new URL(info.url);
  } catch {
    return `but its url ${JSON.stringify(info.url)} is not a URL`;
  }
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(target.port);
  if (target.protocol !== 'http:' || !port) return `but its url ${info.url} names no http port`;
  const listeners = findListeners(readProcNetTcpSync() ?? [], host, port);
  if (listeners.length === 0) return `but nothing listens on ${target.host}`;
  const other = listeners.find((r) => r.uid !== owner || r.inode === 0);
  if (other) return `but ${target.host} is listened on by uid ${other.uid}, not uid ${owner}`;
  return null;
}

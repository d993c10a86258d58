/**
 * Starts the real daemon (`node bin/svc.js serve`, built output) as a child process on a fresh
 * temporary home, waits for its `listening` line, and hands back where it listens. Tests talk to
 * it over real HTTP, real SSE and the real Unix socket.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = path.join(ROOT, 'bin', 'svc.js');

export interface StartOptions {
  home?: string;
  /** Extra `svc serve` flags. */
  args?: string[];
  /** Written to <home>/config.toml before start. */
  configToml?: string;
  env?: NodeJS.ProcessEnv;
}

export interface RunningDaemon {
  home: string;
  base: string;
  listen: string;
  socket: string;
  proc: ChildProcess;
  logs: () => string;
  /** JSON log lines parsed. */
  logLines: () => Array<Record<string, unknown>>;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

export function tempHome(prefix = 'svc-test-'): string {
  // Short paths: Unix socket paths are limited to 107 bytes.
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export async function startDaemon(opts: StartOptions = {}): Promise<RunningDaemon> {
  const home = opts.home ?? tempHome();
  if (opts.configToml !== undefined) fs.writeFileSync(path.join(home, 'config.toml'), opts.configToml);
  const args = [BIN, 'serve', '--home', home, '--listen', '127.0.0.1:0', ...(opts.args ?? [])];
  const proc = spawn(process.execPath, args, {
    env: { ...process.env, SVC_TOKEN: '', SVC_HOME: '', SVC_LISTEN: '', SVC_LOG_LEVEL: '', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const listening = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`daemon did not start within 15 s:\n${out}`)), 15_000);
    const check = () => {
      for (const line of out.split('\n')) {
        if (!line.includes('"listening"')) continue;
        try {
          const parsed = JSON.parse(line);
          if (parsed.msg === 'listening') {
            clearTimeout(timer);
            proc.stdout!.off('data', check);
            resolve(parsed);
            return;
          }
        } catch {
          /* partial line */
        }
      }
    };
    proc.stdout!.on('data', check);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`daemon exited with ${code} before listening:\n${out}`));
    });
  });
  const listen = String(listening.listen);
  return {
    home,
    base: `http://${listen}`,
    listen,
    socket: String(listening.socket),
    proc,
    logs: () => out,
    logLines: () =>
      out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    stop: async (signal: NodeJS.Signals = 'SIGTERM') => {
      if (proc.exitCode !== null || proc.signalCode !== null) return proc.exitCode;
      proc.kill(signal);
      return exited;
    },
  };
}

/** Run `svc <args>` to completion (for start-up failures and CLI tests); `input` is written to its stdin. */
export function runSvc(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 15_000,
  input?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, SVC_TOKEN: '', SVC_HOME: '', SVC_LISTEN: '', SVC_LOG_LEVEL: '', ...env },
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (input !== undefined) proc.stdin!.end(input);
    let stdout = '';
    let stderr = '';
    proc.stdout!.on('data', (d) => (stdout += d));
    proc.stderr!.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`svc ${args.join(' ')} did not finish in ${timeoutMs} ms:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface HttpResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** One HTTP request over TCP (`base`) or a Unix socket (`socketPath`), with full control of headers. */
export function request(
  target: { base?: string; socketPath?: string },
  method: string,
  urlPath: string,
  opts: { body?: unknown; raw?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<HttpResult> {
  const headers: Record<string, string> = { ...opts.headers };
  let payload: string | Buffer | undefined;
  if (opts.raw !== undefined) payload = opts.raw;
  else if (opts.body !== undefined) {
    payload = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
  const url = target.base ? new URL(urlPath, target.base) : null;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        method,
        ...(url ? { host: url.hostname, port: url.port, path: url.pathname + url.search } : { socketPath: target.socketPath, path: urlPath }),
        headers,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          let json: unknown = undefined;
          try {
            json = JSON.parse(text);
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/**
 * Daemons and temp homes of one test file: `start` tracks what it starts, `killAll` SIGKILLs
 * whatever still runs (afterEach), `cleanup` also removes the homes (afterAll).
 */
export function daemonPool() {
  const homes: string[] = [];
  const running: ChildProcess[] = [];
  const pool = {
    home(): string {
      const h = tempHome();
      homes.push(h);
      return h;
    },
    track(proc: ChildProcess): void {
      running.push(proc);
    },
    async start(opts: StartOptions = {}): Promise<RunningDaemon> {
      const d = await startDaemon({ ...opts, home: opts.home ?? pool.home() });
      running.push(d.proc);
      return d;
    },
    killAll(): void {
      for (const p of running.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
    },
    cleanup(): void {
      pool.killAll();
      for (const h of homes.splice(0)) fs.rmSync(h, { recursive: true, force: true });
    },
  };
  return pool;
}

/** Poll `fn` until it returns something truthy; fail after `timeoutMs`. */
type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

/** Polls fn until it returns a truthy value, and resolves with that value. */
export async function waitFor<T>(fn: () => T | Promise<T>, timeoutMs = 5000, intervalMs = 20): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/**
 * Stop an agent (`POST /api/control/agents/:id/control {"action":"stop"}`): the run loop takes no
 * more of its messages, so queued messages stay queued and the event log holds only what the test
 * causes (plus the one `control_applied` event the stop records).
 */
export async function stopAgent(target: { base: string }, agentId: string, headers: Record<string, string> = {}): Promise<void> {
  const res = await request(target, 'POST', `/api/control/agents/${encodeURIComponent(agentId)}/control`, { body: { action: 'stop' }, headers });
  if (res.status !== 200 || res.json?.status !== 'stopped') throw new Error(`stopping ${agentId} failed: ${res.status} ${res.text}`);
}

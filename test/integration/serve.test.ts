/**
 * `svc serve` as a process (docs/getting-started.md#run-the-daemon-svc-serve and
 * docs/configuration.md#layers-and-changes-at-run-time): the listening line, the socket file, the
 * optional loopback inbox port, start-up failures (exit 1, one line on stderr), stale and live
 * sockets, graceful shutdown by signal and over HTTP (also with an open SSE stream), and the
 * configuration layering defaults < file < environment < flags.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { daemonPool, waitFor, BIN, request, runSvc, type RunningDaemon } from '../helpers/daemon.js';

const pool = daemonPool();

const home = pool.home;
const start = pool.start;

afterEach(() => {
  pool.killAll();
});

afterAll(() => {
  pool.cleanup();
});

/** A port that was free a moment ago. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves with the exit code once the process has exited; rejects after `ms`. */
function waitExit(proc: ChildProcess, ms: number): Promise<number | null> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve(proc.exitCode);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`process ${proc.pid} still running after ${ms} ms`)), ms);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}


/**
 * `svc serve` with exactly the given args (the helper always adds --home and --listen, which
 * would hide the lower configuration layers). Resolves with the parsed `listening` line.
 */
async function spawnServe(args: string[], env: NodeJS.ProcessEnv): Promise<{ proc: ChildProcess; listening: Record<string, unknown>; logs: () => string }> {
  const proc = spawn(process.execPath, [BIN, 'serve', ...args], {
    env: { ...process.env, SVC_TOKEN: '', SVC_HOME: '', SVC_LISTEN: '', SVC_LOG_LEVEL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  pool.track(proc);
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const listening = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line within 15 s:\n${out}`)), 15_000);
    const check = () => {
      for (const line of out.split('\n')) {
        if (!line.startsWith('{')) continue;
        try {
          const parsed = JSON.parse(line);
          if (parsed.msg === 'listening') {
            clearTimeout(timer);
            resolve(parsed);
            return;
          }
        } catch {
          /* partial line */
        }
      }
    };
    proc.stdout!.on('data', check);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening:\n${out}`));
    });
  });
  return { proc, listening, logs: () => out };
}

function expectOneLineFailure(r: { code: number | null; stderr: string }): string {
  expect(r.code).toBe(1);
  const text = r.stderr.trim();
  expect(text.length).toBeGreaterThan(0);
  expect(text.split('\n')).toHaveLength(1);
  expect(text).not.toMatch(/\bat .+:\d+:\d+\)?$/m); // no stack trace
  return text;
}

const auth = (t: string) => ({ authorization: `Bearer ${t}` });

describe('listening line and socket', () => {
  it('logs listen (the real port) and socket; the socket file is mode 0600 and answers', async () => {
    const d = await start();
    const lines = d.logLines().filter((l) => l.msg === 'listening');
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line.listen).toMatch(/^127\.0\.0\.1:\d+$/);
    const port = Number(String(line.listen).split(':')[1]);
    expect(port).toBeGreaterThan(0);
    expect(line.socket).toBe(path.join(d.home, 'inbox.sock'));

    // Both listeners accept connections at the time of the line.
    const hs = await request({ base: d.base }, 'GET', '/api/handshake');
    expect(hs.status).toBe(200);
    expect(hs.json.runtime.listen).toBe(line.listen);
    const health = await request({ socketPath: d.socket }, 'GET', '/healthz');
    expect(health.status).toBe(200);
    expect(health.json).toEqual({ ok: true, status: 'ok' });

    const st = fs.statSync(d.socket);
    expect(st.isSocket()).toBe(true);
    expect(st.mode & 0o777).toBe(0o600);
  });

  it('--socket PATH puts the inbox socket there', async () => {
    const h = home();
    const sock = path.join(h, 'custom.sock');
    const d = await start({ home: h, args: ['--socket', sock] });
    expect(d.socket).toBe(sock);
    expect(fs.statSync(sock).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(path.join(h, 'inbox.sock'))).toBe(false);
    const r = await request({ socketPath: sock }, 'GET', '/healthz');
    expect(r.status).toBe(200);
  });
});

describe('--port N: the inbox API on loopback', () => {
  it('serves /healthz, /status and /openapi.json on 127.0.0.1:N; the socket serves the same document', async () => {
    const port = await freePort();
    const d = await start({ args: ['--port', String(port)] });
    const base = `http://127.0.0.1:${port}`;

    const health = await request({ base }, 'GET', '/healthz');
    expect(health.status).toBe(200);
    expect(health.json).toEqual({ ok: true, status: 'ok' });

    const status = await request({ base }, 'GET', '/status');
    expect(status.status).toBe(200);
    expect(status.json.ok).toBe(true);
    expect(status.json.service).toBe('svc-inbox');
    expect(status.json.port).toBe(port);
    expect(status.json.socket).toBe(d.socket);
    expect(status.json.pid).toBe(d.proc.pid);

    const doc = await request({ base }, 'GET', '/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.json.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.json.paths)).toContain('/healthz');
    expect(Object.keys(doc.json.paths)).toContain('/status');

    const viaSocket = await request({ socketPath: d.socket }, 'GET', '/openapi.json');
    expect(viaSocket.status).toBe(200);
    expect(Object.keys(viaSocket.json.paths)).toContain('/healthz');
    // The control plane's paths do not leak into the inbox document.
    expect(Object.keys(viaSocket.json.paths).some((p) => p.startsWith('/api/'))).toBe(false);

    // The inbox port does not serve the control plane.
    const ctl = await request({ base }, 'GET', '/api/handshake');
    expect(ctl.status).toBe(404);
    expect(ctl.json.code).toBe('route_not_found');
  });

  const external = Object.values(os.networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

  it.skipIf(!external)('the inbox port is bound to loopback only, never another interface', async () => {
    const port = await freePort();
    await start({ args: ['--port', String(port)] });
    const ok = await request({ base: `http://127.0.0.1:${port}` }, 'GET', '/healthz');
    expect(ok.status).toBe(200);
    const err = await request({ base: `http://${external}:${port}` }, 'GET', '/healthz').then(
      () => null,
      (e: NodeJS.ErrnoException) => e.code,
    );
    expect(err).toBe('ECONNREFUSED');
  });

  it('without --port no inbox TCP listener exists (status port null)', async () => {
    const d = await start();
    const status = await request({ socketPath: d.socket }, 'GET', '/status');
    expect(status.status).toBe(200);
    expect(status.json.port).toBeNull();
  });
});

describe('start-up failures: exit 1 with one line on stderr', () => {
  const serve = (h: string, extra: string[] = []) => runSvc(['serve', '--home', h, '--listen', '127.0.0.1:0', ...extra]);

  it('bad TOML', async () => {
    const h = home();
    fs.writeFileSync(path.join(h, 'config.toml'), 'listen = = "nope\n[events\n');
    const msg = expectOneLineFailure(await serve(h));
    expect(msg).toContain(path.join(h, 'config.toml'));
    expect(msg).toMatch(/TOML/);
    expect(fs.existsSync(path.join(h, 'inbox.sock'))).toBe(false);
  });

  it('an unknown key names its path', async () => {
    const h = home();
    fs.writeFileSync(path.join(h, 'config.toml'), '[events]\nbogus = 1\n');
    const msg = expectOneLineFailure(await serve(h));
    expect(msg).toContain('events.bogus');
    expect(msg).toMatch(/unknown key/);
  });

  it('an unknown top-level key names it', async () => {
    const h = home();
    fs.writeFileSync(path.join(h, 'config.toml'), 'not_a_key = true\n');
    const msg = expectOneLineFailure(await serve(h));
    expect(msg).toContain('not_a_key');
  });

  it('a wrong type names the key path', async () => {
    const h = home();
    fs.writeFileSync(path.join(h, 'config.toml'), '[events]\nheartbeat_ms = "x"\n');
    const msg = expectOneLineFailure(await serve(h));
    expect(msg).toContain('events.heartbeat_ms');
  });

  it('a wrong type in a nested table names the full path', async () => {
    const h = home();
    fs.writeFileSync(path.join(h, 'config.toml'), '[runtime.observability.otlp]\nbatch_size = "big"\n');
    const msg = expectOneLineFailure(await serve(h));
    expect(msg).toContain('runtime.observability.otlp.batch_size');
  });

  it('--config pointing at a missing file', async () => {
    const h = home();
    const msg = expectOneLineFailure(await serve(h, ['--config', path.join(h, 'missing.toml')]));
    expect(msg).toContain('missing.toml');
  });

  it('control port already in use', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const { port } = blocker.address() as net.AddressInfo;
    try {
      const h = home();
      const r = await runSvc(['serve', '--home', h, '--listen', `127.0.0.1:${port}`]);
      const msg = expectOneLineFailure(r);
      expect(msg).toContain(`127.0.0.1:${port}`);
      expect(msg).toMatch(/in use/);
      // Nothing left behind that would block the next start.
      expect(fs.existsSync(path.join(h, 'inbox.sock'))).toBe(false);
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });

  it('inbox port already in use', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const { port } = blocker.address() as net.AddressInfo;
    try {
      const msg = expectOneLineFailure(await serve(home(), ['--port', String(port)]));
      expect(msg).toContain(String(port));
      expect(msg).toMatch(/in use/);
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });

  it('unwritable home (its parent is a regular file)', async () => {
    const h = home();
    const file = path.join(h, 'a-file');
    fs.writeFileSync(file, 'not a directory');
    const target = path.join(file, 'home');
    const msg = expectOneLineFailure(await runSvc(['serve', '--home', target, '--listen', '127.0.0.1:0']));
    expect(msg).toContain(target);
    expect(msg).toMatch(/not writable/);
  });

  it('a live socket: the second daemon exits 1, the first keeps running', async () => {
    const d = await start();
    const before = await request({ base: d.base }, 'GET', '/api/control/runtime/status');
    const r = await runSvc(['serve', '--home', d.home, '--listen', '127.0.0.1:0']);
    const msg = expectOneLineFailure(r);
    expect(msg).toContain(d.socket);
    expect(msg).toMatch(/in use|already running/);

    expect(d.proc.exitCode).toBeNull();
    expect(fs.statSync(d.socket).isSocket()).toBe(true);
    const health = await request({ socketPath: d.socket }, 'GET', '/healthz');
    expect(health.status).toBe(200);
    const st = await request({ base: d.base }, 'GET', '/api/control/runtime/status');
    expect(st.status).toBe(200);
    expect(st.json.pid).toBe(d.proc.pid);
    // The refused second process appended nothing to the shared database.
    expect(st.json.events.total).toBe(before.json.events.total);
    // It still writes.
    const enq = await request({ base: d.base }, 'POST', '/api/agents/main/enqueue', { body: { text: 'still alive' } });
    expect(enq.status).toBe(202);
    expect(await d.stop('SIGTERM')).toBe(0);
  });

  it('a start refused for a live socket leaves the running daemon state alone', async () => {
    const d = await start();
    const other = path.join(d.home, 'other.toml');
    fs.writeFileSync(other, 'default_agent = "intruder"\n');
    const r = await runSvc(['serve', '--home', d.home, '--listen', '127.0.0.1:0', '--config', other]);
    const msg = expectOneLineFailure(r);
    expect(msg).toContain(d.socket);
    const list = await request({ base: d.base }, 'GET', '/api/agents/list');
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.json)).not.toContain('intruder');
    const detail = await request({ base: d.base }, 'GET', '/api/control/agents/intruder/detail');
    expect(detail.status).toBe(404);
    expect(detail.json.code).toBe('agent_not_found');
  });

  it('a database from a newer schema version', async () => {
    const h = home();
    const d = await start({ home: h });
    expect(await d.stop('SIGTERM')).toBe(0);
    const dbFile = path.join(h, 'svc.db');
    const db = new Database(dbFile);
    db.pragma('user_version = 999');
    db.close();

    const msg = expectOneLineFailure(await runSvc(['serve', '--home', h, '--listen', '127.0.0.1:0']));
    expect(msg).toMatch(/schema version 999/);

    // The newer database was left alone.
    const again = new Database(dbFile, { readonly: true });
    expect(again.pragma('user_version', { simple: true })).toBe(999);
    again.close();
  });

  it('a bad --port value', async () => {
    const msg = expectOneLineFailure(await serve(home(), ['--port', 'abc']));
    expect(msg).toContain('--port');
  });
});

describe('stale socket', () => {
  it('a socket file left by a SIGKILLed daemon is replaced and the daemon starts', async () => {
    const h = home();
    const first = await start({ home: h });
    first.proc.kill('SIGKILL');
    await waitExit(first.proc, 5000);
    expect(fs.statSync(first.socket).isSocket()).toBe(true); // left behind

    const second = await start({ home: h });
    expect(second.socket).toBe(first.socket);
    expect(fs.statSync(second.socket).mode & 0o777).toBe(0o600);
    const health = await request({ socketPath: second.socket }, 'GET', '/healthz');
    expect(health.status).toBe(200);
    const status = await request({ socketPath: second.socket }, 'GET', '/status');
    expect(status.json.pid).toBe(second.proc.pid);
  });

  it('a socket file whose server closed without unlinking is replaced', async () => {
    const h = home();
    const sock = path.join(h, 'inbox.sock');
    // A listener whose file outlives it: close the fd behind Node's back by killing a child.
    const child = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(sock)}, () => console.log('up'))`], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    pool.track(child);
    await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
    child.kill('SIGKILL');
    await waitExit(child, 5000);
    expect(fs.statSync(sock).isSocket()).toBe(true);

    const d = await start({ home: h });
    const health = await request({ socketPath: d.socket }, 'GET', '/healthz');
    expect(health.status).toBe(200);
  });
});

describe('graceful shutdown', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal}: exit 0 within 5 s, socket removed, database checkpointed`, async () => {
      const d = await start();
      const enq = await request({ base: d.base }, 'POST', '/api/agents/main/enqueue', { body: { text: 'before stop' } });
      expect(enq.status).toBe(202);
      const t0 = Date.now();
      d.proc.kill(signal);
      const code = await waitExit(d.proc, 5000);
      expect(code).toBe(0);
      expect(Date.now() - t0).toBeLessThan(5000);
      expect(fs.existsSync(d.socket)).toBe(false);
      const wal = path.join(d.home, 'svc.db-wal');
      expect(!fs.existsSync(wal) || fs.statSync(wal).size === 0).toBe(true);
    });
  }

  it('SIGTERM sent the moment the listening line appears is still graceful', async () => {
    // A supervisor signals as soon as it sees readiness; the handler must already be installed.
    for (let i = 0; i < 4; i++) {
      const d = await start();
      d.proc.kill('SIGTERM');
      const code = await waitExit(d.proc, 5000);
      expect({ run: i, code, signal: d.proc.signalCode }).toEqual({ run: i, code: 0, signal: null });
      expect(fs.existsSync(d.socket)).toBe(false);
    }
  });

  it('launched by npm (npm -> sh -> node), the daemon shuts down gracefully when its launcher dies', async () => {
    // `npx svc serve`: a SIGTERM to npm kills the shell and never reaches the daemon.
    const h = home();
    const shell = spawn('sh', ['-c', `"${process.execPath}" "${BIN}" serve --home "${h}" --listen 127.0.0.1:0; true`], {
      env: { ...process.env, npm_command: 'exec', SVC_TOKEN: '', SVC_HOME: '', SVC_LISTEN: '', SVC_LOG_LEVEL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    pool.track(shell);
    let out = '';
    shell.stdout!.on('data', (d) => (out += d));
    const listening = await waitFor(() => out.split('\n').find((l) => l.includes('"msg":"listening"')), 15_000);
    const pid = JSON.parse(listening!).pid as number;
    shell.kill('SIGKILL');
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    await waitFor(() => !alive(), 5000);
    expect(fs.existsSync(path.join(h, 'inbox.sock'))).toBe(false);
  });

  it('POST /api/control/runtime/shutdown answers 202, then the process exits 0', async () => {
    const d = await start();
    const t0 = Date.now();
    const r = await request({ base: d.base }, 'POST', '/api/control/runtime/shutdown');
    expect(r.status).toBe(202);
    expect(r.json).toEqual({ ok: true, shutting_down: true });
    expect(await waitExit(d.proc, 5000)).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(fs.existsSync(d.socket)).toBe(false);
  });

  it('shutdown over HTTP needs the token in bearer mode', async () => {
    const d = await start({ args: ['--token', 'tok-shutdown'] });
    const denied = await request({ base: d.base }, 'POST', '/api/control/runtime/shutdown');
    expect(denied.status).toBe(401);
    expect(denied.json.code).toBe('auth_required');
    expect(d.proc.exitCode).toBeNull();
    const ok = await request({ base: d.base }, 'POST', '/api/control/runtime/shutdown', { headers: auth('tok-shutdown') });
    expect(ok.status).toBe(202);
    expect(await waitExit(d.proc, 5000)).toBe(0);
  });

  for (const how of ['SIGTERM', 'http'] as const) {
    it(`an open SSE stream is ended by shutdown (${how}) and the exit still comes within 5 s`, async () => {
      const d = await start();
      const url = new URL('/api/agents/main/events/stream?after_seq=0', d.base);
      const stream = await new Promise<{ res: http.IncomingMessage; ended: Promise<string> }>((resolve, reject) => {
        const req = http.get({ host: url.hostname, port: url.port, path: url.pathname + url.search }, (res) => {
          res.setEncoding('utf8');
          let body = '';
          const ended = new Promise<string>((done) => {
            res.on('data', (c) => (body += c));
            res.on('end', () => done('end'));
            res.on('close', () => done('close'));
            res.on('error', () => done('error'));
          });
          resolve({ res, ended });
        });
        req.on('error', reject);
      });
      expect(stream.res.statusCode).toBe(200);
      expect(stream.res.headers['content-type']).toMatch(/^text\/event-stream/);
      // The stream is really open: the server counts it.
      await waitFor(async () => (await request({ base: d.base }, 'GET', '/api/control/runtime/status')).json.sse_clients === 1);

      const t0 = Date.now();
      if (how === 'SIGTERM') d.proc.kill('SIGTERM');
      else expect((await request({ base: d.base }, 'POST', '/api/control/runtime/shutdown')).status).toBe(202);
      const how1 = await Promise.race([stream.ended, new Promise<string>((r) => setTimeout(() => r('timeout'), 5000))]);
      // Ended cleanly (the chunked response finished), not just cut off.
      expect(how1).toBe('end');
      expect(await waitExit(d.proc, 5000)).toBe(0);
      expect(Date.now() - t0).toBeLessThan(5000);
    });
  }
});

describe('configuration layering: defaults < file < environment < flags', () => {
  const effective = async (d: { base: string }, headers: Record<string, string> = {}) => {
    const r = await request({ base: d.base }, 'GET', '/api/control/runtime/config', { headers });
    expect(r.status).toBe(200);
    return r.json.effective;
  };

  it('log level: file, then SVC_LOG_LEVEL, then --log-level', async () => {
    const fileOnly = await start({ configToml: 'log_level = "debug"\n' });
    expect((await effective(fileOnly)).log_level).toBe('debug');
    // Debug request lines appear.
    await request({ base: fileOnly.base }, 'GET', '/api/handshake');
    await waitFor(() => fileOnly.logLines().some((l) => l.level === 20 && l.msg === 'request'));

    const envOverFile = await start({ configToml: 'log_level = "debug"\n', env: { SVC_LOG_LEVEL: 'info' } });
    expect((await effective(envOverFile)).log_level).toBe('info');

    const flagOverEnv = await start({ configToml: 'log_level = "warn"\n', env: { SVC_LOG_LEVEL: 'info' }, args: ['--log-level', 'debug'] });
    expect((await effective(flagOverEnv)).log_level).toBe('debug');

    const envOnly = await start({ env: { SVC_LOG_LEVEL: 'debug' } });
    expect((await effective(envOnly)).log_level).toBe('debug');

    const defaults = await start();
    expect((await effective(defaults)).log_level).toBe('info');
    await request({ base: defaults.base }, 'GET', '/api/handshake');
    // The request was answered (so a debug line would have been written): none at info.
    expect(defaults.logLines().some((l) => (l.level as number) < 30)).toBe(false);
  });

  it('listen: SVC_LISTEN beats the file, --listen beats both', async () => {
    const filePort = await freePort();
    const envPort = await freePort();
    expect(envPort).not.toBe(filePort);

    const h = home();
    fs.writeFileSync(path.join(h, 'config.toml'), `listen = "127.0.0.1:${filePort}"\n`);
    const fileOnly = await spawnServe(['--home', h], {});
    expect(fileOnly.listening.listen).toBe(`127.0.0.1:${filePort}`);
    fileOnly.proc.kill('SIGTERM');
    expect(await waitExit(fileOnly.proc, 5000)).toBe(0);

    const envOverFile = await spawnServe(['--home', h], { SVC_LISTEN: `127.0.0.1:${envPort}` });
    expect(envOverFile.listening.listen).toBe(`127.0.0.1:${envPort}`);
    const hs = await request({ base: `http://127.0.0.1:${envPort}` }, 'GET', '/api/handshake');
    expect(hs.status).toBe(200);
    envOverFile.proc.kill('SIGTERM');
    expect(await waitExit(envOverFile.proc, 5000)).toBe(0);

    // The helper passes --listen 127.0.0.1:0.
    const flag = await start({ home: h, env: { SVC_LISTEN: `127.0.0.1:${envPort}` } });
    const port = Number(flag.listen.split(':')[1]);
    expect(port).not.toBe(envPort);
    expect(port).not.toBe(filePort);
    expect(port).toBeGreaterThan(0);
  });

  it('SVC_HOME is the home when --home is absent', async () => {
    const h = home();
    const port = await freePort();
    const d = await spawnServe(['--listen', `127.0.0.1:${port}`], { SVC_HOME: h });
    expect(d.listening.socket).toBe(path.join(h, 'inbox.sock'));
    expect(fs.existsSync(path.join(h, 'svc.db'))).toBe(true);
    d.proc.kill('SIGTERM');
    expect(await waitExit(d.proc, 5000)).toBe(0);
  });

  it('--config FILE is read instead of <home>/config.toml', async () => {
    const h = home();
    fs.writeFileSync(path.join(h, 'config.toml'), '[events]\nheartbeat_ms = 1111\n');
    const other = path.join(h, 'other.toml');
    fs.writeFileSync(other, '[events]\nheartbeat_ms = 2222\n');
    const d = await start({ home: h, args: ['--config', other] });
    const r = await request({ base: d.base }, 'GET', '/api/control/runtime/config');
    expect(r.json.config_path).toBe(other);
    expect(r.json.effective.events.heartbeat_ms).toBe(2222);
  });

  const handshakeMode = async (d: RunningDaemon) => (await request({ base: d.base }, 'GET', '/api/handshake')).json.auth.mode;
  const statusWith = (d: RunningDaemon, token?: string) =>
    request({ base: d.base }, 'GET', '/api/control/runtime/status', { headers: token ? auth(token) : {} });

  it('token: none means local mode', async () => {
    const d = await start();
    expect(await handshakeMode(d)).toBe('local');
    expect((await statusWith(d)).status).toBe(200);
  });

  it('token: the file turns on bearer mode', async () => {
    const d = await start({ configToml: 'control_token = "file-tok"\n' });
    expect(await handshakeMode(d)).toBe('bearer');
    const denied = await statusWith(d);
    expect(denied.status).toBe(401);
    expect(denied.json.code).toBe('auth_required');
    expect(denied.headers['www-authenticate']).toMatch(/^Bearer/);
    expect((await statusWith(d, 'file-tok')).status).toBe(200);
  });

  it('token: SVC_TOKEN turns on bearer mode and beats the file', async () => {
    const d = await start({ configToml: 'control_token = "file-tok"\n', env: { SVC_TOKEN: 'env-tok' } });
    expect(await handshakeMode(d)).toBe('bearer');
    expect((await statusWith(d)).status).toBe(401);
    expect((await statusWith(d, 'file-tok')).status).toBe(401);
    const ok = await statusWith(d, 'env-tok');
    expect(ok.status).toBe(200);
    expect(ok.json.auth).toMatchObject({ mode: 'bearer', control_token_configured: true });
  });

  it('token: SVC_TOKEN alone turns on bearer mode', async () => {
    const d = await start({ env: { SVC_TOKEN: 'env-only' } });
    expect(await handshakeMode(d)).toBe('bearer');
    expect((await statusWith(d)).status).toBe(401);
    expect((await statusWith(d, 'env-only')).status).toBe(200);
  });

  it('token: --token beats SVC_TOKEN', async () => {
    const d = await start({ env: { SVC_TOKEN: 'env-tok' }, args: ['--token', 'flag-tok'] });
    expect(await handshakeMode(d)).toBe('bearer');
    expect((await statusWith(d, 'env-tok')).status).toBe(401);
    expect((await statusWith(d, 'flag-tok')).status).toBe(200);
  });

  it('token: --token-file beats SVC_TOKEN', async () => {
    const h = home();
    const file = path.join(h, 'token.txt');
    fs.writeFileSync(file, 'file-flag-tok\n');
    const d = await start({ home: h, env: { SVC_TOKEN: 'env-tok' }, args: ['--token-file', file] });
    expect((await statusWith(d, 'env-tok')).status).toBe(401);
    expect((await statusWith(d, 'file-flag-tok')).status).toBe(200);
  });
});

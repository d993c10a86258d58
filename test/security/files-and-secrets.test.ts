/**
 * Files and secrets (docs/security.md#files-and-secrets): the database and its WAL/SHM are the
 * owner's alone whatever the home's mode, the control token given as --token does not stay in the
 * process list, the inbox socket only lives in a directory no other user can write to, and a FIFO
 * where a regular file belongs (credentials.json, secrets.json, config.toml, a token file,
 * daemon.json) is refused at once instead of stopping the daemon or the CLI for good.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { daemonPool, request, runSvc } from '../helpers/daemon.js';

const pool = daemonPool();
afterAll(() => pool.cleanup());

const modeOf = (f: string) => fs.statSync(f).mode & 0o777;

describe('file modes', () => {
  it('svc.db, -wal and -shm are 0600 in a home that is 0755, and config writes are 0600', async () => {
    const home = pool.home();
    fs.chmodSync(home, 0o755);
    // An older svc left the database readable by everyone.
    fs.writeFileSync(path.join(home, 'svc.db'), '');
    fs.chmodSync(path.join(home, 'svc.db'), 0o644);
    const d = await pool.start({ home });
    await request(d, 'POST', '/api/agents/main/enqueue', { body: { text: 'x' } });
    for (const f of ['svc.db', 'svc.db-wal', 'svc.db-shm']) expect(modeOf(path.join(home, f)).toString(8), f).toBe('600');
    const patched = await request(d, 'PATCH', '/api/control/runtime/config', { body: { updates: [{ key: 'events.heartbeat_ms', value: 5000 }] } });
    expect(patched.status).toBe(200);
    expect(modeOf(path.join(home, 'config.toml')).toString(8)).toBe('600');
    expect(modeOf(d.socket).toString(8)).toBe('600');
  });

  it('warns about a config file others can read only when the token is written in it', async () => {
    const warning = 'the config file holds control_token and other users can read it';
    const inFile = pool.home();
    fs.writeFileSync(path.join(inFile, 'config.toml'), 'control_token = "tok-in-file"\n', { mode: 0o644 });
    fs.chmodSync(path.join(inFile, 'config.toml'), 0o644);
    const a = await pool.start({ home: inFile });
    expect(a.logs()).toContain(warning);
    expect(a.logs()).not.toContain('tok-in-file');
    await a.stop();
    // The token comes from the environment; the readable config file holds none.
    const fromEnv = pool.home();
    fs.writeFileSync(path.join(fromEnv, 'config.toml'), '[events]\nheartbeat_ms = 5000\n', { mode: 0o644 });
    fs.chmodSync(path.join(fromEnv, 'config.toml'), 0o644);
    const b = await pool.start({ home: fromEnv, env: { SVC_TOKEN: 'tok-from-env' } });
    expect(b.logs()).not.toContain(warning);
  });

  it('refuses a socket in a directory other users can write to', async () => {
    const home = pool.home();
    const open = path.join(home, 'open');
    fs.mkdirSync(open);
    fs.chmodSync(open, 0o777);
    const res = await runSvc(['serve', '--home', home, '--listen', '127.0.0.1:0', '--socket', path.join(open, 'inbox.sock')]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/socket directory .* not be writable by others/);
  });
});

describe('the control token', () => {
  it('given as --token does not show in the process list', async () => {
    const token = 'ps-visible-token-' + 'z'.repeat(20);
    const d = await pool.start({ args: ['--token', token] });
    const cmdline = fs.readFileSync(`/proc/${d.proc.pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    expect(cmdline).toContain('serve');
    expect(cmdline).not.toContain(token);
    // The token still works.
    const res = await request(d, 'GET', '/api/control/runtime/status', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
  });
});

describe('special files where a regular file belongs', () => {
  const mkfifo = (file: string) => execFileSync('mkfifo', ['-m', '600', file]);
  /** Bounded: a daemon that opened the FIFO would never answer. */
  const within = <T>(p: Promise<T>, ms = 5_000) =>
    Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms))]);

  it('a FIFO at credentials.json: the credential routes answer 409 credential_store_unusable and the daemon keeps answering', async () => {
    const d = await pool.start();
    mkfifo(path.join(d.home, 'credentials.json'));
    const list = await within(request(d, 'GET', '/api/control/runtime/credentials'));
    expect(list.status, list.text).toBe(409);
    expect(list.json).toMatchObject({ code: 'credential_store_unusable', error: expect.stringContaining('credentials.json is a fifo, not a regular file') });
    const put = await within(request(d, 'PUT', '/api/control/runtime/credentials/p1', { body: { kind: 'api_key', material: 'sk-x' } }));
    expect(put.status).toBe(409);
    expect((await within(request(d, 'GET', '/api/handshake'))).status).toBe(200);
    expect(fs.lstatSync(path.join(d.home, 'credentials.json')).isFIFO()).toBe(true);
  });

  it('a FIFO at secrets.json: svc serve refuses to start, naming the file', async () => {
    const secrets = pool.home();
    mkfifo(path.join(secrets, 'secrets.json'));
    const a = await runSvc(['serve', '--home', secrets, '--listen', '127.0.0.1:0']);
    expect(a.code).toBe(1);
    expect(a.stderr).toContain(`${path.join(secrets, 'secrets.json')} is a fifo, not a regular file`);
  });

  it('a FIFO at config.toml: svc serve refuses to start and the CLI says so, neither waits', async () => {
    const config = pool.home();
    mkfifo(path.join(config, 'config.toml'));
    const b = await runSvc(['serve', '--home', config, '--listen', '127.0.0.1:0']);
    expect(b.code).toBe(1);
    expect(b.stderr).toContain(`config file ${path.join(config, 'config.toml')} is a fifo, not a regular file`);
    // The CLI reads the same config: it says so instead of waiting.
    const cli = await runSvc(['agents', 'list', '--home', config]);
    expect(cli.code).not.toBe(0);
    expect(cli.stderr).toContain('is a fifo, not a regular file');
  });

  it('a FIFO as the token file: svc serve refuses to start, naming it', async () => {
    const token = pool.home();
    mkfifo(path.join(token, 'token'));
    const c = await runSvc(['serve', '--home', token, '--listen', '127.0.0.1:0', '--token-file', path.join(token, 'token')]);
    expect(c.code).toBe(1);
    expect(c.stderr).toContain(`control token file ${path.join(token, 'token')} is a fifo, not a regular file`);
  });

  it('a FIFO at daemon.json is no daemon: the CLI falls back to the config address at once', async () => {
    const home = pool.home();
    fs.writeFileSync(path.join(home, 'config.toml'), 'listen = "127.0.0.1:1"\n');
    mkfifo(path.join(home, 'daemon.json'));
    const r = await runSvc(['agents', 'list', '--home', home]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('cannot reach the svc daemon at http://127.0.0.1:1');
  });
});

/**
 * The console's sign-in with the control token (POST /api/auth/token, src/auth/token-sessions.ts)
 * attacked over real TCP: real daemons in bearer mode with `read_access = "token"` (so reads and
 * the SSE stream need a credential too), a second local user (uid 65534) replaying the cookie, a
 * restart with another token on the same home, origins, malformed bodies, cookie tossing and
 * oversized headers; then the lifetime and revocation of a session on an injected clock, with an
 * in-process control plane listening on a real port.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { daemonPool, request, type HttpResult, type RunningDaemon } from '../helpers/daemon.js';
import { codeOf, OTHER_UID, requestAs } from '../helpers/peer.js';
import { freePort } from '../helpers/ports.js';
import { testServices, type TestServices } from '../helpers/services.js';
import { buildControlSurface } from '../../src/http/surfaces.js';

const TOKEN = 'console-token-5f1c0e9a7b3d42c8';
const OTHER_TOKEN = 'console-token-other-0a9d8c7b6e';
const LISTED = 'https://app.example';
const CONFIG = `[auth]\nread_access = "token"\nallowed_origins = ["${LISTED}"]\n`;
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

const pool = daemonPool();
afterAll(() => pool.cleanup());

const portOf = (d: { base: string }) => Number(new URL(d.base).port);
const cookieName = (d: { base: string }) => `svc_console_${portOf(d)}`;

interface SignedIn {
  res: HttpResult;
  id: string;
  /** `Cookie` request header carrying the session. */
  cookie: string;
}

async function signIn(d: { base: string }, token = TOKEN, headers: Record<string, string> = {}): Promise<SignedIn> {
  const res = await request(d, 'POST', '/api/auth/token', { body: { token }, headers });
  expect(res.status, res.text).toBe(200);
  const set = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const id = new RegExp(`^${cookieName(d)}=([^;]*)`).exec(set[0] ?? '')?.[1] ?? '';
  return { res, id, cookie: `${cookieName(d)}=${id}` };
}

const withCookie = (cookie: string, extra: Record<string, string> = {}) => ({ headers: { cookie, ...extra } });
const status = (r: HttpResult) => ({ status: r.status, code: r.json?.code });

const CONTROL = '/api/control/runtime/status';
const READ = '/api/agents/list';
const INBOX = '/api/inbox/agents';
const STREAM = '/api/agents/main/events/stream?after_seq=0';

interface OpenStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Text received before the first event id (or the whole error body). */
  body: string;
  /** Resolves when the daemon ends or drops the stream. */
  ended: Promise<void>;
  close: () => void;
}

/** Opens an SSE stream and resolves at its first event (or at the end of a refusal). */
function openStream(d: { base: string }, headers: Record<string, string>): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${d.base}${STREAM}`, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      let body = '';
      const ended = new Promise<void>((done) => {
        res.once('end', done);
        res.once('close', done);
        res.once('error', () => done());
      });
      const result = () => ({ status: res.statusCode ?? 0, headers: res.headers, body, ended, close: () => req.destroy() });
      res.setEncoding('utf8');
      if (res.statusCode !== 200) {
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve(result()));
        return;
      }
      res.on('data', (c) => {
        if (/^id: /m.test(body)) return;
        body += c;
        if (/^id: /m.test(body)) resolve(result());
      });
    });
    req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
    setTimeout(() => reject(new Error('no event within 5 s')), 5000).unref();
  });
}

function sessionRows(home: string): Array<{ issuer: string; subject: string; revoked_at: number | null }> {
  const db = new Database(path.join(home, 'svc.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT issuer, subject, revoked_at FROM auth_sessions').all() as Array<{ issuer: string; subject: string; revoked_at: number | null }>;
  } finally {
    db.close();
  }
}

/** The database as bytes on disk: the main file and whatever the WAL still holds. */
function databaseBytes(home: string): Buffer {
  const parts = ['svc.db', 'svc.db-wal', 'svc.db-shm'].map((f) => path.join(home, f)).filter((f) => fs.existsSync(f));
  return Buffer.concat(parts.map((f) => fs.readFileSync(f)));
}

const bearerDaemon = (extra: { home?: string; args?: string[]; token?: string; configToml?: string } = {}) =>
  pool.start({ home: extra.home, args: extra.args, env: { SVC_TOKEN: extra.token ?? TOKEN }, configToml: extra.configToml ?? CONFIG });

describe('console sign-in with the control token (bearer mode)', () => {
  let d: RunningDaemon;
  const issued: string[] = [];
  beforeAll(async () => {
    d = await bearerDaemon();
  }, 30_000);

  const signInHere = async (headers: Record<string, string> = {}) => {
    const s = await signIn(d, TOKEN, headers);
    issued.push(s.id);
    return s;
  };

  it('sets an HttpOnly, SameSite=Strict cookie named after the port, for the whole lifetime, and never cached', async () => {
    const { res, id } = await signInHere();
    expect(id).toMatch(SESSION_ID);
    expect(res.headers['set-cookie']).toEqual([`${cookieName(d)}=${id}; Max-Age=43200; Path=/; HttpOnly; SameSite=Strict`]);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json.ok).toBe(true);
    const expiresIn = Date.parse(res.json.expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(43_200_000 - 60_000);
    expect(expiresIn).toBeLessThanOrEqual(43_200_000);
  });

  it('the cookie alone authorises a control route, a read route, the inbox API and an event stream; nothing without it', async () => {
    const { cookie } = await signInHere();
    for (const url of [CONTROL, READ, INBOX]) {
      expect(status(await request(d, 'GET', url)), url).toEqual({ status: 401, code: 'auth_required' });
      const res = await request(d, 'GET', url, withCookie(cookie));
      expect(res.status, `${url}: ${res.text}`).toBe(200);
    }
    const refused = await openStream(d, {});
    expect(refused.status).toBe(401);
    const stream = await openStream(d, { cookie });
    expect(stream.status, stream.body).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    stream.close();
  });

  it('reports the session: kind token, bound to the signing uid, issuer control-token', async () => {
    const { cookie } = await signInHere();
    const res = await request(d, 'GET', '/api/auth/session', withCookie(cookie));
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ ok: true, kind: 'token', subject: `uid:${process.getuid!()}`, issuer: 'control-token' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(status(await request(d, 'GET', '/api/auth/session'))).toEqual({ status: 401, code: 'session_required' });
  });

  it('counts the session from no Origin, the daemon\'s own origin and a listed one; another localhost port is refused outright', async () => {
    const { cookie } = await signInHere();
    const other = `http://127.0.0.1:${portOf(d) + 1}`;
    for (const origin of [`http://127.0.0.1:${portOf(d)}`, LISTED]) {
      expect((await request(d, 'GET', CONTROL, withCookie(cookie, { origin }))).status, origin).toBe(200);
    }
    for (const url of [CONTROL, READ, INBOX, '/api/auth/session']) {
      const res = await request(d, 'GET', url, withCookie(cookie, { origin: other }));
      expect(status(res), url).toEqual({ status: 403, code: 'cross_origin_rejected' });
    }
    // The other port's page cannot sign out the console either.
    const logout = await request(d, 'POST', '/api/auth/logout', withCookie(cookie, { origin: other }));
    expect(status(logout)).toEqual({ status: 403, code: 'cross_origin_rejected' });
    expect((await request(d, 'GET', CONTROL, withCookie(cookie))).status).toBe(200);
    // localhost and 127.0.0.1 are different origins.
    expect((await request(d, 'GET', CONTROL, withCookie(cookie, { origin: `http://localhost:${portOf(d)}` }))).status).toBe(403);
  });

  it('refuses a sign-in from a foreign origin, and a preflight for it from any origin that is not listed', async () => {
    const before = sessionRows(d.home).length;
    const evil = await request(d, 'POST', '/api/auth/token', { body: { token: TOKEN }, headers: { origin: 'https://evil.example' } });
    expect(status(evil)).toEqual({ status: 403, code: 'cross_origin_rejected' });
    expect(evil.headers['set-cookie']).toBeUndefined();
    for (const origin of ['https://evil.example', `http://127.0.0.1:${portOf(d) + 1}`, 'null']) {
      const pre = await request(d, 'OPTIONS', '/api/auth/token', { headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
      expect(status(pre), origin).toEqual({ status: 403, code: 'cross_origin_rejected' });
      expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    }
    expect(sessionRows(d.home)).toHaveLength(before);
  });

  it('refuses a body that is not {token: string} with 400 and creates nothing', async () => {
    const before = sessionRows(d.home).length;
    const bodies: Array<{ raw: string; type?: string }> = [
      { raw: '{}' },
      { raw: JSON.stringify({ token: 1 }) },
      { raw: JSON.stringify({ token: null }) },
      { raw: JSON.stringify({ token: '' }) },
      { raw: JSON.stringify({ token: [TOKEN] }) },
      { raw: JSON.stringify({ token: { toString: TOKEN } }) },
      { raw: JSON.stringify({ token: TOKEN, admin: true }) },
      { raw: JSON.stringify([TOKEN]) },
      { raw: JSON.stringify(TOKEN) },
      { raw: 'null' },
      { raw: `{"token": "${TOKEN}"` },
      { raw: JSON.stringify({ token: 'x'.repeat(5000) }) },
      { raw: JSON.stringify({ token: TOKEN }), type: 'text/plain' },
      { raw: `token=${TOKEN}`, type: 'application/x-www-form-urlencoded' },
    ];
    for (const { raw, type } of bodies) {
      const res = await request(d, 'POST', '/api/auth/token', { raw, headers: { 'content-type': type ?? 'application/json' } });
      expect([400, 415], `${type ?? 'json'} ${raw.slice(0, 60)}: ${res.status} ${res.text}`).toContain(res.status);
      if (!type) expect(res.status, raw.slice(0, 60)).toBe(400);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    expect(sessionRows(d.home)).toHaveLength(before);
  });

  it('another local user replaying the cookie gets nothing: control routes refused, no session reported', async () => {
    const { cookie } = await signInHere();
    const headers = { cookie };
    const control = await requestAs(OTHER_UID, `${d.base}${CONTROL}`, { headers });
    expect({ status: control.status, code: codeOf(control) }).toEqual({ status: 401, code: 'auth_required' });
    const prompt = await requestAs(OTHER_UID, `${d.base}/api/control/agents/main/prompt`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"text":"pwn"}' });
    expect(prompt.status).toBe(401);
    const inbox = await requestAs(OTHER_UID, `${d.base}${INBOX}`, { headers });
    expect(inbox.status).toBe(401);
    const session = await requestAs(OTHER_UID, `${d.base}/api/auth/session`, { headers });
    expect({ status: session.status, code: codeOf(session) }).toEqual({ status: 401, code: 'session_required' });
    // Nor can that user sign the console out.
    const logout = await requestAs(OTHER_UID, `${d.base}/api/auth/logout`, { method: 'POST', headers });
    expect(JSON.parse(logout.body).revoked).toBe(false);
    // The owner's cookie still works.
    expect((await request(d, 'GET', CONTROL, withCookie(cookie))).status).toBe(200);
  });

  it('logout revokes the session server-side and clears the cookie', async () => {
    const { cookie } = await signInHere();
    const out = await request(d, 'POST', '/api/auth/logout', withCookie(cookie));
    expect(out.status).toBe(200);
    expect(out.json).toEqual({ ok: true, revoked: true });
    expect(out.headers['set-cookie']).toEqual([`${cookieName(d)}=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict`]);
    expect(status(await request(d, 'GET', CONTROL, withCookie(cookie)))).toEqual({ status: 401, code: 'auth_required' });
    expect((await request(d, 'GET', '/api/auth/session', withCookie(cookie))).status).toBe(401);
    expect((await request(d, 'POST', '/api/auth/logout', withCookie(cookie))).json.revoked).toBe(false);
  });

  it('an event stream opened with a session ends when the session is revoked', async () => {
    const { cookie } = await signInHere();
    const stream = await openStream(d, { cookie });
    expect(stream.status).toBe(200);
    let ended = false;
    void stream.ended.then(() => (ended = true));
    await request(d, 'POST', '/api/auth/logout', withCookie(cookie));
    const deadline = Date.now() + 3000;
    while (!ended && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    stream.close();
    expect(ended, 'the stream was still open 3 s after logout').toBe(true);
  });

  describe('attacks on the cookie', () => {
    it('a tossed cookie of the same name (set by a page on another port) cannot shadow the real session', async () => {
      const { cookie, id } = await signInHere();
      const name = cookieName(d);
      const forged = `${name}=${'A'.repeat(43)}`;
      // Browsers send the cookie with the longer Path first: the forged one leads.
      expect((await request(d, 'GET', CONTROL, withCookie(`${forged}; ${cookie}`))).status).toBe(200);
      expect((await request(d, 'GET', CONTROL, withCookie(`${cookie}; ${forged}`))).status).toBe(200);
      expect((await request(d, 'GET', CONTROL, withCookie(`${name}=; ${cookie}`))).status).toBe(200);
      const session = await request(d, 'GET', '/api/auth/session', withCookie(`${forged}; ${cookie}`));
      expect(session.status).toBe(200);
      // Logout through the shadowing header still ends the real session.
      const out = await request(d, 'POST', '/api/auth/logout', withCookie(`${forged}; ${cookie}`));
      expect(out.json.revoked).toBe(true);
      expect((await request(d, 'GET', CONTROL, withCookie(`${name}=${id}`))).status).toBe(401);
    });

    it('a session id under the cookie name of another port, of the wrong shape, or padded, is refused', async () => {
      const { id } = await signInHere();
      const name = cookieName(d);
      const attempts = [
        `svc_console_${portOf(d) + 1}=${id}`,
        `svc_console_0=${id}`,
        `svc_session=${id}`,
        `${name}=${id}x`,
        `${name}=${id.slice(1)}`,
        `${name}=${id.slice(0, 42)}=`,
        `${name}="${id}x"`,
        `${name}=${'%41'.repeat(43)}`,
        `${name}=${id.toUpperCase() === id ? id.toLowerCase() : id.toUpperCase()}`,
        `${name}=' OR 1=1 --`,
        `${name}=${encodeURIComponent('\u0000'.repeat(43))}`,
      ];
      for (const cookie of attempts) {
        expect(status(await request(d, 'GET', CONTROL, withCookie(cookie))), cookie).toEqual({ status: 401, code: 'auth_required' });
      }
      // A Bearer header carrying the session id is not the token either.
      expect((await request(d, 'GET', CONTROL, { headers: { authorization: `Bearer ${id}` } })).status).toBe(401);
    });

    it('huge cookie headers are refused before any work, and the daemon keeps serving', async () => {
      const { cookie } = await signInHere();
      const huge = await request(d, 'GET', CONTROL, withCookie(`${cookie}; junk=${'x'.repeat(80_000)}`)).catch((e: Error) => ({ status: 0, text: e.message }) as HttpResult);
      expect([0, 431]).toContain(huge.status);
      // Thousands of small cookies just under the header limit: parsed, nothing found in them.
      const many = Array.from({ length: 400 }, (_, i) => `${cookieName(d)}=${String(i).padStart(3, '0')}${'B'.repeat(12)}`).join('; ');
      const t0 = Date.now();
      expect((await request(d, 'GET', CONTROL, withCookie(many))).status).toBe(401);
      expect(Date.now() - t0).toBeLessThan(2000);
      expect((await request(d, 'GET', CONTROL, withCookie(cookie))).status).toBe(200);
    });
  });

  it('neither the token nor a session id ever reaches the log or the database file', async () => {
    await request(d, 'POST', '/api/auth/token', { body: { token: `${TOKEN}-wrong` } });
    await request(d, 'POST', '/api/auth/token', { raw: JSON.stringify({ token: TOKEN, extra: TOKEN }), headers: { 'content-type': 'application/json' } });
    expect(issued.length).toBeGreaterThan(5);
    const logs = d.logs();
    expect(logs).toContain('console signed in with the control token');
    expect(logs).not.toContain(TOKEN);
    const db = databaseBytes(d.home);
    expect(db.includes(TOKEN)).toBe(false);
    for (const id of issued) {
      expect(logs).not.toContain(id);
      expect(db.includes(id)).toBe(false);
    }
    expect(sessionRows(d.home).every((r) => r.issuer.startsWith('svc:control-token:') && !r.issuer.includes(TOKEN))).toBe(true);
  });
});

describe('the sign-in throttle over TCP', () => {
  afterEach(() => pool.killAll());

  it('ten wrong tokens a minute: the 11th attempt is 429 with Retry-After, and the right token too', async () => {
    const d = await bearerDaemon();
    for (let i = 1; i <= 10; i++) {
      const res = await request(d, 'POST', '/api/auth/token', { body: { token: `guess-${i}` } });
      expect(status(res), `attempt ${i}`).toEqual({ status: 401, code: 'auth_required' });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const eleventh = await request(d, 'POST', '/api/auth/token', { body: { token: 'guess-11' } });
    expect(status(eleventh)).toEqual({ status: 429, code: 'overloaded' });
    const retry = Number(eleventh.headers['retry-after']);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    const right = await request(d, 'POST', '/api/auth/token', { body: { token: TOKEN } });
    expect(status(right)).toEqual({ status: 429, code: 'overloaded' });
    expect(right.headers['set-cookie']).toBeUndefined();
    expect(sessionRows(d.home)).toHaveLength(0);
    // The token itself still works as a header: the throttle is about the sign-in form.
    expect((await request(d, 'GET', CONTROL, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  }, 30_000);

  it("another local user's wrong tokens pause that user only: the owner still signs in", async () => {
    const d = await bearerDaemon();
    const signInAs = (token: string) =>
      requestAs(OTHER_UID, `${d.base}/api/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
    for (let i = 1; i <= 12; i++) {
      const res = await signInAs(`guess-${i}`);
      expect({ status: res.status, code: codeOf(res) }, `attempt ${i}`).toEqual(i <= 10 ? { status: 401, code: 'auth_required' } : { status: 429, code: 'overloaded' });
    }
    // The owner's right token signs in at once, and their wrong one is counted for them alone.
    const { id } = await signIn(d);
    expect(id).toMatch(SESSION_ID);
    expect(status(await request(d, 'POST', '/api/auth/token', { body: { token: 'owner-typo' } }))).toEqual({ status: 401, code: 'auth_required' });
    await signIn(d);
    // The other user stays paused, even with the right token.
    const theirs = await signInAs(TOKEN);
    expect({ status: theirs.status, code: codeOf(theirs) }).toEqual({ status: 429, code: 'overloaded' });
    expect(theirs.headers['set-cookie']).toBeUndefined();
  }, 60_000);
});

describe('sessions across restarts', () => {
  afterEach(() => pool.killAll());

  it('a daemon restarted with another token (or none) accepts no cookie of the old one', async () => {
    const home = pool.home();
    const port = await freePort();
    const args = ['--listen', `127.0.0.1:${port}`];
    let d = await bearerDaemon({ home, args });
    const first = await signIn(d);
    await d.stop();

    // Same token: the session survives a restart.
    d = await bearerDaemon({ home, args });
    expect((await request(d, 'GET', CONTROL, withCookie(first.cookie))).status).toBe(200);
    await d.stop();

    d = await bearerDaemon({ home, args, token: OTHER_TOKEN });
    for (const url of [CONTROL, READ, INBOX]) expect(status(await request(d, 'GET', url, withCookie(first.cookie))), url).toEqual({ status: 401, code: 'auth_required' });
    expect((await request(d, 'GET', '/api/auth/session', withCookie(first.cookie))).status).toBe(401);
    expect(sessionRows(home).every((r) => r.revoked_at !== null)).toBe(true);
    const second = await signIn(d, OTHER_TOKEN);
    expect((await request(d, 'GET', CONTROL, withCookie(second.cookie))).status).toBe(200);
    await d.stop();

    // Back to the first token: its old session stays dead.
    d = await bearerDaemon({ home, args });
    expect((await request(d, 'GET', CONTROL, withCookie(first.cookie))).status).toBe(401);
    expect((await request(d, 'GET', CONTROL, withCookie(second.cookie))).status).toBe(401);
    await d.stop();

    // Local mode: there is nothing to sign in with, and every token session is gone.
    d = await pool.start({ home, args, configToml: CONFIG });
    const local = await request(d, 'POST', '/api/auth/token', { body: { token: TOKEN } });
    expect(status(local)).toEqual({ status: 404, code: 'token_sign_in_unavailable' });
    expect(local.headers['set-cookie']).toBeUndefined();
    expect(sessionRows(home)).toHaveLength(0);
  }, 60_000);
});

describe('a sign-in over a non-loopback address of this machine', () => {
  afterEach(() => pool.killAll());
  const lanAddress = Object.values(os.networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

  it('is bound to the signing uid too: the cookie replayed by another local user is refused', async () => {
    if (!lanAddress) throw new Error('this test needs a non-loopback IPv4 address on this machine');
    const port = await freePort();
    const d = await bearerDaemon({ args: ['--listen', `0.0.0.0:${port}`], configToml: `${CONFIG}allowed_hosts = ["${lanAddress}"]\n` });
    const lan = { base: `http://${lanAddress}:${port}` };
    const { cookie } = await signIn(lan);
    const info = await request(lan, 'GET', '/api/auth/session', withCookie(cookie));
    expect(info.json.subject).toBe(`uid:${process.getuid!()}`);
    expect((await request(lan, 'GET', CONTROL, withCookie(cookie))).status).toBe(200);
    const replay = await requestAs(OTHER_UID, `${lan.base}${CONTROL}`, { headers: { cookie } });
    expect({ status: replay.status, code: codeOf(replay) }).toEqual({ status: 401, code: 'auth_required' });
    expect(d.logs()).not.toContain(TOKEN);
  }, 30_000);
});

describe('session lifetime on an injected clock (in-process control plane on a real port)', () => {
  let t: TestServices;
  let app: FastifyInstance;
  let target: { base: string };
  beforeAll(async () => {
    t = testServices({ configToml: `control_token = "${TOKEN}"\n${CONFIG}` });
    app = (await buildControlSurface(t.s)).app;
    await app.listen({ host: '127.0.0.1', port: 0 });
    const addr = app.server.address() as { port: number };
    target = { base: `http://127.0.0.1:${addr.port}` };
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('a session is refused from the moment it expires, and is never extended by use', async () => {
    const { cookie } = await signIn(target);
    t.clock.advance(43_200_000 - 1000);
    expect((await request(target, 'GET', CONTROL, withCookie(cookie))).status).toBe(200);
    t.clock.advance(1000);
    expect(status(await request(target, 'GET', CONTROL, withCookie(cookie)))).toEqual({ status: 401, code: 'auth_required' });
    expect((await request(target, 'GET', '/api/auth/session', withCookie(cookie))).status).toBe(401);
    expect((await request(target, 'POST', '/api/auth/logout', withCookie(cookie))).json.revoked).toBe(false);
  });

  it('a revoked id stays refused, and the throttle opens again after its minute', async () => {
    const { cookie, id } = await signIn(target);
    expect(t.s.tokenSessions!.sessions.revoke(id)).toBe(true);
    expect((await request(target, 'GET', CONTROL, withCookie(cookie))).status).toBe(401);
    for (let i = 0; i < 10; i++) await request(target, 'POST', '/api/auth/token', { body: { token: 'nope' } });
    const throttled = await request(target, 'POST', '/api/auth/token', { body: { token: TOKEN } });
    expect(throttled.status).toBe(429);
    expect(throttled.headers['retry-after']).toBe('60');
    t.clock.advance(59_000);
    expect((await request(target, 'POST', '/api/auth/token', { body: { token: TOKEN } })).headers['retry-after']).toBe('1');
    t.clock.advance(1000);
    const again = await signIn(target);
    expect((await request(target, 'GET', CONTROL, withCookie(again.cookie))).status).toBe(200);
  });
});

/**
 * Browser sign-in with a real OpenID provider (oidc-provider on loopback) against the real
 * daemon, through the real redirects and forms: the session cookie alone authorises what the
 * control token does (a prompt, an event stream); logout, expiry, a subject that is not allowed,
 * a forged cookie, a replayed or transplanted callback are all refused; nothing secret is logged.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonPool, request, type RunningDaemon } from '../helpers/daemon.js';
import { browserFetch, CookieJar, signIn, startProvider, type TestProvider } from '../helpers/oidc-provider.js';
import { freePort } from '../helpers/ports.js';

const TOKEN = 'control-token-for-oidc-tests';
const CLIENT_SECRET = 'client-secret-for-oidc-tests';
const LISTED_ORIGIN = 'http://localhost:5173';
const pool = daemonPool();

function oidcConfig(issuer: string, port: number, clientId: string, secretFile: string | null, extra = ''): string {
  return `log_level = "debug"
[auth]
read_access = "token"
allowed_origins = ["${LISTED_ORIGIN}"]
[auth.oidc]
issuer = "${issuer}"
client_id = "${clientId}"
client_secret_file = "${secretFile ?? ''}"
redirect_url = "http://127.0.0.1:${port}/api/auth/callback"
allowed_subjects = ["alice", "bob"]
allowed_groups = ["svc-operators"]
${extra}`;
}

const cookieOf = (jar: CookieJar) => ({ cookie: `svc_session=${jar.get('svc_session')}` });

/** Open an SSE stream with these headers; resolve with the status, headers and first event id. */
function firstEvent(base: string, urlPath: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; id: string | null; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${urlPath}`, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      let body = '';
      const done = () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, id: /^id: ?(\S+)/m.exec(body)?.[1] ?? null, body });
      };
      if (res.statusCode !== 200) {
        res.on('data', (d) => (body += d));
        res.on('end', done);
        return;
      }
      res.on('data', (d) => {
        body += d;
        if (/^id: /m.test(body)) done();
      });
    });
    req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
    setTimeout(() => {
      req.destroy();
      reject(new Error('no event within 5 s'));
    }, 5000).unref();
  });
}

function sessionRows(home: string): Array<{ subject: string; expires_at: number; revoked_at: number | null }> {
  const db = new Database(path.join(home, 'svc.db'), { readonly: true });
  try {
    return db.prepare('SELECT subject, expires_at, revoked_at FROM auth_sessions').all() as Array<{ subject: string; expires_at: number; revoked_at: number | null }>;
  } finally {
    db.close();
  }
}

let provider: TestProvider;
let d: RunningDaemon;
let base: string;
let localPort: number;

beforeAll(async () => {
  const port = await freePort();
  localPort = await freePort();
  base = `http://127.0.0.1:${port}`;
  provider = await startProvider({
    clients: [
      { clientId: 'svc-confidential', clientSecret: CLIENT_SECRET, redirectUris: [`${base}/api/auth/callback`] },
      { clientId: 'svc-public', clientSecret: '', redirectUris: [`http://127.0.0.1:${localPort}/api/auth/callback`] },
    ],
    groups: { carol: ['svc-operators', 'other'], mallory: ['visitors'] },
  });
  const home = pool.home();
  fs.writeFileSync(path.join(home, 'oidc-secret'), `${CLIENT_SECRET}\n`, { mode: 0o600 });
  d = await pool.start({
    home,
    args: ['--listen', `127.0.0.1:${port}`],
    env: { SVC_TOKEN: TOKEN },
    configToml: oidcConfig(provider.issuer, port, 'svc-confidential', 'oidc-secret'),
  });
}, 30_000);

afterAll(async () => {
  pool.cleanup();
  await provider?.close();
});

describe('OIDC sign-in in bearer mode', () => {
  it('reports oidc from /api/auth/method and the handshake, which keeps auth.mode bearer', async () => {
    expect((await request(d, 'GET', '/api/auth/method')).json).toEqual({ mode: 'oidc' });
    expect((await request(d, 'GET', '/api/handshake')).json.auth).toEqual({ mode: 'bearer', required: true, session: 'oidc' });
  });

  it('signs in through the provider with PKCE S256, state and nonce, and sets an HttpOnly SameSite=Lax cookie', async () => {
    const jar = new CookieJar();
    const { res } = await signIn(jar, base, 'alice', { returnTo: '/api/agents/main/state?x=1' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/api/agents/main/state?x=1');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const session = res.headers.getSetCookie().find((c) => c.startsWith('svc_session='))!;
    expect(session).toMatch(/^svc_session=[A-Za-z0-9_-]{43};/);
    const attrs = session.split(';').slice(1).map((a) => a.trim().toLowerCase());
    expect(attrs).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/']));
    expect(attrs).not.toContain('secure'); // the redirect_url is http
    const maxAge = Number(attrs.find((a) => a.startsWith('max-age='))!.split('=')[1]);
    expect(maxAge).toBeGreaterThan(43_200 - 60);
    expect(maxAge).toBeLessThanOrEqual(43_200);
    // The sign-in binding cookie is dropped once used.
    expect(jar.get('svc_session_login')).toBeUndefined();

    const auth = provider.authorizationRequests.at(-1)!;
    expect(auth.get('code_challenge_method')).toBe('S256');
    expect(auth.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(auth.get('nonce')).toBeTruthy();
    expect(auth.get('state')).toBeTruthy();
    expect(auth.get('redirect_uri')).toBe(`${base}/api/auth/callback`);

    const me = await request(d, 'GET', '/api/auth/session', { headers: cookieOf(jar) });
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ ok: true, subject: 'alice', issuer: provider.issuer });
    expect(Date.parse(me.json.expires_at) - Date.parse(me.json.created_at)).toBe(43_200_000);
  });

  it('the login redirect binds the sign-in to the browser with a short-lived cookie scoped to the callback', async () => {
    const res = await request(d, 'GET', '/api/auth/login?return_to=/api/');
    expect(res.status).toBe(302);
    expect(res.headers.location).toMatch(new RegExp(`^${provider.issuer}/auth\\?`));
    expect(res.headers['cache-control']).toBe('no-store');
    const [cookie] = res.headers['set-cookie']!;
    const attrs = cookie!.split(';').slice(1).map((a) => a.trim().toLowerCase());
    expect(cookie).toMatch(/^svc_session_login=[A-Za-z0-9_-]{43};/);
    expect(attrs.sort()).toEqual(['httponly', 'max-age=600', 'path=/api/auth', 'samesite=lax']);
  });

  it('the session cookie alone sends a prompt and reads an event stream', async () => {
    const jar = new CookieJar();
    await signIn(jar, base, 'alice');
    expect((await request(d, 'POST', '/api/control/agents/main/prompt', { body: { text: 'hi' } })).status).toBe(401);
    const prompt = await request(d, 'POST', '/api/control/agents/main/prompt', { body: { text: 'hi from a browser' }, headers: cookieOf(jar) });
    expect(prompt.status, prompt.text).toBe(202);
    // From the listed origin too, as a web client does (credentials: 'include').
    const fromPage = await request(d, 'POST', '/api/control/agents/main/prompt', { body: { text: 'hi' }, headers: { ...cookieOf(jar), origin: LISTED_ORIGIN } });
    expect(fromPage.status, fromPage.text).toBe(202);
    expect(fromPage.headers['access-control-allow-origin']).toBe(LISTED_ORIGIN);

    // read_access = "token": the stream needs the token, or the session.
    expect((await firstEvent(base, '/api/agents/main/events/stream?after_seq=0', {})).status).toBe(401);
    const stream = await firstEvent(base, '/api/agents/main/events/stream?after_seq=0', { ...cookieOf(jar), origin: LISTED_ORIGIN });
    expect(stream.status, stream.body).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(stream.headers['access-control-allow-origin']).toBe(LISTED_ORIGIN);
    expect(stream.headers['access-control-allow-credentials']).toBe('true');
    expect(stream.id).toMatch(/^\d+$/);
  });

  it('a group listed in allowed_groups admits a subject that is not listed (groups from UserInfo)', async () => {
    const jar = new CookieJar();
    const { res } = await signIn(jar, base, 'carol');
    expect(res.status).toBe(302);
    expect((await request(d, 'GET', '/api/auth/session', { headers: cookieOf(jar) })).json.subject).toBe('carol');
  });

  it('logout revokes the session server-side: the same cookie is then refused', async () => {
    const jar = new CookieJar();
    await signIn(jar, base, 'bob');
    const stolen = cookieOf(jar);
    expect((await request(d, 'GET', '/api/control/runtime/status', { headers: stolen })).status).toBe(200);
    const out = await request(d, 'POST', '/api/auth/logout', { headers: stolen });
    expect(out.json).toEqual({ ok: true, revoked: true });
    expect(out.headers['set-cookie']?.[0]).toMatch(/^svc_session=; Max-Age=0;/);
    const again = await request(d, 'GET', '/api/control/runtime/status', { headers: stolen });
    expect({ status: again.status, code: again.json.code }).toEqual({ status: 401, code: 'auth_required' });
    expect((await request(d, 'GET', '/api/auth/session', { headers: stolen })).json.code).toBe('session_required');
    expect((await request(d, 'POST', '/api/auth/logout', { headers: stolen })).json.revoked).toBe(false);
    expect(sessionRows(d.home).find((r) => r.subject === 'bob')!.revoked_at).not.toBeNull();
  });

  it('an expired session is refused', async () => {
    const jar = new CookieJar();
    await signIn(jar, base, 'bob');
    expect((await request(d, 'GET', '/api/control/runtime/status', { headers: cookieOf(jar) })).status).toBe(200);
    // Move the stored expiry into the past (the daemon runs on the real clock).
    const db = new Database(path.join(d.home, 'svc.db'));
    db.prepare('UPDATE auth_sessions SET expires_at = ? WHERE subject = ? AND revoked_at IS NULL').run(Date.now() - 1, 'bob');
    db.close();
    expect((await request(d, 'GET', '/api/control/runtime/status', { headers: cookieOf(jar) })).status).toBe(401);
    expect((await request(d, 'GET', '/api/auth/session', { headers: cookieOf(jar) })).status).toBe(401);
  });

  it('a subject neither listed nor in a listed group gets 403 and no session', async () => {
    const before = sessionRows(d.home).length;
    const jar = new CookieJar();
    const { res } = await signIn(jar, base, 'mallory');
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('oidc_subject_not_allowed');
    expect(res.headers.getSetCookie().some((c) => /^svc_session=[^;]/.test(c))).toBe(false);
    expect(jar.get('svc_session')).toBeUndefined();
    expect(sessionRows(d.home).length).toBe(before);
  });

  it('a forged or random cookie is refused', async () => {
    for (const value of ['A'.repeat(43), 'not-a-session', `${'x'.repeat(42)}=`, '']) {
      const res = await request(d, 'GET', '/api/control/runtime/status', { headers: { cookie: `svc_session=${value}` } });
      expect(res.status, value).toBe(401);
    }
    const res = await request(d, 'GET', '/api/auth/session', { headers: { cookie: `svc_session=${'B'.repeat(43)}` } });
    expect(res.json.code).toBe('session_required');
  });

  it('a callback is single-use, and only in the browser that started the sign-in', async () => {
    const jar = new CookieJar();
    const { callbackUrl } = await signIn(jar, base, 'alice', { stopAtCallback: true });
    // Another browser (no sign-in binding cookie) presenting the same URL: refused, state consumed.
    const elsewhere = await browserFetch(new CookieJar(), callbackUrl);
    expect(elsewhere.status).toBe(400);
    expect(((await elsewhere.json()) as { code: string }).code).toBe('oidc_state_invalid');
    const original = await browserFetch(jar, callbackUrl);
    expect(original.status).toBe(400);

    const jar2 = new CookieJar();
    const { callbackUrl: url2 } = await signIn(jar2, base, 'alice', { stopAtCallback: true });
    const binding = jar2.get('svc_session_login')!;
    expect((await browserFetch(jar2, url2)).status).toBe(302);
    // Replay, even with the binding cookie put back: the state is gone.
    jar2.set('svc_session_login', binding, '/api/auth');
    const replay = await browserFetch(jar2, url2);
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { code: string }).code).toBe('oidc_state_invalid');
  });

  it('return_to never leads to another origin', async () => {
    for (const [target, expected] of [
      ['https://evil.example/', '/api/'],
      ['//evil.example/x', '/api/'],
      ['/\\evil.example', '/api/'],
      [`${LISTED_ORIGIN}/app?x=1`, `${LISTED_ORIGIN}/app?x=1`],
      ['/api/agents/list', '/api/agents/list'],
    ] as const) {
      const { res } = await signIn(new CookieJar(), base, 'alice', { returnTo: target });
      expect(res.headers.get('location'), target).toBe(expected);
    }
  });

  it('a session is not accepted from an origin that is not listed (another localhost port): the request is refused outright', async () => {
    const jar = new CookieJar();
    await signIn(jar, base, 'alice');
    const res = await request(d, 'POST', '/api/control/agents/main/prompt', { body: { text: 'x' }, headers: { ...cookieOf(jar), origin: 'http://127.0.0.1:9999' } });
    expect({ status: res.status, code: res.json.code }).toEqual({ status: 403, code: 'cross_origin_rejected' });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('the login route is not an open door when the provider answers with an error', async () => {
    const jar = new CookieJar();
    const { callbackUrl } = await signIn(jar, base, 'alice', { stopAtCallback: true });
    const state = new URL(callbackUrl).searchParams.get('state')!;
    const denied = await browserFetch(jar, `${base}/api/auth/callback?error=access_denied&state=${state}&iss=${encodeURIComponent(provider.issuer)}`);
    expect(denied.status).toBe(400);
    expect(((await denied.json()) as { code: string }).code).toBe('oidc_login_failed');
  });

  it('never logs a code, a state, a session id or the client secret', async () => {
    const jar = new CookieJar();
    const { callbackUrl, res } = await signIn(jar, base, 'alice');
    expect(res.status).toBe(302);
    await request(d, 'GET', '/api/auth/session', { headers: cookieOf(jar) });
    const params = new URL(callbackUrl).searchParams;
    const logs = d.logs();
    expect(logs).toContain('/api/auth/callback?***');
    for (const secret of [params.get('code')!, params.get('state')!, jar.get('svc_session')!, CLIENT_SECRET, TOKEN]) {
      expect(logs).not.toContain(secret);
    }
  });
});

describe('OIDC with a public client in local mode', () => {
  let local: RunningDaemon;
  let localBase: string;
  beforeAll(async () => {
    localBase = `http://127.0.0.1:${localPort}`;
    local = await pool.start({ args: ['--listen', `127.0.0.1:${localPort}`], configToml: oidcConfig(provider.issuer, localPort, 'svc-public', null) });
  }, 30_000);

  it('signs in with PKCE only (no client secret)', async () => {
    const jar = new CookieJar();
    const { res } = await signIn(jar, localBase, 'alice');
    expect(res.status).toBe(302);
    expect((await request(local, 'GET', '/api/auth/session', { headers: cookieOf(jar) })).json.subject).toBe('alice');
  });

  it('a web page (a request with an Origin) needs a session; the CLI (no Origin) does not', async () => {
    expect((await request(local, 'GET', '/api/handshake')).json.auth).toEqual({ mode: 'local', required: false, session: 'oidc' });
    expect((await request(local, 'GET', '/api/control/runtime/status')).status).toBe(200);
    const page = await request(local, 'GET', '/api/control/runtime/status', { headers: { origin: LISTED_ORIGIN } });
    expect({ status: page.status, code: page.json.code }).toEqual({ status: 401, code: 'session_required' });
    const loopbackPage = await request(local, 'GET', '/api/agents/list', { headers: { origin: 'http://localhost:3000' } });
    expect({ status: loopbackPage.status, code: loopbackPage.json.code }).toEqual({ status: 403, code: 'cross_origin_rejected' });
    const jar = new CookieJar();
    await signIn(jar, localBase, 'alice');
    const signedIn = await request(local, 'GET', '/api/control/runtime/status', { headers: { origin: LISTED_ORIGIN, ...cookieOf(jar) } });
    expect(signedIn.status).toBe(200);
    // The origin of redirect_url is the daemon's own, even when the request names it by another host.
    const redirectOrigin = { origin: localBase, host: `localhost:${localPort}` };
    expect((await request(local, 'GET', '/api/control/runtime/status', { headers: { ...redirectOrigin, ...cookieOf(jar) } })).status).toBe(200);
    expect((await request(local, 'GET', '/api/control/runtime/status', { headers: { ...redirectOrigin, origin: `http://localhost:${localPort + 1}` } })).status).toBe(403);
    // Open routes stay open.
    expect((await request(local, 'GET', '/api/handshake', { headers: { origin: LISTED_ORIGIN } })).status).toBe(200);
  });
});

describe('OIDC with the provider down and nobody allowed', () => {
  it('starts anyway, warns that every sign-in is refused, and answers 502 when the provider cannot be reached', async () => {
    const deadPort = await freePort();
    const port = await freePort();
    const daemon = await pool.start({
      args: ['--listen', `127.0.0.1:${port}`],
      configToml: `[auth.oidc]\nissuer = "http://127.0.0.1:${deadPort}"\nclient_id = "svc"\nredirect_url = "http://127.0.0.1:${port}/api/auth/callback"\n`,
    });
    expect(daemon.logLines().some((l) => l.level === 40 && /allowed_subjects and allowed_groups are both empty/.test(String(l.msg)))).toBe(true);
    const res = await request(daemon, 'GET', '/api/auth/login');
    expect({ status: res.status, code: res.json.code }).toEqual({ status: 502, code: 'oidc_provider_unavailable' });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('without [auth.oidc] the sign-in routes answer 404 oidc_not_configured and the method stays local', async () => {
    expect((await request(d, 'GET', '/api/auth/method')).json.mode).toBe('oidc');
    const plain = await pool.start();
    expect((await request(plain, 'GET', '/api/auth/method')).json).toEqual({ mode: 'local' });
    for (const [method, url] of [['GET', '/api/auth/login'], ['GET', '/api/auth/callback?code=x&state=y'], ['POST', '/api/auth/logout'], ['GET', '/api/auth/session']]) {
      const res = await request(plain, method!, url!);
      expect({ status: res.status, code: res.json.code }, url).toEqual({ status: 404, code: 'oidc_not_configured' });
    }
  });
});

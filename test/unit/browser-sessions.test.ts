/**
 * Browser sessions and the pieces of the sign-in that need no provider: the session store on the
 * injected clock (lifetime, revocation, the start-up sweep, only hashes stored), return_to
 * checks, the [auth.oidc] configuration checks, and the masking of the callback's query.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { DEFAULT_RETURN_TO, safeReturnTo } from '../../src/auth/return-to.js';
import { normaliseOrigin } from '../../src/core/origins.js';
import { SessionStore } from '../../src/auth/sessions.js';
import { ManualClock } from '../../src/core/clock.js';
import { Store } from '../../src/store/store.js';
import { createBrowserAuth } from '../../src/auth/index.js';
import { createLogger, maskUrl } from '../../src/telemetry/logger.js';

const dirs: string[] = [];
const stores: Store[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-sessions-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function sessionStore(issuer = 'https://id.example', ttlMs = 60_000) {
  const dir = tmp();
  const store = Store.open(path.join(dir, 'svc.db'));
  stores.push(store);
  const clock = new ManualClock();
  return { store, clock, sessions: new SessionStore({ store, clock, issuer, ttlMs }), reopen: (iss: string) => new SessionStore({ store, clock, issuer: iss, ttlMs }) };
}

describe('SessionStore', () => {
  it('a session lives exactly its lifetime and is never extended by use', () => {
    const { clock, sessions } = sessionStore();
    const { id, session } = sessions.create('alice', []);
    expect(session.expiresAt - session.createdAt).toBe(60_000);
    clock.advance(59_999);
    expect(sessions.find(id)?.subject).toBe('alice');
    clock.advance(1);
    expect(sessions.find(id)).toBeNull();
  });

  it('stores only the SHA-256 of the session id', () => {
    const { store, sessions } = sessionStore();
    const { id } = sessions.create('alice', ['ops']);
    const rows = store.db.prepare('SELECT * FROM auth_sessions').all() as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(id);
    expect(rows[0]!.id_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('revocation is immediate and final; unknown and malformed ids find nothing', () => {
    const { sessions } = sessionStore();
    const { id } = sessions.create('alice', []);
    expect(sessions.revoke(id)).toBe(true);
    expect(sessions.find(id)).toBeNull();
    expect(sessions.revoke(id)).toBe(false);
    for (const bad of ['', 'x', 'A'.repeat(43), `${id}x`, id.slice(1)]) expect(sessions.find(bad)).toBeNull();
  });

  it('the start-up sweep revokes sessions of another issuer or no longer allowed, and deletes expired rows', () => {
    const { store, clock, sessions, reopen } = sessionStore();
    const alice = sessions.create('alice', []);
    const carol = sessions.create('carol', ['ops']);
    const old = sessions.create('old', []);
    clock.advance(30_000);
    const dave = sessions.create('dave', []);
    clock.advance(30_000); // the first three are now expired; dave has 30 s left
    expect(sessions.sweep(() => true)).toBe(0);
    expect((store.db.prepare('SELECT COUNT(*) AS n FROM auth_sessions').get() as { n: number }).n).toBe(1);
    for (const s of [alice, carol, old]) expect(sessions.find(s.id)).toBeNull();

    const eve = sessions.create('eve', ['ops']);
    const frank = sessions.create('frank', ['interns']);
    // Groups still allowed keep their sessions; a subject no longer allowed loses its own.
    expect(sessions.sweep((subject, groups) => subject === 'dave' || groups.includes('ops'))).toBe(1);
    expect(sessions.find(dave.id)?.subject).toBe('dave');
    expect(sessions.find(eve.id)?.subject).toBe('eve');
    expect(sessions.find(frank.id)).toBeNull();

    // Another issuer configured: nothing of the old one is honoured, even before the sweep.
    const other = reopen('https://other.example');
    expect(other.find(dave.id)).toBeNull();
    expect(other.sweep(() => true)).toBe(2);
    expect(sessions.find(dave.id)).toBeNull();
  });
});

describe('createBrowserAuth at start-up', () => {
  const oidcToml = (subjects: string) =>
    `[auth.oidc]\nissuer = "https://id.example"\nclient_id = "svc"\nredirect_url = "http://127.0.0.1:8700/api/auth/callback"\nallowed_subjects = [${subjects}]\n`;
  function start(home: string, toml: string, store: Store, clock: ManualClock) {
    fs.writeFileSync(path.join(home, 'config.toml'), toml);
    const lines: string[] = [];
    const auth = createBrowserAuth(loadConfig({ home }, {}), clock, createLogger('info', { write: (l: string) => void lines.push(l) }), store);
    return { auth, lines };
  }

  it('revokes sessions a changed configuration no longer allows, warns when nobody may sign in, and ends all sessions when sign-in is off', () => {
    const home = tmp();
    const store = Store.open(path.join(home, 'svc.db'));
    stores.push(store);
    const clock = new ManualClock();
    const first = start(home, oidcToml('"alice", "bob"'), store, clock);
    const alice = first.auth!.sessions.create('alice', []);
    const bob = first.auth!.sessions.create('bob', []);

    const second = start(home, oidcToml('"alice"'), store, clock);
    expect(second.auth!.sessions.find(alice.id)?.subject).toBe('alice');
    expect(second.auth!.sessions.find(bob.id)).toBeNull();
    expect(second.lines.join('')).toContain('browser sessions revoked');

    const nobody = start(home, oidcToml(''), store, clock);
    expect(nobody.auth!.sessions.find(alice.id)).toBeNull();
    expect(nobody.lines.join('')).toMatch(/allowed_subjects and allowed_groups are both empty/);

    const again = start(home, oidcToml('"alice"'), store, clock);
    const carol = again.auth!.sessions.create('alice', []);
    expect(start(home, '', store, clock).auth).toBeNull();
    expect((store.db.prepare('SELECT COUNT(*) AS n FROM auth_sessions').get() as { n: number }).n).toBe(0);
    expect(start(home, oidcToml('"alice"'), store, clock).auth!.sessions.find(carol.id)).toBeNull();
  });
});

describe('return_to', () => {
  const own = 'http://127.0.0.1:8700';
  const listed = new Set(['https://app.example']);
  it.each([
    [undefined, DEFAULT_RETURN_TO],
    ['/api/agents/list?x=1#y', '/api/agents/list?x=1#y'],
    ['/../../etc', '/etc'],
    ['//evil.example/x', DEFAULT_RETURN_TO],
    ['/\\evil.example', DEFAULT_RETURN_TO],
    ['/a\nb', DEFAULT_RETURN_TO],
    ['https://evil.example/', DEFAULT_RETURN_TO],
    ['javascript:alert(1)', DEFAULT_RETURN_TO],
    ['https://app.example/ui', 'https://app.example/ui'],
    ['HTTPS://APP.EXAMPLE:443/ui', 'https://app.example/ui'],
    ['http://127.0.0.1:8700/api/', DEFAULT_RETURN_TO],
    [`/${'a'.repeat(3000)}`, DEFAULT_RETURN_TO],
  ])('%s -> %s', (value, expected) => {
    expect(safeReturnTo(value, own, listed)).toBe(expected);
  });

  it('normalises origins and refuses what is not one', () => {
    expect(normaliseOrigin('HTTP://LocalHost:5173/')).toBe('http://localhost:5173');
    expect(normaliseOrigin('https://a.example:443')).toBe('https://a.example');
    expect(normaliseOrigin('null')).toBeNull();
    expect(normaliseOrigin('file:///x')).toBeNull();
  });
});

describe('[auth.oidc] configuration', () => {
  const load = (toml: string, files: Record<string, string> = {}) => {
    const home = tmp();
    fs.writeFileSync(path.join(home, 'config.toml'), toml);
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(home, name), text);
    return loadConfig({ home }, {});
  };
  const base = 'client_id = "svc"\nredirect_url = "http://127.0.0.1:8700/api/auth/callback"\n';

  it('is off by default and needs client_id and redirect_url once an issuer is set', () => {
    expect(load('').values.auth.oidc.issuer).toBe('');
    expect(() => load('[auth.oidc]\nissuer = "https://id.example"\n')).toThrow(/auth\.oidc\.(client_id|redirect_url)/);
    expect(() => load(`[auth.oidc]\nissuer = "https://id.example"\n${base}scopes = "profile"\n`)).toThrow(/auth\.oidc\.scopes/);
    expect(() => load(`[auth.oidc]\nissuer = "https://id.example"\nclient_id = "svc"\nredirect_url = "http://x/cb?a=1"\n`)).toThrow(/redirect_url: must not carry a query/);
  });

  it('refuses a plain-http issuer unless it is on this machine', () => {
    expect(() => load(`[auth.oidc]\nissuer = "http://id.example"\n${base}`)).toThrow(/auth\.oidc\.issuer: must be https/);
    expect(load(`[auth.oidc]\nissuer = "http://127.0.0.1:9000"\n${base}`).values.auth.oidc.issuer).toBe('http://127.0.0.1:9000');
  });

  it('bounds the session lifetime', () => {
    expect(() => load(`[auth.oidc]\nsession_ttl_s = 10\n`)).toThrow(/session_ttl_s/);
    expect(() => load(`[auth.oidc]\nsession_ttl_s = 99999999\n`)).toThrow(/session_ttl_s/);
  });

  it('reads the client secret from its file at start; an unreadable or empty file refuses the start', () => {
    const toml = `[auth.oidc]\nissuer = "https://id.example"\n${base}client_secret_file = "secret"\n`;
    expect(load(toml, { secret: ' s3cret\n' }).oidcClientSecret).toBe('s3cret');
    expect(() => load(toml)).toThrow(ConfigError);
    expect(() => load(toml, { secret: '\n' })).toThrow(/OIDC client secret file .* is empty/);
    expect(load(`[auth.oidc]\nissuer = "https://id.example"\n${base}`).oidcClientSecret).toBe('');
  });
});

describe('request-log masking', () => {
  it('drops the query of the sign-in callback (a one-time code and the state)', () => {
    expect(maskUrl('/api/auth/callback?code=abc&state=def')).toBe('/api/auth/callback?***');
    expect(maskUrl('/API/auth/callback/?code=abc')).toBe('/API/auth/callback/?***');
    expect(maskUrl('/api/auth/login?return_to=/x')).toBe('/api/auth/login?return_to=/x');
  });
});

/**
 * The console's control-token sessions (src/auth/token-sessions.ts) on an injected clock: the
 * sign-in throttle, the issuer that ties sessions to one token, the start-up sweeps of the two
 * session families sharing auth_sessions (token and OIDC), the uid a session is bound to, and the
 * end of what a session authorised when it ends.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createBrowserAuth } from '../../src/auth/index.js';
import { SessionStore, TOKEN_ISSUER_PREFIX, type Session } from '../../src/auth/sessions.js';
import { FAILURES_PER_MINUTE, TokenSessions } from '../../src/auth/token-sessions.js';
import { loadConfig } from '../../src/config/load.js';
import { ManualClock, type Clock } from '../../src/core/clock.js';
import { Store } from '../../src/store/store.js';
import { createLogger } from '../../src/telemetry/logger.js';

const TTL = 43_200_000;
const OIDC_ISSUER = 'https://id.example';
const dirs: string[] = [];
const stores: Store[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function setup() {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-token-sessions-'));
  dirs.push(home);
  const store = Store.open(path.join(home, 'svc.db'));
  stores.push(store);
  const clock = new ManualClock();
  const start = (token: string) => TokenSessions.start({ store, clock, token, ttlMs: TTL });
  const oidc = () => new SessionStore({ store, clock, issuer: OIDC_ISSUER, ttlMs: TTL });
  const rows = () => store.db.prepare('SELECT issuer, subject, revoked_at FROM auth_sessions ORDER BY created_at, subject').all() as Array<{ issuer: string; subject: string; revoked_at: number | null }>;
  return { home, store, clock, start, oidc, rows };
}

describe('the sign-in throttle', () => {
  const PEER = 'uid:1000';
  it(`allows ${FAILURES_PER_MINUTE} failures a minute, then refuses until the minute is over, then opens again`, () => {
    const { clock, start } = setup();
    const t = start('tok')!;
    expect(t.throttledForMs(PEER)).toBe(0);
    for (let i = 0; i < FAILURES_PER_MINUTE - 1; i++) {
      t.recordFailure(PEER);
      clock.advance(1000);
    }
    expect(t.throttledForMs(PEER)).toBe(0);
    t.recordFailure(PEER); // the 10th, 9 s into the window
    expect(t.throttledForMs(PEER)).toBe(51_000);
    clock.advance(50_999);
    expect(t.throttledForMs(PEER)).toBe(1);
    clock.advance(1);
    expect(t.throttledForMs(PEER)).toBe(0);

    // A new window: one failure does not throttle, ten do again, for the rest of that minute.
    t.recordFailure(PEER);
    expect(t.throttledForMs(PEER)).toBe(0);
    for (let i = 1; i < FAILURES_PER_MINUTE; i++) t.recordFailure(PEER);
    expect(t.throttledForMs(PEER)).toBe(60_000);
    // More failures while throttled do not extend the pause beyond the minute.
    for (let i = 0; i < 100; i++) t.recordFailure(PEER);
    clock.advance(30_000);
    expect(t.throttledForMs(PEER)).toBe(30_000);
    clock.advance(30_000);
    expect(t.throttledForMs(PEER)).toBe(0);
  });

  it('failures spread over more than a minute never throttle', () => {
    const { clock, start } = setup();
    const t = start('tok')!;
    for (let i = 0; i < 5 * FAILURES_PER_MINUTE; i++) {
      t.recordFailure(PEER);
      expect(t.throttledForMs(PEER), `failure ${i + 1}`).toBe(0);
      clock.advance(6_700); // the 10th comes 60.3 s after the first
    }
  });

  it('counts each peer on its own: one peer throttled leaves the others free', () => {
    const { clock, start } = setup();
    const t = start('tok')!;
    for (let i = 0; i < 3 * FAILURES_PER_MINUTE; i++) t.recordFailure('uid:65534');
    expect(t.throttledForMs('uid:65534')).toBe(60_000);
    expect(t.throttledForMs(PEER)).toBe(0);
    expect(t.throttledForMs('address:10.0.0.9')).toBe(0);
    t.recordFailure(PEER);
    clock.advance(60_000);
    expect(t.throttledForMs('uid:65534')).toBe(0);
  });
});

describe('TokenSessions.start', () => {
  it('binds a session to the uid that signed in, or to nobody', () => {
    const t = setup().start('tok')!;
    const bound = t.create(1000);
    expect(bound.session.subject).toBe('uid:1000');
    expect(TokenSessions.boundUid(bound.session)).toBe(1000);
    expect(TokenSessions.boundUid(t.create(0).session)).toBe(0);
    const unbound = t.create(null);
    expect(unbound.session.subject).toBe('remote');
    expect(TokenSessions.boundUid(unbound.session)).toBeNull();
    expect(bound.session.issuer.startsWith(TOKEN_ISSUER_PREFIX)).toBe(true);
    expect(bound.session.expiresAt - bound.session.createdAt).toBe(TTL);
  });

  it.each([
    ['uid:42', 42],
    ['uid:0', 0],
    ['remote', null],
    ['uid:', null],
    ['uid:-1', null],
    ['uid:1.5', null],
    ['uid:12a', null],
    ['uid: 12', null],
    ['xuid:12', null],
    ['uid:12\n', null],
    ['UID:12', null],
  ])('boundUid(%j) = %s', (subject, uid) => {
    const session: Session = { subject, issuer: `${TOKEN_ISSUER_PREFIX}x`, groups: [], createdAt: 0, expiresAt: 1 };
    expect(TokenSessions.boundUid(session)).toBe(uid);
  });

  it('with the same token keeps the sessions; with another token revokes them; with none deletes them', () => {
    const { start, rows } = setup();
    const first = start('token-one')!;
    const a = first.create(1000);
    const again = start('token-one')!;
    expect(again.sessions.find(a.id)?.subject).toBe('uid:1000');

    const other = start('token-two')!;
    // Refused at once (another issuer), and revoked for good by the start-up sweep.
    expect(other.sessions.find(a.id)).toBeNull();
    expect(rows()).toHaveLength(1);
    expect(rows()[0]!.revoked_at).not.toBeNull();
    expect(start('token-one')!.sessions.find(a.id)).toBeNull();

    const b = other.create(1000);
    expect(start('')).toBeNull();
    expect(rows()).toHaveLength(0);
    expect(start('token-two')!.sessions.find(b.id)).toBeNull();
  });

  it('the issuer names a fingerprint of the token, never the token', () => {
    const { start, store } = setup();
    const token = 'a-very-recognisable-control-token';
    const { session } = start(token)!.create(1);
    expect(session.issuer).toMatch(/^svc:control-token:[0-9a-f]{16}$/);
    expect(session.issuer).not.toBe(start('another-token')!.create(1).session.issuer);
    expect(JSON.stringify(store.db.prepare('SELECT * FROM auth_sessions').all())).not.toContain(token);
  });
});

describe('the two session families in one table', () => {
  it("each family's start-up sweep leaves the other's sessions alone", () => {
    const { store, clock, start, oidc, rows } = setup();
    const token = start('tok')!;
    const consoleSession = token.create(1000);
    const alice = oidc().create('alice', []);

    // An OIDC configuration that allows nobody revokes its own sessions only.
    expect(oidc().sweep(() => false)).toBe(1);
    expect(token.sessions.find(consoleSession.id)).not.toBeNull();
    // Another OIDC issuer: the same.
    const bob = oidc().create('bob', []);
    expect(new SessionStore({ store, clock, issuer: 'https://other.example', ttlMs: TTL }).sweep(() => true)).toBe(1);
    expect(token.sessions.find(consoleSession.id)).not.toBeNull();

    // A token start (another token) revokes token sessions only; local mode deletes token rows only.
    const carol = oidc().create('carol', []);
    start('another')!;
    expect(oidc().find(carol.id)?.subject).toBe('carol');
    expect(start('')).toBeNull();
    expect(oidc().find(carol.id)?.subject).toBe('carol');
    expect(rows().map((r) => r.subject)).toEqual(['alice', 'bob', 'carol']);
    expect(oidc().find(alice.id)).toBeNull();
    expect(oidc().find(bob.id)).toBeNull();
  });

  it('turning OIDC off deletes the OIDC sessions and keeps the console sessions', () => {
    const { home, store, clock, start, oidc, rows } = setup();
    const token = start('tok')!;
    const consoleSession = token.create(1000);
    oidc().create('alice', []);
    const logger = createLogger('silent');
    expect(createBrowserAuth(loadConfig({ home }, {}), clock, logger, store)).toBeNull();
    expect(rows().map((r) => r.subject)).toEqual(['uid:1000']);
    expect(start('tok')!.sessions.find(consoleSession.id)?.subject).toBe('uid:1000');

    // And an OIDC start-up (sweep against its allow-list) leaves it alone too.
    fs.writeFileSync(
      path.join(home, 'config.toml'),
      `[auth.oidc]\nissuer = "${OIDC_ISSUER}"\nclient_id = "svc"\nredirect_url = "http://127.0.0.1:8700/api/auth/callback"\nallowed_subjects = []\n`,
    );
    expect(createBrowserAuth(loadConfig({ home }, {}), clock, logger, store)).not.toBeNull();
    expect(token.sessions.find(consoleSession.id)?.subject).toBe('uid:1000');
  });
});

describe('what a session authorised ends with it', () => {
  const systemClock: Clock = { now: () => Date.now() };

  it('at revocation, at expiry, and not once the watcher stopped', async () => {
    const { store } = setup();
    const sessions = new SessionStore({ store, clock: systemClock, issuer: `${TOKEN_ISSUER_PREFIX}x`, ttlMs: 150 });
    const ended: string[] = [];
    const revoked = sessions.create('uid:1', []);
    sessions.watch(revoked.id, revoked.session.expiresAt, () => ended.push('revoked'));
    const expiring = sessions.create('uid:1', []);
    sessions.watch(expiring.id, expiring.session.expiresAt, () => ended.push('expired'));
    const finished = sessions.create('uid:1', []);
    const stop = sessions.watch(finished.id, finished.session.expiresAt, () => ended.push('finished'));
    stop();

    expect(sessions.revoke(revoked.id)).toBe(true);
    expect(ended).toEqual(['revoked']);
    expect(sessions.revoke(revoked.id)).toBe(false);
    await new Promise((r) => setTimeout(r, 300));
    expect(ended).toEqual(['revoked', 'expired']);
    sessions.revoke(finished.id);
    expect(ended).toEqual(['revoked', 'expired']);
  });

  it('at a sweep that revokes it', () => {
    const { oidc } = setup();
    const sessions = oidc();
    const { id, session } = sessions.create('alice', []);
    const ended: string[] = [];
    sessions.watch(id, session.expiresAt, () => ended.push('alice'));
    expect(sessions.sweep(() => true)).toBe(0);
    expect(ended).toEqual([]);
    expect(sessions.sweep(() => false)).toBe(1);
    expect(ended).toEqual(['alice']);
  });
});

/**
 * Browser sessions (spec/control-plane.md Authentication item 3): created by an OpenID sign-in,
 * presented as a cookie, checked on every request. Server-side, so a session is revocable: the
 * cookie holds a random id, the database only its SHA-256. A session has a fixed lifetime and is
 * never extended. It stays valid only while its grant holds: the same issuer, and a subject or a
 * group the current configuration still allows (checked at start, when configuration changes).
 */
import { createHash, randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Clock } from '../core/index.js';
import type { Store } from '../store/index.js';

export interface Session {
  subject: string;
  issuer: string;
  /** Allowed groups the subject belonged to at sign-in. */
  groups: string[];
  createdAt: number;
  expiresAt: number;
}

export interface SessionStoreDeps {
  store: Store;
  clock: Clock;
  issuer: string;
  ttlMs: number;
}

interface Row {
  issuer: string;
  subject: string;
  groups: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** 256 random bits: unguessable, and the only credential a cookie carries. */
const newSessionId = () => randomBytes(32).toString('base64url');
const hashOf = (id: string) => createHash('sha256').update(id).digest('hex');
/** What a cookie value may look like; anything else is refused before any lookup. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/** setTimeout's longest delay; a longer wait is made of several. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class SessionStore {
  private readonly stmt: ReturnType<typeof prepare>;
  /** What to end when a session ends (by id hash): the responses it authorised that are still open. */
  private readonly watchers = new Map<string, Set<() => void>>();

  constructor(private readonly deps: SessionStoreDeps) {
    this.stmt = prepare(deps.store.db);
  }

  get ttlMs(): number {
    return this.deps.ttlMs;
  }

  /** A new session; the returned id goes into the cookie and is not kept anywhere. */
  create(subject: string, groups: string[]): { id: string; session: Session } {
    const now = this.deps.clock.now();
    const id = newSessionId();
    const session: Session = { subject, issuer: this.deps.issuer, groups, createdAt: now, expiresAt: now + this.deps.ttlMs };
    this.deps.store.tx(() => {
      this.stmt.deleteExpired.run(now);
      this.stmt.insert.run({
        id_hash: hashOf(id),
        issuer: session.issuer,
        subject,
        groups: JSON.stringify(groups),
        created_at: now,
        expires_at: session.expiresAt,
      });
    });
    return { id, session };
  }

  /** The live session of a cookie value, or null (unknown, revoked, expired, other issuer). */
  find(id: string): Session | null {
    if (!SESSION_ID.test(id)) return null;
    const row = this.stmt.get.get(hashOf(id)) as Row | undefined;
    if (!row || row.revoked_at !== null || row.issuer !== this.deps.issuer) return null;
    if (row.expires_at <= this.deps.clock.now()) return null;
    return toSession(row);
  }

  /** Revoke a session (logout); true when a live one was revoked. */
  revoke(id: string): boolean {
    if (!SESSION_ID.test(id)) return false;
    const hash = hashOf(id);
    if (this.stmt.revoke.run(this.deps.clock.now(), hash).changes === 0) return false;
    this.ended(hash);
    return true;
  }

  /**
   * Calls `onEnd` once if the session ends while something it authorised is still going (an event
   * stream is checked once, when it opens): at its revocation or at its expiry. Returns the
   * function that stops watching, for when that thing is over.
   */
  watch(id: string, expiresAt: number, onEnd: () => void): () => void {
    const hash = hashOf(id);
    const set = this.watchers.get(hash) ?? new Set<() => void>();
    this.watchers.set(hash, set);
    let timer: NodeJS.Timeout | undefined;
    const stop = () => {
      clearTimeout(timer);
      set.delete(end);
      if (set.size === 0 && this.watchers.get(hash) === set) this.watchers.delete(hash);
    };
    const end = () => {
      stop();
      onEnd();
    };
    const arm = () => {
      const left = expiresAt - this.deps.clock.now();
      if (left <= 0) return end();
      timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS)).unref();
    };
    set.add(end);
    arm();
    return stop;
  }

  private ended(hash: string): void {
    for (const end of [...(this.watchers.get(hash) ?? [])]) end();
  }

  /**
   * Start-up sweep: expired rows go; sessions of another issuer or whose grant the configuration
   * no longer allows are revoked. Returns how many were revoked.
   */
  sweep(allowed: (subject: string, groups: string[]) => boolean): number {
    const now = this.deps.clock.now();
    return this.deps.store.tx(() => {
      this.stmt.deleteExpired.run(now);
      let revoked = 0;
      for (const row of this.stmt.live.all() as Array<Row & { id_hash: string }>) {
        if (isTokenIssuer(row.issuer) !== isTokenIssuer(this.deps.issuer)) continue; // the other family's
        if (row.issuer === this.deps.issuer && allowed(row.subject, toSession(row).groups)) continue;
        if (this.stmt.revoke.run(now, row.id_hash).changes === 0) continue;
        revoked += 1;
        this.ended(row.id_hash);
      }
      return revoked;
    });
  }
}

/**
 * Two families share the table: OIDC sessions (issuer = the provider's URL) and the console's
 * control-token sessions (src/auth/token-sessions.ts, issuer `svc:control-token:…`). Each family's
 * start-up sweep leaves the other's rows alone.
 */
export const TOKEN_ISSUER_PREFIX = 'svc:control-token:';
export const isTokenIssuer = (issuer: string) => issuer.startsWith(TOKEN_ISSUER_PREFIX);

function toSession(row: Row): Session {
  return { subject: row.subject, issuer: row.issuer, groups: JSON.parse(row.groups) as string[], createdAt: row.created_at, expiresAt: row.expires_at };
}

function prepare(db: Database.Database) {
  return {
    insert: db.prepare(
      'INSERT INTO auth_sessions (id_hash, issuer, subject, groups, created_at, expires_at) VALUES (@id_hash, @issuer, @subject, @groups, @created_at, @expires_at)',
    ),
    get: db.prepare('SELECT issuer, subject, groups, created_at, expires_at, revoked_at FROM auth_sessions WHERE id_hash = ?'),
    revoke: db.prepare('UPDATE auth_sessions SET revoked_at = ? WHERE id_hash = ? AND revoked_at IS NULL'),
    live: db.prepare('SELECT id_hash, issuer, subject, groups, created_at, expires_at, revoked_at FROM auth_sessions WHERE revoked_at IS NULL'),
    deleteExpired: db.prepare('DELETE FROM auth_sessions WHERE expires_at <= ?'),
  };
}

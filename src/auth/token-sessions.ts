/**
 * The console's sign-in with the control token (bearer mode). A browser cannot attach
 * `Authorization` to an EventSource or keep a token anywhere safe, so it posts the token once
 * (POST /api/auth/token) and receives an HttpOnly session cookie: the browser stores nothing but
 * that session, and the server only the SHA-256 of its id (src/auth/sessions.ts).
 *
 * - A session is valid only for the token it was made with: the issuer carries a fingerprint of
 *   the token, so a new token (or none) ends every session of the old one at the next start.
 * - A session signed in by a process of a known user of this machine (over loopback or another of
 *   its addresses) is bound to that uid: cookies ignore ports, so a server of another local user on
 *   another port of the same host could receive the cookie from the browser; replayed from that
 *   user's connection it is worth nothing.
 * - Failed sign-ins are throttled (FAILURES_PER_MINUTE), so the token cannot be guessed online.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import type { Store } from '../store/store.js';
import { SessionStore, TOKEN_ISSUER_PREFIX, type Session } from './sessions.js';

/** Failed sign-ins allowed per minute before the route answers 429 until the minute is over. */
export const FAILURES_PER_MINUTE = 10;
const WINDOW_MS = 60_000;

export interface TokenSessionsDeps {
  store: Store;
  clock: Clock;
  /** The control token; '' = local mode, where there is nothing to sign in with. */
  token: string;
  ttlMs: number;
}

const fingerprint = (token: string) => createHash('sha256').update(`svc console session\0${token}`).digest('hex').slice(0, 16);
const UID_SUBJECT = /^uid:(\d+)$/;

export class TokenSessions {
  readonly sessions: SessionStore;
  private windowStart = 0;
  private failures = 0;

  private constructor(private readonly deps: TokenSessionsDeps) {
    this.sessions = new SessionStore({ store: deps.store, clock: deps.clock, issuer: TOKEN_ISSUER_PREFIX + fingerprint(deps.token), ttlMs: deps.ttlMs });
  }

  /** Null in local mode; either way the sessions of any other token are gone afterwards. */
  static start(deps: TokenSessionsDeps): TokenSessions | null {
    if (!deps.token) {
      deps.store.db.prepare('DELETE FROM auth_sessions WHERE substr(issuer, 1, length(?)) = ?').run(TOKEN_ISSUER_PREFIX, TOKEN_ISSUER_PREFIX);
      return null;
    }
    const t = new TokenSessions(deps);
    t.sessions.sweep(() => true);
    return t;
  }

  /** Milliseconds until sign-in is possible again after too many failures, else 0. */
  throttledForMs(): number {
    const now = this.deps.clock.now();
    if (now - this.windowStart >= WINDOW_MS) return 0;
    return this.failures >= FAILURES_PER_MINUTE ? this.windowStart + WINDOW_MS - now : 0;
  }

  recordFailure(): void {
    const now = this.deps.clock.now();
    if (now - this.windowStart >= WINDOW_MS) {
      this.windowStart = now;
      this.failures = 0;
    }
    this.failures += 1;
  }

  /** A session for a browser that presented the right token; `uid` binds it (null: unbound). */
  create(uid: number | null): { id: string; session: Session } {
    return this.sessions.create(uid === null ? 'remote' : `uid:${uid}`, []);
  }

  /** The uid a session is bound to, null when unbound. */
  static boundUid(session: Session): number | null {
    const m = UID_SUBJECT.exec(session.subject);
    return m ? Number(m[1]) : null;
  }
}

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
 * - Failed sign-ins are throttled (FAILURES_PER_MINUTE) per peer: per local user (uid) on this
 *   machine's connections, per address (an IPv6 one by its /64) for other hosts. The token cannot be
 *   guessed online, and another user's wrong tries never lock the owner out.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../core/index.js';
import type { Store } from '../store/index.js';
import { SessionStore, TOKEN_ISSUER_PREFIX, type Session } from './sessions.js';

/** Failed sign-ins allowed per minute and peer before the route answers 429 until the minute is over. */
export const FAILURES_PER_MINUTE = 10;
const WINDOW_MS = 60_000;
/** Peers remembered before windows that are over are dropped (each is a few dozen bytes). */
const PRUNE_AT = 10_000;

interface FailureWindow {
  start: number;
  failures: number;
}

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
  /** By peer (src/core/peer-user.ts peerKey): the current minute's failures. */
  private readonly windows = new Map<string, FailureWindow>();

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

  /** Milliseconds until this peer may sign in again after too many failures, else 0. */
  throttledForMs(peer: string): number {
    const now = this.deps.clock.now();
    const w = this.windows.get(peer);
    if (!w || now - w.start >= WINDOW_MS) return 0;
    return w.failures >= FAILURES_PER_MINUTE ? w.start + WINDOW_MS - now : 0;
  }

  recordFailure(peer: string): void {
    const now = this.deps.clock.now();
    let w = this.windows.get(peer);
    if (!w || now - w.start >= WINDOW_MS) {
      if (!w && this.windows.size >= PRUNE_AT) this.prune(now);
      w = { start: now, failures: 0 };
      this.windows.set(peer, w);
    }
    w.failures += 1;
  }

  /** Forgets the peers whose minute is over: many addresses cannot grow the map without end. */
  private prune(now: number): void {
    for (const [peer, w] of this.windows) if (now - w.start >= WINDOW_MS) this.windows.delete(peer);
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

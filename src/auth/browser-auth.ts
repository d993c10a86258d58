/**
 * Browser authentication (spec/control-plane.md Authentication item 3), built from
 * `[auth.oidc]`: null when no issuer is configured. Start-up checks live here: the sweep of
 * sessions the configuration no longer allows, and warnings for settings that lock everyone out.
 */
import type { Logger } from 'pino';
import type { ResolvedConfig } from '../config/index.js';
import { type Clock, normaliseOrigin } from '../core/index.js';
import type { Store } from '../store/index.js';
import { isLoopbackUrl, OidcLogin } from './oidc.js';
import { SessionStore, TOKEN_ISSUER_PREFIX } from './sessions.js';

export interface BrowserAuth {
  oidc: OidcLogin;
  sessions: SessionStore;
  cookieName: string;
  /** Cookies carry `Secure` (the daemon is reached over https). */
  secureCookies: boolean;
  /** Origins whose requests may use a session: auth.allowed_origins and the daemon's own. */
  sessionOrigins: ReadonlySet<string>;
}

export function createBrowserAuth(config: ResolvedConfig, clock: Clock, logger: Logger, store: Store): BrowserAuth | null {
  const o = config.values.auth.oidc;
  if (!o.issuer) {
    // Sign-in turned off ends every session: none may come back to life when it is turned on.
    store.db.prepare("DELETE FROM auth_sessions WHERE substr(issuer, 1, length(?)) <> ?").run(TOKEN_ISSUER_PREFIX, TOKEN_ISSUER_PREFIX);
    return null;
  }
  const listedOrigins = listOrigins(config.values.auth.allowed_origins);
  const sessions = new SessionStore({ store, clock, issuer: o.issuer, ttlMs: o.session_ttl_s * 1000 });
  const oidc = new OidcLogin({
    settings: {
      issuer: o.issuer,
      clientId: o.client_id,
      clientSecret: config.oidcClientSecret,
      redirectUrl: o.redirect_url,
      allowedSubjects: o.allowed_subjects,
      allowedGroups: o.allowed_groups,
      scopes: o.scopes,
    },
    clock,
    logger,
    sessions,
    listedOrigins,
  });
  if (o.allowed_subjects.length === 0 && o.allowed_groups.length === 0) {
    logger.warn('auth.oidc: allowed_subjects and allowed_groups are both empty, so every sign-in is refused; list who may sign in');
  }
  const callbackHost = new URL(o.redirect_url).hostname.toLowerCase();
  const hosts = config.values.auth.allowed_hosts.map((h) => h.toLowerCase().replace(/:\d+$/, ''));
  if (!isLoopbackUrl(o.redirect_url) && !hosts.includes(callbackHost)) {
    logger.warn({ host: callbackHost }, 'auth.oidc.redirect_url names a host that is not in auth.allowed_hosts: the provider\'s redirect back will be refused (host_not_allowed)');
  }
  const revoked = sessions.sweep((subject, groups) => oidc.allows(subject, groups));
  if (revoked > 0) logger.info({ revoked }, 'browser sessions revoked: no longer allowed by auth.oidc');
  return {
    oidc,
    sessions,
    cookieName: o.cookie_name,
    secureCookies: new URL(o.redirect_url).protocol === 'https:',
    sessionOrigins: new Set([...listedOrigins, oidc.ownOrigin]),
  };
}

/** auth.allowed_origins, normalised; entries that are not http(s) origins never match. */
export function listOrigins(origins: string[]): Set<string> {
  return new Set(origins.map(normaliseOrigin).filter((o): o is string => o !== null));
}

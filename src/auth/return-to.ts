/**
 * Where the browser goes after signing in. Only places svc trusts: a path on the daemon's own
 * origin (the origin of auth.oidc.redirect_url), or a URL on an origin listed in
 * auth.allowed_origins (a web client served elsewhere). Anything else is ignored, so
 * /api/auth/login can never be used as an open redirect.
 */
import { normaliseOrigin } from '../core/index.js';

export const DEFAULT_RETURN_TO = '/api/';
/** Longest return_to kept (a bound on what the server stores per pending sign-in). */
const MAX_LENGTH = 2048;

export function safeReturnTo(value: string | undefined, ownOrigin: string, listedOrigins: ReadonlySet<string>): string {
  // eslint-disable-next-line no-control-regex
  if (!value || value.length > MAX_LENGTH || /[\u0000-\u001f\u007f\\]/.test(value)) return DEFAULT_RETURN_TO;
  if (value.startsWith('/')) {
    // `//host` and `/\host` are protocol-relative: another origin in disguise.
    if (value.startsWith('//')) return DEFAULT_RETURN_TO;
    const url = new URL(value, ownOrigin);
    return url.origin === ownOrigin ? url.pathname + url.search + url.hash : DEFAULT_RETURN_TO;
  }
  const origin = normaliseOrigin(value);
  return origin !== null && listedOrigins.has(origin) ? new URL(value).href : DEFAULT_RETURN_TO;
}

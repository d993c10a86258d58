/** Browser sign-in: OpenID Connect, server-side sessions, token sessions, `return_to` (see README.md). */
export * from './browser-auth.js';
export { PENDING_TTL_MS } from './oidc.js';
export * from './sessions.js';
export * from './token-sessions.js';

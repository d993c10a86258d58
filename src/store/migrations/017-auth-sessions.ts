import type { Migration } from './types.js';

/**
 * Browser sessions from an OpenID sign-in (src/auth/sessions.ts). The session id itself is never
 * stored: `id_hash` is its SHA-256 (hex), so a copy of the database authorises nothing.
 * `issuer` is the provider that vouched for `subject`; `groups` (JSON array) are the allowed
 * groups the subject belonged to at sign-in, kept to re-check the grant when the configuration
 * changes. Rows are deleted once past `expires_at` (revoked ones too).
 */
export const authSessions: Migration = {
  version: 17,
  name: 'auth_sessions',
  up: `
CREATE TABLE auth_sessions (
  id_hash    TEXT PRIMARY KEY,
  issuer     TEXT NOT NULL,
  subject    TEXT NOT NULL,
  groups     TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  revoked_at INTEGER
) WITHOUT ROWID;
CREATE INDEX auth_sessions_expiry ON auth_sessions (expires_at);
`,
};

import { z } from 'zod';

export const LoginQuery = z
  .strictObject({
    return_to: z
      .string()
      .optional()
      .openapi({ description: 'Where to go after signing in: a path on this daemon, or a URL on an origin listed in auth.allowed_origins; anything else is ignored (default /api/)' }),
  })
  .openapi('LoginQuery');

/** What an OpenID provider may add to its redirect (RFC 6749 4.1.2, RFC 9207, OpenID Session Management). */
export const CallbackQuery = z
  .object({
    code: z.string().optional(),
    state: z.string().optional(),
    iss: z.string().optional(),
    session_state: z.string().optional(),
    error: z.string().optional(),
    error_description: z.string().optional(),
    error_uri: z.string().optional(),
  })
  .openapi('CallbackQuery');

export const SessionInfo = z
  .object({
    ok: z.literal(true),
    kind: z.enum(['oidc', 'token']).openapi({ description: 'oidc: an OpenID sign-in; token: the console signed in with the control token' }),
    subject: z.string().openapi({ description: 'The `sub` of the signed-in account (oidc); `uid:N` or `remote` (token: whom the session is bound to)' }),
    issuer: z.string().openapi({ description: "The provider's issuer URL (oidc); `control-token` (token)" }),
    created_at: z.string(),
    expires_at: z.string().openapi({ description: 'Fixed at sign-in; a session is never extended' }),
  })
  .openapi('SessionInfo');

export const LogoutResponse = z
  .object({ ok: z.literal(true), revoked: z.boolean().openapi({ description: 'Whether a live session was revoked' }) })
  .openapi('LogoutResponse');

export const TokenLoginBody = z
  .strictObject({ token: z.string().min(1).max(4096).openapi({ description: 'The control token' }) })
  .openapi('TokenLoginBody');

export const TokenLoginResponse = z
  .object({ ok: z.literal(true), expires_at: z.string().openapi({ description: 'Fixed at sign-in; a session is never extended' }) })
  .openapi('TokenLoginResponse');

/**
 * Browser sign-in with an OpenID provider: the authorization code flow with PKCE (S256), a
 * single-use `state` and an ID token `nonce`, through `openid-client` (discovery, token exchange,
 * ID token validation). A finished sign-in whose subject or groups are allowed becomes a
 * server-side session (sessions.ts). Pending sign-ins live in memory for a few minutes; each is
 * bound to the browser that started it by a random value kept in a short-lived cookie, so a
 * callback URL cannot be replayed in another browser (login CSRF). Never logs a code, a token,
 * a state or a secret.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import type * as OpenidClient from 'openid-client';
import { type Clock, AppError, errors } from '../core/index.js';
import { safeReturnTo } from './return-to.js';
import type { Session, SessionStore } from './sessions.js';

export interface OidcSettings {
  issuer: string;
  clientId: string;
  /** '' = public client: PKCE is the only proof at the token endpoint. */
  clientSecret: string;
  redirectUrl: string;
  allowedSubjects: string[];
  allowedGroups: string[];
  scopes: string;
}

export interface OidcLoginDeps {
  settings: OidcSettings;
  clock: Clock;
  logger: Logger;
  sessions: SessionStore;
  /** Normalised origins of auth.allowed_origins (return_to may point there). */
  listedOrigins: ReadonlySet<string>;
}

interface PendingLogin {
  nonce: string;
  codeVerifier: string;
  bindingHash: Buffer;
  returnTo: string;
  expiresAt: number;
}

/** How long a started sign-in may take at the provider. */
export const PENDING_TTL_MS = 10 * 60_000;
/** Pending sign-ins kept at most (the login route is open): the oldest is dropped past it. */
export const MAX_PENDING = 1000;
/** Seconds openid-client waits for the provider (discovery, token, userinfo). */
const PROVIDER_TIMEOUT_S = 10;

const digest = (s: string) => createHash('sha256').update(s).digest();

type Library = typeof OpenidClient;
let library: Library | null = null;
let loading: Promise<Library> | null = null;

/** openid-client (with jose) is loaded by the first sign-in, not by every daemon start. */
function openidClient(): Promise<Library> {
  loading ??= import('openid-client').then((lib) => (library = lib));
  return loading;
}

export class OidcLogin {
  private readonly pending = new Map<string, PendingLogin>();
  private configuration: Promise<OpenidClient.Configuration> | null = null;
  readonly ownOrigin: string;

  constructor(private readonly deps: OidcLoginDeps) {
    this.ownOrigin = new URL(deps.settings.redirectUrl).origin;
  }

  get settings(): OidcSettings {
    return this.deps.settings;
  }

  /** Whether the configuration lets this subject (or one of these groups) in. */
  allows(subject: string, groups: string[]): boolean {
    const { allowedSubjects, allowedGroups } = this.deps.settings;
    return allowedSubjects.includes(subject) || groups.some((g) => allowedGroups.includes(g));
  }

  /**
   * Start a sign-in: the provider's authorization URL to redirect to, and the browser-binding
   * value for the sign-in cookie.
   */
  async begin(returnTo: string | undefined): Promise<{ url: string; binding: string }> {
    const config = await this.provider();
    const oidc = await openidClient();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const binding = randomBytes(32).toString('base64url');
    this.remember(state, {
      nonce,
      codeVerifier,
      bindingHash: digest(binding),
      returnTo: safeReturnTo(returnTo, this.ownOrigin, this.deps.listedOrigins),
      expiresAt: this.deps.clock.now() + PENDING_TTL_MS,
    });
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.deps.settings.redirectUrl,
      scope: this.deps.settings.scopes,
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, binding };
  }

  /**
   * Finish a sign-in from the provider's redirect (`query`: the callback's query string) in the
   * browser that presents `binding`. The state is consumed whatever the outcome.
   */
  async complete(query: string, binding: string | undefined): Promise<{ id: string; session: Session; returnTo: string }> {
    const params = new URLSearchParams(query);
    const state = params.get('state');
    const pending = state === null ? undefined : this.take(state);
    if (!pending || binding === undefined || !timingSafeEqual(digest(binding), pending.bindingHash)) throw errors.oidcStateInvalid();
    const config = await this.provider();
    const oidc = await openidClient();
    const currentUrl = new URL(this.deps.settings.redirectUrl);
    currentUrl.search = params.toString();
    let tokens: Awaited<ReturnType<Library['authorizationCodeGrant']>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: state!,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
    } catch (err) {
      throw this.refusal(err);
    }
    const claims = tokens.claims()!;
    const subject = claims.sub;
    let groups = stringList(claims.groups);
    if (groups === null && !this.deps.settings.allowedSubjects.includes(subject) && this.deps.settings.allowedGroups.length > 0) {
      // Many providers put groups in the UserInfo answer only (OpenID Connect Core 5.4).
      groups = await this.userInfoGroups(config, tokens.access_token, subject);
    }
    const allowedGroups = (groups ?? []).filter((g) => this.deps.settings.allowedGroups.includes(g));
    if (!this.allows(subject, allowedGroups)) {
      this.deps.logger.warn({ subject, issuer: this.deps.settings.issuer }, 'sign-in refused: subject not allowed');
      throw errors.oidcSubjectNotAllowed();
    }
    const { id, session } = this.deps.sessions.create(subject, allowedGroups);
    this.deps.logger.info({ subject, issuer: session.issuer, expires_at: new Date(session.expiresAt).toISOString() }, 'browser session created');
    return { id, session, returnTo: pending.returnTo };
  }

  private async userInfoGroups(config: OpenidClient.Configuration, accessToken: string, subject: string): Promise<string[] | null> {
    if (!config.serverMetadata().userinfo_endpoint) return null;
    try {
      const info = await (await openidClient()).fetchUserInfo(config, accessToken, subject);
      return stringList(info.groups);
    } catch (err) {
      throw this.refusal(err);
    }
  }

  /** The provider's metadata, discovered once; a failed discovery is retried by the next sign-in. */
  private provider(): Promise<OpenidClient.Configuration> {
    if (this.configuration) return this.configuration;
    const { issuer, clientId, clientSecret } = this.deps.settings;
    const loopback = isLoopbackUrl(issuer);
    this.configuration = openidClient()
      .then((oidc) =>
        oidc.discovery(new URL(issuer), clientId, clientSecret || undefined, clientSecret ? undefined : oidc.None(), {
          timeout: PROVIDER_TIMEOUT_S,
          // Plain HTTP only to a provider on this machine (the schema refuses other http issuers).
          ...(loopback ? { execute: [oidc.allowInsecureRequests] } : {}),
        }),
      )
      .catch((err: unknown) => {
        this.configuration = null;
        this.deps.logger.warn({ issuer, reason: describe(err) }, 'OpenID provider discovery failed');
        throw errors.oidcProviderUnavailable();
      });
    return this.configuration;
  }

  /** Map an openid-client failure to our envelope; the reason never quotes a token or a code. */
  private refusal(err: unknown): AppError {
    if (err instanceof AppError) return err;
    const reason = describe(err);
    this.deps.logger.warn({ issuer: this.deps.settings.issuer, reason }, 'sign-in failed');
    if (isUnreachable(err)) return errors.oidcProviderUnavailable();
    return errors.oidcLoginFailed(reason);
  }

  private remember(state: string, login: PendingLogin): void {
    const now = this.deps.clock.now();
    for (const [key, p] of this.pending) {
      if (p.expiresAt > now && this.pending.size < MAX_PENDING) break;
      this.pending.delete(key);
    }
    this.pending.set(state, login);
  }

  private take(state: string): PendingLogin | undefined {
    const login = this.pending.get(state);
    if (!login) return undefined;
    this.pending.delete(state);
    return login.expiresAt > this.deps.clock.now() ? login : undefined;
  }

  /** Pending sign-ins (tests, metrics). */
  get pendingCount(): number {
    return this.pending.size;
  }
}

function stringList(value: unknown): string[] | null {
  if (!Array.isArray(value)) return typeof value === 'string' ? [value] : null;
  return value.filter((v): v is string => typeof v === 'string');
}

export function isLoopbackUrl(value: string): boolean {
  try {
    const host = new URL(value).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

/** A short, secret-free reason: the OAuth error code of the provider, or the library's message. */
function describe(err: unknown): string {
  const oidc = library;
  if (oidc && (err instanceof oidc.AuthorizationResponseError || err instanceof oidc.ResponseBodyError)) return `provider error ${String(err.error).slice(0, 100)}`;
  const e = err as { code?: string; message?: string; name?: string };
  const message = (e.message ?? String(err)).slice(0, 200);
  return e.code ? `${e.code}: ${message}` : message;
}

function isUnreachable(err: unknown): boolean {
  const e = err as { name?: string; code?: string; message?: string };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return true;
  if (e.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || e.code === 'OAUTH_RESPONSE_IS_NOT_JSON') return true;
  return err instanceof TypeError && e.message === 'fetch failed';
}

/**
 * A real OpenID provider on loopback (`oidc-provider`, with its development sign-in and consent
 * forms), and a minimal browser: fetch that follows redirects by hand and keeps cookies, so a
 * test signs in through the same redirects and forms a browser would.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestProvider {
  issuer: string;
  /** Authorization requests seen by the provider (their query), to check PKCE and nonce. */
  authorizationRequests: URLSearchParams[];
  close(): Promise<void>;
}

export interface TestClient {
  clientId: string;
  /** '' = a public client (token endpoint auth `none`). */
  clientSecret: string;
  redirectUris: string[];
}

export interface ProviderOptions {
  clients: TestClient[];
  /** `groups` claim per subject (served through UserInfo, as most providers do). */
  groups?: Record<string, string[]>;
}

export async function startProvider(opts: ProviderOptions): Promise<TestProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: opts.clients.map((c) => ({
      client_id: c.clientId,
      ...(c.clientSecret ? { client_secret: c.clientSecret, token_endpoint_auth_method: 'client_secret_basic' } : { token_endpoint_auth_method: 'none' }),
      redirect_uris: c.redirectUris,
      response_types: ['code'],
      grant_types: ['authorization_code'],
    })),
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    claims: { openid: ['sub'], profile: ['name', 'groups'], email: ['email'] },
    cookies: { keys: ['test-only-cookie-key'] },
    ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: async () => ({ sub, name: sub, email: `${sub}@example.test`, groups: opts.groups?.[sub] ?? [] }),
    }),
  });
  const authorizationRequests: URLSearchParams[] = [];
  const callback = provider.callback();
  server.on('request', (req, res) => {
    if (req.url?.startsWith('/auth?')) authorizationRequests.push(new URL(req.url, issuer).searchParams);
    callback(req, res);
  });
  return {
    issuer,
    authorizationRequests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Cookies by name (one host: 127.0.0.1, any port, as browsers do), with their paths. */
export class CookieJar {
  private readonly cookies = new Map<string, { value: string; path: string }>();

  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';').map((p) => p.trim());
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      const attr = (n: string) => attrs.find((a) => a.toLowerCase().startsWith(`${n}=`))?.split('=')[1];
      if (attr('max-age') === '0' || value === '') this.cookies.delete(name);
      else this.cookies.set(name, { value, path: attr('path') ?? '/' });
    }
  }

  header(url: string): string {
    const path = new URL(url).pathname;
    return [...this.cookies]
      .filter(([, c]) => path.startsWith(c.path))
      .map(([n, c]) => `${n}=${c.value}`)
      .join('; ');
  }

  get(name: string): string | undefined {
    return this.cookies.get(name)?.value;
  }

  set(name: string, value: string, path = '/'): void {
    this.cookies.set(name, { value, path });
  }

  delete(name: string): void {
    this.cookies.delete(name);
  }
}

/** One request as a browser sends it: the jar's cookies, no redirect following. */
export async function browserFetch(jar: CookieJar, url: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Response> {
  const headers: Record<string, string> = { ...init.headers };
  const cookie = jar.header(url);
  if (cookie) headers.cookie = cookie;
  let body: string | undefined;
  if (init.form) {
    body = new URLSearchParams(init.form).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  const res = await fetch(url, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body, redirect: 'manual', signal: AbortSignal.timeout(10_000) });
  jar.store(res);
  return res;
}

/** Follow redirects (GET) until a response that is not one, or until `stop(url)` says so. */
export async function follow(jar: CookieJar, res: Response, from: string, stop: (url: string) => boolean = () => false): Promise<{ res: Response; url: string }> {
  let url = from;
  for (let hops = 0; hops < 20 && res.status >= 300 && res.status < 400; hops++) {
    url = new URL(res.headers.get('location')!, url).href;
    if (stop(url)) return { res, url };
    res = await browserFetch(jar, url);
  }
  return { res, url };
}

/**
 * Sign in as `subject` through the daemon: /api/auth/login -> provider -> sign-in form -> consent
 * form -> the daemon's callback. Returns the callback URL (with its code and state) without
 * visiting it when `stopAtCallback` is set, else the daemon's answer to it.
 */
export async function signIn(
  jar: CookieJar,
  daemonBase: string,
  subject: string,
  opts: { returnTo?: string; stopAtCallback?: boolean } = {},
): Promise<{ callbackUrl: string; res: Response }> {
  const loginUrl = `${daemonBase}/api/auth/login${opts.returnTo ? `?return_to=${encodeURIComponent(opts.returnTo)}` : ''}`;
  const isCallback = (u: string) => u.startsWith(`${daemonBase}/api/auth/callback`);
  let { res, url } = await follow(jar, await browserFetch(jar, loginUrl), loginUrl, isCallback);
  for (let forms = 0; forms < 4 && !isCallback(url); forms++) {
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no form at ${url} (${res.status}): ${html.slice(0, 500)}`);
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1] ?? 'consent';
    const formUrl = new URL(action.replace(/&amp;/g, '&'), url).href;
    const form: Record<string, string> = prompt === 'login' ? { prompt, login: subject, password: 'any' } : { prompt };
    ({ res, url } = await follow(jar, await browserFetch(jar, formUrl, { form }), formUrl, isCallback));
  }
  if (!isCallback(url)) throw new Error(`sign-in did not come back to the daemon (stopped at ${url})`);
  if (opts.stopAtCallback) return { callbackUrl: url, res };
  return { callbackUrl: url, res: await browserFetch(jar, url) };
}

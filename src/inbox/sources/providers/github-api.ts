/**
 * GitHub's REST API as a polite poller sees it (docs.github.com "Best practices for using the
 * REST API", "Rate limits for the REST API"):
 * - conditional requests: the ETag of a list's first page goes back as If-None-Match, so an
 *   unchanged list answers 304, which costs no rate limit;
 * - pagination through `Link: <…>; rel="next"`, at most `maxPages` pages per list and poll, and
 *   only on the API's own origin (a token is never sent elsewhere; redirects likewise);
 * - waiting instead of hammering: `X-RateLimit-Remaining: 0` waits until `X-RateLimit-Reset`; a
 *   403/429 with `Retry-After` (secondary limits) waits that long, without it one minute;
 *   `X-Poll-Interval` is the least time between polls. A wait ends the poll early with what it
 *   has and a `notBefore` time; nothing sleeps here (the daemon schedules the next poll).
 * `now` is the daemon's clock, never the wall clock, so tests drive waits with a manual clock.
 * Bodies are read with a cap (a page at most PAGE_MAX_BYTES, an error's text ERROR_BODY_MAX): the
 * API base URL is configurable, and the server behind it is a peer svc does not trust.
 */
import { readBody } from '../../../core/index.js';

export const DEFAULT_API_BASE_URL = 'https://api.github.com';
/** Secondary rate limit without Retry-After: GitHub asks for at least a minute. */
const SECONDARY_WAIT_MS = 60_000;
const MAX_REDIRECTS = 3;
const MESSAGE_MAX = 200;
/** A page of 100 issues with 64 KiB bodies is ~7 MiB. */
const PAGE_MAX_BYTES = 32 * 1024 * 1024;
const ERROR_BODY_MAX = 64 * 1024;

export type WaitReason = 'rate_limit' | 'secondary_rate_limit' | 'poll_interval';

/** GitHub refused or could not be asked; the message names the request, never the token. */
export class GithubApiError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GithubApiError';
  }
}

export interface ApiOptions {
  apiBaseUrl: string;
  /** Sent as `Authorization: Bearer`; null asks anonymously (public repositories, 60 requests an hour). */
  token: string | null;
  /** For messages: which credential profile the token came from. */
  profile: string | null;
  now: number;
  signal?: AbortSignal;
  userAgent: string;
}

export interface ListResult {
  /** `not_modified`: 304 for the first page (nothing changed, nothing spent); `limited`: a rate limit answered before any page. */
  status: 'ok' | 'not_modified' | 'limited';
  items: unknown[];
  /** ETag of the first page (kept for the next poll of the same URL). */
  etag: string | null;
}

export interface Wait {
  until: number;
  reason: WaitReason;
}

/** One poll's conversation with the API: follows the waits it is told about. */
export class GithubApi {
  private readonly origin: string;
  /** The longest wait any response asked for; once it is a rate limit, no further request is made. */
  wait: Wait | null = null;
  rateLimit: { remaining: number; reset: number } | null = null;

  constructor(private readonly opts: ApiOptions) {
    this.origin = new URL(opts.apiBaseUrl).origin;
  }

  /** Whether a rate limit stops this poll (a poll interval does not stop it, only the next one). */
  get limited(): boolean {
    return this.wait !== null && this.wait.reason !== 'poll_interval';
  }

  url(path: string, query: Record<string, string | number>): string {
    const base = this.opts.apiBaseUrl.replace(/\/+$/, '');
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
    return `${base}${path}${qs ? `?${qs}` : ''}`;
  }

  /**
   * A list, page after page while `more(page)` says so and pages remain, up to `maxPages`. The
   * first page is conditional on `etag`. Stops early (status ok, the pages so far) on a rate limit.
   * `unwrap` picks the array out of a page body (`workflow_runs` of the runs list).
   */
  async list(firstUrl: string, etag: string | null, maxPages: number, unwrap: (body: unknown) => unknown[], more: (page: unknown[]) => boolean = () => true): Promise<ListResult> {
    const items: unknown[] = [];
    let next: string | null = firstUrl;
    let firstEtag: string | null = null;
    for (let page = 0; next !== null && page < maxPages && !this.limited; page++) {
      const res = await this.get(next, page === 0 ? etag : null);
      if (res === null) {
        if (page === 0) return { status: 'limited', items: [], etag };
        break; // rate limited after some pages: keep them
      }
      if (res.status === 304) return { status: 'not_modified', items: [], etag };
      if (page === 0) firstEtag = res.headers.get('etag');
      const pageItems = unwrap(await readJson(res, next));
      items.push(...pageItems);
      if (!more(pageItems)) break;
      next = this.nextLink(res.headers.get('link'));
    }
    return { status: 'ok', items, etag: firstEtag };
  }

  /** The `rel="next"` URL when it is on the API's origin (else pagination stops: the token stays home). */
  private nextLink(link: string | null): string | null {
    for (const part of (link ?? '').split(',')) {
      const m = /<([^>]+)>\s*;\s*rel="?([^";]+)"?/.exec(part.trim());
      if (!m || !m[2]!.split(/\s+/).includes('next')) continue;
      try {
        return new URL(m[1]!).origin === this.origin ? m[1]! : null;
      } catch {
        return null;
      }
    }
    return null;
  }

  /**
   * One GET (following same-origin redirects): the response, or null when a rate limit answered
   * (the wait is recorded). Other failures throw GithubApiError.
   */
  private async get(url: string, etag: string | null): Promise<Response | null> {
    const headers: Record<string, string> = {
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      'user-agent': this.opts.userAgent,
    };
    if (this.opts.token) headers.authorization = `Bearer ${this.opts.token}`;
    if (etag) headers['if-none-match'] = etag;
    let target = url;
    for (let hop = 0; ; hop++) {
      let res: Response;
      try {
        res = await fetch(target, { headers, redirect: 'manual', ...(this.opts.signal ? { signal: this.opts.signal } : {}) });
      } catch (err) {
        const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
        throw new GithubApiError(`cannot reach ${this.origin} (${cause}) for ${pathOf(target)}`);
      }
      this.observe(res);
      if ([301, 302, 307, 308].includes(res.status) && hop < MAX_REDIRECTS) {
        const location = res.headers.get('location');
        const nextUrl = location ? new URL(location, target) : null;
        if (!nextUrl || nextUrl.origin !== this.origin) throw new GithubApiError(`GitHub redirected ${pathOf(target)} to another origin; not followed`);
        target = nextUrl.href;
        continue;
      }
      if (res.status === 200 || res.status === 304) return res;
      // An error's text is read once (capped), for both the rate-limit test and the message.
      const text = (await readBody(res, ERROR_BODY_MAX, undefined, true).catch(() => null)) ?? '';
      if (this.rateLimited(res, text)) return null;
      throw new GithubApiError(this.describe(res, target, text));
    }
  }

  /** Rate-limit and poll-interval headers of every answer. */
  private observe(res: Response): void {
    const remaining = intHeader(res, 'x-ratelimit-remaining');
    const reset = intHeader(res, 'x-ratelimit-reset');
    if (remaining !== null && reset !== null) this.rateLimit = { remaining, reset };
    if (remaining === 0 && reset !== null) this.waitUntil(reset * 1000, 'rate_limit');
    const interval = intHeader(res, 'x-poll-interval');
    if (interval !== null && interval > 0) this.waitUntil(this.opts.now + interval * 1000, 'poll_interval');
  }

  /** 403/429 that are rate limits (primary, or secondary with or without Retry-After). */
  private rateLimited(res: Response, text: string): boolean {
    if (res.status !== 403 && res.status !== 429) return false;
    const retryAfter = retryAfterMs(res.headers.get('retry-after'), this.opts.now);
    if (retryAfter !== null) {
      this.waitUntil(this.opts.now + retryAfter, 'secondary_rate_limit');
      return true;
    }
    if (intHeader(res, 'x-ratelimit-remaining') === 0) return true; // observe() recorded the wait until reset
    const message = text.toLowerCase();
    if (res.status === 429 || message.includes('rate limit')) {
      this.waitUntil(this.opts.now + SECONDARY_WAIT_MS, 'secondary_rate_limit');
      return true;
    }
    return false;
  }

  private waitUntil(until: number, reason: WaitReason): void {
    if (until <= this.opts.now) return;
    // A rate limit outranks a poll interval; between two of a kind the later time wins.
    const rank = (r: WaitReason) => (r === 'poll_interval' ? 0 : 1);
    if (this.wait === null || rank(reason) > rank(this.wait.reason) || (rank(reason) === rank(this.wait.reason) && until > this.wait.until)) {
      this.wait = { until: Math.max(until, this.wait?.until ?? 0), reason };
    }
  }

  private describe(res: Response, url: string, text: string): string {
    let message = '';
    try {
      message = String(asMessage(JSON.parse(text))).slice(0, MESSAGE_MAX);
    } catch {
      // not JSON: the status says enough
    }
    const what = `GitHub answered ${res.status} for GET ${pathOf(url)}${message ? ` (${message})` : ''}`;
    if (res.status === 401) {
      return this.opts.profile
        ? `${what}: the token of credential profile ${JSON.stringify(this.opts.profile)} was refused (wrong, expired or revoked)`
        : `${what}: a token is needed (set credentialRef in the host config)`;
    }
    if (res.status === 404) return `${what}: no such repository, or the token cannot see it`;
    return what;
  }
}

async function readJson(res: Response, url: string): Promise<unknown> {
  const text = await readBody(res, PAGE_MAX_BYTES);
  if (text === null) throw new GithubApiError(`GitHub answered GET ${pathOf(url)} with more than ${PAGE_MAX_BYTES / 1024 / 1024} MiB`);
  try {
    return JSON.parse(text);
  } catch {
    throw new GithubApiError(`GitHub answered GET ${pathOf(url)} with a body that is not JSON`);
  }
}

function asMessage(body: unknown): string {
  return body !== null && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string' ? (body as { message: string }).message : '';
}

function intHeader(res: Response, name: string): number | null {
  const v = res.headers.get(name);
  if (v === null || !/^\d+$/.test(v.trim())) return null;
  return Number(v.trim());
}

/** Retry-After in seconds or as an HTTP date, in ms from now. */
function retryAfterMs(value: string | null, now: number): number | null {
  if (value === null) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - now) : null;
}

/** Path and query of a URL, for messages. */
function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return '(bad URL)';
  }
}

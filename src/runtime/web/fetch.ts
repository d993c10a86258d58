/**
 * web_fetch's GET (docs/tools.md#web-fetch): the URL checks of host-policy.ts on the URL and on
 * every redirect, followed by hand up to `max_redirects`; connections through the address guard of
 * connector.ts (a fresh undici Agent per fetch, so no connection outlives the configuration it was
 * checked under); one deadline of `timeout_ms` over every hop and the body, joined with the turn's
 * abort signal; the body read as a stream up to the byte limit; then HTML made readable, text
 * decoded. No proxy from the environment is used, no cookie is kept or sent.
 */
import type { Logger } from 'pino';
import { Agent, fetch as undiciFetch, type Response } from 'undici';
import type { ResolvedConfig } from '../../config/index.js';
import { AppError, chunksOf, errors, errorText } from '../../core/index.js';
import { VERSION } from '../../version.js';
import { AddressRefusedError, guardedConnector, systemResolver, type Resolver } from './connector.js';
import { capUtf8, charsetOf, decodeBody, essenceOf, kindOf, sniffKind, type ContentKind } from './content.js';
import { checkUrl, hostMatches, normaliseHost, shownUrl, type CheckedTarget, type HostPolicy } from './host-policy.js';
import { describeRefusal } from './address-guard.js';
import { ConversionTimeoutError, readableHtml } from './readable.js';

export type WebFormat = 'markdown' | 'text' | 'raw';

export interface FetchOptions {
  /** Body bytes read at most; never more than tools.web.max_bytes. */
  maxBytes?: number;
  /** How an HTML page is returned: readable markdown (default), readable text, or the HTML itself. */
  format?: WebFormat;
}

/** What a fetch returns (the tool's result data). */
export interface WebPage {
  url: string;
  /** Where the content came from, after redirects. */
  final_url: string;
  /** The final answer's HTTP status; a 404 or a 500 is returned like a 200, with its body. */
  status: number;
  /** The answer's media type (`text/html`), '' when it sent none. */
  content_type: string;
  /** What `content` is: `text/markdown`, `text/plain`, or the answer's own type (raw, and non-HTML text). */
  content_format: string;
  title?: string;
  /** Body bytes read (after any content decoding), at most the byte limit. */
  bytes: number;
  /** The body or the content was cut at the byte limit. */
  truncated: boolean;
  content: string;
  /** Set when something was cut: what, and how to get more. */
  note?: string;
}

export interface WebFetcherDeps {
  config: ResolvedConfig;
  logger: Logger;
  /** Resolves host names (tests inject one); the system resolver by default. */
  resolve?: Resolver;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const ACCEPT = 'text/html, text/plain, application/json;q=0.9, */*;q=0.1';

export class WebFetcher {
  private readonly resolve: Resolver;

  constructor(private readonly deps: WebFetcherDeps) {
    this.resolve = deps.resolve ?? systemResolver;
  }

  /** GETs `url` under the current `[tools.web]` configuration; throws AppError for everything refused or failed. */
  async fetch(url: string, opts: FetchOptions, signal: AbortSignal): Promise<WebPage> {
    const cfg = this.deps.config.values.tools.web;
    const policy: HostPolicy = { allowed_hosts: [...cfg.allowed_hosts], private_hosts: [...cfg.private_hosts] };
    const maxBytes = Math.min(opts.maxBytes ?? cfg.max_bytes, cfg.max_bytes);
    let target = checkUrl(url, policy);
    const started = performance.now();
    const deadline = AbortSignal.timeout(cfg.timeout_ms);
    const agent = new Agent({
      connect: guardedConnector({ resolve: this.resolve, privateHost: (h) => hostMatches(policy.private_hosts, normaliseHost(h)), timeoutMs: cfg.timeout_ms }),
      headersTimeout: cfg.timeout_ms,
      bodyTimeout: cfg.timeout_ms,
    });
    try {
      const combined = AbortSignal.any([signal, deadline]);
      let res = await get(target, agent, combined);
      for (let hops = 0; REDIRECT_STATUSES.has(res.status) && res.headers.has('location'); hops++) {
        await res.body?.cancel().catch(() => {});
        if (hops >= cfg.max_redirects) {
          throw errors.urlRefused(shownUrl(target.url.href), 'too_many_redirects', `more than ${cfg.max_redirects} redirects (tools.web.max_redirects)`, {
            max_redirects: cfg.max_redirects,
          });
        }
        target = checkUrl(res.headers.get('location')!, policy, target.url);
        res = await get(target, agent, combined);
      }
      const remainingMs = () => cfg.timeout_ms - (performance.now() - started);
      const page = await readPage({ url, finalUrl: target.url.href, res, maxBytes, format: opts.format ?? 'markdown', configMax: cfg.max_bytes, remainingMs, signal });
      this.deps.logger.debug({ origin: target.url.origin, status: page.status, bytes: page.bytes, truncated: page.truncated }, 'web_fetch');
      return page;
    } catch (err) {
      throw failure(err, target.url.href, cfg.timeout_ms, deadline, signal);
    } finally {
      agent.destroy().catch(() => {});
    }
  }
}

function get(target: CheckedTarget, agent: Agent, signal: AbortSignal): Promise<Response> {
  return undiciFetch(target.url, {
    dispatcher: agent,
    redirect: 'manual',
    signal,
    headers: { 'user-agent': `svc/${VERSION}`, accept: ACCEPT },
  });
}

interface ReadInput {
  url: string;
  finalUrl: string;
  res: Response;
  maxBytes: number;
  format: WebFormat;
  /** tools.web.max_bytes (the note says how far max_bytes may go). */
  configMax: number;
  /** Time left of timeout_ms: the conversion of an HTML page gets what the fetch left. */
  remainingMs: () => number;
  /** The turn's signal (the conversion has its own timer for the deadline; the body read is bound to it already). */
  signal: AbortSignal;
}

async function readPage({ url, finalUrl, res, maxBytes, format, configMax, remainingMs, signal }: ReadInput): Promise<WebPage> {
  const contentType = res.headers.get('content-type');
  const essence = essenceOf(contentType);
  let kind: ContentKind | null = essence === '' ? 'text' : kindOf(essence);
  if (kind === null) {
    await res.body?.cancel().catch(() => {});
    const length = Number(res.headers.get('content-length') ?? NaN);
    throw errors.unsupportedContent(shownUrl(finalUrl), essence, Number.isSafeInteger(length) ? length : null);
  }
  const body = await readCapped(res, maxBytes);
  if (essence === '') {
    kind = sniffKind(body.bytes);
    if (kind === null) throw errors.unsupportedContent(shownUrl(finalUrl), 'application/octet-stream (sent without a content type)', body.bytes.length);
  }
  const text = decodeBody(body.bytes, charsetOf(contentType, kind, body.bytes), body.truncated);
  let content = text;
  let contentFormat = essence || 'text/plain';
  let title: string | null = null;
  if (kind === 'html' && format !== 'raw') {
    ({ content, title } = await readableHtml(text, finalUrl, format, remainingMs(), signal).catch((err: unknown) => {
      if (err instanceof ConversionTimeoutError || signal.aborted) throw err;
      throw errors.fetchFailed(shownUrl(finalUrl), `making the HTML readable failed (${errorText(err, 200)}); format "raw" returns it as it is`);
    }));
    contentFormat = format === 'markdown' ? 'text/markdown' : 'text/plain';
  }
  // The conversion can (rarely) be longer than its source: the content obeys the limit too.
  const capped = capUtf8(content, maxBytes);
  const truncated = body.truncated || capped.cut;
  return {
    url,
    final_url: finalUrl,
    status: res.status,
    content_type: essence,
    content_format: contentFormat,
    ...(title ? { title } : {}),
    bytes: body.bytes.length,
    truncated,
    content: capped.text,
    ...(truncated ? { note: truncationNote(body.truncated, maxBytes, configMax) } : {}),
  };
}

function truncationNote(bodyCut: boolean, maxBytes: number, configMax: number): string {
  const what = bodyCut ? `the body is longer than ${maxBytes} bytes: only its first ${maxBytes} bytes were read` : `the content was cut at ${maxBytes} bytes`;
  const more = maxBytes < configMax ? `call again with a larger max_bytes (at most ${configMax})` : `${configMax} bytes is the most web_fetch reads (tools.web.max_bytes)`;
  return `${what}; ${more}`;
}

/** The body as it arrives, at most `maxBytes` of it; leaving early cancels the rest (and closes the connection). */
async function readCapped(res: Response, maxBytes: number): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let total = 0;
  let truncated = false;
  if (res.body) {
    for await (const chunk of chunksOf(res.body as ReadableStream<Uint8Array>)) {
      const room = maxBytes - total;
      const take = Math.min(room, chunk.byteLength);
      chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, take));
      total += take;
      if (chunk.byteLength > room) {
        truncated = true;
        break;
      }
    }
  }
  return { bytes: Buffer.concat(chunks, total), truncated };
}

/** What a thrown error means for the model: refused, timed out, aborted, or failed (with the innermost cause). */
function failure(err: unknown, url: string, timeoutMs: number, deadline: AbortSignal, signal: AbortSignal): AppError {
  if (err instanceof AppError) return err;
  const refused = causeOf(err, (e): e is AddressRefusedError => e instanceof AddressRefusedError);
  if (refused) {
    const { host, refused: cls } = refused;
    return errors.urlRefused(shownUrl(url), 'private_address', `host ${JSON.stringify(host)}: ${describeRefusal(cls)}`, { host, address: cls.address, range: cls.range });
  }
  if (signal.aborted) return errors.toolAborted('web_fetch');
  if (err instanceof ConversionTimeoutError) return errors.fetchTimeout(shownUrl(url), timeoutMs, true);
  const timedOut = causeOf(err, (e): e is Error => TIMEOUT_CODES.has(String((e as { code?: unknown }).code)));
  if (deadline.aborted || timedOut) return errors.fetchTimeout(shownUrl(url), timeoutMs);
  return errors.fetchFailed(shownUrl(url), errorText(innermost(err), 300));
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function causeOf<T extends Error>(err: unknown, match: (e: Error) => e is T): T | null {
  for (let e = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) if (match(e)) return e;
  return null;
}

/** undici wraps what went wrong in `TypeError: fetch failed`; the cause says what it was. */
function innermost(err: unknown): unknown {
  let e = err;
  for (let depth = 0; e instanceof Error && e.cause instanceof Error && depth < 8; depth++) e = e.cause;
  return e;
}

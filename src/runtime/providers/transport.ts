/**
 * HTTP for the model providers, shared by openai.ts and anthropic.ts: the API key from the
 * environment at call time, the limits of a round (reply-body.ts: idle timeout, round deadline,
 * line and reply caps), the retry policy (retry.ts), and the one mapping of failures to ProviderError:
 *
 * | failure                                   | category  | kind                          | retried |
 * |-------------------------------------------|-----------|-------------------------------|---------|
 * | api_key_env named but unset               | runtime   | missing_api_key (no request)  | no      |
 * | connection refused / reset, DNS failure   | transport | connection_refused / connection_reset / dns / connection_error | yes |
 * | no content for model.stream_idle_timeout_ms (keep-alives do not count) | transport | timeout | no |
 * | the round (all attempts) past model.round_deadline_ms | transport | round_deadline  | no      |
 * | a line or an answer over its cap          | protocol  | reply_too_large               | no      |
 * | 429, 5xx                                  | transport | http_status (+ status)        | yes     |
 * | other 4xx                                 | protocol  | http_status (+ status)        | no      |
 * | unreadable body or stream                 | protocol  | bad_response                  | no      |
 * | caller's signal aborted                   | runtime   | aborted                       | no      |
 *
 * Once a streamed answer has handed a delta to the caller, a failure is no longer retried (the
 * caller would see the text twice). Error messages may carry the server's error text, never the key.
 */
import type { CredentialStore } from '../../store/index.js';
import { DEFAULT_RETRY, abortedError, parseRetryAfter, realSleep, withRetry, type RetryPolicy, type Sleep } from './retry.js';
import { readBody } from '../../core/index.js';
import { Alarm, DEFAULT_LIMITS, realTimer, sseMessages, tooLarge, type SetTimer, type StreamLimits } from './reply-body.js';
import type { SseMessage } from './sse-parser.js';
import { ProviderError } from './types.js';

/** Bytes of an error body kept for the message. */
const ERROR_TEXT_MAX = 500;
/** Bytes of an error body read at most (the rest is dropped with the connection). */
const ERROR_BODY_MAX = 64 * 1024;

export interface TransportOptions {
  fetch?: typeof fetch;
  sleep?: Sleep;
  random?: () => number;
  now?: () => number;
  /** Where `api_key_env` is looked up (default process.env), read at each call. */
  env?: NodeJS.ProcessEnv;
  /** Where `credential_profile` is looked up, read at each call (a stored change needs no restart). */
  credentials?: CredentialStore;
  /** The round's limits; each one left out is DEFAULT_LIMITS' (the registry passes [model]'s). */
  limits?: Partial<StreamLimits>;
  /** The timers of the idle timeout and the round deadline (default setTimeout). */
  setTimer?: SetTimer;
  retry?: RetryPolicy;
  /** Told about each retry before its wait (the registry logs it; never with the key). */
  onRetry?: (info: { provider: string; attempt: number; delayMs: number; error: ProviderError }) => void;
}

export interface ProviderSettings {
  base_url: string;
  api_key_env: string;
  /** A profile of the credential store holding the key ('' = none); exclusive with api_key_env. */
  credential_profile?: string;
}

/** What a response turned into: a parsed JSON document, or a stream of SSE messages. */
export type Answer = { type: 'json'; body: unknown } | { type: 'sse'; messages: AsyncIterable<SseMessage> };

export class ProviderTransport {
  readonly limits: StreamLimits;
  private readonly fetchFn: typeof fetch;
  private readonly setTimer: SetTimer;
  private readonly baseUrl: string;

  constructor(
    readonly provider: string,
    private readonly settings: ProviderSettings,
    private readonly opts: TransportOptions = {},
  ) {
    this.fetchFn = opts.fetch ?? fetch;
    this.setTimer = opts.setTimer ?? realTimer;
    this.limits = { ...DEFAULT_LIMITS, ...opts.limits };
    this.baseUrl = settings.base_url.replace(/\/+$/, '');
  }

  /** The key, null when no variable or profile is named (servers without auth); missing_api_key when it is unset. */
  apiKey(): string | null {
    const profile = this.settings.credential_profile;
    if (profile) return this.profileKey(profile);
    const name = this.settings.api_key_env;
    if (!name) return null;
    const key = (this.opts.env ?? process.env)[name];
    if (!key) throw new ProviderError('runtime', 'missing_api_key', `provider ${this.provider}: environment variable ${name} (api_key_env) is not set`);
    return key;
  }

  private profileKey(profile: string): string {
    let key: string | null = null;
    try {
      key = this.opts.credentials?.token(profile) ?? null;
    } catch (err) {
      throw new ProviderError('runtime', 'missing_api_key', `provider ${this.provider}: ${(err as Error).message}`);
    }
    if (!key) {
      throw new ProviderError(
        'runtime',
        'missing_api_key',
        `provider ${this.provider}: credential profile ${JSON.stringify(profile)} (credential_profile) is not stored; PUT /api/control/runtime/credentials/${profile}`,
      );
    }
    return key;
  }

  /** GET a JSON document, one attempt (discovery). */
  async getJson(path: string, headers: (key: string | null) => Record<string, string>, signal: AbortSignal): Promise<unknown> {
    const key = this.apiKey();
    return this.exchange('GET', path, headers(key), undefined, signal, key, async (answer) => {
      if (answer.type !== 'json') throw badResponse(this.provider, 'expected a JSON answer');
      return answer.body;
    });
  }

  /**
   * POST `body` and hand the answer (JSON or SSE) to `consume`, retrying per the policy, all of it
   * within the round deadline. `consume` calls `progress()` when it passes something to the
   * caller: from then on nothing is retried.
   */
  async post<T>(
    path: string,
    headers: (key: string | null) => Record<string, string>,
    body: unknown,
    signal: AbortSignal,
    consume: (answer: Answer, progress: () => void) => T | Promise<T>,
  ): Promise<T> {
    const key = this.apiKey();
    const json = JSON.stringify(body);
    return this.withinDeadline(signal, (bounded) =>
      withRetry(
        async () => {
          let progressed = false;
          try {
            return await this.exchange('POST', path, headers(key), json, bounded, key, (answer) => consume(answer, () => (progressed = true)));
          } catch (err) {
            if (progressed && err instanceof ProviderError && err.retryable) {
              throw new ProviderError(err.category, err.kind, err.message, err.status, false, null);
            }
            throw err;
          }
        },
        {
          policy: this.opts.retry ?? DEFAULT_RETRY,
          sleep: this.opts.sleep ?? realSleep,
          random: this.opts.random ?? Math.random,
          signal: bounded,
          onRetry: (info) => this.opts.onRetry?.({ provider: this.provider, ...info }),
        },
      ),
    );
  }

  /** `fn` with a signal that also aborts at the round deadline, which it then fails with. */
  private async withinDeadline<T>(signal: AbortSignal, fn: (bounded: AbortSignal) => Promise<T>): Promise<T> {
    const deadline = new Alarm(this.limits.roundDeadlineMs, this.setTimer);
    try {
      return await fn(AbortSignal.any([signal, deadline.signal]));
    } catch (err) {
      if (deadline.fired && !signal.aborted) {
        throw new ProviderError('transport', 'round_deadline', `provider ${this.provider}: the model round did not finish within ${this.limits.roundDeadlineMs} ms (model.round_deadline_ms)`);
      }
      throw err;
    } finally {
      deadline.clear();
    }
  }

  /** One HTTP exchange with the idle timeout and the reply caps; every failure leaves as a ProviderError. */
  private async exchange<T>(
    method: 'GET' | 'POST',
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal,
    key: string | null,
    consume: (answer: Answer) => T | Promise<T>,
  ): Promise<T> {
    if (signal.aborted) throw abortedError();
    const idle = new Alarm(this.limits.idleTimeoutMs, this.setTimer);
    const alive = () => idle.restart();
    const combined = AbortSignal.any([signal, idle.signal]);
    try {
      const res = await this.fetchFn(this.baseUrl + path, {
        method,
        headers: { accept: 'text/event-stream, application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        body,
        signal: combined,
      });
      alive();
      if (!res.ok) throw await this.statusError(res, key, alive);
      const type = res.headers.get('content-type') ?? '';
      if (type.includes('text/event-stream')) {
        return await consume({ type: 'sse', messages: sseMessages(this.provider, res, this.limits, alive) });
      }
      const text = await readBody(res, this.limits.maxReplyBytes, alive);
      if (text === null) throw tooLarge(this.provider, `the answer is larger than ${this.limits.maxReplyBytes} bytes (model.max_reply_bytes)`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw badResponse(this.provider, `answer is neither JSON nor an event stream (content-type ${JSON.stringify(type)})`);
      }
      return await consume({ type: 'json', body: parsed });
    } catch (err) {
      if (signal.aborted) throw abortedError();
      if (idle.fired) {
        throw new ProviderError(
          'transport',
          'timeout',
          `provider ${this.provider}: no content from ${this.baseUrl} for ${this.limits.idleTimeoutMs} ms (model.stream_idle_timeout_ms)`,
        );
      }
      if (err instanceof ProviderError) throw scrub(err, key);
      throw scrub(networkError(this.provider, this.baseUrl, err), key);
    } finally {
      idle.clear();
    }
  }

  private async statusError(res: Response, key: string | null, alive: () => void): Promise<ProviderError> {
    let text = '';
    try {
      text = (await readBody(res, ERROR_BODY_MAX, alive, true)) ?? '';
    } catch {
      /* the status alone still says enough */
    }
    const detail = serverMessage(text);
    const retryable = res.status === 429 || res.status >= 500;
    const retryAfter = retryable ? parseRetryAfter(res.headers.get('retry-after'), (this.opts.now ?? Date.now)()) : null;
    const message = `provider ${this.provider}: HTTP ${res.status}${detail ? `: ${detail}` : ''}`;
    return scrub(new ProviderError(retryable ? 'transport' : 'protocol', 'http_status', message, res.status, retryable, retryAfter), key);
  }
}

export function badResponse(provider: string, detail: string): ProviderError {
  return new ProviderError('protocol', 'bad_response', `provider ${provider}: malformed answer: ${detail}`);
}

/** Parse one SSE data payload as a JSON object (bad_response otherwise). */
export function parseData(provider: string, data: string): Record<string, unknown> {
  try {
    const v = JSON.parse(data) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    /* fall through */
  }
  throw badResponse(provider, `stream data is not a JSON object: ${data.slice(0, 100)}`);
}

/** `data[].id` of a models listing (OpenAI and Anthropic share the shape). */
export function modelIds(provider: string, body: unknown): string[] {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw badResponse(provider, 'models listing has no data array');
  return data.map((m) => (m as { id?: unknown } | null)?.id).filter((id): id is string => typeof id === 'string' && id.length > 0);
}

/** The server's own error text from an error body: `error.message`, `error`, `message`, or the text. */
function serverMessage(text: string): string {
  let out = text.trim();
  try {
    const v = JSON.parse(text) as { error?: unknown; message?: unknown };
    const e = v.error as { message?: unknown } | string | undefined;
    if (typeof e === 'string') out = e;
    else if (e && typeof e.message === 'string') out = e.message;
    else if (typeof v.message === 'string') out = v.message;
  } catch {
    /* not JSON: the text itself */
  }
  return out.length > ERROR_TEXT_MAX ? `${out.slice(0, ERROR_TEXT_MAX)}…` : out;
}

const NETWORK_KINDS: Record<string, string> = {
  ECONNREFUSED: 'connection_refused',
  ECONNRESET: 'connection_reset',
  EPIPE: 'connection_reset',
  UND_ERR_SOCKET: 'connection_reset',
  UND_ERR_CLOSED: 'connection_reset',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  ETIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
};

/** fetch's failures (TypeError "fetch failed"/"terminated" with a `cause` carrying the code). */
function networkError(provider: string, baseUrl: string, err: unknown): ProviderError {
  let code = '';
  let detail = (err as Error)?.message ?? String(err);
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const c = (e as { code?: unknown }).code;
    if (typeof c === 'string' && !code) {
      code = c;
      detail = (e as Error).message || detail;
    }
  }
  // Not a network failure (no error code anywhere in the chain): report it as it is, once.
  if (!code) return new ProviderError('unknown', 'provider_error', `provider ${provider}: ${detail}`);
  const kind = NETWORK_KINDS[code] ?? 'connection_error';
  // A connection timeout is worth another try; the idle timeout above is not.
  return new ProviderError('transport', kind, `provider ${provider}: cannot reach ${baseUrl}: ${detail}`, null, true);
}

/** The key never leaves in a message, even when a server echoes it back. */
function scrub(err: ProviderError, key: string | null): ProviderError {
  if (!key || !err.message.includes(key)) return err;
  return new ProviderError(err.category, err.kind, err.message.split(key).join('[redacted]'), err.status, err.retryable, err.retryAfterSec);
}

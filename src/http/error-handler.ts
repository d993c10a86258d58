/**
 * The one error handler (docs/control-plane-api.md#errors): every failure on either surface becomes
 * the JSON envelope `{ok:false, error, code, ...}`. Typed AppErrors carry their own status and
 * code; Fastify's own request errors are mapped by code; a write the full disk refused is 507
 * insufficient_storage; anything else is a bug: logged, and answered with a generic 500 that
 * reveals nothing.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errors, boundText } from '../core/index.js';
import { storageFaultOf } from '../store/index.js';
import { maskUrl } from '../telemetry/index.js';

/** Longest message, and longest string anywhere in the extra fields, an error body quotes. */
const MAX_MESSAGE_CHARS = 1024;
const MAX_FIELD_CHARS = 256;
const MAX_ISSUES = 100;

/**
 * The envelope of an AppError, with every quoted input cut to a bounded prefix: a 300 KB field in
 * a request must not come back as a 600 KB error (messages and `extra` both quote inputs).
 */
export function envelope(e: AppError): Record<string, unknown> {
  return { ok: false, error: boundText(e.message, MAX_MESSAGE_CHARS), code: e.code, ...(bounded(e.extra, 0) as Record<string, unknown>) };
}

function bounded(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return boundText(value, MAX_FIELD_CHARS);
  if (typeof value !== 'object' || value === null) return value;
  if (depth > 4) return '[nested]';
  if (Array.isArray(value)) return value.slice(0, MAX_ISSUES).map((v) => bounded(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [boundText(k, MAX_FIELD_CHARS), bounded(v, depth + 1)]));
}

export function toAppError(err: unknown, contentType?: string): AppError | null {
  if (err instanceof AppError) return err;
  const e = err as Partial<FastifyError> & { message?: string };
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return errors.unsupportedMediaType(contentType);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError(413, 'payload_too_large', 'request body is too large');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return errors.invalidJson(e.message ?? 'malformed');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError(400, 'invalid_request', 'the request body does not match its Content-Length');
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_ASYNC_CONSTRAINT':
      return errors.malformedUrl();
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return errors.uriTooLong();
  }
  if (storageFaultOf(err) === 'full') return errors.insufficientStorage();
  const status = e.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new AppError(status, 'invalid_request', e.message ?? 'bad request');
  }
  return null;
}

/**
 * Fastify's `frameworkErrors` option: errors the router raises before any route or hook runs
 * (a malformed percent-encoding, an over-long path parameter). Without it Fastify answers them
 * with its own JSON shape, not the envelope.
 */
export function frameworkErrorHandler(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const appError = toAppError(err) ?? errors.malformedUrl();
  reply.code(appError.status).headers(appError.headers).type('application/json; charset=utf-8');
  reply.send(envelope(appError));
}

/**
 * Fastify's `clientErrorHandler` option: requests Node's HTTP parser refuses before Fastify sees
 * them (not HTTP at all, a bad Content-Length, headers over the size limit, too slow). Answered
 * with the envelope on the raw socket, then the connection is closed.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const e =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? errors.requestTimeout() : err.code === 'HPE_HEADER_OVERFLOW' ? errors.headersTooLarge() : errors.notHttp();
  const status = e.status;
  const body = JSON.stringify(envelope(e));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => {
    let appError = toAppError(err, request.headers['content-type']);
    if (!appError) {
      request.log.error({ err }, 'unhandled error');
      appError = new AppError(500, 'internal_error', 'internal error');
    }
    if (reply.raw.headersSent) {
      // An SSE stream already started: nothing can be sent any more but the end of it.
      reply.raw.end();
      return;
    }
    reply.code(appError.status).headers(appError.headers).type('application/json; charset=utf-8');
    return reply.send(envelope(appError));
  });
  const words = new Set<string>();
  app.addHook('onRoute', (route) => {
    for (const segment of route.url.split('/')) if (!segment.startsWith(':') && segment !== '*') words.add(segment);
  });
  app.setNotFoundHandler((request) => {
    throw errors.routeNotFound(request.method, redactedPath(request.url.split('?')[0]!, words));
  });
}

/** Longest path segment a 404 repeats when it is not a word of a served route. */
const MAX_ECHOED_SEGMENT = 16;

/**
 * The path a 404 repeats: what a caller needs to spot a typo, never a capability token. A
 * misspelled callback path (`/api/callback/enqueue/<token>`) is not a callback path, so masking
 * callback URLs (maskUrl) does not reach it: every segment that is neither a word of a served route
 * nor short is replaced, and a callback token (43 characters) is never short.
 */
function redactedPath(path: string, words: ReadonlySet<string>): string {
  return maskUrl(path)
    .split('/')
    .map((segment) => (segment.length <= MAX_ECHOED_SEGMENT || words.has(segment) ? segment : '***'))
    .join('/');
}

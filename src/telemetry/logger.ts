/**
 * The daemon's pino logger. Secrets never reach a log line: authorization headers, tokens and
 * credentials and cookies are redacted by path, callback URLs (whose path segment is a capability
 * token) are logged with the token masked, and the sign-in callback without its query (a code).
 */
import pino, { type DestinationStream, type Logger } from 'pino';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  'req.headers.cookie',
  'headers.cookie',
  'cookie',
  'res.headers["set-cookie"]',
  'headers["set-cookie"]',
  'control_token',
  'token',
  'secret',
  'api_key',
  'bearer_token',
  'material',
  '*.control_token',
  '*.token',
  '*.secret',
  '*.api_key',
  '*.bearer_token',
  '*.credential',
  '*.material',
  '*.delivery_auth',
];

const MODES = new Set(['enqueue', 'wake']);

/**
 * Mask the capability token of a callback URL or path, in whatever spelling the request used:
 * `/api//callbacks/enqueue/T`, `/API/…`, `%2F`-encoded separators and `/./` segments all reach a
 * log line or a 404 body, so the path is decoded and normalised before it is matched. Anything
 * after the `callbacks` segment (and its mode, when it is one) is replaced, query included.
 */
export function maskUrl(url: string): string {
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url)?.[0];
  if (origin) return origin + maskPath(url.slice(origin.length));
  return maskPath(url);
}

function maskPath(url: string): string {
  const cut = url.search(/[?#]/);
  let decoded = cut === -1 ? url : url.slice(0, cut);
  for (let i = 0; i < 3 && /%[0-9a-f]{2}/i.test(decoded); i++) {
    try {
      decoded = decodeURIComponent(decoded);
    } catch {
      break;
    }
  }
  const at = decoded.toLowerCase().indexOf('callbacks');
  if (at === -1) {
    // The OpenID provider's redirect to /api/auth/callback carries a one-time code and the state.
    return cut !== -1 && /auth\/+callback/i.test(decoded) ? `${url.slice(0, cut)}?***` : url;
  }
  const segments: string[] = [];
  for (const s of decoded.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') segments.pop();
    else segments.push(s);
  }
  const i = segments.findIndex((s) => s.toLowerCase() === 'callbacks');
  // "callbacks" inside a segment (`callbacks\enqueue\T`): keep only what precedes it.
  if (i === -1) return `${decoded.slice(0, at)}callbacks***`;
  const mode = segments[i + 1];
  const kept = mode !== undefined && MODES.has(mode.toLowerCase()) ? i + 2 : i + 1;
  return `/${segments.slice(0, kept).join('/')}${segments.length > kept || cut !== -1 ? '/***' : ''}`;
}

interface RequestLike {
  method?: string;
  url?: string;
  socket?: { remoteAddress?: string | undefined };
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: {
        req: (req: RequestLike) => ({
          method: req.method,
          url: maskUrl(req.url ?? ''),
          remoteAddress: req.socket?.remoteAddress ?? 'unix',
        }),
        res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
        err: pino.stdSerializers.err,
      },
    },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

type LogFn = (...args: unknown[]) => void;
const LOG_METHODS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/**
 * A request's logger, made only when something is logged at an enabled level. A pino child per
 * request (bindings serialised, redaction set up) cost about 3 % of the event loop under enqueue
 * load, for lines that are almost never written (request lines are debug level).
 */
export class LazyChildLogger {
  private real: Logger | null = null;
  declare fatal: LogFn;
  declare error: LogFn;
  declare warn: LogFn;
  declare info: LogFn;
  declare debug: LogFn;
  declare trace: LogFn;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Record<string, unknown>,
  ) {}

  get level(): string {
    return this.parent.level;
  }

  isLevelEnabled(level: string): boolean {
    return this.parent.isLevelEnabled(level);
  }

  silent(): void {}

  child(bindings: Record<string, unknown>): Logger {
    return this.logger().child(bindings);
  }

  logger(): Logger {
    return (this.real ??= this.parent.child(this.bindings));
  }
}

for (const method of LOG_METHODS) {
  LazyChildLogger.prototype[method] = function (this: LazyChildLogger, ...args: unknown[]) {
    if (!this.isLevelEnabled(method)) return;
    (this.logger()[method] as LogFn)(...args);
  };
}

/**
 * The daemon's pino logger. Secrets never reach a log line: authorization headers, tokens and
 * credentials are redacted by path, and callback URLs (whose path segment is a capability token)
 * are logged with the token masked.
 */
import pino, { type DestinationStream, type Logger } from 'pino';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  'control_token',
  'token',
  'secret',
  'api_key',
  'bearer_token',
  '*.control_token',
  '*.token',
  '*.secret',
  '*.api_key',
  '*.bearer_token',
  '*.credential',
  '*.delivery_auth',
];

const CALLBACK_PATH = /(\/api\/callbacks\/(?:enqueue|wake)\/)[^/?#]+/g;

/** Mask the capability token of a callback URL or path. */
export function maskUrl(url: string): string {
  return url.replace(CALLBACK_PATH, '$1***');
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

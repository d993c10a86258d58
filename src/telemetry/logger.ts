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
  '*.control_token',
  '*.token',
  '*.secret',
  '*.api_key',
  '*.bearer_token',
  '*.credential',
  '*.delivery_auth',
];

const CALLBACK_PATH = /(\/api\/callbacks\/(?:enqueue|wake)\/)[^/?#]+/g;
/** The OpenID provider's redirect carries a one-time authorization code and the state. */
const OIDC_CALLBACK_QUERY = /(\/api\/auth\/callback\/?)\?[^#]*/gi;

/** Mask the capability token of a callback URL or path, and the query of the sign-in callback. */
export function maskUrl(url: string): string {
  return url.replace(CALLBACK_PATH, '$1***').replace(OIDC_CALLBACK_QUERY, '$1?***');
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

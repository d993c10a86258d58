/**
 * The CLI's connection to a running daemon (CONTRACT.md section 11): the control plane over TCP
 * (`--url`, `SVC_URL`, else <home>/daemon.json of a running daemon, else the config's `listen`)
 * with the token (`--token`, `SVC_TOKEN`, else the config's), and the inbox API over its Unix
 * socket (`--socket`, `SVC_SOCKET`, else daemon.json's, else <home>/inbox.sock). Plain node:http,
 * so both transports share one code path.
 */
import http from 'node:http';
import type { Command } from 'commander';
import path from 'node:path';
import { ConfigError, defaultHome, loadConfig } from '../config/load.js';
import { connectUrl, liveDaemon } from '../daemon-file.js';

/** Wait `ms` (polling loops and reconnect backoff); an abort of `signal` ends the wait early. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const stop = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });
}

export interface ClientFlags {
  url?: string;
  token?: string;
  socket?: string;
  home?: string;
  json?: boolean;
}

/** An error answer from the daemon, or a failure to reach it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type Surface = 'control' | 'inbox';

export interface Target {
  base: URL | null;
  socketPath: string;
  token: string;
  /** Where `base` came from (`svc status` says so: a config fallback may reach another home's daemon). */
  from: 'flag' | 'env' | 'daemon.json' | 'config';
  home: string;
}

/** Add the options every client subcommand takes. */
export function clientOptions(cmd: Command): Command {
  return cmd
    .option('--url <url>', 'control-plane URL (env SVC_URL; default: the running daemon of <home>/daemon.json, else the config listen address)')
    .option('--token <token>', 'control token (prefer env SVC_TOKEN: a value on the command line is briefly visible in ps)')
    .option('--socket <path>', 'inbox API socket (env SVC_SOCKET; default <home>/inbox.sock)')
    .option('--home <dir>', 'svc home, for its config and socket (env SVC_HOME)')
    .option('--json', 'machine-readable JSON output');
}

/**
 * The client options given before the subcommand (`svc --url U agents list`, defined on the
 * program by `clientOptions(program)`) as if given after it; one given after it wins. An option
 * the command does not take (`svc --json serve`) is a usage error.
 */
export function inheritClientOptions(program: Command, command: Command): void {
  // A group without options of its own (`svc --json agents`): its action only prints help (help.ts).
  if (command.commands.length > 0 && command.options.length === 0) return;
  if (command === program) return;
  for (const option of program.options) {
    const key = option.attributeName();
    const value = program.getOptionValue(key);
    if (value === undefined || key === 'version') continue;
    if (!command.options.some((o) => o.attributeName() === key)) command.error(`error: option '${option.long}' does not apply to '${command.name()}'`);
    if (command.getOptionValue(key) === undefined) command.setOptionValueWithSource(key, value, 'cli');
  }
}

/**
 * Where to send requests. The control plane: `--url`, `SVC_URL`, else the address in
 * <home>/daemon.json while the daemon that wrote it runs, else the config's `listen`. The socket:
 * `--socket`, `SVC_SOCKET`, else daemon.json's, else the config's.
 */
export function resolveTarget(flags: ClientFlags, env: NodeJS.ProcessEnv = process.env): Target {
  let listen = '127.0.0.1:8700';
  let token = '';
  let socketPath = '';
  let home = path.resolve(flags.home ?? defaultHome(env));
  try {
    const config = loadConfig({ home: flags.home }, env);
    listen = config.values.listen;
    token = config.controlToken;
    socketPath = config.socketPath;
    home = config.home;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    // A broken config file must not stop a client that was given explicit flags.
    if (!flags.url && !env.SVC_URL) throw new ApiError(0, 'config_error', err.message);
  }
  const running = liveDaemon(home);
  const url = flags.url ?? env.SVC_URL ?? running?.url ?? connectUrl(listen);
  const from = flags.url ? 'flag' : env.SVC_URL ? 'env' : running ? 'daemon.json' : 'config';
  return {
    from,
    home,
    base: new URL(url.endsWith('/') ? url : `${url}/`),
    socketPath: flags.socket ?? env.SVC_SOCKET ?? running?.socket ?? socketPath,
    token: flags.token ?? env.SVC_TOKEN ?? token,
  };
}

export interface RequestOptions {
  surface?: Surface;
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
}

/** One request; resolves with the parsed JSON (or text) of a 2xx answer, rejects with ApiError. */
export function call<T = any>(target: Target, method: string, path: string, opts: RequestOptions = {}): Promise<T> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return new Promise((resolve, reject) => {
    const req = open(target, method, path, opts, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        const parsed = parseJson(text);
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) return resolve((parsed ?? text) as T);
        const env = parsed as { code?: string; error?: string } | null;
        reject(new ApiError(status, env?.code ?? `http_${status}`, env?.error ?? (text || `HTTP ${status}`), parsed));
      });
    });
    req.on('error', (err) => reject(unreachable(target, opts.surface ?? 'control', err)));
    req.end();
  });
}

/** Open a request and hand back the response stream (SSE). */
export function open(
  target: Target,
  method: string,
  path: string,
  opts: RequestOptions,
  onResponse: (res: http.IncomingMessage) => void,
): http.ClientRequest {
  const surface = opts.surface ?? 'control';
  const query = Object.entries(opts.query ?? {}).filter(([, v]) => v !== undefined) as Array<[string, string]>;
  const qs = query.length ? `?${new URLSearchParams(query.map(([k, v]) => [k, String(v)] as [string, string])).toString()}` : '';
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  let payload: string | undefined;
  if (opts.body !== undefined) {
    payload = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  let req: http.ClientRequest;
  if (surface === 'inbox') {
    req = http.request({ socketPath: target.socketPath, path: path + qs, method, headers: { host: 'localhost', ...headers } }, onResponse);
  } else {
    const url = new URL(path.replace(/^\//, '') + qs, target.base!);
    if (target.token) headers.authorization = `Bearer ${target.token}`;
    req = http.request(url, { method, headers }, onResponse);
  }
  if (payload !== undefined) req.write(payload);
  return req;
}

function unreachable(target: Target, surface: Surface, err: NodeJS.ErrnoException): ApiError {
  const where = surface === 'inbox' ? target.socketPath : target.base!.origin;
  return new ApiError(0, 'unreachable', `cannot reach the svc daemon at ${where}: ${err.code ?? err.message} (is \`svc serve\` running?)`);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

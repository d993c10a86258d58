/**
 * The CLI's connection to a running daemon (docs/cli.md#finding-the-daemon): the control plane over
 * TCP (`--url`, `SVC_URL`, else <home>/daemon.json of a running daemon, else the config's `listen`)
 * with the token (`--token`, `SVC_TOKEN`, else the config's), and the inbox API over its Unix
 * socket (`--socket`, `SVC_SOCKET`, else daemon.json's, else <home>/inbox.sock). Requests go
 * through openapi-fetch clients typed by src/generated/*.ts (made from openapi/*.json by the
 * build), whose `fetch` is plain node:http, so both transports share one code path (the SSE
 * streams use that path directly).
 */
import http from 'node:http';
import type { Command } from 'commander';
import createClient, { createFinalURL, createQuerySerializer, defaultPathSerializer, type Client, type Middleware } from 'openapi-fetch';
import type { paths as ControlPaths } from '../generated/control-plane.js';
import type { paths as InboxPaths } from '../generated/inbox.js';
import path from 'node:path';
import { ConfigError, defaultHome, loadConfig, type ResolvedConfig } from '../config/index.js';
import { connectUrl, findDaemon, type DaemonLookup } from '../daemon-file.js';

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
  base: URL;
  socketPath: string;
  token: string;
  /** Where `base` came from (`svc status` says so: a config fallback may reach another home's daemon). */
  from: 'flag' | 'env' | 'daemon.json' | 'config';
  home: string;
  /** What <home>/daemon.json says, and whether the daemon it names was identified (only then is its URL used). */
  daemon: DaemonLookup;
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

/** The home the flags name and its config; `error` when the config does not load. */
export type ClientConfig = { home: string } & ({ config: ResolvedConfig; error: null } | { config: null; error: ConfigError });

export function loadClientConfig(flags: ClientFlags, env: NodeJS.ProcessEnv = process.env): ClientConfig {
  try {
    const config = loadConfig({ home: flags.home }, env);
    return { home: config.home, config, error: null };
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return { home: path.resolve(flags.home ?? defaultHome(env)), config: null, error: err };
  }
}

/**
 * Where to send requests. The control plane: `--url`, `SVC_URL`, else the address in
 * <home>/daemon.json once the daemon that wrote it is identified (daemon-file.ts `findDaemon`: a
 * stale file may name another user's process and port, which must never get the token), else the
 * config's `listen`. The socket:
 * `--socket`, `SVC_SOCKET`, else daemon.json's, else the config's. `loaded`: the config, when the
 * caller has already loaded it (`svc doctor`).
 */
export function resolveTarget(flags: ClientFlags, env: NodeJS.ProcessEnv = process.env, loaded = loadClientConfig(flags, env)): Target {
  const { home, config, error } = loaded;
  // A broken config file must not stop a client that was given explicit flags.
  if (error && flags.url === undefined && !env.SVC_URL) throw new ApiError(0, 'config_error', error.message);
  const daemon = findDaemon(home);
  const running = daemon.state === 'identified' ? daemon.info : null;
  // An empty SVC_URL counts as unset, as the config's variables do; an empty --url is a bad URL.
  const [url, from]: [string, Target['from']] =
    flags.url !== undefined
      ? [flags.url, 'flag']
      : env.SVC_URL
        ? [env.SVC_URL, 'env']
        : running
          ? [running.url, 'daemon.json']
          : [connectUrl(config?.values.listen ?? '127.0.0.1:8700'), 'config'];
  return {
    from,
    home,
    daemon,
    base: controlBase(url, from),
    socketPath: flags.socket ?? env.SVC_SOCKET ?? running?.socket ?? config?.socketPath ?? '',
    token: flags.token ?? env.SVC_TOKEN ?? config?.controlToken ?? '',
  };
}

const URL_SOURCE: Record<Target['from'], string> = { flag: '--url', env: 'SVC_URL', 'daemon.json': 'daemon.json', config: 'the config listen address' };

/** The control plane's base URL (with a trailing `/`, so that relative paths keep its path); node:http speaks only http:. */
function controlBase(url: string, from: Target['from']): URL {
  let base: URL | null = null;
  try {
    base = new URL(url.endsWith('/') ? url : `${url}/`);
  } catch {
    /* refused below */
  }
  if (base?.protocol !== 'http:') throw new ApiError(0, 'invalid_url', `${URL_SOURCE[from]}: '${url}' is not an http:// URL`);
  return base;
}

export type ControlClient = Client<ControlPaths>;
export type InboxClient = Client<InboxPaths>;

type JsonBody<Op> = Op extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
/** The documented JSON request body of a control-plane operation. */
export type ControlBody<P extends keyof ControlPaths, M extends keyof ControlPaths[P]> = JsonBody<ControlPaths[P][M]>;
/** The documented JSON request body of an inbox operation. */
export type InboxBody<P extends keyof InboxPaths, M extends keyof InboxPaths[P]> = JsonBody<InboxPaths[P][M]>;

/** The control plane of `target`, typed by openapi/control-plane.json; sends the token. */
export function controlApi(target: Target): ControlClient {
  const client = createClient<ControlPaths>(clientOptionsFor(target, 'control'));
  client.use(envelope(target, 'control'));
  return client;
}

/** The inbox API of `target` over its Unix socket, typed by openapi/inbox.json. */
export function inboxApi(target: Target): InboxClient {
  const client = createClient<InboxPaths>(clientOptionsFor(target, 'inbox'));
  client.use(envelope(target, 'inbox'));
  return client;
}

/**
 * Both clients build requests against a placeholder origin: `nodeFetch` sends the path and query
 * to the real place (the socket, or relative to the control-plane URL, which may have a path).
 */
function clientOptionsFor(target: Target, surface: Surface) {
  return { baseUrl: 'http://localhost', fetch: nodeFetch(target, surface), headers: { accept: 'application/json' }, pathSerializer };
}

/**
 * Path parameters percent-encoded as openapi-fetch does, except `.` and `..`: URL parsing resolves
 * them away even encoded (%2E), so `svc inbox targets delete A ..` would send DELETE /agents/A.
 * They name nothing, and are refused before any request.
 */
function pathSerializer(pathname: string, params: Record<string, unknown>): string {
  for (const [name, value] of Object.entries(params)) {
    if (value === '.' || value === '..') throw new ApiError(0, 'invalid_argument', `'${value}' is not a valid ${name}`);
  }
  return defaultPathSerializer(pathname, params);
}

/**
 * The data of a typed call's 2xx answer: `await ok(controlApi(t).GET('/api/handshake'))`. Any other
 * answer, and a daemon that cannot be reached, has already rejected with an ApiError.
 */
export async function ok<D>(pending: Promise<{ data?: D }>): Promise<D> {
  return (await pending).data as D;
}

/** Turns an error answer (the `{ ok: false, error, code }` envelope) or a failed connection into an ApiError. */
function envelope(target: Target, surface: Surface): Middleware {
  return {
    async onResponse({ response }) {
      if (response.ok) return undefined;
      const text = await response.text();
      const parsed = parseJson(text);
      const env = parsed as { code?: string; error?: string } | null;
      const status = response.status;
      throw new ApiError(status, env?.code ?? `http_${status}`, env?.error ?? (text || `HTTP ${status}`), parsed);
    },
    onError({ error }) {
      return unreachable(target, surface, error as NodeJS.ErrnoException);
    },
  };
}

/** openapi-fetch's `fetch` over node:http: the whole answer is read before the Response is made. */
function nodeFetch(target: Target, surface: Surface): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const headers = Object.fromEntries(request.headers);
    if (body) headers['content-length'] = String(body.length);
    return new Promise((resolve, reject) => {
      const req = send(target, surface, request.method, url.pathname + url.search, headers, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('error', reject);
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const empty = status === 204 || status === 205 || status === 304;
          resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers: responseHeaders(res) }));
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  };
}

function responseHeaders(res: http.IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
  }
  return headers;
}

type GetPath<Paths> = { [P in keyof Paths]: Paths[P] extends { get: { parameters: unknown } } ? P : never }[keyof Paths] & string;
type GetParameters<Paths, P extends keyof Paths> = Paths[P] extends { get: { parameters: infer X } } ? X : never;

/** A documented GET path with its path and query parameters filled in, for `open` (the SSE streams). */
function typedPath<Paths>() {
  const querySerializer = createQuerySerializer();
  return <P extends GetPath<Paths>>(path: P, params: GetParameters<Paths, P>): string =>
    createFinalURL(path, { baseUrl: '', params: params as { query?: Record<string, unknown>; path?: Record<string, unknown> }, querySerializer, pathSerializer });
}
export const controlPath = typedPath<ControlPaths>();
export const inboxPath = typedPath<InboxPaths>();

/** Open a GET request (a path from `controlPath`/`inboxPath`) and hand back the response stream (SSE). */
export function open(
  target: Target,
  path: string,
  opts: { surface?: Surface; headers?: Record<string, string> },
  onResponse: (res: http.IncomingMessage) => void,
): http.ClientRequest {
  return send(target, opts.surface ?? 'control', 'GET', path, { accept: 'application/json', ...opts.headers }, onResponse);
}

/** One node:http request: over the inbox socket (Host: localhost), or to the control plane with the token. */
function send(
  target: Target,
  surface: Surface,
  method: string,
  path: string,
  headers: Record<string, string>,
  onResponse: (res: http.IncomingMessage) => void,
): http.ClientRequest {
  if (surface === 'inbox') {
    return http.request({ socketPath: target.socketPath, path, method, headers: { ...headers, host: 'localhost' } }, onResponse);
  }
  const url = new URL(path.replace(/^\//, ''), target.base);
  return http.request(url, { method, headers: target.token ? { ...headers, authorization: `Bearer ${target.token}` } : headers }, onResponse);
}

function unreachable(target: Target, surface: Surface, err: NodeJS.ErrnoException): ApiError {
  const where = surface === 'inbox' ? target.socketPath : target.base.origin;
  return new ApiError(0, 'unreachable', `cannot reach the svc daemon at ${where}: ${err.code ?? err.message} (is \`svc serve\` running?)`);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

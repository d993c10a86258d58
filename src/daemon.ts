/**
 * The composition root: config -> store -> services -> two HTTP surfaces -> listeners.
 * `startDaemon` either returns a running daemon or throws a StartupError with a one-line reason
 * (docs/getting-started.md#run-the-daemon-svc-serve); `close` is the graceful shutdown shared by
 * signals and POST /api/control/runtime/shutdown.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { DestinationStream, Logger } from 'pino';
import { ConfigError, loadConfig, type ServeFlags, splitHostPort } from './config/index.js';
import { isoAt, systemClock, type Clock, SpecialFileError } from './core/index.js';
import { connectUrl, removeDaemonFile, writeDaemonFile } from './daemon-file.js';
import { applyTimeouts, buildControlSurface, buildInboxSurface, clientErrorHandler, ConnectionBudget, type Surface } from './http/index.js';
import { openStreams } from './inbox/index.js';
import { createServices, startServices, stopServices, type Services } from './services.js';
import { bindPathLength, listenPrivately, removeSocketFile, type PlacedSocket } from './socket-file.js';
import { SchemaTooNewError } from './store/migrations/index.js';
import { createLogger } from './telemetry/index.js';
import { VERSION } from './version.js';

export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}

export interface DaemonOptions {
  flags: ServeFlags;
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
  logDestination?: DestinationStream;
  /** Where bwrap is for the command sandbox (tests: a missing path); default `bwrap` on PATH. */
  bwrap?: string;
}

/** Longest Unix socket path the kernel accepts (sun_path minus the terminator). */
const MAX_SOCKET_PATH = 107;
const SHUTDOWN_BUDGET_MS = 5000;
/**
 * Pending connections the kernel queues for the TCP listeners (Node's default is 511; Linux caps
 * it at net.core.somaxconn, 4096 by default). A burst of connections from another user fills a
 * short queue, and the owner's next connection attempt is then dropped and retried a second later.
 */
const LISTEN_BACKLOG = 4096;

export class Daemon {
  private closing: Promise<void> | null = null;

  constructor(
    readonly services: Services,
    readonly control: Surface,
    readonly inbox: Surface,
    private readonly inboxTcp: http.Server | null,
    private readonly socketFile: PlacedSocket,
    readonly logger: Logger,
  ) {}

  get controlAddress(): string {
    return this.services.endpoints.listen;
  }

  get socketPath(): string {
    return this.services.endpoints.socket;
  }

  /** Graceful shutdown: stop accepting, end streams, flush and checkpoint the store. Idempotent. */
  close(reason = 'shutdown'): Promise<void> {
    this.closing ??= this.shutdown(reason);
    return this.closing;
  }

  private async shutdown(reason: string): Promise<void> {
    this.logger.info({ reason }, 'shutting down');
    this.services.sse.closeAll();
    // Answer output reads blocked on running tasks now, before the listeners close.
    this.services.tasks.releaseWaiters();
    const servers = [
      this.control.app.close(),
      this.inbox.app.close(),
      this.inboxTcp ? new Promise<void>((resolve) => this.inboxTcp!.close(() => resolve())) : Promise.resolve(),
    ];
    this.inboxTcp?.closeAllConnections();
    await Promise.race([Promise.allSettled(servers), delay(SHUTDOWN_BUDGET_MS - 1000)]);
    removeSocketFile(this.socketFile);
    await stopServices(this.services);
    removeDaemonFile(this.services.config.home, process.pid);
    this.logger.info('stopped');
  }
}

export async function startDaemon(opts: DaemonOptions): Promise<Daemon> {
  const env = opts.env ?? process.env;
  let config;
  try {
    config = loadConfig(opts.flags, env);
  } catch (err) {
    if (err instanceof ConfigError) throw new StartupError(err.message);
    throw err;
  }
  const logger = createLogger(config.values.log_level, opts.logDestination);
  ensureWritableHome(config.home);
  warnIfSecretReadable(config.configFile, config.tokenInConfigFile, logger);
  // The socket is first bound at a temporary path beside its own (socket-file.ts): both must fit.
  if (bindPathLength(config.socketPath) > MAX_SOCKET_PATH) {
    throw new StartupError(`socket path ${config.socketPath} is longer than ${MAX_SOCKET_PATH} bytes; choose a shorter --socket`);
  }

  // Before the database is touched: a start refused because another daemon owns this socket must
  // not migrate, bootstrap or resume jobs in that daemon's database.
  checkSocketDirectory(config.socketPath);
  await prepareSocket(config.socketPath);

  let services: Services;
  try {
    services = createServices(config, opts.clock ?? systemClock, logger, { bwrap: opts.bwrap });
  } catch (err) {
    if (err instanceof SchemaTooNewError || err instanceof SpecialFileError) throw new StartupError(err.message);
    throw new StartupError(`cannot open the database in ${config.home}: ${(err as Error).message}`);
  }

  let control: Surface | null = null;
  let inbox: Surface | null = null;
  let inboxTcp: http.Server | null = null;
  let socketFile: PlacedSocket | null = null;
  try {
    await openStreams(services.inbox);
    startServices(services);
    control = await buildControlSurface(services);
    inbox = await buildInboxSurface(services);

    // Timeouts on every listener, per-peer budgets on the TCP ones (src/http/connections.ts).
    const limits = config.values.http;
    const budget = new ConnectionBudget(limits, logger, services.metrics);
    applyTimeouts(control.app.server, limits);
    applyTimeouts(inbox.app.server, limits);
    budget.watch(control.app.server);

    const { host, port } = splitHostPort(config.values.listen);
    await listenOr(control.app.listen({ host, port, backlog: LISTEN_BACKLOG }), `cannot listen on ${config.values.listen}`);
    const addr = control.app.server.address() as AddressInfo;
    services.endpoints.listen = `${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`;

    // Never reachable by others, not even for an instant under umask 000 (socket-file.ts).
    const inboxApp = inbox.app;
    const listenText = () => `Server listening at ${config.socketPath}`;
    socketFile = await listenOr(
      listenPrivately((bindPath) => inboxApp.listen({ path: bindPath, listenTextResolver: listenText }), config.socketPath),
      `cannot listen on socket ${config.socketPath}`,
    );

    if (config.values.inbox.port > 0) {
      // Same inbox app, second listener: loopback only, never another interface.
      const app = inbox.app;
      inboxTcp = http.createServer((req, res) => app.routing(req, res));
      inboxTcp.on('clientError', clientErrorHandler);
      applyTimeouts(inboxTcp, limits);
      budget.watch(inboxTcp);
      await listenOr(
        new Promise<void>((resolve, reject) => {
          inboxTcp!.once('error', reject);
          inboxTcp!.listen(config.values.inbox.port, '127.0.0.1', LISTEN_BACKLOG, () => resolve());
        }),
        `cannot listen on 127.0.0.1:${config.values.inbox.port}`,
      );
      services.endpoints.inboxPort = (inboxTcp.address() as AddressInfo).port;
    }
    // Every listener is up, and before the announcement: whoever saw `listening` finds the file.
    writeDaemonFile(config.home, {
      listen: services.endpoints.listen,
      url: connectUrl(services.endpoints.listen),
      socket: config.socketPath,
      inbox_port: services.endpoints.inboxPort,
      started_at: isoAt(services.startedAt),
      version: VERSION,
    });
  } catch (err) {
    await Promise.allSettled([control?.app.close(), inbox?.app.close(), inboxTcp ? new Promise((r) => inboxTcp!.close(r)) : null]);
    if (socketFile) removeSocketFile(socketFile);
    await stopServices(services).catch(() => undefined);
    if (err instanceof StartupError) throw err;
    throw new StartupError((err as Error).message);
  }

  const daemon = new Daemon(services, control, inbox, inboxTcp, socketFile!, logger);
  // `svc serve` replaces this with a version that also exits the process.
  services.requestShutdown = () => void daemon.close('shutdown requested over HTTP');
  // The listening line is the daemon's announcement: written even when --log-level hides info.
  const announcer = logger.isLevelEnabled('info') ? logger : createLogger('info', opts.logDestination);
  announcer.info(
    { listen: services.endpoints.listen, socket: config.socketPath, inbox_port: services.endpoints.inboxPort, home: config.home, auth: config.controlToken ? 'bearer' : 'local' },
    'listening',
  );
  return daemon;
}

/** svc writes its own files 0600; a config file the user wrote with a token in it is only warned about. */
function warnIfSecretReadable(file: string | null, holdsToken: boolean, logger: Logger): void {
  if (!file || !holdsToken) return;
  const mode = fs.statSync(file).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    logger.warn({ file, mode: mode.toString(8) }, 'the config file holds control_token and other users can read it: chmod 600 it, or use control_token_file');
  }
}

function ensureWritableHome(home: string): void {
  try {
    fs.mkdirSync(home, { recursive: true, mode: 0o700 });
    fs.accessSync(home, fs.constants.W_OK);
  } catch (err) {
    throw new StartupError(`home directory ${home} is not writable: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/**
 * The socket's file mode (0600) is the inbox API's only authentication, so its directory must be
 * one no other user can write to: owned by the daemon's user and not group- or world-writable,
 * or a sticky directory such as /tmp, where others cannot remove or replace our entry. A missing
 * directory is created 0700.
 */
function checkSocketDirectory(socketPath: string): void {
  const dir = path.dirname(socketPath);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = fs.statSync(dir);
  const uid = process.getuid?.();
  const sticky = (st.mode & 0o1000) !== 0;
  const othersWrite = (st.mode & 0o022) !== 0;
  if (sticky) return;
  if ((uid !== undefined && st.uid !== uid) || othersWrite) {
    throw new StartupError(`socket directory ${dir} must belong to this user and not be writable by others (mode ${(st.mode & 0o777).toString(8)}); choose another --socket`);
  }
}

/** A stale socket (nothing answering) is replaced; a live one means another daemon owns it. */
async function prepareSocket(socketPath: string): Promise<void> {
  if (!fs.existsSync(socketPath)) return;
  const live = await new Promise<boolean>((resolve) => {
    const conn = net.connect(socketPath);
    const done = (alive: boolean) => {
      conn.destroy();
      resolve(alive);
    };
    conn.once('connect', () => done(true));
    conn.once('error', () => done(false));
    conn.setTimeout(1000, () => done(false));
  });
  if (live) throw new StartupError(`socket ${socketPath} is in use by another running process (is svc already running with this home?)`);
  fs.unlinkSync(socketPath);
}

async function listenOr<T>(p: Promise<T>, what: string): Promise<T> {
  try {
    return await p;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'EADDRINUSE' || code === 'EEXIST' ? 'address already in use' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
    throw new StartupError(`${what}: ${why}`);
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

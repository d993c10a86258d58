/** `svc serve`: run the daemon in the foreground until SIGTERM/SIGINT or an HTTP shutdown. */
import type { Command } from 'commander';
import type { Daemon } from '../../daemon.js';

interface ServeOptions {
  home?: string;
  config?: string;
  listen?: string;
  socket?: string;
  port?: string;
  token?: string;
  tokenFile?: string;
  logLevel?: string;
}

/**
 * Hard limit on a graceful shutdown (docs/getting-started.md#run-the-daemon-svc-serve: exit 0
 * within 5 s).
 */
const EXIT_DEADLINE_MS = 5000;

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the daemon: control plane on TCP, inbox API on a Unix socket')
    .option('--home <dir>', 'state directory (default $SVC_HOME, else ~/.svc)')
    .option('--config <file>', 'TOML config file (default <home>/config.toml if it exists)')
    .option('--listen <host:port>', 'control-plane address (default 127.0.0.1:8700; port 0 picks a free one)')
    .option('--socket <path>', 'inbox API Unix socket (default <home>/inbox.sock)')
    .option('--port <n>', 'also serve the inbox API on 127.0.0.1:<n>')
    .option('--token <token>', 'control token: turns on bearer mode (visible to other users until start-up hides it; prefer --token-file or SVC_TOKEN)')
    .option('--token-file <file>', 'read the control token from a file')
    .option('--log-level <level>', 'log level: fatal, error, warn, info, debug, trace, silent')
    .action(async (opts: ServeOptions) => {
      // The daemon (Fastify, the store, the run loop, …) loads only here: client commands start
      // without it in a fraction of the time.
      const { startDaemon, StartupError } = await import('../../daemon.js');
      const port = opts.port === undefined ? undefined : Number(opts.port);
      if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535)) {
        fail(`--port must be an integer between 1 and 65535, got ${JSON.stringify(opts.port)}`);
      }
      // Handlers go in before start: the `listening` line is written inside startDaemon, and a
      // supervisor may signal right after it; without a handler that signal would kill the
      // process outright (no checkpoint, socket left behind, no exit 0).
      let daemon: Daemon | undefined;
      let pending: string | null = null;
      const stop = (reason: string) => {
        if (!daemon) {
          pending ??= reason;
          return;
        }
        setTimeout(() => process.exit(1), EXIT_DEADLINE_MS).unref();
        daemon.close(reason).then(
          () => process.exit(0),
          (err: unknown) => {
            daemon!.logger.fatal({ err }, 'shutdown failed');
            process.exit(1);
          },
        );
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
      try {
        daemon = await startDaemon({
          flags: {
            home: opts.home,
            config: opts.config,
            listen: opts.listen,
            socket: opts.socket,
            port,
            token: opts.token,
            tokenFile: opts.tokenFile,
            logLevel: opts.logLevel,
          },
        });
      } catch (err) {
        if (err instanceof StartupError) fail(err.message);
        throw err;
      }
      daemon.services.requestShutdown = () => stop('shutdown requested over HTTP');
      if (pending) stop(pending);
      if (process.env.npm_command) stopWhenOrphaned(() => stop('launcher exited'));
    });
}

/**
 * `npx svc serve` and `npm start` run the daemon under `npm -> sh -c -> node`. A SIGTERM to npm
 * kills the shell, never reaching the daemon, which would live on as an orphan. When npm launched
 * us, the launcher going away (our parent changes) therefore means: shut down gracefully.
 */
function stopWhenOrphaned(stop: () => void): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      stop();
    }
  }, 200);
  timer.unref();
}

function fail(message: string): never {
  process.stderr.write(`svc: ${message}\n`);
  process.exit(1);
}

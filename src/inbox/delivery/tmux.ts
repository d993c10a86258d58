/**
 * Running tmux for terminal targets (terminal.ts types, terminal-gate.ts looks): execFile with an
 * argument array, never a shell, so nothing in a target, a format or a typed text is interpreted;
 * bounded by `delivery.timeout_ms`, by the size of what it prints, and by the shutdown signal.
 */
import { execFile } from 'node:child_process';

/** A captured pane is a few KiB; more than this is not a pane worth reading. */
const MAX_OUTPUT = 1024 * 1024;

/** tmux's answers when a pane, window or session named by `-t` does not exist (tmux 3.x). */
const MISSING = /can't find (pane|window|session)/;

export class TmuxError extends Error {
  constructor(
    message: string,
    /** tmux said the target does not exist (as opposed to: no server, no binary, a timeout). */
    readonly missing: boolean,
  ) {
    super(message);
  }
}

/** Runs one tmux command against the target's server and resolves to what it printed. */
export type Tmux = (args: string[]) => Promise<string>;

export interface TmuxOptions {
  /** The binary (tests point it at a recording stand-in). */
  bin: string;
  /** `-S <socket>`: the target's server; null: tmux's own choice ($TMUX of the daemon, else the default socket). */
  socket: string | null;
  timeoutMs: number;
  signal: AbortSignal;
}

export function tmuxFor(opts: TmuxOptions): Tmux {
  const base = opts.socket ? ['-S', opts.socket] : [];
  return (args) =>
    new Promise((resolve, reject) => {
      execFile(opts.bin, [...base, ...args], { timeout: opts.timeoutMs, maxBuffer: MAX_OUTPUT, windowsHide: true, signal: opts.signal }, (err, stdout, stderr) => {
        if (!err) return resolve(String(stdout));
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return reject(new TmuxError(`${opts.bin} not found`, false));
        const said = String(stderr).trim();
        reject(new TmuxError(`tmux failed: ${said || err.message}`, MISSING.test(said)));
      });
    });
}

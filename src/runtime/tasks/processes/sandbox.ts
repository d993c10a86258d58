/**
 * The command sandbox (docs/security.md#command-sandbox): with `[tasks] sandbox` on and bubblewrap
 * usable here, every command task runs as
 *
 *   env --ignore-signal=HUP,INT,QUIT,TERM,TSTP bwrap <mounts> <namespaces> -- \
 *     env --default-signal=HUP,INT,QUIT,TERM,TSTP <shell> -c <cmd>
 *
 * - What the command sees: the system read-only, a fresh /dev and /proc (its own pid namespace), a
 *   private /tmp, and nothing of /home, /root, /run or the daemon home (empty tmpfs over each); the
 *   task's workspace root is bound writable on top. Mounts are applied shallowest first, so a
 *   workspace inside a hidden tree (the agent home lives in the daemon home) is visible, and the
 *   daemon home inside a workspace is hidden again. A workdir outside the workspace is only
 *   readable: anywhere in the read-only system, or under /tmp (bound read-only); one in a hidden
 *   tree is refused at create (`workdirRefusal`).
 * - Namespaces: pid, ipc, uts, cgroup (where the kernel has it), net unless the task was allowed
 *   network; every capability dropped (a daemon running as root keeps none inside).
 * - `--die-with-parent`: the sandbox dies with the daemon; `--new-session` for a pipe task (no
 *   TIOCSTI into a terminal of the daemon's session), not for a terminal task, whose shell needs
 *   its pty as controlling terminal for job control.
 * - Signals: bubblewrap forwards none, and its outer process dying takes the whole sandbox with it
 *   (SIGKILL through --die-with-parent). So the outer process (the task's leader, whose group the
 *   daemon signals) ignores the stop and terminal signals, and the command gets them back at their
 *   default before it starts. A stop reaches the command through the reaper, which signals each
 *   of the task's processes (task-reaper.ts); a SIGKILL of the group still ends everything.
 * - Exit: the pid namespace's init reports a command killed by signal N as status 128 + N;
 *   task-process.ts `commandExit` turns that back into the signal, as an unsandboxed task reports it.
 * - Leftovers: when the command exits, bubblewrap exits, its init dies with it and the kernel kills
 *   whatever else ran in the pid namespace (`setsid`, double forks: they cannot leave it).
 *
 * Detection runs once (`Sandbox.status`): bwrap is looked up (an injected path, else PATH) and a
 * tiny command is run in a sandbox of the same shape, because a host may forbid the user
 * namespaces bwrap needs: then it is unavailable with the probe's error as the reason.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SandboxMode } from '../../../config/index.js';
import { resolveExecutable, type Wrapper } from './task-process.js';

/** The Debian package (and the usual package name elsewhere) that installs bwrap. */
export const BWRAP_PACKAGE = 'bubblewrap';
/** HOME inside the sandbox: a directory of its private /tmp, gone with the task. */
export const SANDBOX_HOME = '/tmp/home';
/** Trees replaced by an empty tmpfs (besides the daemon home). /tmp is private, the others hidden. */
const PRIVATE_TMP = '/tmp';
const HIDDEN_TREES = ['/home', '/root', '/run'];
/** What the outer bwrap ignores and the command gets back at default (see the header). */
const HELD_SIGNALS = 'HUP,INT,QUIT,TERM,TSTP';
const PROBE_TIMEOUT_MS = 10_000;

/** What one task's sandbox is made of. */
export interface SandboxLayout {
  /** The daemon home: hidden. */
  home: string;
  /** The task's workspace root: writable. */
  root: string;
  workdir: string;
  network: boolean;
  tty: boolean;
  /** Files covered with /dev/null where the sandbox would see them (the inbox socket). */
  masks: readonly string[];
}

export interface SandboxStatus {
  mode: SandboxMode;
  /** Whether command tasks run in bubblewrap. */
  active: boolean;
  /** The bwrap found (null: none, or not looked for with sandbox = "off"). */
  bwrap: string | null;
  version: string | null;
  /** Why commands do not run sandboxed (or, with "required", fail); null when active or off. */
  reason: string | null;
}

/** `required` and no usable bubblewrap: the task fails with failure kind `sandbox_unavailable`. */
export class SandboxUnavailableError extends Error {
  constructor(reason: string) {
    super(`[tasks] sandbox = "required", but ${reason}${reason.includes('Debian package') ? '' : ` (install the Debian package ${BWRAP_PACKAGE})`}`);
    this.name = 'SandboxUnavailableError';
  }
}

interface Probe {
  bwrap: string | null;
  env: string | null;
  version: string | null;
  /** Why it cannot be used; null when it works. */
  error: string | null;
}

/**
 * Look for bwrap (`binary`: an injected path, else `bwrap` on PATH) and run `true` in a sandbox
 * of the shape tasks get. Synchronous: it runs once per process, in a few milliseconds.
 */
export function probeBwrap(binary?: string, envPath = process.env.PATH ?? ''): Probe {
  const bwrap = resolveExecutable(binary ?? 'bwrap', envPath);
  const env = resolveExecutable('env', envPath);
  if (!bwrap) return { bwrap: null, env, version: null, error: `bubblewrap missing (no ${binary ?? 'bwrap on PATH'}): install the Debian package ${BWRAP_PACKAGE}` };
  if (!env) return { bwrap, env, version: null, error: 'env (coreutils) not found on PATH' };
  const run = (file: string, args: string[]) =>
    spawnSync(file, args, { encoding: 'utf8', timeout: PROBE_TIMEOUT_MS, env: { PATH: envPath }, stdio: ['ignore', 'pipe', 'pipe'] });
  const version = /(\d+\.\d+(?:\.\d+)?)/.exec(run(bwrap, ['--version']).stdout ?? '')?.[1] ?? null;
  const tmp = os.tmpdir();
  const layout: SandboxLayout = { home: tmp, root: tmp, workdir: tmp, network: false, tty: false, masks: [] };
  const probe = wrapper(bwrap, env, layout);
  const res = run(probe.file, [...probe.args, 'true']);
  if (res.status === 0) return { bwrap, env, version, error: null };
  const said = `${res.stderr ?? ''}`.trim().split('\n')[0] || (res.error ? res.error.message : `exit status ${res.status ?? res.signal}`);
  return { bwrap, env, version, error: `bubblewrap at ${bwrap} cannot make a sandbox here (user namespaces disabled?): ${said}` };
}

/** The daemon's sandbox: the configured mode and what was detected, once. */
export class Sandbox {
  private probe: Probe | null = null;

  /** `binary`: where bwrap is (tests point it at a missing path); default: PATH. */
  constructor(
    readonly mode: SandboxMode,
    private readonly binary?: string,
  ) {}

  status(): SandboxStatus {
    if (this.mode === 'off') return { mode: 'off', active: false, bwrap: null, version: null, reason: null };
    this.probe ??= probeBwrap(this.binary);
    const { bwrap, version, error } = this.probe;
    if (error === null) return { mode: this.mode, active: true, bwrap, version, reason: null };
    const then = this.mode === 'required' ? 'command tasks fail until then' : 'commands run unsandboxed';
    return { mode: this.mode, active: false, bwrap, version, reason: `${error}; ${then}` };
  }

  /**
   * The wrapper for a task, or null when it runs unsandboxed (off, or auto without bubblewrap).
   * Throws SandboxUnavailableError with `required` and no usable bubblewrap.
   */
  wrap(layout: SandboxLayout): Wrapper | null {
    const s = this.status();
    if (s.active) return wrapper(this.probe!.bwrap!, this.probe!.env!, layout);
    if (s.mode === 'required') throw new SandboxUnavailableError(this.probe!.error!);
    return null;
  }
}

function wrapper(bwrap: string, env: string, layout: SandboxLayout): Wrapper {
  return { file: env, args: [`--ignore-signal=${HELD_SIGNALS}`, bwrap, ...bwrapArgs(layout), '--', env, `--default-signal=${HELD_SIGNALS}`] };
}

/** bwrap's options for a task (everything before `--`). */
export function bwrapArgs(l: SandboxLayout): string[] {
  const home = realOr(l.home);
  const root = path.resolve(l.root);
  const workdir = path.resolve(l.workdir);
  const mounts: Array<{ at: string; args: string[] }> = [PRIVATE_TMP, ...HIDDEN_TREES, home].map((t) => ({ at: t, args: ['--tmpfs', t] }));
  mounts.push({ at: root, args: ['--bind', root, root] });
  // A workdir outside the workspace under the private /tmp: readable where it is.
  const real = realOr(workdir);
  if (!within(workdir, root) && within(real, PRIVATE_TMP)) mounts.push({ at: real, args: ['--ro-bind', real, real] });
  // Shallowest first; at equal depth a tmpfs before a bind (the sort is stable).
  mounts.sort((a, b) => depth(a.at) - depth(b.at));
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', ...mounts.flatMap((m) => m.args), '--dir', SANDBOX_HOME];
  // Name resolution through systemd-resolved's stub needs its directory of the hidden /run.
  if (l.network) args.push('--ro-bind-try', '/run/systemd/resolve', '/run/systemd/resolve');
  for (const m of l.masks) if ((within(m, root) || visible(m, home)) && fs.existsSync(m)) args.push('--ro-bind', '/dev/null', m);
  args.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try');
  if (!l.network) args.push('--unshare-net');
  args.push('--cap-drop', 'ALL', '--die-with-parent');
  if (!l.tty) args.push('--new-session');
  args.push('--chdir', workdir);
  return args;
}

/**
 * Why a sandboxed task cannot use this workdir, or null. Inside the workspace root: always fine.
 * Outside it the workdir is only readable, and one in a hidden tree (the daemon home, /home, /root,
 * /run) is refused rather than exposed: naming a directory must not un-hide it.
 */
export function workdirRefusal(home: string, root: string, workdir: string): string | null {
  const lexical = path.resolve(workdir);
  if (within(lexical, path.resolve(root))) return null;
  const real = realOr(lexical);
  for (const tree of [realOr(home), path.resolve(home), ...HIDDEN_TREES]) {
    if (within(lexical, tree) || within(real, tree)) {
      const what = tree === '/home' || tree === '/root' ? 'home directories are' : tree === '/run' ? '/run is' : 'the daemon home is';
      return `the command sandbox hides ${tree} (${what} invisible to commands); use a workdir inside the workspace ${root}, or attach that directory as a workspace`;
    }
  }
  return null;
}

/** Whether `p` is `dir` or lies below it. */
function within(p: string, dir: string): boolean {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Whether the sandbox shows `p` at all (outside the trees it replaces). */
function visible(p: string, home: string): boolean {
  return ![PRIVATE_TMP, ...HIDDEN_TREES, home].some((t) => within(path.resolve(p), t) || within(realOr(p), t));
}

function depth(p: string): number {
  return p.split('/').filter(Boolean).length;
}

function realOr(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

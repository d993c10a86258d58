/**
 * The checks of `svc doctor`, each one line: ok, warn or fail, with a hint for anything not ok.
 * Local facts first (Node, the home, the config, disk space, tools on PATH), then the daemon of
 * the home: daemon.json and its pid, the control plane's handshake, whether the CLI's token is
 * accepted, the inbox socket. A daemon that is not running is a warning (nothing is broken; the
 * checks that need it are left out); one that runs but does not answer is a failure.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ResolvedConfig } from '../../config/index.js';
import { BWRAP_PACKAGE, probeBwrap, resolveExecutable } from '../../runtime/tasks/processes/index.js';
import { NODE_ENGINE } from '../../version.js';
import { ApiError, controlApi, inboxApi, ok as answer, type ClientConfig, type Target } from '../client.js';

export type CheckStatus = 'ok' | 'warn' | 'fail';
export interface Check {
  name: string;
  status: CheckStatus;
  detail: string;
  hint: string | null;
}

const ok = (name: string, detail: string): Check => ({ name, status: 'ok', detail, hint: null });
const warn = (name: string, detail: string, hint: string): Check => ({ name, status: 'warn', detail, hint });
const bad = (name: string, detail: string, hint: string): Check => ({ name, status: 'fail', detail, hint });

/** Below this much free space in the home: a warning; below a tenth of it: a failure. */
const LOW_DISK_BYTES = 1024 ** 3;

export function nodeCheck(version = process.versions.node, engine = NODE_ENGINE): Check {
  const min = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(engine.trim());
  if (!min) return ok('node', `v${version} (engines: ${engine || 'any'})`);
  const have = version.split('.').map(Number);
  const need = [1, 2, 3].map((i) => Number(min[i] ?? 0));
  const first = need.findIndex((n, i) => (have[i] ?? 0) !== n);
  const older = first !== -1 && (have[first] ?? 0) < need[first]!;
  return older ? bad('node', `v${version}, svc needs ${engine}`, `install Node.js ${engine.replace('>=', '')} or later`) : ok('node', `v${version} (needs ${engine})`);
}

export function homeCheck(home: string): Check {
  let st: fs.Stats;
  try {
    st = fs.statSync(home);
  } catch {
    return warn('home', `${home} does not exist yet`, `svc serve --home ${home} creates it (mode 0700)`);
  }
  if (!st.isDirectory()) return bad('home', `${home} is not a directory`, 'give another --home, or move the file away');
  const mode = (st.mode & 0o777).toString(8).padStart(4, '0');
  if (process.getuid && st.uid !== process.getuid()) return bad('home', `${home} belongs to uid ${st.uid}, not to you (${process.getuid()})`, `chown -R "$(id -u)" ${home}`);
  if (st.mode & 0o077) return bad('home', `${home} has mode ${mode}: others may read its tokens and stores`, `chmod 700 ${home}`);
  return ok('home', `${home} (mode ${mode}, yours)`);
}

export function configCheck(loaded: ClientConfig): Check {
  // The message names the layer the bad value came from: the file, an environment variable or an option.
  if (!loaded.config) return bad('config', loaded.error.message, 'fix the setting named (docs/configuration.md); svc serve refuses to start until then');
  const file = loaded.config.configFile;
  return ok('config', file ? `${file} parses` : 'no config file: built-in defaults');
}

export function diskCheck(home: string): Check {
  const dir = fs.existsSync(home) ? home : path.dirname(home);
  const s = fs.statfsSync(dir);
  const free = s.bavail * s.bsize;
  const detail = `${(free / 1024 ** 3).toFixed(1)} GiB free at ${dir}`;
  if (free < LOW_DISK_BYTES / 10) return bad('disk', detail, 'free some space: the stores need room for writes and their WAL');
  if (free < LOW_DISK_BYTES) return warn('disk', detail, 'free some space before the stores fill it (svc inbox compaction, events.retain_days)');
  return ok('disk', detail);
}

/** The tools the configuration needs, found on PATH or not. */
export function toolChecks(config: ResolvedConfig | null, terminalTargets: number | null, env: NodeJS.ProcessEnv = process.env): Check[] {
  const checks: Check[] = [];
  const git = resolveExecutable('git', env.PATH ?? '');
  checks.push(git ? ok('git', git) : warn('git', 'not found on PATH', 'install git: svc skills add from a repository and git worktrees need it'));
  const tmux = resolveExecutable('tmux', env.PATH ?? '');
  if (tmux) checks.push(ok('tmux', tmux));
  else if (terminalTargets) checks.push(bad('tmux', `not found on PATH, and ${terminalTargets} terminal target(s) need it`, 'install tmux, or remove the terminal targets (svc inbox targets delete)'));
  else checks.push(ok('tmux', 'not found on PATH; only terminal targets need it, and there are none'));
  const streams = config?.values.inbox.streams;
  if (streams?.backend === 'jetstream') {
    const nats = resolveExecutable('nats-server', env.PATH ?? '');
    checks.push(nats ? ok('nats-server', nats) : warn('nats-server', `not found on PATH; the streams live on ${streams.servers.join(', ')}`, 'fine when those servers run elsewhere; else install nats-server and start it with -js'));
  }
  checks.push(sandboxCheck(config, env));
  return checks;
}

/**
 * The command sandbox as the daemon of this config would have it (docs/security.md#command-sandbox):
 * the mode from the config, bubblewrap detected here the way the daemon detects it.
 */
export function sandboxCheck(config: ResolvedConfig | null, env: NodeJS.ProcessEnv = process.env): Check {
  const mode = config?.values.tasks.sandbox ?? 'auto';
  if (mode === 'off') return ok('sandbox', 'off ([tasks] sandbox = "off"): commands run unsandboxed');
  const probe = probeBwrap(undefined, env.PATH ?? '');
  if (probe.error === null) return ok('sandbox', `bubblewrap ${probe.version ?? '(version unknown)'} (on)`);
  const hint = `install the Debian package ${BWRAP_PACKAGE} (apt-get install ${BWRAP_PACKAGE}), or allow user namespaces`;
  return mode === 'required'
    ? bad('sandbox', `${probe.error}; command tasks fail ([tasks] sandbox = "required")`, hint)
    : warn('sandbox', `${probe.error}; commands run unsandboxed`, hint);
}

/** The daemon of the target's home as the CLI reaches it: `target` is where every other command would go. */
export async function daemonChecks(target: Target): Promise<{ checks: Check[]; terminalTargets: number | null }> {
  const { home, daemon } = target;
  const running = daemon.state === 'identified' ? daemon.info : null;
  const file = daemon.state === 'none' ? null : daemon.info;
  const checks: Check[] = [];
  if (running) checks.push(ok('daemon', `pid ${running.pid}, started ${running.started_at}, svc ${running.version}`));
  else if (daemon.state === 'stale') {
    const hint = daemon.gone ? `start it again: svc serve --home ${home}` : `ignored, and sent no token: start the daemon again (svc serve --home ${home}), or remove the file`;
    checks.push(warn('daemon', `${path.join(home, 'daemon.json')} names pid ${daemon.info.pid}, ${daemon.reason}`, hint));
  }

  const where = target.base.origin;
  let auth: string;
  try {
    auth = (await answer(controlApi(target).GET('/api/handshake'))).auth.mode;
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 'unreachable') throw err;
    if (!running && target.from === 'config') {
      if (!file) checks.push(warn('daemon', `none running for ${home}, and nothing answers at ${where}`, `start it: svc serve --home ${home}`));
      return { checks, terminalTargets: null };
    }
    checks.push(bad('control plane', `nothing answers at ${where} (from ${target.from})`, running ? "the daemon runs but does not answer: see its log" : 'check --url / SVC_URL, or start the daemon'));
    return { checks, terminalTargets: null };
  }
  checks.push(ok('control plane', `answers at ${where} (from ${target.from})`));
  checks.push(await tokenCheck(target, auth));
  const inbox = await inboxCheck(target);
  checks.push(...inbox.checks);
  return { checks, terminalTargets: inbox.terminalTargets };
}

async function tokenCheck(target: Target, mode: string): Promise<Check> {
  try {
    await answer(controlApi(target).GET('/api/control/runtime/status'));
    return ok('auth', mode === 'bearer' ? 'bearer mode: the token is accepted' : `${mode} mode: no token needed`);
  } catch (err) {
    if (!(err instanceof ApiError) || (err.status !== 401 && err.status !== 403)) throw err;
    const detail = target.token ? `${mode} mode: the token is refused (${err.code})` : `${mode} mode, and the CLI has no token (${err.code})`;
    return bad('auth', detail, "set SVC_TOKEN (or --token) to the daemon's control token: control_token or control_token_file in its config");
  }
}

async function inboxCheck(target: Target): Promise<{ checks: Check[]; terminalTargets: number | null }> {
  const socket = target.socketPath;
  const listed = await answer(inboxApi(target).GET('/agents', { params: { query: { includeTargets: 'true' } } })).catch((err: unknown) => {
    if (!(err instanceof ApiError)) throw err;
    return err;
  });
  if (listed instanceof ApiError) {
    return { checks: [bad('inbox socket', `${socket}: ${listed.code}: ${listed.message}`, 'check --socket / SVC_SOCKET, or the daemon log')], terminalTargets: null };
  }
  const terminalTargets = listed.agents.flatMap((a) => a.activationTargets ?? []).filter((t) => t.kind === 'terminal').length;
  const mode = fs.statSync(socket).mode & 0o777;
  const shown = mode.toString(8).padStart(4, '0');
  if (mode & 0o077) return { checks: [bad('inbox socket', `${socket} answers, but has mode ${shown}: other users may call the inbox API`, `chmod 600 ${socket}`)], terminalTargets };
  return { checks: [ok('inbox socket', `${socket} answers (mode ${shown})`)], terminalTargets };
}

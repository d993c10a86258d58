/**
 * Every git command svc runs goes through `runGit` (workspace inspection, child-agent worktrees,
 * skills fetched from repositories): execFile (no shell), a time limit, an output cap, and an
 * environment that never prompts and holds no control token. And no program that a repository's
 * own configuration names may run, because the daemon runs these commands as its user, outside any
 * task, on repositories an agent may have written to:
 *
 * - hooks: `core.hooksPath=/dev/null` (post-checkout runs on `git worktree add`); `core.fsmonitor=false`;
 * - filter drivers (`filter.<name>.smudge|clean|process`, run by checkout and status for paths whose
 *   attributes name them): git has no switch for "no filters", so every driver the repository's
 *   config defines (local or worktree scope, and the files it includes) is read first with
 *   `git config --get-regexp` and emptied, and made not `required`. Drivers of the user's global and
 *   system config (git-lfs) still run: they are the user's own choice;
 * - submodules are not recursed into, and a command that needs no remote can use no transport
 *   (`protocol.allow=never`), so no ssh command, proxy or remote helper of the repository runs;
 * - no automatic gc or maintenance.
 *
 * The overrides go in GIT_CONFIG_COUNT/KEY/VALUE: command scope, above every config file, and a
 * driver's name may hold spaces or `=`, which `-c name=value` could not carry.
 */
import { execFile } from 'node:child_process';

export interface ExecResult {
  code: number | string | null;
  stdout: string;
  stderr: string;
  killed: boolean;
}

export interface GitOptions {
  /** The repository (or where git runs); none for clone and ls-remote. */
  cwd?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  maxBuffer?: number;
  /** The command talks to a remote (clone, ls-remote): transports stay allowed. */
  network?: boolean;
}

const DEFAULT_MAX_BUFFER = 1 << 20;

const ALWAYS: Array<[string, string]> = [
  ['core.hooksPath', '/dev/null'],
  ['core.fsmonitor', 'false'],
  ['submodule.recurse', 'false'],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
];
const LOCAL_ONLY: Array<[string, string]> = [['protocol.allow', 'never']];

/** Scopes whose settings are the user's own (git config --show-scope); anything else came with the repository. */
const USER_SCOPES = new Set(['system', 'global', 'command']);

/**
 * The filter drivers the repository's own configuration defines, from `git config -z
 * --show-scope --get-regexp '^filter\.'` (entries `scope NUL key [LF value] NUL`). A driver's
 * name is everything between `filter.` and the last dot, and may itself hold dots.
 */
export function repositoryFilterDrivers(output: string): string[] {
  const drivers = new Set<string>();
  const parts = output.split('\0');
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const scope = parts[i]!;
    const key = parts[i + 1]!.split('\n')[0]!;
    const last = key.lastIndexOf('.');
    if (USER_SCOPES.has(scope) || !key.startsWith('filter.') || last <= 'filter.'.length) continue;
    drivers.add(key.slice('filter.'.length, last));
  }
  return [...drivers];
}

/** The overrides for `drivers`: each one emptied (an empty command is no command) and not required. */
function neutralised(drivers: string[]): Array<[string, string]> {
  return drivers.flatMap((d): Array<[string, string]> => [
    [`filter.${d}.smudge`, ''],
    [`filter.${d}.clean`, ''],
    [`filter.${d}.process`, ''],
    [`filter.${d}.required`, 'false'],
  ]);
}

/** The daemon's environment minus its control token, never prompting, in the C locale, plus `config` in command scope. */
function gitEnv(config: Array<[string, string]>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: 'echo',
    GCM_INTERACTIVE: 'never',
    GIT_OPTIONAL_LOCKS: '0',
    LC_ALL: 'C',
  };
  delete env.SVC_TOKEN;
  // After any the daemon was started with: a later entry wins.
  const base = Number(env.GIT_CONFIG_COUNT) || 0;
  config.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${base + i}`] = key;
    env[`GIT_CONFIG_VALUE_${base + i}`] = value;
  });
  env.GIT_CONFIG_COUNT = String(base + config.length);
  return env;
}

function exec(args: string[], opts: GitOptions, env: NodeJS.ProcessEnv): Promise<ExecResult> {
  return new Promise((resolve) => {
    execFile(
      'git',
      args,
      { cwd: opts.cwd, signal: opts.signal, timeout: opts.timeoutMs, maxBuffer: opts.maxBuffer ?? DEFAULT_MAX_BUFFER, windowsHide: true, env },
      (err, stdout, stderr) => {
        const e = err as (NodeJS.ErrnoException & { killed?: boolean; code?: number | string }) | null;
        resolve({ code: e ? (e.code ?? 1) : 0, stdout: String(stdout), stderr: String(stderr), killed: Boolean(e?.killed) });
      },
    );
  });
}

/**
 * Commands that read refs or remove files but never read or write a file's content through the
 * repository's attributes, so no filter driver can run: no need to list the drivers first (one
 * git process fewer). Anything not listed is checked.
 */
function runsNoFilter(args: string[]): boolean {
  const [command, sub] = args;
  if (command === 'rev-parse' || command === 'symbolic-ref' || command === 'branch') return true;
  return command === 'worktree' && (sub === 'list' || sub === 'prune' || sub === 'remove');
}

/** Run `git ARGS` as described above; never rejects (the result carries the exit code or errno). */
export async function runGit(args: string[], opts: GitOptions): Promise<ExecResult> {
  const fixed = [...ALWAYS, ...(opts.network ? [] : LOCAL_ONLY)];
  let drivers: string[] = [];
  if (opts.cwd !== undefined && !runsNoFilter(args)) {
    // Reading config runs nothing. Exit 1: no filter.* key at all. Outside a repository only the user's are listed.
    const listed = await exec(['config', '-z', '--show-scope', '--get-regexp', '^filter\\.'], opts, gitEnv(fixed));
    // Anything else failed: fail closed rather than run the command with the drivers unknown.
    if (listed.code !== 0 && listed.code !== 1) return listed;
    drivers = repositoryFilterDrivers(listed.stdout);
  }
  return exec(args, opts, gitEnv([...fixed, ...neutralised(drivers)]));
}

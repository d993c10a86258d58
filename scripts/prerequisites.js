/**
 * The system programs the test suite runs for real, checked before `npm test` builds anything.
 *
 * One list: a program's name, the Debian package that installs it, and what needs it. Missing
 * programs are installed with apt-get when this runs as root on a machine that has it (a fresh
 * Debian container, CI); otherwise the run stops at once with one line naming the exact command.
 * `node scripts/prerequisites.js --check` only reports (exit 1 when something is missing).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** @type {{ program: string, pkg: string, why: string }[]} */
export const PREREQUISITES = [
  { program: 'git', pkg: 'git', why: 'worktrees of child tasks, workspace repositories' },
  { program: 'tmux', pkg: 'tmux', why: 'the inbox terminal target types into a real tmux pane' },
  { program: 'nats-server', pkg: 'nats-server', why: 'JetStream streams run against real nats-server processes' },
  { program: 'bwrap', pkg: 'bubblewrap', why: 'command tasks run in the bubblewrap sandbox' },
  { program: 'chromium', pkg: 'chromium', why: 'the console and the API reference page render in headless Chromium' },
  { program: 'promtool', pkg: 'prometheus', why: 'both metrics exposition formats are checked by promtool' },
  { program: 'jq', pkg: 'jq', why: 'the quick start of docs/getting-started.md is pasted into bash' },
  { program: 'curl', pkg: 'curl', why: 'the quick starts of README.md and docs/getting-started.md are pasted into bash' },
  { program: 'rg', pkg: 'ripgrep', why: 'search_files runs ripgrep when it is installed (its JS fallback is tested too)' },
];

/** Debian puts some servers (nats-server) in /usr/sbin, which is not on every user's PATH. */
const EXTRA_DIRS = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/** Where programs are looked for: PATH, then the usual system directories. */
export function searchDirs(envPath = process.env.PATH ?? '') {
  return [...envPath.split(path.delimiter).filter(Boolean), ...EXTRA_DIRS];
}

export function findProgram(program, dirs = searchDirs()) {
  for (const dir of dirs) {
    const candidate = path.join(dir, program);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      /* not here */
    }
  }
  return null;
}

export function missingPrerequisites(dirs = searchDirs()) {
  return PREREQUISITES.filter((p) => findProgram(p.program, dirs) === null);
}

/** The one command that installs `missing` (deduplicated packages, in list order). */
export function installCommand(missing, asRoot) {
  const pkgs = [...new Set(missing.map((p) => p.pkg))].join(' ');
  return `${asRoot ? '' : 'sudo '}apt-get install -y --no-install-recommends ${pkgs}`;
}

/** The one line a run that cannot install prints before it stops. */
export function missingLine(missing, asRoot) {
  return `svc's tests need ${missing.map((p) => p.program).join(', ')}: install with \`${installCommand(missing, asRoot)}\``;
}

function aptInstall(missing) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const pkgs = [...new Set(missing.map((p) => p.pkg))];
  console.error(`installing test prerequisites: ${pkgs.join(' ')}`);
  const run = (args) => spawnSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'inherit'] }).status === 0;
  return run(['update', '-qq']) && run(['install', '-y', '-qq', '--no-install-recommends', ...pkgs]);
}

function main() {
  const checkOnly = process.argv.includes('--check');
  let missing = missingPrerequisites();
  if (missing.length === 0) return 0;
  const asRoot = process.getuid?.() === 0;
  if (!checkOnly && asRoot && findProgram('apt-get')) {
    aptInstall(missing);
    missing = missingPrerequisites();
    if (missing.length === 0) return 0;
  }
  console.error(missingLine(missing, asRoot));
  return 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exit(main());

/**
 * `npm run prepare`: build dist/ unless it is already newer than everything it is built from.
 *
 * npm runs `prepare` after `npm ci`, and again each time it installs this directory as a package.
 * The first `npx svc …` in a clone does exactly that (npm exec installs the project into its cache
 * as a link to the clone and runs `prepare` there), so without this check it rebuilt the same
 * dist/ a second time, 10–15 s before the command even started. `npm run build` (and `npm test`,
 * `npm run bench`, which call it) always builds.
 *
 * src/generated/ (the CLI's client types, gitignored) counts among the sources like the rest of
 * src/: scripts/generate-client.js writes a file there only when its text changes, so a typecheck
 * or an `openapi:write` that changes nothing leaves dist/ current.
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const INPUTS = ['src', 'scripts', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'];
export const OUTPUTS = ['dist/cli/main.js', 'dist/daemon.js', 'dist/console/app.js', 'dist/console/app.css'];

/**
 * Newest modification time under `p` (a file or a directory tree); 0 when it does not exist. A
 * symbolic link counts with its own time and is not followed (a link back up the tree is no loop).
 */
function newest(p) {
  let st;
  try {
    st = fs.lstatSync(p);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const name of fs.readdirSync(p)) max = Math.max(max, newest(path.join(p, name)));
  return max;
}

/** Whether the checkout at `root` needs a build: an output is missing or older than an input. */
export function needsBuild(root) {
  let oldest = Infinity;
  for (const out of OUTPUTS) {
    try {
      oldest = Math.min(oldest, fs.statSync(path.join(root, out)).mtimeMs);
    } catch {
      return true;
    }
  }
  return !(oldest > Math.max(...INPUTS.map((p) => newest(path.join(root, p)))));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  if (needsBuild(root)) execSync('npm run build', { cwd: root, stdio: 'inherit' });
  else process.stdout.write('dist/ is up to date with its sources: not rebuilt (npm run build forces it)\n');
}

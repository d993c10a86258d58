// Runs in `prepare` (after `npm ci` has built dist/): links this package's own `svc` command into
// node_modules/.bin. npm never links a project's own bin there, so without the link the first
// `npx svc` in a fresh clone installs the project into npm's exec cache as a `file:` dependency,
// which took ~10 s here (every later call is fast). With it, `npx svc` starts at once.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const binDir = path.join(root, 'node_modules', '.bin');
const link = path.join(binDir, 'svc');
if (fs.existsSync(binDir) && !fs.existsSync(link)) {
  fs.symlinkSync(path.relative(binDir, path.join(root, 'bin', 'svc.js')), link);
}

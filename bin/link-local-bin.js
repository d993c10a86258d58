#!/usr/bin/env node
// Run by `prepare` after `npm ci` in a clone: links bin/svc.js as node_modules/.bin/svc, so that
// `npx svc …` starts this checkout's CLI at once. Without the link npm looks the name up in the
// registry first (about 15 s; a different package named `svc` exists there) before it falls back
// to the project's own bin. Installs that have no node_modules/.bin of their own are left alone.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const binDir = path.join(root, 'node_modules', '.bin');
const link = path.join(binDir, 'svc');
if (fs.existsSync(binDir) && !fs.existsSync(link)) {
  fs.symlinkSync(path.relative(binDir, path.join(root, 'bin', 'svc.js')), link);
}

// Bundles the console (src/console, Preact) into dist/console: app.js and app.css, served by the
// daemon at /console/assets/ (src/http/pages/console.ts). Runs in `npm run build`.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist', 'console');
fs.mkdirSync(out, { recursive: true });
await build({
  entryPoints: [path.join(root, 'src', 'console', 'index.tsx')],
  outfile: path.join(out, 'app.js'),
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  logLevel: 'warning',
});
fs.copyFileSync(path.join(root, 'src', 'console', 'style.css'), path.join(out, 'app.css'));

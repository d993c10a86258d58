/**
 * Writes the CLI's typed client declarations, src/generated/control-plane.ts and
 * src/generated/inbox.ts, from the OpenAPI documents openapi/*.json with openapi-typescript.
 *
 * The documents are the one committed source: the client types are build output, gitignored, and
 * made again first thing by `npm run build` and `npm run typecheck`, and by `npm run openapi:write`
 * after it rewrites the documents. A file whose text has not changed is left alone, so its time
 * stays older than dist/ (scripts/prepare.js rebuilds when a source is newer than dist/).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

export const DOCUMENTS = ['control-plane.json', 'inbox.json'];

/**
 * The declarations of each document, keyed by their path under the repository root:
 * `{ 'inbox.json': text }` -> `{ 'src/generated/inbox.ts': declarations }`.
 */
export async function renderClientTypes(docs) {
  const out = {};
  for (const [name, text] of Object.entries(docs)) {
    const header = `// Generated from openapi/${name} by scripts/generate-client.js (openapi-typescript) during npm run build; not in git, do not edit.\n`;
    out[`src/generated/${name.replace(/\.json$/, '.ts')}`] = header + astToString(await openapiTS(JSON.parse(text), { silent: true }));
  }
  return out;
}

/** Writes the declarations of the checkout at `root` where they differ; returns the paths written. */
export async function writeClientTypes(root) {
  const docs = Object.fromEntries(DOCUMENTS.map((name) => [name, fs.readFileSync(path.join(root, 'openapi', name), 'utf8')]));
  const written = [];
  for (const [rel, text] of Object.entries(await renderClientTypes(docs))) {
    const file = path.join(root, rel);
    if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text) continue;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    written.push(rel);
  }
  return written;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  for (const rel of await writeClientTypes(root)) process.stdout.write(`wrote ${rel}\n`);
}

/**
 * Writes openapi/control-plane.json and openapi/inbox.json from the route schemas
 * (`npm run openapi:write`, which then regenerates the CLI's client types from them with
 * scripts/generate-client.js), or with --check fails when a checked-in document is stale
 * (`npm run openapi:check`, also run by the test suite).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config/index.js';
import { systemClock } from '../core/index.js';
import { createServices, stopServices } from '../services.js';
import { createLogger } from '../telemetry/index.js';
import { buildControlSurface, buildInboxSurface } from './surfaces.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Generate both documents from a throwaway home (the documents do not depend on state). */
export async function renderDocuments(): Promise<Record<string, string>> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-openapi-'));
  const services = createServices(loadConfig({ home }, {}), systemClock, createLogger('silent'));
  try {
    const control = await buildControlSurface(services);
    const inbox = await buildInboxSurface(services);
    const out = {
      'control-plane.json': JSON.stringify(control.document(), null, 2) + '\n',
      'inbox.json': JSON.stringify(inbox.document(), null, 2) + '\n',
    };
    await Promise.all([control.app.close(), inbox.app.close()]);
    return out;
  } finally {
    await stopServices(services);
    fs.rmSync(home, { recursive: true, force: true });
  }
}

async function run(check: boolean): Promise<number> {
  const docs = await renderDocuments();
  const files = Object.fromEntries(Object.entries(docs).map(([name, text]) => [`openapi/${name}`, text]));
  let stale = 0;
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(ROOT, rel);
    if (check) {
      const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
      if (current !== text) {
        stale++;
        process.stderr.write(`${rel} is stale: run npm run openapi:write\n`);
      }
    } else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
      process.stdout.write(`wrote ${rel}\n`);
    }
  }
  return stale === 0 ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  run(process.argv.includes('--check')).then((code) => process.exit(code));
}

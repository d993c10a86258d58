/**
 * The API reference at /docs: an HTML page with a strict Content-Security-Policy whose scripts
 * and styles come from the daemon itself (swagger-ui-dist), over both OpenAPI documents, rendered
 * by a real headless Chromium (Debian package `chromium`). Needs `npm run build` first.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonPool, request, type RunningDaemon } from '../helpers/daemon.js';

const pool = daemonPool();
let d: RunningDaemon;
beforeAll(async () => {
  d = await pool.start();
});
afterAll(() => pool.cleanup());

function chromium(): string {
  for (const bin of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    try {
      fs.accessSync(bin);
      return bin;
    } catch {
      /* next */
    }
  }
  throw new Error('chromium is not installed (Debian package chromium)');
}

/** The page's DOM after its scripts ran (Swagger UI fetches and renders the document). */
function renderedDom(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(chromium(), ['--headless', '--disable-gpu', '--no-sandbox', '--dump-dom', '--virtual-time-budget=10000', url], { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout) =>
      err ? reject(err) : resolve(stdout),
    );
  });
}

describe('GET /docs', () => {
  it('serves the page with a CSP that allows only this origin\'s scripts, its assets, and the inbox document', async () => {
    const page = await request({ base: d.base }, 'GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.text).not.toMatch(/<script>[^<]/); // no inline script
    for (const src of page.text.matchAll(/(?:src|href)="([^"]+)"/g)) expect(src[1]).toMatch(/^\/docs\/assets\//);
    for (const [name, type] of [['swagger-ui.css', 'text/css'], ['swagger-ui-bundle.js', 'text/javascript'], ['init.js', 'text/javascript']]) {
      const r = await request({ base: d.base }, 'GET', `/docs/assets/${name}`);
      expect(r.status, name).toBe(200);
      expect(r.headers['content-type']).toContain(type);
    }
    for (const bad of ['nope.js', '..%2Fpackage.json', 'swagger-ui-bundle.js.map']) expect((await request({ base: d.base }, 'GET', `/docs/assets/${bad}`)).status, bad).toBe(404);
    const viaControl = await request({ base: d.base }, 'GET', '/docs/inbox.json');
    const viaSocket = await request({ socketPath: d.socket }, 'GET', '/openapi.json');
    expect(viaControl.json).toEqual(viaSocket.json);
  });

  it('renders both documents in headless Chromium, offline', async () => {
    expect(await renderedDom(`${d.base}/docs`)).toContain('svc control plane');
    expect(await renderedDom(`${d.base}/docs?urls.primaryName=inbox`)).toContain('svc inbox API');
  }, 120_000);
});

/**
 * The API reference at `GET /docs`: Swagger UI (the `swagger-ui-dist` package's own files, served
 * from node_modules, so nothing loads from a CDN) over both OpenAPI documents: the control plane's
 * (`/api/openapi.json`) and the inbox's (`/docs/inbox.json`; the inbox itself is served on the Unix
 * socket, which a browser cannot reach). Open like the documents themselves. The page runs only
 * scripts of this origin (a Content-Security-Policy without inline scripts).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { errors } from '../../core/errors.js';
import { defineRoute, type AnyRoute } from '../route.js';

const tags = ['discovery'];

/** The checked-in inbox document (kept equal to the generated one by `npm run openapi:check`). */
const INBOX_DOCUMENT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'openapi', 'inbox.json');

const INIT_SCRIPT = `window.addEventListener('load', () => {
  window.ui = SwaggerUIBundle({
    urls: [
      { url: '/api/openapi.json', name: 'control plane' },
      { url: '/docs/inbox.json', name: 'inbox' },
    ],
    dom_id: '#reference',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
    tryItOutEnabled: false,
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>svc API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;

const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'";

/** The files of swagger-ui-dist the page uses, read once on first request. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'init.js': 'text/javascript; charset=utf-8',
};
const cache = new Map<string, Buffer>();
let inboxDocument: Buffer | null = null;

function asset(name: string): Buffer {
  let body = cache.get(name);
  if (!body) {
    if (name === 'init.js') body = Buffer.from(INIT_SCRIPT);
    else body = fs.readFileSync(path.join(path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json')), name));
    cache.set(name, body);
  }
  return body;
}

export function docsRoutes(): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/docs',
      auth: 'open',
      tags,
      summary: 'API reference (Swagger UI) for the control plane and the inbox',
      responses: { 200: { description: 'An HTML page; its scripts and styles come from /docs/assets/', contentType: 'text/html' } },
      handler: ({ reply }) => {
        reply.header('content-type', 'text/html; charset=utf-8').header('content-security-policy', CSP).header('x-content-type-options', 'nosniff');
        return PAGE;
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/docs/assets/:name',
      auth: 'open',
      tags,
      summary: 'A file of the API reference page',
      params: z.strictObject({ name: z.string().min(1).max(64) }),
      responses: { 200: { description: 'A stylesheet or script', contentType: ['text/css', 'text/javascript'] } },
      handler: ({ params, reply }) => {
        const type = ASSETS[params.name];
        if (!type) throw errors.routeNotFound('GET', `/docs/assets/${params.name}`);
        reply.header('content-type', type).header('cache-control', 'public, max-age=3600').header('x-content-type-options', 'nosniff');
        return asset(params.name);
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/docs/inbox.json',
      auth: 'open',
      tags,
      summary: "The inbox's OpenAPI document (the inbox is served on the Unix socket)",
      responses: { 200: { description: 'OpenAPI document', schema: z.record(z.string(), z.unknown()) } },
      handler: ({ reply }) => {
        reply.header('content-type', 'application/json; charset=utf-8');
        return (inboxDocument ??= fs.readFileSync(INBOX_DOCUMENT));
      },
    }),
  ];
}

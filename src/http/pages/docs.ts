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
import { defineRoute, type AnyRoute } from '../route.js';
import { staticPageRoutes } from './static-pages.js';

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

const fromSwaggerUi = (name: string) => () =>
  fs.readFileSync(path.join(path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json')), name));
const CSS = 'text/css; charset=utf-8';
const JS = 'text/javascript; charset=utf-8';

let inboxDocument: Buffer | null = null;

export function docsRoutes(): AnyRoute[] {
  return [
    ...staticPageRoutes({
      url: '/docs',
      assetsUrl: '/docs/assets',
      summary: 'API reference (Swagger UI) for the control plane and the inbox',
      assetSummary: 'A file of the API reference page',
      html: PAGE,
      tags,
      assetCache: 'public, max-age=3600',
      assets: {
        'swagger-ui.css': { type: CSS, load: fromSwaggerUi('swagger-ui.css') },
        'swagger-ui-bundle.js': { type: JS, load: fromSwaggerUi('swagger-ui-bundle.js') },
        'swagger-ui-standalone-preset.js': { type: JS, load: fromSwaggerUi('swagger-ui-standalone-preset.js') },
        'init.js': { type: JS, load: () => Buffer.from(INIT_SCRIPT) },
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

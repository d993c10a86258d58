/**
 * The console at `GET /`: a Preact app (src/console, bundled into dist/console by `npm run
 * build`) over the control plane's own API, so it needs no CORS and sits behind the same auth.
 * The page itself is open and holds no data; everything it shows comes from API requests that
 * carry the browser's session (bearer mode: a sign-in with the control token, or OIDC) or,
 * in local mode, are served to this user's browser like any local client.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyRoute } from '../route.js';
import { staticPageRoutes } from './static-pages.js';

/** dist/console of this package, whether this file runs from dist/ or, in tests, from src/. */
const BUNDLE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'dist', 'console');

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>svc console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/console/assets/app.css">
</head>
<body>
<div id="app"><noscript>The svc console needs JavaScript.</noscript></div>
<script type="module" src="/console/assets/app.js"></script>
</body>
</html>
`;

const bundled = (name: string) => () => fs.readFileSync(path.join(BUNDLE_DIR, name));

export function consoleRoutes(): AnyRoute[] {
  return staticPageRoutes({
    url: '/',
    assetsUrl: '/console/assets',
    summary: 'The console: agents, live event streams, conversation, tasks, timers, work items, inbox',
    assetSummary: 'A file of the console (the bundled app and its stylesheet)',
    html: PAGE,
    tags: ['discovery'],
    assetCache: 'no-cache',
    assets: {
      'app.js': { type: 'text/javascript; charset=utf-8', load: bundled('app.js') },
      'app.css': { type: 'text/css; charset=utf-8', load: bundled('app.css') },
    },
  });
}

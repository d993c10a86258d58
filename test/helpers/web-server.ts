/**
 * A web server on loopback for web_fetch tests: an article page, text in a legacy charset, JSON,
 * a large body, pages built to be slow to convert, binary answers, redirects (`/redirect?to=URL`, a loop), an error page, a server
 * that never answers and one that trickles its body. Records every request it receives, so a test
 * can show that a refused fetch reached nothing.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { loadConfig, type ResolvedConfig } from '../../src/config/index.js';

export const ARTICLE_HTML = `<!doctype html>
<html><head><title>The Release Notes</title><style>body{color:red}</style><script>document.write('tracking')</script></head>
<body>
<nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<article>
<h1>Version 2 is out</h1>
<p>This release rewrites the <a href="/docs/storage">storage layer</a> and makes every write <strong>durable</strong> before it is acknowledged.
Upgrading takes one command and keeps every record you already have; nothing needs to be migrated by hand.</p>
<p>Read the full changelog for the list of fixes. Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor
incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris.</p>
<ul><li>faster startup</li><li>smaller files</li></ul>
<pre><code>npm install thing@2</code></pre>
</article>
<footer>Copyright and cookie banner</footer>
</body></html>`;

export interface WebServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Paths requested so far (with query). */
  requests: string[];
  /** The headers of each request, in the same order. */
  headers: http.IncomingHttpHeaders[];
  close(): Promise<void>;
}

export async function startWebServer(): Promise<WebServer> {
  const requests: string[] = [];
  const headers: http.IncomingHttpHeaders[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    headers.push(req.headers);
    const url = new URL(req.url ?? '/', 'http://x');
    switch (url.pathname) {
      case '/page':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE_HTML);
        return;
      case '/latin1':
        res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' }).end(Buffer.from('caf\xe9 cr\xe8me', 'latin1'));
        return;
      case '/meta-charset':
        // The charset only in the page: windows-1252 bytes for "naïve café".
        res.writeHead(200, { 'content-type': 'text/html' }).end(Buffer.from('<html><head><meta charset="windows-1252"><title>na\xefve</title></head><body><p>na\xefve caf\xe9</p></body></html>', 'latin1'));
        return;
      case '/utf8':
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('é'.repeat(10_000));
        return;
      case '/json':
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ hello: 'world', n: 1 }));
        return;
      case '/big': {
        const size = Number(url.searchParams.get('bytes') ?? 100_000);
        res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(size));
        return;
      }
      case '/endless':
        // Writes as long as the client reads: only a cap ends it.
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(64 * 1024, 'y');
        const pump = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
        return;
      case '/gzip':
        res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(zlib.gzipSync('z'.repeat(1_000_000)));
        return;
      case '/nested': {
        // Deep nesting: Readability's time grows much faster than the page's size over it.
        const depth = Number(url.searchParams.get('depth') ?? 2000);
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>${'<div>'.repeat(depth)}deep text${'</div>'.repeat(depth)}</body></html>`);
        return;
      }
      case '/unclosed':
        // Half a megabyte of unclosed inline elements: seconds of parsing however it is read.
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>${'<p><b><i>'.repeat(60_000)}</body></html>`);
        return;
      case '/image':
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': '2048' }).end(Buffer.alloc(2048, 0x89));
        return;
      case '/untyped-binary':
        res.end(Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0x01, 0x02]));
        return;
      case '/missing':
        res.writeHead(404, { 'content-type': 'text/html' }).end('<html><head><title>Not here</title></head><body><h1>404</h1><p>No such page.</p></body></html>');
        return;
      case '/redirect':
        res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: url.searchParams.get('to') ?? '/page' }).end();
        return;
      case '/loop':
        res.writeHead(302, { location: '/loop' }).end();
        return;
      case '/hang':
        return; // never answers
      case '/trickle': {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const timer = setInterval(() => res.write('.'), 50);
        res.on('close', () => clearInterval(timer));
        return;
      }
      default:
        res.writeHead(404).end();
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    headers,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A configuration with `[tools.web]` set to `web` (the rest defaults), on a home that is never written. */
export function webConfig(web: Partial<ResolvedConfig['values']['tools']['web']> = {}): ResolvedConfig {
  const config = loadConfig({ home: '/nonexistent/svc-web-test' }, {});
  config.values.tools.web = { ...config.values.tools.web, ...web };
  return config;
}

/**
 * web_fetch (docs/tools.md#web-fetch): GET a URL and return readable text, through the WebFetcher
 * of runtime/web under the current `[tools.web]` configuration. Class `network`, so the policy
 * asks the operator before an untrusted turn fetches anything. A refused URL (scheme, host,
 * private address, redirects), a failure, a timeout or a content type it does not read is a tool
 * error with its code; a non-2xx answer is not: the model reads the status and the page.
 */
import { z } from 'zod';
import { WebFetcher, type WebPage } from '../web/index.js';
import { defineTool, withArtifacts } from './define.js';
import type { ToolArtifact, ToolDeps } from './types.js';

/** Longer than any URL a browser keeps; a longer argument is refused before anything is parsed. */
const MAX_URL_CHARS = 8192;

export function webTools(deps: ToolDeps) {
  const fetcher = new WebFetcher({ config: deps.config, logger: deps.logger });
  return [
    defineTool(
      {
        name: 'web_fetch',
        class: 'network',
        description:
          'GET an http(s) URL and return its content: an HTML page as readable markdown (its main article; format "text" for plain text, "raw" for the HTML), ' +
          'text, JSON or XML as it is. Only hosts the operator allows; private and local addresses are refused. Returns {url, final_url, status, ' +
          'content_type, title, bytes, truncated, content}; a 404 or 500 page is returned with its status. Images, PDF and other binary content are refused.',
        args: z.strictObject({
          url: z.string().min(1).max(MAX_URL_CHARS).describe('the http:// or https:// URL to fetch'),
          max_bytes: z.number().int().min(1).optional().describe('read at most this many bytes of the body (capped by the configured limit)'),
          format: z.enum(['markdown', 'text', 'raw']).optional().describe('how an HTML page is returned: markdown (default), text, or raw HTML'),
        }),
        run: async (ctx, a) => {
          const page = await fetcher.fetch(a.url, { ...(a.max_bytes !== undefined ? { maxBytes: a.max_bytes } : {}), ...(a.format ? { format: a.format } : {}) }, ctx.signal);
          return withArtifacts(page, [pageArtifact(page)]);
        },
      },
      deps.logger,
    ),
  ];
}

/** The fetched page as the artifact of its tool execution: named by the URL it came from. */
export function pageArtifact(page: WebPage): ToolArtifact {
  return { kind: 'page', name: page.final_url, media_type: page.content_format, content: page.content };
}

/**
 * The daemon's two browser pages (the console at `/`, the API reference at `/docs`): an HTML page
 * whose scripts and styles all come from a fixed list of files of this origin, under a
 * Content-Security-Policy without inline scripts. Each file is read once, on first request.
 */
import { z } from 'zod';
import { errors } from '../../core/index.js';
import { defineRoute, type AnyRoute } from '../route.js';

export const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

export interface PageAsset {
  type: string;
  load: () => Buffer;
}

export interface StaticPage {
  url: string;
  /** Where the assets are served: `${assetsUrl}/:name`. */
  assetsUrl: string;
  summary: string;
  html: string;
  assets: Record<string, PageAsset>;
  assetSummary: string;
  tags: string[];
  /** Cache-Control of the assets: `no-cache` for files that change with svc's version. */
  assetCache: string;
}

const mediaTypes = (assets: Record<string, PageAsset>) => [...new Set(Object.values(assets).map((a) => a.type.split(';')[0]!))];

export function staticPageRoutes(page: StaticPage): AnyRoute[] {
  const cache = new Map<string, Buffer>();
  return [
    defineRoute({
      method: 'GET',
      url: page.url,
      auth: 'open',
      tags: page.tags,
      summary: page.summary,
      responses: { 200: { description: `An HTML page; its scripts and styles come from ${page.assetsUrl}/`, contentType: 'text/html' } },
      handler: ({ reply }) => {
        reply
          .header('content-type', 'text/html; charset=utf-8')
          .header('content-security-policy', PAGE_CSP)
          .header('x-content-type-options', 'nosniff')
          .header('referrer-policy', 'no-referrer')
          .header('cache-control', 'no-cache');
        return page.html;
      },
    }),
    defineRoute({
      method: 'GET',
      url: `${page.assetsUrl}/:name`,
      auth: 'open',
      tags: page.tags,
      summary: page.assetSummary,
      params: z.strictObject({ name: z.string().min(1).max(64) }),
      responses: { 200: { description: 'A stylesheet or script', contentType: mediaTypes(page.assets) } },
      handler: ({ params, reply }) => {
        const asset = Object.hasOwn(page.assets, params.name) ? page.assets[params.name] : undefined;
        if (!asset) throw errors.routeNotFound('GET', `${page.assetsUrl}/${params.name}`);
        let body = cache.get(params.name);
        if (!body) cache.set(params.name, (body = asset.load()));
        reply.header('content-type', asset.type).header('cache-control', page.assetCache).header('x-content-type-options', 'nosniff');
        return body;
      },
    }),
  ];
}

/**
 * OpenAPI 3.1 documents generated from the same zod schemas that validate requests
 * (ARCHITECTURE.md principle 6). Each surface has its own registry; `defineRoute` registers a
 * path there at the moment it registers the Fastify route, so the two cannot drift.
 */
import { extendZodWithOpenApi, OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

export { OpenAPIRegistry };

export interface DocumentInfo {
  title: string;
  description: string;
  version: string;
  /** Where the surface listens by default (the documents do not depend on a home's config). */
  servers: Array<{ url: string; description: string }>;
}

export function generateDocument(registry: OpenAPIRegistry, { servers, ...info }: DocumentInfo): Record<string, unknown> {
  const generator = new OpenApiGeneratorV31(registry.definitions);
  return generator.generateDocument({
    openapi: '3.1.0',
    info: { ...info, license: { name: 'MIT', identifier: 'MIT' } },
    servers,
  }) as unknown as Record<string, unknown>;
}

/** `/api/agents/:id/events` -> `/api/agents/{id}/events` */
export function toOpenApiPath(fastifyPath: string): string {
  // `::` is Fastify's escaped literal colon (`/messages::batchGet` serves `/messages:batchGet`).
  return fastifyPath.replace(/::|:([A-Za-z0-9_]+)/g, (_m, name: string | undefined) => (name ? `{${name}}` : ':'));
}

const VERBS: Record<string, string> = { GET: 'get', DELETE: 'delete', PATCH: 'update', PUT: 'put', POST: 'create' };

/**
 * The default operationId of a route, from its method and path (routes may name their own):
 * `GET /api/agents/:id/events` -> `listAgentEvents`, `POST /api/control/agents/:id/timers` ->
 * `createAgentTimer`, `POST /api/control/agents/:id/wake` -> `wakeAgent`,
 * `POST /api/agents/:id/messages::batchGet` -> `batchGetAgentMessages`. `/api` and `/control` are
 * left out (the surface and the auth class, not the resource); a segment followed by a path
 * parameter names one item, so it is singular. A POST whose last segment is not a plural noun is
 * an action and the action becomes the verb.
 */
export function deriveOperationId(method: string, url: string): string {
  const resource = toOpenApiPath(url).replace(/^\/api(?=\/|$)/, '').replace(/^\/control(?=\/)/, '');
  const segments = resource.split('/').filter((seg) => seg !== '');
  let verb = VERBS[method] ?? method.toLowerCase();
  const last = segments.at(-1) ?? '';
  const custom = /^(.*):([A-Za-z]+)$/.exec(last);
  if (custom) {
    segments[segments.length - 1] = custom[1]!;
    verb = custom[2]!;
  } else if (method === 'POST' && last && !isParam(last) && !isPlural(last)) {
    verb = camel(segments.pop()!);
  } else if (method === 'POST' && isParam(last)) {
    verb = 'post';
  } else if (method === 'GET' && isPlural(last)) {
    verb = 'list';
  }
  const nouns = segments.flatMap((seg, i) => {
    if (isParam(seg)) return [];
    const one = isParam(segments[i + 1] ?? '') || (verb === 'create' && i === segments.length - 1);
    return [one ? singular(seg) : seg];
  });
  return verb + nouns.map((n) => pascal(camel(n))).join('');
}

const isParam = (seg: string) => seg.startsWith('{');
const isPlural = (seg: string) => /[^su]s$/.test(seg);
const singular = (seg: string) => seg.replace(/ies$/, 'y').replace(/([^s])s$/, '$1');
const camel = (seg: string) => seg.replace(/[-_.]+([A-Za-z0-9])/g, (_m, c: string) => c.toUpperCase());
const pascal = (seg: string) => seg.charAt(0).toUpperCase() + seg.slice(1);

/** camelCase, starting with a lower-case letter: what generated clients turn into method names. */
export const OPERATION_ID = /^[a-z][A-Za-z0-9]*$/;

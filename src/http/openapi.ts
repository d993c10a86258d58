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
}

export function generateDocument(registry: OpenAPIRegistry, info: DocumentInfo): Record<string, unknown> {
  const generator = new OpenApiGeneratorV31(registry.definitions);
  return generator.generateDocument({ openapi: '3.1.0', info: { ...info } }) as unknown as Record<string, unknown>;
}

/** `/api/agents/:id/events` -> `/api/agents/{id}/events` */
export function toOpenApiPath(fastifyPath: string): string {
  // `::` is Fastify's escaped literal colon (`/messages::batchGet` serves `/messages:batchGet`).
  return fastifyPath.replace(/::|:([A-Za-z0-9_]+)/g, (_m, name: string | undefined) => (name ? `{${name}}` : ':'));
}

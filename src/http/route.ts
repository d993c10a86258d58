/**
 * `defineRoute`: the one way a route comes into being. It validates params, query and body with
 * zod (400 invalid_request with issues on failure), declares the route's auth class for the auth
 * hook, and registers the same schemas as an OpenAPI path, so every served route is documented
 * by construction.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z, type ZodType } from 'zod';
import { errors, type Issue } from '../core/index.js';
import { errorCodesOf, errorResponses, type ErrorCodes } from './error-responses.js';
import { ErrorResponse } from './schemas/index.js';
import { deriveOperationId, OPERATION_ID, toOpenApiPath, type OpenAPIRegistry } from './openapi.js';

/** `open`: no token ever; `read`: read-only route (auth.read_access decides); `control`: token in bearer mode. */
export type AuthClass = 'open' | 'read' | 'control';

export interface ResponseSpec {
  description: string;
  schema?: ZodType;
  /** Several when the route negotiates on `Accept`; the first is the default. */
  contentType?: string | readonly string[];
  /** Response headers worth documenting (name -> description), e.g. `Location` of a redirect. */
  headers?: Record<string, string>;
}

type Input<T> = T extends ZodType ? z.output<T> : undefined;

export interface RouteSpec<P = unknown, Q = unknown, B = unknown> {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: string;
  auth: AuthClass;
  /** camelCase and unique per surface; by default derived from the method and path (deriveOperationId). */
  operationId?: string;
  summary: string;
  description?: string;
  /** Marked `deprecated: true` in the OpenAPI document (still served). */
  deprecated?: boolean;
  tags: string[];
  params?: P;
  query?: Q;
  body?: B;
  /**
   * The body as the OpenAPI document shows it, where the validator cannot be rendered (a
   * discriminated union whose discriminator may be absent is documented as a plain union).
   */
  bodyDoc?: z.ZodType;
  /**
   * An example body for the OpenAPI document; a unit test proves that `body` accepts it. A
   * `rawBody` route's example is a JSON body, documented as application/json beside the any-type body.
   */
  bodyExample?: unknown;
  /** A missing body is read as `{}` (routes whose body is optional). */
  bodyOptional?: boolean;
  bodyLimit?: number;
  /**
   * Accept any content type: the body arrives unparsed as a Buffer (or undefined when empty) and
   * is not validated by `body`; the handler reads `request.headers['content-type']` itself.
   */
  rawBody?: boolean;
  /** Served as Server-Sent Events (the handler writes to the raw response). */
  sse?: boolean;
  /** Extra guidance attached to validation failures (e.g. a renamed field). */
  hint?: (issues: Issue[]) => string | undefined;
  responses: Record<number, ResponseSpec>;
  /**
   * Error codes the handler can answer with beyond the derived ones (400 for inputs, 404 for path
   * parameters, 401/403 for auth: src/http/error-responses.ts); an empty list drops a derived status.
   */
  errors?: ErrorCodes;
  handler: (ctx: {
    params: Input<P>;
    query: Input<Q>;
    body: Input<B>;
    request: FastifyRequest;
    reply: FastifyReply;
  }) => unknown;
}

/** Identity function that gives the handler its inferred input types. */
export function defineRoute<P extends ZodType | undefined = undefined, Q extends ZodType | undefined = undefined, B extends ZodType | undefined = undefined>(
  spec: RouteSpec<P, Q, B>,
): RouteSpec<P, Q, B> {
  return spec;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteSpec<any, any, any>;

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthClass;
    /** The route answers with an event stream (the auth hook ends it with the session that opened it). */
    stream?: boolean;
  }
}

/** Which surface a route is served on: the OpenAPI `security` of a route depends on it. */
export type SurfaceKind = 'control' | 'inbox';

/**
 * What the auth hook enforces, said in OpenAPI terms (`{}` = no credential needed). Control plane:
 * `control` routes need the token in bearer mode; `read` routes only for non-loopback clients (or
 * always with auth.read_access = "token"). Inbox: nothing over the Unix socket, the token over the
 * loopback port in bearer mode. A browser session cookie (OIDC sign-in) stands in for the token.
 * Without a credential the peer must be the daemon's own user.
 */
function securityOf(auth: AuthClass, surface: SurfaceKind): Array<Record<string, string[]>> {
  if (auth === 'open') return [];
  const credentials: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { sessionCookie: [] }];
  if (auth === 'control' && surface === 'control') return credentials;
  return [{}, ...credentials];
}

export const operationIdOf = (spec: AnyRoute): string => spec.operationId ?? deriveOperationId(spec.method, spec.url);

/** Generated clients name their methods after operationIds: a clash or a bad name fails the build. */
function checkOperationIds(routes: AnyRoute[]): void {
  const seen = new Map<string, AnyRoute>();
  for (const spec of routes) {
    const id = operationIdOf(spec);
    if (!OPERATION_ID.test(id)) throw new Error(`operationId ${JSON.stringify(id)} of ${spec.method} ${spec.url} is not camelCase`);
    const other = seen.get(id);
    if (other) throw new Error(`operationId ${JSON.stringify(id)} of ${spec.method} ${spec.url} is already used by ${other.method} ${other.url}: give one an operationId`);
    seen.set(id, spec);
  }
}

export function mountRoutes(app: FastifyInstance, registry: OpenAPIRegistry, routes: AnyRoute[], surface: SurfaceKind): void {
  checkOperationIds(routes);
  const raw = routes.filter((r) => r.rawBody);
  for (const spec of routes.filter((r) => !r.rawBody)) mountRoute(app, registry, spec, surface);
  if (raw.length === 0) return;
  // Raw-body routes live in their own scope, whose only parser hands over every body as bytes.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, (body as Buffer).length ? body : undefined));
    for (const spec of raw) mountRoute(scope, registry, spec, surface);
  });
}

function mountRoute(app: FastifyInstance, registry: OpenAPIRegistry, spec: AnyRoute, surface: SurfaceKind): void {
  app.route({
    method: spec.method,
    url: spec.url,
    config: { auth: spec.auth, ...(spec.sse ? { stream: true } : {}) },
    ...(spec.bodyLimit ? { bodyLimit: spec.bodyLimit } : {}),
    ...(spec.sse ? { sse: { kind: 'manual' as const } } : {}),
    handler: async (request, reply) => {
      const params = spec.params ? parse(spec.params, request.params, 'params', spec) : undefined;
      const query = spec.query ? parse(spec.query, request.query ?? {}, 'query', spec) : undefined;
      let raw = request.body;
      if (raw === undefined && spec.bodyOptional) raw = {};
      const body = spec.rawBody ? raw : spec.body ? parse(spec.body, raw, 'body', spec) : undefined;
      return spec.handler({ params, query, body, request, reply });
    },
  });
  registerPath(registry, spec, surface);
}

function parse(schema: ZodType, value: unknown, where: string, spec: AnyRoute): unknown {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues: Issue[] = result.error.issues.map((i) => {
    const keys = i.code === 'unrecognized_keys' ? i.keys : [];
    const parts = [where, ...i.path.map(String)];
    if (value === undefined && where === 'body') return { path: 'body', message: 'a JSON body is required' };
    return {
      path: parts.join('.') + (keys.length ? `.${keys.join(',')}` : ''),
      message: i.code === 'unrecognized_keys' ? `unknown field${keys.length > 1 ? 's' : ''} ${keys.join(', ')}` : i.message,
    };
  });
  throw errors.invalidRequest(issues, spec.hint?.(issues));
}

function registerPath(registry: OpenAPIRegistry, spec: AnyRoute, surface: SurfaceKind): void {
  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(spec.responses)) {
    const types = r.contentType === undefined ? (r.schema ? ['application/json'] : []) : [r.contentType].flat();
    const schema = r.schema ?? { type: 'string' };
    const response: Record<string, unknown> = types.length
      ? { description: r.description, content: Object.fromEntries(types.map((t) => [t, { schema }])) }
      : { description: r.description };
    if (r.headers) {
      response.headers = Object.fromEntries(Object.entries(r.headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }]));
    }
    responses[status] = response;
  }
  Object.assign(responses, errorResponses(errorCodesOf(spec), surface));
  responses.default = { description: 'Error envelope', content: { 'application/json': { schema: ErrorResponse } } };
  const request: Record<string, unknown> = {};
  if (spec.params) request.params = spec.params;
  if (spec.query) request.query = spec.query;
  if (spec.rawBody) {
    // Any content type is taken as bytes; the example is shown as a JSON body (the more specific
    // media type), where it can be an object rather than a string of bytes.
    const json = spec.bodyExample === undefined ? {} : { 'application/json': { schema: {}, example: spec.bodyExample } };
    request.body = { required: false, content: { ...json, '*/*': { schema: { type: 'string', format: 'binary' } } } };
  } else if (spec.body) {
    const example = spec.bodyExample === undefined ? {} : { example: spec.bodyExample };
    request.body = { required: !spec.bodyOptional, content: { 'application/json': { schema: spec.bodyDoc ?? spec.body, ...example } } };
  }
  registry.registerPath({
    method: spec.method.toLowerCase() as 'get',
    path: toOpenApiPath(spec.url),
    operationId: operationIdOf(spec),
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    ...(spec.deprecated ? { deprecated: true } : {}),
    tags: spec.tags,
    security: securityOf(spec.auth, surface),
    'x-svc-auth': spec.auth,
    request,
    responses,
  } as Parameters<OpenAPIRegistry['registerPath']>[0]);
}

import fs from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { deriveOperationId, OPERATION_ID, OpenAPIRegistry } from '../../src/http/openapi.js';
import { defineRoute, mountRoutes } from '../../src/http/route.js';

// The checked-in documents; openapi.test.ts proves them fresh.
type Media = { schema: unknown; example?: unknown; examples?: Record<string, unknown> };
type Operation = {
  operationId?: string;
  security?: unknown[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { description: string; content?: Record<string, Media> }>;
};
type Doc = { servers?: Array<{ url: string; description?: string }>; paths: Record<string, Record<string, Operation>> };
const read = (name: string) => JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'openapi', name), 'utf8')) as Doc;
const documents: Array<[string, Doc]> = [
  ['control-plane.json', read('control-plane.json')],
  ['inbox.json', read('inbox.json')],
];
const operations = (doc: Doc) => Object.entries(doc.paths).flatMap(([p, ops]) => Object.entries(ops).map(([m, op]) => ({ name: `${m.toUpperCase()} ${p}`, op })));

describe('OpenAPI operations', () => {
  it.each(documents)('every operation of %s has a unique camelCase operationId', (_name, doc) => {
    const ids = operations(doc).map(({ name, op }) => {
      expect(op.operationId, name).toMatch(OPERATION_ID);
      return op.operationId;
    });
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(documents)('every operation of %s documents a 4xx response in the error envelope, naming its codes', (_name, doc) => {
    for (const { name, op } of operations(doc)) {
      const fourxx = Object.keys(op.responses).filter((s) => s.startsWith('4'));
      expect(fourxx.length, name).toBeGreaterThan(0);
      for (const status of fourxx) {
        expect(op.responses[status]!.content?.['application/json']?.schema, `${name} ${status}`).toEqual({ $ref: '#/components/schemas/ErrorResponse' });
        expect(op.responses[status]!.description, `${name} ${status}`).toMatch(/Codes: [a-z_]+/);
      }
    }
  });

  it('a route with inputs documents 400 invalid_request, one with a path parameter the 404 of what it names', () => {
    const [, doc] = documents[0]!;
    const get = doc.paths['/api/agents/{id}/work-items/{work_item_id}']!.get!;
    expect(get.responses['400']!.description).toContain('invalid_request');
    expect(get.responses['404']!.description).toContain('agent_not_found, work_item_not_found');
    expect(get.responses['401']!.description).toContain('auth_required');
  });

  it('servers: the control plane at its default listen address, the inbox on its Unix socket', () => {
    expect(documents[0]![1].servers).toEqual([expect.objectContaining({ url: 'http://127.0.0.1:8700' })]);
    expect(documents[1]![1].servers).toEqual([expect.objectContaining({ url: 'http://localhost', description: expect.stringContaining('<home>/inbox.sock') })]);
  });

  it('no path ends with a slash', () => {
    for (const [, doc] of documents) for (const p of Object.keys(doc.paths)) expect(p === '/' || !p.endsWith('/'), p).toBe(true);
  });

  it('derives operationIds from the method and the path', () => {
    expect(deriveOperationId('GET', '/api/agents/:id/events')).toBe('listAgentEvents');
    expect(deriveOperationId('GET', '/api/agents/:id/status')).toBe('getAgentStatus');
    expect(deriveOperationId('GET', '/api/agents/:id/work-items/:work_item_id')).toBe('getAgentWorkItem');
    expect(deriveOperationId('POST', '/api/control/agents/:id/timers')).toBe('createAgentTimer');
    expect(deriveOperationId('POST', '/api/control/agents/:id/wake')).toBe('wakeAgent');
    expect(deriveOperationId('POST', '/api/control/agents/:id/current-run/abort')).toBe('abortAgentCurrentRun');
    expect(deriveOperationId('POST', '/api/agents/:id/messages::batchGet')).toBe('batchGetAgentMessages');
    expect(deriveOperationId('PATCH', '/sources/:sourceId')).toBe('updateSource');
    expect(deriveOperationId('DELETE', '/agents/:agentId/targets/:targetId')).toBe('deleteAgentTarget');
  });

  it('two routes with one operationId fail the build, naming both', () => {
    const route = (url: string) => defineRoute({ method: 'GET', url, auth: 'open', tags: ['t'], summary: 's', responses: { 200: { description: 'ok' } }, handler: () => ({}) });
    const app = Fastify();
    expect(() => mountRoutes(app, new OpenAPIRegistry(), [route('/api/things'), route('/things')], 'control')).toThrow(
      'operationId "listThings" of GET /things is already used by GET /api/things: give one an operationId',
    );
    expect(() => mountRoutes(app, new OpenAPIRegistry(), [{ ...route('/a'), operationId: 'Get_a' }], 'control')).toThrow('is not camelCase');
    return app.close();
  });
});

describe('request body examples', () => {
  // Raw-body routes take any content type unvalidated: their examples have no validator to pass.
  const RAW_BODY = ['POST /api/callbacks/enqueue/:callback_token', 'POST /api/callbacks/wake/:callback_token', 'POST /api/inbox/github/webhook/:source_id'];

  it.each(documents)('every operation of %s with a request body shows an example', (_name, doc) => {
    const withBody = operations(doc).filter(({ op }) => op.requestBody);
    expect(withBody.length).toBeGreaterThan(0);
    const missing = withBody.filter(({ op }) => !Object.values(op.requestBody!.content).some((m) => m.example !== undefined || m.examples !== undefined));
    expect(missing.map(({ name }) => name)).toEqual([]);
  });

  it('every example is a body its route accepts', async () => {
    const { testServices } = await import('../helpers/services.js');
    const { controlRoutes, inboxRoutes } = await import('../../src/http/surfaces.js');
    const t = testServices({ start: false });
    try {
      const routes = [...controlRoutes(t.s), ...inboxRoutes(t.s)];
      expect(routes.filter((r) => r.rawBody).map((r) => `${r.method} ${r.url}`)).toEqual(RAW_BODY);
      const withExamples = routes.filter((r) => r.bodyExample !== undefined && !RAW_BODY.includes(`${r.method} ${r.url}`));
      expect(withExamples.length).toBeGreaterThan(20);
      for (const r of withExamples) {
        const parsed = r.body.safeParse(r.bodyExample);
        expect(parsed.error?.issues, `${r.method} ${r.url}`).toBeUndefined();
      }
    } finally {
      await t.close();
    }
  });
});

describe('documented error codes', () => {
  // Status and code of every error src/core/errors.ts defines (a code may have more than one status).
  const source = fs.readFileSync(path.join(__dirname, '..', '..', 'src', 'core', 'errors.ts'), 'utf8');
  const defined = new Set([
    ...[...source.matchAll(/new AppError\(\s*(\d{3}),\s*'([a-z_]+)'/g)].map((m) => `${m[1]} ${m[2]}`),
    ...[...source.matchAll(/notFound\('([a-z_]+)'/g)].map((m) => `404 ${m[1]}`),
  ]);

  it.each(documents)('every code %s names under a status is defined in src/core/errors.ts with that status', (_name, doc) => {
    expect(defined.size).toBeGreaterThan(100);
    expect.hasAssertions();
    for (const { name, op } of operations(doc)) {
      for (const [status, response] of Object.entries(op.responses)) {
        const listed = /Codes: (.*)\.$/.exec(response.description)?.[1];
        if (!listed) continue;
        for (const code of listed.split(', ').map((c) => c.replace(/ \(.*\)$/, ''))) expect(defined, `${name} ${status} ${code}`).toContain(`${status} ${code}`);
      }
    }
  });
});

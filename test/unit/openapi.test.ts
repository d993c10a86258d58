import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JS build script, without type declarations
import { renderClientTypes } from '../../scripts/generate-client.js';
import { renderDocuments } from '../../src/http/openapi-write.js';
import { buildControlSurface, buildInboxSurface, type Surface } from '../../src/http/surfaces.js';
import { toOpenApiPath } from '../../src/http/openapi.js';
import { testServices, type TestServices } from '../helpers/services.js';

let t: TestServices;
let control: Surface;
let inbox: Surface;
beforeAll(async () => {
  t = testServices();
  control = await buildControlSurface(t.s);
  inbox = await buildInboxSurface(t.s);
});
afterAll(async () => {
  await Promise.all([control.app.close(), inbox.app.close()]);
  await t.close();
});

type Doc = { openapi: string; paths: Record<string, Record<string, unknown>> };

function documented(doc: Doc): string[] {
  return Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`)).sort();
}

describe('OpenAPI documents', () => {
  it.each([
    ['control plane', () => control],
    ['inbox', () => inbox],
  ])('the %s document lists exactly the routes the server serves', (_name, surface) => {
    const s = surface();
    const served = s.served.map((r) => `${r.method} ${toOpenApiPath(r.url)}`).sort();
    const doc = s.document() as Doc;
    expect(doc.openapi).toBe('3.1.0');
    expect(documented(doc)).toEqual(served);
  });

  it('serves the documents at /api/openapi.json and /openapi.json', async () => {
    const c = await control.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(c.statusCode).toBe(200);
    expect(Object.keys(c.json().paths)).toContain('/api/agents/{id}/events/stream');
    const i = await inbox.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(Object.keys(i.json().paths)).toEqual(expect.arrayContaining(['/healthz', '/status', '/openapi.json']));
  });

  it('the checked-in openapi/*.json files are fresh (npm run openapi:write)', async () => {
    const docs = await renderDocuments();
    for (const [name, text] of Object.entries(docs)) {
      const file = path.join(__dirname, '..', '..', 'openapi', name);
      expect(fs.readFileSync(file, 'utf8'), `openapi/${name} is stale: run npm run openapi:write`).toBe(text);
    }
  });

  it("the CLI's client types src/generated/*.ts are generated from the checked-in documents (npm run build)", async () => {
    const root = path.join(__dirname, '..', '..');
    const docs = Object.fromEntries(['control-plane.json', 'inbox.json'].map((name) => [name, fs.readFileSync(path.join(root, 'openapi', name), 'utf8')]));
    const types: Record<string, string> = await renderClientTypes(docs);
    expect(Object.keys(types).sort()).toEqual(['src/generated/control-plane.ts', 'src/generated/inbox.ts']);
    for (const [rel, text] of Object.entries(types)) {
      expect(fs.readFileSync(path.join(root, rel), 'utf8'), `${rel} is stale: run npm run build`).toBe(text);
    }
  });

  it('every operation declares a success response with a schema or content type (a redirect: its Location), and the error envelope', () => {
    const doc = control.document() as { paths: Record<string, Record<string, { responses: Record<string, { content?: unknown; headers?: Record<string, unknown> }> }>> };
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const codes = Object.keys(op.responses);
        expect(codes, `${method} ${p}`).toContain('default');
        const success = codes.filter((c) => c.startsWith('2') || c.startsWith('3'));
        expect(success.length, `${method} ${p}`).toBeGreaterThan(0);
        for (const c of success) {
          if (c.startsWith('3')) expect(op.responses[c]!.headers?.Location, `${method} ${p} ${c}`).toBeDefined();
          else expect(op.responses[c]!.content, `${method} ${p} ${c}`).toBeDefined();
        }
      }
    }
  });
});

/**
 * A hostile body must never reach Object.prototype (docs/security.md#configuration-patch): before
 * the fix, PATCH /api/control/runtime/config with the key `__proto__.polluted` answered `rejected`
 * but set Object.prototype.polluted, and every strict-schema route then answered 400 "unknown field
 * polluted" until restart. Every surface that merges caller objects is attacked here in-process,
 * so that the test can look at this process's Object.prototype afterwards.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkJson } from '../../src/core/json-guard.js';
import { buildControlSurface, buildInboxSurface, type Surface } from '../../src/http/surfaces.js';
import { testServices, type TestServices } from '../helpers/services.js';

let t: TestServices;
let control: Surface;
let inbox: Surface;

beforeAll(async () => {
  // inject() requests claim a loopback address but have no kernel socket to look up.
  t = testServices({ configToml: '[auth]\ntrust_loopback_peers = true\n' });
  control = await buildControlSurface(t.s);
  inbox = await buildInboxSurface(t.s);
});
afterAll(async () => {
  await control.app.close();
  await inbox.app.close();
  await t.close();
});

function expectPrototypeClean(): void {
  for (const key of ['polluted', 'x', 'isAdmin']) {
    expect(Object.prototype.hasOwnProperty(key), key).toBe(false);
    expect(({} as Record<string, unknown>)[key], key).toBeUndefined();
  }
}
afterEach(expectPrototypeClean);

const send = (surface: Surface, method: 'POST' | 'PATCH', url: string, raw: string) =>
  surface.app.inject({ method, url, payload: raw, headers: { 'content-type': 'application/json' } });

describe('PATCH /api/control/runtime/config', () => {
  const patch = (updates: string) => send(control, 'PATCH', '/api/control/runtime/config', `{"updates":${updates}}`);

  it('rejects prototype keys in the dotted key, per key, and writes nothing for them', async () => {
    for (const key of ['__proto__.polluted', 'constructor.prototype.polluted', 'events.__proto__.polluted', 'prototype']) {
      const res = await patch(JSON.stringify([{ key, value: 'yes' }]));
      expect(res.statusCode, key).toBe(200);
      expect(res.json().results[0], key).toMatchObject({ key, effect: 'rejected' });
    }
    // Strict-schema routes still accept valid bodies (the measured symptom was 400 "unknown field polluted").
    const ok = await send(control, 'POST', '/api/control/agents/main/work-items', '{"objective":"still works"}');
    expect(ok.statusCode).toBe(201);
  });

  it('refuses a prototype key anywhere in a value (400 before any handler)', async () => {
    for (const value of ['{"__proto__":{"polluted":1}}', '{"a":{"constructor":{"prototype":{"polluted":1}}}}']) {
      const res = await patch(`[{"key":"events","value":${value}}]`);
      expect(res.statusCode, value).toBe(400);
      expect(res.json().code).toBe('invalid_request');
    }
    const strict = await patch('[{"key":"events","value":{"prototype":{"x":1}}}]');
    expect(strict.json().results[0].effect).toBe('rejected');
  });

  it('checks a table value key by key against the start-up-only keys', async () => {
    const res = await patch('[{"key":"inbox","value":{"port":19444}},{"key":"auth","value":{"read_access":"token"}},{"key":"inbox.port","value":1}]');
    expect(res.json().results.map((r: { effect: string }) => r.effect)).toEqual(['rejected', 'accepted_requires_restart', 'rejected']);
    expect(res.json().results[0].reason).toMatch(/inbox\.port/);
  });
});

describe('other surfaces that merge caller objects', () => {
  const HOSTILE = '{"__proto__":{"polluted":"yes","isAdmin":true}}';

  it('operator bindings: metadata and capabilities on create and on update', async () => {
    const body = (extra: string) => `{"binding_id":"b1","transport":"remote_operator","operator_actor_id":"op",${extra}}`;
    for (const extra of [`"metadata":${HOSTILE}`, `"capabilities":${HOSTILE}`]) {
      const res = await send(control, 'POST', '/api/control/agents/main/operator-bindings', body(extra));
      expect(res.statusCode, extra).toBe(400);
    }
    expect((await send(control, 'POST', '/api/control/agents/main/operator-bindings', body('"metadata":{"a":1}'))).statusCode).toBe(201);
    expect((await send(control, 'POST', '/api/control/agents/main/operator-bindings', body(`"metadata":${HOSTILE}`))).statusCode).toBe(400);
  });

  it('enqueue metadata and json, the generic webhook', async () => {
    expect((await send(control, 'POST', '/api/agents/main/enqueue', `{"text":"x","metadata":${HOSTILE}}`)).statusCode).toBe(400);
    expect((await send(control, 'POST', '/api/agents/main/enqueue', `{"json":${HOSTILE}}`)).statusCode).toBe(400);
    expect((await send(control, 'POST', '/api/webhooks/generic/main', HOSTILE)).statusCode).toBe(400);
  });

  it('inbox host and source configs, event data, subscription filters', async () => {
    expect((await send(inbox, 'POST', '/hosts', `{"hostType":"local_event","hostKey":"h","config":${HOSTILE}}`)).statusCode).toBe(400);
    const host = await send(inbox, 'POST', '/hosts', '{"hostType":"local_event","hostKey":"h"}');
    const hostId = host.json().hostId as string;
    expect((await send(inbox, 'POST', '/sources', `{"hostId":"${hostId}","streamKind":"k","streamKey":"s","config":${HOSTILE}}`)).statusCode).toBe(400);
    const source = await send(inbox, 'POST', '/sources', `{"hostId":"${hostId}","streamKind":"k","streamKey":"s"}`);
    const sourceId = source.json().sourceId as string;
    expect((await send(inbox, 'POST', `/sources/${sourceId}/events`, `{"type":"t","data":${HOSTILE}}`)).statusCode).toBe(400);
    expect((await send(inbox, 'POST', `/sources/${sourceId}/events`, `{"type":"t","data":{"constructor":"a plain field is data"}}`)).statusCode).toBe(200);
    const agent = await send(inbox, 'POST', '/agents', '{"name":"a"}');
    const res = await send(inbox, 'POST', '/subscriptions', `{"agentId":"${agent.json().agentId}","sourceId":"${sourceId}","filter":{"match":${HOSTILE}}}`);
    expect(res.statusCode).toBe(400);
  });
});

describe('checkJson', () => {
  it('finds prototype keys and over-deep nesting without recursion', () => {
    expect(checkJson(JSON.parse('{"a":[{"__proto__":1}]}'))).toEqual({ kind: 'prototype_key', path: 'a[0].__proto__' });
    expect(checkJson({ constructor: 'x' })).toBeNull();
    expect(checkJson({ constructor: 'x' }, { strictKeys: true })).toEqual({ kind: 'prototype_key', path: 'constructor' });
    const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000));
    expect(checkJson(deep)?.kind).toBe('depth');
    expect(checkJson(JSON.parse('['.repeat(64) + ']'.repeat(64)))).toBeNull();
    expect(checkJson(JSON.parse('['.repeat(65) + ']'.repeat(65)))?.kind).toBe('depth');
  });
});

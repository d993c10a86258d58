/**
 * Operator bindings and operator ingress against the real daemon (spec "Operator ingress rules",
 * Authentication items 4-5; docs/control-plane-api.md#ingress-and-provenance): both spellings
 * normalised, 201 vs 200, the credential absent from every response, the event log and the daemon
 * output, every binding_mismatch case, and the ingress provenance as message_enqueued records it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonPool, request, type HttpResult, type RunningDaemon } from '../helpers/daemon.js';

const pool = daemonPool();
afterAll(() => pool.cleanup());

const SECRET_A = 'bearer-secret-A-7c1e0b55d2';
const SECRET_B = 'bearer-secret-B-91ad44f0e3';

function expectError(res: HttpResult, status: number, code: string): void {
  expect({ status: res.status, code: res.json?.code }, res.text).toEqual({ status, code });
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.json.ok).toBe(false);
}

describe('operator bindings and ingress (one daemon, debug logging)', () => {
  let d: RunningDaemon;
  const responses: string[] = [];
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await request(d, method, path, body === undefined ? {} : { body });
    responses.push(res.text);
    return res;
  };
  const upsert = (body: Record<string, unknown>, agent = 'ops') => call('POST', `/api/control/agents/${agent}/operator-bindings`, body);
  const ingress = (body: Record<string, unknown>, agent = 'ops') => call('POST', `/api/control/agents/${agent}/operator-ingress`, body);
  const pending = async (agent = 'ops') => (await request(d, 'GET', `/api/agents/${agent}/status`)).json.pending_messages as number;

  beforeAll(async () => {
    d = await pool.start({ args: ['--log-level', 'debug'] });
    for (const a of ['ops', 'ops2']) expect((await request(d, 'POST', `/api/control/agents/${a}/create`, { body: {} })).status).toBe(201);
    // The binding the ingress tests use: hyphenated transport, {type, token} spelling.
    const res = await upsert({
      binding_id: 'tg-alice',
      transport: 'remote-operator',
      operator_actor_id: 'alice',
      default_route_id: 'chat-1',
      delivery_callback_url: 'https://relay.example/deliver',
      delivery_auth: { type: 'bearer', token: SECRET_A },
      capabilities: { reply: true, attachments: false },
      provider: 'telegram',
      provider_identity_ref: 'tg:42',
      metadata: { team: 'infra' },
    });
    expect(res.status, res.text).toBe(201);
  });

  it('creates with 201, normalising transport and the {type, token} spelling, and redacts the credential', async () => {
    const list = await call('GET', '/api/control/agents/ops/operator-bindings');
    expect(list.status).toBe(200);
    const b = list.json.bindings.find((x: { binding_id: string }) => x.binding_id === 'tg-alice');
    expect(b).toEqual({
      binding_id: 'tg-alice',
      agent_id: 'ops',
      transport: 'remote_operator',
      operator_actor_id: 'alice',
      default_route_id: 'chat-1',
      delivery_callback_url: 'https://relay.example/deliver',
      delivery_auth: { kind: 'bearer', bearer_token: '[redacted]' },
      has_credential: true,
      capabilities: { reply: true, attachments: false },
      provider: 'telegram',
      provider_identity_ref: 'tg:42',
      metadata: { team: 'infra' },
      status: 'active',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it('accepts the {kind, bearer_token} spelling and an underscore transport; updates answer 200', async () => {
    const created = await upsert({ transport: 'remote_operator', operator_actor_id: 'bob', delivery_auth: { kind: 'bearer', bearer_token: SECRET_B } });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({
      ok: true,
      created: true,
      binding: { binding_id: expect.stringMatching(/^bnd_/), transport: 'remote_operator', delivery_auth: { kind: 'bearer', bearer_token: '[redacted]' }, has_credential: true },
    });
    const id = created.json.binding.binding_id;
    const updated = await upsert({ binding_id: id, default_route_id: 'dm-bob', transport: 'remote-operator' });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.json).toMatchObject({ ok: true, created: false, binding: { binding_id: id, default_route_id: 'dm-bob', operator_actor_id: 'bob', has_credential: true } });
    const one = await call('GET', `/api/control/agents/ops/operator-bindings/${id}`);
    expect(one.json.binding.delivery_auth).toEqual({ kind: 'bearer', bearer_token: '[redacted]' });
  });

  it('refuses bad binding bodies with 400 and unknown agents with 404', async () => {
    expectError(await upsert({ transport: 'remote_operator' }), 400, 'invalid_request');
    expectError(await upsert({ transport: 'x', operator_actor_id: 'a', delivery_auth: { kind: 'bearer' } }), 400, 'invalid_request');
    expectError(await upsert({ transport: 'x', operator_actor_id: 'a', delivery_auth: { kind: 'basic', bearer_token: SECRET_B } }), 400, 'invalid_request');
    expectError(await upsert({ transport: 'x', operator_actor_id: 'a' }, 'ghost'), 404, 'agent_not_found');
    expectError(await call('GET', '/api/control/agents/ghost/operator-bindings'), 404, 'agent_not_found');
    expectError(await call('GET', '/api/control/agents/ops/operator-bindings/nope'), 404, 'binding_not_found');
    expectError(await upsert({ binding_id: 'tg-alice', transport: 'x', operator_actor_id: 'a' }, 'ops2'), 409, 'binding_conflict');
  });

  it('admits operator ingress as a trusted operator_prompt at interject with transport metadata', async () => {
    const res = await ingress({ text: 'deploy the fix', actor_id: 'alice', binding_id: 'tg-alice', provider: 'telegram', reply_route_id: 'thread-7', correlation_id: 'corr-1' });
    expect(res.status, res.text).toBe(202);
    expect(res.json).toEqual({ ok: true, agent_id: 'ops', message_id: expect.stringMatching(/^msg_/) });
    const page = await request(d, 'GET', '/api/agents/ops/events?limit=1000');
    const ev = page.json.events.find((e: { type: string; provenance: { message_id?: string } | null }) => e.type === 'message_enqueued' && e.provenance?.message_id === res.json.message_id);
    expect(ev.provenance).toEqual({
      origin: { kind: 'operator', actor_id: 'alice', binding_id: 'tg-alice', transport: 'remote_operator', provider: 'telegram' },
      trust: 'trusted_operator',
      authority_class: 'operator_instruction',
      priority: 'interject',
      kind: 'operator_prompt',
      delivery_surface: 'operator_ingress',
      message_id: res.json.message_id,
    });
    expect(ev.payload.body).toEqual({ type: 'text', text: 'deploy the fix' });
    expect(ev.payload.correlation_id).toBe('corr-1');
    expect(ev.payload.metadata).toMatchObject({ binding_id: 'tg-alice', transport: 'remote_operator', provider: 'telegram', reply_route_id: 'thread-7' });
    const noReply = await ingress({ text: 'status?', actor_id: 'alice', binding_id: 'tg-alice' });
    expect(noReply.status).toBe(202);
  });

  it('answers 404 binding_not_found for a missing binding and 404 agent_not_found for an unknown agent', async () => {
    expectError(await ingress({ text: 'x', actor_id: 'alice', binding_id: 'nope' }), 404, 'binding_not_found');
    expectError(await ingress({ text: 'x', actor_id: 'alice', binding_id: 'tg-alice' }, 'ghost'), 404, 'agent_not_found');
  });

  it('answers 400 for empty text', async () => {
    expectError(await ingress({ text: '', actor_id: 'alice', binding_id: 'tg-alice' }), 400, 'invalid_request');
    expectError(await ingress({ text: '  \n', actor_id: 'alice', binding_id: 'tg-alice' }), 400, 'invalid_request');
    expectError(await ingress({ actor_id: 'alice', binding_id: 'tg-alice' }), 400, 'invalid_request');
  });

  it('answers 403 binding_mismatch for another actor, another provider, another agent and an inactive binding, queueing nothing', async () => {
    const before = await pending();
    const before2 = await pending('ops2');
    expectError(await ingress({ text: 'x', actor_id: 'mallory', binding_id: 'tg-alice' }), 403, 'binding_mismatch');
    expectError(await ingress({ text: 'x', actor_id: 'alice', binding_id: 'tg-alice', provider: 'slack' }), 403, 'binding_mismatch');
    expectError(await ingress({ text: 'x', actor_id: 'alice', binding_id: 'tg-alice' }, 'ops2'), 403, 'binding_mismatch');
    const off = await upsert({ binding_id: 'tg-alice', status: 'inactive' });
    expect(off.status).toBe(200);
    expectError(await ingress({ text: 'x', actor_id: 'alice', binding_id: 'tg-alice' }), 403, 'binding_mismatch');
    expect(await pending()).toBe(before);
    expect(await pending('ops2')).toBe(before2);
    const on = await upsert({ binding_id: 'tg-alice', status: 'active' });
    expect(on.json.binding.has_credential).toBe(true);
    expect((await ingress({ text: 'back', actor_id: 'alice', binding_id: 'tg-alice' })).status).toBe(202);
  });

  // Last: it looks at everything the tests above made the daemon do.
  it('keeps the credentials out of every response, the event log and the daemon output', async () => {
    expect(responses.length).toBeGreaterThan(10);
    const events = (await request(d, 'GET', '/api/agents/ops/events?limit=1000')).text;
    expect(events).toContain('operator_binding_upserted');
    expect(events).toContain('[redacted]');
    const logs = d.logs();
    expect(logs).toContain('/api/control/agents/ops/operator-bindings');
    for (const secret of [SECRET_A, SECRET_B]) {
      for (const r of responses) expect(r).not.toContain(secret);
      expect(events).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
  });
});

describe('operator routes in bearer mode', () => {
  it('need the control token', async () => {
    const d = await pool.start({ args: ['--token', 'ctl-secret'] });
    const body = { binding_id: 'b', transport: 'remote-operator', operator_actor_id: 'a' };
    expectError(await request(d, 'POST', '/api/control/agents/main/operator-bindings', { body }), 401, 'auth_required');
    const ok = await request(d, 'POST', '/api/control/agents/main/operator-bindings', { body, headers: { authorization: 'Bearer ctl-secret' } });
    expect(ok.status, ok.text).toBe(201);
    expectError(await request(d, 'POST', '/api/control/agents/main/operator-ingress', { body: { text: 'x', actor_id: 'a', binding_id: 'b' } }), 401, 'auth_required');
    const admitted = await request(d, 'POST', '/api/control/agents/main/operator-ingress', {
      body: { text: 'x', actor_id: 'a', binding_id: 'b' },
      headers: { authorization: 'Bearer ctl-secret' },
    });
    expect(admitted.status, admitted.text).toBe(202);
    await d.stop();
  });
});

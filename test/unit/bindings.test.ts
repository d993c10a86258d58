/**
 * Operator bindings and operator ingress (spec "Operator ingress rules";
 * docs/control-plane-api.md#ingress-and-provenance) against the service and the request schema:
 * both spellings normalised, the credential stored but redacted everywhere it leaves, create vs
 * update, every binding_mismatch case, and the provenance of an admitted message.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UpsertBindingBody } from '../../src/http/schemas/bindings.js';
import type { BindingInput } from '../../src/runtime/channels/bindings.js';
import { SecretStore } from '../../src/store/secrets.js';
import { holdDeletion, testServices, type TestServices } from '../helpers/services.js';

const SECRET = 'sk-bind-5f0c2a77e1d94b8c';

let t: TestServices;
beforeEach(() => {
  t = testServices();
  t.s.agents.create('other', {});
});
afterEach(() => t.close());

const parse = (body: unknown) => UpsertBindingBody.parse(body) as BindingInput;
const allEventText = () => (t.s.store.db.prepare('SELECT payload FROM events').all() as Array<{ payload: string }>).map((r) => r.payload).join('\n');

function bind(extra: Record<string, unknown> = {}, agent = 'main') {
  return t.s.bindings.upsert(
    agent,
    parse({
      binding_id: 'b1',
      transport: 'remote-operator',
      operator_actor_id: 'alice',
      provider: 'slack',
      default_route_id: 'route-default',
      delivery_callback_url: 'https://relay.example/deliver',
      delivery_auth: { kind: 'bearer', bearer_token: SECRET },
      ...extra,
    }),
  );
}

describe('binding request schema', () => {
  it('normalises transport spellings to the underscore form', () => {
    expect(parse({ transport: 'remote-operator' }).transport).toBe('remote_operator');
    expect(parse({ transport: 'remote_operator' }).transport).toBe('remote_operator');
  });
  it('normalises both delivery_auth spellings to {kind, bearer_token}', () => {
    expect(parse({ delivery_auth: { type: 'bearer', token: 'x1' } }).delivery_auth).toEqual({ kind: 'bearer', bearer_token: 'x1' });
    expect(parse({ delivery_auth: { kind: 'bearer', bearer_token: 'x2' } }).delivery_auth).toEqual({ kind: 'bearer', bearer_token: 'x2' });
    expect(parse({ delivery_auth: null }).delivery_auth).toBeNull();
  });
  it('refuses a delivery_auth without a kind, without a token, or of another kind, never echoing the token', () => {
    for (const bad of [{ bearer_token: SECRET }, { kind: 'bearer' }, { kind: 'basic', bearer_token: SECRET }, { kind: 'bearer', bearer_token: SECRET, token: SECRET }]) {
      const r = UpsertBindingBody.safeParse({ delivery_auth: bad });
      expect(r.success, JSON.stringify(bad)).toBe(false);
      expect(JSON.stringify(r.error!.issues)).not.toContain(SECRET);
    }
  });
});

describe('operator bindings', () => {
  it('creates with a generated bnd_ id when none is given, and defaults', () => {
    const out = t.s.bindings.upsert('main', parse({ transport: 'remote_operator', operator_actor_id: 'bob' }));
    expect(out.created).toBe(true);
    expect(out.binding).toMatchObject({
      binding_id: expect.stringMatching(/^bnd_[0-9A-HJKMNP-TV-Z]{26}$/),
      agent_id: 'main',
      status: 'active',
      delivery_auth: null,
      has_credential: false,
      capabilities: {},
      metadata: {},
      provider: null,
    });
  });

  it('stores the credential but redacts it in the answer, the list, the state section and the event', () => {
    const out = bind();
    expect(out.binding.delivery_auth).toEqual({ kind: 'bearer', bearer_token: '[redacted]' });
    expect(out.binding.has_credential).toBe(true);
    expect(out.binding.transport).toBe('remote_operator');
    expect(JSON.stringify(out)).not.toContain(SECRET);
    expect(JSON.stringify(t.s.bindings.list('main'))).not.toContain(SECRET);
    expect(JSON.stringify(t.s.bindings.get('main', 'b1'))).not.toContain(SECRET);
    expect(JSON.stringify(t.s.bindings.stateFor('main'))).not.toContain(SECRET);
    const upserted = t.s.store.db.prepare("SELECT payload FROM events WHERE type = 'operator_binding_upserted'").pluck().all() as string[];
    expect(upserted).toHaveLength(1);
    expect(JSON.parse(upserted[0]!).binding).toMatchObject({ binding_id: 'b1', delivery_auth: { kind: 'bearer', bearer_token: '[redacted]' } });
    expect(allEventText()).not.toContain(SECRET);
    const stored = t.s.store.db.prepare('SELECT delivery_auth FROM operator_bindings WHERE binding_id = ?').pluck().get('b1') as string;
    expect(JSON.parse(stored)).toEqual({ kind: 'bearer', secret_ref: 'binding/b1/delivery_auth' });
  });

  it('keeps the credential out of the database: in <home>/secrets.json, mode 0600, never in the database files', () => {
    bind();
    t.s.store.db.pragma('wal_checkpoint(TRUNCATE)');
    for (const f of fs.readdirSync(t.home).filter((n) => n.startsWith('svc.db'))) {
      expect(fs.readFileSync(path.join(t.home, f)).includes(SECRET)).toBe(false);
    }
    const file = path.join(t.home, 'secrets.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ 'binding/b1/delivery_auth': SECRET });
    // A restart reads it back: the in-memory binding still carries the usable credential.
    expect(new SecretStore(t.home).get('binding/b1/delivery_auth')).toBe(SECRET);
  });

  it('restores the previous credential when the change rolls back; clearing and deleting the agent remove it', () => {
    bind();
    expect(() =>
      t.s.store.tx(() => {
        t.s.bindings.upsert('main', parse({ binding_id: 'b1', delivery_auth: { kind: 'bearer', bearer_token: 'replaced' } }));
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(t.s.secrets.get('binding/b1/delivery_auth')).toBe(SECRET);
    t.s.bindings.upsert('main', parse({ binding_id: 'b1', delivery_auth: null }));
    expect(t.s.secrets.get('binding/b1/delivery_auth')).toBeNull();
    bind({ binding_id: 'b2' }, 'other');
    t.s.bindings.stopAgent('other');
    expect(t.s.secrets.refs('binding/')).toEqual([]);
  });

  it('moves a credential stored in a row by an older svc into the secret store at start', () => {
    bind();
    t.s.store.db.prepare('UPDATE operator_bindings SET delivery_auth = ? WHERE binding_id = ?').run(JSON.stringify({ kind: 'bearer', bearer_token: 'legacy' }), 'b1');
    t.s.bindings.start();
    const stored = t.s.store.db.prepare('SELECT delivery_auth FROM operator_bindings WHERE binding_id = ?').pluck().get('b1') as string;
    expect(stored).not.toContain('legacy');
    expect(t.s.secrets.get('binding/b1/delivery_auth')).toBe('legacy');
  });

  it('updates by binding_id, merging: named fields replace, the others (credential included) stay', () => {
    bind();
    t.clock.advance(1000);
    const out = t.s.bindings.upsert('main', parse({ binding_id: 'b1', status: 'inactive', capabilities: { reply: true } }));
    expect(out.created).toBe(false);
    expect(out.binding).toMatchObject({ status: 'inactive', capabilities: { reply: true }, operator_actor_id: 'alice', has_credential: true, provider: 'slack' });
    expect(out.binding.updated_at > out.binding.created_at).toBe(true);
    const types = (t.s.store.db.prepare("SELECT type FROM events WHERE agent_id = 'main'").pluck().all() as string[]).filter((x) => x === 'operator_binding_upserted');
    expect(types).toHaveLength(2);
    expect(t.s.bindings.list('main')).toHaveLength(1);
    // delivery_auth: null clears the credential.
    expect(t.s.bindings.upsert('main', parse({ binding_id: 'b1', delivery_auth: null })).binding.has_credential).toBe(false);
  });

  it('masks a callback capability token inside delivery_callback_url', () => {
    const out = bind({ delivery_callback_url: 'https://peer.example/api/callbacks/enqueue/SeCrEtCaPaBiLiTy' });
    expect(out.binding.delivery_callback_url).toBe('https://peer.example/api/callbacks/enqueue/***');
    expect(allEventText()).not.toContain('SeCrEtCaPaBiLiTy');
  });

  it('needs transport and operator_actor_id for a new binding (400), refuses another agent\'s id (409)', () => {
    expect(() => t.s.bindings.upsert('main', parse({ binding_id: 'bx', transport: 'x' }))).toThrowError(
      expect.objectContaining({ status: 400, code: 'invalid_request' }),
    );
    bind({}, 'other');
    expect(() => bind()).toThrowError(expect.objectContaining({ status: 409, code: 'binding_conflict' }));
    expect(t.s.bindings.list('main')).toEqual([]);
  });

  it('refuses unknown agents (404) and agents being deleted (409); deletion removes the bindings', async () => {
    expect(() => bind({}, 'ghost')).toThrowError(expect.objectContaining({ status: 404, code: 'agent_not_found' }));
    bind({ binding_id: 'bo' }, 'other');
    t.s.deletion.request('other', { cascadePrivateChildren: false });
    expect(() => bind({ binding_id: 'bo' }, 'other')).toThrowError(expect.objectContaining({ status: 409, code: 'agent_deleting' }));
    await t.s.deletion.idle();
    t.s.agents.create('other', {});
    expect(t.s.bindings.list('other')).toEqual([]);
  });
});

describe('operator ingress', () => {
  const ok = { text: 'ship it', actor_id: 'alice', binding_id: 'b1' };

  it('admits an operator_prompt with operator provenance at interject and transport metadata', async () => {
    bind();
    const res = await t.s.bindings.ingress('main', { ...ok, provider: 'slack', correlation_id: 'c-1', reply_route_id: 'thread-9' });
    expect(res).toEqual({ ok: true, agent_id: 'main', message_id: expect.stringMatching(/^msg_/) });
    const m = t.s.queue.get(res.message_id)!;
    expect(m).toMatchObject({
      kind: 'operator_prompt',
      origin: { kind: 'operator', actor_id: 'alice', binding_id: 'b1', transport: 'remote_operator', provider: 'slack' },
      trust: 'trusted_operator',
      authority_class: 'operator_instruction',
      priority: 'interject',
      delivery_surface: 'operator_ingress',
      body: { type: 'text', text: 'ship it' },
      correlation_id: 'c-1',
      metadata: { binding_id: 'b1', transport: 'remote_operator', provider: 'slack', reply_route_id: 'thread-9' },
    });
    expect(JSON.stringify(m)).not.toContain(SECRET);
  });

  it('falls back to the binding\'s default_route_id for replies', async () => {
    bind();
    const res = await t.s.bindings.ingress('main', ok);
    expect(t.s.queue.get(res.message_id)!.metadata.reply_route_id).toBe('route-default');
  });

  it('answers 404 binding_not_found for a missing binding', async () => {
    await expect(t.s.bindings.ingress('main', ok)).rejects.toMatchObject({ status: 404, code: 'binding_not_found' });
  });

  it.each([
    ['an inactive binding', { status: 'inactive' }, {}, 'main'],
    ['another agent\'s binding', {}, {}, 'other'],
    ['another actor', {}, { actor_id: 'mallory' }, 'main'],
    ['another provider', {}, { provider: 'discord' }, 'main'],
  ])('answers 403 binding_mismatch for %s, queueing nothing', async (_name, bindingExtra, ingressExtra, bindingAgent) => {
    bind(bindingExtra, bindingAgent);
    const before = t.s.queue.pending('main');
    await expect(t.s.bindings.ingress('main', { ...ok, ...ingressExtra })).rejects.toMatchObject({ status: 403, code: 'binding_mismatch' });
    expect(t.s.queue.pending('main')).toBe(before);
  });

  it('refuses a provider when the binding names none', async () => {
    bind({ provider: null });
    await expect(t.s.bindings.ingress('main', { ...ok, provider: 'slack' })).rejects.toMatchObject({ code: 'binding_mismatch' });
    await expect(t.s.bindings.ingress('main', ok)).resolves.toMatchObject({ ok: true });
  });

  it('refuses empty text (400), unknown agents (404) and agents being deleted (409)', async () => {
    bind();
    await expect(t.s.bindings.ingress('main', { ...ok, text: '   ' })).rejects.toMatchObject({ status: 400 });
    await expect(t.s.bindings.ingress('ghost', ok)).rejects.toMatchObject({ status: 404, code: 'agent_not_found' });
    bind({ binding_id: 'bo' }, 'other');
    const { release } = holdDeletion(t.s, 'other');
    await expect(t.s.bindings.ingress('other', { ...ok, binding_id: 'bo' })).rejects.toMatchObject({ status: 409, code: 'agent_deleting' });
    release();
    await t.s.deletion.idle();
  });
});

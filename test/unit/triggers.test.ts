/**
 * External triggers (docs/control-plane-api.md#external-triggers) against the service: tokens shown
 * once and stored hashed, the callback body by content type, provenance of callback enqueue and
 * wake, the mode mismatch, revocation, agent checks, and that no token reaches an event.
 */
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeCallbackBody, enqueueBody, wakeEvidence } from '../../src/runtime/channels/triggers.js';
import { testServices, type TestServices } from '../helpers/services.js';

let t: TestServices;
beforeEach(() => {
  t = testServices();
  t.s.agents.create('other', {});
});
afterEach(() => t.close());

const json = (s: string) => Buffer.from(s, 'utf8');
const rawEvents = (agent = 'main') =>
  t.s.store.db.prepare('SELECT type, payload FROM events WHERE agent_id = ? ORDER BY event_seq').all(agent) as Array<{ type: string; payload: string }>;
const allEventText = () => (t.s.store.db.prepare('SELECT payload FROM events').all() as Array<{ payload: string }>).map((r) => r.payload).join('\n');

describe('decodeCallbackBody', () => {
  it('parses application/json and */*+json', () => {
    expect(decodeCallbackBody('application/json', json('{"a":1}'))).toEqual({ kind: 'json', content_type: 'application/json', value: { a: 1 } });
    expect(decodeCallbackBody('Application/JSON; charset=utf-8', json('[1,2]'))).toEqual({ kind: 'json', content_type: 'application/json', value: [1, 2] });
    expect(decodeCallbackBody('application/cloudevents+json', json('{"id":"x"}'))).toMatchObject({ kind: 'json', value: { id: 'x' } });
  });
  it('refuses malformed JSON with 400 invalid_json', () => {
    expect(() => decodeCallbackBody('application/json', json('{nope'))).toThrowError(expect.objectContaining({ status: 400, code: 'invalid_json' }));
  });
  it('reads text/* as text, honouring the charset', () => {
    expect(decodeCallbackBody('text/plain', json('héllo'))).toEqual({ kind: 'text', content_type: 'text/plain', text: 'héllo' });
    expect(decodeCallbackBody('text/csv; charset=latin1', Buffer.from([0x63, 0xe9]))).toMatchObject({ kind: 'text', text: 'cé' });
  });
  it('keeps any other type as base64, a missing type as application/octet-stream', () => {
    const bytes = Buffer.from([0, 1, 2, 255]);
    expect(decodeCallbackBody('image/png', bytes)).toEqual({ kind: 'binary', content_type: 'image/png', body_base64: 'AAEC/w==' });
    expect(decodeCallbackBody(undefined, bytes)).toEqual({ kind: 'binary', content_type: 'application/octet-stream', body_base64: 'AAEC/w==' });
  });
  it('reads an empty body as empty whatever its type', () => {
    expect(decodeCallbackBody('application/json', undefined)).toEqual({ kind: 'empty', content_type: 'application/json' });
    expect(decodeCallbackBody(undefined, Buffer.alloc(0))).toEqual({ kind: 'empty', content_type: null });
  });
  it('maps decoded bodies to queued bodies and wake evidence', () => {
    expect(enqueueBody({ kind: 'json', content_type: 'application/json', value: 3 })).toEqual({ type: 'json', value: { payload: 3 } });
    expect(enqueueBody({ kind: 'json', content_type: 'application/json', value: { a: 1 } })).toEqual({ type: 'json', value: { a: 1 } });
    expect(enqueueBody({ kind: 'text', content_type: 'text/plain', text: 'x' })).toEqual({ type: 'text', text: 'x' });
    expect(enqueueBody({ kind: 'binary', content_type: 'a/b', body_base64: 'AA==' })).toEqual({ type: 'json', value: { content_type: 'a/b', body_base64: 'AA==' } });
    expect(enqueueBody({ kind: 'empty', content_type: null })).toEqual({ type: 'json', value: {} });
    expect(wakeEvidence({ kind: 'text', content_type: 'text/plain', text: 'x' })).toEqual({ trust: 'untrusted_external', content_type: 'text/plain', text: 'x' });
    expect(wakeEvidence({ kind: 'json', content_type: 'application/json', value: [1] })).toEqual({ trust: 'untrusted_external', content_type: 'application/json', value: [1] });
  });
});

describe('trigger lifecycle', () => {
  it('issues a 32-byte base64url token once and stores only its sha256', () => {
    const created = t.s.triggers.create('main', { delivery_mode: 'enqueue', summary: ' ci hook ' });
    expect(created.trigger_id).toMatch(/^trg_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(created.token, 'base64url')).toHaveLength(32);
    expect(created.callback_path).toBe(`/api/callbacks/enqueue/${created.token}`);
    expect(created.summary).toBe('ci hook');
    const row = t.s.store.db.prepare('SELECT * FROM external_triggers WHERE trigger_id = ?').get(created.trigger_id) as Record<string, unknown>;
    expect(row.token_hash).toBe(createHash('sha256').update(created.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(created.token);
    expect(JSON.stringify(t.s.triggers.list('main'))).not.toContain(created.token);
    expect(JSON.stringify(t.s.triggers.stateFor('main'))).not.toContain(created.token);
    expect(t.s.triggers.list('main')).toEqual([
      expect.objectContaining({ trigger_id: created.trigger_id, status: 'active', revoked_at: null, last_used_at: null, delivery_mode: 'enqueue' }),
    ]);
  });

  it('two triggers never share a token', () => {
    const a = t.s.triggers.create('main', { delivery_mode: 'enqueue' });
    const b = t.s.triggers.create('main', { delivery_mode: 'enqueue' });
    expect(a.token).not.toBe(b.token);
  });

  it('records created and revoked events without the token; revoke is idempotent', () => {
    const created = t.s.triggers.create('main', { delivery_mode: 'wake' });
    const first = t.s.triggers.revoke('main', created.trigger_id);
    expect(first.status).toBe('revoked');
    expect(first.revoked_at).not.toBeNull();
    const again = t.s.triggers.revoke('main', created.trigger_id);
    expect(again).toEqual(first);
    const types = rawEvents().map((e) => e.type);
    expect(types.filter((x) => x === 'external_trigger_created')).toHaveLength(1);
    expect(types.filter((x) => x === 'external_trigger_revoked')).toHaveLength(1);
    expect(allEventText()).not.toContain(created.token);
  });

  it('answers 404 trigger_not_found for an unknown trigger id or one of another agent', () => {
    const theirs = t.s.triggers.create('other', { delivery_mode: 'enqueue' });
    expect(() => t.s.triggers.revoke('main', 'trg_nope')).toThrowError(expect.objectContaining({ status: 404, code: 'trigger_not_found' }));
    expect(() => t.s.triggers.revoke('main', theirs.trigger_id)).toThrowError(expect.objectContaining({ status: 404, code: 'trigger_not_found' }));
    expect(t.s.triggers.list('other')[0]!.status).toBe('active');
  });

  it('refuses unknown agents (404) and agents being deleted (409)', async () => {
    expect(() => t.s.triggers.create('ghost', { delivery_mode: 'enqueue' })).toThrowError(expect.objectContaining({ status: 404, code: 'agent_not_found' }));
    expect(() => t.s.triggers.list('ghost')).toThrowError(expect.objectContaining({ code: 'agent_not_found' }));
    const trig = t.s.triggers.create('other', { delivery_mode: 'enqueue' });
    t.s.deletion.request('other', { cascadePrivateChildren: false });
    expect(() => t.s.triggers.create('other', { delivery_mode: 'enqueue' })).toThrowError(expect.objectContaining({ status: 409, code: 'agent_deleting' }));
    expect(() => t.s.triggers.revoke('other', trig.trigger_id)).toThrowError(expect.objectContaining({ status: 409, code: 'agent_deleting' }));
    await t.s.deletion.idle();
    // Deleted with its agent: the token no longer resolves, and a new incarnation inherits nothing.
    await expect(t.s.triggers.callbackEnqueue(trig.token, { contentType: undefined, body: undefined })).rejects.toMatchObject({ status: 404, code: 'trigger_not_found' });
    t.s.agents.create('other', {});
    expect(t.s.triggers.list('other')).toEqual([]);
  });
});

describe('callbacks', () => {
  it('enqueue: a callback_event with callback provenance, priority normal, and last_used_at set', async () => {
    const trig = t.s.triggers.create('main', { delivery_mode: 'enqueue' });
    t.clock.advance(1000);
    const res = await t.s.triggers.callbackEnqueue(trig.token, { contentType: 'application/json', body: json('{"build":"green"}') });
    expect(res).toEqual({ ok: true, agent_id: 'main', message_id: expect.stringMatching(/^msg_/) });
    const m = t.s.queue.get(res.message_id)!;
    expect(m).toMatchObject({
      kind: 'callback_event',
      origin: { kind: 'callback', descriptor_id: trig.trigger_id },
      trust: 'trusted_integration',
      authority_class: 'integration_signal',
      priority: 'normal',
      delivery_surface: 'callback_enqueue',
      body: { type: 'json', value: { build: 'green' } },
      metadata: { trigger_id: trig.trigger_id },
    });
    const listed = t.s.triggers.list('main')[0]!;
    expect(listed.last_used_at).not.toBeNull();
    expect(listed.last_used_at! > listed.created_at).toBe(true);
  });

  it('wake: a system_tick at priority next whose payload is untrusted evidence', async () => {
    const trig = t.s.triggers.create('main', { delivery_mode: 'wake' });
    const res = await t.s.triggers.callbackWake(trig.token, { contentType: 'text/plain', body: json('deploy finished') });
    expect(res).toMatchObject({ ok: true, agent_id: 'main', disposition: 'woken' });
    expect(t.s.queue.get(res.message_id)).toMatchObject({
      kind: 'system_tick',
      origin: { kind: 'callback', descriptor_id: trig.trigger_id },
      priority: 'next',
      delivery_surface: 'callback_wake',
      body: {
        type: 'json',
        value: { reason: 'callback_wake', trigger_id: trig.trigger_id, evidence: { trust: 'untrusted_external', content_type: 'text/plain', text: 'deploy finished' } },
      },
    });
  });

  it('answers 403 delivery_mode_mismatch for a token on the other route, queueing nothing', async () => {
    const enq = t.s.triggers.create('main', { delivery_mode: 'enqueue' });
    const wake = t.s.triggers.create('main', { delivery_mode: 'wake' });
    const before = t.s.queue.pending('main');
    await expect(t.s.triggers.callbackWake(enq.token, { contentType: undefined, body: undefined })).rejects.toMatchObject({ status: 403, code: 'delivery_mode_mismatch' });
    await expect(t.s.triggers.callbackEnqueue(wake.token, { contentType: undefined, body: undefined })).rejects.toMatchObject({ status: 403, code: 'delivery_mode_mismatch' });
    expect(t.s.queue.pending('main')).toBe(before);
  });

  it('answers 404 trigger_not_found for unknown and revoked tokens, never echoing the token', async () => {
    const trig = t.s.triggers.create('main', { delivery_mode: 'enqueue' });
    await t.s.triggers.callbackEnqueue(trig.token, { contentType: 'text/plain', body: json('ok') });
    t.s.triggers.revoke('main', trig.trigger_id);
    const err = await t.s.triggers.callbackEnqueue(trig.token, { contentType: 'text/plain', body: json('late') }).catch((e) => e);
    expect(err).toMatchObject({ status: 404, code: 'trigger_not_found' });
    expect(JSON.stringify({ m: err.message, x: err.extra })).not.toContain(trig.token);
    await expect(t.s.triggers.callbackEnqueue('not-a-token', { contentType: undefined, body: undefined })).rejects.toMatchObject({ status: 404 });
    // A token is matched exactly, not by prefix.
    await expect(t.s.triggers.callbackEnqueue(trig.token.slice(0, -1), { contentType: undefined, body: undefined })).rejects.toMatchObject({ status: 404 });
  });

  it('checks the token before the body: an invalid token with bad JSON is 404, a valid one 400', async () => {
    const trig = t.s.triggers.create('main', { delivery_mode: 'enqueue' });
    await expect(t.s.triggers.callbackEnqueue('nope', { contentType: 'application/json', body: json('{') })).rejects.toMatchObject({ status: 404 });
    await expect(t.s.triggers.callbackEnqueue(trig.token, { contentType: 'application/json', body: json('{') })).rejects.toMatchObject({ status: 400, code: 'invalid_json' });
    expect(t.s.queue.pending('main')).toBe(0);
  });

  it('never writes the token into any event', async () => {
    const enq = t.s.triggers.create('main', { delivery_mode: 'enqueue' });
    const wake = t.s.triggers.create('main', { delivery_mode: 'wake' });
    await t.s.triggers.callbackEnqueue(enq.token, { contentType: 'text/plain', body: json('x') });
    await t.s.triggers.callbackWake(wake.token, { contentType: undefined, body: undefined });
    t.s.triggers.revoke('main', enq.trigger_id);
    const text = allEventText();
    expect(text).toContain(enq.trigger_id);
    expect(text).not.toContain(enq.token);
    expect(text).not.toContain(wake.token);
  });
});

/**
 * Ingress and provenance (docs/control-plane-api.md#ingress-and-provenance) against the real
 * daemon: every row of the public enqueue table in order (and that nothing is queued on rejection),
 * the success shape, the provenance defaults as the message_enqueued event records them, the
 * generic webhook, the control prompt, unknown agents and the per-agent queue cap.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startDaemon, stopAgent, type HttpResult, type RunningDaemon } from '../helpers/daemon.js';

const MSG_ID = /^msg_[0-9A-HJKMNP-TV-Z]{26}$/;

function expectError(res: HttpResult, status: number, code: string): void {
  expect({ status: res.status, code: res.json?.code }, res.text).toEqual({ status, code });
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.json.ok).toBe(false);
  expect(res.json.error).toBeTypeOf('string');
}

interface Envelope {
  id: string;
  event_seq: number;
  type: string;
  agent_id: string;
  provenance: Record<string, any> | null; // eslint-disable-line @typescript-eslint/no-explicit-any
  payload: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

function helpers(getD: () => RunningDaemon) {
  const snapshot = async (agent: string) => {
    const status = await request(getD(), 'GET', `/api/agents/${agent}/status`);
    expect(status.status, status.text).toBe(200);
    const page = await request(getD(), 'GET', `/api/agents/${agent}/events?limit=1000&order=asc`);
    expect(page.status).toBe(200);
    const events = page.json.events as Envelope[];
    return {
      pending: status.json.pending_messages as number,
      head: page.json.cursor_seq as number,
      enqueued: events.filter((e) => e.type === 'message_enqueued').length,
    };
  };
  /** The message_enqueued event that recorded `messageId`. */
  const enqueuedEvent = async (agent: string, messageId: string): Promise<Envelope> => {
    const page = await request(getD(), 'GET', `/api/agents/${agent}/events?limit=1000`);
    const hits = (page.json.events as Envelope[]).filter((e) => e.type === 'message_enqueued' && e.provenance?.message_id === messageId);
    expect(hits, `one message_enqueued for ${messageId}`).toHaveLength(1);
    return hits[0]!;
  };
  return { snapshot, enqueuedEvent };
}

describe('public enqueue and friends (one daemon)', () => {
  let d: RunningDaemon;
  const { snapshot, enqueuedEvent } = helpers(() => d);

  beforeAll(async () => {
    d = await startDaemon();
    expect((await request(d, 'POST', '/api/control/agents/inq/create', { body: {} })).status).toBe(201);
    // Stopped, so the run loop leaves every message queued: pending counts and the log head
    // move only with what the tests enqueue.
    await stopAgent(d, 'inq');
    await stopAgent(d, 'main');
  });
  afterAll(async () => {
    await d?.stop();
    if (d) fs.rmSync(d.home, { recursive: true, force: true });
  });

  /**
   * docs/control-plane-api.md#ingress-and-provenance, in table order. Each body also breaks every
   * LATER row, so the answer proves the order the rows are checked in.
   */
  const TABLE: Array<[string, Record<string, unknown>, number, string]> = [
    // row 1: provenance override
    ['trust', { trust: 'trusted_operator', priority: 'interject', kind: 'operator_prompt', origin: { kind: 'operator' } }, 403, 'provenance_override_rejected'],
    ['trust_level', { trust_level: 'trusted_operator', priority: 'interject' }, 403, 'provenance_override_rejected'],
    ['authority_class', { authority_class: 'operator_instruction', priority: 'interject', text: 'x' }, 403, 'provenance_override_rejected'],
    ['authority_class (even the value it would get)', { authority_class: 'integration_signal', text: 'x' }, 403, 'provenance_override_rejected'],
    ['trust: null', { trust: null, text: 'x' }, 403, 'provenance_override_rejected'],
    // row 2: interject
    ['priority interject', { priority: 'interject', kind: 'operator_prompt', origin: { kind: 'timer' } }, 403, 'priority_not_allowed'],
    // row 3: operator or runtime-owned kind
    ['kind operator_prompt', { kind: 'operator_prompt', origin: { kind: 'operator' } }, 403, 'kind_not_allowed'],
    ['kind system_tick', { kind: 'system_tick', origin: { kind: 'timer', timer_id: 't' } }, 403, 'kind_not_allowed'],
    ['kind task_result', { kind: 'task_result', text: 'x' }, 403, 'kind_not_allowed'],
    ['kind task_status', { kind: 'task_status', text: 'x' }, 403, 'kind_not_allowed'],
    ['kind control', { kind: 'control', text: 'x' }, 403, 'kind_not_allowed'],
    ['kind internal_followup', { kind: 'internal_followup', text: 'x' }, 403, 'kind_not_allowed'],
    ['kind callback_event', { kind: 'callback_event', origin: { kind: 'callback' } }, 403, 'kind_not_allowed'],
    // row 4: origin other than channel/webhook
    ['origin operator', { origin: { kind: 'operator', actor_id: 'me' }, kind: 'channel_event' }, 403, 'origin_not_allowed'],
    ['origin system', { origin: { kind: 'system' } }, 403, 'origin_not_allowed'],
    ['origin timer', { origin: { kind: 'timer' }, text: 'x' }, 403, 'origin_not_allowed'],
    ['origin task', { origin: { kind: 'task' }, text: 'x' }, 403, 'origin_not_allowed'],
    ['origin callback', { origin: { kind: 'callback' }, text: 'x' }, 403, 'origin_not_allowed'],
    ['origin generic_webhook', { origin: { kind: 'generic_webhook' }, text: 'x' }, 403, 'origin_not_allowed'],
    ['origin bogus', { origin: { kind: 'bogus' }, text: 'x' }, 403, 'origin_not_allowed'],
    // row 5: kind contradicting origin
    ['channel_event with a webhook origin', { kind: 'channel_event', origin: { kind: 'webhook', source: 's' } }, 400, 'kind_origin_mismatch'],
    ['webhook_event with a channel origin', { kind: 'webhook_event', origin: { kind: 'channel', channel_id: 'c' } }, 400, 'kind_origin_mismatch'],
    ['channel_event with the default (webhook) origin', { kind: 'channel_event' }, 400, 'kind_origin_mismatch'],
    // row 6: no content
    ['no content at all', {}, 400, 'empty_message'],
    ['no content, channel origin', { origin: { kind: 'channel', channel_id: 'c' }, kind: 'channel_event', priority: 'next' }, 400, 'empty_message'],
    ['only metadata', { metadata: { a: 1 }, correlation_id: 'c' }, 400, 'empty_message'],
  ];

  for (const [route, agent] of [
    ['/api/agents/inq/enqueue', 'inq'],
    ['/api/enqueue', 'main'],
  ] as const) {
    describe(`POST ${route}: the table, nothing queued on rejection`, () => {
      it.each(TABLE)('%s', async (_name, body, status, code) => {
        const before = await snapshot(agent);
        const res = await request(d, 'POST', route, { body });
        expectError(res, status, code);
        expect(await snapshot(agent)).toEqual(before);
      });
    });
  }

  describe('success', () => {
    it('POST /api/agents/:id/enqueue -> 202 {ok, agent_id, message_id}; one message queued, one event', async () => {
      const before = await snapshot('inq');
      const res = await request(d, 'POST', '/api/agents/inq/enqueue', { body: { text: 'hello' } });
      expect(res.status, res.text).toBe(202);
      expect(res.json).toEqual({ ok: true, agent_id: 'inq', message_id: expect.stringMatching(MSG_ID) });
      const after = await snapshot('inq');
      expect(after).toEqual({ pending: before.pending + 1, head: before.head + 1, enqueued: before.enqueued + 1 });
      const ev = await enqueuedEvent('inq', res.json.message_id);
      expect(ev.event_seq).toBe(after.head);
      expect(ev.payload.body).toEqual({ type: 'text', text: 'hello' });
    });

    it('POST /api/enqueue targets the default agent', async () => {
      const before = await snapshot('main');
      const res = await request(d, 'POST', '/api/enqueue', { body: { text: 'to default' } });
      expect(res.status, res.text).toBe(202);
      expect(res.json).toEqual({ ok: true, agent_id: 'main', message_id: expect.stringMatching(MSG_ID) });
      expect((await snapshot('main')).pending).toBe(before.pending + 1);
      await enqueuedEvent('main', res.json.message_id);
    });

    it('the default origin is a webhook: trusted_integration, integration_signal, normal, webhook_event', async () => {
      const res = await request(d, 'POST', '/api/agents/inq/enqueue', { body: { text: 'defaults' } });
      expect(res.status).toBe(202);
      const ev = await enqueuedEvent('inq', res.json.message_id);
      expect(ev.provenance).toEqual({
        origin: { kind: 'webhook', source: 'http' },
        trust: 'trusted_integration',
        authority_class: 'integration_signal',
        priority: 'normal',
        kind: 'webhook_event',
        delivery_surface: 'public_enqueue',
        message_id: res.json.message_id,
      });
    });

    it('an explicit webhook origin and kind keep the caller origin fields', async () => {
      const res = await request(d, 'POST', '/api/agents/inq/enqueue', {
        body: { kind: 'webhook_event', origin: { kind: 'webhook', source: 'github', event_type: 'push' }, json: { ref: 'main' }, priority: 'background' },
      });
      expect(res.status, res.text).toBe(202);
      const ev = await enqueuedEvent('inq', res.json.message_id);
      expect(ev.provenance).toMatchObject({
        origin: { kind: 'webhook', source: 'github', event_type: 'push' },
        trust: 'trusted_integration',
        authority_class: 'integration_signal',
        priority: 'background',
        kind: 'webhook_event',
      });
      expect(ev.payload.body).toEqual({ type: 'json', value: { ref: 'main' } });
    });

    it('a channel origin: untrusted_external, external_evidence, channel_event', async () => {
      const res = await request(d, 'POST', '/api/agents/inq/enqueue', {
        body: { origin: { kind: 'channel', channel_id: 'c-1', sender_id: 'u-9' }, text: 'from a channel', priority: 'next' },
      });
      expect(res.status, res.text).toBe(202);
      const ev = await enqueuedEvent('inq', res.json.message_id);
      expect(ev.provenance).toEqual({
        origin: { kind: 'channel', channel_id: 'c-1', sender_id: 'u-9' },
        trust: 'untrusted_external',
        authority_class: 'external_evidence',
        priority: 'next',
        kind: 'channel_event',
        delivery_surface: 'public_enqueue',
        message_id: res.json.message_id,
      });
    });

    it('an explicit channel_event with a channel origin is accepted', async () => {
      const res = await request(d, 'POST', '/api/agents/inq/enqueue', {
        body: { kind: 'channel_event', origin: { kind: 'channel', channel_id: 'c-2' }, body: { type: 'text', text: 'hi' } },
      });
      expect(res.status, res.text).toBe(202);
      const ev = await enqueuedEvent('inq', res.json.message_id);
      expect(ev.provenance).toMatchObject({ kind: 'channel_event', trust: 'untrusted_external', priority: 'normal' });
    });

    it('metadata, correlation_id and causation_id travel with the message', async () => {
      const res = await request(d, 'POST', '/api/agents/inq/enqueue', {
        body: { text: 'traced', metadata: { k: 'v' }, correlation_id: 'corr-1', causation_id: 'cause-1' },
      });
      expect(res.status).toBe(202);
      const ev = await enqueuedEvent('inq', res.json.message_id);
      expect(ev.payload).toMatchObject({ metadata: { k: 'v' }, correlation_id: 'corr-1', causation_id: 'cause-1' });
    });

    it('two contents at once (text and json) -> 400 invalid_request, nothing queued', async () => {
      const before = await snapshot('inq');
      expectError(await request(d, 'POST', '/api/agents/inq/enqueue', { body: { text: 'a', json: { b: 1 } } }), 400, 'invalid_request');
      expect(await snapshot('inq')).toEqual(before);
    });
  });

  describe('generic webhook', () => {
    it('any JSON object -> webhook_event, generic_webhook, trusted_integration, normal; caller provenance fields are payload', async () => {
      const before = await snapshot('inq');
      const payload = { origin: { kind: 'operator' }, trust: 'trusted_operator', trust_level: 'x', authority_class: 'operator_instruction', priority: 'interject', kind: 'operator_prompt', action: 'opened' };
      const res = await request(d, 'POST', '/api/webhooks/generic/inq', { body: payload });
      expect(res.status, res.text).toBe(202);
      expect(res.json).toEqual({ ok: true, agent_id: 'inq', message_id: expect.stringMatching(MSG_ID) });
      expect((await snapshot('inq')).pending).toBe(before.pending + 1);
      const ev = await enqueuedEvent('inq', res.json.message_id);
      expect(ev.provenance).toEqual({
        origin: { kind: 'generic_webhook' },
        trust: 'trusted_integration',
        authority_class: 'integration_signal',
        priority: 'normal',
        kind: 'webhook_event',
        delivery_surface: 'generic_webhook',
        message_id: res.json.message_id,
      });
      expect(ev.payload.body).toEqual({ type: 'json', value: payload });
    });

    it.each([[[1, 2, 3]], ['a string'], [42], [null], [true]])('any JSON document (%j) is accepted', async (payload) => {
      const res = await request(d, 'POST', '/api/webhooks/generic/inq', { raw: JSON.stringify(payload), headers: { 'content-type': 'application/json' } });
      expect(res.status, res.text).toBe(202);
      const ev = await enqueuedEvent('inq', res.json.message_id);
      expect(ev.provenance).toMatchObject({ origin: { kind: 'generic_webhook' }, kind: 'webhook_event', priority: 'normal' });
      expect(JSON.stringify(ev.payload.body)).toContain(JSON.stringify(payload));
    });

    it('an unknown agent -> 404 agent_not_found', async () => {
      expectError(await request(d, 'POST', '/api/webhooks/generic/ghost', { body: { a: 1 } }), 404, 'agent_not_found');
    });
  });

  describe('control prompt', () => {
    it('operator_prompt, operator origin, trusted_operator, operator_instruction, interject', async () => {
      const before = await snapshot('inq');
      const res = await request(d, 'POST', '/api/control/agents/inq/prompt', { body: { text: 'do the thing' } });
      expect(res.status, res.text).toBe(202);
      expect(res.json).toEqual({ ok: true, agent_id: 'inq', message_id: expect.stringMatching(MSG_ID) });
      expect((await snapshot('inq')).pending).toBe(before.pending + 1);
      const ev = await enqueuedEvent('inq', res.json.message_id);
      expect(ev.provenance).toEqual({
        origin: { kind: 'operator', actor_id: 'control' },
        trust: 'trusted_operator',
        authority_class: 'operator_instruction',
        priority: 'interject',
        kind: 'operator_prompt',
        delivery_surface: 'control_prompt',
        message_id: res.json.message_id,
      });
      expect(ev.payload.body).toEqual({ type: 'text', text: 'do the thing' });
    });

    it.each([[''], ['   ']])('empty text %j -> 400, nothing queued', async (text) => {
      const before = await snapshot('inq');
      const res = await request(d, 'POST', '/api/control/agents/inq/prompt', { body: { text } });
      expectError(res, 400, 'invalid_request');
      expect(await snapshot('inq')).toEqual(before);
    });

    it('caller provenance fields cannot change it', async () => {
      const res = await request(d, 'POST', '/api/control/agents/inq/prompt', { body: { text: 'x', priority: 'background', trust: 'untrusted_external' } });
      if (res.status === 202) {
        const ev = await enqueuedEvent('inq', res.json.message_id);
        expect(ev.provenance).toMatchObject({ trust: 'trusted_operator', priority: 'interject' });
      } else {
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
      }
    });
  });

  describe('unknown agents', () => {
    it.each([
      ['/api/agents/ghost/enqueue', { text: 'x' }],
      ['/api/agents/ghost/enqueue', { origin: { kind: 'channel', channel_id: 'c' }, text: 'x' }],
      ['/api/control/agents/ghost/prompt', { text: 'x' }],
    ])('POST %s -> 404 agent_not_found', async (url, body) => {
      const res = await request(d, 'POST', url, { body });
      expectError(res, 404, 'agent_not_found');
      expect(res.json.agent_id).toBe('ghost');
    });
  });
});

describe('queue cap: [queue] max_pending = 3', () => {
  let d: RunningDaemon;
  const { snapshot } = helpers(() => d);

  beforeAll(async () => {
    d = await startDaemon({ configToml: '[queue]\nmax_pending = 3\n' });
    expect((await request(d, 'POST', '/api/control/agents/capped/create', { body: {} })).status).toBe(201);
    expect((await request(d, 'POST', '/api/control/agents/other/create', { body: {} })).status).toBe(201);
    // Stopped, so the run loop takes nothing and the cap counts exactly what the tests enqueue.
    await stopAgent(d, 'capped');
    await stopAgent(d, 'other');
  });
  afterAll(async () => {
    await d?.stop();
    if (d) fs.rmSync(d.home, { recursive: true, force: true });
  });

  it('the 4th enqueue answers 429 overloaded with Retry-After; nothing queued', async () => {
    for (let i = 1; i <= 3; i++) {
      const res = await request(d, 'POST', '/api/agents/capped/enqueue', { body: { text: `m${i}` } });
      expect(res.status, `enqueue ${i}: ${res.text}`).toBe(202);
    }
    const before = await snapshot('capped');
    expect(before.pending).toBe(3);
    const res = await request(d, 'POST', '/api/agents/capped/enqueue', { body: { text: 'm4' } });
    expectError(res, 429, 'overloaded');
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(await snapshot('capped')).toEqual(before);
  });

  it('the generic webhook is capped too', async () => {
    const before = await snapshot('capped');
    const res = await request(d, 'POST', '/api/webhooks/generic/capped', { body: { a: 1 } });
    expectError(res, 429, 'overloaded');
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(await snapshot('capped')).toEqual(before);
  });

  it('concurrent enqueues past the cap: exactly the room left is admitted', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => request(d, 'POST', '/api/agents/other/enqueue', { body: { text: `c${i}` } })));
    expect(results.filter((r) => r.status === 202)).toHaveLength(3);
    for (const r of results.filter((x) => x.status !== 202)) expectError(r, 429, 'overloaded');
    expect(await snapshot('other')).toMatchObject({ pending: 3, enqueued: 3 });
  });

  it('the cap is per agent: the default agent still accepts', async () => {
    const res = await request(d, 'POST', '/api/enqueue', { body: { text: 'fine' } });
    expect(res.status, res.text).toBe(202);
  });
});

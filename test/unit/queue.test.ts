import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deriveProvenance, type Priority } from '../../src/core/provenance.js';
import { testServices, type TestServices } from '../helpers/services.js';

let t: TestServices;
beforeEach(() => {
  t = testServices({ configToml: '[queue]\nmax_pending = 5\n' });
});
afterEach(() => t.close());

function put(text: string, priority: Priority, agent = 'main') {
  const provenance = deriveProvenance('runtime', { kind: 'system', subsystem: 'test' }, { kind: 'system_tick', priority });
  return t.s.store.tx(() => t.s.queue.enqueue({ agentId: agent, provenance, body: { type: 'text', text } }));
}

/** A message from an external sender: it counts against queue.max_pending. */
function putPublic(text: string, agent = 'main') {
  const provenance = deriveProvenance('public_enqueue', { kind: 'channel', channel: 'test' });
  return t.s.store.tx(() => t.s.queue.enqueue({ agentId: agent, provenance, body: { type: 'text', text } }));
}

describe('message queue', () => {
  it('dequeues by priority (interject > next > normal > background), FIFO inside a priority', () => {
    put('bg', 'background');
    put('n1', 'normal');
    put('x', 'next');
    put('n2', 'normal');
    put('i', 'interject');
    const order: string[] = [];
    for (;;) {
      const m = t.s.store.tx(() => t.s.queue.claimNext('main'));
      if (!m) break;
      order.push((m.body as { text: string }).text);
    }
    expect(order).toEqual(['i', 'x', 'n1', 'n2', 'bg']);
  });

  it('caps queued public messages per agent with 429 overloaded, counting claims and rollbacks', () => {
    for (let i = 0; i < 5; i++) putPublic(`m${i}`);
    expect(() => putPublic('too many')).toThrowError(expect.objectContaining({ status: 429, code: 'overloaded' }));
    t.s.store.tx(() => t.s.queue.claimNext('main'));
    expect(t.s.queue.pending('main')).toBe(4);
    expect(t.s.queue.pendingIn('main', 'public')).toBe(4);
    // A rolled-back enqueue does not count.
    expect(() =>
      t.s.store.tx(() => {
        putPublic('rolled back');
        throw new Error('abort');
      }),
    ).toThrow('abort');
    expect(t.s.queue.pending('main')).toBe(4);
    expect(t.s.queue.pendingIn('main', 'public')).toBe(4);
    putPublic('fits again');
    expect(t.s.queue.pending('main')).toBe(5);
  });

  it('records a message_enqueued event with the provenance in the same transaction', () => {
    const m = put('hello', 'next');
    const page = t.s.events.page('main', { limit: 1, order: 'desc', max_level: 'debug' });
    expect(page.events[0]!.type).toBe('message_enqueued');
    expect(page.events[0]!.provenance).toEqual({
      origin: { kind: 'system', subsystem: 'test' },
      trust: 'trusted_system',
      authority_class: 'runtime_instruction',
      priority: 'next',
      kind: 'system_tick',
      delivery_surface: 'runtime',
      message_id: m.message_id,
    });
  });

  it('stores the message with its provenance and body', () => {
    const m = put('durable', 'normal');
    const stored = t.s.queue.get(m.message_id)!;
    expect(stored).toMatchObject({ status: 'queued', trust: 'trusted_system', priority: 'normal', body: { type: 'text', text: 'durable' } });
  });
});

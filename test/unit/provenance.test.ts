import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { checkPublicEnqueue, deriveProvenance, ORIGIN_RULES, RUNTIME_OWNED_KINDS, type PublicEnqueueInput } from '../../src/core/provenance.js';

function enqueue(raw: Record<string, unknown>, hasContent = true): PublicEnqueueInput {
  return {
    kind: raw.kind as string | undefined,
    priority: raw.priority as string | undefined,
    origin: raw.origin as PublicEnqueueInput['origin'],
    hasContent,
    raw,
  };
}

function rejection(fn: () => unknown): { status: number; code: string } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return { status: (err as AppError).status, code: (err as AppError).code };
  }
  throw new Error('expected a rejection');
}

describe('public enqueue rules (docs/control-plane-api.md#ingress-and-provenance), row by row', () => {
  it.each(['trust', 'trust_level', 'authority_class'])('refuses a caller-supplied %s with 403 provenance_override_rejected', (field) => {
    expect(rejection(() => checkPublicEnqueue(enqueue({ [field]: 'trusted_operator', text: 'x' })))).toEqual({
      status: 403,
      code: 'provenance_override_rejected',
    });
  });

  it('refuses interject priority with 403 priority_not_allowed', () => {
    expect(rejection(() => checkPublicEnqueue(enqueue({ priority: 'interject', text: 'x' })))).toEqual({ status: 403, code: 'priority_not_allowed' });
  });

  it.each(['operator_prompt', ...RUNTIME_OWNED_KINDS])('refuses kind %s with 403 kind_not_allowed', (kind) => {
    expect(rejection(() => checkPublicEnqueue(enqueue({ kind, text: 'x' })))).toEqual({ status: 403, code: 'kind_not_allowed' });
  });

  it.each(['operator', 'timer', 'system', 'callback', 'task', 'generic_webhook', 'martian'])('refuses origin kind %s with 403 origin_not_allowed', (kind) => {
    expect(rejection(() => checkPublicEnqueue(enqueue({ origin: { kind }, text: 'x' })))).toEqual({ status: 403, code: 'origin_not_allowed' });
  });

  it('refuses a kind that contradicts the origin with 400 kind_origin_mismatch, both ways', () => {
    expect(rejection(() => checkPublicEnqueue(enqueue({ kind: 'channel_event', origin: { kind: 'webhook' }, text: 'x' })))).toEqual({
      status: 400,
      code: 'kind_origin_mismatch',
    });
    expect(rejection(() => checkPublicEnqueue(enqueue({ kind: 'webhook_event', origin: { kind: 'channel' }, text: 'x' })))).toEqual({
      status: 400,
      code: 'kind_origin_mismatch',
    });
  });

  it('refuses a message without content with 400 empty_message', () => {
    expect(rejection(() => checkPublicEnqueue(enqueue({}, false)))).toEqual({ status: 400, code: 'empty_message' });
  });

  it('checks the rows in order: the first failing row decides', () => {
    const all = { trust: 'x', priority: 'interject', kind: 'operator_prompt', origin: { kind: 'operator' } };
    expect(rejection(() => checkPublicEnqueue(enqueue(all, false))).code).toBe('provenance_override_rejected');
    const { trust: _t, ...noTrust } = all;
    expect(rejection(() => checkPublicEnqueue(enqueue(noTrust, false))).code).toBe('priority_not_allowed');
    expect(rejection(() => checkPublicEnqueue(enqueue({ ...noTrust, priority: 'next' }, false))).code).toBe('kind_not_allowed');
    expect(rejection(() => checkPublicEnqueue(enqueue({ origin: { kind: 'operator' } }, false))).code).toBe('origin_not_allowed');
    expect(rejection(() => checkPublicEnqueue(enqueue({ kind: 'channel_event' }, false))).code).toBe('kind_origin_mismatch');
  });

  it('defaults to a webhook origin: webhook_event, trusted_integration, integration_signal, normal', () => {
    expect(checkPublicEnqueue(enqueue({ text: 'x' }))).toEqual({
      origin: { kind: 'webhook', source: 'http' },
      trust: 'trusted_integration',
      authority_class: 'integration_signal',
      priority: 'normal',
      kind: 'webhook_event',
      delivery_surface: 'public_enqueue',
    });
  });

  it('derives untrusted_external / external_evidence for a channel origin and keeps the allowed priority', () => {
    const p = checkPublicEnqueue(enqueue({ origin: { kind: 'channel', channel_id: 'c', sender_id: 'u' }, priority: 'background', text: 'x' }));
    expect(p).toMatchObject({ trust: 'untrusted_external', authority_class: 'external_evidence', kind: 'channel_event', priority: 'background' });
    expect(p.origin).toEqual({ kind: 'channel', channel_id: 'c', sender_id: 'u' });
  });
});

describe('origin and surface tables', () => {
  it.each([
    ['operator', 'trusted_operator', 'operator_instruction'],
    ['channel', 'untrusted_external', 'external_evidence'],
    ['webhook', 'trusted_integration', 'integration_signal'],
    ['generic_webhook', 'trusted_integration', 'integration_signal'],
    ['callback', 'trusted_integration', 'integration_signal'],
    ['timer', 'trusted_system', 'runtime_instruction'],
    ['system', 'trusted_system', 'runtime_instruction'],
    ['task', 'trusted_system', 'runtime_instruction'],
    ['agent', 'trusted_integration', 'integration_signal'],
  ] as const)('origin %s -> trust %s, authority %s', (origin, trust, authority) => {
    expect(ORIGIN_RULES[origin].trust).toBe(trust);
    expect(ORIGIN_RULES[origin].authority).toBe(authority);
  });

  it('control prompt: operator_prompt, trusted_operator, operator_instruction, interject', () => {
    expect(deriveProvenance('control_prompt', { kind: 'operator', actor_id: 'control' })).toMatchObject({
      kind: 'operator_prompt',
      trust: 'trusted_operator',
      authority_class: 'operator_instruction',
      priority: 'interject',
    });
  });

  it('generic webhook: webhook_event at normal priority only', () => {
    expect(deriveProvenance('generic_webhook', { kind: 'generic_webhook' })).toMatchObject({ kind: 'webhook_event', priority: 'normal' });
    expect(rejection(() => deriveProvenance('generic_webhook', { kind: 'generic_webhook' }, { priority: 'interject' })).code).toBe('priority_not_allowed');
  });

  it('timer firing: system_tick, trusted_system, runtime_instruction, next', () => {
    expect(deriveProvenance('timer', { kind: 'timer', timer_id: 'tmr_1' })).toMatchObject({
      kind: 'system_tick',
      trust: 'trusted_system',
      authority_class: 'runtime_instruction',
      priority: 'next',
    });
  });

  it('a surface refuses origins it does not admit', () => {
    expect(rejection(() => deriveProvenance('public_enqueue', { kind: 'operator' })).code).toBe('origin_not_allowed');
    expect(rejection(() => deriveProvenance('control_prompt', { kind: 'channel' })).code).toBe('origin_not_allowed');
  });
});

/**
 * Calling a provider directly in unit tests (test/unit/providers.test.ts, provider-limits.test.ts):
 * a completion request with defaults, the ProviderError a call fails with, and polling until a
 * fake server has seen what the test waits for.
 */
import { expect } from 'vitest';
import { ProviderError, type CompletionRequest } from '../../src/runtime/providers/types.js';

export function request(over: Partial<CompletionRequest> = {}): CompletionRequest {
  return { model: 'm1', system: 'be brief', messages: [{ role: 'user', content: 'hi' }], tools: [], signal: new AbortController().signal, ...over };
}

/** The ProviderError `p` rejects with (the test fails if it resolves or rejects with anything else). */
export async function failure(p: Promise<unknown>): Promise<ProviderError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

export async function waitUntil(cond: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 5));
  }
}

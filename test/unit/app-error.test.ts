/** AppError: a typed answer of the daemon (src/core/errors.ts), not a bug: it carries no stack trace. */
import { describe, expect, it } from 'vitest';
import { AppError, errors } from '../../src/core/errors.js';

describe('AppError', () => {
  it('keeps status, code, message, extra and headers, and captures no stack frames', () => {
    const err = errors.overloaded('busy', 7);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ status: 429, code: 'overloaded', message: 'busy', name: 'AppError', headers: { 'retry-after': '7' } });
    expect(err.stack).toBe('AppError: busy');
  });

  it('leaves the stack trace limit as it found it, so other errors keep their frames', () => {
    const before = Error.stackTraceLimit;
    errors.routeNotFound('GET', '/nope');
    expect(Error.stackTraceLimit).toBe(before);
    expect(new Error('bug').stack).toMatch(/\n\s+at /);
  });
});

/**
 * What approval requests show of a tool call's arguments: values under secret-looking keys and
 * strings shaped like credentials are `[redacted]`, anything else is kept, and a structure nested
 * deeper than any tool's arguments is not shown at all.
 */
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../src/core/index.js';

describe('redactSecrets', () => {
  it('redacts by key and by shape, and keeps the rest', () => {
    const out = redactSecrets({
      cmd: 'curl -H "Authorization: Bearer abcdefgh12345678" https://user:hunter22@example.com/x; echo sk-abcdefghijklmnopqrstuv',
      api_key: 'plain',
      password: 'p',
      nested: [{ GITHUB_TOKEN: 'x', note: 'ghp_abcdefghijklmnopqrstuvwxyz0123' }],
      summary: 'build the docs',
      count: 3,
    });
    expect(out.cmd).not.toMatch(/abcdefgh12345678|hunter22|sk-abcdef/);
    expect(out.cmd).toContain('[redacted]');
    expect(out).toMatchObject({ api_key: '[redacted]', password: '[redacted]', summary: 'build the docs', count: 3 });
    expect(out.nested[0]).toEqual({ GITHUB_TOKEN: '[redacted]', note: '[redacted]' });
  });

  it('does not show what is nested deeper than 32 levels', () => {
    let deep: Record<string, unknown> = { secretish: 'sk-abcdefghijklmnopqrstuv' };
    for (let i = 0; i < 40; i++) deep = { a: deep };
    expect(JSON.stringify(redactSecrets(deep))).not.toContain('sk-abcdefghijklmnopqrstuv');
  });
});

/** The CLI's only colour (dimmed model thoughts in `svc conversation --follow`): a terminal only, never with NO_COLOR. */
import { describe, expect, it } from 'vitest';
import { dim } from '../../src/cli/output.js';

describe('dim', () => {
  it('colours on a terminal without NO_COLOR', () => {
    expect(dim('x', { isTTY: true }, {})).toBe('\x1b[2mx\x1b[0m');
    expect(dim('x', { isTTY: true }, { NO_COLOR: '' })).toBe('\x1b[2mx\x1b[0m'); // empty: unset (no-color.org)
  });

  it('plain text when not a terminal, or with NO_COLOR', () => {
    expect(dim('x', {}, {})).toBe('x');
    expect(dim('x', { isTTY: false }, {})).toBe('x');
    expect(dim('x', { isTTY: true }, { NO_COLOR: '1' })).toBe('x');
  });
});

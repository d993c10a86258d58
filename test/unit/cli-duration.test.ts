/** The CLI's one duration parser (src/cli/duration.ts). */
import { describe, expect, it } from 'vitest';
import { durationArg, parseDuration } from '../../src/cli/duration.js';

describe('parseDuration', () => {
  it('reads ms, s, m, h, d, sums of them, and a bare number as milliseconds', () => {
    expect(['500ms', '5s', '2m', '1h', '1d', '1h30m', '1m500ms', '60000', ' 5s ', '0s'].map(parseDuration)).toEqual([
      500, 5000, 120_000, 3_600_000, 86_400_000, 5_400_000, 60_500, 60_000, 5000, 0,
    ]);
  });

  it('refuses anything else', () => {
    for (const bad of ['', '5', 'x'].map((s) => `${s}x`).concat(['1.5h', '-5s', '5 s', 's', '1w', '5sec', '1e3', '99999999999999999999d'])) expect(parseDuration(bad), bad).toBeNull();
  });

  it('as a commander parser throws a usage error saying what is expected', () => {
    expect(durationArg('2m')).toBe(120_000);
    expect(() => durationArg('soon')).toThrow(/expected a duration such as 500ms, 5s/);
  });
});

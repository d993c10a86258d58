/** Content negotiation on Accept (src/http/accept.ts), with the metrics route's two formats. */
import { describe, expect, it } from 'vitest';
import { preferredMediaType } from '../../src/http/accept.js';

const OM = 'application/openmetrics-text; version=1.0.0; charset=utf-8';
const TEXT = 'text/plain; version=0.0.4; charset=utf-8';
const OFFERED = [OM, TEXT] as const;

describe('preferredMediaType', () => {
  it.each([
    ['no Accept', undefined, OM],
    ['an empty Accept', '  ', OM],
    ['*/*', '*/*', OM],
    ['text/plain', 'text/plain', TEXT],
    ['text/plain; version=0.0.4', 'text/plain; version=0.0.4', TEXT],
    ['text/plain with a charset', 'text/plain;charset=UTF-8', TEXT],
    ['text/*', 'text/*', TEXT],
    ['a quoted version', 'text/plain; version="0.0.4"', TEXT],
    ['openmetrics', 'application/openmetrics-text', OM],
    ['a tie between the two', 'text/plain, application/openmetrics-text', OM],
    ['text/plain ranked higher', 'application/openmetrics-text;q=0.5, text/plain;q=0.9', TEXT],
    ['openmetrics ranked higher', 'text/plain;q=0.5, application/openmetrics-text', OM],
    ['text/plain above */*', 'text/plain, */*;q=0.1', TEXT],
    ['text/plain refused, */* taken', 'text/plain;q=0, */*', OM],
    ['openmetrics refused, */* taken', 'application/openmetrics-text;q=0, */*', TEXT],
    [
      "Prometheus' scrape header",
      'application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1',
      OM,
    ],
    ['an OpenMetrics version we do not serve', 'application/openmetrics-text;version=0.0.1, text/plain;q=0.5', TEXT],
    ['the CLI header', 'application/openmetrics-text; version=1.0.0, text/plain;q=0.5', OM],
    ['a malformed q ignored', 'application/openmetrics-text;q=2, text/plain;q=0.3', TEXT],
    ['accept-extensions after q ignored', 'text/plain;q=0.9;level=1, application/openmetrics-text;q=0.8', TEXT],
  ])('%s', (_name, accept, expected) => {
    expect(preferredMediaType(accept, OFFERED)).toBe(expected);
  });

  it.each([
    ['a type not offered', 'application/json'],
    ['a text/plain version not offered', 'text/plain; version=1.0.0'],
    ['both refused', 'text/plain;q=0, application/openmetrics-text;q=0'],
    ['garbage', 'nonsense, ;;, /'],
  ])('%s: nothing acceptable', (_name, accept) => {
    expect(preferredMediaType(accept, OFFERED)).toBeUndefined();
  });

  it('the most specific range decides, whatever its order', () => {
    expect(preferredMediaType('text/plain;version=0.0.4;q=0.2, text/plain;q=1, application/openmetrics-text;q=0.5', OFFERED)).toBe(OM);
  });
});

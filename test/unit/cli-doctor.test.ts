/** `svc doctor`'s Node check: the running version against package.json's `engines`. */
import { describe, expect, it } from 'vitest';
import { nodeCheck } from '../../src/cli/daemon/doctor-checks.js';

describe('nodeCheck', () => {
  it('passes a version at or above the minimum, fails one below it with a hint', () => {
    for (const v of ['20.20.0', '20.20.2', '20.21.0', '22.1.0']) expect(nodeCheck(v, '>=20.20').status, v).toBe('ok');
    for (const v of ['20.19.9', '18.20.0', '20.2.0']) expect(nodeCheck(v, '>=20.20'), v).toMatchObject({ status: 'fail', hint: 'install Node.js 20.20 or later' });
  });

  it('passes anything when the range is not a plain minimum', () => {
    expect(nodeCheck('18.0.0', '^20 || ^22').status).toBe('ok');
  });
});

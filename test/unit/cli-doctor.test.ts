/** `svc doctor`'s Node check (the running version against package.json's `engines`) and its sandbox check. */
import { describe, expect, it } from 'vitest';
import { nodeCheck, sandboxCheck } from '../../src/cli/daemon/doctor-checks.js';
import { loadConfig } from '../../src/config/load.js';
import { probeBwrap } from '../../src/runtime/tasks/processes/sandbox.js';

describe('nodeCheck', () => {
  it('passes a version at or above the minimum, fails one below it with a hint', () => {
    for (const v of ['20.20.0', '20.20.2', '20.21.0', '22.1.0']) expect(nodeCheck(v, '>=20.20').status, v).toBe('ok');
    for (const v of ['20.19.9', '18.20.0', '20.2.0']) expect(nodeCheck(v, '>=20.20'), v).toMatchObject({ status: 'fail', hint: 'install Node.js 20.20 or later' });
  });

  it('passes anything when the range is not a plain minimum', () => {
    expect(nodeCheck('18.0.0', '^20 || ^22').status).toBe('ok');
  });
});

describe('sandboxCheck', () => {
  const config = (mode: string) => {
    const c = loadConfig({ home: '/nonexistent/svc-doctor-home' }, {});
    return { ...c, values: { ...c.values, tasks: { ...c.values.tasks, sandbox: mode as 'auto' } } };
  };
  const noBwrap = { PATH: '/nonexistent/bin' };

  it('off says so; without bubblewrap auto warns and required fails, naming the Debian package', () => {
    expect(sandboxCheck(config('off'), noBwrap)).toMatchObject({ name: 'sandbox', status: 'ok', detail: expect.stringMatching(/^off /) });
    const auto = sandboxCheck(config('auto'), noBwrap);
    expect(auto).toMatchObject({ status: 'warn', detail: expect.stringMatching(/^bubblewrap missing .*install the Debian package bubblewrap; commands run unsandboxed$/) });
    expect(auto.hint).toMatch(/apt-get install bubblewrap/);
    expect(sandboxCheck(config('required'), noBwrap)).toMatchObject({ status: 'fail', detail: expect.stringMatching(/command tasks fail/) });
    expect(sandboxCheck(null, noBwrap).status).toBe('warn'); // no config: the default, auto
  });

  it.skipIf(probeBwrap().error !== null)('names the bubblewrap version when it works here', () => {
    expect(sandboxCheck(config('auto'))).toMatchObject({ status: 'ok', detail: expect.stringMatching(/^bubblewrap \d+\.\d+\.\d+ \(on\)$/) });
  });
});

/** Running `svc` client commands against a test daemon, with the assertions every CLI test makes. */
import { expect } from 'vitest';
import { runSvc, type RunningDaemon } from './daemon.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** `daemon()` is read at call time, so a file can restart its daemon between tests. */
export function cliFor(daemon: () => RunningDaemon, defaultTimeoutMs = 30_000) {
  const svc = (args: string[], timeoutMs = defaultTimeoutMs) => runSvc([...args, '--url', daemon().base], {}, timeoutMs);

  /** `svc ARGS --json`: expects exit 0 and parses stdout. */
  async function svcJson(args: string[]): Promise<Json> {
    const r = await svc([...args, '--json']);
    expect(r.code, `svc ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
    return JSON.parse(r.stdout);
  }

  /** Expects a non-zero exit with `svc: CODE: …` on stderr and nothing on stdout. */
  async function expectFailure(args: string[], code: string): Promise<string> {
    const r = await svc(args);
    expect(r.code, `svc ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).not.toBe(0);
    expect(r.stderr).toMatch(new RegExp(`^svc: ${code}: \\S`, 'm'));
    expect(r.stdout).toBe('');
    return r.stderr;
  }

  return { svc, svcJson, expectFailure };
}

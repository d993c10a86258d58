/**
 * The README's quick start, pasted top to bottom as a new user would (bash, curl and jq; Debian
 * packages), with only its port and demo home moved to free ones so it can run beside other
 * tests. Every answer must succeed except the one the README shows being refused, and the daemon
 * must be gone at the end (the block shuts it down). Needs `npm run build` first.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/daemon.js';
import { freePort } from '../helpers/ports.js';

function quickStart(): string {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Quick start'));
  return /```sh\n([\s\S]*?)```/.exec(section)![1]!;
}

describe('README quick start', () => {
  it('pastes top to bottom: every call answers, ids are captured, streams end, the daemon shuts down', async () => {
    for (const tool of ['jq', 'curl']) expect(fs.existsSync(`/usr/bin/${tool}`), `${tool} is not installed (Debian package ${tool})`).toBe(true);
    const port = await freePort();
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-qs-'));
    const script = quickStart().replaceAll('127.0.0.1:8700', `127.0.0.1:${port}`).replaceAll('/tmp/svc-demo', home);
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile('bash', ['-c', script], { cwd: ROOT, timeout: 90_000, maxBuffer: 16 * 1024 * 1024 }, (err, out) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout: out }));
    });
    try {
      expect(code, stdout.slice(-2000)).toBe(0);
      const answers = stdout.split('\n').filter((l) => l.startsWith('{'));
      const refused = answers.filter((l) => l.includes('"ok":false'));
      expect(refused).toEqual([expect.stringContaining('"code":"priority_not_allowed"')]);
      // The captured ids were used: the task's output, the inbox entry, the acknowledgement.
      expect(answers.some((l) => l.includes('"retrieval_status":"success"'))).toBe(true);
      expect(answers).toContainEqual('{"appended":1,"deduped":0,"firstOffset":1,"lastOffset":1}');
      expect(answers).toContainEqual('{"acked":1}');
      expect(stdout).toContain('event: message_enqueued');
      expect(stdout).toContain('event: items');
      expect(answers.at(-1)).toBe('{"ok":true,"shutting_down":true}');
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  }, 120_000);
});

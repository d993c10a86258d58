/**
 * Both OpenAPI documents pass `redocly lint` with the recommended rules (redocly.yaml) at 0 errors
 * and 0 warnings. The documents are the checked-in ones, which `npm run openapi:check` keeps
 * equal to what the daemon serves.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/daemon.js';

describe('OpenAPI lint', () => {
  it('redocly lint (recommended): 0 errors, 0 warnings on both documents', async () => {
    const bin = path.join(ROOT, 'node_modules', '.bin', 'redocly');
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(bin, ['lint', '--format', 'json', '--max-problems', '10000'], { cwd: ROOT, env, timeout: 60_000 }, (err, out, errOut) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout: out, stderr: errOut }),
      );
    });
    expect(code, stderr).toBe(0);
    // One JSON report per document (redocly.yaml lists both), printed one after the other.
    const reports = stdout.split(/(?<=\})\s*(?=\{)/).map((t) => JSON.parse(t) as { totals: { errors: number; warnings: number }; problems: unknown[] });
    expect(reports).toHaveLength(2);
    for (const r of reports) expect({ totals: r.totals, problems: r.problems }).toEqual({ totals: { errors: 0, warnings: 0, ignored: 0 }, problems: [] });
  }, 90_000);
});

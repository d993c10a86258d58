/**
 * The quick starts, pasted top to bottom as a new user would (bash, curl and jq; Debian packages),
 * with only their port and demo home moved to free ones so they can run beside other tests: the full
 * one in docs/getting-started.md and the short one in the README. Every answer must succeed except
 * the one the full quick start shows being refused, and the daemon must be gone at the end (each
 * block shuts it down). Needs `npm run build` first.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/daemon.js';
import { freePort } from '../helpers/ports.js';

/** The first sh block after the `## Quick start` heading of a markdown file. */
function quickStart(file: string): string {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const at = text.indexOf('\n## Quick start\n');
  expect(at, `${file} has a "## Quick start" section`).toBeGreaterThanOrEqual(0);
  return /```sh\n([\s\S]*?)```/.exec(text.slice(at))![1]!;
}

/** Runs the block on a free port and a fresh home; answers are the JSON lines it printed. */
async function paste(file: string): Promise<{ code: number; stdout: string; answers: string[] }> {
  for (const tool of ['jq', 'curl']) expect(fs.existsSync(`/usr/bin/${tool}`), `${tool} is not installed (Debian package ${tool})`).toBe(true);
  const port = await freePort();
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-qs-'));
  const script = quickStart(file).replaceAll('127.0.0.1:8700', `127.0.0.1:${port}`).replaceAll('/tmp/svc-demo', home);
  try {
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile('bash', ['-c', script], { cwd: ROOT, timeout: 90_000, maxBuffer: 16 * 1024 * 1024 }, (err, out) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout: out }));
    });
    return { code, stdout, answers: stdout.split('\n').filter((l) => l.startsWith('{')) };
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

describe('the quick start in docs/getting-started.md', () => {
  it('pastes top to bottom: every call answers, ids are captured, streams end, the daemon shuts down', async () => {
    const { code, stdout, answers } = await paste('docs/getting-started.md');
    expect(code, stdout.slice(-2000)).toBe(0);
    const refused = answers.filter((l) => l.includes('"ok":false'));
    expect(refused).toEqual([expect.stringContaining('"code":"priority_not_allowed"')]);
    // The captured ids were used: the task's output, the inbox entry, the acknowledgement.
    expect(answers.some((l) => l.includes('"retrieval_status":"success"'))).toBe(true);
    expect(answers).toContainEqual('{"appended":1,"deduped":0,"firstOffset":1,"lastOffset":1}');
    expect(answers).toContainEqual('{"acked":1}');
    expect(stdout).toContain('event: message_enqueued');
    expect(stdout).toContain('event: items');
    expect(answers.at(-1)).toBe('{"ok":true,"shutting_down":true}');
  }, 120_000);
});

describe('the short quick start in the README', () => {
  it('pastes top to bottom: nothing is refused, the prompt is answered, the log streams, the daemon shuts down', async () => {
    const { code, stdout, answers } = await paste('README.md');
    expect(code, stdout.slice(-2000)).toBe(0);
    expect(answers.filter((l) => l.includes('"ok":false'))).toEqual([]);
    expect(answers.some((l) => l.includes('"brief_id"') && l.includes('summarise the day'))).toBe(true);
    expect(stdout).toMatch(/^SEQ +TS +TYPE +SUMMARY$/m); // the CLI's page of the log
    expect(stdout).toContain('event: turn_entry');
    expect(answers.at(-1)).toBe('{"ok":true,"shutting_down":true}');
  }, 120_000);
});

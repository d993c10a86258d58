/**
 * A full disk under a running agent, for real: the daemon's home is on a small tmpfs (mounting one
 * needs root; the test is skipped where `mount` is refused) that a filler file fills up.
 *
 * While the disk is full, writes are refused with 507 insufficient_storage (never a 500) and the
 * run loop keeps its worker, retrying the write it could not make; once space is back every pending
 * message is answered without a restart. SIGTERM with the disk full again still exits 0, and the
 * next start finds everything that was acknowledged. Needs `npm run build` first.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { daemonPool, request, waitFor, type RunningDaemon } from '../helpers/daemon.js';
import { startFakeOpenAI } from '../helpers/fake-openai.js';

const mnt = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-full-'));
let mounted = false;
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=32m,mode=0700', 'tmpfs', mnt], { stdio: 'ignore' });
  mounted = true;
} catch {
  /* not root, or no mount in this sandbox: skipped */
}

const pool = daemonPool();
afterAll(() => {
  pool.killAll();
  if (mounted) execFileSync('umount', ['-l', mnt]);
  fs.rmSync(mnt, { recursive: true, force: true });
});

const filler = path.join(mnt, 'filler');

/** Write the filler file until the file system refuses even 512 bytes. */
function fillDisk(): void {
  const fd = fs.openSync(filler, 'a');
  const chunk = Buffer.alloc(1 << 20, 1);
  try {
    for (let size = chunk.length; size >= 512; ) {
      try {
        fs.writeSync(fd, chunk, 0, size);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
        size >>= 1;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

const enqueue = (d: RunningDaemon, text: string) => request(d, 'POST', '/api/agents/main/enqueue', { body: { text } });

async function answered(d: RunningDaemon): Promise<Set<string>> {
  const res = await request(d, 'GET', '/api/agents/main/briefs?limit=200');
  expect(res.status).toBe(200);
  return new Set((res.json.briefs as Array<{ kind: string; message_id: string }>).filter((b) => b.kind === 'result').map((b) => b.message_id));
}

const lines = (d: RunningDaemon, msg: string) => d.logLines().filter((l) => l.msg === msg);

describe.skipIf(!mounted)('a full disk under a running agent', () => {
  it('507 instead of 500, the run loop waits and answers everything once space is back, SIGTERM exits 0, nothing acknowledged is lost', async () => {
    const model = await startFakeOpenAI();
    let release!: () => void;
    model.enqueue({ text: ['first answer'], after: new Promise<void>((r) => (release = r)) });
    const home = path.join(mnt, 'home');
    fs.mkdirSync(home, { mode: 0o700 });
    const configToml = `[model]\ndefault = "fake/m"\n\n[providers.fake]\nkind = "openai"\nbase_url = "${model.url}"\napi_key_env = ""\nmodels = ["m"]\n`;
    const d = await pool.start({ home, configToml });
    const acked: string[] = [];
    try {
      const first = await enqueue(d, 'message 0');
      expect(first.status).toBe(202);
      acked.push(first.json.message_id);
      // The agent is mid-turn (its model answer is held) while more messages queue up.
      await waitFor(() => model.completions().length === 1, 10_000);
      for (let i = 1; i <= 30; i++) {
        const r = await enqueue(d, `message ${i}`);
        expect(r.status).toBe(202);
        acked.push(r.json.message_id);
      }

      fillDisk();
      // SQLite may still reuse room inside its WAL for a few writes; then the disk refuses them.
      const refused: Array<{ status: number; code: string; retryAfter: unknown }> = [];
      for (let i = 0; i < 100 && refused.length < 3; i++) {
        const r = await enqueue(d, `while full ${i} ${'x'.repeat(4000)}`);
        if (r.status === 202) acked.push(r.json.message_id);
        else refused.push({ status: r.status, code: r.json?.code, retryAfter: r.headers['retry-after'] });
      }
      expect(refused.length).toBeGreaterThan(0);
      expect(refused).toEqual(refused.map(() => ({ status: 507, code: 'insufficient_storage', retryAfter: '5' })));

      // The held turn ends: recording it is refused; the worker retries instead of failing.
      release();
      await waitFor(() => lines(d, 'run loop write refused by the disk; retrying with backoff until it succeeds').length > 0, 10_000);
      await new Promise((r) => setTimeout(r, 1500));
      const during = await request(d, 'GET', '/api/agents/main/conversation');
      expect(during.status).toBe(200);
      expect(during.json.pending).toBeGreaterThan(0);
      expect(lines(d, 'run loop worker failed; the agent resumes on its next message')).toEqual([]);

      // Space comes back: every acknowledged message is answered, without a restart.
      fs.rmSync(filler);
      const started = performance.now();
      await waitFor(async () => {
        const got = await answered(d);
        return acked.every((id) => got.has(id));
      }, 30_000, 100);
      console.log(`${acked.length} messages answered ${Math.round(performance.now() - started)} ms after space came back`);
      expect((await request(d, 'GET', '/api/agents/main/conversation')).json.pending).toBe(0);
      // One streak: logged when it began and when it ended, not per attempt.
      expect(lines(d, 'run loop write refused by the disk; retrying with backoff until it succeeds')).toHaveLength(1);
      expect(lines(d, 'run loop writes succeed again; the agent goes on')).toHaveLength(1);

      // Full again, then SIGTERM: a clean shutdown whose last checkpoint the disk refuses exits 0.
      fillDisk();
      for (let i = 0; i < 20; i++) await enqueue(d, `at shutdown ${i} ${'x'.repeat(4000)}`);
      expect(await d.stop('SIGTERM')).toBe(0);
      expect(d.logs()).toContain('"msg":"stopped"');
    } finally {
      pool.killAll();
      fs.rmSync(filler, { force: true });
    }

    // Everything acknowledged is there after the restart (the WAL kept what the checkpoint could not copy).
    const again = await pool.start({ home, configToml });
    try {
      const got = await answered(again);
      expect(acked.filter((id) => !got.has(id))).toEqual([]);
    } finally {
      pool.killAll();
      await model.close();
    }
  }, 120_000);
});

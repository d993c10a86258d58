/**
 * The run-loop commands as child processes against a real daemon (builtin/echo): `prompt --wait`,
 * `briefs`, `conversation` (and `--follow` on the live stream), `transcript`, `turns activities`,
 * `wake`, `control`, `abort`, `debug-prompt`, with the server's error codes on failure.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, daemonPool, runSvc, waitFor, type RunningDaemon } from '../helpers/daemon.js';

const pool = daemonPool();
afterAll(() => pool.cleanup());

let d: RunningDaemon;
beforeAll(async () => {
  d = await pool.start();
});

async function ok(args: string[]): Promise<string> {
  const r = await runSvc([...args, '--url', d.base]);
  expect(r.code, `svc ${args.join(' ')}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`).toBe(0);
  return r.stdout;
}

const okJson = async (args: string[]) => JSON.parse(await ok([...args, '--json']));

async function fails(args: string[], code: string, exit = 1): Promise<void> {
  const r = await runSvc([...args, '--url', d.base]);
  expect(r.code, `svc ${args.join(' ')} should fail\nstdout: ${r.stdout}\nstderr: ${r.stderr}`).toBe(exit);
  expect(r.stderr).toMatch(new RegExp(`^svc: ${code}: \\S`, 'm'));
}

describe('run-loop commands', () => {
  it('prompt --wait prints the reply; briefs, conversation, transcript and turn activities show the turn', async () => {
    expect((await ok(['prompt', 'main', 'hello from the cli', '--wait'])).trim()).toBe('echo: hello from the cli');

    const briefs = await okJson(['briefs', 'main']);
    expect(briefs.briefs[0]).toMatchObject({ kind: 'result', text: 'echo: hello from the cli' });
    expect(await ok(['briefs', 'main'])).toMatch(/result .*echo: hello from the cli/);

    const conv = await okJson(['conversation', 'main']);
    expect(conv.history.map((h: { role: string }) => h.role)).toEqual(['user', 'assistant']);
    expect(await ok(['conversation', 'main'])).toContain('user: hello from the cli');

    const transcript = await okJson(['transcript', 'main']);
    expect(transcript.turn.status).toBe('completed');
    const acts = await okJson(['turns', 'activities', 'main', transcript.turn.turn_id]);
    expect(acts.activities.map((a: { kind: string }) => a.kind)).toEqual(['model_round']);
    await fails(['turns', 'activities', 'main', 'turn_nope'], 'turn_not_found');
  });

  it('wake, control stop/start, abort and debug-prompt answer as the routes do', async () => {
    expect(['woken', 'coalesced']).toContain((await ok(['wake', 'main', 'new mail'])).trim());
    await waitFor(async () => (await okJson(['conversation', 'main'])).status === 'idle', 10_000);
    expect((await ok(['control', 'main', 'stop'])).trim()).toBe('stopped');
    expect((await ok(['wake', 'main', 'again', '--source', 'test'])).trim()).toBe('ignored');
    await fails(['abort', 'main'], 'no_current_run');
    await fails(['control', 'main', 'dance'], 'unknown_action');
    await fails(['wake', 'main', ' '], 'empty_reason');
    const dbg = (await ok(['debug-prompt', 'main', 'inspect this'])).trim();
    expect(dbg).toMatch(/^msg_/);
    // Stopped: the debug prompt waits; start lets the run loop answer it.
    // Not answered in time: 4, not the 3 of an unreachable daemon.
    await fails(['prompt', 'main', 'no answer while stopped', '--wait', '300'], 'timeout', 4);
    expect((await ok(['control', 'main', 'start'])).trim()).toBe('idle');
    await waitFor(async () => (await okJson(['briefs', 'main'])).briefs.some((b: { message_id: string }) => b.message_id === dbg), 10_000);
  });

  it('conversation --follow prints the live frames of a turn', async () => {
    const proc = spawn(process.execPath, [BIN, 'conversation', 'main', '--follow', '--json', '--url', d.base], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SVC_TOKEN: '', SVC_HOME: '' } });
    let out = '';
    proc.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    try {
      await waitFor(() => out.includes('"snapshot"'), 10_000);
      await ok(['prompt', 'main', 'followed']);
      await waitFor(() => out.includes('"turn_completed"'), 10_000);
      const frames = out.trim().split('\n').map((l) => JSON.parse(l) as { event: string; data: Record<string, unknown> });
      const events = frames.map((f) => f.event);
      expect(events.slice(events.indexOf('turn_started'))).toEqual(['turn_started', 'text_delta', 'turn_completed']);
      expect(frames.find((f) => f.event === 'turn_completed')!.data.text).toBe('echo: followed');
    } finally {
      proc.kill();
    }
  });
});

/**
 * `svc tui` (handshake capability `tui.remote`) as a child process against a real daemon
 * (builtin/echo), its stdin a pipe: the header, prompts and their replies as lines, the commands
 * (/state, /stop, /start, /wake, /agent, /quit), `--raw`, bearer mode, and the exit codes (0 at
 * /quit or end of input, 1 for a server error or unanswered prompts, 3 for an unreachable daemon).
 * Needs `npm run build` first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, daemonPool, request, runSvc, waitFor, type RunningDaemon } from '../helpers/daemon.js';

const pool = daemonPool();
afterAll(() => pool.cleanup());

let d: RunningDaemon;
beforeAll(async () => {
  d = await pool.start();
});

interface Tui {
  proc: ChildProcess;
  out: () => string;
  err: () => string;
  lines: () => string[];
  send: (line: string) => void;
  /** Resolves with the exit code. */
  exit: Promise<number | null>;
}

function tui(args: string[], env: NodeJS.ProcessEnv = {}): Tui {
  const proc = spawn(process.execPath, [BIN, 'tui', ...args], {
    env: { ...process.env, SVC_TOKEN: '', SVC_HOME: '', SVC_LISTEN: '', SVC_LOG_LEVEL: '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  pool.track(proc);
  let out = '';
  let err = '';
  proc.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
  proc.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
  const exit = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return {
    proc,
    out: () => out,
    err: () => err,
    lines: () => out.split('\n').filter((l) => l !== ''),
    send: (line) => proc.stdin!.write(`${line}\n`),
    exit,
  };
}

/** Wait until stdout has a line matching `re`. */
async function line(t: Tui, re: RegExp, timeoutMs = 20_000): Promise<string> {
  try {
    return await waitFor(() => t.lines().find((l) => re.test(l)), timeoutMs);
  } catch {
    throw new Error(`no line matching ${re}\nstdout:\n${t.out()}\nstderr:\n${t.err()}`);
  }
}

const TAG = (tag: string) => `^\\d\\d:\\d\\d:\\d\\d ${tag.padEnd(8)} `;

describe('svc tui', () => {
  it('the handshake advertises tui.remote', async () => {
    const hs = await request(d, 'GET', '/api/handshake');
    expect(hs.json.capabilities).toContain('tui.remote');
  });

  it('prints the header, sends a prompt line, shows the reply, and exits 0 at /quit', async () => {
    const t = tui(['--url', d.base]); // no AGENT: the default agent
    await line(t, new RegExp(`${TAG('agent')}main: (idle|running), model builtin/echo, \\d+ pending$`));
    t.send('hello from the tui');
    await line(t, new RegExp(`${TAG('you')}hello from the tui$`));
    await line(t, new RegExp(`${TAG('reply')}echo: hello from the tui$`));
    t.send('/quit');
    expect(await t.exit, t.err()).toBe(0);
    expect(t.lines().every((l) => l.length <= 160)).toBe(true);
    expect(t.out()).not.toContain('{"'); // readable lines, no raw JSON
  });

  it('piped input: a prompt and /quit at once still prints the reply before leaving', async () => {
    const t = tui(['main', '--url', d.base]);
    t.proc.stdin!.end('piped prompt\n/quit\n');
    expect(await t.exit, t.err()).toBe(0);
    expect(t.lines().some((l) => new RegExp(`${TAG('reply')}echo: piped prompt$`).test(l)), t.out()).toBe(true);
  });

  it('/state, /stop, /wake, /start, /agent, an unknown command, and the end of input', async () => {
    expect((await runSvc(['agents', 'create', 'other', '--url', d.base])).code).toBe(0);
    const t = tui(['main', '--url', d.base]);
    await line(t, new RegExp(TAG('agent')));
    t.send('/state');
    await line(t, new RegExp(`${TAG('state')}run \\S+, \\d+ tasks, \\d+ timers, \\d+ work items, \\d+ waiting$`));
    t.send('/stop');
    await line(t, new RegExp(`${TAG('status')}stop: \\w+ -> stopped$`));
    t.send('queued while stopped');
    await line(t, new RegExp(`${TAG('you')}queued while stopped$`));
    t.send('/wake check the mail');
    await line(t, new RegExp(`${TAG('status')}wake \\(tui: check the mail\\): ignored$`));
    t.send('/dance');
    await waitFor(() => t.err().includes('svc: unknown_command: /dance is not a command'));
    t.send('/start');
    await line(t, new RegExp(`${TAG('status')}start: stopped -> idle$`));
    await line(t, new RegExp(`${TAG('reply')}echo: queued while stopped$`));
    t.send('/agent ghost');
    await waitFor(() => t.err().includes('svc: agent_not_found:'));
    t.send('/agent other');
    await line(t, new RegExp(`${TAG('agent')}other: idle, model builtin/echo, 0 pending$`));
    t.send('//slash prompt');
    await line(t, new RegExp(`${TAG('you')}/slash prompt$`));
    await line(t, new RegExp(`${TAG('reply')}echo: /slash prompt$`));
    t.proc.stdin!.end();
    expect(await t.exit, t.err()).toBe(0);
  });

  it('--raw prints each event as its JSON envelope', async () => {
    const t = tui(['main', '--raw', '--url', d.base]);
    await line(t, new RegExp(TAG('agent')));
    t.proc.stdin!.end('raw prompt\n');
    expect(await t.exit, t.err()).toBe(0);
    const events = t.lines().slice(1).map((l) => JSON.parse(l) as { type: string; agent_id: string; payload: Record<string, unknown> });
    expect(events.every((e) => e.agent_id === 'main')).toBe(true);
    expect(events.find((e) => e.type === 'brief_created')?.payload.text).toBe('echo: raw prompt');
  });

  it('control characters in a message never reach the terminal', async () => {
    const t = tui(['main', '--url', d.base]);
    await line(t, new RegExp(TAG('agent')));
    const res = await request(d, 'POST', '/api/agents/main/enqueue', { body: { text: 'evil \u001b[2J\u001b]0;pwned\u0007 text' } });
    expect(res.status, res.text).toBe(202);
    await line(t, /evil \?\[2J\?\]0;pwned\? text/);
    t.send('/quit');
    expect(await t.exit).toBe(0);
    expect(t.out()).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });

  it('unanswered prompts at the end of input: waits --wait-ms, then exits 4 with timeout', async () => {
    expect((await runSvc(['agents', 'create', 'sleepy', '--url', d.base])).code).toBe(0);
    expect((await runSvc(['control', 'sleepy', 'stop', '--url', d.base])).code).toBe(0);
    const t = tui(['sleepy', '--wait-ms', '300', '--url', d.base]);
    t.proc.stdin!.end('nobody answers\n');
    expect(await t.exit).toBe(4);
    expect(t.err()).toMatch(/^svc: timeout: 1 prompt still unanswered after 300 ms/m);
  });

  it('an unreachable daemon exits 3 and an unknown agent exits 1, each with a clear message', async () => {
    const down = await runSvc(['tui', 'main', '--url', 'http://127.0.0.1:1']);
    expect(down.code).toBe(3);
    expect(down.stderr).toMatch(/^svc: unreachable: cannot reach the svc daemon at http:\/\/127\.0\.0\.1:1/m);
    const ghost = await runSvc(['tui', 'ghost', '--url', d.base]);
    expect(ghost.code).toBe(1);
    expect(ghost.stderr).toMatch(/^svc: agent_not_found: /m);
  });
});

describe('svc tui in bearer mode', () => {
  const TOKEN = 'tui-token';
  let b: RunningDaemon;
  beforeAll(async () => {
    b = await pool.start({ args: ['--token', TOKEN] });
  });

  it('follows and prompts with the token, and without it a prompt is refused (401 auth_required)', async () => {
    const t = tui(['main', '--url', b.base], { SVC_TOKEN: TOKEN });
    await line(t, new RegExp(TAG('agent')));
    t.proc.stdin!.end('with a token\n');
    expect(await t.exit, t.err()).toBe(0);
    expect(t.lines().some((l) => /reply {4}echo: with a token$/.test(l)), t.out()).toBe(true);

    // Reads need no token from loopback; the prompt (a control route) does.
    const anon = tui(['main', '--url', b.base]);
    await line(anon, new RegExp(TAG('agent')));
    anon.proc.stdin!.end('no token\n');
    expect(await anon.exit).toBe(0);
    expect(anon.err()).toMatch(/^svc: auth_required: /m);
  });
});

/**
 * The command sandbox against a real daemon, through the HTTP surface (docs/security.md#command-sandbox):
 * what a sandboxed command cannot read, write or reach, the environment it gets, what it leaves
 * behind, and the network a task may be given. The daemon runs in bearer mode with a fake provider
 * key in its environment, so a leak would show. Where bubblewrap cannot make a sandbox here these
 * are skipped, except the cases of a missing bubblewrap, which point the daemon at a bwrap that
 * does not exist.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type Daemon } from '../../src/daemon.js';
import { probeBwrap } from '../../src/runtime/tasks/processes/sandbox.js';
import { daemonPool, request, tempHome, type RunningDaemon } from '../helpers/daemon.js';
import { markedPids, until, type Json } from '../helpers/tasks.js';

const TOKEN = 'sandbox-test-control-token';
const PROVIDER_KEY = 'sk-fake-provider-key-0123456789';
const CONFIG = `[providers.fake]\nkind = "openai"\nbase_url = "http://127.0.0.1:9/v1"\napi_key_env = "FAKE_LLM_CRED"\n`;
const usable = probeBwrap().error === null;
const pool = daemonPool();
afterAll(() => pool.cleanup());

type Target = { base: string };
const auth = { authorization: `Bearer ${TOKEN}` };

async function createTask(d: Target, body: Record<string, unknown>, status = 201): Promise<Json> {
  const r = await request(d, 'POST', '/api/control/agents/main/tasks', { body: { summary: 'sandbox test', ...body }, headers: auth });
  expect(r.status, r.text).toBe(status);
  return r.json;
}

async function outputOf(d: Target, taskId: string): Promise<Json> {
  const r = await request(d, 'GET', `/api/agents/main/tasks/${taskId}/output?block=true&timeout_ms=20000`, { headers: auth });
  expect(r.status, r.text).toBe(200);
  return r.json.task;
}

/** Run a command to its end and answer its output. */
async function run(d: Target, cmd: string, extra: Record<string, unknown> = {}): Promise<{ task: Json; out: Json }> {
  const task = await createTask(d, { cmd, network: false, ...extra });
  return { task, out: await outputOf(d, task.task_id) };
}

describe.skipIf(!usable)('a sandboxed command', () => {
  let d: RunningDaemon;
  let port: number;
  let agentHome: string;
  let server: http.Server;
  let serverPort: number;

  beforeAll(async () => {
    d = await pool.start({ configToml: CONFIG, env: { SVC_TOKEN: TOKEN, FAKE_LLM_CRED: PROVIDER_KEY, OPENAI_API_KEY: PROVIDER_KEY, AWS_SECRET_ACCESS_KEY: PROVIDER_KEY } });
    port = Number(d.listen.split(':').pop());
    agentHome = path.join(d.home, 'agents', 'main');
    fs.writeFileSync(path.join(d.home, 'credentials.json'), '{"profiles":{}}\n', { mode: 0o600 });
    server = http.createServer((_req, res) => res.end('hello from the host\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    serverPort = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    pool.killAll();
    await new Promise((r) => server.close(r));
  });

  it('cannot read the daemon home, and sees /root and /home empty', async () => {
    expect(fs.existsSync(path.join(d.home, 'svc.db'))).toBe(true);
    expect(fs.readdirSync('/root').length).toBeGreaterThan(0);
    const { task, out } = await run(d, `cat ${d.home}/credentials.json; cat ${d.home}/svc.db; cat ${d.home}/config.toml; echo "home:[$(ls -A ${d.home})]"; echo "agents:[$(ls -A ${d.home}/agents)]"; echo "root:[$(ls -A /root)]"; echo "home-dirs:[$(ls -A /home)]"; id -u`);
    expect(task.command).toMatchObject({ network: false, sandboxed: true });
    expect(out.status).toBe('completed');
    const text = out.output_preview as string;
    for (const f of ['credentials.json', 'svc.db', 'config.toml']) expect(text).toContain(`${d.home}/${f}: No such file or directory`);
    // Of the daemon home only the path down to the workspace (the agent home) exists.
    expect(text).toContain('home:[agents]\nagents:[main]\nroot:[]\nhome-dirs:[]\n');
  });

  it('cannot write outside the workspace, and writes inside it', async () => {
    const outside = ['/etc/svc-sandbox-x', '/usr/svc-sandbox-x', `${d.home}/x`, '/tmp/svc-sandbox-x'];
    const { out } = await run(d, `${outside.map((f) => `echo x > ${f} && echo "wrote ${f}"`).join('; ')}; echo inside > inside.txt && pwd`);
    const text = out.output_preview as string;
    expect(text).toContain('/etc/svc-sandbox-x: Read-only file system');
    expect(text).toContain('/usr/svc-sandbox-x: Read-only file system');
    // The daemon home and /tmp are tmpfs in the sandbox: writable there, gone with it.
    for (const f of outside) expect(fs.existsSync(f), f).toBe(false);
    expect(text).toContain(`${agentHome}\n`);
    expect(fs.readFileSync(path.join(agentHome, 'inside.txt'), 'utf8')).toBe('inside\n');
  });

  it('cannot reach the daemon port without network, and reaches a loopback server with network: true', async () => {
    const probe = `curl -sS -m 5 -o /dev/null -w 'daemon:%{http_code}\\n' http://127.0.0.1:${port}/api/handshake; (exec 3<>/dev/tcp/127.0.0.1/${port}) && echo tcp-open; curl -sS -m 5 http://127.0.0.1:${serverPort}/`;
    const closed = await run(d, probe, { shell: 'bash' });
    expect(closed.out.output_preview).not.toContain('daemon:200');
    expect(closed.out.output_preview).not.toContain('tcp-open');
    expect(closed.out.output_preview).not.toContain('hello from the host');
    expect(closed.out.output_preview).toMatch(/Couldn't connect|Connection refused|Network is unreachable/);
    const open = await run(d, probe, { shell: 'bash', network: true });
    expect(open.task.command.network).toBe(true);
    expect(open.out.output_preview).toContain('daemon:200');
    expect(open.out.output_preview).toContain('hello from the host');
  });

  it('gets the allowlisted environment: no control token, no provider key', async () => {
    const { task, out } = await run(d, 'env');
    const env = new Map((out.output_preview as string).trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    expect(env.get('SVC_TASK_ID')).toBe(task.task_id);
    expect(env.get('HOME')).toBe('/tmp/home');
    expect(env.get('PATH')).toBe(process.env.PATH);
    for (const name of ['SVC_TOKEN', 'FAKE_LLM_CRED', 'OPENAI_API_KEY', 'AWS_SECRET_ACCESS_KEY']) expect(env.has(name), name).toBe(false);
    expect(out.output_preview).not.toContain(PROVIDER_KEY);
    expect(out.output_preview).not.toContain(TOKEN);
  });

  it('leaves nothing behind: a setsid sleep ends with the task', async () => {
    const task = await createTask(d, { cmd: 'setsid sleep 1000 & echo started; sleep 2', network: false });
    const sleeps = () => markedPids(task.task_id).filter((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').startsWith('sleep\u00001000'));
    await until(() => sleeps().length === 1, 'the setsid sleep to run');
    expect((await outputOf(d, task.task_id)).status).toBe('completed');
    await until(() => markedPids(task.task_id).length === 0, 'every process of the task to be gone');
  });

  it('stop: a trap on TERM runs, then everything in the sandbox is gone', async () => {
    const task = await createTask(d, { cmd: "trap 'echo trapped; exit 3' TERM; echo armed; setsid sleep 1000 & sleep 30 & wait", network: false });
    await until(async () => (await request(d, 'GET', `/api/agents/main/tasks/${task.task_id}/output`)).json.task.output_preview === 'armed\n', 'the trap to be set');
    const stop = await request(d, 'POST', `/api/control/agents/main/tasks/${task.task_id}/stop`, { body: {}, headers: auth });
    expect(stop.json).toMatchObject({ signal_sent: 'SIGTERM' });
    const out = await outputOf(d, task.task_id);
    expect(out).toMatchObject({ status: 'cancelled', exit_status: 3, output_preview: 'armed\ntrapped\n' });
    await until(() => markedPids(task.task_id).length === 0, 'every process of the task to be gone');
  });

  it('a command killed by a signal is recorded with the signal', async () => {
    const { out } = await run(d, 'kill -9 $$');
    expect(out).toMatchObject({ status: 'failed', exit_status: null });
    expect(out.failure_artifact).toMatchObject({ kind: 'signal', metadata: { signal: 'SIGKILL' } });
  });

  it('a terminal task works in the sandbox: its pty is its controlling terminal (job control), input reaches it', async () => {
    const task = await createTask(d, { cmd: 'test -t 0 && echo interactive; (: </dev/tty) && echo ctty; set -m; read x; echo "got $x"', tty: true, shell: 'bash', network: false });
    await until(async () => (await request(d, 'GET', `/api/agents/main/tasks/${task.task_id}`)).json.status === 'running', 'the task to run');
    await until(() => fs.readFileSync(task.command.output_path, 'utf8').includes('ctty'), 'the terminal to be seen');
    const typed = await request(d, 'POST', `/api/control/agents/main/tasks/${task.task_id}/input`, { body: { text: 'hello\n' }, headers: auth });
    expect(typed.json).toMatchObject({ accepted_input: true, input_target: 'tty' });
    const out = await outputOf(d, task.task_id);
    expect(out.status).toBe('completed');
    expect(out.output_preview).toContain('got hello');
    expect(out.output_preview).toMatch(/^interactive\r\nctty\r\n/);
    expect(out.output_preview).not.toMatch(/no job control|Inappropriate ioctl|cannot set terminal process group/);
    expect((await request(d, 'GET', `/api/agents/main/tasks/${task.task_id}`)).json.command).toMatchObject({ tty: true, sandboxed: true });
  });

  it('refuses a workdir outside the workspace in a tree it hides; reads one under /tmp', async () => {
    for (const workdir of [d.home, '/root']) {
      const r = await request(d, 'POST', '/api/control/agents/main/tasks', { body: { cmd: 'ls', workdir }, headers: auth });
      expect({ status: r.status, code: r.json.code }, r.text).toEqual({ status: 400, code: 'workdir_not_allowed' });
    }
    const dir = tempHome('svc-sandbox-wd-');
    try {
      fs.writeFileSync(path.join(dir, 'note'), 'readable\n');
      const { out } = await run(d, 'cat note; echo x > other && echo wrote', { workdir: dir });
      expect(out.output_preview).toContain('readable\n');
      expect(out.output_preview).toContain('Read-only file system');
      expect(fs.existsSync(path.join(dir, 'other'))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the state page and the runtime status say the commands are sandboxed', async () => {
    const state = await request(d, 'GET', '/api/agents/main/state');
    expect(state.json.sandbox).toMatchObject({ mode: 'auto', sandboxed: true, reason: null });
    expect(state.json.sandbox.bubblewrap).toMatch(/^\d+\.\d+/);
    const status = await request(d, 'GET', '/api/control/runtime/status', { headers: auth });
    expect(status.json.sandbox).toEqual(state.json.sandbox);
  });
});

describe.skipIf(!usable)('a sandboxed task and the death of its daemon', () => {
  it('dies with the daemon (SIGKILL); the next start marks it interrupted', async () => {
    const home = pool.home();
    const d = await pool.start({ home, env: { SVC_TOKEN: TOKEN } });
    const task = await createTask(d, { cmd: 'setsid sleep 1000 & sleep 1000' });
    await until(() => markedPids(task.task_id).length >= 4, 'the sandbox to run'); // bwrap, its init, sh, two sleeps
    d.proc.kill('SIGKILL');
    await new Promise((r) => d.proc.once('exit', r));
    await until(() => markedPids(task.task_id).length === 0, 'the sandbox to die with the daemon');
    const again = await pool.start({ home, env: { SVC_TOKEN: TOKEN } });
    expect((await request(again, 'GET', `/api/agents/main/tasks/${task.task_id}`)).json.status).toBe('interrupted');
  });
});

describe('without bubblewrap (a bwrap path that does not exist)', () => {
  const missing = '/nonexistent/bin/bwrap';
  let home: string;
  let lines: string[];
  let d: Daemon | null = null;
  const target = () => ({ base: `http://${d!.controlAddress}` });

  async function start(config: string): Promise<void> {
    home = tempHome('svc-sandbox-missing-');
    fs.writeFileSync(path.join(home, 'config.toml'), config);
    lines = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    d = await startDaemon({ flags: { home, listen: '127.0.0.1:0' }, env: { SVC_TOKEN: TOKEN }, logDestination: sink, bwrap: missing });
  }
  async function stop(): Promise<void> {
    await d?.close();
    d = null;
    fs.rmSync(home, { recursive: true, force: true });
  }

  it('auto: commands run unsandboxed, with the environment scrubbed, and the daemon says so', async () => {
    // In process: the daemon's environment is this process's.
    Object.assign(process.env, { FAKE_LLM_CRED: PROVIDER_KEY, SVC_TOKEN: TOKEN });
    try {
      await start(`${CONFIG}[tasks]\nsandbox = "auto"\n`);
      const warnings = lines.filter((l) => l.includes('command sandbox'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/bubblewrap missing.*install the Debian package bubblewrap; commands run unsandboxed/);
      const { task, out } = await run(target(), 'env; id -u');
      expect(out.status).toBe('completed');
      expect(out.output_preview).toContain(`SVC_TASK_ID=${task.task_id}`);
      expect(out.output_preview).not.toContain(PROVIDER_KEY);
      expect(out.output_preview).not.toContain('SVC_TOKEN');
      expect(out.output_preview).not.toContain(TOKEN);
      expect((await request(target(), 'GET', `/api/agents/main/tasks/${task.task_id}`)).json.command).toMatchObject({ sandboxed: false });
      const state = await request(target(), 'GET', '/api/agents/main/state');
      expect(state.json.sandbox).toMatchObject({ mode: 'auto', sandboxed: false, bubblewrap: null });
      expect(state.json.sandbox.reason).toMatch(/Debian package bubblewrap; commands run unsandboxed/);
      const status = await request(target(), 'GET', '/api/control/runtime/status', { headers: auth });
      expect(status.json.sandbox).toEqual(state.json.sandbox);
    } finally {
      delete process.env.FAKE_LLM_CRED;
      delete process.env.SVC_TOKEN;
      await stop();
    }
  });

  it('required: a command task fails at start, sandbox_unavailable, naming the Debian package', async () => {
    try {
      await start('[tasks]\nsandbox = "required"\n');
      const { task, out } = await run(target(), 'echo ran');
      expect(out).toMatchObject({ status: 'failed', output_preview: '' });
      expect(out.failure_artifact).toMatchObject({ category: 'runtime', kind: 'sandbox_unavailable' });
      expect(out.failure_artifact.summary).toMatch(/sandbox = "required".*install the Debian package bubblewrap/);
      expect((await request(target(), 'GET', `/api/agents/main/tasks/${task.task_id}`)).json.command).toMatchObject({ sandboxed: null });
      expect(lines.some((l) => /command sandbox: bubblewrap missing.*command tasks fail until then/.test(l))).toBe(true);
      const status = await request(target(), 'GET', '/api/control/runtime/status', { headers: auth });
      expect(status.json.sandbox).toMatchObject({ mode: 'required', sandboxed: false });
    } finally {
      await stop();
    }
  });
});

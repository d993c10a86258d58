/**
 * The measured processes. Every scenario runs the daemon (`node bin/svc.js serve`, built output)
 * as a child process on a fresh temporary home, so the numbers read from /proc belong to the
 * daemon alone and never to the load generator. The bare-Fastify baseline is started the same way.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = path.join(ROOT, 'bin', 'svc.js');
const SERVERS = path.join(ROOT, 'bench', 'servers');

/**
 * Enqueue benches must never meet the queue cap (docs/control-plane-api.md#queue: 429 past
 * queue.max_pending).
 */
export const BENCH_CONFIG = '[queue]\nmax_pending = 100000000\n';

const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

/** Event retention off: a scenario that reads every event back, or seeds more than the default cap. */
export const RETENTION_OFF = '[events]\nretain_days = 0\nretain_max_events = 0\n';
/** Throughput runs flood one agent on purpose: the brake (docs/security.md#the-brake) would stop it. */
export const BRAKE_OFF = '[policy.limits]\nturns_per_hour = 100000\nruntime_turns_in_a_row = 100000\n';

/**
 * A fresh home with the bench config and `extraToml` after it; short path because Unix socket
 * paths max out at 107 bytes.
 */
export function tempHome(extraToml = '') {
  const home = fs.mkdtempSync(path.join(process.env.BENCH_TMPDIR || os.tmpdir(), 'svc-bench-'));
  fs.writeFileSync(path.join(home, 'config.toml'), `${BENCH_CONFIG}${extraToml}`);
  return home;
}

export function removeHome(home) {
  fs.rmSync(home, { recursive: true, force: true });
}

/**
 * Start `svc serve` on `home` (a fresh one by default) and wait for its `listening` line.
 * BENCH_DAEMON_NODE_ARGS adds node flags to the daemon only (e.g. `--cpu-prof` to profile it).
 */
export async function startDaemon(home = tempHome()) {
  const nodeArgs = (process.env.BENCH_DAEMON_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const args = [...nodeArgs, BIN, 'serve', '--home', home, '--listen', '127.0.0.1:0'];
  // The environment must not leak a token, home or listen address into the measured daemon.
  const env = { ...process.env, SVC_TOKEN: '', SVC_HOME: '', SVC_LISTEN: '', SVC_LOG_LEVEL: '' };
  const child = await spawnListening('svc', args, env);
  return { ...child, home };
}

/**
 * Run bench/lib/`script` (a probe running svc's own services, built output) to its exit; resolves
 * with the JSON of the last line it printed.
 */
export function runProbe(script, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bench', 'lib', script), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-20_000)));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`${script} exited with ${code}: ${stderr.trim()}`));
      try {
        resolve(JSON.parse(stdout.trim().split('\n').pop()));
      } catch (err) {
        reject(new Error(`${script} printed no result: ${err.message}\n${stdout}\n${stderr}`));
      }
    });
  });
}

/** The enqueue baseline: bare Fastify with one POST route, in its own process. */
export function startBareFastify() {
  return spawnListening('bare fastify', [path.join(SERVERS, 'bare-fastify.js')], process.env);
}

/**
 * A durable enqueue baseline: bare Fastify writing to SQLite per request (servers/bare-durable.js):
 * `rows` narrow (one row) or svc (svc's two rows in its schema), written on the event loop or by
 * a writer thread (`writer` loop or worker).
 */
export function startBareDurable(dbFile, rows = 'narrow', writer = 'loop') {
  return spawnListening(`bare durable (${rows}, ${writer})`, [path.join(SERVERS, 'bare-durable.js'), dbFile, rows, writer], process.env);
}

/** The SSE baseline: bare Fastify fanning enqueued messages out to raw SSE responses. */
export function startBareFanout() {
  return spawnListening('bare fan-out', [path.join(SERVERS, 'bare-fanout.js')], process.env);
}

/** A scripted OpenAI-compatible model (servers/scripted-model.js) for turns that call tools. */
export function startScriptedModel() {
  return spawnListening('scripted model', [path.join(SERVERS, 'scripted-model.js')], process.env);
}

async function spawnListening(name, args, env) {
  const proc = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise((resolve) => proc.once('exit', (code, signal) => resolve(code ?? signal)));
  const listening = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within ${START_TIMEOUT_MS} ms:\n${out}`)), START_TIMEOUT_MS);
    let pending = '';
    const onData = (chunk) => {
      out = (out + chunk).slice(-20_000);
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) {
        if (!line.includes('"listening"')) continue;
        try {
          const parsed = JSON.parse(line);
          if (parsed.msg !== 'listening') continue;
          clearTimeout(timer);
          resolve(parsed);
          return;
        } catch {
          /* not a JSON line */
        }
      }
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', (d) => (out = (out + d).slice(-20_000)));
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}) before listening:\n${out}`));
    });
  });
  // Keep draining both pipes so a chatty child can never block on a full pipe; the tail stays readable.
  proc.stdout.removeAllListeners('data');
  proc.stdout.on('data', (d) => (out = (out + d).slice(-20_000)));
  proc.stderr.resume();
  const listen = String(listening.listen);
  return {
    name,
    pid: proc.pid,
    /** The last 20,000 characters of the child's output (its JSON log), for scenarios that wait on a log line. */
    output: () => out,
    listen,
    base: `http://${listen}`,
    port: Number(listen.slice(listen.lastIndexOf(':') + 1)),
    /** SIGTERM, then wait for exit (SIGKILL after the timeout). */
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return exited;
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), STOP_TIMEOUT_MS);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** Resident set size of a process in bytes (VmRSS in /proc/<pid>/status). */
export function rssBytes(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!m) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(m[1]) * 1024;
}

let clockTicks = null;
/** User + system CPU time consumed so far by a process, in seconds (/proc/<pid>/stat). */
export function cpuSeconds(pid, tid) {
  clockTicks ??= readClockTicks();
  // With `tid`, one thread's (the main thread's tid is the pid).
  const stat = fs.readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
  // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / clockTicks;
}

function readClockTicks() {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

/** CPU seconds the whole machine spent busy so far (all cores; /proc/stat), to spot foreign load. */
export function machineBusySeconds() {
  clockTicks ??= readClockTicks();
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0];
  const [user, nice, system, , , irq, softirq, steal] = line.split(/\s+/).slice(1).map(Number);
  return (user + nice + system + irq + softirq + steal) / clockTicks;
}

/** CPU seconds of this process plus its reaped children (every child a scenario started and stopped). */
export function benchTreeSeconds() {
  clockTicks ??= readClockTicks();
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / clockTicks;
}

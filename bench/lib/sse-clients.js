/**
 * Many SSE clients spread over worker processes (sse-worker.js), so that parsing a million frames
 * never runs on the event loop that times the enqueue requests.
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'sse-worker.js');
const REPLY_TIMEOUT_MS = 60_000;

/** Fork `workers` processes and connect `total` clients to `url` between them. */
export async function openClients(url, total, workers) {
  const procs = [];
  for (let i = 0; i < workers; i++) {
    const proc = fork(WORKER, [], { serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    procs.push(proc);
    await next(proc, 'ready');
  }
  const shares = procs.map((_, i) => Math.floor(total / workers) + (i < total % workers ? 1 : 0));
  const replies = await Promise.all(procs.map((p, i) => ask(p, { cmd: 'connect', url, count: shares[i] }, 'connected')));
  const connected = replies.reduce((a, r) => a + r.count, 0);
  const errors = replies.flatMap((r) => r.errors);
  return {
    connected,
    errors,
    pids: procs.map((p) => p.pid),
    /** Tell every client which event_seq range to expect: first ... base + n, timed after base. */
    expect: (first, base, n) => Promise.all(procs.map((p) => ask(p, { cmd: 'expect', first, base, n }, 'expecting'))),
    /** Resolves true once every client has reached base + n, false on timeout. */
    whenComplete(timeoutMs) {
      return Promise.race([
        Promise.all(procs.map((p) => next(p, 'complete', Infinity))).then(() => true),
        new Promise((resolve) => setTimeout(() => resolve(false), timeoutMs).unref()),
      ]);
    },
    /** Per-worker reports; `sendNs` maps message_id to its send time (ns, monotonic). */
    report: (sendNs) => Promise.all(procs.map((p) => ask(p, { cmd: 'report', sendNs }, 'report'))),
    async close() {
      await Promise.all(
        procs.map(async (p) => {
          if (p.exitCode !== null) return;
          const exited = new Promise((resolve) => p.once('exit', resolve));
          p.send({ cmd: 'close' });
          await exited;
        }),
      );
    },
  };
}

function ask(proc, msg, replyType) {
  const reply = next(proc, replyType);
  proc.send(msg);
  return reply;
}

/** The next IPC message of `type` from `proc`. */
function next(proc, type, timeoutMs = REPLY_TIMEOUT_MS) {
  return new Promise((resolve, reject) => {
    const timer = Number.isFinite(timeoutMs) ? setTimeout(() => done(new Error(`SSE worker sent no ${type} within ${timeoutMs} ms`)), timeoutMs) : null;
    const onMessage = (m) => m?.type === type && done(null, m);
    const onExit = (code) => done(new Error(`SSE worker exited (${code}) while waiting for ${type}`));
    function done(err, m) {
      if (timer) clearTimeout(timer);
      proc.off('message', onMessage);
      proc.off('exit', onExit);
      if (err) reject(err);
      else resolve(m);
    }
    proc.on('message', onMessage);
    proc.once('exit', onExit);
  });
}

/**
 * Runs one remote-source module call in a worker thread with a time limit, so a module that
 * throws, hangs (even in a synchronous loop), exhausts its heap or calls process.exit() costs a
 * worker, never the daemon. One worker per call: a fresh isolate also means an edited module is
 * picked up by the next poll.
 *
 * The worker's code is a plain CommonJS script evaluated by `new Worker(…, {eval: true})`
 * (the same text runs from dist/ and under the test runner, which cannot start .ts workers).
 * It imports the module, checks its shape (`default` export `{poll, validate?}`), then runs
 * `validate(moduleConfig)` (op `check`) or `poll({moduleConfig, cursor, configRef, signal})`
 * (op `poll`) and posts one outcome. The poll result crosses as JSON text, so what reaches the
 * daemon is plain data.
 *
 * A load failure is described by the error's class, its ERR_ code and a line:col in the file,
 * never by its message: importing a file that is not a module (a password file, a token) fails
 * with a message or stack that quotes the file's text ("Unexpected identifier 'hunter2'",
 * "hunter2 is not defined", the offending source line). Messages of the module's own validate and
 * poll are its own and pass through, cut to MESSAGE_MAX characters.
 */
import { Worker } from 'node:worker_threads';

const WORKER_SOURCE = String.raw`
const { parentPort, workerData: job } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
const controller = new AbortController();
parentPort.on('message', (m) => { if (m === 'abort') controller.abort(new Error('time limit reached')); });
const MESSAGE_MAX = 500;
const cut = (t) => (t.length <= MESSAGE_MAX ? t : t.slice(0, MESSAGE_MAX - 1) + '…');
const describe = (e) => cut(e && e.stack ? String(e.stack).split('\n').slice(0, 3).join(' | ') : String(e));
const url = pathToFileURL(job.modulePath).href;
// The first position in the module file named by the stack: ESM frames use its URL, a CommonJS
// syntax error's header and frames its plain path.
const locate = (stack) => {
  for (const prefix of [url + ':', job.modulePath + ':']) {
    const at = stack.indexOf(prefix);
    if (at < 0) continue;
    const m = /^(\d+)(?::(\d+))?/.exec(stack.slice(at + prefix.length));
    if (m) return m[2] ? m[1] + ':' + m[2] : m[1];
  }
  return null;
};
const loadFailure = (e) => {
  const name = e && typeof e.name === 'string' && /^[A-Za-z]{1,40}$/.test(e.name) ? e.name : 'Error';
  const code = e && typeof e.code === 'string' && /^ERR_[A-Z0-9_]{1,60}$/.test(e.code) ? ' ' + e.code : '';
  const where = e && typeof e.stack === 'string' ? locate(e.stack) : null;
  const what = name === 'SyntaxError' ? 'not a valid ES module' : 'importing it failed';
  return what + ' (' + name + code + (where ? ' at line ' + where : '') + '; the message is not shown: it may quote the file)';
};
const send = (m) => parentPort.postMessage(m);
(async () => {
  let mod;
  try {
    // The daemon checked this real path; a symlink swapped in since then is not followed.
    if (require('node:fs').realpathSync(job.modulePath) !== job.modulePath) {
      return send({ ok: false, stage: 'load', error: 'the module file changed while it was being loaded' });
    }
    mod = await import(url);
  } catch (e) {
    return send({ ok: false, stage: 'load', error: loadFailure(e) });
  }
  const impl = mod && mod.default;
  if (!impl || typeof impl.poll !== 'function') return send({ ok: false, stage: 'load', error: 'the default export must be an object with a poll function' });
  if (impl.validate !== undefined && typeof impl.validate !== 'function') return send({ ok: false, stage: 'load', error: 'validate must be a function when present' });
  if (job.op === 'check') {
    try {
      if (impl.validate) await impl.validate(job.moduleConfig);
    } catch (e) {
      return send({ ok: false, stage: 'validate', error: cut(e && e.message ? String(e.message) : String(e)) });
    }
    return send({ ok: true, result: 'null' });
  }
  let text;
  try {
    const result = await impl.poll({ moduleConfig: job.moduleConfig, cursor: job.cursor, configRef: job.configRef, signal: controller.signal });
    text = JSON.stringify(result === undefined ? null : result);
  } catch (e) {
    return send({ ok: false, stage: 'poll', error: describe(e) });
  }
  send({ ok: true, result: text });
})();
`;

export interface ModuleJob {
  op: 'check' | 'poll';
  /** Real path of the ES module, checked by ModuleLocations.resolve. */
  modulePath: string;
  moduleConfig: unknown;
  cursor?: unknown;
  configRef?: string | null;
}

/** `load`: the module cannot be imported or has the wrong shape; `validate`: it refused the config. */
export type ModuleOutcome =
  | { ok: true; result: unknown }
  | { ok: false; stage: 'load' | 'validate' | 'poll' | 'timeout' | 'crash' | 'aborted'; error: string };

/** A worker may use this much heap before it is stopped (the daemon's own heap is untouched). */
const WORKER_HEAP_MB = 256;

/**
 * Run one module call; resolves with its outcome (never rejects). At the time limit the module's
 * signal is aborted and the worker terminated at once (a synchronous loop never sees the signal).
 */
export function runModuleJob(job: ModuleJob, timeLimitMs: number, signal?: AbortSignal): Promise<ModuleOutcome> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve({ ok: false, stage: 'aborted', error: 'the daemon is shutting down' });
    let settled = false;
    let worker: Worker;
    try {
      worker = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: job,
        resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
        // The module's console output must not mix with the daemon's JSON log lines.
        stdout: true,
        stderr: true,
      });
    } catch (err) {
      resolve({ ok: false, stage: 'crash', error: `cannot start a worker: ${(err as Error).message}` });
      return;
    }
    worker.stdout.resume();
    worker.stderr.resume();
    const finish = (outcome: ModuleOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      resolve(outcome);
    };
    const timer = setTimeout(() => {
      worker.postMessage('abort');
      finish({ ok: false, stage: 'timeout', error: `the module did not finish within ${timeLimitMs} ms` });
    }, timeLimitMs);
    // Shutdown: the worker goes at once, whatever the module is doing.
    const onAbort = () => finish({ ok: false, stage: 'aborted', error: 'the daemon is shutting down' });
    signal?.addEventListener('abort', onAbort);
    worker.on('message', (m: { ok: boolean; stage?: string; error?: string; result?: string }) => {
      if (m.ok) {
        try {
          finish({ ok: true, result: JSON.parse(m.result ?? 'null') });
        } catch {
          finish({ ok: false, stage: 'poll', error: 'the module returned a value that is not JSON' });
        }
      } else finish({ ok: false, stage: (m.stage ?? 'crash') as 'load', error: m.error ?? 'unknown failure' });
    });
    worker.on('error', (err) => finish({ ok: false, stage: 'crash', error: `the module's worker failed: ${err.message}` }));
    worker.on('exit', (code) => finish({ ok: false, stage: 'crash', error: `the module's worker exited (code ${code}) before answering` }));
  });
}

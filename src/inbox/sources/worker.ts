/**
 * Runs one remote-source module call in a worker thread with a time limit, so a module that
 * throws, hangs (even in a synchronous loop), exhausts its heap or calls process.exit() costs a
 * worker, never the daemon. One worker per call: a fresh isolate also means an edited module is
 * picked up by the next poll.
 *
 * The worker's code is a plain CommonJS script evaluated by `new Worker(…, {eval: true})`
 * (the same text runs from dist/ and under the test runner, which cannot start .ts workers).
 * It imports the module, checks its shape (`default` export `{poll, validate?, configSchema?}`),
 * then runs `validate(moduleConfig, {hostConfig, credential})` (op `check`), `poll({moduleConfig,
 * cursor, configRef, hostConfig, credential, now, signal})` (op `poll`) or nothing (op `schema`),
 * and posts one outcome, which carries the module's `configSchema` as JSON text. Results cross as
 * JSON text, so what reaches the daemon is plain data.
 *
 * The call's inputs, a credential's secret among them, arrive in one postMessage after the worker
 * started (never in `workerData`, `argv` or the environment) and live only in the worker's memory.
 * A module that declares a `configSchema` gets `{}` for an absent moduleConfig (others get null).
 *
 * A load failure is described by the error's class, its ERR_ code and a line:col in the file,
 * never by its message: importing a file that is not a module (a password file, a token) fails
 * with a message or stack that quotes the file's text ("Unexpected identifier 'hunter2'",
 * "hunter2 is not defined", the offending source line). Messages of the module's own validate and
 * poll are its own and pass through (a poll's with its error's class), cut to MESSAGE_MAX
 * characters; a stack never crosses (the daemon makes them one line, core/error-text.ts).
 */
import { Worker } from 'node:worker_threads';

const WORKER_SOURCE = String.raw`
const { parentPort, workerData: where } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
const controller = new AbortController();
const MESSAGE_MAX = 500;
const cut = (t) => (t.length <= MESSAGE_MAX ? t : t.slice(0, MESSAGE_MAX - 1) + '…');
// What a poll threw, as its class and message: never its stack (frames name files of the install).
const describe = (e) => {
  try {
    if (e && typeof e.message === 'string') return cut((typeof e.name === 'string' && e.name ? e.name + ': ' : '') + e.message);
    return cut(String(e));
  } catch {
    return 'the poll failed with a value that cannot be shown';
  }
};
const url = pathToFileURL(where.modulePath).href;
// The first position in the module file named by the stack: ESM frames use its URL, a CommonJS
// syntax error's header and frames its plain path.
const locate = (stack) => {
  for (const prefix of [url + ':', where.modulePath + ':']) {
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
const run = async (job) => {
  let mod;
  try {
    // The daemon checked this real path; a symlink swapped in since then is not followed.
    if (require('node:fs').realpathSync(where.modulePath) !== where.modulePath) {
      return send({ ok: false, stage: 'load', error: 'the module file changed while it was being loaded' });
    }
    mod = await import(url);
  } catch (e) {
    return send({ ok: false, stage: 'load', error: loadFailure(e) });
  }
  const impl = mod && mod.default;
  if (!impl || typeof impl.poll !== 'function') return send({ ok: false, stage: 'load', error: 'the default export must be an object with a poll function' });
  if (impl.validate !== undefined && typeof impl.validate !== 'function') return send({ ok: false, stage: 'load', error: 'validate must be a function when present' });
  let schema;
  if (impl.configSchema !== undefined) {
    const s = impl.configSchema;
    try {
      schema = s !== null && typeof s === 'object' && !Array.isArray(s) ? JSON.stringify(s) : undefined;
    } catch {
      schema = undefined;
    }
    if (schema === undefined) return send({ ok: false, stage: 'load', error: 'configSchema must be a JSON Schema object (plain JSON) when present' });
  }
  const moduleConfig = job.moduleConfig ?? (schema !== undefined ? {} : null);
  if (where.op === 'schema') return send({ ok: true, result: 'null', schema });
  if (where.op === 'check') {
    try {
      if (impl.validate) await impl.validate(moduleConfig, { hostConfig: job.hostConfig, credential: job.credential });
    } catch (e) {
      return send({ ok: false, stage: 'validate', error: cut(e && e.message ? String(e.message) : String(e)), schema });
    }
    return send({ ok: true, result: 'null', schema });
  }
  let text;
  try {
    const result = await impl.poll({
      moduleConfig,
      cursor: job.cursor,
      configRef: job.configRef,
      hostConfig: job.hostConfig,
      credential: job.credential,
      now: job.now,
      signal: controller.signal,
    });
    text = JSON.stringify(result === undefined ? null : result);
  } catch (e) {
    return send({ ok: false, stage: 'poll', error: describe(e), schema });
  }
  send({ ok: true, result: text, schema });
};
parentPort.on('message', (m) => {
  if (m === 'abort') controller.abort(new Error('time limit reached'));
  else if (m && m.type === 'job') run(m.job);
});
`;

/** A credential profile's secret, resolved for one module call (docs/inbox-api.md#credentials-for-hosts). */
export interface ModuleCredential {
  profile: string;
  kind: string;
  secret: string;
}

export interface ModuleJob {
  /** `schema`: load the module and report its configSchema only. */
  op: 'check' | 'poll' | 'schema';
  /** Real path of the ES module, checked by ModuleLocations.resolve (or svc's own built-in module). */
  modulePath: string;
  moduleConfig: unknown;
  cursor?: unknown;
  configRef?: string | null;
  /** The host's config as stored (a credentialRef names a profile, never holds a secret). */
  hostConfig?: Record<string, unknown>;
  credential?: ModuleCredential | null;
  /** The daemon's clock (epoch ms), for modules that wait (rate limits) without reading the wall clock. */
  now?: number;
}

/** `load`: the module cannot be imported or has the wrong shape; `validate`: it refused the config. */
export type ModuleOutcome =
  | { ok: true; result: unknown; schema: unknown }
  | { ok: false; stage: 'load' | 'validate' | 'poll' | 'timeout' | 'crash' | 'aborted'; error: string; schema?: unknown };

/** A worker may use this much heap before it is stopped (the daemon's own heap is untouched). */
const WORKER_HEAP_MB = 256;

/**
 * Run one module call; resolves with its outcome (never rejects). At the time limit the module's
 * signal is aborted and the worker terminated at once (a synchronous loop never sees the signal).
 */
/** How long a worker thread may take to start before its module's time limit begins. */
const WORKER_START_GRACE_MS = 10_000;

export function runModuleJob(job: ModuleJob, timeLimitMs: number, signal?: AbortSignal): Promise<ModuleOutcome> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve({ ok: false, stage: 'aborted', error: 'the daemon is shutting down' });
    let settled = false;
    let worker: Worker;
    try {
      worker = new Worker(WORKER_SOURCE, {
        eval: true,
        // Only where the module is; its inputs follow by postMessage.
        workerData: { op: job.op, modulePath: job.modulePath },
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
    const { op: _op, modulePath: _path, ...inputs } = job;
    worker.postMessage({ type: 'job', job: inputs });
    const finish = (outcome: ModuleOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      resolve(outcome);
    };
    // The limit is the module's: it runs from the moment the thread is up, so a busy machine's slow
    // thread start is not charged to the module (a thread that never comes up fails after the grace).
    const timeout = () => {
      worker.postMessage('abort');
      finish({ ok: false, stage: 'timeout', error: `the module did not finish within ${timeLimitMs} ms` });
    };
    let timer = setTimeout(timeout, timeLimitMs + WORKER_START_GRACE_MS);
    worker.once('online', () => {
      clearTimeout(timer);
      if (!settled) timer = setTimeout(timeout, timeLimitMs);
    });
    // Shutdown: the worker goes at once, whatever the module is doing.
    const onAbort = () => finish({ ok: false, stage: 'aborted', error: 'the daemon is shutting down' });
    signal?.addEventListener('abort', onAbort);
    worker.on('message', (m: { ok: boolean; stage?: string; error?: string; result?: string; schema?: string }) => {
      const schema = m.schema === undefined ? null : (JSON.parse(m.schema) as unknown);
      if (m.ok) {
        try {
          finish({ ok: true, result: JSON.parse(m.result ?? 'null'), schema });
        } catch {
          finish({ ok: false, stage: 'poll', error: 'the module returned a value that is not JSON' });
        }
      } else finish({ ok: false, stage: (m.stage ?? 'crash') as 'load', error: m.error ?? 'unknown failure', schema });
    });
    worker.on('error', (err) => finish({ ok: false, stage: 'crash', error: `the module's worker failed: ${err.message}` }));
    worker.on('exit', (code) => finish({ ok: false, stage: 'crash', error: `the module's worker exited (code ${code}) before answering` }));
  });
}

/**
 * An HTML page as a model reads it best (markdown or plain text), made in a worker thread with a
 * time limit and a heap limit, so a page built to be slow or large costs that worker, never the
 * daemon's thread (readable-worker.ts says what the worker does and why it is one).
 *
 * Starting a worker and loading its libraries takes a few hundred milliseconds, more than
 * converting a typical page, so one worker is kept idle between conversions and reused (for
 * RECYCLE_AFTER conversions at most, so its heap does not creep). A conversion that finds no idle
 * worker starts its own, up to MAX_CONVERSIONS at once (each may take WORKER_HEAP_MB): past that a
 * conversion waits for one to end, within its own time limit; a worker that runs out of time or
 * fails is terminated, never reused. The idle worker does not keep the process alive (its
 * stdio is not piped: a piped stream would; the worker silences its console instead).
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { READABILITY_MAX_DEPTH, READABILITY_MAX_ELEMENTS, TURNDOWN_MAX_DEPTH, WORKER_SOURCE } from './readable-worker.js';

export type ReadableFormat = 'markdown' | 'text';

export interface ReadablePage {
  title: string | null;
  content: string;
}

/** The conversion did not finish in time; the fetcher answers `fetch_timeout`. */
export class ConversionTimeoutError extends Error {
  constructor() {
    super('converting the page took too long');
    this.name = 'ConversionTimeoutError';
  }
}

/** The worker's heap: the DOM of a 2 MiB page (the default max_bytes) takes well under it. */
const WORKER_HEAP_MB = 512;
const RECYCLE_AFTER = 100;
/** Conversions at once, daemon-wide: many agents fetching together cost at most this many heaps. */
export const MAX_CONVERSIONS = 2;

let running = 0;
const waiting: Array<() => void> = [];

/** A conversion slot, or the rejection of `expire` (time limit or abort) while waiting for one. */
function acquire(expire: Promise<never>): Promise<void> {
  if (running < MAX_CONVERSIONS) {
    running++;
    return Promise.resolve();
  }
  let wake!: () => void;
  const slot = new Promise<void>((resolve) => (wake = resolve));
  waiting.push(wake);
  return Promise.race([slot, expire]).catch((err: unknown) => {
    const at = waiting.indexOf(wake);
    // Woken meanwhile: the slot was handed over, give it back.
    if (at >= 0) waiting.splice(at, 1);
    else release();
    throw err;
  });
}

function release(): void {
  const next = waiting.shift();
  if (next) next();
  else running--;
}

const require = createRequire(import.meta.url);
/** Where the worker finds its libraries (it is evaluated code: it cannot resolve them itself). */
const LIBS = {
  linkedom: require.resolve('linkedom'),
  readability: require.resolve('@mozilla/readability'),
  turndown: require.resolve('turndown'),
  maxElements: READABILITY_MAX_ELEMENTS,
  maxDepth: READABILITY_MAX_DEPTH,
  turndownMaxDepth: TURNDOWN_MAX_DEPTH,
};

interface Converter {
  worker: Worker;
  uses: number;
}

let idle: Converter | null = null;

function take(): Converter {
  const found = idle;
  idle = null;
  if (found) {
    found.worker.ref();
    return found;
  }
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: LIBS,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  const converter = { worker, uses: 0 };
  // An idle worker that exits (it should not) is forgotten.
  worker.on('exit', () => {
    if (idle === converter) idle = null;
  });
  return converter;
}

function giveBack(c: Converter): void {
  if (idle === null && c.uses < RECYCLE_AFTER) {
    c.worker.unref();
    idle = c;
  } else void c.worker.terminate();
}

/**
 * `html` (the page at `pageUrl`) as markdown or text. Rejects with ConversionTimeoutError after
 * `timeLimitMs`, with the signal's reason when `signal` aborts, and with an Error when the worker
 * fails (its heap limit, a crash).
 */
export async function readableHtml(html: string, pageUrl: string, format: ReadableFormat, timeLimitMs: number, signal: AbortSignal): Promise<ReadablePage> {
  if (signal.aborted) throw signal.reason;
  const started = Date.now();
  let stopWaiting = () => {};
  const expire = new Promise<never>((_, reject) => {
    const timer = setTimeout(() => reject(new ConversionTimeoutError()), Math.max(0, timeLimitMs));
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    stopWaiting = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
  });
  expire.catch(() => {});
  try {
    await acquire(expire);
  } finally {
    stopWaiting();
  }
  try {
    return await convert(html, pageUrl, format, timeLimitMs - (Date.now() - started), signal);
  } finally {
    release();
  }
}

function convert(html: string, pageUrl: string, format: ReadableFormat, timeLimitMs: number, signal: AbortSignal): Promise<ReadablePage> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const c = take();
    c.uses++;
    let settled = false;
    const finish = (reuse: boolean, fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      c.worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      if (reuse) giveBack(c);
      else void c.worker.terminate();
      fn();
    };
    const onMessage = (m: { ok: true; page: ReadablePage } | { ok: false; error: string }) =>
      finish(true, () => (m.ok ? resolve({ title: m.page.title, content: String(m.page.content) }) : reject(new Error(m.error))));
    const onError = (err: Error) => finish(false, () => reject(err));
    const onExit = (code: number) => finish(false, () => reject(new Error(`the converting worker stopped (exit code ${code})`)));
    const onAbort = () => finish(false, () => reject(signal.reason));
    const timer = setTimeout(() => finish(false, () => reject(new ConversionTimeoutError())), Math.max(0, timeLimitMs));
    signal.addEventListener('abort', onAbort);
    c.worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    c.worker.postMessage({ html, pageUrl, format });
  });
}

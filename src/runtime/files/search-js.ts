/**
 * search_files without ripgrep: walk.ts lists the files (the same skips as ripgrep's), this
 * file reads them (regular files only, at most max_file_bytes, binary ones skipped) and hands them
 * in batches to a worker thread that runs the regular expression. The regex runs off the event
 * loop because a JS RegExp backtracks: a pattern such as `(a+)+$` on a long line can run for
 * minutes, and a call cannot be interrupted. The worker is terminated at the deadline (or when
 * the run is aborted), so a catastrophic pattern costs one thread for the search's time limit,
 * never the daemon. The worker's code is a plain CommonJS script evaluated by
 * `new Worker(…, {eval: true})`, the same text under dist/ and the test runner.
 */
import fs from 'node:fs';
import fsp, { type FileHandle } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { relativeTo } from './confine.js';
import { SNIFF_BYTES } from './file-io.js';
import { compilePattern, MAX_LINE_CHARS, type MatchCollector, type SearchMatch, type SearchSpec } from './search.js';
import { walk } from './walk.js';

/** Directory entries one search reads at most. */
export const MAX_VISITED = 200_000;
/** Bytes of file content handed to the worker at a time. */
const BATCH_BYTES = 4 * 1024 * 1024;

const WORKER_SOURCE = String.raw`
const { parentPort, workerData: w } = require('node:worker_threads');
const re = new RegExp(w.source, w.flags);
const decoder = new TextDecoder();
const cut = (s) => {
  if (s.endsWith('\r')) s = s.slice(0, -1);
  return s.length <= w.maxLineChars ? s : s.slice(0, w.maxLineChars) + '… [line cut at ' + w.maxLineChars + ' of ' + s.length + ' characters]';
};
parentPort.on('message', (batch) => {
  const found = [];
  let left = batch.left;
  for (const f of batch.files) {
    if (left <= 0) break;
    const lines = decoder.decode(f.bytes).split('\n');
    if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    for (let i = 0; i < lines.length && left > 0; i++) {
      const line = lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i];
      if (!re.test(line)) continue;
      const m = { path: f.path, line: i + 1, text: cut(line) };
      if (w.context > 0) {
        m.before = lines.slice(Math.max(0, i - w.context), i).map(cut);
        m.after = lines.slice(i + 1, i + 1 + w.context).map(cut);
      }
      found.push(m);
      left--;
    }
  }
  parentPort.postMessage(found);
});
`;

interface Batch {
  files: Array<{ path: string; bytes: Uint8Array }>;
  bytes: number;
}

export async function searchJs(spec: SearchSpec, collector: MatchCollector): Promise<void> {
  const { source, flags } = compilePattern(spec.pattern, spec.caseInsensitive);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { source, flags, context: spec.contextLines, maxLineChars: MAX_LINE_CHARS },
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  worker.unref();
  const ask = (batch: Batch) => runBatch(worker, batch, spec, collector);
  try {
    let batch: Batch = { files: [], bytes: 0 };
    const take = async (abs: string): Promise<boolean> => {
      const bytes = await readSearchable(abs, spec.maxFileBytes);
      if (bytes) {
        batch.files.push({ path: relativeTo(spec.root, abs), bytes });
        batch.bytes += bytes.length;
      }
      if (batch.bytes >= BATCH_BYTES) {
        const full = batch;
        batch = { files: [], bytes: 0 };
        if (!(await ask(full))) return false;
      }
      return !collector.full;
    };
    if (spec.startIsFile) await take(spec.start);
    else {
      const stop = await walk(
        { root: spec.root, start: spec.start, glob: spec.glob, includeIgnored: spec.includeIgnored, directories: false, maxVisited: MAX_VISITED, deadline: spec.deadline },
        (e) => (e.kind === 'file' ? take(e.abs) : true),
      );
      if (stop) collector.stop(stop);
    }
    if (batch.files.length > 0 && !collector.full) await ask(batch);
  } finally {
    await worker.terminate();
  }
}

/** One batch through the worker; false when the search must stop (time, abort, full). */
function runBatch(worker: Worker, batch: Batch, spec: SearchSpec, collector: MatchCollector): Promise<boolean> {
  if (spec.signal.aborted) {
    collector.stop('aborted');
    return Promise.resolve(false);
  }
  return new Promise((resolve, reject) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      spec.signal.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      resolve(ok);
    };
    const onMessage = (found: SearchMatch[]) => {
      for (const m of found) if (!collector.add(m)) break;
      done(!collector.full);
    };
    const onError = (err: Error) => {
      clearTimeout(timer);
      reject(err);
    };
    const onAbort = () => {
      collector.stop('aborted');
      done(false);
    };
    const timer = setTimeout(() => {
      collector.stop('time');
      done(false);
    }, Math.max(0, spec.deadline - performance.now()));
    worker.on('message', onMessage);
    worker.on('error', onError);
    spec.signal.addEventListener('abort', onAbort, { once: true });
    // One more than the collector can keep: a surplus match tells it there were more.
    const left = collector.room + 1;
    worker.postMessage({ files: batch.files, left }, batch.files.map((f) => f.bytes.buffer as ArrayBuffer));
  });
}

/** A regular file's bytes when it is searchable text of at most `max` bytes, else null. */
async function readSearchable(abs: string, max: number): Promise<Uint8Array | null> {
  let fh: FileHandle;
  try {
    fh = await fsp.open(abs, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOCTTY ?? 0));
  } catch {
    return null;
  }
  try {
    const st = await fh.stat();
    if (!st.isFile() || st.size > max) return null;
    const bytes = new Uint8Array(new ArrayBuffer(st.size));
    let got = 0;
    while (got < st.size) {
      const { bytesRead } = await fh.read(bytes, got, st.size - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    // Binary as ripgrep sees it: a NUL byte (here: in the first block).
    if (bytes.subarray(0, Math.min(got, SNIFF_BYTES)).includes(0)) return null;
    return got === st.size ? bytes : bytes.slice(0, got);
  } catch {
    return null;
  } finally {
    await fh.close();
  }
}

/**
 * search_files without ripgrep: walk.ts lists the files (the same skips as ripgrep's) and hands
 * their paths in batches to a worker thread, which reads each one (a regular file, opened without
 * following a symlink or blocking on a fifo, at most max_file_bytes, its descriptor's real path
 * inside the workspace on Linux; a NUL byte in its first block makes it binary and skipped) and
 * runs the regular expression over its lines. Both happen off the event loop: the reads, because
 * thousands of small reads cost the loop far more as promises than as plain calls in a thread;
 * the regex, because a JS RegExp backtracks: a pattern such as `(a+)+$` on a long line can run for
 * minutes, and a call cannot be interrupted. The worker is terminated at the deadline (or when
 * the run is aborted), so a catastrophic pattern costs one thread for the search's time limit,
 * never the daemon. The worker's code is a plain CommonJS script evaluated by
 * `new Worker(…, {eval: true})`, the same text under dist/ and the test runner.
 */
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { relativeTo } from './confine.js';
import { SNIFF_BYTES } from './file-io.js';
import { compilePattern, MAX_LINE_CHARS, type MatchCollector, type SearchMatch, type SearchSpec } from './search.js';
import { walk } from './walk.js';

/** Directory entries one search reads at most. */
export const MAX_VISITED = 200_000;
/** Files handed to the worker at a time. */
const BATCH_FILES = 256;

const WORKER_SOURCE = String.raw`
const fs = require('node:fs');
const { parentPort, workerData: w } = require('node:worker_threads');
const re = new RegExp(w.source, w.flags);
const decoder = new TextDecoder();
const C = fs.constants;
const FLAGS = C.O_RDONLY | (C.O_NOFOLLOW || 0) | (C.O_NONBLOCK || 0) | (C.O_NOCTTY || 0);
const inside = (real) => real === w.root || real.startsWith(w.root.endsWith('/') ? w.root : w.root + '/');
const cut = (s) => (s.length <= w.maxLineChars ? s : s.slice(0, w.maxLineChars) + '… [line cut at ' + w.maxLineChars + ' of ' + s.length + ' characters]');
function text(abs) {
  let fd;
  try {
    fd = fs.openSync(abs, FLAGS);
  } catch {
    return null;
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size > w.maxFileBytes) return null;
    if (w.linux && !inside(fs.readlinkSync('/proc/self/fd/' + fd))) return null;
    const buf = Buffer.allocUnsafe(st.size);
    let got = 0;
    while (got < st.size) {
      const n = fs.readSync(fd, buf, got, st.size - got, got);
      if (n === 0) break;
      got += n;
    }
    const bytes = buf.subarray(0, got);
    if (bytes.subarray(0, w.sniff).includes(0)) return null;
    return decoder.decode(bytes);
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}
parentPort.on('message', (batch) => {
  const found = [];
  let left = batch.left;
  for (const f of batch.files) {
    if (left <= 0) break;
    const t = text(f.abs);
    if (t === null) continue;
    const lines = t.split('\n');
    if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    for (let i = 0; i < lines.length && left > 0; i++) {
      const line = lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i];
      if (!re.test(line)) continue;
      const m = { path: f.rel, line: i + 1, text: cut(line) };
      if (w.context > 0) {
        const strip = (s) => cut(s.endsWith('\r') ? s.slice(0, -1) : s);
        m.before = lines.slice(Math.max(0, i - w.context), i).map(strip);
        m.after = lines.slice(i + 1, i + 1 + w.context).map(strip);
      }
      found.push(m);
      left--;
    }
  }
  parentPort.postMessage(found);
});
`;

type Batch = Array<{ abs: string; rel: string }>;

export async function searchJs(spec: SearchSpec, collector: MatchCollector): Promise<void> {
  const { source, flags } = compilePattern(spec.pattern, spec.caseInsensitive);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      source,
      flags,
      context: spec.contextLines,
      maxLineChars: MAX_LINE_CHARS,
      maxFileBytes: spec.maxFileBytes,
      sniff: SNIFF_BYTES,
      root: spec.root,
      linux: process.platform === 'linux' && fs.existsSync('/proc/self/fd'),
    },
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  worker.unref();
  // The worker answers batches in the order they were sent; null: the search was stopped.
  const waiting: Array<(found: SearchMatch[] | null) => void> = [];
  let failure: Error | null = null;
  const release = () => {
    for (const w of waiting.splice(0)) w(null);
  };
  const stop = (why: 'time' | 'aborted') => {
    collector.stop(why);
    release();
  };
  worker.on('message', (found: SearchMatch[]) => waiting.shift()?.(found));
  worker.on('error', (err) => {
    failure = err;
    release();
  });
  const timer = setTimeout(() => stop('time'), Math.max(0, spec.deadline - performance.now()));
  const onAbort = () => stop('aborted');
  spec.signal.addEventListener('abort', onAbort, { once: true });
  if (spec.signal.aborted) stop('aborted');

  /** Matches of one batch into the collector; false when the search must stop. */
  const send = (files: Batch): Promise<boolean> =>
    new Promise<SearchMatch[] | null>((resolve) => {
      if (collector.full || failure) return resolve(null);
      waiting.push(resolve);
      // One more than the collector can keep: a surplus match tells it there were more.
      worker.postMessage({ files, left: collector.room + 1 });
    }).then((found) => {
      for (const m of found ?? []) if (!collector.add(m)) break;
      return found !== null && !collector.full;
    });

  // One batch is searched while the walk gathers the next.
  let batch: Batch = [];
  let inFlight: Promise<boolean> = Promise.resolve(true);
  const dispatch = async (): Promise<boolean> => {
    const files = batch;
    batch = [];
    if (!(await inFlight)) return false;
    inFlight = send(files);
    return true;
  };
  try {
    if (spec.startIsFile) batch.push({ abs: spec.start, rel: relativeTo(spec.root, spec.start) });
    else {
      const walked = await walk(
        { root: spec.root, start: spec.start, glob: spec.glob, includeIgnored: spec.includeIgnored, directories: false, maxVisited: MAX_VISITED, deadline: spec.deadline },
        (e) => {
          if (e.kind !== 'file') return true;
          batch.push({ abs: e.abs, rel: e.rel });
          return batch.length < BATCH_FILES || dispatch();
        },
      );
      if (walked) collector.stop(walked);
    }
    if (batch.length > 0 && !collector.full) await dispatch();
    await inFlight;
    if (failure) throw failure;
  } finally {
    clearTimeout(timer);
    spec.signal.removeEventListener('abort', onAbort);
    await worker.terminate();
  }
}

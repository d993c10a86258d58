#!/usr/bin/env node
/**
 * svc benchmarks. `npm run bench` builds and runs every scenario; `node bench/run.js enqueue sse`
 * runs a subset. Each scenario starts the daemon as its own child process on a fresh temporary
 * home, so only the daemon is measured. Results: a table on stdout, bench/results/latest.json
 * (everything, with the environment) and bench/results/latest.md (the table in
 * docs/benchmarks.md#results).
 *
 * Knobs (environment): BENCH_DURATION (s per enqueue run, also --duration N), BENCH_CONNECTIONS,
 * BENCH_ROUNDS, BENCH_WARMUP, BENCH_ENQUEUE_SERIAL, BENCH_SSE_CLIENTS, BENCH_SSE_EVENTS, BENCH_SSE_BATCH,
 * BENCH_SSE_INTERVAL_MS, BENCH_SSE_WARMUP, BENCH_SSE_WORKERS, BENCH_PAGES_EVENTS, BENCH_PAGES_SMALL,
 * BENCH_PAGES_REQUESTS, BENCH_PRUNE_EVENTS, BENCH_PRUNE_KEEP, BENCH_PRUNE_BASELINE_S, BENCH_TIMERS, BENCH_TIMERS_AGENTS, BENCH_TIMERS_LEAD_MS, BENCH_TIMERS_SPREAD_MS,
 * BENCH_INBOX_WATCH_SUBS, BENCH_INBOX_WATCH_APPENDS, BENCH_INBOX_APPEND_SMALL, BENCH_INBOX_APPEND_MEDIUM,
 * BENCH_INBOX_APPEND_BIG, BENCH_INBOX_APPEND_REQUESTS, BENCH_INBOX_JS_ROUNDS, BENCH_INBOX_JS_APPENDS, BENCH_INBOX_JS_INGEST,
 * BENCH_INBOX_JS_WATCH_APPENDS, BENCH_CHILDREN, BENCH_CHILDREN_LATENCY_SAMPLES, BENCH_DIGEST_ENTRIES,
 * BENCH_DIGEST_SAMPLES, BENCH_DISK_MESSAGES, BENCH_DISK_BYTES, BENCH_FILES_TREE, BENCH_FILES_SEARCHES, BENCH_FILES_TURNS,
 * BENCH_MCP_CALLS, BENCH_MCP_BATCHES, BENCH_RECALL_TEXTS, BENCH_RECALL_QUERIES, BENCH_RECALL_ENQUEUES, BENCH_RECALL_ROUNDS,
 * BENCH_TMPDIR. See bench/README.md.
 *
 * Exit code 1 when a scenario fails to run or a correctness check fails (non-2xx, lost or
 * reordered frames); a missed performance goal is reported, not fatal, because the machine is noisy.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { consoleTable, markdown } from './lib/report.js';
import { benchTreeSeconds, machineBusySeconds, ROOT } from './lib/processes.js';
import * as children from './scenarios/children.js';
import * as digest from './scenarios/digest.js';
import * as context from './scenarios/context.js';
import * as disk from './scenarios/disk.js';
import * as enqueue from './scenarios/enqueue.js';
import * as files from './scenarios/files.js';
import * as inboxAppend from './scenarios/inbox-append.js';
import * as inboxJetstream from './scenarios/inbox-jetstream.js';
import * as inboxWatch from './scenarios/inbox-watch.js';
import * as mcp from './scenarios/mcp.js';
import * as memory from './scenarios/memory.js';
import * as pages from './scenarios/pages.js';
import * as prune from './scenarios/prune.js';
import * as recall from './scenarios/recall.js';
import * as sandbox from './scenarios/sandbox.js';
import * as policy from './scenarios/policy.js';
import * as sse from './scenarios/sse.js';
import * as timers from './scenarios/timers.js';
import * as turns from './scenarios/turns.js';

const SCENARIOS = { enqueue, sse, pages, prune, memory, timers, turns, children, 'inbox-append': inboxAppend, 'inbox-watch': inboxWatch, 'inbox-jetstream': inboxJetstream, digest, disk, sandbox, policy, files, mcp, context, recall };
const RESULTS_DIR = path.join(ROOT, 'bench', 'results');

function parseArgs(argv) {
  const names = [];
  let duration;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--duration') duration = argv[++i];
    else if (a.startsWith('--duration=')) duration = a.slice('--duration='.length);
    else if (a === '--help' || a === '-h') {
      process.stdout.write(`usage: node bench/run.js [--duration S] [${Object.keys(SCENARIOS).join('|')} ...]\n`);
      process.exit(0);
    } else if (a in SCENARIOS) names.push(a);
    else throw new Error(`unknown scenario or flag ${JSON.stringify(a)}; scenarios: ${Object.keys(SCENARIOS).join(', ')}`);
  }
  return { names: names.length ? [...new Set(names)] : Object.keys(SCENARIOS), duration };
}

function numberFrom(name, fallback, value = process.env[name]) {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got ${JSON.stringify(value)}`);
  return n;
}

function options(args) {
  const cpus = os.cpus().length;
  return {
    cpus,
    log: (line) => process.stderr.write(`${line}\n`),
    enqueue: {
      duration: numberFrom('BENCH_DURATION', 10, args.duration),
      connections: numberFrom('BENCH_CONNECTIONS', 50),
      rounds: numberFrom('BENCH_ROUNDS', 2),
      warmup: numberFrom('BENCH_WARMUP', 2),
      serial: numberFrom('BENCH_ENQUEUE_SERIAL', 2000),
    },
    sse: {
      clients: numberFrom('BENCH_SSE_CLIENTS', 1000),
      events: numberFrom('BENCH_SSE_EVENTS', 1000),
      warmup: numberFrom('BENCH_SSE_WARMUP', 100),
      batch: numberFrom('BENCH_SSE_BATCH', 5),
      intervalMs: numberFrom('BENCH_SSE_INTERVAL_MS', 100),
      workers: numberFrom('BENCH_SSE_WORKERS', 2),
    },
    pages: {
      bigEvents: numberFrom('BENCH_PAGES_EVENTS', 1_000_000),
      smallEvents: numberFrom('BENCH_PAGES_SMALL', 10_000),
      requests: numberFrom('BENCH_PAGES_REQUESTS', 2000),
      warmup: 200,
    },
    prune: {
      events: numberFrom('BENCH_PRUNE_EVENTS', 1_000_000),
      keep: numberFrom('BENCH_PRUNE_KEEP', 1000),
      baselineSeconds: numberFrom('BENCH_PRUNE_BASELINE_S', 5),
    },
    turns: {
      duration: numberFrom('BENCH_DURATION', 5, args.duration),
      connections: numberFrom('BENCH_CONNECTIONS', 50),
      latencySamples: numberFrom('BENCH_TURNS_LATENCY_SAMPLES', 200),
    },
    children: {
      samples: numberFrom('BENCH_CHILDREN_LATENCY_SAMPLES', 50),
      children: numberFrom('BENCH_CHILDREN', 20),
    },
    timers: {
      count: numberFrom('BENCH_TIMERS', 10_000),
      agents: numberFrom('BENCH_TIMERS_AGENTS', 4),
      leadMs: numberFrom('BENCH_TIMERS_LEAD_MS', 8000),
      spreadMs: numberFrom('BENCH_TIMERS_SPREAD_MS', 15_000),
    },
    inboxAppend: {
      sizes: [numberFrom('BENCH_INBOX_APPEND_SMALL', 10_000), numberFrom('BENCH_INBOX_APPEND_MEDIUM', 100_000), numberFrom('BENCH_INBOX_APPEND_BIG', 1_000_000)],
      appends: numberFrom('BENCH_INBOX_APPEND_REQUESTS', 2000),
      warmup: 200,
    },
    inboxJetstream: {
      rounds: numberFrom('BENCH_INBOX_JS_ROUNDS', 5),
      appends: numberFrom('BENCH_INBOX_JS_APPENDS', 200),
      warmup: 50,
      ingest: numberFrom('BENCH_INBOX_JS_INGEST', 50_000),
      watchAppends: numberFrom('BENCH_INBOX_JS_WATCH_APPENDS', 300),
      watchWarmup: 30,
    },
    digest: {
      big: numberFrom('BENCH_DIGEST_ENTRIES', 100_000),
      small: 1000,
      samples: numberFrom('BENCH_DIGEST_SAMPLES', 30),
      baselineSamples: 5,
      warmup: 3,
    },
    inboxWatch: {
      subscriptions: numberFrom('BENCH_INBOX_WATCH_SUBS', 100),
      appends: numberFrom('BENCH_INBOX_WATCH_APPENDS', 1000),
      warmup: 100,
    },
    disk: {
      messages: numberFrom('BENCH_DISK_MESSAGES', 200),
      bytes: numberFrom('BENCH_DISK_BYTES', 16_384),
    },
    sandbox: {
      spawns: numberFrom('BENCH_SANDBOX_SPAWNS', 300),
      tasks: numberFrom('BENCH_SANDBOX_TASKS', 100),
    },
    policy: {
      calls: numberFrom('BENCH_POLICY_CALLS', 2000),
      batches: numberFrom('BENCH_POLICY_BATCHES', 10),
    },
    files: {
      files: numberFrom('BENCH_FILES_TREE', 10_000),
      searches: numberFrom('BENCH_FILES_SEARCHES', 20),
      turns: numberFrom('BENCH_FILES_TURNS', 100),
    },
    mcp: {
      calls: numberFrom('BENCH_MCP_CALLS', 500),
      batches: numberFrom('BENCH_MCP_BATCHES', 10),
    },
    context: {
      sizes: [100, 10_000, numberFrom('BENCH_CONTEXT_ENTRIES', 100_000)],
      samples: numberFrom('BENCH_CONTEXT_SAMPLES', 300),
      chars: 800,
      warmup: 20,
    },
    recall: {
      texts: numberFrom('BENCH_RECALL_TEXTS', 1_000_000),
      queries: numberFrom('BENCH_RECALL_QUERIES', 200),
      enqueues: numberFrom('BENCH_RECALL_ENQUEUES', 5000),
      rounds: numberFrom('BENCH_RECALL_ROUNDS', 4),
      batch: 50,
    },
  };
}

function environment(opts, names) {
  const tmp = process.env.BENCH_TMPDIR || os.tmpdir();
  return {
    node: process.version,
    v8: process.versions.v8,
    cpus: opts.cpus,
    cpu_model: os.cpus()[0]?.model.trim() ?? 'unknown',
    platform: process.platform,
    os_release: os.release(),
    total_memory_bytes: os.totalmem(),
    tmp_dir: tmp,
    tmp_fs: filesystemOf(tmp),
    commit: gitCommit(),
    date: new Date().toISOString(),
    scenarios: names,
    options: { enqueue: opts.enqueue, sse: opts.sse, pages: opts.pages, prune: opts.prune, timers: opts.timers, inboxWatch: opts.inboxWatch, inboxAppend: opts.inboxAppend, inboxJetstream: opts.inboxJetstream, digest: opts.digest, children: opts.children, disk: opts.disk, sandbox: opts.sandbox, policy: opts.policy, files: opts.files, mcp: opts.mcp, context: opts.context, recall: opts.recall },
  };
}

/** The temp home's filesystem matters: synchronous=FULL fsyncs for real on ext4, not on tmpfs. */
function filesystemOf(dir) {
  const names = { 0xef53: 'ext4', 0x01021994: 'tmpfs', 0x9123683e: 'btrfs', 0x58465342: 'xfs', 0x794c7630: 'overlayfs', 0x2fc12fc1: 'zfs' };
  try {
    const type = fs.statfsSync(dir).type;
    return names[type] ?? `fs 0x${type.toString(16)}`;
  } catch {
    return 'unknown fs';
  }
}

function gitCommit() {
  try {
    const git = (...a) => execFileSync('git', a, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = git('status', '--porcelain', '--', 'src', 'bin', 'package.json') !== '';
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? '+dirty' : ''}`;
  } catch {
    return 'unknown';
  }
}

/** Write through a temporary file so a crashed run never leaves a half-written result. */
function writeAtomic(file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.tmp`, text);
  fs.renameSync(`${file}.tmp`, file);
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const opts = options(args);
  const env = environment(opts, args.names);
  const started = Date.now();
  const results = {};
  let failed = false;
  for (const name of args.names) {
    opts.log(`== ${name}`);
    const t0 = Date.now();
    const machine0 = machineBusySeconds();
    const ours0 = benchTreeSeconds();
    try {
      results[name] = await SCENARIOS[name].run(opts);
    } catch (err) {
      results[name] = { error: err.message, rows: [], failures: [err.message] };
      opts.log(err.stack);
    }
    const seconds = (Date.now() - t0) / 1000;
    results[name].seconds = seconds;
    // CPU the rest of the machine used meanwhile: the noise these numbers were taken under.
    const foreign = Math.max(0, machineBusySeconds() - machine0 - (benchTreeSeconds() - ours0));
    results[name].foreign_cpu_share = foreign / (seconds * opts.cpus);
    for (const f of results[name].failures) {
      failed = true;
      opts.log(`  FAILED: ${f}`);
    }
  }
  env.total_seconds = (Date.now() - started) / 1000;

  process.stdout.write(`\n${consoleTable(env, results)}`);
  writeAtomic(path.join(RESULTS_DIR, 'latest.json'), `${JSON.stringify({ environment: env, results }, null, 2)}\n`);
  writeAtomic(path.join(RESULTS_DIR, 'latest.md'), markdown(env, results));
  process.stdout.write(`\nwritten: bench/results/latest.json, bench/results/latest.md (${env.total_seconds.toFixed(0)} s)\n`);
  process.exitCode = failed ? 1 : 0;
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});

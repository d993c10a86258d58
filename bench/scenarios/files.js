/**
 * The workspace file tools (docs/tools.md#files), each beside a baseline of the same run:
 * - search: `search_files` over a generated tree of N text files (plus a .gitignore'd directory
 *   it must skip), through FileService in one process (built output: createServices), with the
 *   ripgrep engine and with the JS engine (walk + regex in a worker), beside the very `rg --json`
 *   command svc runs, spawned directly (the baseline). Samples alternate engine by engine.
 *   Correctness: all three find the same matches.
 * - a turn with a tool: a daemon and a scripted model (servers/scripted-model.js) that answers at
 *   once; prompt → `turn_completed` (SSE) for a turn of one round without tools (baseline), a turn
 *   whose model calls `read_task_output` of a missing task (a cheap tool, then a second round),
 *   and one whose model calls `read_file` of a 10 KB file; alternating sample by sample.
 *   Correctness: every turn completes with the expected rounds, every read_file result reached
 *   the model with the file's text.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { eventFrames, request, sleep } from '../lib/http.js';
import { BRAKE_OFF, removeHome, ROOT, RETENTION_OFF, startDaemon, startScriptedModel, tempHome } from '../lib/processes.js';
import { ms, nowNs, ratio, summary } from '../lib/stats.js';

const PATTERN = 'needle_marker';

export async function run(opts) {
  const { files, searches, turns } = opts.files;
  const failures = [];
  const search = await searchPart(opts, files, searches, failures);
  const round = await turnPart(opts, turns, failures);
  const r = (a, b) => ratio(a / b);
  return {
    params: `${files} files (${search.bytes} bytes, ${search.expected} matches), ${searches} searches per engine after 3 warm-ups; ${turns} turns per variant`,
    rows: [
      { measure: 'search: `rg --json` spawned directly (baseline), p50 / p99', result: `${ms(search.direct.p50)} / ${ms(search.direct.p99)}` },
      { measure: 'search_files, ripgrep engine, p50 / p99 (/ baseline p50)', result: `${ms(search.rg.p50)} / ${ms(search.rg.p99)} (${r(search.rg.p50, search.direct.p50)})` },
      { measure: 'search_files, JS engine, p50 / p99 (/ baseline p50)', result: `${ms(search.js.p50)} / ${ms(search.js.p99)} (${r(search.js.p50, search.direct.p50)})` },
      { measure: 'one tool call in process: read_task_output of a missing task (baseline) · read_file of 10 KB, µs', result: `${search.call.cheap.toFixed(1)} · ${search.call.read.toFixed(1)} (${r(search.call.read, search.call.cheap)})` },
      { measure: 'turn without tools, prompt → turn_completed p50 / p99 (baseline)', result: `${ms(round.plain.p50)} / ${ms(round.plain.p99)}` },
      { measure: 'turn with one read_task_output call (two rounds) p50 / p99 (/ baseline)', result: `${ms(round.cheap.p50)} / ${ms(round.cheap.p99)} (${r(round.cheap.p50, round.plain.p50)})` },
      { measure: 'turn with one read_file call of 10 KB (two rounds) p50 / p99 (/ baseline; / the cheap tool)', result: `${ms(round.read.p50)} / ${ms(round.read.p99)} (${r(round.read.p50, round.plain.p50)}; ${r(round.read.p50, round.cheap.p50)})` },
    ],
    data: { search, round },
    failures,
  };
}

/** A tree of `count` files (100 per directory, 40 lines each), PATTERN in one file of 500. */
function makeTree(dir, count) {
  let bytes = 0;
  let expected = 0;
  for (let i = 0; i < count; i++) {
    const sub = path.join(dir, 'src', `d${String(Math.floor(i / 100)).padStart(3, '0')}`);
    if (i % 100 === 0) fs.mkdirSync(sub, { recursive: true });
    const lines = Array.from({ length: 40 }, (_, l) => `export const value_${i}_${l} = compute(${l}, 'some text to search through');`);
    if (i % 500 === 0) {
      lines[20] = `export const ${PATTERN} = ${i};`;
      expected++;
    }
    const text = `${lines.join('\n')}\n`;
    bytes += text.length;
    fs.writeFileSync(path.join(sub, `f${i}.ts`), text);
  }
  // An ignored directory with the pattern in every file: searched by neither engine.
  fs.writeFileSync(path.join(dir, '.gitignore'), 'build/\n');
  fs.mkdirSync(path.join(dir, 'build'));
  for (let i = 0; i < 200; i++) fs.writeFileSync(path.join(dir, 'build', `b${i}.js`), `${PATTERN}\n`);
  return { bytes, expected };
}

async function searchPart(opts, count, samples, failures) {
  const { loadConfig } = await import(pathToFileURL(path.join(ROOT, 'dist/config/index.js')).href);
  const { createServices } = await import(pathToFileURL(path.join(ROOT, 'dist/services.js')).href);
  const { systemClock } = await import(pathToFileURL(path.join(ROOT, 'dist/core/index.js')).href);
  const { FileService } = await import(pathToFileURL(path.join(ROOT, 'dist/runtime/files/index.js')).href);
  const { default: pino } = await import('pino');
  const home = tempHome();
  const s = createServices(loadConfig({ home }, {}), systemClock, pino({ level: 'silent' }));
  try {
    s.agents.ensureDefault();
    const tree = path.join(home, 'tree');
    fs.mkdirSync(tree);
    const { bytes, expected } = makeTree(tree, count);
    s.workspaces.attach('main', fs.realpathSync(tree), 'operator_instruction');
    const engines = { rg: new FileService(s, { searchEngine: 'rg' }), js: new FileService(s, { searchEngine: 'js' }) };
    const args = { pattern: PATTERN, max_matches: 500 };
    const signal = new AbortController().signal;
    const ways = {
      direct: async () => rgDirect(tree),
      rg: async () => (await engines.rg.search('main', args, signal)).matches.length,
      js: async () => (await engines.js.search('main', args, signal)).matches.length,
    };
    const times = { direct: [], rg: [], js: [] };
    opts.log(`  search: ${count} files, ${(bytes / 1024 / 1024).toFixed(1)} MiB, ${expected} matches expected`);
    for (let i = 0; i < samples + 3; i++) {
      for (const [name, fn] of Object.entries(ways)) {
        const t0 = nowNs();
        const found = await fn();
        if (i >= 3) times[name].push((nowNs() - t0) / 1e6);
        if (found !== expected) failures.push(`${name} found ${found} matches, not ${expected}`);
      }
    }
    const out = { bytes, expected, direct: summary(times.direct), rg: summary(times.rg), js: summary(times.js), call: await toolCalls(s, tree, failures) };
    opts.log(`  rg direct p50 ${ms(out.direct.p50)} · svc rg ${ms(out.rg.p50)} (${ratio(out.rg.p50 / out.direct.p50)}) · svc js ${ms(out.js.p50)} (${ratio(out.js.p50 / out.direct.p50)})`);
    opts.log(`  one call in process: read_task_output ${out.call.cheap.toFixed(1)} µs · read_file of 10 KB ${out.call.read.toFixed(1)} µs`);
    return out;
  } finally {
    s.store.close();
    removeHome(home);
  }
}

/**
 * The tool call alone, in process (what the run loop's `execute` costs, without a model round):
 * `read_file` of a 10 KB file beside `read_task_output` of a missing task, alternating batches.
 */
async function toolCalls(s, tree, failures) {
  fs.writeFileSync(path.join(tree, 'bench.txt'), Array.from({ length: 200 }, (_, i) => `bench line ${i + 1}: ${'x'.repeat(40)}\n`).join(''));
  const tool = (name) => s.tools.find((t) => t.name === name);
  const ctx = { agentId: 'main', turnId: 'turn_bench', messageId: 'msg_bench', signal: new AbortController().signal, trust: 'trusted_operator', network: false };
  const calls = {
    cheap: async () => (await tool('read_task_output').execute(ctx, { task_id: 'task_missing' })).data?.code === 'task_not_found',
    read: async () => (await tool('read_file').execute(ctx, { path: 'bench.txt' })).data?.end_line === 200,
  };
  const ns = { cheap: 0, read: 0 };
  const per = 200;
  for (let b = 0; b < 12; b++) {
    for (const [name, fn] of Object.entries(calls)) {
      const t0 = nowNs();
      for (let i = 0; i < per; i++) if (!(await fn())) failures.push(`${name}: unexpected outcome`);
      if (b >= 2) ns[name] += nowNs() - t0;
    }
  }
  return { cheap: ns.cheap / (10 * per) / 1000, read: ns.read / (10 * per) / 1000 };
}

/** The command search-rg.ts runs, run directly; the number of matches it reports. */
function rgDirect(cwd) {
  const args = ['--json', '--no-config', '--hidden', '--no-require-git', '--no-ignore-dot', '--no-ignore-exclude', '--no-ignore-global'];
  args.push('--max-filesize', String(8 * 1024 * 1024), '--glob', '!.git', '--regexp', PATTERN, '--', '.');
  return new Promise((resolve, reject) => {
    execFile('rg', args, { cwd, maxBuffer: 64 * 1024 * 1024 }, (err, stdout) => {
      if (err && err.code !== 1) return reject(err);
      let n = 0;
      for (const line of stdout.split('\n')) if (line.startsWith('{"type":"match"')) n++;
      resolve(n);
    });
  });
}

async function turnPart(opts, samples, failures) {
  const model = await startScriptedModel();
  const config = `${RETENTION_OFF}${BRAKE_OFF}[model]\ndefault = "bench/m"\n\n[providers.bench]\nkind = "openai"\nbase_url = "${model.base}/v1"\napi_key_env = ""\nmodels = ["m"]\n`;
  const svc = await startDaemon(tempHome(config));
  const done = new Map(); // message_id -> { at, rounds }
  const stream = await eventFrames(svc.base, '/api/agents/main/events/stream', (type, data, at) => {
    if (type === 'turn_completed') done.set(data.payload.message_id, { at, rounds: data.payload.rounds });
  });
  try {
    const agentHome = path.join(svc.home, 'agents', 'main');
    fs.mkdirSync(agentHome, { recursive: true });
    fs.writeFileSync(path.join(agentHome, 'bench.txt'), Array.from({ length: 200 }, (_, i) => `bench line ${i + 1}: ${'x'.repeat(40)}\n`).join(''));
    await sleep(100);
    const variants = { plain: ['hello', 1], cheap: ['BENCH_CHEAP', 2], read: ['BENCH_READ', 2] };
    const times = { plain: [], cheap: [], read: [] };
    for (let i = 0; i < samples + 5; i++) {
      for (const [name, [text, rounds]] of Object.entries(variants)) {
        const t0 = nowNs();
        const res = await request(svc.base, 'POST', '/api/control/agents/main/prompt', { json: { text: `${text} ${i}` } });
        if (res.status !== 202) throw new Error(`prompt answered ${res.status}`);
        const id = res.body.message_id;
        const deadline = Date.now() + 10_000;
        while (!done.has(id)) {
          if (Date.now() > deadline) throw new Error(`no turn_completed for ${id} within 10 s`);
          await sleep(0);
        }
        const d = done.get(id);
        if (d.rounds !== rounds) failures.push(`${name} turn took ${d.rounds} rounds, not ${rounds}`);
        if (i >= 5) times[name].push((d.at - t0) / 1e6);
      }
    }
    const stats = (await request(model.base, 'GET', '/stats')).body;
    if (stats.reads_ok !== samples + 5 || stats.reads_bad !== 0) failures.push(`read_file results: ${stats.reads_ok} ok, ${stats.reads_bad} without the file's text`);
    const out = { plain: summary(times.plain), cheap: summary(times.cheap), read: summary(times.read) };
    opts.log(`  turn p50: no tools ${ms(out.plain.p50)} · read_task_output ${ms(out.cheap.p50)} · read_file ${ms(out.read.p50)} (${ratio(out.read.p50 / out.plain.p50)} of no tools)`);
    return out;
  } finally {
    stream.close();
    await svc.stop();
    await model.stop();
    removeHome(svc.home);
  }
}

/**
 * What the command sandbox costs a task's start (docs/security.md#command-sandbox), each beside its
 * baseline in the same run, alternating sample by sample so both meet the same load:
 * - spawn: `/bin/sh -c true` spawned and awaited to its exit, plain, and wrapped in svc's own bwrap
 *   command line (built output: `Sandbox.wrap`, a workspace in a temporary home), N times each;
 * - tasks: `POST …/tasks {cmd: "true"}` then the blocking output read until it answers `completed`,
 *   one task at a time, on a daemon with `[tasks] sandbox = "off"` and one with `"required"`.
 * Correctness: every spawn exits 0, every task completes, and the sandboxed daemon's tasks say
 * `sandboxed: true` (the plain one's false). Skipped (a failure) where bubblewrap cannot make a sandbox.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expectJson } from '../lib/http.js';
import { removeHome, ROOT, startDaemon, tempHome } from '../lib/processes.js';
import { ms, nowNs, ratio, summary } from '../lib/stats.js';

export async function run(opts) {
  const { spawns, tasks } = opts.sandbox;
  const { Sandbox, probeBwrap } = await import(pathToFileURL(path.join(ROOT, 'dist/runtime/tasks/processes/sandbox.js')).href);
  const probe = probeBwrap();
  if (probe.error) return { params: 'no usable bubblewrap', rows: [], data: { probe }, failures: [`sandbox: ${probe.error}`] };
  const failures = [];

  const home = tempHome();
  const root = path.join(home, 'agents', 'main');
  fs.mkdirSync(root, { recursive: true });
  const wrapper = new Sandbox('required').wrap({ home, root, workdir: root, network: false, tty: false, masks: [] });
  const plain = [];
  const boxed = [];
  try {
    for (let i = 0; i < spawns + 10; i++) {
      const a = await timed('/bin/sh', ['-c', 'true'], root, failures);
      const b = await timed(wrapper.file, [...wrapper.args, '/bin/sh', '-c', 'true'], root, failures);
      if (i >= 10) plain.push(a), boxed.push(b); // the first 10 of each warm the caches
    }
  } finally {
    removeHome(home);
  }
  const spawn = { plain: summary(plain), sandboxed: summary(boxed) };
  opts.log(`  spawn → exit p50: plain ${ms(spawn.plain.p50)} · sandboxed ${ms(spawn.sandboxed.p50)} (${ratio(spawn.sandboxed.p50 / spawn.plain.p50)})`);

  const off = await startDaemon(tempHome('[tasks]\nsandbox = "off"\n'));
  const on = await startDaemon(tempHome('[tasks]\nsandbox = "required"\n'));
  const task = { off: [], on: [] };
  try {
    for (let i = 0; i < tasks + 5; i++) {
      for (const [name, d] of [['off', off], ['on', on]]) {
        const t0 = nowNs();
        const created = await expectJson(d.base, 'POST', '/api/control/agents/main/tasks', 201, { json: { cmd: 'true', network: false } });
        const out = await expectJson(d.base, 'GET', `/api/agents/main/tasks/${created.task_id}/output?block=true&timeout_ms=10000`, 200);
        const took = (nowNs() - t0) / 1e6;
        if (out.task.status !== 'completed') failures.push(`${name}: task ${created.task_id} ${out.task.status}`);
        if (created.command.sandboxed !== (name === 'on')) failures.push(`${name}: task ${created.task_id} sandboxed ${created.command.sandboxed}`);
        if (i >= 5) task[name].push(took);
      }
    }
  } finally {
    for (const d of [off, on]) {
      await d.stop();
      removeHome(d.home);
    }
  }
  const t = { plain: summary(task.off), sandboxed: summary(task.on) };
  opts.log(`  task create → completed p50: off ${ms(t.plain.p50)} · sandboxed ${ms(t.sandboxed.p50)} (${ratio(t.sandboxed.p50 / t.plain.p50)})`);
  return {
    params: `bubblewrap ${probe.version}, ${spawns} spawns of \`sh -c true\` each way, ${tasks} tasks \`true\` each way, one at a time`,
    rows: [
      { measure: 'baseline: spawn `sh -c true` → exit p50 / p99', result: `${ms(spawn.plain.p50)} / ${ms(spawn.plain.p99)}` },
      { measure: 'sandboxed (env + bwrap + env) → exit p50 / p99', result: `${ms(spawn.sandboxed.p50)} / ${ms(spawn.sandboxed.p99)}` },
      { measure: 'sandboxed / plain spawn (p50)', result: ratio(spawn.sandboxed.p50 / spawn.plain.p50) },
      { measure: 'baseline: task `true` create → completed, sandbox off, p50 / p99', result: `${ms(t.plain.p50)} / ${ms(t.plain.p99)}` },
      { measure: 'task `true` create → completed, sandboxed, p50 / p99', result: `${ms(t.sandboxed.p50)} / ${ms(t.sandboxed.p99)}` },
      { measure: 'sandboxed / plain task (p50)', result: ratio(t.sandboxed.p50 / t.plain.p50) },
    ],
    data: { spawn, tasks: t, bwrap: probe },
    failures,
  };
}

/** ms from spawn to exit; a non-zero exit is a failure. */
function timed(file, args, cwd, failures) {
  return new Promise((resolve) => {
    const t0 = nowNs();
    const child = spawn(file, args, { cwd, stdio: 'ignore', env: { PATH: process.env.PATH } });
    child.once('error', (err) => failures.push(`${file}: ${err.message}`));
    child.once('exit', (code, signal) => {
      if (code !== 0) failures.push(`${path.basename(file)} exited ${code ?? signal}`);
      resolve((nowNs() - t0) / 1e6);
    });
  });
}

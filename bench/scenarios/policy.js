/**
 * What the tool policy costs a tool call (docs/security.md#tool-policy), beside its baseline in
 * the same run, alternating batch by batch so both meet the same load: in one process over a
 * temporary home (built output: createServices), a cheap tool call (`read_task_output` of a task
 * that does not exist: argument check, one lookup, an error outcome) alone, and the same call
 * preceded by the policy's decision for it (agent layer with 8 rules none of which matches, then
 * the class table at trust trusted_integration: `allow`). Correctness: every decision is `allow`
 * and every call answers `task_not_found`.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { removeHome, ROOT, tempHome } from '../lib/processes.js';
import { nowNs, ratio } from '../lib/stats.js';

export async function run(opts) {
  const { calls, batches } = opts.policy;
  const { loadConfig } = await import(pathToFileURL(path.join(ROOT, 'dist/config/index.js')).href);
  const { createServices } = await import(pathToFileURL(path.join(ROOT, 'dist/services.js')).href);
  const { systemClock } = await import(pathToFileURL(path.join(ROOT, 'dist/core/index.js')).href);
  const { default: pino } = await import('pino');
  const home = tempHome();
  const s = createServices(loadConfig({ home }, {}), systemClock, pino({ level: 'silent' }));
  const failures = [];
  try {
    s.agents.ensureDefault();
    const rules = Array.from({ length: 8 }, (_, i) => ({ tool: 'run_command', arguments: { cmd: `make target-${i}*` }, decision: 'allow' }));
    await s.store.write(() => s.policy.patchAgent('main', { rules }));
    const tool = s.tools.find((t) => t.name === 'read_task_output');
    const ctx = { agentId: 'main', turnId: 'turn_bench', messageId: 'msg_bench', signal: new AbortController().signal, trust: 'trusted_integration', network: false };
    const args = { task_id: 'task_missing' };
    const plain = async () => check(await tool.execute(ctx, args), failures);
    const gated = async () => {
      const verdict = s.policy.decide('main', { tool: tool.name, classes: [tool.class], arguments: args }, 'trusted_integration');
      if (verdict.decision !== 'allow') failures.push(`decision ${verdict.decision}`);
      check(await tool.execute(ctx, args), failures);
    };
    const ns = { plain: 0, gated: 0 };
    for (let b = 0; b < batches + 2; b++) {
      for (const [name, fn] of [['plain', plain], ['gated', gated]]) {
        const t0 = nowNs();
        for (let i = 0; i < calls; i++) await fn();
        if (b >= 2) ns[name] += nowNs() - t0; // two batches warm up
      }
    }
    const n = calls * batches;
    const per = { plain: ns.plain / n / 1000, gated: ns.gated / n / 1000 };
    opts.log(`  tool call: plain ${per.plain.toFixed(2)} µs · with the policy ${per.gated.toFixed(2)} µs (${ratio(per.gated / per.plain)})`);
    return {
      params: `${batches} batches of ${calls} calls each way, 8 agent rules that do not match, trust trusted_integration`,
      rows: [
        { measure: 'baseline: a cheap tool call (read_task_output, not found), µs per call', result: per.plain.toFixed(2) },
        { measure: 'the same call after the policy decision (allow), µs per call', result: per.gated.toFixed(2) },
        { measure: 'with policy / without', result: ratio(per.gated / per.plain) },
        { measure: 'the decision alone, µs per call', result: (per.gated - per.plain).toFixed(2) },
      ],
      data: per,
      failures,
    };
  } finally {
    s.store.close();
    removeHome(home);
  }
}

function check(outcome, failures) {
  if (outcome.ok || outcome.data?.code !== 'task_not_found') failures.push(`unexpected outcome ${outcome.content.slice(0, 80)}`);
}

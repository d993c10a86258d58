/**
 * What svc adds to an MCP tool call (docs/tools.md#mcp-servers), beside its baseline in the same
 * run, alternating call by call so both meet the same load: in one process (built output), the
 * fixture server's `echo` called N times one after another through svc's adapter (McpService's
 * tool `bench__echo`: argument check, svc's own stdio transport and process group, the call with
 * its time limit, the result as text), and the same call made directly with the SDK's Client over
 * the SDK's StdioClientTransport to other processes of the same server: one started in a session of
 * its own (setsid), as svc starts a server so as to end its whole group, and one in the caller's
 * session, as the SDK starts it. The session matters on a busy Linux machine: with autogroup
 * scheduling each session is a scheduling group of its own. Correctness: every answer is the text sent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { removeHome, ROOT, tempHome } from '../lib/processes.js';
import { halfSpread, mean, nowNs, ratio, summary } from '../lib/stats.js';

const FIXTURE = path.join(ROOT, 'test', 'integration', 'fixtures', 'mcp-echo-server.mjs');

export async function run(opts) {
  const { calls, batches } = opts.mcp;
  const dist = (p) => import(pathToFileURL(path.join(ROOT, 'dist', p)).href);
  const { loadConfig } = await dist('config/index.js');
  const { systemClock } = await dist('core/index.js');
  const { CredentialStore } = await dist('store/index.js');
  const { McpService } = await dist('runtime/mcp/index.js');
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const { default: pino } = await import('pino');

  const home = tempHome();
  fs.writeFileSync(path.join(home, 'config.toml'), `[mcp.servers.bench]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(FIXTURE)}]\n`);
  const mcp = new McpService({
    config: loadConfig({ home }, {}),
    clock: systemClock,
    logger: pino({ level: 'silent' }),
    credentials: new CredentialStore(home),
    agents: { find: () => ({ template: null }) },
  });
  mcp.start();
  const client = new Client({ name: 'bench', version: '1.0.0' });
  const detachedClient = new Client({ name: 'bench', version: '1.0.0' });
  const failures = [];
  try {
    const tool = (await mcp.toolsFor('main')).find((t) => t.name === 'bench__echo');
    if (!tool) throw new Error(`bench__echo is not offered: ${JSON.stringify(mcp.get('bench'))}`);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [FIXTURE], stderr: 'ignore' }));
    // The same, its server in a session of its own as svc starts one (setsid(1) execs it there).
    await detachedClient.connect(new StdioClientTransport({ command: 'setsid', args: [process.execPath, FIXTURE], stderr: 'ignore' }));
    const ctx = { agentId: 'main', turnId: 'turn_bench', messageId: 'msg_bench', signal: new AbortController().signal, trust: 'trusted_operator', network: false };
    const viaSvc = async (text) => {
      const out = await tool.execute(ctx, { text });
      if (!out.ok || out.content !== text) failures.push(`svc: ${out.content.slice(0, 80)}`);
    };
    const directWith = (c) => async (text) => {
      const res = await c.callTool({ name: 'echo', arguments: { text } });
      if (res.content?.[0]?.text !== text) failures.push(`direct: ${JSON.stringify(res).slice(0, 80)}`);
    };
    // Call by call, in rotating order: every side meets the same moments of a noisy machine.
    const fns = { direct: directWith(client), detached: directWith(detachedClient), svc: viaSvc };
    const names = Object.keys(fns);
    const samples = Object.fromEntries(names.map((k) => [k, []]));
    const cpu = Object.fromEntries(names.map((k) => [k, 0]));
    const ratios = { direct: [], detached: [] };
    for (let b = 0; b < batches + 2; b++) {
      const sum = Object.fromEntries(names.map((k) => [k, 0]));
      for (let i = 0; i < calls; i++) {
        for (let j = 0; j < names.length; j++) {
          const name = names[(i + j) % names.length];
          const c0 = process.cpuUsage();
          const t0 = nowNs();
          await fns[name](`call ${b}.${i}`);
          const took = nowNs() - t0;
          const c = process.cpuUsage(c0);
          if (b < 2) continue; // two batches warm up
          samples[name].push(took / 1000);
          sum[name] += took;
          cpu[name] += c.user + c.system;
        }
      }
      if (b >= 2) for (const base of ['direct', 'detached']) ratios[base].push(sum.svc / sum[base]);
    }
    const s = Object.fromEntries(names.map((k) => [k, summary(samples[k])]));
    const r = { direct: mean(ratios.direct), detached: mean(ratios.detached) };
    const n = calls * batches;
    const cpuPer = Object.fromEntries(names.map((k) => [k, cpu[k] / n]));
    opts.log(`  echo: direct ${s.direct.mean.toFixed(1)} µs · own session ${s.detached.mean.toFixed(1)} µs · through svc ${s.svc.mean.toFixed(1)} µs (${ratio(r.detached, halfSpread(ratios.detached))}; ${ratio(r.direct)} vs the same session)`);
    const us = (x) => `${x.p50.toFixed(1)} / ${x.p99.toFixed(1)} µs (mean ${x.mean.toFixed(1)})`;
    return {
      params: `${batches} batches of ${calls} sequential calls each way, rotating call by call (after 2 warm-up batches), the fixture server over stdio (test/integration/fixtures/mcp-echo-server.mjs)`,
      rows: [
        { measure: 'baseline: echo with the SDK Client directly (StdioClientTransport), its server in a session of its own as svc starts one, p50 / p99', result: us(s.detached) },
        { measure: 'the same, its server in the calling process\'s session (the SDK\'s way), p50 / p99', result: us(s.direct) },
        { measure: "the same call through svc's MCP tool (McpService, bench__echo), p50 / p99", result: us(s.svc) },
        { measure: 'through svc / direct, servers in sessions of their own (wall time per batch, mean of the batches)', result: ratio(r.detached, halfSpread(ratios.detached)), goal: '≤ 1.2x', ok: r.detached <= 1.2 },
        { measure: 'through svc / direct, the direct server in the caller\'s session', result: ratio(r.direct, halfSpread(ratios.direct)) },
        { measure: "the calling process's CPU per call: direct (own session) / direct (same session) / through svc", result: `${cpuPer.detached.toFixed(1)} / ${cpuPer.direct.toFixed(1)} / ${cpuPer.svc.toFixed(1)} µs` },
      ],
      data: { latency_us: s, ratios, cpu_per_call_us: cpuPer },
      failures,
    };
  } finally {
    await client.close().catch(() => undefined);
    await detachedClient.close().catch(() => undefined);
    await mcp.stop();
    removeHome(home);
  }
}

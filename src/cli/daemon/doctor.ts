/**
 * `svc doctor`: is this machine ready to run svc, and does the CLI reach its daemon? One line per
 * check (doctor-checks.ts) with ok, warn or fail and a hint; `--json`: `{ok, checks: [{name,
 * status, detail, hint}]}`. Exit 0 when no check failed, 1 (EXIT.failed) when one did; warnings
 * do not fail it.
 */
import type { Command } from 'commander';
import { clientOptions, loadClientConfig, resolveTarget, type ClientFlags } from '../client.js';
import { configCheck, daemonChecks, diskCheck, homeCheck, nodeCheck, toolChecks, type Check } from './doctor-checks.js';
import { EXIT } from '../exit-codes.js';
import { action, print } from '../output.js';

export interface DoctorReport {
  ok: boolean;
  checks: Check[];
}

export function registerDoctor(program: Command): void {
  clientOptions(program.command('doctor').description('check Node, the home, the config, the daemon, auth, the inbox socket, disk space and tools; exit 1 if a check fails')).action(
    action(async (flags: ClientFlags) => {
      const report = await doctor(flags);
      print(report, flags.json, human);
      if (!report.ok) process.exitCode = EXIT.failed;
    }),
  );
}

export async function doctor(flags: ClientFlags, env: NodeJS.ProcessEnv = process.env): Promise<DoctorReport> {
  const loaded = loadClientConfig(flags, env);
  const checks: Check[] = [nodeCheck(), homeCheck(loaded.home), configCheck(loaded)];
  let terminalTargets: number | null = null;
  // A config that does not load leaves no address to try (unless --url or SVC_URL gives one).
  if (loaded.config || flags.url !== undefined || env.SVC_URL) {
    const daemon = await daemonChecks(resolveTarget(flags, env, loaded));
    checks.push(...daemon.checks);
    terminalTargets = daemon.terminalTargets;
  }
  checks.push(diskCheck(loaded.home), ...toolChecks(loaded.config, terminalTargets, env));
  return { ok: checks.every((c) => c.status !== 'fail'), checks };
}

function human(r: DoctorReport): string {
  const width = Math.max(...r.checks.map((c) => c.name.length));
  const lines = r.checks.map((c) => `${c.status.padEnd(4)}  ${c.name.padEnd(width)}  ${c.detail}${c.hint ? `  (hint: ${c.hint})` : ''}`);
  const count = (s: string) => r.checks.filter((c) => c.status === s).length;
  return [...lines, `${r.ok ? 'ok' : 'failed'}: ${count('fail')} failed, ${count('warn')} warnings, ${count('ok')} ok`].join('\n');
}

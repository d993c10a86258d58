/** `svc timers …`: create, list, show, cancel (persistent timers, CONTRACT.md section 8). */
import type { Command } from 'commander';
import { clientOptions, controlApi, ok, resolveTarget, type ClientFlags } from './client.js';
import { action, print, record, table } from './output.js';
import { intArg } from './tasks.js';

const TIMER_COLUMNS = ['timer_id', 'status', 'duration_ms', 'interval_ms', 'next_fire_at', 'fire_count', 'summary'];

export function registerTimers(program: Command): void {
  const timers = program.command('timers').description('delayed and recurring timers of an agent');

  clientOptions(timers.command('create <agent>').description('create a timer that first fires after --duration-ms'))
    .requiredOption('--duration-ms <n>', 'delay before the first firing, in milliseconds', intArg)
    .option('--interval-ms <n>', 'then fire every N ms, N >= 1000 (absent or 0: one-shot)', intArg)
    .option('--summary <text>', 'what the timer is for')
    .action(
      action(async (agent: string, flags: ClientFlags & { durationMs: number; intervalMs?: number; summary?: string }) => {
        const body = { duration_ms: flags.durationMs, interval_ms: flags.intervalMs, summary: flags.summary };
        const res = await ok(controlApi(resolveTarget(flags)).POST('/api/control/agents/{id}/timers', { params: { path: { id: agent } }, body }));
        print(res, flags.json, record);
      }),
    );

  clientOptions(timers.command('list <agent>').description('active timers first, then cancelled and completed ones'))
    .option('--status <status>', 'only timers in this status (active, cancelled, completed)')
    .option('--limit <n>', 'most records returned', intArg)
    .action(
      action(async (agent: string, // --status passes any word; the daemon refuses one it does not know (400).
      flags: ClientFlags & { status?: 'active' | 'cancelled' | 'completed'; limit?: number }) => {
        const res = await ok(
          controlApi(resolveTarget(flags)).GET('/api/agents/{id}/timers', { params: { path: { id: agent }, query: { status: flags.status, limit: flags.limit?.toString() } } }),
        );
        print(res, flags.json, (r) => table(r.timers, TIMER_COLUMNS));
      }),
    );

  clientOptions(timers.command('show <agent> <timer_id>').description('one timer record')).action(
    action(async (agent: string, timerId: string, flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).GET('/api/agents/{id}/timers/{timer_id}', { params: { path: { id: agent, timer_id: timerId } } }));
      print(res, flags.json, record);
    }),
  );

  clientOptions(timers.command('cancel <agent> <timer_id>').description('cancel a timer')).action(
    action(async (agent: string, timerId: string, flags: ClientFlags) => {
      const res = await ok(
        controlApi(resolveTarget(flags)).POST('/api/control/agents/{id}/timers/{timer_id}/cancel', { params: { path: { id: agent, timer_id: timerId } }, body: {} }),
      );
      print(res, flags.json, record);
    }),
  );
}

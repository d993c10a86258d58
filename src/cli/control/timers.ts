/** `svc timers …`: create, list, show, cancel (persistent timers, docs/control-plane-api.md#timers). */
import { Option, type Command } from 'commander';
import { clientOptions, controlApi, ok, resolveTarget, type ClientFlags } from '../client.js';
import { durationArg } from '../duration.js';
import { action, print, record, table } from '../output.js';
import { intArg } from './tasks.js';

interface TimerFlags {
  duration?: number;
  durationMs?: number;
  interval?: number;
  intervalMs?: number;
  summary?: string;
}

const TIMER_COLUMNS = ['timer_id', 'status', 'duration_ms', 'interval_ms', 'next_fire_at', 'fire_count', 'summary'];

export function registerTimers(program: Command): void {
  const timers = program.command('timers').description('delayed and recurring timers of an agent');

  clientOptions(timers.command('create <agent>').description('create a timer that first fires after --duration (or --duration-ms)'))
    .addOption(new Option('--duration <duration>', 'delay before the first firing: 500ms, 5s, 2m, 1h, 1d, 1h30m').argParser(durationArg).conflicts('durationMs'))
    .option('--duration-ms <duration>', 'the same, a bare number being milliseconds', durationArg)
    .addOption(new Option('--interval <duration>', 'then fire this often, at least 1s (absent or 0: one-shot)').argParser(durationArg).conflicts('intervalMs'))
    .option('--interval-ms <duration>', 'the same, a bare number being milliseconds', durationArg)
    .option('--summary <text>', 'what the timer is for')
    .action(
      action(async (agent: string, flags: ClientFlags & TimerFlags, cmd: Command) => {
        const durationMs = flags.duration ?? flags.durationMs ?? cmd.error("error: required option '--duration <duration>' (or '--duration-ms') not specified");
        const body = { duration_ms: durationMs, interval_ms: flags.interval ?? flags.intervalMs, summary: flags.summary };
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

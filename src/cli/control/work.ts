/**
 * `svc work …`: create, list, show, update, pick, complete (durable work items,
 * docs/control-plane-api.md#work-items).
 */
import { Option, type Command } from 'commander';
import { clientOptions, controlApi, ok, resolveTarget, type ClientFlags, type ControlBody } from '../client.js';
import { action, print, record, table, type Row } from '../output.js';
import { durationArg } from '../duration.js';

const WORK_COLUMNS = ['id', 'state', 'plan_status', 'revision', 'blocked_by', 'updated_at', 'objective'];

function showItem(item: Row): string {
  const { todo_list, plan_artifact, ...rest } = item;
  const todos = (todo_list as Array<{ text: string; state: string }> | undefined) ?? [];
  const lines = [record({ ...rest, plan_artifact: plan_artifact ?? null })];
  if (todos.length) lines.push('todo:', ...todos.map((t) => `  [${t.state === 'completed' ? 'x' : t.state === 'in_progress' ? '~' : ' '}] ${t.text}`));
  return lines.join('\n');
}

type Update = ControlBody<'/api/control/agents/{id}/work-items/{work_item_id}', 'patch'>;

/** A JSON array; the daemon checks each {text, state} (400). */
function parseTodo(value: string): Update['todo_list'] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (err) {
    throw new Error(`--todo: not valid JSON: ${(err as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw new Error('--todo: expected a JSON array of {text, state}');
  return parsed as Update['todo_list'];
}

export function registerWork(program: Command): void {
  const work = program.command('work').description('durable work items of an agent');

  clientOptions(work.command('create <agent> <objective>').description('create a work item')).action(
    action(async (agent: string, objective: string, flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).POST('/api/control/agents/{id}/work-items', { params: { path: { id: agent } }, body: { objective } }));
      print(res, flags.json, showItem);
    }),
  );

  clientOptions(work.command('list <agent>').description("the agent's work items, oldest first")).action(
    action(async (agent: string, flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).GET('/api/agents/{id}/work-items', { params: { path: { id: agent } } }));
      // Without ?limit the route answers {ok, work_items}; a bare array only with it.
      const list = Array.isArray(res) ? { ok: true, work_items: res } : res;
      print(list, flags.json, (r) => table(r.work_items, WORK_COLUMNS));
    }),
  );

  clientOptions(work.command('show <agent> <id>').description('one work item')).action(
    action(async (agent: string, id: string, flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).GET('/api/agents/{id}/work-items/{work_item_id}', { params: { path: { id: agent, work_item_id: id } } }));
      print(res, flags.json, showItem);
    }),
  );

  clientOptions(work.command('update <agent> <id>').description('update objective, plan status, blocker, recheck or todo list'))
    .option('--objective <text>', 'new objective')
    .option('--plan-status <status>', 'new plan status')
    .addOption(new Option('--blocked-by <text>', 'set the blocker').conflicts('unblock'))
    .addOption(new Option('--unblock', 'clear the blocker (and any pending recheck)').conflicts('blockedBy'))
    .option('--recheck-after-ms <duration>', 'recheck after this long: 30m, 1d (a bare number is milliseconds; needs a blocker)', durationArg)
    .option('--todo <json>', 'replace the todo list: JSON array of {"text", "state": pending|in_progress|completed}')
    .action(
      action(
        async (
          agent: string,
          id: string,
          // --plan-status passes any word; the daemon refuses one it does not know (400).
          flags: ClientFlags & { objective?: string; planStatus?: Update['plan_status']; blockedBy?: string; unblock?: boolean; recheckAfterMs?: number; todo?: string },
        ) => {
          const body = {
            objective: flags.objective,
            plan_status: flags.planStatus,
            blocked_by: flags.unblock ? null : flags.blockedBy,
            recheck_after: flags.recheckAfterMs,
            todo_list: flags.todo === undefined ? undefined : parseTodo(flags.todo),
          };
          const res = await ok(
            controlApi(resolveTarget(flags)).PATCH('/api/control/agents/{id}/work-items/{work_item_id}', { params: { path: { id: agent, work_item_id: id } }, body }),
          );
          print(res, flags.json, showItem);
        },
      ),
    );

  clientOptions(work.command('pick <agent> <id>').description("make the work item the agent's current focus"))
    .option('--reason <text>', 'why the focus changes')
    .action(
      action(async (agent: string, id: string, flags: ClientFlags & { reason?: string }) => {
        const res = await ok(
          controlApi(resolveTarget(flags)).POST('/api/control/agents/{id}/work-items/{work_item_id}/pick', { params: { path: { id: agent, work_item_id: id } }, body: { reason: flags.reason } }),
        );
        print(res, flags.json, (r) => {
          const { warnings, ...t } = r.transition;
          return [record(t), ...warnings.map((w) => `warning: ${w.code}: ${w.message}`)].join('\n');
        });
      }),
    );

  clientOptions(work.command('complete <agent> <id> <report>').description('complete the work item with a report')).action(
    action(async (agent: string, id: string, report: string, flags: ClientFlags) => {
      const res = await ok(
        controlApi(resolveTarget(flags)).POST('/api/control/agents/{id}/work-items/{work_item_id}/complete', { params: { path: { id: agent, work_item_id: id } }, body: { report_text: report } }),
      );
      print(res, flags.json, showItem);
    }),
  );
}

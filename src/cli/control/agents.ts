/** `svc agents …`: list, create, show, status, state, tree, rename, repair, compact, delete, delete-status. */
import type { Command } from 'commander';
import { ApiError, clientOptions, controlApi, ok, resolveTarget, sleep, type ClientFlags, type Target } from '../client.js';
import { action, cell, print, record, table, type Row } from '../output.js';
import { usd } from './usage.js';

interface Job extends Row {
  job_id: string;
  status: 'pending' | 'running' | 'completed' | 'failed';
  phase: string | null;
  error: string | null;
}

interface TreeNode extends Row {
  agent_id: string;
  display_name: string;
  status: string;
  visibility: string;
  supervision?: { task_id: string; status: string; workspace_mode: string; worktree_path: string | null } | null;
  children: TreeNode[];
}

export function registerAgents(program: Command): void {
  const agents = program.command('agents').description('agents of the control plane');

  clientOptions(agents.command('list').description('list agents')).action(
    action(async (flags: ClientFlags) => {
      // The route answers a bare array; --json keeps printing {ok, agents} as it always has.
      const agents = await ok(controlApi(resolveTarget(flags)).GET('/api/agents/list'));
      print({ ok: true, agents }, flags.json, (r) => table(r.agents, ['agent_id', 'display_name', 'status', 'visibility', 'is_default']));
    }),
  );

  clientOptions(agents.command('create <id>').description('create an agent (idempotent)'))
    .option('--template <name>', 'agent template')
    .option('--name <display_name>', 'display name')
    .option('--parent <agent_id>', 'parent agent')
    .option('--private', 'private visibility')
    .action(
      action(async (id: string, flags: ClientFlags & { template?: string; name?: string; parent?: string; private?: boolean }) => {
        const body = { template: flags.template, display_name: flags.name, parent_agent_id: flags.parent, visibility: flags.private ? ('private' as const) : undefined };
        const res = await ok(controlApi(resolveTarget(flags)).POST('/api/control/agents/{id}/create', { params: { path: { id } }, body }));
        print(res, flags.json, (r) => `${r.created ? 'created' : 'exists'}\n${record(r.agent)}`);
      }),
    );

  clientOptions(agents.command('show <id>').description('agent detail: identity, incarnation, model, state, lineage')).action(
    action(async (id: string, flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).GET('/api/control/agents/{id}/detail', { params: { path: { id } } }));
      print(res, flags.json, (r) => record(flatten(r)));
    }),
  );

  clientOptions(agents.command('status <id>').description('agent summary')).action(
    action(async (id: string, flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).GET('/api/agents/{id}/status', { params: { path: { id } } }));
      print(res, flags.json, (r) => record(r));
    }),
  );

  clientOptions(agents.command('state <id>').description('bootstrap page: summary, session, tasks, timers, work items, …')).action(
    action(async (id: string, flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).GET('/api/agents/{id}/state', { params: { path: { id } } }));
      print(res, flags.json, humanState);
    }),
  );

  clientOptions(agents.command('tree').description('public agents with their subagents')).action(
    action(async (flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).GET('/api/control/agents/tree'));
      print(res, flags.json, (r) => (r.agents.length ? r.agents.flatMap((n) => treeLines(n, '', true, true)).join('\n') : '(none)'));
    }),
  );

  clientOptions(agents.command('rename <id> <name>').description('change the display name')).action(
    action(async (id: string, name: string, flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).PATCH('/api/control/agents/{id}/name', { params: { path: { id } }, body: { name } }));
      print(res, flags.json, (r) => `renamed ${cell(r.agent_id)} to ${cell(r.display_name)}`);
    }),
  );

  clientOptions(agents.command('repair <id>').description('retry incomplete post-create bootstrap')).action(
    action(async (id: string, flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).POST('/api/control/agents/{id}/repair', { params: { path: { id } } }));
      print(res, flags.json, (r) =>
        record({ agent_id: r.agent_id, completed: r.completed.join(', ') || '-', pending: r.pending.join(', ') || '-', error: r.error }),
      );
    }),
  );

  clientOptions(agents.command('compact <id>').description("compact the agent's history now: older entries become a summary (docs/context.md#compaction)")).action(
    action(async (id: string, flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).POST('/api/control/agents/{id}/compact', { params: { path: { id } } }));
      print(res, flags.json, (r) => {
        const c = r.compaction;
        if (!c) return 'nothing to compact (at most the last two entries since the previous compaction)';
        const head = record({ compaction_id: c.compaction_id, method: c.method, entries: `#${c.from_seq}–#${c.through_seq} (${c.entries})`, tokens: `${c.tokens_before} → ${c.tokens_after}`, reason: c.reason });
        return `${head}\n\n${c.summary}`;
      });
    }),
  );

  clientOptions(agents.command('delete <id>').description('schedule asynchronous deletion'))
    .option('--cascade', 'also delete private subagents')
    .option('--wait', 'wait until the deletion job completes (progress on stderr)')
    .action(
      action(async (id: string, flags: ClientFlags & { cascade?: boolean; wait?: boolean }) => {
        const target = resolveTarget(flags);
        const res = await ok(
          controlApi(target).DELETE('/api/control/agents/{id}', { params: { path: { id }, query: { cascade_private_children: flags.cascade ? 'true' : undefined } } }),
        );
        if (!flags.wait) {
          print(res, flags.json, (r) => `deletion scheduled: job ${r.job.job_id} (${r.job.status})`);
          return;
        }
        const done = await waitForDeletion(target, id, res.job);
        if (done.status === 'failed') throw new ApiError(1, 'deletion_failed', done.error ?? `deletion of ${id} failed`, done);
        print({ ok: true, job: done }, flags.json, (r) => `deleted ${id} (job ${r.job.job_id})`);
      }),
    );

  clientOptions(agents.command('delete-status <id>').description('progress of the latest deletion job')).action(
    action(async (id: string, flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).GET('/api/control/agents/{id}/delete-status', { params: { path: { id } } }));
      print(res, flags.json, (r) => record(r.job));
    }),
  );
}

/** Poll delete-status until the job completes or fails; each phase change goes to stderr. */
async function waitForDeletion(target: Target, id: string, first: Job): Promise<Job> {
  let job = first;
  let shown = '';
  for (;;) {
    const line = `${job.status}${job.phase ? ` (${job.phase})` : ''}`;
    if (line !== shown) {
      process.stderr.write(`deleting ${id}: ${line}\n`);
      shown = line;
    }
    if (job.status === 'completed' || job.status === 'failed') return job;
    await sleep(150);
    job = (await ok(controlApi(target).GET('/api/control/agents/{id}/delete-status', { params: { path: { id } } }))).job;
  }
}

function treeLines(node: TreeNode, prefix: string, last: boolean, root: boolean): string[] {
  const sup = node.supervision;
  const supervised = sup ? `  (task ${sup.task_id} ${sup.status}, ${sup.workspace_mode}${sup.worktree_path ? ` ${sup.worktree_path}` : ''})` : '';
  const label = `${node.agent_id}  ${node.display_name}  [${node.status}, ${node.visibility}]${supervised}`;
  const own = root ? label : `${prefix}${last ? '└─ ' : '├─ '}${label}`;
  const childPrefix = root ? '' : `${prefix}${last ? '   ' : '│  '}`;
  return [own, ...node.children.flatMap((c, i) => treeLines(c, childPrefix, i === node.children.length - 1, false))];
}

/** One level of nested objects as dotted keys (`identity.incarnation`). */
function flatten(obj: Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(obj)) {
    if (v && typeof v === 'object' && !Array.isArray(v)) for (const [k2, v2] of Object.entries(v as Row)) out[`${k}.${k2}`] = v2;
    else if (Array.isArray(v) && v.every((x) => typeof x !== 'object')) out[k] = v.join(' > ') || '-';
    else out[k] = v;
  }
  return out;
}

function humanState(r: Row): string {
  const agent = (r.agent ?? {}) as Row;
  const session = (r.session ?? {}) as Row;
  const count = (k: string) => (Array.isArray(r[k]) ? (r[k] as unknown[]).length : 0);
  const ws = (r.workspaces ?? {}) as Row;
  return record({
    agent_id: agent.agent_id,
    display_name: agent.display_name,
    status: agent.status,
    incarnation: agent.incarnation,
    pending: session.pending_count,
    pending_by_priority: session.pending_by_priority,
    last_event_seq: session.last_event_seq,
    tasks: count('tasks'),
    timers: count('timers'),
    work_items: count('work_items'),
    waiting_intents: count('waiting_intents'),
    external_triggers: count('external_triggers'),
    active_workspace: ws.active_workspace_id,
    ...usageToday(r.usage as { today: { tokens: number; cost_usd: number | null } } | undefined),
  });
}

/** Today's tokens and cost (svc usage has the rest). */
function usageToday(u: { today: { tokens: number; cost_usd: number | null } } | undefined): Row {
  return u ? { usage_today: `${u.today.tokens} tokens, ${u.today.cost_usd === null ? 'cost unknown' : `${usd(u.today.cost_usd)} USD`}` } : {};
}

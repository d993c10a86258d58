/** `svc agents …`: list, create, show, rename, delete. */
import type { Command } from 'commander';
import { call, clientOptions, resolveTarget, type ClientFlags } from './client.js';
import { action, print, record, table, type Row } from './output.js';

export function registerAgents(program: Command): void {
  const agents = program.command('agents').description('agents of the control plane');

  clientOptions(agents.command('list').description('list agents')).action(
    action(async (flags: ClientFlags) => {
      const res = await call<{ agents: Row[] }>(resolveTarget(flags), 'GET', '/api/agents/list');
      print(res, flags.json, (r) => table(r.agents, ['agent_id', 'display_name', 'status', 'visibility', 'is_default']));
    }),
  );

  clientOptions(agents.command('create <id>').description('create an agent (idempotent)'))
    .option('--template <name>', 'agent template')
    .option('--name <display_name>', 'display name')
    .option('--parent <agent_id>', 'parent agent')
    .option('--private', 'private visibility')
    .action(
      action(async (id: string, flags: ClientFlags & { template?: string; name?: string; parent?: string; private?: boolean }) => {
        const body = { template: flags.template, display_name: flags.name, parent_agent_id: flags.parent, visibility: flags.private ? 'private' : undefined };
        const res = await call<{ created: boolean; agent: Row }>(resolveTarget(flags), 'POST', `/api/control/agents/${encodeURIComponent(id)}/create`, { body });
        print(res, flags.json, (r) => `${r.created ? 'created' : 'exists'}\n${record(r.agent)}`);
      }),
    );
}

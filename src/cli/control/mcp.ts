/**
 * `svc mcp list|tools|restart` (docs/tools.md#mcp-servers): the configured MCP servers with
 * their state, one server's tools as models see them, and a restart of a server's process.
 */
import type { Command } from 'commander';
import type { components } from '../../generated/control-plane.js';
import { ApiError, clientOptions, controlApi, ok, resolveTarget, type ClientFlags } from '../client.js';
import { action, oneLine, print, table } from '../output.js';

type Server = components['schemas']['McpServer'];

function serverRow(s: Server) {
  return {
    name: s.name,
    transport: s.transport,
    state: s.enabled ? s.state : 'disabled',
    tools: s.state === 'ready' || s.state === 'backoff' ? s.tools.length : '-',
    restarts: s.restarts,
    pid: s.pid,
    agents: [...s.agents, ...s.templates.map((t) => `template:${t}`)].join(','),
    last_error: s.last_error ? oneLine(s.last_error, 60) : null,
  };
}

function showTools(s: Server): string {
  const lines = [`${s.name}: ${s.state}, ${s.tools.length} tools`];
  if (s.tools.length > 0) lines.push('', table(s.tools.map((t) => ({ model_name: t.model_name, class: t.class, description: oneLine(t.description, 70) })), ['model_name', 'class', 'description']));
  for (const w of s.warnings) lines.push(`not offered: ${w}`);
  if (s.last_error) lines.push(`last error: ${s.last_error}`);
  return lines.join('\n');
}

export function registerMcp(program: Command): void {
  const mcp = program.command('mcp').description('MCP servers: their state, their tools, a restart');

  clientOptions(mcp.command('list').description('the configured MCP servers: state, tool count, restarts, last error')).action(
    action(async (flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).GET('/api/control/runtime/mcp'));
      print(res, flags.json, (r) => table(r.servers.map(serverRow), ['name', 'transport', 'state', 'tools', 'restarts', 'pid', 'agents', 'last_error']));
    }),
  );

  clientOptions(mcp.command('tools <name>').description('the tools a server offers, by the names models call them (listed at its last start)')).action(
    action(async (name: string, flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).GET('/api/control/runtime/mcp/{server}', { params: { path: { server: name } } }));
      print(res, flags.json, (r) => showTools(r.server));
    }),
  );

  clientOptions(mcp.command('restart <name>').description('stop the server and start it again now; fails when it does not start')).action(
    action(async (name: string, flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).POST('/api/control/runtime/mcp/{server}/restart', { params: { path: { server: name } } }));
      const s = res.server;
      print(res, flags.json, () => `${s.name}: ${s.state}${s.pid ? ` (pid ${s.pid})` : ''}, ${s.tools.length} tools`);
      if (s.state !== 'ready') throw new ApiError(1, 'mcp_start_failed', `${s.name} did not start: ${s.last_error ?? s.state}`, res);
    }),
  );
}

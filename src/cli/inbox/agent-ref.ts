/**
 * Inbox agents by id or by name: every `svc inbox` command's `<agent>` argument and `--agent`
 * option takes either. A hook on the `inbox` group resolves the word through the inbox API
 * (`GET /agents`) before the command's action runs, so actions only ever see ids. An id wins over
 * a name (an agent may be created under a chosen id). No agent with that id or name is
 * `agent_not_found` (404, as the API answers for an unknown id); a name several agents share is
 * `agent_name_ambiguous` (409) with their ids. Both exit 1.
 */
import type { Command } from 'commander';
import { ApiError, inboxApi, ok, resolveTarget, type ClientFlags } from '../client.js';
import { fail } from '../output.js';

interface InboxAgent {
  agentId: string;
  name: string | null;
}

export function resolveInboxAgentRefs(inbox: Command): void {
  inbox.hook('preAction', async (_inbox, cmd) => {
    const flags = cmd.opts<ClientFlags & { agent?: unknown }>();
    const argIndexes = cmd.registeredArguments.flatMap((a, i) => (a.name() === 'agent' && typeof cmd.processedArgs[i] === 'string' ? [i] : []));
    const option = typeof flags.agent === 'string' && cmd.options.some((o) => o.attributeName() === 'agent');
    if (argIndexes.length === 0 && !option) return;
    try {
      const { agents } = await ok(inboxApi(resolveTarget(flags)).GET('/agents'));
      for (const i of argIndexes) cmd.processedArgs[i] = agentIdOf(cmd.processedArgs[i] as string, agents);
      if (option) cmd.setOptionValue('agent', agentIdOf(flags.agent as string, agents));
    } catch (err) {
      fail(err, flags.json === true);
    }
  });
}

/** The id of the agent that `ref` names (its id, else its name). */
function agentIdOf(ref: string, agents: InboxAgent[]): string {
  if (agents.some((a) => a.agentId === ref)) return ref;
  const named = agents.filter((a) => a.name === ref);
  if (named.length === 1) return named[0]!.agentId;
  if (named.length === 0) throw new ApiError(404, 'agent_not_found', `no inbox agent has the id or name '${ref}'`);
  const ids = named.map((a) => a.agentId);
  throw new ApiError(409, 'agent_name_ambiguous', `${ids.length} inbox agents are named '${ref}': ${ids.join(', ')}; give one of the ids`, { ids });
}

/**
 * `svc inbox …`: the inbox API over its Unix socket (docs/cli.md#inbox-commands). One file per
 * group registers its subcommands on the `inbox` command; an agent may be named by id or name
 * (agent-ref.ts).
 */
import type { Command } from 'commander';
import { resolveInboxAgentRefs } from './agent-ref.js';
import { registerInboxDeliver } from './deliver.js';
import { registerInboxDelivery } from './delivery.js';
import { registerInboxEntries } from './entries.js';
import { registerFollow } from './follow.js';
import { registerInboxStreams } from './streams.js';
import { registerInboxSubscriptions } from './subscriptions.js';

export function registerInbox(program: Command): void {
  const inbox = program.command('inbox').description('the inbox and event-source service (over its Unix socket)');
  registerInboxStreams(inbox);
  registerInboxSubscriptions(inbox);
  registerInboxEntries(inbox);
  registerInboxDelivery(inbox);
  registerFollow(inbox);
  registerInboxDeliver(inbox);
  resolveInboxAgentRefs(inbox);
}

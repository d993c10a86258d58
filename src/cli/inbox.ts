/**
 * `svc inbox …`: the inbox API over its Unix socket (CONTRACT.md section 11). One file per group
 * registers its subcommands on the `inbox` command.
 */
import type { Command } from 'commander';
import { registerInboxDelivery } from './inbox-delivery.js';
import { registerInboxStreams } from './inbox-streams.js';
import { registerInboxSubscriptions } from './inbox-subscriptions.js';

export function registerInbox(program: Command): void {
  const inbox = program.command('inbox').description('the inbox and event-source service (over its Unix socket)');
  registerInboxStreams(inbox);
  registerInboxSubscriptions(inbox);
  registerInboxDelivery(inbox);
}

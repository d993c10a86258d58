/** `svc inbox …` commands: agents, subscriptions, read, watch, ack. */
import type { Command } from 'commander';

export function registerInboxSubscriptions(_inbox: Command): void {}

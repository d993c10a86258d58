/** `svc inbox …` commands: hosts, sources, append, streams and compaction. */
import type { Command } from 'commander';

export function registerInboxStreams(_inbox: Command): void {}

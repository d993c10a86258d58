/** The `svc` command line. One file per command group. */
import { Command } from 'commander';
import { VERSION } from '../version.js';
import { registerAgents } from './agents.js';
import { registerServe } from './serve.js';

export async function main(argv: string[]): Promise<void> {
  const program = new Command();
  program.name('svc').description('local agent-runtime daemon and its client').version(VERSION);
  // Options belong to the command they follow: `svc serve --home A` and `svc agents list --home B`.
  program.enablePositionalOptions();
  registerServe(program);
  registerAgents(program);
  await program.parseAsync(argv);
}

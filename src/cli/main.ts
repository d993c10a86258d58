/** The `svc` command line. One file per command group. */
import { Command } from 'commander';
import { VERSION } from '../version.js';
import {
  registerAgents,
  registerApprovals,
  registerCredentials,
  registerEvents,
  registerMcp,
  registerMessages,
  registerModels,
  registerRun,
  registerRuntime,
  registerSkills,
  registerTasks,
  registerTimers,
  registerTriggers,
  registerTui,
  registerUsage,
  registerWork,
  registerWorkspaces,
} from './control/index.js';
import { registerInbox } from './inbox/index.js';
import { registerDoctor, registerServe, registerStatus } from './daemon/index.js';
import { registerCompletion } from './completion.js';
import { hideTokenFromProcessList } from './hide-token.js';
import { clientOptions, inheritClientOptions } from './client.js';
import { usageErrorOutput } from './output.js';
import { finishHelp } from './help.js';

export async function main(argv: string[]): Promise<void> {
  hideTokenFromProcessList(argv);
  await buildProgram(argv).parseAsync(argv);
}

/** The whole command tree; `argv` decides only how usage errors print (usageErrorOutput). */
export function buildProgram(argv: string[]): Command {
  const program = new Command();
  program.name('svc').description('local agent-runtime daemon and its client').version(VERSION);
  // Options belong to the command they follow: `svc serve --home A` and `svc agents list --home B`.
  program.enablePositionalOptions();
  // Set before the subcommands are made: they inherit it.
  program.configureOutput(usageErrorOutput(argv));
  // ... and the client options may also come before the subcommand: `svc --json agents list`.
  clientOptions(program);
  program.hook('preAction', (_program, command) => inheritClientOptions(program, command));
  registerServe(program);
  registerStatus(program);
  registerDoctor(program);
  registerAgents(program);
  registerMessages(program);
  registerRun(program);
  registerEvents(program);
  registerTui(program);
  registerRuntime(program);
  registerModels(program);
  registerUsage(program);
  registerCredentials(program);
  registerApprovals(program);
  registerMcp(program);
  registerTasks(program);
  registerTimers(program);
  registerWork(program);
  registerTriggers(program);
  registerWorkspaces(program);
  registerSkills(program);
  registerInbox(program);
  registerCompletion(program);
  finishHelp(program);
  return program;
}

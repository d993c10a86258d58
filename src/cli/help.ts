/**
 * Help pages, finished once the command tree is built: every command's help ends with its
 * `Examples:` (examples.ts), and a group given without a subcommand (`svc agents`) prints its
 * help on stdout and exits 0, as gh does; with `--json` it is the usage-error document instead.
 */
import type { Command } from 'commander';
import { EXAMPLES } from './examples.js';

/** The command's words after `svc` ('' for `svc` itself). */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** `program` and every command below it, parents first. */
export function allCommands(program: Command): Command[] {
  return [program, ...program.commands.flatMap((c) => allCommands(c))];
}

export function finishHelp(program: Command, examples: Record<string, string[]> = EXAMPLES): void {
  for (const cmd of allCommands(program)) {
    const lines = examples[commandPath(cmd)];
    if (lines) cmd.addHelpText('after', `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}`);
    if (cmd.commands.length > 0 && !hasAction(cmd)) groupAction(cmd);
  }
}

/** A group's own action: an unknown subcommand stays commander's usage error. */
function groupAction(group: Command): void {
  group.allowExcessArguments(true).action((_opts: unknown, cmd: Command) => {
    if (cmd.args.length > 0) return (cmd as unknown as { unknownCommand(): void }).unknownCommand();
    const path = `svc${commandPath(cmd) ? ` ${commandPath(cmd)}` : ''}`;
    if (cmd.optsWithGlobals().json) cmd.error(`error: '${path}' needs a subcommand: ${cmd.commands.map((c) => c.name()).join(', ')} (see ${path} --help)`);
    cmd.outputHelp();
  });
}

function hasAction(cmd: Command): boolean {
  return Boolean((cmd as unknown as { _actionHandler?: unknown })._actionHandler);
}

/**
 * Every help page ends with examples (src/cli/examples.ts): the test walks the commander tree and
 * fails for a command without them, for a key naming no command, and for an example that is not
 * a real invocation (a command path that does not exist, an option the command does not take, too
 * few or too many arguments).
 */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { EXAMPLES } from '../../src/cli/examples.js';
import { allCommands, commandPath } from '../../src/cli/help.js';
import { buildProgram } from '../../src/cli/main.js';

const program = buildProgram(['node', 'svc']);
const commands = allCommands(program);

function helpText(cmd: Command): string {
  let out = '';
  cmd.configureOutput({ writeOut: (s) => (out += s), writeErr: (s) => (out += s) });
  cmd.outputHelp();
  return out;
}

/** Shell words of `line` (quotes removed), split into the commands of a pipeline or list. */
function shellCommands(line: string): string[][] {
  const commands: string[][] = [[]];
  let word: string | null = null;
  let quote = '';
  const end = () => {
    if (word !== null) commands.at(-1)!.push(word);
    word = null;
  };
  for (const ch of line) {
    if (quote) {
      if (ch === quote) quote = '';
      else word += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      word ??= '';
    } else if (ch === '#' && word === null) break;
    else if ('|;&>'.includes(ch)) {
      end();
      commands.push([]);
    } else if (/\s/.test(ch)) end();
    else word = (word ?? '') + ch;
  }
  end();
  return commands;
}

/** The `svc …` words of an example (after any VAR=value assignments). */
function svcWords(line: string): string[] {
  const found = shellCommands(line)
    .map((words) => words.slice(words.findIndex((w) => !/^[A-Z_]+=/.test(w))))
    .filter((words) => words[0] === 'svc');
  expect(found, line).toHaveLength(1);
  return found[0]!.slice(1);
}

/** What is wrong with an invocation of `svc WORDS`, or null; and the command it reaches. */
function check(words: string[]): { cmd: Command; problem: string | null } {
  let cmd = program;
  const positional: string[] = [];
  const globals = new Map(program.options.map((o) => [o.long!, o]));
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === '--') {
      positional.push(...words.slice(i + 1));
      break;
    }
    if (w.startsWith('--')) {
      const name = w.split('=')[0]!;
      const option = cmd.options.find((o) => o.long === name) ?? (positional.length === 0 ? globals.get(name) : undefined);
      if (name === '--help') continue;
      if (!option) {
        if ((cmd as unknown as { _allowUnknownOption: boolean })._allowUnknownOption) continue;
        return { cmd, problem: `${commandPath(cmd)} has no option ${name}` };
      }
      const takesValue = (option.required || option.optional) && !(option.optional && !w.includes('=') && (words[i + 1] ?? '-').startsWith('-'));
      if (!takesValue) continue;
      const value = w.includes('=') ? w.slice(w.indexOf('=') + 1) : words[++i]!;
      try {
        option.parseArg?.(value, undefined);
      } catch (err) {
        return { cmd, problem: `${name} ${value}: ${(err as Error).message}` };
      }
      continue;
    }
    if (w.startsWith('-') && w.length > 1) continue;
    const sub = positional.length === 0 ? cmd.commands.find((c) => c.name() === w) : undefined;
    if (sub) cmd = sub;
    else positional.push(w);
  }
  const args = cmd.registeredArguments;
  const required = args.filter((a) => a.required).length;
  const variadic = args.some((a) => a.variadic) || (cmd as unknown as { _allowUnknownOption: boolean })._allowUnknownOption;
  if (cmd.commands.length > 0 && args.length === 0 && positional.length > 0) return { cmd, problem: `${commandPath(cmd) || 'svc'} has no command ${positional[0]}` };
  if (positional.length < required) return { cmd, problem: `${commandPath(cmd)} needs ${required} argument(s), got ${positional.length}` };
  if (!variadic && cmd.commands.length === 0 && positional.length > args.length) return { cmd, problem: `${commandPath(cmd)} takes ${args.length} argument(s), got ${positional.length}` };
  return { cmd, problem: null };
}

describe('help pages', () => {
  it('every command and group ends its help with an Examples section', () => {
    const missing = commands.filter((c) => !/\nExamples:\n( {2}\S.*\n){1,3}$/.test(helpText(c))).map((c) => `svc ${commandPath(c)}`.trim());
    expect(missing).toEqual([]);
  });

  it('every key of the examples names a command', () => {
    const paths = new Set(commands.map(commandPath));
    expect(Object.keys(EXAMPLES).filter((k) => !paths.has(k))).toEqual([]);
  });

  it("every example is a real invocation of its command or of one below it, with the command's options", () => {
    const problems: string[] = [];
    for (const [key, lines] of Object.entries(EXAMPLES)) {
      expect(lines.length, key).toBeGreaterThanOrEqual(1);
      expect(lines.length, key).toBeLessThanOrEqual(3);
      for (const line of lines) {
        const { cmd, problem } = check(svcWords(line));
        const path = commandPath(cmd);
        if (problem) problems.push(`${line}: ${problem}`);
        else if (!(key === '' || path === key || path.startsWith(`${key} `))) problems.push(`${line}: runs '${path}', not '${key}'`);
      }
    }
    expect(problems).toEqual([]);
  });
});

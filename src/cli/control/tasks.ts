/**
 * `svc tasks …`: run, delegate, list, show, output, input, stop (command tasks and child agents,
 * docs/control-plane-api.md#command-tasks).
 */
import { InvalidArgumentError, type Command } from 'commander';
import { clientOptions, controlApi, ok, resolveTarget, type ClientFlags, type ControlBody, type Target } from '../client.js';
import { EXIT, taskExitCode } from '../exit-codes.js';
import { durationArg } from '../duration.js';
import { action, print, record, table, type Row } from '../output.js';

/** Commander parser for a non-negative integer option (milliseconds, counts). */
export function intArg(value: string): number {
  if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError('expected a non-negative integer');
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError('integer too large');
  return n;
}

const TASK_COLUMNS = ['task_id', 'status', 'kind', 'exit_status', 'created_at', 'summary'];

interface OutputResult {
  ok: true;
  retrieval_status: 'success' | 'timeout' | 'not_ready';
  task: Row & { task_id: string; status: string; output_preview: string; output_truncated: boolean; exit_status: number | null };
}

/**
 * A task snapshot with the command's fields (a command task) or the child's (a child_agent task)
 * lifted to the top level, for tables and records.
 */
function flat(t: Row): Row {
  const command = (t.command ?? {}) as Row;
  const out: Row = { ...t, command: undefined, child_supervision: undefined, child_observability: undefined };
  if (t.kind !== 'child_agent') {
    const pick = (k: string) => command[k] ?? null;
    return { ...out, exit_status: pick('exit_status'), cmd: pick('cmd'), workdir: pick('workdir'), shell: pick('shell'), tty: pick('tty'), input_target: pick('input_target') };
  }
  const sup = (t.child_supervision ?? {}) as Row;
  const obs = (t.child_observability ?? {}) as Row;
  const wt = (sup.worktree ?? null) as Row | null;
  return {
    ...out,
    exit_status: null,
    phase: obs.phase ?? null,
    blocked_reason: obs.blocked_reason ?? null,
    waiting_reason: obs.waiting_reason ?? null,
    last_result: obs.last_result_brief ?? null,
    workspace_mode: sup.workspace_mode ?? null,
    delegation_id: sup.delegation_id ?? null,
    worktree_path: wt?.worktree_path ?? null,
    worktree_branch: wt?.worktree_branch ?? null,
    changed_files: Array.isArray(wt?.changed_files) ? (wt.changed_files as string[]).join(' ') || '-' : null,
    worktree_status: wt?.cleanup_status ?? null,
  };
}

function showSnapshot(t: Row): string {
  const f = flat(t);
  for (const k of ['command', 'child_supervision', 'child_observability']) delete f[k];
  return record(f);
}

/** What the status line adds when the task had not finished: why the output is not final. */
const UNFINISHED = { success: '', timeout: ' (the wait timed out)', not_ready: ' (not finished yet)' } as const;

/** Human form of an output result: the preview on stdout, a one-line status on stderr. */
function writeOutput(res: OutputResult): void {
  const preview = res.task.output_preview;
  if (res.task.output_truncated) process.stderr.write(`(output truncated: last ${Buffer.byteLength(preview)} of ${String(res.task.output_bytes)} bytes)\n`);
  process.stdout.write(preview.length && !preview.endsWith('\n') ? `${preview}\n` : preview);
  const exit = res.task.exit_status === null ? '' : `, exit ${res.task.exit_status}`;
  process.stderr.write(`task ${res.task.task_id} ${res.task.status}${exit}${UNFINISHED[res.retrieval_status]}\n`);
}

type TaskBody = ControlBody<'/api/control/agents/{id}/tasks', 'post'>;

/** POST the task; print its snapshot, or with --wait its output and exit as taskExitCode says. */
async function startTask(target: Target, agent: string, body: TaskBody, flags: ClientFlags & { wait?: boolean; timeoutMs?: number }): Promise<void> {
  const task = await ok(controlApi(target).POST('/api/control/agents/{id}/tasks', { params: { path: { id: agent } }, body }));
  if (!flags.wait) {
    print(task, flags.json, showSnapshot);
    return;
  }
  const out = await ok(
    controlApi(target).GET('/api/agents/{id}/tasks/{task_id}/output', {
      params: { path: { id: agent, task_id: task.task_id }, query: { block: 'true', timeout_ms: flags.timeoutMs?.toString() } },
    }),
  );
  if (flags.json) print(out, true, () => '');
  else writeOutput(out);
  process.exitCode = taskExitCode(out.task, out.retrieval_status);
}

/**
 * Commander drops the `--` that ends option parsing; `tasks run` needs to know which words came
 * after it. Returns a getter for those words (the tail of the command's operands).
 */
function literalTail(cmd: Command): () => string[] {
  let tail: string[] = [];
  const parse = cmd.parseOptions.bind(cmd);
  cmd.parseOptions = (args: string[]) => {
    tail = [];
    for (let i = 0; i < args.length; i++) {
      if (args[i] === '--') {
        tail = args.slice(i + 1);
        break;
      }
      // An option's value is never the end of options, even when it is `--` (`--summary --`).
      if (cmd.options.find((o) => o.long === args[i] || o.short === args[i])?.required) i++;
    }
    return parse(args);
  };
  return () => tail;
}

/** Words as one line for `<shell> -c`: the `literal` tail of `words` quoted, the rest as written. */
function commandLine(words: string[], literal: string[]): string {
  const text = words.slice(0, Math.max(0, words.length - literal.length));
  return [...text, ...literal.map(shellQuote)].join(' ');
}

function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

interface RunFlags {
  summary?: string;
  workdir?: string;
  shell?: string;
  login?: boolean;
  input?: boolean;
  tty?: boolean;
  cols?: number;
  rows?: number;
  wait?: boolean;
  timeoutMs?: number;
}

export function registerTasks(program: Command): void {
  const tasks = program.command('tasks').description('background command tasks and supervised child agents of an agent');

  const run = tasks
    .command('run <agent> <cmd...>')
    .description('start a command task (`<shell> -c CMD`): words before `--` are shell text joined with spaces, words after it arguments passed verbatim')
    // `-h` belongs to the command (`df -h`), so help is --help only; options svc does not know
    // are the command's too (`ls -la`), and `--` ends svc's options altogether.
    .helpOption('--help', 'display help for command')
    .allowUnknownOption();
  const literal = literalTail(run);
  clientOptions(run)
    .option('--summary <text>', 'what the task is for (default: the command line)')
    .option('--workdir <dir>', "working directory (default: the agent's active workspace)")
    .option('--shell <shell>', 'shell path or name (default /bin/sh)')
    .option('--login', 'run a login shell (`<shell> -lc CMD`)')
    .option('--input', 'give the command a stdin pipe (see `svc tasks input`)')
    .option('--tty', 'run the command in a pseudo-terminal; `svc tasks input` types into it')
    .option('--cols <n>', 'terminal columns with --tty (default 120)', intArg)
    .option('--rows <n>', 'terminal rows with --tty (default 40)', intArg)
    .option('--wait', "wait for the task to finish and print its output; exit 0 if it completed, the command's own exit status if it failed with one, 1 for any other end, 4 if still running when the wait ended")
    .option('--timeout-ms <duration>', 'longest wait with --wait: 10s, 2m (a bare number is milliseconds; server default 30s, at most 5m)', durationArg)
    .addHelpText(
      'after',
      `
svc's own options (--wait, --json, …) are read anywhere before \`--\`; everything after \`--\` goes to
the task verbatim, each word quoted for the shell; options svc does not know (-h below) are the
command's.
`,
    )
    .action(
      action(
        async (
          agent: string,
          words: string[],
          flags: ClientFlags & RunFlags,
        ) => {
          const target = resolveTarget(flags);
          const body = {
            cmd: commandLine(words, literal()),
            summary: flags.summary,
            workdir: flags.workdir,
            shell: flags.shell,
            login: flags.login ? true : undefined,
            accepts_input: flags.input ? true : undefined,
            tty: flags.tty ? true : undefined,
            cols: flags.cols,
            rows: flags.rows,
          };
          await startTask(target, agent, body, flags);
        },
      ),
    );

  clientOptions(tasks.command('delegate <agent> <message...>').description('hand work to a new supervised child agent (task kind child_agent); words of MESSAGE are joined'))
    .option('--worktree', "give the child a new git worktree of the agent's workspace (default: share the workspace)")
    .option('--cleanup <policy>', 'worktree when the child answers: auto (default: keep it only if changed), retain, remove')
    .option('--objective <text>', 'a work item for the child')
    .option('--summary <text>', 'what the delegation is for')
    .option('--wait', "wait for the child's answer and print it; exit 0 only if the task completed")
    .option('--timeout-ms <duration>', 'longest wait with --wait: 10s, 2m (a bare number is milliseconds; server default 30s, at most 5m)', durationArg)
    .action(
      action(
        async (
          agent: string,
          words: string[],
          // --cleanup passes any word; the daemon refuses one it does not know (400).
          flags: ClientFlags & { worktree?: boolean; cleanup?: 'auto' | 'retain' | 'remove'; objective?: string; summary?: string; wait?: boolean; timeoutMs?: number },
        ) => {
          const target = resolveTarget(flags);
          const body: TaskBody = {
            kind: 'child_agent',
            initial_message: words.join(' '),
            workspace_mode: flags.worktree ? 'worktree' : undefined,
            worktree_cleanup: flags.cleanup,
            objective: flags.objective,
            summary: flags.summary,
          };
          await startTask(target, agent, body, flags);
        },
      ),
    );

  clientOptions(tasks.command('list <agent>').description('active and recent tasks, newest first'))
    .option('--limit <n>', 'at most this many active and this many finished tasks', intArg)
    .action(
      action(async (agent: string, flags: ClientFlags & { limit?: number }) => {
        const res = await ok(controlApi(resolveTarget(flags)).GET('/api/agents/{id}/tasks', { params: { path: { id: agent }, query: { limit: flags.limit?.toString() } } }));
        print(res, flags.json, (r) => table(r.tasks.map(flat), TASK_COLUMNS));
      }),
    );

  clientOptions(tasks.command('show <agent> <task_id>').description('one task snapshot')).action(
    action(async (agent: string, taskId: string, flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).GET('/api/agents/{id}/tasks/{task_id}', { params: { path: { id: agent, task_id: taskId } } }));
      print(res, flags.json, showSnapshot);
    }),
  );

  clientOptions(tasks.command('output <agent> <task_id>').description('the tail of the output (status on stderr)'))
    .option('--block', 'wait until the task finishes; exit 4 if it is still running when the wait ends')
    .option('--timeout-ms <duration>', 'longest wait with --block: 10s, 2m (a bare number is milliseconds; server default 30s, at most 5m)', durationArg)
    .action(
      action(async (agent: string, taskId: string, flags: ClientFlags & { block?: boolean; timeoutMs?: number }) => {
        const out = await ok(
          controlApi(resolveTarget(flags)).GET('/api/agents/{id}/tasks/{task_id}/output', {
            params: { path: { id: agent, task_id: taskId }, query: { block: flags.block ? 'true' : undefined, timeout_ms: flags.timeoutMs?.toString() } },
          }),
        );
        if (flags.json) print(out, true, () => '');
        else writeOutput(out);
        if (out.retrieval_status === 'timeout') process.exitCode = EXIT.timeout;
      }),
    );

  clientOptions(tasks.command('input <agent> <task_id> <text>').description('write TEXT to the stdin of a task started with --input, or type it into the terminal of a --tty task'))
    .option('--newline', 'append a newline to TEXT')
    .option('--eof', 'close the stdin after writing (a --tty task gets Ctrl-D instead)')
    .action(
      action(async (agent: string, taskId: string, text: string, flags: ClientFlags & { newline?: boolean; eof?: boolean }) => {
        const body = { text: flags.newline ? `${text}\n` : text, eof: flags.eof ? true : undefined };
        const res = await ok(controlApi(resolveTarget(flags)).POST('/api/control/agents/{id}/tasks/{task_id}/input', { params: { path: { id: agent, task_id: taskId } }, body }));
        print(res, flags.json, (r) =>
          r.accepted_input ? `accepted: ${String(r.bytes_written ?? 0)} bytes written${r.summary_text ? ` (${r.summary_text})` : ''}` : `not accepted: ${r.summary_text ?? 'unknown reason'}`,
        );
        if (!res.accepted_input) process.exitCode = 1;
      }),
    );

  clientOptions(tasks.command('stop <agent> <task_id>').description('stop a task (SIGTERM; a second stop SIGKILLs)')).action(
    action(async (agent: string, taskId: string, flags: ClientFlags) => {
      const res = await ok(controlApi(resolveTarget(flags)).POST('/api/control/agents/{id}/tasks/{task_id}/stop', { params: { path: { id: agent, task_id: taskId } }, body: {} }));
      print(res, flags.json, (r) => `${r.summary_text}\n${record({ task_id: r.task.task_id, previous_status: r.previous_status, status: r.task.status, signal_sent: r.signal_sent })}`);
    }),
  );
}

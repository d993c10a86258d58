/**
 * `svc tui [AGENT]`: a terminal client attached to a runtime over the control plane (the
 * handshake capability `tui.remote`). It prints a header from the agent's state page, follows the
 * agent's event stream (the `tail` of `svc events tail`: reconnects resume after the last id) as
 * one readable line per event, and reads lines from stdin: a plain line is an operator prompt (the
 * route `svc prompt` uses), `/agent NAME`, `/state`, `/stop`, `/start`, `/wake [REASON]`, `/help`,
 * `/quit`. It needs no TTY, so scripts and tests can pipe into it.
 *
 * Leaving: `/quit` and the end of input wait until the prompts this session sent to the followed
 * agent are finished (their messages completed or failed), at most `--wait-ms`, then exit 0; past
 * that limit it exits 4 with `timeout`. Ctrl-C leaves at once. A daemon that cannot be reached at
 * start exits 3, as every client command does.
 */
import readline from 'node:readline';
import type { Command } from 'commander';
import type { EventEnvelope } from '../../events/index.js';
import { ApiError, clientOptions, controlApi, ok, resolveTarget, type ClientFlags, type Target } from '../client.js';
import { headOf, tail } from './events.js';
import { durationArg } from '../duration.js';
import { action, type Row } from '../output.js';
import { note, rawLine, render } from './tui-render.js';

interface TuiFlags extends ClientFlags {
  raw?: boolean;
  waitMs?: number;
}

const DEFAULT_WAIT_MS = 60_000;
/** How many finished message ids are remembered for prompts whose answer is still in flight. */
const FINISHED_MEMORY = 1000;

const HELP = [
  'TEXT            send TEXT to the agent as an operator prompt (//TEXT sends /TEXT)',
  '/agent NAME     follow another agent',
  '/state          the agent\'s state summary',
  '/stop, /start   stop the agent (abort its run, take nothing) or start it again',
  '/wake [REASON]  wake the agent',
  '/quit           leave (after the replies to your prompts), also at the end of input',
];

export function registerTui(program: Command): void {
  clientOptions(program.command('tui [agent]').description('terminal client: follow an agent (default: the default agent) and talk to it from stdin'))
    .option('--raw', 'print each event as its JSON envelope (one per line) instead of a readable line (--json does the same)')
    .option('--wait-ms <duration>', `at /quit or the end of input, wait this long for unanswered prompts (30s, 2m; a bare number is milliseconds), then exit 4 (default ${DEFAULT_WAIT_MS})`, durationArg)
    .action(
      action(async (agent: string | undefined, flags: TuiFlags) => {
        const session = new TuiSession(resolveTarget(flags), { raw: Boolean(flags.raw || flags.json), waitMs: flags.waitMs ?? DEFAULT_WAIT_MS });
        await session.run(agent);
      }),
    );
}

interface StatePage {
  agent: { agent_id: string; display_name: string; status: string; model: string | { effective_model: string } };
  session: { pending_count: number; current_run: Row | null };
  tasks: unknown[];
  timers: unknown[];
  work_items: unknown[];
  waiting_intents: unknown[];
}

class TuiSession {
  private agent = '';
  private follow: AbortController | null = null;
  /** Prompts sent to the followed agent whose messages have not finished yet. */
  private readonly outstanding = new Set<string>();
  /** Finished message ids whose prompt answer may still be on its way (the race with the stream). */
  private readonly finished = new Set<string>();
  private onSettled: (() => void) | null = null;

  constructor(
    private readonly target: Target,
    private readonly opts: { raw: boolean; waitMs: number },
  ) {}

  private get width(): number {
    return process.stdout.isTTY && process.stdout.columns ? process.stdout.columns : 160;
  }

  private say(tag: string, text: string): void {
    process.stdout.write(`${note(tag, text, this.width)}\n`);
  }

  private report(err: unknown): void {
    const e = err instanceof ApiError ? `${err.code}: ${err.message}` : (err as Error).message;
    process.stderr.write(`svc: ${e}\n`);
  }

  async run(agentArg: string | undefined): Promise<void> {
    const agent = agentArg ?? (await ok(controlApi(this.target).GET('/api'))).default_agent;
    await this.attach(agent); // unreachable daemon or unknown agent: the command fails here
    if (process.stdin.isTTY) this.say('help', 'type a prompt and press Enter; /help lists the commands');
    // terminal: false even on a TTY: the terminal's own line editing, and Ctrl-C stays a signal.
    const rl = readline.createInterface({ input: process.stdin, terminal: false, crlfDelay: Infinity });
    try {
      for await (const line of rl) {
        if ((await this.handle(line)) === 'quit') break;
      }
    } finally {
      rl.close();
      process.stdin.destroy();
    }
    try {
      await this.drain();
    } finally {
      this.detach();
    }
  }

  /** Follow `agent`: header, then its events from now on. The previous agent stays followed if this fails. */
  private async attach(agent: string): Promise<void> {
    const state = await this.state(agent);
    const head = await headOf(this.target, agent);
    this.detach();
    this.agent = agent;
    this.header(state);
    const follow = new AbortController();
    this.follow = follow;
    tail(this.target, agent, head, (e) => this.onEvent(e), follow.signal).catch((err: unknown) => {
      if (follow.signal.aborted) return;
      this.report(err);
      process.stderr.write(`svc: no longer following ${agent}; /agent NAME follows another\n`);
      this.detach();
    });
  }

  private detach(): void {
    this.follow?.abort();
    this.follow = null;
    this.outstanding.clear();
    this.finished.clear();
    this.settle();
  }

  private state(agent: string): Promise<StatePage> {
    return ok(controlApi(this.target).GET('/api/agents/{id}/state', { params: { path: { id: agent } } }));
  }

  private header(s: StatePage): void {
    const a = s.agent;
    const name = a.display_name && a.display_name !== a.agent_id ? ` (${a.display_name})` : '';
    const model = typeof a.model === 'string' ? a.model : a.model.effective_model;
    this.say('agent', `${a.agent_id}${name}: ${a.status}, model ${model}, ${s.session.pending_count} pending`);
  }

  private onEvent(e: EventEnvelope): void {
    if (this.opts.raw) process.stdout.write(`${rawLine(e)}\n`);
    else {
      const line = render(e, this.width);
      if (line !== null) process.stdout.write(`${line}\n`);
    }
    if (e.type !== 'message_completed' && e.type !== 'message_failed') return;
    const id = String(e.payload.message_id ?? '');
    if (this.outstanding.delete(id)) return this.settle();
    this.finished.add(id);
    if (this.finished.size > FINISHED_MEMORY) this.finished.delete(this.finished.values().next().value!);
  }

  private settle(): void {
    if (this.outstanding.size === 0 && this.onSettled) this.onSettled();
  }

  /** One input line; 'quit' ends the session. Failures are reported and the session goes on. */
  private async handle(line: string): Promise<'quit' | void> {
    if (line.trim() === '') return;
    if (!line.startsWith('/') || line.startsWith('//')) return this.guard(() => this.prompt(line.startsWith('//') ? line.slice(1) : line));
    const [cmd = '', ...rest] = line.trim().split(/\s+/);
    const arg = rest.join(' ');
    switch (cmd) {
      case '/quit':
      case '/exit':
        return 'quit';
      case '/help':
        for (const h of HELP) this.say('help', h);
        return;
      case '/agent':
        if (!arg) return this.say('agent', `following ${this.agent}`);
        return this.guard(() => this.attach(arg));
      case '/state':
        return this.guard(async () => this.summary(await this.state(this.agent)));
      // The outcome shows as the event the route appends (control_applied, wake_requested).
      case '/stop':
      case '/start':
        return this.guard(() => ok(controlApi(this.target).POST('/api/control/agents/{id}/control', { params: { path: { id: this.agent } }, body: { action: cmd.slice(1) } })));
      case '/wake':
        return this.guard(() =>
          ok(controlApi(this.target).POST('/api/control/agents/{id}/wake', { params: { path: { id: this.agent } }, body: { reason: arg || 'operator wake from svc tui', source: 'tui' } })),
        );
      default:
        this.report(new ApiError(0, 'unknown_command', `${cmd} is not a command (/help lists them; //TEXT sends /TEXT as a prompt)`));
    }
  }

  private async guard(fn: () => Promise<unknown>): Promise<void> {
    try {
      await fn();
    } catch (err) {
      this.report(err);
    }
  }

  private async prompt(text: string): Promise<void> {
    const res = await ok(controlApi(this.target).POST('/api/control/agents/{id}/prompt', { params: { path: { id: this.agent } }, body: { text } }));
    if (!this.follow) return; // not following: nothing would tell us it finished
    if (!this.finished.delete(res.message_id)) this.outstanding.add(res.message_id);
  }

  private summary(s: StatePage): void {
    this.header(s);
    const run = s.session.current_run;
    this.say(
      'state',
      `run ${run ? String(run.turn_id ?? 'active') : 'none'}, ${s.tasks.length} tasks, ${s.timers.length} timers, ${s.work_items.length} work items, ${s.waiting_intents.length} waiting`,
    );
  }

  /** Wait for the outstanding prompts, at most waitMs. */
  private async drain(): Promise<void> {
    if (this.outstanding.size === 0) return;
    const n = () => `${this.outstanding.size} prompt${this.outstanding.size === 1 ? '' : 's'}`;
    process.stderr.write(`svc: waiting up to ${this.opts.waitMs} ms for ${n()} to be answered (Ctrl-C leaves now)\n`);
    const settled = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), this.opts.waitMs);
      this.onSettled = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
    this.onSettled = null;
    if (!settled) throw new ApiError(1, 'timeout', `${n()} still unanswered after ${this.opts.waitMs} ms (the agent may be stopped or busy)`);
  }
}

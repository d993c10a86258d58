/**
 * `svc inbox …` commands for delivery (docs/cli.md#inbox-commands): targets, the agent delivery
 * pause/resume (added to the `agents` group the subscriptions commands own), timers, gc.
 */
import type { Command } from 'commander';
import { clientOptions, inboxApi, ok, resolveTarget, type ClientFlags, type InboxBody } from '../client.js';
import { action, print, record, table, type Row } from '../output.js';
import { jsonArg } from './streams.js';
import { recordOf } from './subscriptions.js';
import { durationArg } from '../duration.js';

const TARGET_COLUMNS = ['targetId', 'kind', 'status', 'url', 'tmuxTarget', 'runtimeAgentId', 'consecutiveFailures', 'lastError'];
const TIMER_COLUMNS = ['scheduleId', 'agentId', 'kind', 'state', 'at', 'every', 'cron', 'timezone', 'nextFireAt', 'fireCount', 'message'];

type Flags = ClientFlags & Record<string, unknown>;

// Bodies are built from the options as given; the daemon checks them (400), so they are only
// asserted to have the documented shape.
type Aggregation = InboxBody<'/agents/{agentId}', 'patch'>['aggregation'];

/** The `agents` group: the subscriptions commands create it; whoever registers first does. */
function agentsGroup(inbox: Command): Command {
  return inbox.commands.find((c) => c.name() === 'agents') ?? inbox.command('agents').description('inbox agents');
}

export function registerInboxDelivery(inbox: Command): void {
  registerTargets(inbox);
  registerPause(agentsGroup(inbox));
  registerTimers(inbox);

  clientOptions(
    inbox.command('gc').description('run housekeeping now (it also runs every minute): expired subscriptions, old acknowledged entries, old notifications; report counts'),
  ).action(action(async (flags: ClientFlags) => print(await ok(inboxApi(resolveTarget(flags)).POST('/gc', { body: {} })), flags.json, record)));
}

function registerTargets(inbox: Command): void {
  const targets = inbox.command('targets').description("an inbox agent's activation targets (webhook, terminal, runtime)");

  clientOptions(targets.command('list <agent>').description('targets of an agent')).action(
    action(async (agent: string, flags: ClientFlags) => {
      const res = await ok(inboxApi(resolveTarget(flags)).GET('/agents/{agentId}/targets', { params: { path: { agentId: agent } } }));
      print(res, flags.json, (r) => table(r.targets as Row[], TARGET_COLUMNS));
    }),
  );

  // `--url` is the control-plane URL here as everywhere (inbox commands use the socket); the
  // webhook's own URL is --webhook-url. Reading `--url` as the webhook's would make one word mean
  // two things, so a webhook target without --webhook-url is a usage error naming it.
  clientOptions(targets.command('create <agent>').description('add a target; a webhook secret is printed this once'))
    .requiredOption('--kind <kind>', 'webhook | terminal | runtime')
    .option('--webhook-url <url>', 'webhook: URL receiving the signed POST')
    .option('--secret <whsec>', 'webhook: signing secret (default: generated)')
    .option('--tmux-target <pane>', 'terminal: tmux target pane, e.g. work:0.1')
    .option('--tmux-socket <path>', 'terminal: tmux server socket (tmux -S)')
    .option('--runtime-agent <id>', 'runtime: control-plane agent whose queue receives notifications')
    .option('--aggregation <json>', 'this target\'s own policy, e.g. \'{"mode":"digest","cron":"0 9 * * *","timezone":"Europe/Berlin"}\' (default: the agent\'s)', jsonArg)
    .action(
      action(async (agent: string, flags: Flags, cmd: Command) => {
        if (flags.kind === 'webhook' && flags.webhookUrl === undefined) {
          cmd.error(`error: a webhook target needs --webhook-url URL${flags.url === undefined ? '' : ' (--url is the control-plane URL, not the webhook\'s)'}`);
        }
        const body = {
          kind: flags.kind,
          url: flags.webhookUrl,
          secret: flags.secret,
          tmuxTarget: flags.tmuxTarget,
          tmuxSocket: flags.tmuxSocket,
          runtimeAgentId: flags.runtimeAgent,
          aggregation: flags.aggregation,
        } as InboxBody<'/agents/{agentId}/targets', 'post'>;
        const client: ClientFlags = { socket: flags.socket, home: flags.home, token: flags.token, json: flags.json };
        print(await ok(inboxApi(resolveTarget(client)).POST('/agents/{agentId}/targets', { params: { path: { agentId: agent } }, body })), flags.json, record);
      }),
    );

  clientOptions(targets.command('delete <agent> <target>').description('remove a target and its pending notifications')).action(
    action(async (agent: string, target: string, flags: ClientFlags) => {
      print(await ok(inboxApi(resolveTarget(flags)).DELETE('/agents/{agentId}/targets/{targetId}', { params: { path: { agentId: agent, targetId: target } } })), flags.json, record);
    }),
  );

  clientOptions(targets.command('resume <agent> <target>').description('recover one target (offline -> active); keeps the agent pause')).action(
    action(async (agent: string, target: string, flags: ClientFlags) => {
      print(await ok(inboxApi(resolveTarget(flags)).POST('/agents/{agentId}/targets/{targetId}/resume', { params: { path: { agentId: agent, targetId: target } }, body: {} })), flags.json, record);
    }),
  );
}

function registerPause(agents: Command): void {
  clientOptions(
    agents
      .command('aggregation <agent> <policy>')
      .description(
        'set the aggregation policy (JSON: {"mode":"immediate"}, {"mode":"coalesce","windowMs":250}, {"mode":"digest","every":86400000 | "cron":"0 9 * * *","timezone":"…","maxEntries":50}; null: the default) of the agent, or with --target of one target (null: follow the agent)',
      ),
  )
    .option('--target <target>', "one target's own policy instead of the agent's")
    .action(
      action(async (agent: string, policy: string, flags: Flags) => {
        const api = inboxApi(resolveTarget(flags));
        const body = { aggregation: jsonArg(policy) as Aggregation };
        const res = flags.target
          ? await ok(api.PATCH('/agents/{agentId}/targets/{targetId}', { params: { path: { agentId: agent, targetId: flags.target as string } }, body }))
          : await ok(api.PATCH('/agents/{agentId}', { params: { path: { agentId: agent } }, body }));
        print(res, flags.json, record);
      }),
    );

  clientOptions(agents.command('pause <agent>').description('pause proactive delivery to the agent (entries keep arriving)')).action(
    action(async (agent: string, flags: ClientFlags) => {
      print(await ok(inboxApi(resolveTarget(flags)).POST('/agents/{agentId}/pause', { params: { path: { agentId: agent } }, body: {} })), flags.json, record);
    }),
  );

  clientOptions(agents.command('resume <agent>').description('resume delivery; without --delivery-only also recover offline targets'))
    .option('--delivery-only', 'only clear the pause and catch up active targets (offline targets stay offline)')
    .action(
      action(async (agent: string, flags: Flags) => {
        const body = flags.deliveryOnly ? { deliveryOnly: true } : {};
        print(await ok(inboxApi(resolveTarget(flags)).POST('/agents/{agentId}/resume', { params: { path: { agentId: agent } }, body })), flags.json, (r) =>
          recordOf(r, ['agent', 'targets']),
        );
      }),
    );
}

function registerTimers(inbox: Command): void {
  const timers = inbox.command('timers').description('inbox timers: reminders put into an agent inbox (at | every | cron)');

  clientOptions(timers.command('list').description('inbox timers, oldest first'))
    .option('--agent <id>', 'only timers of this inbox agent')
    .option('--status <state>', 'only timers in this state: active | paused | completed')
    .action(
      action(async (flags: Flags) => {
        const res = await ok(
          inboxApi(resolveTarget(flags)).GET('/timers', { params: { query: { agentId: flags.agent as string | undefined, status: flags.status as 'active' | 'paused' | 'completed' | undefined } } }),
        );
        print(res, flags.json, (r) => table(r.timers as Row[], TIMER_COLUMNS));
      }),
    );

  clientOptions(timers.command('create').description('create a timer: exactly one of --at, --every, --cron'))
    .requiredOption('--agent <id>', 'inbox agent')
    .option('--at <time>', 'one occurrence at an ISO 8601 time with offset')
    .option('--every <duration>', 'period, at least 1s: 30s, 15m, 1h, 1d (a bare number is milliseconds)', durationArg)
    .option('--cron <expr>', '5-field cron expression')
    .option('--timezone <zone>', 'IANA time zone for --cron (default: the daemon host zone)')
    .requiredOption('--message <text>', 'reminder text')
    .option('--sender <name>', 'sender shown on the entry')
    .action(
      action(async (flags: Flags) => {
        const body = { agentId: flags.agent, at: flags.at, every: flags.every, cron: flags.cron, timezone: flags.timezone, message: flags.message, sender: flags.sender } as InboxBody<'/timers', 'post'>;
        print(await ok(inboxApi(resolveTarget(flags)).POST('/timers', { body })), flags.json, record);
      }),
    );

  for (const [verb, what] of [
    ['pause', 'pause a timer'],
    ['resume', 'resume a paused timer at its next occurrence'],
  ] as const) {
    clientOptions(timers.command(`${verb} <schedule>`).description(what)).action(
      action(async (schedule: string, flags: ClientFlags) => {
        print(await ok(inboxApi(resolveTarget(flags)).POST(`/timers/{scheduleId}/${verb}`, { params: { path: { scheduleId: schedule } }, body: {} })), flags.json, (r) =>
          recordOf(r, ['timer']),
        );
      }),
    );
  }

  clientOptions(timers.command('delete <schedule>').description('delete a timer')).action(
    action(async (schedule: string, flags: ClientFlags) => {
      print(await ok(inboxApi(resolveTarget(flags)).DELETE('/timers/{scheduleId}', { params: { path: { scheduleId: schedule } } })), flags.json, record);
    }),
  );
}

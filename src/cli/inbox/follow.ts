/**
 * `svc inbox follow <provider> <template>` (docs/cli.md#inbox-commands, docs/agentinbox.md#follow):
 * AgentInbox's follow over the inbox socket. Template arguments come as repeated `--arg KEY=VALUE`
 * (a value `true`/`false`, a number, or JSON array/object/null is read as such, as AgentInbox's
 * client reads them) or as one `--args <json>`, not both.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { clientOptions, inboxApi, ok, resolveTarget, type ClientFlags, type InboxBody } from '../client.js';
import { intArg } from '../control/index.js';
import { action, print, table } from '../output.js';
import { jsonArg } from './streams.js';

interface FollowFlags extends ClientFlags {
  agent: string;
  arg: Record<string, unknown>;
  args?: unknown;
  config?: unknown;
  configRef?: string;
  startPolicy?: string;
  startOffset?: number;
  startTime?: string;
}

/** `KEY=VALUE` into the arguments gathered so far. */
function templateArg(raw: string, previous: Record<string, unknown>): Record<string, unknown> {
  const at = raw.indexOf('=');
  const key = at > 0 ? raw.slice(0, at).trim() : '';
  if (key === '') throw new InvalidArgumentError('expected KEY=VALUE');
  return { ...previous, [key]: argValue(raw.slice(at + 1)) };
}

function argValue(raw: string): unknown {
  if (raw === 'true' || raw === 'false' || raw === 'null' || /^-?\d+(\.\d+)?$/.test(raw)) return JSON.parse(raw);
  if (/^[[{]/.test(raw)) {
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  }
  return raw;
}

export function registerFollow(root: Command): void {
  clientOptions(root.command('follow <provider> <template>').description("follow a repository, pull request or issue (templates: github repo | pr | issue): ensures its host, streams and the agent's subscriptions"))
    .requiredOption('--agent <agent>', 'inbox agent (id or name)')
    .option('--arg <key=value>', 'a template argument: owner, repo, number, withCi (repeatable)', templateArg, {})
    .option('--args <json>', 'the template arguments as one JSON object (instead of --arg)', jsonArg)
    .option('--config <json>', 'configuration: apiBaseUrl and credentialRef go to the github host, the rest to the sources it creates', jsonArg)
    .option('--config-ref <ref>', 'configRef of the sources it creates (credential:PROFILE)')
    .option('--start-policy <policy>', 'of the subscriptions it creates: latest (default) | earliest | at_offset | at_time')
    .option('--start-offset <n>', 'with at_offset', intArg)
    .option('--start-time <iso>', 'with at_time')
    .action(
      action(async (provider: string, template: string, flags: FollowFlags) => {
        if (flags.args !== undefined && Object.keys(flags.arg).length > 0) throw new InvalidArgumentError('give --args or --arg, not both');
        const body = {
          agentId: flags.agent,
          providerOrKind: provider,
          template,
          templateArgs: flags.args ?? flags.arg,
          config: flags.config,
          configRef: flags.configRef,
          startPolicy: flags.startPolicy,
          startOffset: flags.startOffset,
          startTime: flags.startTime,
        } as InboxBody<'/follow', 'post'>; // --args, --config and --start-policy as given: the daemon checks them (400)
        const res = await ok(inboxApi(resolveTarget(flags)).POST('/follow', { body }));
        print(res, flags.json, (r) =>
          [
            `${r.templateId} for ${r.agentId} (host ${r.host.hostId}${r.host.created ? ', created' : ''})`,
            table(r.sources.map((x) => ({ ...x, created: x.created ? 'created' : 'reused' })), ['sourceId', 'streamKind', 'created']),
            table(r.subscriptions.map((x) => ({ ...x, created: x.created ? 'created' : 'reused' })), ['subscriptionId', 'sourceId', 'created']),
          ].join('\n\n'),
        );
      }),
    );
}

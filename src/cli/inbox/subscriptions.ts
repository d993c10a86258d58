/**
 * `svc inbox …` commands over the inbox socket: agents and subscriptions (docs/cli.md#inbox-commands);
 * the inbox itself (read, ack, watch, send, compact, policy) is entries.ts.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { clientOptions, inboxApi, ok, resolveTarget, type ClientFlags, type InboxBody, type InboxClient } from '../client.js';
import { jsonArg } from './streams.js';
import { action, print, record, table, type Row } from '../output.js';

const SUB_COLUMNS = ['subscriptionId', 'agentId', 'sourceId', 'startPolicy', 'consumedOffset', 'cleanupPolicy'];

export function registerInboxSubscriptions(root: Command): void {
  registerAgents(root);
  registerSubscriptions(root);
}

function registerAgents(root: Command): void {
  const agents = root.command('agents').description('inbox agents');
  clientOptions(agents.command('list').description('list inbox agents')).action(
    action(async (flags: ClientFlags) => {
      const res = await ok(inboxApi(resolveTarget(flags)).GET('/agents'));
      print(res, flags.json, (r: { agents: Row[] }) => table(r.agents, ['agentId', 'name', 'status', 'deliveryPaused', 'createdAt']));
    }),
  );
  clientOptions(agents.command('create').description('create an inbox agent (prints its agt_ id)'))
    .option('--name <name>', 'a name for people')
    .option('--aggregation <json>', 'its aggregation policy (see `svc inbox agents aggregation --help`; default coalesce 250 ms)', jsonArg)
    .action(
      action(async (// --aggregation is any JSON; the daemon checks it (400).
      flags: ClientFlags & { name?: string; aggregation?: InboxBody<'/agents', 'post'>['aggregation'] }) => {
        const res = await ok(inboxApi(resolveTarget(flags)).POST('/agents', { body: { name: flags.name, aggregation: flags.aggregation } }));
        print(res, flags.json, (r: Row) => record(r));
      }),
    );
  clientOptions(agents.command('get <agent>').description('one inbox agent, with its inbox, subscriptions and targets')).action(
    action(async (agent: string, flags: ClientFlags) => {
      print(await ok(inboxApi(resolveTarget(flags)).GET('/agents/{agentId}', { params: { path: { agentId: agent } } })), flags.json, (r) =>
        [
          recordOf(r, ['agent', 'inbox', 'subscriptions', 'activationTargets', 'activationDispatchStates', 'itemCounts']),
          `inbox ${r.inbox.inboxId}: ${r.itemCounts.total} entries, ${r.itemCounts.unacked} unacknowledged`,
          `\nsubscriptions\n${table(r.subscriptions as Row[], SUB_COLUMNS)}`,
          `\ntargets\n${table(r.activationTargets as Row[], ['targetId', 'kind', 'status', 'url', 'tmuxTarget', 'runtimeAgentId'])}`,
        ].join('\n'),
      );
    }),
  );
  clientOptions(agents.command('delete <agent>').description('delete an inbox agent with its subscriptions and entries')).action(
    action(async (agent: string, flags: ClientFlags) => {
      print(await ok(inboxApi(resolveTarget(flags)).DELETE('/agents/{agentId}', { params: { path: { agentId: agent } } })), flags.json, () => `deleted ${agent}`);
    }),
  );
}

interface CreateFlags extends ClientFlags {
  agent: string;
  source?: string;
  host?: string;
  filter?: Row;
  match?: Row;
  expr?: string;
  startPolicy?: string;
  startOffset?: number;
  startTime?: string;
  trackedResourceRef?: string;
  cleanup?: string;
  cleanupAt?: string;
  gracePeriodSecs?: number;
}

function registerSubscriptions(root: Command): void {
  const subs = root.command('subscriptions').description('subscriptions of inbox agents to sources');
  clientOptions(subs.command('list').description('list subscriptions'))
    .option('--agent <agent>', 'only this agent')
    .option('--source <source>', 'only this source')
    .action(
      action(async (flags: ClientFlags & { agent?: string; source?: string }) => {
        const res = await ok(inboxApi(resolveTarget(flags)).GET('/subscriptions', { params: { query: { agentId: flags.agent, sourceId: flags.source } } }));
        print(res, flags.json, (r: { subscriptions: Row[] }) => table(r.subscriptions, SUB_COLUMNS));
      }),
    );
  clientOptions(subs.command('create').description('subscribe an agent to a source (or, with --host, to every source of a host)'))
    .requiredOption('--agent <agent>', 'inbox agent (id or name)')
    .option('--source <source>', 'source id')
    .option('--host <host>', 'host id: the host shortcut, one subscription per source')
    .option('--filter <json>', 'filter object: {"match": {...}, "expr": "..."}', json('--filter'))
    .option('--match <json>', 'filter.match: {"dot.path": value | [values]}', json('--match'))
    .option('--expr <expr>', "filter.expr: CEL over `event`, or AgentInbox's JEXL over metadata, payload, eventVariant, sourceType, sourceKey")
    .option('--start-policy <policy>', 'latest (default) | earliest | at_offset | at_time', oneOf(['latest', 'earliest', 'at_offset', 'at_time']))
    .option('--start-offset <n>', 'with at_offset', positive)
    .option('--start-time <iso>', 'with at_time')
    .option('--tracked-resource-ref <ref>', 'subject whose terminal event ends the subscription (on_terminal modes)')
    .option('--cleanup <mode>', 'manual (default) | at | on_terminal | on_terminal_or_at', oneOf(['manual', 'at', 'on_terminal', 'on_terminal_or_at']))
    .option('--cleanup-at <iso>', 'removal time (modes at, on_terminal_or_at)')
    .option('--grace-period-secs <n>', 'delay after the terminal signal', nonNegative)
    .action(
      action(async (flags: CreateFlags) => {
        const filter = flags.filter ?? (flags.match || flags.expr ? { match: flags.match, expr: flags.expr } : undefined);
        const cleanupPolicy = flags.cleanup ? { mode: flags.cleanup, at: flags.cleanupAt, gracePeriodSecs: flags.gracePeriodSecs } : undefined;
        const body = {
          agentId: flags.agent,
          sourceId: flags.source,
          shortcut: flags.host ? { name: 'host', args: { hostId: flags.host } } : undefined,
          filter,
          startPolicy: flags.startPolicy,
          startOffset: flags.startOffset,
          startTime: flags.startTime,
          trackedResourceRef: flags.trackedResourceRef,
          cleanupPolicy,
        } as InboxBody<'/subscriptions', 'post'>; // the filter and policies as given: the daemon checks them (400)
        const res = await ok(inboxApi(resolveTarget(flags)).POST('/subscriptions', { body }));
        print(res, flags.json, (r: { subscriptions: Row[] }) => table(r.subscriptions, SUB_COLUMNS));
      }),
    );
  const one = (id: string) => ({ params: { path: { subscriptionId: id } } });
  clientOptions(subs.command('get <subscription>').description('one subscription, with its source, consumer and lag')).action(
    action(async (id: string, flags: ClientFlags) => {
      print(await ok(inboxApi(resolveTarget(flags)).GET('/subscriptions/{subscriptionId}', one(id))), flags.json, (r) =>
        [
          recordOf(r, ['subscription', 'source', 'inbox', 'activationTargets', 'consumer', 'lag']),
          `source ${r.source.sourceId}: ${r.source.sourceType} ${r.source.streamKind}/${r.source.streamKey}`,
          `consumer ${r.consumer.consumerId}: next offset ${r.lag.nextOffset}, ${r.lag.pendingEvents} pending`,
        ].join('\n'),
      );
    }),
  );
  const requests: Array<[string, string, (api: InboxClient, id: string) => Promise<Row>]> = [
    ['delete', 'remove a subscription (its entries stay)', (api, id) => ok(api.DELETE('/subscriptions/{subscriptionId}', one(id)))],
    ['lag', 'consumer offset and lag against the stream', (api, id) => ok(api.GET('/subscriptions/{subscriptionId}/lag', one(id)))],
    ['poll', 'catch the subscription up to the high watermark now', (api, id) => ok(api.POST('/subscriptions/{subscriptionId}/poll', { ...one(id), body: {} }))],
  ];
  for (const [name, about, request] of requests) {
    clientOptions(subs.command(`${name} <subscription>`).description(about)).action(
      action(async (id: string, flags: ClientFlags) => {
        const res = await request(inboxApi(resolveTarget(flags)), id);
        print(res, flags.json, (r: Row) => record(r));
      }),
    );
  }
  clientOptions(subs.command('reset <subscription>').description('move the consumer to --offset or a start policy; the subscription consumes from there right after'))
    .option('--offset <n>', 'next offset to consume', positive)
    .option('--start-policy <policy>', 'latest | earliest | at_offset | at_time', oneOf(['latest', 'earliest', 'at_offset', 'at_time']))
    .option('--start-offset <n>', 'with at_offset', positive)
    .option('--start-time <iso>', 'with at_time')
    .action(
      action(async (id: string, flags: ClientFlags & { offset?: number; startPolicy?: 'latest' | 'earliest' | 'at_offset' | 'at_time'; startOffset?: number; startTime?: string }) => {
        const body = { offset: flags.offset, startPolicy: flags.startPolicy, startOffset: flags.startOffset, startTime: flags.startTime };
        const res = await ok(inboxApi(resolveTarget(flags)).POST('/subscriptions/{subscriptionId}/reset', { params: { path: { subscriptionId: id } }, body }));
        print(res, flags.json, (r) =>
          [
            recordOf(r, ['subscription', 'consumer', 'lag']),
            `consumer ${r.consumer.consumerId} moved to ${r.consumer.startPolicy}: next offset ${r.lag.nextOffset}, ${r.lag.pendingEvents} pending (consumed right after; poll to consume now)`,
          ].join('\n'),
        );
      }),
    );
}

export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A record's own fields for people, without the nested copies AgentInbox's shape adds (`omit`). */
export function recordOf(r: object, omit: string[]): string {
  return record(Object.fromEntries(Object.entries(r).filter(([k]) => !omit.includes(k))));
}

function json(flag: string): (v: string) => Row {
  return (v) => {
    const parsed = safeJson(v);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new InvalidArgumentError(`${flag} must be a JSON object`);
    return parsed as Row;
  };
}

export function positive(v: string): number {
  if (!/^[1-9]\d*$/.test(v)) throw new InvalidArgumentError('must be a positive integer');
  return Number(v);
}

function nonNegative(v: string): number {
  if (!/^\d+$/.test(v)) throw new InvalidArgumentError('must be a non-negative integer');
  return Number(v);
}

function oneOf(values: string[]): (v: string) => string {
  return (v) => {
    if (!values.includes(v)) throw new InvalidArgumentError(`must be one of ${values.join(', ')}`);
    return v;
  };
}

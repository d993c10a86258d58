/**
 * `svc inbox …` commands over the inbox socket: agents, subscriptions, read, ack, watch, items,
 * compact (docs/cli.md#inbox-commands). `watch` follows the SSE stream and reconnects from the last
 * entry id it printed (Last-Event-ID), so an entry is printed once.
 */
import type http from 'node:http';
import { InvalidArgumentError, type Command } from 'commander';
import { ApiError, clientOptions, inboxApi, inboxPath, ok, open, resolveTarget, sleep, type ClientFlags, type InboxBody, type InboxClient, type Target } from '../client.js';
import { SseParser, unreadableStream } from '../control/index.js';
import { jsonArg } from './streams.js';
import { action, cell, print, record, table, type Row } from '../output.js';

const SUB_COLUMNS = ['subscriptionId', 'agentId', 'sourceId', 'startPolicy', 'consumedOffset', 'cleanupPolicy'];

export function registerInboxSubscriptions(root: Command): void {
  registerAgents(root);
  registerSubscriptions(root);
  registerInbox(root);
}

function registerAgents(root: Command): void {
  const agents = root.command('agents').description('inbox agents');
  clientOptions(agents.command('list').description('list inbox agents')).action(
    action(async (flags: ClientFlags) => {
      const res = await ok(inboxApi(resolveTarget(flags)).GET('/agents'));
      print(res, flags.json, (r: { agents: Row[] }) => table(r.agents, ['agentId', 'name', 'deliveryPaused', 'createdAt']));
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
  clientOptions(agents.command('get <agent>').description('one inbox agent')).action(
    action(async (agent: string, flags: ClientFlags) => {
      print(await ok(inboxApi(resolveTarget(flags)).GET('/agents/{agentId}', { params: { path: { agentId: agent } } })), flags.json, (r: Row) => record(r));
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
  const requests: Array<[string, string, (api: InboxClient, id: string) => Promise<Row>]> = [
    ['get', 'one subscription', (api, id) => ok(api.GET('/subscriptions/{subscriptionId}', one(id)))],
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
  clientOptions(subs.command('reset <subscription>').description('reposition to --offset or a start policy, and materialise from there'))
    .option('--offset <n>', 'next offset to consume', positive)
    .option('--start-policy <policy>', 'latest | earliest | at_offset | at_time', oneOf(['latest', 'earliest', 'at_offset', 'at_time']))
    .option('--start-offset <n>', 'with at_offset', positive)
    .option('--start-time <iso>', 'with at_time')
    .action(
      action(async (id: string, flags: ClientFlags & { offset?: number; startPolicy?: 'latest' | 'earliest' | 'at_offset' | 'at_time'; startOffset?: number; startTime?: string }) => {
        const body = { offset: flags.offset, startPolicy: flags.startPolicy, startOffset: flags.startOffset, startTime: flags.startTime };
        const res = await ok(inboxApi(resolveTarget(flags)).POST('/subscriptions/{subscriptionId}/reset', { params: { path: { subscriptionId: id } }, body }));
        print(res, flags.json, (r: Row) => record(r));
      }),
    );
}

interface Entry extends Row {
  entryId: string;
  kind: string;
  event: { type: string; subject: string | null; offset: number } | null;
  sender: string | null;
  message: string | null;
}

/** One human line per entry. */
function entryLine(e: Entry): string {
  const what = e.event ? `${e.event.type}${e.event.subject ? ` ${e.event.subject}` : ''} @${e.event.offset}` : `${e.sender ? `${e.sender}: ` : ''}${cell(e.message)}`;
  return `${e.entryId}  ${e.kind}  ${what}`;
}

function registerInbox(root: Command): void {
  clientOptions(root.command('read <agent>').description("a page of the agent's inbox (unacknowledged entries unless --include-acked)"))
    .option('--after <entry>', 'entries after this entry id')
    .option('--limit <n>', 'max entries (default 100)', positive)
    .option('--include-acked', 'also acknowledged entries')
    .action(
      action(async (agent: string, flags: ClientFlags & { after?: string; limit?: number; includeAcked?: boolean }) => {
        const query = { after: flags.after, limit: flags.limit?.toString(), includeAcked: flags.includeAcked ? ('true' as const) : undefined };
        const res = await ok(inboxApi(resolveTarget(flags)).GET('/agents/{agentId}/inbox/items', { params: { path: { agentId: agent }, query } }));
        print(res, flags.json, (r: { entries: Entry[]; nextCursor: string | null }) =>
          [r.entries.length ? r.entries.map(entryLine).join('\n') : '(no entries)', r.nextCursor ? `(more: --after ${r.nextCursor})` : '']
            .filter(Boolean)
            .join('\n'),
        );
      }),
    );

  clientOptions(root.command('ack <agent>').description('acknowledge entries: --all, --through ENTRY_ID or --ids a,b'))
    .option('--all', 'every entry')
    .option('--through <entry>', 'every entry up to and including this one')
    .option('--ids <ids>', 'these entries (comma-separated)')
    .action(
      action(async (agent: string, flags: ClientFlags & { all?: boolean; through?: string; ids?: string }) => {
        const forms = [flags.all ? { all: true as const } : null, flags.through ? { throughEntryId: flags.through } : null, flags.ids ? { entryIds: flags.ids.split(',').filter(Boolean) } : null];
        const [body, ...more] = forms.filter((f) => f !== null);
        if (!body || more.length) throw new Error('give exactly one of --all, --through ENTRY_ID, --ids a,b');
        const res = await ok(inboxApi(resolveTarget(flags)).POST('/agents/{agentId}/inbox/ack', { params: { path: { agentId: agent } }, body }));
        print(res, flags.json, (r: { acked: number }) => `acked ${r.acked}`);
      }),
    );

  clientOptions(root.command('compact <agent>').description("delete the agent's acknowledged entries")).action(
    action(async (agent: string, flags: ClientFlags) => {
      const res = await ok(inboxApi(resolveTarget(flags)).POST('/agents/{agentId}/inbox/compact', { params: { path: { agentId: agent } }, body: {} }));
      print(res, flags.json, (r: { removed: number }) => `removed ${r.removed}`);
    }),
  );

  const items = root.command('items').description('direct inbox items');
  clientOptions(items.command('add <agent> <message>').description('add a direct text item'))
    .option('--sender <sender>', 'who it is from')
    .action(
      action(async (agent: string, message: string, flags: ClientFlags & { sender?: string }) => {
        const res = await ok(
          inboxApi(resolveTarget(flags)).POST('/agents/{agentId}/inbox/items', { params: { path: { agentId: agent } }, body: { message, sender: flags.sender } }),
        );
        print(res, flags.json, (r: Entry) => entryLine(r));
      }),
    );

  clientOptions(root.command('watch <agent>').description('follow the inbox: unacknowledged backlog, then live entries (one JSON per line with --json)'))
    .option('--after <entry>', 'start after this entry id')
    .action(
      action(async (agent: string, flags: ClientFlags & { after?: string }) => {
        await watch(resolveTarget(flags), agent, flags.after, (e) => process.stdout.write(flags.json ? `${JSON.stringify(e)}\n` : `${entryLine(e)}\n`));
      }),
    );
}

const BACKOFF_MIN_MS = 200;
const BACKOFF_MAX_MS = 5000;

/** Follow the watch stream until interrupted; 4xx answers (unknown agent) end it, anything else reconnects. */
async function watch(target: Target, agent: string, after: string | undefined, onEntry: (e: Entry) => void): Promise<never> {
  let last = after;
  let delay = BACKOFF_MIN_MS;
  for (;;) {
    const { error, received } = await watchOnce(target, agent, last, (e) => {
      last = e.entryId;
      onEntry(e);
    });
    if (error && error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429) throw error;
    if (error) process.stderr.write(`svc: ${error.code}: ${error.message}; reconnecting in ${delay} ms\n`);
    delay = received ? BACKOFF_MIN_MS : Math.min(delay * 2, BACKOFF_MAX_MS);
    await sleep(delay);
  }
}

function watchOnce(target: Target, agent: string, after: string | undefined, onEntry: (e: Entry) => void): Promise<{ error?: ApiError; received: boolean }> {
  return new Promise((resolve) => {
    let received = false;
    const done = (error?: ApiError) => resolve({ error, received });
    const headers: Record<string, string> = { accept: 'text/event-stream', ...(after ? { 'last-event-id': after } : {}) };
    const req = open(target, inboxPath('/agents/{agentId}/inbox/watch', { path: { agentId: agent } }), { surface: 'inbox', headers }, (res: http.IncomingMessage) => {
      res.setEncoding('utf8');
      if (res.statusCode !== 200) {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          const env = safeJson(text) as { code?: string; error?: string } | null;
          done(new ApiError(res.statusCode ?? 0, env?.code ?? `http_${res.statusCode}`, env?.error ?? text));
        });
        return;
      }
      const parser = new SseParser((f) => {
        const frame = f.event === 'items' ? (safeJson(f.data) as { entries?: Entry[] } | null) : null;
        for (const entry of frame?.entries ?? []) {
          received = true;
          onEntry(entry);
        }
      }, (err) => {
        done(unreadableStream(err));
        req.destroy();
      });
      res.on('data', (chunk: string) => parser.push(chunk));
      res.on('close', () => done());
      res.on('error', () => done());
    });
    req.on('error', (err: NodeJS.ErrnoException) => done(new ApiError(0, 'unreachable', `cannot reach the inbox socket ${target.socketPath}: ${err.code ?? err.message}`)));
    req.end();
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function json(flag: string): (v: string) => Row {
  return (v) => {
    const parsed = safeJson(v);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new InvalidArgumentError(`${flag} must be a JSON object`);
    return parsed as Row;
  };
}

function positive(v: string): number {
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

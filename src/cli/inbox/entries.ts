/**
 * `svc inbox read|ack|send|watch|compact|policy` (docs/cli.md#inbox-commands): an agent's inbox as
 * AgentInbox's daemon answers it (entries: an item, or a digest snapshot of a thread). `watch`
 * follows the SSE stream and reconnects from the last entry id it printed (Last-Event-ID), so an
 * entry is printed once; heartbeats are not printed.
 */
import type http from 'node:http';
import type { Command } from 'commander';
import { ApiError, clientOptions, inboxApi, inboxPath, ok, open, resolveTarget, sleep, type ClientFlags, type InboxBody, type Target } from '../client.js';
import { SseParser, unreadableStream } from '../control/index.js';
import { durationArg } from '../duration.js';
import { action, cell, print, record, type Row } from '../output.js';
import { positive, safeJson } from './subscriptions.js';

interface Entry extends Row {
  entryId: string;
  kind: string;
  itemKind?: string;
  summary: string;
  count: number;
  event?: { type: string; subject: string | null; offset: number } | null;
  sender?: string | null;
  message?: string | null;
  ackedAt: string | null;
}

/** One human line per entry: id, what it is, and what it says. */
function entryLine(e: Entry): string {
  const what =
    e.kind === 'digest_snapshot'
      ? e.summary
      : e.event
        ? `${e.event.type}${e.event.subject ? ` ${e.event.subject}` : ''} @${e.event.offset}`
        : `${e.sender ? `${e.sender}: ` : ''}${cell(e.message)}`;
  return `${e.entryId}  ${e.kind === 'item' ? (e.itemKind ?? 'item') : `digest(${e.count})`}  ${what}${e.ackedAt ? '  (acked)' : ''}`;
}

type PolicyFlags = ClientFlags & { enabled?: boolean; disabled?: boolean; windowMs?: number; maxItems?: number; maxThreadAgeMs?: number };

export function registerInboxEntries(root: Command): void {
  clientOptions(root.command('read <agent>').description("the agent's entries (unacknowledged ones unless --include-acked), a page at a time"))
    .option('--after <entry>', 'entries after this entry id')
    .option('--limit <n>', 'max entries (default 100)', positive)
    .option('--include-acked', 'also acknowledged and superseded entries')
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

  clientOptions(root.command('ack <agent>').description('acknowledge entries: --all, --through ENTRY_ID or --ids a,b (entry or item ids)'))
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

  clientOptions(root.command('compact <agent>').description("delete the agent's items acknowledged more than a day ago (or --retention ago)"))
    .option('--retention <duration>', 'keep items acknowledged less than this long ago (default 1d; 0: delete every acknowledged item)', durationArg)
    .action(
      action(async (agent: string, flags: ClientFlags & { retention?: number }) => {
        const body = flags.retention === undefined ? {} : { retentionMs: flags.retention };
        const res = await ok(inboxApi(resolveTarget(flags)).POST('/agents/{agentId}/inbox/compact', { params: { path: { agentId: agent } }, body }));
        print(res, flags.json, (r: { deleted: number; retentionMs: number }) => `deleted ${r.deleted} (acknowledged more than ${r.retentionMs} ms ago)`);
      }),
    );

  const send = async (agent: string, message: string, flags: ClientFlags & { sender?: string }) => {
    const res = await ok(inboxApi(resolveTarget(flags)).POST('/agents/{agentId}/inbox/items', { params: { path: { agentId: agent } }, body: { message, sender: flags.sender } }));
    print(res, flags.json, (r: Row) => record(r));
  };
  clientOptions(root.command('send <agent> <message>').description('add a direct text item'))
    .option('--sender <sender>', 'who it is from')
    .action(action(send));
  const items = root.command('items').description('direct inbox items');
  clientOptions(items.command('add <agent> <message>').description('add a direct text item (the same as send)'))
    .option('--sender <sender>', 'who it is from')
    .action(action(send));

  clientOptions(root.command('watch <agent>').description('follow the inbox: unacknowledged backlog, then live entries (one JSON per line with --json)'))
    .option('--after <entry>', 'start after this entry id')
    .option('--heartbeat-ms <duration>', 'ask the daemon for a heartbeat this often (default 15s)', durationArg)
    .action(
      action(async (agent: string, flags: ClientFlags & { after?: string; heartbeatMs?: number }) => {
        await watch(resolveTarget(flags), agent, { after: flags.after, heartbeatMs: flags.heartbeatMs }, (e) =>
          process.stdout.write(flags.json ? `${JSON.stringify(e)}\n` : `${entryLine(e)}\n`),
        );
      }),
    );

  const policy = root.command('policy').description("an agent's inbox policy: digest threads (AgentInbox's inbox policy)");
  clientOptions(policy.command('show <agent>').description('the inbox policy, with the notification policies beside')).action(
    action(async (agent: string, flags: ClientFlags) => {
      print(await ok(inboxApi(resolveTarget(flags)).GET('/agents/{agentId}/inbox/policy', { params: { path: { agentId: agent } } })), flags.json, record);
    }),
  );
  clientOptions(policy.command('set <agent>').description('change the policy: --enabled/--disabled, else it stays; a number not given goes back to its default (as AgentInbox)'))
    .option('--enabled', 'group related items into digest threads')
    .option('--disabled', 'one entry per item')
    .option('--window-ms <duration>', 'snapshot a thread this long after its last item (default 30s)', durationArg)
    .option('--max-items <n>', 'snapshot a thread at this many unacknowledged items (default 20)', positive)
    .option('--max-thread-age-ms <duration>', 'a thread older than this takes no more items (default 1d)', durationArg)
    .action(
      action(async (agent: string, flags: PolicyFlags) => {
        if (flags.enabled && flags.disabled) throw new Error('give one of --enabled, --disabled');
        const body = {
          enabled: flags.enabled ? true : flags.disabled ? false : undefined,
          windowMs: flags.windowMs,
          maxItems: flags.maxItems,
          maxThreadAgeMs: flags.maxThreadAgeMs,
        } as InboxBody<'/agents/{agentId}/inbox/policy', 'post'>;
        print(await ok(inboxApi(resolveTarget(flags)).POST('/agents/{agentId}/inbox/policy', { params: { path: { agentId: agent } }, body })), flags.json, record);
      }),
    );
}

const BACKOFF_MIN_MS = 200;
const BACKOFF_MAX_MS = 5000;

interface WatchOptions {
  after: string | undefined;
  heartbeatMs: number | undefined;
}

/** Follow the watch stream until interrupted; 4xx answers end it, anything else reconnects. */
async function watch(target: Target, agent: string, opts: WatchOptions, onEntry: (e: Entry) => void): Promise<never> {
  let last = opts.after;
  let delay = BACKOFF_MIN_MS;
  for (;;) {
    const { error, received } = await watchOnce(target, agent, { after: last, heartbeatMs: opts.heartbeatMs }, (e) => {
      last = e.entryId;
      onEntry(e);
    });
    if (error && error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429) throw error;
    if (error) process.stderr.write(`svc: ${error.code}: ${error.message}; reconnecting in ${delay} ms\n`);
    delay = received ? BACKOFF_MIN_MS : Math.min(delay * 2, BACKOFF_MAX_MS);
    await sleep(delay);
  }
}

function watchOnce(target: Target, agent: string, opts: WatchOptions, onEntry: (e: Entry) => void): Promise<{ error?: ApiError; received: boolean }> {
  return new Promise((resolve) => {
    let received = false;
    const done = (error?: ApiError) => resolve({ error, received });
    const headers: Record<string, string> = { accept: 'text/event-stream', ...(opts.after ? { 'last-event-id': opts.after } : {}) };
    const query = opts.heartbeatMs === undefined ? undefined : { heartbeatMs: String(opts.heartbeatMs) };
    const req = open(target, inboxPath('/agents/{agentId}/inbox/watch', { path: { agentId: agent }, query }), { surface: 'inbox', headers }, (res: http.IncomingMessage) => {
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
      const parser = new SseParser(
        (f) => {
          const frame = f.event === 'items' ? (safeJson(f.data) as { entries?: Entry[] } | null) : null;
          for (const entry of frame?.entries ?? []) {
            received = true;
            onEntry(entry);
          }
        },
        (err) => {
          done(unreadableStream(err));
          req.destroy();
        },
      );
      res.on('data', (chunk: string) => parser.push(chunk));
      res.on('close', () => done());
      res.on('error', () => done());
    });
    req.on('error', (err: NodeJS.ErrnoException) => done(new ApiError(0, 'unreachable', `cannot reach the inbox socket ${target.socketPath}: ${err.code ?? err.message}`)));
    req.end();
  });
}
